"""A seated peer that passes for ever in 8s Rule!'s round 8 (a pass is accepted from a peer
whose hand nobody can see, and audited at the round's end, ruling E-8). When it holds the
only cards that fit, every other seat may only pass, and before the dead-layout end
(``docs/rules-eights.md``, reading 5) the round, and the table's record, went on for ever.
Now a full turn of passes ends the round, the audit names the passer, and the game ends on
every peer with one record."""

from __future__ import annotations

from typing import Any

from lancards.engine.eights import Pass, Phase
from tests.p2p.core_harness import make_cores


def test_a_peer_that_passes_for_ever_in_round_8_is_named_and_the_game_ends() -> None:
    cores, net = make_cores(4, "eights", seed="stubborn")
    hostile = cores[1]
    honest = net.bots[hostile]

    def stubborn(legal: Any) -> Any:
        if hostile.state.phase is Phase.LAYOUT:
            return Pass(hostile.seat)
        return honest(legal)

    net.bots[hostile] = stubborn
    net.start()
    net.run(limit=20_000)  # the whole game takes about 5,100 deliveries
    assert not net.queue, "the table still talks: round 8 did not end"
    records = {tuple(e.hash for e in c.record.entries) for c in cores}
    assert len(records) == 1
    outcomes = [c.game.outcome(c.state) for c in cores]
    assert outcomes[0] is not None and all(o == outcomes[0] for o in outcomes)
    last = cores[0].state.results[-1]
    assert last.round == 8 and last.went_out is None
    assert last.reneges and {r.seat for r in last.reneges} == {1}
    assert last.penalties[1] == 50 * len(last.reneges)
    assert 1 not in outcomes[0].winners
    for core in cores:
        assert core.halted is None and core.expected() is None
    for key, notices in net.notices.items():
        assert [x for x in notices if x.kind in ("cheat", "rejected")] == [], key
