"""Real sockets on 127.0.0.1: peers as asyncio tasks play a whole game over websockets."""

from __future__ import annotations

import asyncio

from lancards.p2p.core import GameCore
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.node import PeerAddress, PeerNode
from lancards.p2p.store import TableStore
from lancards.p2p.transport import Mesh, TransportConfig
from tests.p2p.core_harness import make_table

CONFIG = TransportConfig(ping_interval=2.0, ping_timeout=5.0, backoff_max=0.5)


async def play_over_sockets(n, game, tmp_path, seed="sock"):
    ids, table = make_table(n, game)
    nodes = []
    for i, me in enumerate(ids):
        core = GameCore(me, table, SeededRandomBytes(f"{seed}-{i}"))
        core.bot = core.game.bot()
        mesh = Mesh(me, CONFIG)
        await mesh.start("127.0.0.1", 0)
        store = TableStore(tmp_path / f"peer{i}")
        nodes.append(PeerNode(core, mesh, store))
    addresses = {node.core.me.public_key: PeerAddress("127.0.0.1", node.mesh.port)
                 for node in nodes}
    try:
        for node in nodes:
            node.connect(addresses)
        async with asyncio.timeout(240):
            await asyncio.gather(*(node.run(linger=0.5) for node in nodes))
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
