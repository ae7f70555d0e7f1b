"""Leaving a table for good in Level 8 and Level 8 Master: rulings D-1 to D-4, as positions.

Each test names its ruling. The seat that leaves is written with the action ``N: leave``
(:class:`lancards.engine.core.Leave`), which only the peer layer sends.
"""

from __future__ import annotations

import pytest

from lancards.engine.core import (
    ALL_SEATS,
    IllegalActionError,
    InvalidActionError,
    Leave,
    RandomInt,
    RandomIntRequest,
    Reveal,
    RevealRequest,
    Shuffle,
    ShuffleRequest,
    seat_bit,
)
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.state import Phase
from lancards.engine.position import PositionError, read_position, write_position
from tests.level8.scenario import G, act, build, hand_text, resolve, slot_of


def names(state, slots):
    return [str(state.cards[s]) for s in slots]


def table():
    """Master, 3 seats, seat 0 to play: seat 1 has a run on the table, a discard pile of two
    cards and an "I'll keep that!" card in front of it."""
    return build(
        "level8-master",
        [["R5", "G9", "B2"], ["O1", "O2", "Y7"], ["P3", "P4"]],
        turn=0, levels=(2, 1, 1), down=(True, True, False),
        discards=[["B11"], ["G5", "G6"], ["R13"]],
        melds=[(1, ComponentKind.RUN, ["R1", "R2", "R3", "R4"]),
               (0, ComponentKind.SET, ["B9", "O9", "Y9"])],
        in_front=[[], ["KEEP"], []],
    )


# ---------------------------------------------------------------------------------------------
# D-1: the hand out of play face down, front cards gathered, discard pile and melds stay


def test_d1_hand_goes_out_of_play_face_down():
    state = table()
    hand = state.hands[1]
    state = act(state, "1: leave")
    assert G.left_seats(state) == (1,) and state.out == (hand,)
    assert state.hands[1] == () and names(state, state.out[0]) == ["O1", "O2", "Y7"]
    for slot in hand:  # nobody else learns them: the mask is still seat 1's alone
        assert state.known[slot] == seat_bit(1)
    for seat in (0, 2, None):
        view = G.view(state, seat)
        assert all(view.cards.get(s) is None for s in hand)
    spectator = write_position(G, G.view(state, None))
    assert "left 1\n" in spectator and "out 1: ?*3\n" in spectator
    assert G.invariant_violations(state) == []


def test_d1_at_a_round_end_the_gathered_cards_only_the_leaver_knows_go_out_with_it():
    """Between a round's end and its shuffle the leaver's former hand is gathered, still
    hidden and known to it alone: those cards go out of play with it (not shuffled again), so
    the peer layer never publishes its share of them; the gathered public cards stay."""
    from lancards.engine.level8.steps import new_round

    before = table()
    hand = before.hands[1]
    state = new_round(before)
    assert state.phase is Phase.SHUFFLE and set(hand) <= set(state.gathered)
    assert G.leaving_slots(state, 1) == hand
    assert G.leaving_slots(state, 0) == before.hands[0]
    state = act(state, "1: leave")
    assert state.out == (hand,) and not set(hand) & set(state.gathered)
    assert len(state.gathered) == len(new_round(before).gathered) - len(hand)
    assert all(state.known[s] == seat_bit(1) for s in hand)
    request = G.chance_request(state)
    assert isinstance(request, ShuffleRequest) and not set(hand) & set(request.slots)
    assert G.invariant_violations(state) == []


def test_d1_cards_in_front_are_gathered_the_discard_pile_and_melds_stay():
    state = act(table(), "1: leave")
    assert names(state, state.gathered) == ["KEEP"] and state.in_front[1] == ()
    assert names(state, state.discards[1]) == ["G5", "G6"]
    assert [m.owner for m in state.melds] == [1, 0]
    # seat 0 (down) adds R5 to the leaver's run R1-R4; seat 2 later draws the leaver's G6
    state = act(state, "0: add 0 R5", "0: discard B2")
    assert names(state, [p.slot for p in state.melds[0].cards]) == ["R1", "R2", "R3", "R4", "R5"]
    assert state.turn == 2 and state.phase is Phase.DRAW  # play passes over seat 1
    state = act(state, "2: draw-discard 1")
    assert hand_text(state, 2) == ["G6", "P3", "P4"] and names(state, state.discards[1]) == ["G5"]


def test_d1_the_next_seat_to_the_left_plays_when_the_leaver_was_to_act():
    state = build("level8", [["R5"], ["O1", "O2"], ["P3"], ["Y4"]], turn=1, phase=Phase.DRAW,
                  in_front=[[], [], ["SKIP"], []])
    state = act(state, "1: leave")
    assert state.turn == 2 and state.phase is Phase.SKIPPED  # seat 2's Skip card is served
    state = act(state, "2: serve-skip")
    assert state.turn == 3 and state.phase is Phase.DRAW
    state = act(state, "3: draw", "3: discard Y4", "0: draw", "0: discard R5")
    assert state.turn == 2 and state.phase is Phase.DRAW  # after seat 0: over seat 1 to 2


def test_d1_the_leavers_hand_is_never_gathered_shuffled_or_dealt_again():
    state = build("level8-master", [["R5", "G9"], ["O1", "O2", "Y7"], ["P3"]], turn=2,
                  phase=Phase.PLAY, levels=(1, 1, 1))
    out = state.hands[1]
    state = act(state, "1: leave", "2: discard P3")  # seat 2 goes out: the round ends
    assert state.phase is Phase.SHUFFLE and state.dealer == 2
    request = G.chance_request(state)
    assert isinstance(request, ShuffleRequest) and not set(request.slots) & set(out)
    assert len(request.slots) == 108 - 3
    state = G.apply(state, Shuffle(tuple(range(len(request.slots)))))
    # the deal skips seat 1: seats 0 and 2 get 10 each, from the dealer's (2's) left
    assert len(state.hands[0]) == 10 and len(state.hands[2]) == 10 and state.hands[1] == ()
    assert isinstance(G.chance_request(state), RevealRequest)
    state = G.apply(state, Reveal(state.pile[0], state.cards[state.pile[0]]))
    assert state.turn == 0 and state.out == (out,)  # the seat left of the dealer 2


def test_d1_the_dealer_leaves_before_the_card_is_turned_up():
    state = table().evolve(phase=Phase.FLIP, dealer=1, turn=0)
    state = act(state, "1: leave")
    request = G.chance_request(state)
    assert request == RevealRequest(state.pile[0])  # not a card of the leaver's hand
    state = G.apply(state, Reveal(request.slot, state.cards[request.slot]))
    assert state.discards[1][-1] == request.slot  # onto the dealer's discard pile
    assert state.turn == 2 and state.phase is Phase.DRAW


def test_d1_a_leave_before_the_first_dealer_draws_among_the_seats_left():
    state = G.new_game(build("level8").rules, 4)
    state = G.apply(state, Leave(2))
    assert G.chance_request(state) == RandomIntRequest(3, "first dealer")
    with pytest.raises(IllegalActionError, match="no random seat out of 4"):
        G.check(state, RandomInt(3, 4))
    state = G.apply(state, RandomInt(2, 3))
    assert state.dealer == 3  # the third seat still at the table: 0, 1, 3


def test_d1_a_skip_card_may_not_go_in_front_of_an_empty_seat():
    state = build("level8", [["SKIP", "R1"], ["O1"], ["P3"]], turn=0)
    state = act(state, "1: leave")
    offered = [G.format_action(a) for a in G.legal_actions(state, 0)]
    assert not any(t.startswith("0: play SKIP") and t.endswith(" 1") for t in offered)
    with pytest.raises(IllegalActionError, match=r"seat 1 has left the table \(ruling D-1\)"):
        G.check(state, resolve(state, "0: play SKIP 1"))


def test_d1_keep_queue_without_the_leaver():
    state = build("level8-master", [["R5", "R6"], ["O1", "O2", "O3"], ["P3"]], turn=2,
                  levels=(5, 6, 1))
    state = act(state, "2: discard P3")  # out: seats 1 and 0 (levels 6, 5) may keep 4
    assert state.phase is Phase.KEEP and state.keep_queue == (1, 0)
    state = act(state, "1: keep O2", "1: leave")
    assert state.keep_queue == (0,) and state.kept == ((), (), ())
    assert names(state, state.out[0]) == ["O1", "O2", "O3"]  # the kept O2 goes out too
    state = act(state, "0: keep R5", "0: keep-end")
    assert state.phase is Phase.SHUFFLE and hand_text(state, 0) == ["R5"]
    assert state.hands[1] == () and G.invariant_violations(state) == []


# ---------------------------------------------------------------------------------------------
# D-4: a special card in progress


def take_table():
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    return build("level8-master", hands, turn=0, pile_top=["P9", "P10"])


def test_d4_the_showing_goes_on_without_a_leaver_who_owed_a_reply():
    state = act(take_table(), "0: play TAKE")
    assert state.show_queue == (1, 2)
    state = act(state, "1: leave")
    assert state.phase is Phase.SHOW and state.show_queue == (2,)
    state = act(state, "2: show Y1 Y2")
    assert state.phase is Phase.CHOOSE
    assert [G.describe_action(state, a) for a in G.legal_actions(state, 0)] == [
        "0: choose none", "0: choose Y1", "0: choose Y2"]
    state = act(state, "0: choose Y1")
    assert hand_text(state, 0) == ["R1", "R2", "Y1"] and hand_text(state, 2) == ["P9", "Y2"]
    assert state.turn == 2  # play passes over seat 1


def test_d4_the_last_owed_reply_leaves_and_the_taker_chooses():
    state = act(take_table(), "0: play TAKE", "1: show O1 O2 O3", "2: leave")
    assert state.phase is Phase.CHOOSE and state.show_queue == ()
    state = act(state, "0: choose O3")
    assert hand_text(state, 0) == ["O3", "R1", "R2"] and hand_text(state, 1) == ["O1", "O2",
                                                                               "O4", "P9"]


def test_d4_cards_shown_by_a_leaver_leave_the_choice():
    state = act(take_table(), "0: play TAKE", "1: show O1 O2 O3", "2: show Y1 Y2")
    y1 = slot_of(state, "Y1", 2)
    state = act(state, "2: leave")
    assert names(state, state.out[0]) == ["Y1", "Y2"] and state.shown[2] == ()
    with pytest.raises(IllegalActionError, match="is not among the shown cards"):
        G.check(state, G.parse_action(f"0: choose #{y1}"))
    assert len(G.legal_actions(state, 0)) == 4  # none + O1 O2 O3


def test_d4_a_taker_who_leaves_before_choosing_takes_nothing():
    state = act(take_table(), "0: play TAKE", "1: show O1 O2 O3", "2: show Y1 Y2", "0: leave")
    assert state.phase is Phase.DRAW and state.turn == 1 and state.shown == ()
    assert hand_text(state, 1) == ["O1", "O2", "O3", "O4"] and hand_text(state, 2) == ["Y1", "Y2"]
    assert names(state, state.out[0]) == ["R1", "R2"]


def test_d4_a_taker_who_leaves_while_others_show_takes_nothing():
    state = act(take_table(), "0: play TAKE", "0: leave")
    assert state.phase is Phase.DRAW and state.turn == 1 and state.show_queue == ()


def test_d4_a_swapper_who_leaves_draws_nothing_and_the_put_cards_stay():
    state = build("level8-master", [["SWAP", "R1", "R2", "R3"], ["O1"], ["P3"]], turn=0)
    state = act(state, "0: play SWAP", "0: swap-put R1", "0: leave")
    assert names(state, state.discards[0]) == ["R1"] and names(state, state.out[0]) == ["R2",
                                                                                       "R3"]
    assert state.turn == 1 and state.phase is Phase.DRAW and state.owed == ()


def test_d4_a_skip_aimed_at_the_leaver_is_gathered():
    state = build("level8", [["R5"], ["O1", "O2"], ["P3"]], turn=1, phase=Phase.SKIPPED,
                  in_front=[[], ["SKIP"], []])
    skip = state.in_front[1][0]
    state = act(state, "1: leave")
    assert state.gathered == (skip,) and str(state.cards[skip]) == "SKIP"
    assert state.turn == 2 and state.phase is Phase.DRAW


# ---------------------------------------------------------------------------------------------
# D-2, D-3: ranking and too few players


def test_d3_two_players_a_leave_ends_the_game_and_the_other_wins():
    state = build("level8-master", [["R5"], ["O1"]], turn=0, levels=(6, 2))
    state = act(state, "0: leave")
    assert G.to_act(state) is None and state.phase is Phase.OVER
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.detail["places"] == [2, 1] and outcome.detail["left"] == [0]
    assert outcome.scores == (6, 2)  # levels reached; the leaver's level counts for nothing
    with pytest.raises(IllegalActionError, match=r"the game is over \(ruling D-3\)"):
        G.check(state, Leave(1))


def test_d3_the_last_seat_at_the_table_wins_and_d2_leavers_rank_by_leaving_order():
    state = build("level8", [["R5"], ["O1"], ["P3"], ["Y4"]], turn=0, levels=(7, 3, 5, 8))
    state = act(state, "3: leave", "0: leave")
    assert G.to_act(state) is not None  # two seats left: the game goes on
    state = act(state, "2: leave")
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    # seat 1 (level 3) wins; the leavers rank last, the later one higher: 2, then 0, then 3
    assert outcome.detail["places"] == [3, 1, 2, 4] and outcome.detail["left"] == [3, 0, 2]


def test_d2_d3_places_at_a_normal_end_equal_levels_share_and_a_leaver_is_last():
    state = build("level8-master", [["R5"], ["O1"], ["P3"], ["Y4"], ["B1"]], turn=0,
                  levels=(8, 4, 4, 2, 8))
    state = act(state, "4: leave").evolve(phase=Phase.OVER, winners=(0,),
                                         levels=(9, 4, 4, 2, 8))
    outcome = G.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.detail["places"] == [1, 2, 2, 4, 5]  # seat 4 (level 8) left: last


# ---------------------------------------------------------------------------------------------
# The action: notation, errors, never offered, positions


def test_leave_notation_errors_and_never_offered():
    state = table()
    assert G.parse_action("2: leave") == Leave(2) and G.format_action(Leave(2)) == "2: leave"
    assert G.describe_action(state, Leave(2)) == "2: leave"
    assert G.read_action(state, "2: leave") == Leave(2)
    with pytest.raises(InvalidActionError):
        G.parse_action("2: leave now")
    with pytest.raises(InvalidActionError, match="there is no seat 3"):
        G.check(state, Leave(3))
    with pytest.raises(InvalidActionError, match="there is no seat -1"):
        G.check(state, Leave(-1))
    for seat in range(3):
        assert not any(isinstance(a, Leave) for a in G.legal_actions(state, seat))
    after = act(state, "2: leave")
    with pytest.raises(IllegalActionError,
                       match=r"seat 2 has already left the table \(ruling D-1\)"):
        G.check(after, Leave(2))
    with pytest.raises(IllegalActionError):  # a seat that left never acts again
        G.check(after, G.parse_action("2: draw"))


def test_a_position_with_leavers_round_trips_and_plays_the_same():
    state = act(take_table(), "0: play TAKE", "1: show O1 O2 O3", "2: leave")
    text = write_position(G, state)
    assert "left 2\n" in text and "out 2: Y1 Y2\n" in text
    game, back = read_position(text)
    assert game is G and write_position(G, back) == text
    assert back.left == (2,) and names(back, back.out[0]) == ["Y1", "Y2"]
    bad = text.replace("left 2\n", "")
    with pytest.raises(PositionError, match="seat 2 has not left"):
        read_position(bad)
    with pytest.raises(PositionError, match="named twice"):
        read_position(text.replace("left 2\n", "left 2 2\n"))
    with pytest.raises(PositionError, match="seat 1 left but holds cards"):
        read_position(text.replace("left 2\n", "left 2 1\n"))


def empty_pile(state):
    """``state`` with its draw pile moved under the draw pile, face up (L8-9 then reshuffles)."""
    known = dict(state.known)
    for slot in state.pile:
        known[slot] = ALL_SEATS
    return state.evolve(pile=(), under=(*state.under, *state.pile), known=known)


def test_d1_a_face_down_card_owed_to_the_leaver_is_not_handed_out_and_l8_9_returns_its_pile():
    state = build("level8-master", [["SWAP", "R1", "R2", "R3"], ["O1"], ["P3"]], turn=0)
    state = act(empty_pile(state), "0: play SWAP", "0: swap-put R1", "0: swap-put R2",
                "0: swap-end")
    assert state.owed == (0, 0) and state.reshuffle_due and state.turn == 1
    out = state.hands[0]
    r1, r2 = state.discards[0]
    state = act(state, "0: leave")
    assert state.owed == () and names(state, state.out[0]) == ["R3"]
    request = G.chance_request(state)
    assert isinstance(request, ShuffleRequest) and not set(request.slots) & set(out)
    assert r1 in request.slots and r2 not in request.slots  # the leaver's pile but its top
    state = G.apply(state, Shuffle(tuple(range(len(request.slots)))))
    assert state.hands[0] == () and state.discards[0] == (r2,)
    assert len(state.pile) == len(request.slots) and G.to_act(state) == 1


def test_d1_a_replacement_owed_to_a_leaver_who_was_robbed_is_not_handed_out():
    state = act(empty_pile(take_table()), "0: play TAKE", "1: show O1 O2 O3",
                "2: show Y1 Y2", "0: choose Y2")
    assert state.owed == (2,) and state.reshuffle_due
    state = act(state, "2: leave")
    assert state.owed == () and names(state, state.out[0]) == ["Y1"]
    request = G.chance_request(state)
    state = G.apply(state, Shuffle(tuple(range(len(request.slots)))))
    assert state.hands[2] == () and G.to_act(state) == 1 and state.phase is Phase.DRAW
