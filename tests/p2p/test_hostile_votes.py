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
from lancards.p2p.core import Notice
from tests.p2p.core_harness import Network, make_cores
from tests.p2p.public_cards import public_cards
from tests.p2p.test_leave import LeaveGame, check_finished

def named(notices: list[Notice]) -> set[int]:
    """The seats a peer's notices name as a cheater or as the sender of a refused message."""
    return {n.seat for n in notices if n.kind in ("cheat", "rejected") and n.seat is not None}


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


# 8. A leave that abandons a shuffle epoch keeps its unchecked proofs ----------------------------


def _bad_shuffle_then_leave(seed: str, colluding_leaver: bool) -> tuple[list, Network]:
    """Level 8, 4 peers, the first shuffle epoch: seat 1's shuffle swaps two of its outputs
    (its proof of shuffle fails) and seat 2, due next, leaves instead of shuffling, which
    abandons the epoch. Seat 0 checks the proof while idle before the leave reaches it; seat 3
    does not. ``colluding_leaver``: seat 2 leaves without checking its proofs, and the relay
    of seat 0's finding is lost, so seat 3 can only find the bad proof itself."""
    cores, net = make_cores(4, "level8", seed=seed)
    net.bots.clear()
    hostile, leaver, idle, busy = cores[1], cores[2], cores[0], cores[3]
    honest_shuffle = hostile.deck.make_shuffle

    def bad_shuffle() -> dict:
        message = honest_shuffle()
        outputs = message["outputs"]
        outputs[0], outputs[1] = outputs[1], outputs[0]
        return message

    hostile.deck.make_shuffle = bad_shuffle  # type: ignore[method-assign]
    if colluding_leaver:
        leaver._verify_deferred = lambda limit: None  # type: ignore[method-assign]
        net.tamper = lambda sender, to, data: None if b'"record.check"' in data else data
    net.start()
    while len(leaver.record) < 8:  # the joint key
        net.step()
    net.post(leaver.me.public_key, leaver.leave())
    while len(busy.record) < 10:  # seat 0's and seat 1's shuffles, unchecked
        net.step()
    assert busy.deck.deferred_proofs == 2 and idle.deck.deferred_proofs >= 1
    net.post(idle.me.public_key, idle.verify_deferred(None))  # idle: checks, halts
    assert idle.cheaters.keys() == {1}
    net.run()
    return cores, net


@pytest.mark.timeout(120)
@pytest.mark.parametrize("colluding_leaver", [False, True])
def test_8_a_leave_after_a_bad_proof_of_shuffle_names_the_prover_everywhere(
        colluding_leaver: bool) -> None:
    cores, net = _bad_shuffle_then_leave(f"bad-proof-{colluding_leaver}", colluding_leaver)
    honest = [cores[0], cores[3]] + ([] if colluding_leaver else [cores[2]])
    for core in honest:
        assert core.halted is not None and core.cheaters.keys() == {1}, core.seat
        cheats = [n for n in net.notices[core.me.public_key] if n.kind == "cheat"]
        assert [n.seat for n in cheats] == [1]
        assert "shuffle" in cheats[0].text and cheats[0].evidence["entry"]["seq"] == 9
        assert named(net.notices[core.me.public_key]) == {1}  # nobody honest is named
    # the leave was never taken: nobody went on to shuffle again without seat 1's proof
    for core in honest:
        assert len(core.record) == 10 and core.deck.present == (0, 1, 2, 3)
    if not colluding_leaver:
        assert not cores[2].has_left(2) and cores[2].leaving  # it never sent its leave
