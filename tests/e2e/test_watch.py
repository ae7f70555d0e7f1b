"""Watching a table across namespaces (issue 27): an observer on another machine finds a
started 8s Rule! table by mDNS, follows its whole game verifying every entry, and ends with the
players' record entry for entry; a passive listener on the observer's link reads only the
observer messages and no card the record did not make public."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.e2e.capture import tcp_streams, tokens_seen, websocket_messages
from tests.e2e.netns import Lan
from tests.e2e.peers import Peer, finish, host_args, logs, wait_for
from tests.e2e.test_games import TOKEN, start_listener

pytestmark = pytest.mark.e2e


@pytest.mark.long  # a whole 3-player game and its capture: about 50 s on two shared cores
@pytest.mark.timeout(240)
def test_an_observer_follows_a_whole_game_and_its_link_shows_no_hidden_card(
        netns_ok: None, tmp_path: Path) -> None:
    with Lan(2) as lan:
        listener, pcap = start_listener(lan, tmp_path)
        host = Peer(lan, lan.hosts[0], "ann", tmp_path / "ann")
        watcher = Peer(lan, lan.hosts[1], "wat", tmp_path / "wat")
        host.start([*host_args(host, "eights", 3), "--bots", "2"])
        wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise",
                 [host])
        watcher.start(["watch", "--interface", watcher.address, "--wait", "60",
                       "--record", str(watcher.record)])
        codes = finish([host, watcher], 200)
        time.sleep(0.3)
        lan.stop(listener)
        assert codes == [0, 0], logs([host, watcher])
        table = host.output().split("table ", 1)[1].split()[0]
        said = watcher.output()
        players = next(line for line in said.splitlines() if line.startswith("8s Rule! · "))
        assert f"watching table {table} through [" in said
        assert sorted(players.removeprefix("8s Rule! · players ").split(", ")) == [
            "Ada", "Bram", "ann"]
        played = host.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n"
        moves = sum(1 for line in played.splitlines()[1:]  # counted as a resume counts them
                    if json.loads(line)["entry"]["payload"]["t"] == "action")
        assert f"{moves} moves verified" in said.splitlines() and " wins" in said
        # the result names its game, as the host's (ann's --autoplay seat) does
        [result] = [line for line in host.output().splitlines() if line.startswith("8s Rule!: ")]
        assert re.fullmatch(r"8s Rule!: (ann|Ada|Bram)( and (ann|Ada|Bram))* wins? with the "
                            r"lowest total( \(shared win\)| \(tie broken by the round-7 "
                            r"totals\))?", result), result
        assert result in said.splitlines() and "result: " not in said, said
        assert watcher.record.read_bytes() == played  # the header and every entry, unsigned
        flows = {flow: stream for flow, stream in tcp_streams(_frames(pcap)).items()
                 if {flow[0][0], flow[1][0]} == {host.address, watcher.address}}
        messages = [m for stream in flows.values() for m in websocket_messages(stream)]
        kinds = {_kind(m) for m in messages}
        assert kinds == {"hello", "proof", "watch.ask", "watch.table", "watch.entry"}, kinds
        public = set(TOKEN.findall(played.decode()))
        seen = tokens_seen(messages, {t for m in messages for t in _tokens(m)})
        assert public and seen <= public  # every card on the link was public in the record
        assert not any(b'"sealed"' in m or b'"ct":' in m for m in messages)


def _frames(pcap: Path) -> list[bytes]:
    from tests.e2e.capture import read_pcap

    return list(read_pcap(pcap))


def _kind(message: bytes) -> str:
    """The type of a link message: a hello's ``t``, else the envelope's ``type`` (the frame's
    last 16 bytes are its tag)."""
    for body in (message, message[:-16]):
        try:
            data = json.loads(body)
        except ValueError:
            continue
        return str(data.get("t") or data.get("type"))
    return "?"


def _tokens(message: bytes) -> list[str]:
    """The ``CARD#SLOT`` tokens of a link message's JSON, never of its 16-byte tag (random
    bytes once read ``B#0`` there, a card token in no record)."""
    text = message
    for body in (message, message[:-16]):
        try:
            json.loads(body)
        except ValueError:
            continue
        text = body
        break
    return re.findall(r"(?<![A-Za-z0-9])[A-Z]+[0-9]*(?:-[0-9]+)?#[0-9]+",
                      text.decode("utf-8", "replace"))


@pytest.mark.long  # two whole 3-player games (the watcher's part adds nothing): about 60 s
@pytest.mark.timeout(400)
def test_an_observer_follows_the_table_into_its_next_game(netns_ok: None,
                                                          tmp_path: Path) -> None:
    """ann hosts 8s Rule! with two bots and plays two games (issue 27); the watcher on another
    machine follows game 1, is told the next table by ``watch.next`` on the same link, follows
    game 2 and ends when ann's program does; each game's record is the players' entry for
    entry."""
    with Lan(2) as lan:
        host = Peer(lan, lan.hosts[0], "ann", tmp_path / "ann")
        watcher = Peer(lan, lan.hosts[1], "wat", tmp_path / "wat")
        host.start([*host_args(host, "eights", 3), "--bots", "2", "--games", "2"])
        wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise",
                 [host])
        watcher.start(["watch", "--interface", watcher.address, "--wait", "60",
                       "--record", str(watcher.record)])
        codes = finish([host, watcher], 360)
        assert codes == [0, 0], logs([host, watcher])
        tables = {json.loads(p.read_text())["statement"].get("follows", {}).get("game", 1):
                  p.parent.name for p in host.home.glob("tables/*/table.json")}
        said = watcher.output()
        assert f"the table plays again: game 2 of the evening, table {tables[2]}" in said, said
        assert said.count(" wins") >= 2 and len([line for line in said.splitlines()
                                                   if line.endswith(" moves verified")]) == 2
        second = host.folder / "record-game2.jsonl"
        for mine, theirs in ((watcher.record, host.record),
                             (watcher.record.with_name(f"{watcher.record.stem}-game2"
                                                       f"{watcher.record.suffix}"), second)):
            played = theirs.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n"
            assert mine.read_bytes() == played
