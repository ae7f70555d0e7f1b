"""Play again over real links (``p2p/net/rematch_link.py``, issue 27): the agreement's lines are
journaled (kind ``rematch``, the ``again`` marker, envelope numbers leased), a seat
rebuilt from its journal holds the same started next game, and a restarted seat that no player
links to ends its wait in bounded time, saying it was alone (the words come from
``cli/lobby/resume_again.py``)."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest

from lancards.p2p.net.rematch_link import RematchLink
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.rematch import Finished, Rematch
from tests.p2p.core_harness import listening_nodes

HEAD = hashlib.sha256(b"the last entry of the finished game").hexdigest()


def _finished(core: GameCore) -> Finished:
    keys = tuple(m.public_key for m in core.players)
    return Finished(core.table, HEAD, (0,), (0, 0), 0, keys)


@pytest.mark.timeout(60)
def test_the_agreement_is_journaled_with_its_lease_and_restores_to_the_same_game(
        tmp_path: Path) -> None:
    async def main() -> None:
        nodes = await listening_nodes(2, "level8", "rematch-link", folder=tmp_path)
        ids = iter(["00000000000000c1", "00000000000000c2"])
        links = [RematchLink(n, Rematch(n.core.me, _finished(n.core),
                                        new_table=lambda: next(ids))) for n in nodes]
        try:
            runs = [asyncio.create_task(link.run(30)) for link in links]
            await asyncio.sleep(0)
            for link in links:
                link.answer(True)
            await asyncio.gather(*runs)
        finally:
            for node in nodes:
                await node.close()
        started = [link.rematch.started for link in links]
        assert started[0] is not None and started[0] == started[1]
        assert started[0].spec.table == "00000000000000c1"
        assert started[0].spec.options["dealer"] == 1  # left of the first dealer, seat 0
        for i, node in enumerate(nodes):
            store = TableStore(tmp_path / f"peer{i}")
            assert (store.folder / "again").exists()
            lines = [line for kind, line in store.read().lines if kind == "rematch"]
            assert lines[0] == {"answer": links[i].rematch.answers[node.core.me.public_key][1]}
            assert "statement" in lines[-1] and len(lines[-1]["sigs"]) == 2
            again = Rematch(node.core.me, _finished(node.core), seq=store.next_envelope())
            assert again.restore(lines) == [] and again.started == started[0]
            # every envelope it sent is below the lease a restarted seat numbers from
            assert store.next_envelope() > links[i].rematch.seq - 1

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_a_restarted_seat_that_nobody_links_to_stops_waiting_and_knows_it_was_alone() -> None:
    async def main() -> None:
        nodes = await listening_nodes(2, "level8", "rematch-alone")
        await nodes[1].close()  # the others stopped (or went on without it)
        rematch = Rematch(nodes[0].core.me, _finished(nodes[0].core))
        link = RematchLink(nodes[0], rematch)
        link.answer(True)
        try:
            await link.run(600, alone=0.5)  # bounded by ``alone``, not by the 600 s
        finally:
            await nodes[0].close()
        assert not link.linked and rematch.started is None and rematch.failed is None

    asyncio.run(main())


@pytest.mark.timeout(60)
def test_another_game_agreed_over_links_is_journaled_with_its_choice_and_restores(
        tmp_path: Path) -> None:
    """Level 8 then Level 8 Master, over real links: each answer names the game in the
    journal, and a seat rebuilt from its lines holds the same started game (the games
    night, ``docs/protocol.md`` 6.1)."""
    async def main() -> None:
        nodes = await listening_nodes(2, "level8", "rematch-other", folder=tmp_path)
        ids = iter(["00000000000000c3", "00000000000000c4"])
        links = [RematchLink(n, Rematch(n.core.me, _finished(n.core),
                                        new_table=lambda: next(ids))) for n in nodes]
        try:
            runs = [asyncio.create_task(link.run(30)) for link in links]
            await asyncio.sleep(0)
            for link in links:
                link.send(link.rematch.answer(True, "level8-master"))
            await asyncio.gather(*runs)
        finally:
            for node in nodes:
                await node.close()
        started = [link.rematch.started for link in links]
        assert started[0] is not None and started[0] == started[1]
        assert (started[0].spec.table, started[0].spec.game) == ("00000000000000c3",
                                                                 "level8-master")
        assert "dealer" not in started[0].spec.options  # drawn, as at a new table
        for i, node in enumerate(nodes):
            lines = [line for kind, line in TableStore(tmp_path / f"peer{i}").read().lines
                     if kind == "rematch"]
            assert [line["answer"]["game"] for line in lines if "answer" in line] == [
                "level8-master"] * 2
            again = Rematch(node.core.me, _finished(node.core), seq=10**6)
            assert again.restore(lines) == [] and again.started == started[0]

    asyncio.run(main())
