"""Lids that close (issue 24): a peer process stopped with SIGSTOP for longer than its links'
keepalive (a laptop asleep) and then continued with SIGCONT reconnects and the game goes on; on
a table with rescue on where it was voted out meanwhile, it learns so from the record, says so
in one line, and nobody is accused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Sequence

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import (
    Peer,
    finish,
    host_args,
    join_args,
    lancards,
    logs,
    seat_peers,
    wait_for,
)

pytestmark = pytest.mark.e2e


@pytest.mark.long  # CI budget: the voted-out sleeper wakes and plays on in CI
@pytest.mark.timeout(300)
def test_a_peer_asleep_for_12_s_comes_back_and_the_game_goes_on(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 2)
    host, sleeper = peers[0], peers[1]
    host.start(host_args(host, "level8", 2))
    wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise", [host])
    for peer in peers[1:]:
        peer.start(join_args(peer))
    wait_for(lambda: sleeper.journal_entries() >= 40, 120, "the game did not get going", peers)
    assert sleeper.proc is not None
    os.killpg(sleeper.proc.pid, signal.SIGSTOP)
    time.sleep(12)
    os.killpg(sleeper.proc.pid, signal.SIGCONT)
    codes = finish(peers, 240)
    assert codes == [0, 0], logs(peers)
    verdict = host.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict


def _journal(peer: Peer) -> bytes:
    return b"".join(p.read_bytes() for p in peer.home.glob("tables/*/journal.jsonl"))


def stop_once_delivered(sleeper: Peer, others: Sequence[Peer], tries: int = 20) -> None:
    """SIGSTOP ``sleeper`` at a moment when the last entry of its journal has reached every
    other peer's journal (else SIGCONT, a moment, and again). A stop in the instant between
    journaling an entry of its own and sending it parts its record from a removal made at that
    position: a known limit (``docs/protocol.md``, "Back from a sleep"), which this test's
    trigger, the sleeper's own journal, would otherwise hit under load (CI saw it once). A stop
    in the middle of writing a journal line is no such moment either.

    Raises:
        AssertionError: no such moment in ``tries`` stops.
    """
    assert sleeper.proc is not None
    for _ in range(tries):
        os.killpg(sleeper.proc.pid, signal.SIGSTOP)
        journal = _journal(sleeper)
        # stopped in the middle of writing a line (CI saw it once): not a moment to sleep at
        if journal.endswith(b"\n"):
            lines = [line for line in journal.splitlines() if b'"kind":"entry"' in line]
            sig = json.loads(lines[-1].rsplit(b" ", 1)[0])["line"]["sig"].encode()  # " CRC"
            deadline = time.monotonic() + 3.0
            while time.monotonic() < deadline:
                if all(sig in _journal(p) for p in others):
                    return
                time.sleep(0.05)
        os.killpg(sleeper.proc.pid, signal.SIGCONT)
        time.sleep(0.3)
    raise AssertionError(f"{sleeper.nick}'s last entry never reached the others")


@pytest.mark.timeout(400)
def test_a_peer_voted_out_while_asleep_learns_it_and_nobody_is_accused(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 4)
    host, sleeper = peers[0], peers[3]
    host.start([*host_args(host, "level8", 4), "--option", "rescue=on",
                "--option", "patience=10"])
    wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise", [host])
    for peer in peers[1:]:
        peer.start(join_args(peer))
    wait_for(lambda: sleeper.journal_entries() >= 60, 120, "the game did not get going", peers)
    stop_once_delivered(sleeper, peers[:3])
    assert sleeper.proc is not None
    wait_for(lambda: b'"t":"rescue"' in b"".join(
        p.read_bytes() for p in host.home.glob("tables/*/journal.jsonl")), 200,
        "the sleeper was not voted out", peers[:3])
    os.killpg(sleeper.proc.pid, signal.SIGCONT)  # the others play on meanwhile (bots)
    codes = finish(peers, 300)
    assert codes == [0, 0, 0, 0], logs(peers)
    said = [line for line in sleeper.output().splitlines() if line.startswith("you were")]
    assert said == ["you were voted out while away; the game goes on without you (watching "
                    "it to the end)"], logs(peers)
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert all(r == records[0] for r in records), "the records differ"
    for peer in peers:
        assert "cheat" not in peer.output(), logs(peers)
    verdict = sleeper.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    # What the former tests/e2e/test_rescue.py asked of a seat that vanished for good
    # (issue 17, ruling D-5), asked here of the sleeper (vanished until the removal): one
    # rescue entry by each of the three others, about its seat, the first with their three
    # signed votes; it is no winner; replay tells it.
    lines = records[0].decode().splitlines()
    header = json.loads(lines[0])
    gone = header["nicks"].index(sleeper.nick)
    rescues = [json.loads(line)["entry"] for line in lines[1:] if '"t":"rescue"' in line]
    assert sorted(e["author"] for e in rescues) == sorted(
        k for i, k in enumerate(header["seats"]) if i != gone)
    assert {e["payload"]["seat"] for e in rescues} == {gone}
    assert len(rescues[0]["payload"]["votes"]) == 3
    assert gone not in verdict["winners"]
    told = subprocess.run(lancards("replay", str(host.record)), capture_output=True, text=True,
                          timeout=120, check=True, cwd=ROOT).stdout
    assert f"{sleeper.nick} is removed from the table (the hand goes out of play unopened)" \
        in told
