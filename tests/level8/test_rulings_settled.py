"""Rulings L8-11, L8M-2 and L8-13 as settled in rulings.md, each by an exact position."""

from __future__ import annotations

import pytest

from lancards.engine.core import IllegalActionError
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from tests.level8.scenario import G, act, build, hand_text, resolve

GOING_OUT = {"level8_win": "on_going_out"}


def test_l8_11_on_going_out_level_8_laid_down_but_not_out_stays_on_level_8():
    """Ruling L8-11: under on_going_out, level 8 laid down while another goes out: stay on 8."""
    hands = [["P15"], ["B1", "B2"], ["G1", "G2", "G3"]]
    melds = [(0, K.SET, ["R5", "O5", "Y5"]), (1, K.SET, ["R3", "O3", "Y3"]),
             (1, K.SET, ["R9", "O9", "Y9", "G9", "B9"])]
    state = build("level8-master", hands, levels=(3, 8, 8), down=(True, True, False), turn=0,
                  melds=melds, options=GOING_OUT)
    after = act(state, "0: discard P15")  # seat 0 goes out
    assert after.levels == (5, 8, 8)  # +2 for going out; seat 1 stops at 8; seat 2 stays
    assert G.outcome(after) is None and after.winners == ()
    assert after.phase is Phase.KEEP and after.keep_queue == (2,)  # level 8, not down: 4


def test_l8_11_on_going_out_level_8_wins_by_going_out_alone():
    """Ruling L8-11: the one who goes out from level 8 wins; another level 8 player who is down
    stays on 8, so there is never a second winner."""
    hands = [["P15"], ["B1", "B2"], ["G1"]]
    melds = [(0, K.SET, ["R3", "O3", "Y3"]), (0, K.SET, ["R9", "O9", "Y9", "G9", "B9"]),
             (1, K.SET, ["R4", "O4", "Y4"]), (1, K.SET, ["R10", "O10", "Y10", "G10", "B10"])]
    state = build("level8-master", hands, levels=(8, 8, 7), down=(True, True, False), turn=0,
                  melds=melds, options=GOING_OUT)
    final = act(state, "0: discard P15")
    outcome = G.outcome(final)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (9, 8, 7)
    assert G.to_act(final) is None


def test_l8_11_level_7_laid_down_and_not_out_reaches_8_not_win():
    """Ruling L8-11/L8-10: level 7 laid down, someone else out: +1 to level 8, no win."""
    hands = [["P15"], ["B1", "B2"]]
    melds = [(0, K.SET, ["R5", "O5", "Y5"]), (1, K.SET, ["R3", "O3", "Y3", "G3"]),
             (1, K.SET, ["R9", "O9", "Y9", "G9"])]
    for options in ({}, GOING_OUT):
        state = build("level8-master", hands, levels=(1, 7), down=(True, True), turn=0,
                      melds=melds, options=options)
        after = act(state, "0: discard P15")
        assert after.levels == (3, 8) and G.outcome(after) is None


def test_l8m_2_swapping_away_the_last_card_does_not_end_the_round():
    """Ruling L8M-2: putting down every hand card during "I'll swap that!" never ends the
    round; the player then draws the same number from the face-down pile."""
    hands = [["SWAP", "R1"], ["B1", "B2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"])
    state = act(state, "0: play SWAP", "0: swap-put R1")
    assert state.hands[0] == () and state.phase is Phase.SWAP and state.went_out == -1
    assert [str(a) for a in G.legal_actions(state, 0)] == ["0: swap-end"]
    state = act(state, "0: swap-end")
    assert hand_text(state, 0) == ["P9"] and state.turn == 1 and state.phase is Phase.DRAW
    assert state.levels == (1, 1) and state.round == 1


def test_l8m_2_skipped_swap_draws_leave_an_empty_hand_in_the_round():
    """Ruling L8M-2 with L8-9: no face-down card to be had, the draw is skipped; the player
    with the empty hand stays in the round and draws on the next turn."""
    hands = [[], ["B1", "B2"]]
    state = build("level8-master", hands, turn=0, phase=Phase.SWAP, discards=[["R1"], ["O1"]],
                  pile_top=[])
    state = state.evolve(pile=(), swaps=1, gathered=state.pile)  # no face-down card at all
    state = act(state, "0: swap-end")
    assert state.hands[0] == () and state.turn == 1 and state.phase is Phase.DRAW
    assert state.owed == () and not state.reshuffle_due and state.went_out == -1
    state = act(state, "1: draw-discard 0", "1: discard B1")
    assert state.turn == 0 and state.phase is Phase.DRAW and state.round == 1
    # the face-down draw would be skipped (L8-9); the discard-pile top may be drawn
    assert [str(a) for a in G.legal_actions(state, 0)] == ["0: draw", "0: draw-discard 1"]
    state = act(state, "0: draw-discard 1")
    assert hand_text(state, 0) == ["B1"]


@pytest.mark.parametrize(
    ("edition", "options", "level", "keeps", "allowed"),
    [
        ("level8-master", {}, 2, ["KEEP"], 3),  # any level: 3 per "I'll keep that!"
        ("level8-master", {}, 5, [], 4),  # Master: levels 5..8 keep 4 on the front side
        ("level8-master", {}, 7, ["KEEP", "KEEP"], 10),  # 4 + 3 + 3
        ("level8-master", {}, 4, [], 0),
        ("level8", {}, 6, [], 0),  # level8: the front side keeps nothing
    ],
)
def test_l8_13_allowances_add_up(edition, options, level, keeps, allowed):
    """Ruling L8-13: up to 4 on levels 5..8 (Master; level8 back side only) plus 3 per
    "I'll keep that!" in front, on any level; allowances add up."""
    hand = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"]
    state = build(edition, [["B5"], hand], levels=(3, level), down=(True, False), turn=0,
                  in_front=[[], keeps], melds=[(0, K.SET, ["O5", "Y5", "P5"])], options=options)
    state = act(state, "0: discard B5")
    if allowed == 0:
        assert state.phase is Phase.SHUFFLE and state.hands[1] == ()
        return
    assert state.phase is Phase.KEEP and state.keep_queue == (1,)
    state = act(state, *(f"1: keep #{s}" for s in state.hands[1][:allowed]))
    with pytest.raises(IllegalActionError, match=rf"may keep at most {allowed} cards.*L8-13"):
        G.check(state, resolve(state, f"1: keep #{state.hands[1][allowed]}"))
    state = act(state, "1: keep-end")
    assert len(state.hands[1]) == allowed and state.round == 2


def test_l8_13_level8_back_side_keeps_four_and_a_player_who_laid_down_keeps_nothing():
    """Ruling L8-13: level8 keeps 4 only on the back side; laid down: nothing, even in Master
    with an "I'll keep that!" in front."""
    back = 'levels = [["set 3"], ["set 3"], ["set 3"], ["set 3"], ["set 3"], ["set 3"], ' \
        '["set 3"], ["set 3"]]'
    hand = ["R1", "R2", "R3", "R4", "R5", "R6"]
    state = build("level8", [["B5"], hand], levels=(3, 5), down=(True, False), turn=0,
                  melds=[(0, K.SET, ["O5", "Y5", "P5"])],
                  options={"sides": "front,back", "level_cards": back})
    state = act(state, "0: discard B5")
    assert state.keep_queue == (1,)
    master = build("level8-master", [["B5"], hand, ["G1"]], levels=(3, 6, 2),
                   down=(True, True, False), turn=0, in_front=[[], ["KEEP"], ["KEEP"]],
                   melds=[(0, K.SET, ["O5", "Y5", "P5"]), (1, K.SET, ["R8", "O8", "Y8"])])
    master = act(master, "0: discard B5")
    assert master.keep_queue == (2,)  # seat 1 laid down: keeps nothing despite its KEEP
