"""A fork injected at a random entry of seeded games is found by every honest peer (issue 11).

The hostile seat signs a second valid entry with the number of one of its own (a twin of the
seat, restored from its journal, makes it with other randomness or another legal move) and
sends it to some peers, the original to the others. Every honest peer must halt naming that
seat, with the two signed entries as evidence journaled once, and name nobody else.

CI plays ``LANCARDS_FORK_GAMES`` games (default 4); ``LANCARDS_FORK_GAMES=50`` plays the 50 of
the issue.
"""

from __future__ import annotations

import os
import random

import pytest

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.protocol.core import GameCore
from tests.p2p.core_harness import ForkingNetwork, make_table

GAMES = int(os.environ.get("LANCARDS_FORK_GAMES", "4"))
RULE_SETS = ("level8", "level8-en", "level8-master", "eights")


def play_forked(index: int) -> None:
    rng = random.Random(index)
    game = RULE_SETS[index % len(RULE_SETS)]
    n = rng.choice([3, 4])
    hostile = rng.randrange(n)
    at = rng.randrange(0, 120)
    ids, table = make_table(n, game)
    cores = []
    for i, me in enumerate(ids):
        cores.append(GameCore(me, table, SeededRandomBytes(f"fork{index}-{i}")))
    honest = [i for i in range(n) if i != hostile]
    rng.shuffle(honest)
    net = ForkingNetwork(cores, hostile, at, group_b=honest[: max(1, len(honest) // 2)])
    net.start()
    net.run(limit=30_000)
    assert net.fork is not None, (index, game, n, at)
    first, second = net.fork
    assert first["seq"] == second["seq"] and first["author"] == second["author"]
    for seat in honest:
        core = cores[seat]
        key = core.me.public_key
        assert core.halted, (index, seat)
        assert set(core.cheaters) == {hostile}, (index, seat, core.cheaters)
        blamed = {x.seat for x in net.notices[key] if x.kind in ("cheat", "rejected")}
        assert blamed == {hostile}, (index, seat, blamed)
        journal = [line for kind, line in net.persisted[key] if kind == "evidence"]
        assert len(journal) == 1
        assert {journal[0]["first"]["sig"], journal[0]["second"]["sig"]} == {first["sig"],
                                                                             second["sig"]}
        assert len(core.record.evidence) == 1


@pytest.mark.timeout(900)
@pytest.mark.parametrize("index", range(GAMES))
def test_a_fork_at_a_random_entry_is_found_by_every_honest_peer(index):
    play_forked(index)
