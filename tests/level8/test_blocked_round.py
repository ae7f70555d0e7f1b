"""Ruling L8-16: a round that no play can end ends at once, detected from public information."""

from __future__ import annotations

import pytest

from lancards.engine.core import Leave
from lancards.engine.level8.blocked import is_blocked, outside_faces
from lancards.engine.level8.cards import card
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from tests.level8.scenario import G, act, build

pytestmark = pytest.mark.timeout(20)

# level8: five wild jokers, all in seat 0's full run 1-15 (nothing extends it); seat 1's run
# 1-14 takes a 15 at its top (ruling L8-7: runs grow at their ends within 1..15).
FULL_RUN = ["J=1", "J=2", "J=3", "J=4", "J=5", "R6", "R7", "R8", "R9", "R10", "R11", "R12",
            "R13", "R14", "R15"]
RUN_1_14 = ["O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11", "O12", "O13",
            "O14"]


def _nearly_blocked(levels: tuple[int, int] = (3, 5), **kw: object) -> object:
    melds = [(0, K.RUN, FULL_RUN), (1, K.RUN, RUN_1_14)]
    return build("level8", [["Y1", "Y2", "SKIP"], ["B15", "B3"]], levels=levels,
                 down=(True, True), turn=1, dealer=0, melds=melds, **kw)  # type: ignore[arg-type]


def test_l8_16_the_add_that_blocks_the_round_ends_it_at_once():
    """Seat 1 adds B15: both runs are 1-15, every joker is in them, so no card outside fits
    anything. The round ends at once: nobody went out, both advance one level (L8-10), and
    the next round is shuffled with the deal passed left (L8-12)."""
    state = _nearly_blocked()
    assert not is_blocked(state)  # five 15s outside still extend seat 1's run
    after = act(state, "1: add 1 B15")
    spectator = G.apply(G.view(state, None), G.read_action(state, "1: add 1 B15"))
    assert spectator.levels == (4, 6) and spectator.round == 2  # public information only
    assert after.levels == (4, 6)
    assert after.round == 2 and after.phase is Phase.SHUFFLE and after.dealer == 1
    assert after.melds == () and after.hands == ((), ()) and after.went_out == -1
    assert G.outcome(after) is None and G.invariant_violations(after) == []


def test_l8_16_not_blocked_while_one_outside_card_still_fits():
    """With seat 1's run 2-14 (R1 is outside and free: a 1 still extends it), the same add
    leaves the round going: seat 1 must still discard."""
    melds = [(0, K.RUN, FULL_RUN), (1, K.RUN, RUN_1_14[1:])]
    state = build("level8", [["Y1", "Y2"], ["B15", "B3"]], levels=(3, 5), down=(True, True),
                  turn=1, melds=melds)
    after = act(state, "1: add 1 B15")
    assert after.round == 1 and after.phase is Phase.PLAY and after.turn == 1
    assert card("O1") in outside_faces(after)
    assert not is_blocked(after)


def test_l8_16_not_blocked_while_a_seat_is_not_down():
    """Ruling L8-16 needs every seat at the table down: with seat 0 not down, the same add
    leaves the round going."""
    melds = [(0, K.RUN, FULL_RUN), (1, K.RUN, RUN_1_14)]
    state = build("level8", [["Y1", "Y2"], ["B15", "B3"]], levels=(3, 5), down=(False, True),
                  turn=1, melds=melds)
    after = act(state, "1: add 1 B15")
    assert after.round == 1 and after.phase is Phase.PLAY and not is_blocked(after)


def test_l8_16_level_8_under_on_going_out_stays_on_8_and_nobody_wins():
    """Ruling L8-16 with L8-11: the blocked round's +1 stops at 8 (under on_going_out a
    level-8 seat wins only by going out)."""
    state = _nearly_blocked(levels=(8, 7), options={"level8_win": "on_going_out"})
    after = act(state, "1: add 1 B15")
    assert after.levels == (8, 8) and after.winners == () and after.round == 2


def test_l8_16_master_joker_ranges_decide_what_fits():
    """Master: a set of 3s with every 1-5 joker laid elsewhere takes no joker; the 6-10 and
    11-15 jokers outside cannot stand for 3 (ruling L8-6), so the set of 3s (O3 in a run) and
    the two full runs block the round."""
    full = ["J1-5=1", "J1-5=2", "J1-5=3", "R4", "R5", "J6-10=6", "J6-10=7", "J6-10=8", "R9",
            "R10", "J11-15=11", "J11-15=12", "J11-15=13", "R14", "R15"]
    run2 = [f"O{n}" for n in range(1, 16)]
    threes = ["R3", "Y3", "G3", "B3"]  # O3 is in the second run
    melds = [(0, K.RUN, full), (1, K.RUN, run2), (1, K.SET, threes)]
    state = build("level8-master", [["Y1", "Y2", "KEEP"], ["P3", "B4"]], levels=(2, 2),
                  down=(True, True), turn=1, melds=melds)
    assert not is_blocked(state)  # P3 is outside and fits the set of 3s
    after = act(state, "1: add 2 P3")
    assert after.levels == (3, 3) and after.round == 2 and after.phase is Phase.SHUFFLE


def test_l8_16_a_leave_that_leaves_only_seats_down_can_block():
    """Ruling L8-16 with D-1: the cards of a leaver's hand count as outside; when the seat
    that was not down leaves, the blocked round ends after that entry."""
    melds = [(0, K.RUN, FULL_RUN), (1, K.RUN, [*RUN_1_14, "B15"])]
    state = build("level8", [["Y1", "Y2"], ["B3", "B4"], ["G5", "G6"]], levels=(3, 5, 1),
                  down=(True, True, False), turn=0, melds=melds)
    assert not is_blocked(state)
    after = G.apply(state, Leave(2))
    assert after.levels == (4, 6, 1) and after.round == 2 and after.left == (2,)
    assert after.phase is Phase.SHUFFLE and G.invariant_violations(after) == []
