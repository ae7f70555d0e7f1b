"""Every rule example of the two Level 8 rulebooks, exactly (rulings L8-4 to L8-7, L8-13)."""

from __future__ import annotations

import pytest

from lancards.engine.core import IllegalActionError
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.melds import make_meld, parse_placed
from lancards.engine.level8.state import Phase
from tests.level8.scenario import G, act, build, hand_text, resolve

RUN, CRUN, SET = K.RUN, K.COLOUR_RUN, K.SET


def meld_text(state, meld_id: int) -> str:
    return " ".join(str(p.card) for p in state.melds[meld_id].cards)


def down_player(hand, melds, edition="level8-master"):
    """Seat 1 to play, level laid down, holding ``hand``; melds owned by seat 0."""
    return build(edition, [["G15"], hand], down=(True, True), melds=melds, turn=1)


def test_run_4_5_6_takes_7_then_8_and_3_then_2():
    state = down_player(["G7", "G8", "Y3", "Y2", "B14"], [(0, RUN, ["R4", "O5", "R6"])])
    state = act(state, "1: add 0 G7", "1: add 0 G8", "1: add 0 Y3", "1: add 0 Y2")
    assert meld_text(state, 0) == "Y2 Y3 R4 O5 R6 G7 G8"
    assert hand_text(state, 1) == ["B14"]


def test_run_never_takes_a_card_beyond_the_next_number():
    state = down_player(["G8", "Y2", "B14"], [(0, RUN, ["R4", "O5", "R6"])])
    for text in ("1: add 0 G8", "1: add 0 Y2"):
        with pytest.raises(IllegalActionError, match="does not extend the run 4-6"):
            G.check(state, resolve(state, text))


def test_four_pairs_take_any_2_3_or_6_and_nothing_else():
    melds = [(0, SET, ["R2", "O2"]), (0, SET, ["R3", "O3"]), (0, SET, ["R6", "O6"]),
             (0, SET, ["Y6", "G6"])]
    state = down_player(["B2", "B3", "B6", "P6", "B4", "P15"], melds)
    state = act(state, "1: add 0 B2", "1: add 1 B3", "1: add 2 B6", "1: add 3 P6")
    assert [meld_text(state, i) for i in range(4)] == ["R2 O2 B2", "R3 O3 B3", "R6 O6 B6",
                                                      "Y6 G6 P6"]
    with pytest.raises(IllegalActionError, match="the set is of 2s, not 4"):
        G.check(state, resolve(state, "1: add 0 B4"))


def test_run_8_to_11_with_pairs_3_and_9_takes_7_12_3_or_9():
    melds = [(0, RUN, ["R8", "O9", "Y10", "G11"]), (0, SET, ["R3", "O3"]),
             (0, SET, ["Y9", "G9"])]
    state = down_player(["B7", "B6", "B12", "B13", "P3", "P9", "P1"], melds)
    state = act(state, "1: add 0 B7", "1: add 0 B6", "1: add 0 B12", "1: add 0 B13",
                "1: add 1 P3", "1: add 2 P9")
    assert meld_text(state, 0) == "B6 B7 R8 O9 Y10 G11 B12 B13"
    assert meld_text(state, 1) == "R3 O3 P3"
    assert meld_text(state, 2) == "Y9 G9 P9"
    assert hand_text(state, 1) == ["P1"]


def test_red_colour_run_6_7_8_takes_red_9_and_red_5_refuses_blue_9():
    state = down_player(["R9", "R5", "B9", "P1"], [(0, CRUN, ["R6", "R7", "R8"])])
    with pytest.raises(IllegalActionError, match="the colour run is R, not B"):
        G.check(state, resolve(state, "1: add 0 B9"))
    state = act(state, "1: add 0 R9", "1: add 0 R5")
    assert meld_text(state, 0) == "R5 R6 R7 R8 R9"
    assert hand_text(state, 1) == ["B9", "P1"]


def test_master_red_colour_run_4_j_j_7():
    cards = [parse_placed(t) for t in ("R4#1", "J1-5#2=R5", "J6-10#3=R6", "R7#4")]
    meld = make_meld(0, 0, CRUN, 4, cards)
    assert not isinstance(meld, str)
    assert [(p.number, str(p.colour)) for p in meld.cards] == [(4, "R"), (5, "R"), (6, "R"),
                                                              (7, "R")]
    two_low = [parse_placed(t) for t in ("R4#1", "J1-5#2=R5", "J1-5#3=R6", "R7#4")]
    assert make_meld(0, 0, CRUN, 4, two_low) == (
        "joker J1-5 cannot stand for 6 (its range is 1-5)"
    )


COLOUR_RUN_CARD = 'levels = [["colour-run 4"], ["set 2"], ["set 2"], ["set 2"], ' \
    '["set 2"], ["set 2"], ["set 2"], ["set 2"]]'


def test_master_colour_run_4_j_j_7_laid_down_through_the_engine():
    options = {"sides": "back", "level_cards": COLOUR_RUN_CARD}
    hand = ["R4", "J1-5", "J6-10", "R7", "J1-5", "B2"]
    state = build("level8-master", [["G15"], hand], options=options, turn=1)
    with pytest.raises(IllegalActionError, match=r"J1-5 cannot stand for 6 \(its range is 1-5\)"):
        G.check(state, resolve(state, "1: laydown R4 J1-5=R5 J1-5=R6 R7"))
    state = act(state, "1: laydown R4 J1-5=R5 J6-10=R6 R7")
    assert [str(p) for p in state.melds[0].cards][1:3] == [
        f"J1-5#{state.melds[0].cards[1].slot}=R5", f"J6-10#{state.melds[0].cards[2].slot}=R6"]
    assert state.down[1]


def test_keep_example_level_7_two_keep_cards_keeps_ten():
    """Master: level 7, two "I'll keep that!" in front, not down: 4 + 3 + 3 = 10 (L8-13)."""
    hand = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"]
    state = build("level8-master", [["B5"], hand, ["G1", "G2"]], levels=(3, 7, 1),
                  down=(True, False, False), in_front=[[], ["KEEP", "KEEP"], []],
                  turn=0, melds=[(0, SET, ["O5", "Y5", "P5"])])
    state = act(state, "0: discard B5")  # seat 0 goes out
    assert state.phase is Phase.KEEP and state.keep_queue == (1,)
    kept = [f"1: keep #{s}" for s in state.hands[1][:10]]
    state = act(state, *kept)
    with pytest.raises(IllegalActionError, match="seat 1 may keep at most 10 cards"):
        G.check(state, resolve(state, f"1: keep #{state.hands[1][10]}"))
    state = act(state, "1: keep-end")
    assert state.phase is Phase.SHUFFLE and len(state.hands[1]) == 10
    assert state.levels == (5, 7, 1)
