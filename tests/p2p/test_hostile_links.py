"""Issue 23 (hostile peer, round two), situations 2 and 11: budgets a hostile seat cannot spend
for others, and links bound to who is at the other end.

Situation 2 in memory through :class:`GameCore` (every message through the real codec): a
hostile seat first spends the honest peers' fork-reply budgets with bogus acknowledgements for
its own delayed entries, once in each direction, then signs two entries with one number; every
honest peer must still find the fork and name it, and nobody else. Situation 11 on 127.0.0.1:
a resuming seat holds a false address for a seat it must dial; the table must not stall. (The
relay that tries to inject into a link or alter it: ``tests/p2p/net/test_net_transport.py``.)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.net.transport import Mesh
from lancards.p2p.protocol.core import GameCore, Notice, Output, Send
from lancards.p2p.protocol.wire import link_envelope, sign_envelope
from tests.p2p.core_harness import SOCKET_CONFIG, ForkingNetwork, entry_of, make_table

ROUNDS = 5
"""Entries of its own the hostile seat delays toward each victim, one bogus ack each (the cap
on fork replies was 4 per peer for the whole game)."""

BOGUS = "ab" * 32


def named(notices: list[Notice]) -> set[int | None]:
    return {x.seat for x in notices if x.kind in ("cheat", "rejected")}


def ack_seq(data: bytes) -> int | None:
    env = json.loads(data)
    return int(env["body"]["seq"]) if env.get("type") == "record.ack" else None


class BudgetSpender(ForkingNetwork):
    """Seat ``hostile`` spends budgets, then forks.

    Its first ``ROUNDS`` entries toward each victim go out as: the entry to everyone but the
    victim; a bogus ack of the entry (another hash) to the victim; the entry to the victim only
    once the victim has every witness's (every other honest peer's) genuine ack of it, so that
    the victim sees acks disagree about a number it lacks. Then it forks at its next entry (the
    twin to ``group_b``). It never answers anyone with a signed entry of its own (no fork
    replies, no catch-up): only the honest peers can find the fork.
    """

    def __init__(self, cores: Sequence[GameCore], hostile: int, victims: Sequence[int]) -> None:
        honest = [i for i in range(len(cores)) if i != hostile]
        super().__init__(cores, hostile, at=10**9, group_b=honest[1:])
        self.plan = [cores[v].me.public_key for v in victims for _ in range(ROUNDS)]
        self.honest = [cores[i].me.public_key for i in honest]
        self.delayed: dict[tuple[bytes, int], tuple[bytes, set[bytes]]] = {}
        self.bogus_acks = 0

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        me = self.hostile.me.public_key
        if sender == me:  # it never answers anyone with a signed entry of its own
            outputs = [o for o in outputs if not (isinstance(o, Send) and o.to is not None
                                                  and entry_of(o.data) is not None)]
        if sender != me or not self.plan:
            super().post(sender, outputs)
            return
        for out in outputs:
            entry = entry_of(out.data) if isinstance(out, Send) and out.to is None else None
            if entry is None or not self.plan:
                super().post(sender, [out])
                continue
            victim = self.plan.pop(0)
            for key in self.cores:
                if key not in (me, victim):
                    self.queue.append((me, key, out.data))
            ack = link_envelope(self.hostile.me, "record.ack", self.hostile.table_id,
                                {"seq": entry["seq"], "hash": BOGUS}).encode()
            self.queue.append((me, victim, ack))
            self.bogus_acks += 1
            witnesses = {k for k in self.honest if k != victim}
            self.delayed[(victim, entry["seq"])] = (out.data, witnesses)
            if not self.plan:
                self.at = entry["seq"] + 1  # fork at its next entry

    def step(self) -> None:
        sender, to, data = self.queue[0]
        super().step()
        seq = ack_seq(data) if sender != self.hostile.me.public_key else None
        held = self.delayed.get((to, seq)) if seq is not None else None
        if held is not None:
            held[1].discard(sender)
        if held is not None and not held[1]:  # every witness's ack is in: send it, numbered now
            del self.delayed[(to, seq)]
            core = self.hostile
            env = sign_envelope(core.me, "record.entry", core.table_id, core._env_seq,
                                json.loads(held[0])["body"])
            core._env_seq += 1
            self.queue.append((core.me.public_key, to, env.encode()))


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("n", "game", "hostile"), [(3, "level8", 1), (4, "eights", 2)])
def test_2_spent_budgets_never_hide_a_fork_every_honest_peer_names_the_equivocator(
        n: int, game: str, hostile: int) -> None:
    ids, table = make_table(n, game)
    cores = [GameCore(me, table, SeededRandomBytes(f"budget-{i}")) for i, me in enumerate(ids)]
    honest = [i for i in range(n) if i != hostile]
    # Every honest peer is a victim once: each honest acker's budget is spent at every other.
    net = BudgetSpender(cores, hostile, victims=honest)
    net.start()
    net.run(limit=40_000)
    assert net.bogus_acks == len(honest) * ROUNDS and not net.delayed
    assert net.fork is not None
    first, second = net.fork
    assert first["seq"] == second["seq"] >= net.at  # after every budget was spent
    for seat in honest:
        core = cores[seat]
        key = core.me.public_key
        assert core.halted, seat
        assert set(core.cheaters) == {hostile}, (seat, core.cheaters)
        [cheat] = [x for x in net.notices[key] if x.kind == "cheat"]
        assert cheat.seat == hostile and cores[hostile].me.nick in cheat.text
        assert f"two different entries numbered {first['seq'] + 1}" in cheat.text  # from 1
        assert {cheat.evidence["first"]["sig"], cheat.evidence["second"]["sig"]} == {
            first["sig"], second["sig"]}
        assert named(net.notices[key]) == {hostile}  # nobody honest is ever named
        assert [k for k, _ in net.persisted[key]].count("evidence") == 1
    # The honest records agree up to the fork.
    seq = first["seq"]
    records = [tuple(e.hash for e in cores[s].record.entries[:seq]) for s in honest]
    assert len(set(records)) == 1


# Situation 11: a false address for a seat the resumer must dial ------------------------------


@pytest.mark.timeout(180)
def test_11_a_false_address_does_not_stall_the_table_the_other_side_dials() -> None:
    """The lowest key holds a dead port for a higher seat (what a hostile peer's false
    ``table.told`` address book leaves a resumed seat with): by the key rule it is the one that
    dials, and the other never would. The higher seat dials after ``fallback_after``, and the
    lower one then holds the address that seat itself told."""

    async def main() -> None:
        dead = await _dead_port()
        ids, table = make_table(3, "level8")
        nodes = []
        for i, me in enumerate(ids):
            mesh = Mesh(me, SOCKET_CONFIG)
            await mesh.start("127.0.0.1", 0)
            nodes.append(PeerNode(GameCore(me, table, SeededRandomBytes(f"false-book-{i}")),
                                  mesh))
        try:
            low, target, _ = sorted(nodes, key=lambda x: x.core.me.public_key)
            key = target.core.me.public_key
            true = {x.core.me.public_key: PeerAddress("127.0.0.1", x.mesh.port) for x in nodes}
            for node in nodes:
                book = dict(true)
                if node is low:
                    book[key] = PeerAddress("127.0.0.1", dead)  # the false address
                node.connect(book)
            assert low.mesh.addresses(key) == [("127.0.0.1", dead)]
            bots = [asyncio.create_task(drive_bot(n, game_bot(n.core))) for n in nodes]
            runs = [asyncio.create_task(n.run(linger=0.5)) for n in nodes]
            async with asyncio.timeout(120):  # past the deal: MOVES moves verified everywhere
                while min(_moves(n.core) for n in nodes) < MOVES:
                    await asyncio.sleep(0.1)
            for node in nodes:
                node.stop()
            await asyncio.gather(*runs, *bots)
            shortest = min(len(n.core.record) for n in nodes)
            assert len({tuple(e.hash for e in n.core.record.entries[:shortest])
                        for n in nodes}) == 1
            for node in nodes:
                assert node.core.halted is None
                assert not [x for x in node.notices if x.kind in ("cheat", "rejected")]
            # What the seat told from its own link replaced the hint.
            assert low.mesh.addresses(key)[0] == ("127.0.0.1", target.mesh.port)
            assert low.core.address_book[key] == ("127.0.0.1", target.mesh.port)
        finally:
            await asyncio.gather(*(node.close() for node in nodes))

    asyncio.run(main())


MOVES = 20
"""Moves every peer must have verified (the table got past the deal and plays on)."""


def _moves(core: GameCore) -> int:
    return sum(1 for e in core.record.entries if e.payload.get("t") == "action")


async def _dead_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then closed)."""
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = int(server.sockets[0].getsockname()[1])
    server.close()
    await server.wait_closed()
    return port
