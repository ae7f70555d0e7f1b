"""A partial mesh (the LAN trial of 2026-12-06): a seat that has had no link to some seat for
a while says so in a ``links`` message, and the others' waiting line, which named only that
seat, says why it is silent ("cyd has no connection to bot1"). Through the real codec; what a
hostile seat can do with the message (rejected and named, bounded, never in the record); and
a whole game over sockets on 127.0.0.1 whose mesh lacks one link, then heals."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from lancards.cli.peer_words import thinking, waiting_words
from lancards.p2p.net import reach, waiting
from lancards.p2p.net.bots import drive_bot, game_bot
from lancards.p2p.net.node import PeerAddress, PeerNode
from lancards.p2p.net.reach import REACH_AFTER_S, REPORTS_MAX, LinkReport, unreached_names
from lancards.p2p.net.transport import Mesh
from lancards.p2p.net.waiting import Waiting, table_wait
from lancards.p2p.protocol.core import GameCore, Notice
from lancards.p2p.protocol.presence import LINKS_TOLD
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import SOCKET_CONFIG, SeededRandomBytes, make_cores, make_table

LIMIT = 150
"""Messages delivered before a test's report: the table is started, the game under way."""


def envelope(core: GameCore, type_: str, body: Any) -> bytes:
    seq, core._env_seq = core._env_seq, core._env_seq + 1
    return sign_envelope(core.me, type_, core.table_id, seq, body).encode()


def rejected(notices: list[Any]) -> list[tuple[int | None, str]]:
    return [(n.seat, n.text) for n in notices
            if isinstance(n, Notice) and n.kind in ("rejected", "cheat")]


def test_a_links_message_reaches_every_other_seat_and_an_empty_one_clears_it() -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    first, bob, cyd = cores
    length = len(bob.record)
    sent = first.links([2])
    assert [(type(s).__name__, s.to) for s in sent] == [("Send", None)]  # one broadcast
    net.post(first.me.public_key, sent)
    net.run(limit=net.delivered + 20)
    assert bob.unreached == {0: frozenset({2})} and cyd.unreached == {0: frozenset({2})}
    assert first.unreached == {}
    assert unreached_names(bob, 0) == (cyd.me.nick,)
    assert unreached_names(cyd, 0) == ()  # cyd's own link to seat 0 is up when it asks
    net.post(first.me.public_key, first.links([]))  # the links are whole again
    net.run(limit=net.delivered + 20)
    assert bob.unreached == {} and cyd.unreached == {}
    assert len(bob.record) >= length  # words only: no entry, the game goes on
    assert rejected(net.notices[bob.me.public_key]) == []


@pytest.mark.parametrize(("body", "why"), [
    ({"missing": [1]}, "a links message naming seat 1"),  # the sender's own seat
    ({"missing": [4]}, "a links message naming seat 4"),  # a seat the table does not have
    ({"missing": [2, 2]}, "a links message naming a seat twice"),
    ({"missing": [6]}, "missing"),  # beyond any table: the schema
    ({"missing": [0, 1, 2, 3, 4, 5, 0]}, "missing"),  # longer than 6: the schema
    ({"missing": ["2"]}, "missing"),
    ({"missing": [2], "seat": 1}, "seat"),  # an extra field
    ({}, "missing"),
])
def test_a_bad_links_message_is_rejected_naming_the_sender(body: dict[str, Any],
                                                           why: str) -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    _, bob, cyd = cores
    outputs = cyd.receive(bob.me.public_key, envelope(bob, "links", body))
    told = rejected(outputs)
    assert len(told) == 1 and told[0][0] == bob.seat, told
    assert why in told[0][1] and str(bob.me.nick) in told[0][1], told
    assert cyd.unreached == {}
    net.post(cyd.me.public_key, outputs)
    length = len(cyd.record)
    net.run(limit=net.delivered + 100)  # the game goes on, one record
    common = min(len(c.record) for c in cores)
    assert common > length and len({tuple(e.hash for e in c.record.entries[:common])
                                     for c in cores}) == 1


def test_a_seat_is_heard_at_most_LINKS_TOLD_times_a_game() -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    _, bob, cyd = cores
    outputs = []
    for n in range(LINKS_TOLD):
        outputs += cyd.receive(bob.me.public_key, envelope(bob, "links", {"missing": [n % 2 * 2]}))
    assert cyd.unreached == {1: frozenset({2})}  # the last one heard: [2]
    outputs += cyd.receive(bob.me.public_key, envelope(bob, "links", {"missing": []}))
    assert cyd.unreached == {1: frozenset({2})}  # one more: not heard
    assert rejected(outputs) == [] and rejected(net.notices[cyd.me.public_key]) == []


def test_the_report_names_the_seats_down_for_REACH_AFTER_S_and_tells_a_change_once() -> None:
    cores, net = make_cores(4, "eights")
    net.start()
    net.run(limit=LIMIT)
    me = cores[0]
    keys = [c.me.public_key for c in cores]
    report = LinkReport()
    down = {keys[2]: 100.0, keys[3]: 100.0}
    assert report.due(me, set(), down, 200.0) is None  # nobody to tell
    linked = {keys[1]}
    assert report.due(me, linked, down, 100.0 + REACH_AFTER_S - 0.1) is None  # not yet
    assert report.due(me, linked, down, 100.0 + REACH_AFTER_S) == [2, 3]
    assert report.due(me, linked, down, 300.0) is None  # told already
    me.paused.add(3)  # a paused seat has no link, as its own notice says
    assert report.due(me, linked, down, 301.0) == [2]
    me.paused.clear()
    linked = {keys[1], keys[2], keys[3]}
    assert report.due(me, linked, {}, 302.0) == []  # whole again: told once
    assert report.due(me, linked, {}, 303.0) is None
    flaps = report.sent
    for n in range(2 * REPORTS_MAX):  # a link that flaps is told REPORTS_MAX times at most
        report.due(me, {keys[1], keys[3]} if n % 2 else linked, {keys[2]: 0.0}, 400.0 + n)
    assert report.sent == REPORTS_MAX and flaps == 3
    assert LinkReport().due(me, {keys[1]}, {}, 0.0) is None  # down for 0 s: nothing yet


def test_the_waiting_line_says_why_a_silent_seat_is_silent() -> None:
    cores, net = make_cores(3, "level8-master", seed="waiting")
    net.start()
    net.run(limit=LIMIT)
    watcher = cores[0]
    seat, _ = watcher.expected()
    if seat == watcher.seat:
        watcher = cores[1]
        seat, _ = watcher.expected()
    other = next(c.seat for c in cores if c.seat not in (seat, watcher.seat))
    watcher.unreached[seat] = frozenset({other, watcher.seat})
    linked = {c.me.public_key for c in cores if c is not watcher}
    wait = table_wait(watcher, linked, {}, 100.0, 112.4)
    assert wait is not None and wait.connected
    nick, missing = cores[seat].me.nick, cores[other].me.nick
    assert wait.unreached == (missing,)  # not the watcher itself: its own link is up
    assert wait.text().endswith(f"), 12 s: {nick} has no connection to {missing}")
    assert waiting_words(wait, True, 120) == wait.text()
    # a disconnected seat's line stays as it was (its own link is the news)
    down = table_wait(watcher, linked - {cores[seat].me.public_key}, {}, 100.0, 112.4)
    assert down is not None and down.unreached == () and "connection to" not in down.text()


def test_a_whole_game_over_sockets_whose_mesh_lacks_a_link_until_it_heals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats 1 and 2 cannot reach each other (neither is given the other's address): entries
    reach them through seat 0's acks and catch-up, but the private decryption shares of the
    deal do not, so the table stalls on one of them, connected and silent. Seat 0's waiting
    line says which link is missing (before: only "waiting for cyd (their move)", and no
    banner at all for a minute, as a friend thinking); given the addresses, the link comes up,
    the words go and the game ends with one record and no rejection."""
    monkeypatch.setattr(reach, "REACH_AFTER_S", 0.5)
    monkeypatch.setattr(waiting, "SILENT_S", 0.5)
    lines, cores, nodes = asyncio.run(_partial_mesh_game())
    told = [line for line in lines if "no connection to" in line]
    assert told, lines
    other = {cores[1].me.nick: cores[2].me.nick, cores[2].me.nick: cores[1].me.nick}
    for line in told:
        who = line.split(" ")[2]
        assert line.endswith(f": {who} has no connection to {other[who]}"), line
    assert not thinking(_last_wait[0])  # the banner is shown at once, not after a minute
    assert len({c.record.head for c in cores}) == 1 and all(c.to_act() is None for c in cores)
    assert nodes[1].link_report.told == frozenset() == nodes[2].link_report.told
    assert cores[0].unreached == {}  # the healed seat said so
    for node in nodes:
        assert [x for x in node.notices if x.kind in ("cheat", "rejected")] == []


_last_wait: list[Waiting] = []


async def _partial_mesh_game() -> tuple[list[str], list[GameCore], list[PeerNode]]:
    ids, table = make_table(3, "eights")
    nodes = []
    for i, me in enumerate(ids):
        mesh = Mesh(me, SOCKET_CONFIG)
        await mesh.start("127.0.0.1", 0)
        nodes.append(PeerNode(GameCore(me, table, SeededRandomBytes(f"links-{i}")), mesh))
    addresses = {n.core.me.public_key: PeerAddress("127.0.0.1", n.mesh.port) for n in nodes}
    keys = [n.core.me.public_key for n in nodes]
    cut = {keys[1]: keys[2], keys[2]: keys[1]}
    for node in nodes:
        me = node.core.me.public_key
        node.connect({k: a for k, a in addresses.items() if cut.get(me) != k})
    lines: list[str] = []

    async def watch() -> None:
        healed = False
        while not all(node.over() for node in nodes):
            wait = nodes[0].waiting()
            if wait is not None:
                lines.append(wait.text())
                if not healed and wait.unreached:
                    _last_wait[:] = [wait]
                    for node in nodes[1:]:  # the mesh heals: 1 and 2 learn each other
                        node.connect(addresses)
                    healed = True
            await asyncio.sleep(0.05)

    try:
        async with asyncio.timeout(120):
            await asyncio.gather(*(node.run(linger=0.5) for node in nodes),
                                 *(drive_bot(node, game_bot(node.core)) for node in nodes),
                                 watch())
    finally:
        for node in nodes:
            await node.close()
    return lines, [n.core for n in nodes], nodes
