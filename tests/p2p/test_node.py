"""Real sockets on 127.0.0.1: peers as asyncio tasks play a whole game over websockets."""

from __future__ import annotations

import asyncio

import pytest

from lancards.engine.rulesets import standard_bot
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.net.store import TableStore
from lancards.p2p.net.transport import Mesh
from lancards.p2p.protocol.core import GameCore
from tests.p2p.core_harness import SOCKET_CONFIG, listening_nodes, make_table

CONFIG = SOCKET_CONFIG


async def play_over_sockets(n, game, tmp_path, seed="sock"):
    nodes = await listening_nodes(n, game, seed, tmp_path)
    try:
        async with asyncio.timeout(240):
            await asyncio.gather(*(node.run(linger=0.5) for node in nodes),
                                 *(drive_bot(node, game_bot(node.core)) for node in nodes))
    finally:
        for node in nodes:
            await node.close()
    return nodes


def test_four_peers_play_a_whole_game_over_websockets(tmp_path):
    nodes = asyncio.run(play_over_sockets(4, "level8-master", tmp_path))
    cores = [node.core for node in nodes]
    assert len({tuple(e.hash for e in c.record.entries) for c in cores}) == 1
    outcome = cores[0].game.outcome(cores[0].state)
    assert outcome is not None and len(outcome.winners) == 1
    assert all(c.game.outcome(c.state) == outcome for c in cores)
    for node in nodes:
        assert [x for x in node.notices if x.kind in ("cheat", "rejected")] == []
    # Every peer's journal holds the whole record, durable.
    for i, node in enumerate(nodes):
        entries = [line for kind, line in TableStore(tmp_path / f"peer{i}").journal()
                   if kind == "entry"]
        assert len(entries) == len(cores[0].record)
        assert TableStore(tmp_path / f"peer{i}").load_secret() == node.core.deck.secret_key


def test_waiting_for_names_the_missing_peer_the_table_waits_for():
    from tests.p2p.core_harness import make_cores

    cores, _ = make_cores(3, "level8-master", seed="waiting")
    me = cores[2]
    node = PeerNode(me, Mesh(me.me, CONFIG))
    node.handle(me.start())
    assert me.expected() == (0, "key")  # seat 0 commits to its key first
    assert node.waiting_for() == cores[0].me.nick
    node.connected.add(cores[0].me.public_key)
    assert node.waiting_for() is None


def test_a_draw_whose_shares_are_missing_is_pending_and_names_the_missing_peer():
    """Issue 12, situation 3: after a peer dies, this seat's draw is accepted but its card
    stays hidden; the wait names the dead peer ("shares for your draw"), not this seat."""
    from lancards.engine.level8.actions import Draw
    from tests.p2p.core_harness import make_cores

    cores, net = make_cores(3, "level8-master", seed="pending")
    me, alive, dead = cores
    net.bots.pop(me)  # a person: the network stops when it is this seat's move
    net.start()
    net.run()
    assert me.to_act() == me.seat and me.hand_ready()
    draw = next(a for a in me.legal_actions() if isinstance(a, Draw))
    node = PeerNode(me, Mesh(me.me, CONFIG))
    node.connected = {alive.me.public_key}  # the dead peer's link is down
    node.down_since[dead.me.public_key] = node._clock() - 30  # down for 30 s
    net.tamper = lambda sender, to, data: None if sender == dead.me.public_key else data
    dead_key = dead.me.public_key
    net.cores.pop(dead_key)  # it receives nothing either
    net.post(me.me.public_key, me.submit(draw))
    net.run()
    assert not me.hand_ready()  # the drawn card is still hidden...
    wait = node.waiting()
    assert wait is not None  # ...and the table says whom it waits for
    assert (wait.seat, wait.nick, wait.what, wait.connected) == (
        dead.seat, dead.me.nick, "shares for your draw", False)
    assert wait.text().startswith(f"waiting for {dead.me.nick} (shares for your draw), ")
    assert wait.seconds < 5  # the wait began with the draw, after the link dropped
    node._progress_at -= 7
    assert 7 <= node.waiting().seconds < 30


def test_a_peer_awaited_for_its_move_is_named_with_what_it_owes():
    from tests.p2p.core_harness import make_cores

    cores, net = make_cores(3, "level8-master", seed="move")
    net.start()
    net.run(limit=400)  # part of the game: someone owes something now
    me = cores[0]
    seat, kind = me.expected()
    node = PeerNode(me, Mesh(me.me, CONFIG))
    other = next(c for c in cores if c.seat != me.seat)
    node.connected = {c.me.public_key for c in cores if c is not me}
    if seat == me.seat:
        pytest.skip("this seed leaves seat 0 to act")
    awaited = cores[seat] if cores[seat].seat == seat else next(c for c in cores
                                                              if c.seat == seat)
    assert node.waiting() is None  # connected and not silent: nothing to show
    node.connected.discard(awaited.me.public_key)
    wait = node.waiting()
    assert wait is not None and wait.nick == awaited.me.nick and not wait.connected
    assert wait.what == {"action": "their move", "shuffle": "a shuffle", "key": "the joint key",
                         "shares": "shares for a card", "open": "their card"}[kind]
    # Silent: connected, but no entry for SILENT_S seconds.
    node.connected.add(awaited.me.public_key)
    node._progress_at -= 6
    wait = node.waiting()
    assert wait is not None and wait.connected and wait.seconds >= 6
    assert other is not None


def test_drive_bot_asks_each_bot_once_per_turn_and_finishes_the_game(tmp_path):
    """The one bot driver (``drive_bot`` over ``PeerNode.next_turn``) is woken by the node's
    outputs, never by a timer: each seat's bot is asked exactly once per move it makes."""
    from lancards.p2p.net.node import drive_bot

    async def play():
        ids, table = make_table(3, "eights")
        nodes = []
        for i, me in enumerate(ids):
            core = GameCore(me, table, SeededRandomBytes(f"drive-{i}"))
            mesh = Mesh(me, CONFIG)
            await mesh.start("127.0.0.1", 0)
            nodes.append(PeerNode(core, mesh, TableStore(tmp_path / f"peer{i}")))
        addresses = {n.core.me.public_key: PeerAddress("127.0.0.1", n.mesh.port) for n in nodes}
        asked = [0] * len(nodes)

        def chooser(node, seat):
            bot = standard_bot(node.core.game)

            def choose(legal):
                asked[seat] += 1
                return bot.choose(node.core.state, node.core.seat, legal)
            return choose

        try:
            for node in nodes:
                node.connect(addresses)
            drivers = [asyncio.create_task(drive_bot(n, chooser(n, i)))
                       for i, n in enumerate(nodes)]
            async with asyncio.timeout(240):
                await asyncio.gather(*(node.run(linger=0.5) for node in nodes))
                await asyncio.gather(*drivers)  # each returns by itself once the game is over
        finally:
            for node in nodes:
                await node.close()
        return nodes, asked

    nodes, asked = asyncio.run(play())
    cores = [node.core for node in nodes]
    assert cores[0].game.outcome(cores[0].state) is not None
    assert len({tuple(e.hash for e in c.record.entries) for c in cores}) == 1
    moves = [sum(1 for e in cores[0].record.entries
                 if e.payload.get("t") == "action" and cores[0].seat_of(e.author) == seat)
             for seat in range(3)]
    assert asked == moves
    assert min(moves) > 20
