"""Positions of the kind that broke other rummy engines, each with its exact outcome."""

from __future__ import annotations

import pytest

from lancards.engine.core import ALL_SEATS, IllegalActionError, seat_bit
from lancards.engine.level8.actions import LayDown
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.melds import make_meld, parse_placed
from lancards.engine.level8.state import Phase
from tests.level8.scenario import G, act, build, hand_text, resolve, slot_of


def test_a_one_joker_added_twice_to_the_same_run():
    state = build("level8", [["G15"], ["J", "B1", "B2"]], down=(True, True), turn=1,
                  melds=[(0, K.RUN, ["R4", "O5", "R6"])])
    joker = slot_of(state, "J", 1)
    state = G.apply(state, G.parse_action(f"1: add 0 J#{joker}=7"))
    assert [p.number for p in state.melds[0].cards] == [4, 5, 6, 7]
    assert joker not in state.hands[1]
    with pytest.raises(IllegalActionError, match=rf"J#{joker} is not in the hand of seat 1 "
                       r"\(it is in meld 0\)"):
        G.check(state, G.parse_action(f"1: add 0 J#{joker}=3"))
    assert hand_text(state, 1) == ["B1", "B2"]


def test_b_triplet_and_five_of_one_colour():
    hand = ["R9", "O9", "J6-10", "B1", "B3", "B5", "B11", "B13", "R7", "G2"]
    state = build("level8-master", [["G15"], hand], levels=(1, 4), turn=1)
    assert any(isinstance(a, LayDown) for a in G.legal_actions(state, 1))
    after = act(state, "1: laydown R9 O9 J6-10=9 | B1 B3 B5 B11 B13")
    assert [str(m) .split("[")[0] for m in after.melds] == ["0:set", "1:colour-group"]
    assert hand_text(after, 1) == ["G2", "R7"]
    with pytest.raises(IllegalActionError,
                       match=r"group 1 is not a triplet: numbers 7 9 are not all the same"):
        G.check(state, resolve(state, "1: laydown R7 R9 J6-10=9 | B1 B3 B5 B11 B13"))


def test_c_skip_cards():
    hands = [["SKIP", "R1", "R2"], ["SKIP", "O1", "O2"], ["Y1", "Y2"], ["G1", "G2"]]
    state = build("level8", hands, turn=0)
    with pytest.raises(IllegalActionError, match="a Skip card goes in front of another player"):
        G.check(state, resolve(state, "0: play SKIP 0"))
    state = act(state, "0: play SKIP 2")
    assert state.turn == 1 and state.phase is Phase.DRAW
    state = act(state, "1: draw")
    with pytest.raises(IllegalActionError, match="seat 2 already has a Skip card in front"):
        G.check(state, resolve(state, "1: play SKIP 2"))
    state = act(state, "1: discard O1")
    assert state.turn == 2 and state.phase is Phase.SKIPPED
    assert [str(a) for a in G.legal_actions(state, 2)] == ["2: serve-skip"]
    state = act(state, "2: serve-skip")
    assert state.turn == 3 and state.phase is Phase.DRAW
    assert state.in_front[2] == () and [str(state.cards[s]) for s in state.under] == ["SKIP"]


def test_c_two_players_skipping_the_other_moves_again():
    state = build("level8", [["SKIP", "R1"], ["O1", "O2"]], turn=0)
    state = act(state, "0: play SKIP 1", "1: serve-skip")
    assert state.turn == 0 and state.phase is Phase.DRAW


def test_d_round_end_levels_and_win():
    melds = [(1, K.SET, ["R5", "O5", "Y5"]), (1, K.COLOUR_GROUP, ["B1", "B2", "B3", "B4", "B6"])]
    hands = [["P15"], ["G1", "G2"], ["G3", "G4"]]
    state = build("level8-master", hands, levels=(3, 5, 2), down=(True, True, False), turn=0,
                  melds=melds)
    after = act(state, "0: discard P15")
    assert after.levels == (5, 6, 2)
    assert G.outcome(after) is None
    winning = build("level8-master", hands, levels=(7, 5, 2), down=(True, True, False), turn=0,
                    melds=melds)
    final = act(winning, "0: discard P15")
    outcome = G.outcome(final)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (9, 6, 2)
    assert G.to_act(final) is None and G.legal_actions(final, 1) == []


def test_level_8_laid_down_wins_at_once_by_default_and_not_with_on_going_out():
    hand = ["R3", "O3", "Y3", "R7", "O7", "Y7", "G7", "B7", "P1", "P2"]
    state = build("level8-master", [["G15"], hand], levels=(1, 8), turn=1)
    text = "1: laydown R3 O3 Y3 | R7 O7 Y7 G7 B7"
    final = act(state, text)
    assert G.outcome(final).winners == (1,)
    lazy = build("level8-master", [["G15"], hand], levels=(1, 8), turn=1,
                 options={"level8_win": "on_going_out"})
    after = act(lazy, text)
    assert G.outcome(after) is None and after.levels == (1, 8) and after.down[1]


def test_e_master_jokers_as_a_triplet():
    same = [parse_placed(f"J6-10#{i}=8") for i in range(3)]
    assert not isinstance(make_meld(0, 0, K.SET, 3, same), str)
    mixed = [parse_placed(t) for t in ("J1-5#1=8", "J6-10#2=8", "J11-15#3=8")]
    assert make_meld(0, 0, K.SET, 3, mixed) == "joker J1-5 cannot stand for 8 (its range is 1-5)"
    hand = ["J6-10", "J6-10", "J6-10", "R1", "R2", "R3", "R4", "P10", "P11"]
    state = build("level8-master", [["G15"], hand], levels=(1, 2), turn=1)
    after = act(state, "1: laydown J6-10=8 J6-10=8 J6-10=8 | R1 R2 R3 R4")
    assert [p.number for p in after.melds[0].cards] == [8, 8, 8]
    hand2 = ["J1-5", "J6-10", "J11-15", "R1", "R2", "R3", "R4", "P10", "P11"]
    state2 = build("level8-master", [["G15"], hand2], levels=(1, 2), turn=1)
    with pytest.raises(IllegalActionError, match="J1-5 cannot stand for 8"):
        G.check(state2, resolve(state2, "1: laydown J1-5=8 J6-10=8 J11-15=8 | R1 R2 R3 R4"))


def test_f_nothing_of_a_round_survives_but_levels_and_kept_cards():
    hands = [["P15"], ["G1", "G2", "G3", "G4", "G5"], ["B8", "B9", "B10"]]
    state = build("level8-master", hands, levels=(3, 5, 2), down=(True, False, False), turn=0,
                  melds=[(0, K.SET, ["R5", "O5", "Y5"])],
                  in_front=[[], ["KEEP"], ["KEEP"]], discards=[["R1"], ["R2", "R3"], []],
                  under=["TAKE"])
    shown = slot_of(state, "G2", 1)
    state = state.evolve(known={**state.known, shown: ALL_SEATS})  # shown earlier this round
    state = act(state, "0: discard P15")
    assert state.keep_queue == (1, 2)
    state = act(state, f"1: keep #{shown}", "1: keep-end", "2: keep-end")
    assert state.phase is Phase.SHUFFLE and state.round == 2 and state.dealer == 1
    assert state.levels == (5, 5, 2)
    assert state.hands == ((), (shown,), ())
    assert state.melds == () and state.in_front == ((), (), ()) and state.under == ()
    assert state.discards == ((), (), ()) and state.down == (False, False, False)
    assert state.known[shown] == seat_bit(1)  # shown-card knowledge gone: secret again
    assert G.view(state, 0).cards.get(shown) is None
    assert len(state.gathered) == 107
