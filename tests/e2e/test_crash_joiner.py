"""Across namespaces (issue 12): a joiner killed mid-round while the host keeps running comes
back with ``lancards resume`` and the game finishes; a guest killed before the start loses its
seat after the grace, another peer takes it and the game starts."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

from tests.e2e.peers import (
    Peer,
    finish,
    host_args,
    join_args,
    logs,
    open_table,
    seat_peers,
    wait_for,
)

pytestmark = pytest.mark.e2e

KILL_AT = 100
"""Journal entries the joiner has before it is killed."""


def key_order(peer: Peer, other: Peer, lower: bool) -> None:
    """Give ``peer`` a key lower (or higher) than ``other``'s."""
    from lancards.p2p.net.identity_file import identity_path

    target = other.public_key()
    while (peer.public_key() < target) != lower:
        identity_path(env={"LANCARDS_HOME": str(peer.home)}).unlink()


@pytest.mark.timeout(400)
@pytest.mark.parametrize(("lower", "port_taken"), [  # host-dials in CI (its budget)
    pytest.param(True, False, marks=pytest.mark.long), (False, False),
    pytest.param(False, True, marks=pytest.mark.long)], ids=["joiner-dials", "host-dials",
                                                             "port-taken"])
def test_joiner_killed_mid_round_resumes_and_the_game_finishes(lan, tmp_path, lower,
                                                              port_taken):
    """Lower key: the resumed joiner dials the running host, which must still accept it.
    Higher key: the host must dial the joiner again (the lobby link was the joiner's). Port
    taken: another program holds the joiner's old port; it listens elsewhere and dials."""
    peers = seat_peers(lan, tmp_path, 3)
    host, victim = peers[0], peers[2]
    key_order(victim, host, lower)
    open_table(peers, "level8-master")
    wait_for(lambda: victim.journal_entries() >= KILL_AT, 120, "the game did not get going",
             peers)
    assert victim.proc is not None
    os.killpg(victim.proc.pid, signal.SIGKILL)
    assert victim.proc.wait(10) == -signal.SIGKILL
    killed_at = victim.journal_entries()
    assert all(p.proc is not None and p.proc.poll() is None for p in peers[:2]), logs(peers)
    if port_taken:
        table = json.loads(next(victim.home.glob("tables/*/table.json")).read_text())
        address, port = table["listen"]
        squatter = lan.spawn(victim.host, [sys.executable, "-c", (
            "import socket, time\ns = socket.socket()\n"
            "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"  # past TIME_WAIT
            f"s.bind(({address!r}, {port}))\ns.listen()\ntime.sleep(300)")])
        wait_for(lambda: str(port) in lan.run(victim.host, ["ss", "-ltn"]).stdout, 10,
                 "the squatter did not bind", [])
    victim.start(["resume", "--autoplay", "--record", str(victim.record)])
    codes = finish(peers, 240)
    assert codes == [0, 0, 0], logs(peers)
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert all(r == records[0] for r in records), "records differ after the resume"
    verdict = victim.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    assert verdict["entries"] > killed_at
    if port_taken:
        assert f"port {port} is taken; listening on" in victim.output()
        lan.stop(squatter)


@pytest.mark.timeout(400)
def test_guest_killed_before_the_start_loses_its_seat_to_another_peer(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 4, env={0: {"LANCARDS_LOBBY_GRACE": "2"}})
    host, dropped, late = peers[0], peers[1], peers[2:]
    host.start(host_args(host, "eights", 3))
    wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise", [host])
    dropped.start(join_args(dropped))
    wait_for(lambda: "waiting for 1 player" in host.output(), 60, "the guest was not seated",
             [host, dropped])
    assert dropped.proc is not None
    os.killpg(dropped.proc.pid, signal.SIGKILL)
    dropped.proc.wait(10)
    wait_for(lambda: f"freed the seat of {dropped.nick}" in host.output(), 60,
             "the host kept the dead guest's seat", [host])
    assert "waiting for 2 players" in host.output().split("freed the seat of")[1]
    for peer in late:
        peer.start(join_args(peer))
    codes = finish([host, *late], 300)
    assert codes == [0, 0, 0], logs(peers)
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0]
               for p in (host, *late)]
    assert all(r == records[0] for r in records)
    verdict = host.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    assert not dropped.record.exists()


@pytest.mark.timeout(180)
def test_joiner_killed_after_signing_the_start_fetches_it_and_the_game_finishes(lan, tmp_path):
    """The crash-point sweep's find: a joiner killed before the started table reached its disk
    (its 2nd durable write; the 1st, the statement it signed, is durable before its start
    signature leaves) while the table started with its signature. ``lancards resume`` fetches
    the start signatures from a seated peer (``table.ask``); killed once more right after
    leasing its ask's number (its 1st write of that run), resumed again, the game finishes."""
    peers = seat_peers(lan, tmp_path, 3, env={2: {"LANCARDS_TEST_CRASH_AT": "before:2"}})
    victim = peers[2]
    open_table(peers, "eights")
    wait_for(lambda: victim.proc is not None and victim.proc.poll() is not None, 60,
             "the joiner was not killed at its 2nd write", peers[:2])
    assert victim.proc is not None and victim.proc.returncode == -signal.SIGKILL
    folder = next(victim.home.glob("tables/*"))
    signed = json.loads((folder / "table.json").read_text())
    assert "sigs" not in signed and signed["nick"] == victim.nick
    assert [m["nick"] for m in signed["statement"]["seats"]].count(victim.nick) == 1
    assert not (folder / "journal.jsonl").exists()
    victim.env = {"LANCARDS_TEST_CRASH_AT": "after:1"}  # the ask's lease
    victim.start(["resume", "--autoplay", "--record", str(victim.record)])
    assert victim.proc is not None
    assert victim.proc.wait(30) == -signal.SIGKILL, logs(peers)
    assert "sigs" not in json.loads((folder / "table.json").read_text())
    victim.env = {}
    victim.start(["resume", "--autoplay", "--record", str(victim.record)])
    codes = finish(peers, 120)
    assert codes == [0, 0, 0], logs(peers)
    assert victim.output().count("this seat signed the start; asking the seated peers") == 2
    started = json.loads((folder / "table.json").read_text())
    assert started["statement"] == signed["statement"] and len(started["sigs"]) == 3
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert all(r == records[0] for r in records), "records differ after the resume"
    verdict = victim.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
