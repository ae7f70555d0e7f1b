"""Seeded whole games of every rule set, played in memory by bot peers through the real codec and
mental poker with seeded randomness, end in pinned records: the last entry's hash and the hash of
the whole record file. A refactoring that moves code (issue 22: the rooms) must leave every byte
of a record as it was; a change of the protocol that changes records on purpose updates the pins
and says so in its commit."""

from __future__ import annotations

import hashlib

import pytest

from tests.p2p.core_harness import make_cores

# (rule set, seats): (entries, head, SHA-256 of the record file's lines), pinned on 4392fb9
# before the rooms moved (docs/architecture.md).
PINNED = {
    ("level8-master", 3): (368, "01f99ee7a23642c6b8bf2512f953589892a29f42c001e768d2188c529502c4ce",
                           "14d5c7354cd0fef3"),
    ("level8", 3): (263, "e7c9a5629d27d25c62cbaf467158fdd802cc303f666afc0b87d44713dfbf4a8d",
                    "cba19be795d7d171"),
    ("level8-en", 2): (252, "8e564035b42c0834f1397e1c2610d97a7fba20ef492db9f7103cbc8e5902e7b1",
                       "1287c7cc94acf631"),
    ("eights", 3): (534, "f6241eb8a063c11a192f9e1ba8fe52d971ca116c23b5f915e7e21ed35347b2bd",
                    "85ebf035e5c69f39"),
}


@pytest.mark.parametrize(("game", "seats"), list(PINNED))
def test_a_seeded_game_ends_in_the_pinned_record(game: str, seats: int) -> None:
    cores, net = make_cores(seats, game, seed="layout")
    net.start()
    net.run()
    entries, head, digest = PINNED[(game, seats)]
    assert {core.record.head for core in cores} == {head}
    assert all(core.game.outcome(core.state) is not None for core in cores)  # played to the end
    record = cores[0].record
    assert len(record) == entries
    assert hashlib.sha256(b"".join(record.to_lines())).hexdigest()[:16] == digest
