"""Issue 23 (a hostile peer, round two): votes that cannot be split or left hanging, leaves that
keep proofs and secrets. Situations 3, 6, 7, 8 and 10, each its own test: who is named (never an
honest peer) and what each honest peer sees.

In memory through :class:`GameCore` (``core_harness``: every message through the real codec);
the removal policy a node follows (:class:`lancards.p2p.removal.RemovalPolicy`) is driven here
with a test clock and each peer's own view of its links.
"""

from __future__ import annotations

import pytest

from lancards.p2p.audit import audit_lines
from tests.p2p.core_harness import make_cores
from tests.p2p.public_cards import public_cards
from tests.p2p.test_leave import LeaveGame, check_finished

# 10. An abandoned round's hidden cards stay closed after a later leave -------------------------


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("plan", "seed"), [(["mid-trick", "shuffle"], "trick"),
                                            (["mid-trick", "turn"], "t2")])
def test_10_a_later_leave_opens_no_card_of_an_abandoned_round(plan: list[str],
                                                              seed: str) -> None:
    """8s Rule!: a leave mid-trick abandons the round (ruling D-1: its hidden cards are never
    opened) and it is dealt again; then a second seat leaves (during the new round's shuffle,
    or at its turn). The second leave publishes no share of the abandoned round's cards (they
    are out of play: ``Departure._hand``), so the batches its openings forwarded in that round
    stay incomplete: no card the game never opened decrypts from the public record (before
    the fix 14 of the second leaver's cards did)."""
    cores, net = make_cores(4, "eights", seed=seed)
    net.bots.clear()  # the test drives the bots (a leaver's never moves by itself)
    game = LeaveGame(cores, net, list(plan), patience=400)
    game.run()
    assert game.hit == plan
    found = check_finished(game, 2)  # every peer one record, audit ok, no hand opened
    assert public_cards(cores[0]) == {}
    assert [seat for _, seat, _ in found] == list(cores[0].left_seats())
    report = audit_lines(cores[0].record.to_lines())
    assert report.status == "ok", report.error
