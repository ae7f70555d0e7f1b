"""Master special cards (L8M-1..3), the draw pile running out (L8-9), drawing (L8-3, L8-15)."""

from __future__ import annotations

import pytest

from lancards.engine.core import CHANCE, IllegalActionError, RevealRequest, Shuffle, ShuffleRequest
from lancards.engine.level8.state import Phase
from tests.level8.scenario import G, act, build, hand_text, resolve, slot_of


def take_position():
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    return build("level8-master", hands, turn=0, pile_top=["P9", "P10"])


def test_take_shows_three_cards_each_and_the_robbed_player_draws():
    state = act(take_position(), "0: play TAKE")
    assert state.phase is Phase.SHOW and state.show_queue == (1, 2)
    with pytest.raises(IllegalActionError, match="seat 1 must show 3 cards"):
        G.check(state, resolve(state, "1: show O1 O2"))
    state = act(state, "1: show O1 O2 O4", "2: show Y1 Y2")
    assert state.phase is Phase.CHOOSE
    assert len(G.legal_actions(state, 0)) == 6  # none + 5 shown cards
    spectator = G.view(state, None)
    assert sorted(str(spectator.cards[s]) for s in state.shown[1]) == ["O1", "O2", "O4"]
    state = act(state, "0: choose Y2")
    assert hand_text(state, 0) == ["R1", "R2", "Y2"]
    assert hand_text(state, 2) == ["P9", "Y1"]  # replacement: top face-down card
    assert hand_text(state, 1) == ["O1", "O2", "O3", "O4"]
    seat1 = G.view(state, 1)
    assert str(seat1.cards[slot_of(state, "Y1", 2)]) == "Y1"  # shown cards stay known
    assert seat1.cards.get(slot_of(state, "P9", 2)) is None  # the replacement does not
    assert state.turn == 1 and state.phase is Phase.DRAW
    assert [str(state.cards[s]) for s in state.under] == ["TAKE"]


def test_take_may_take_nothing():
    state = act(take_position(), "0: play TAKE", "1: show O1 O2 O3", "2: show Y1 Y2",
                "0: choose none")
    assert hand_text(state, 0) == ["R1", "R2"] and hand_text(state, 2) == ["Y1", "Y2"]
    assert state.turn == 1


def test_choose_refuses_a_card_that_was_not_shown():
    state = act(take_position(), "0: play TAKE", "1: show O1 O2 O3", "2: show Y1 Y2")
    with pytest.raises(IllegalActionError, match="is not among the shown cards"):
        G.check(state, G.parse_action(f"0: choose #{slot_of(state, 'O4', 1)}"))


def test_swap_puts_up_to_three_then_draws_as_many_from_the_draw_pile():
    hands = [["SWAP", "R1", "R2", "R3", "R4"], ["O1"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10", "P11"])
    state = act(state, "0: play SWAP", "0: swap-put R1", "0: swap-put R3", "0: swap-put R2")
    with pytest.raises(IllegalActionError, match="at most 3 cards are swapped"):
        G.check(state, resolve(state, "0: swap-put R4"))
    state = act(state, "0: swap-end")
    assert hand_text(state, 0) == ["P10", "P11", "P9", "R4"]
    assert [str(state.cards[s]) for s in state.discards[0]] == ["R1", "R3", "R2"]
    assert state.turn == 1


def test_swap_eager_reshuffle_in_the_middle():
    hands = [["SWAP", "R1", "R2", "R3"], ["O1"]]
    state = build("level8-master", hands, turn=0, discards=[["B1", "B2"], ["B3"]])
    state = state.evolve(pile=state.pile[:1], gathered=state.pile[1:])  # one face-down card
    state = act(state, "0: play SWAP", "0: swap-put R1", "0: swap-put R2", "0: swap-end")
    assert G.to_act(state) == CHANCE
    request = G.chance_request(state)
    assert isinstance(request, ShuffleRequest)
    # Everything but the discard-pile tops and the face-up SWAP under the pile.
    assert sorted(str(state.cards[s]) for s in request.slots) == ["B1", "B2", "R1", "SWAP"]
    state = G.apply(state, Shuffle((3, 2, 1, 0)))
    assert len(state.hands[0]) == 3 and len(state.pile) == 3
    assert [str(state.cards[s]) for s in state.discards[0]] == ["R2"]
    assert state.turn == 1 and state.phase is Phase.DRAW


def test_lazy_reshuffle_waits_for_an_empty_draw():
    hands = [["R1", "R2"], ["O1", "O2"]]
    state = build("level8-master", hands, turn=0, phase=Phase.DRAW,
                  discards=[["B1", "B2"], []], options={"reshuffle": "lazy"})
    state = state.evolve(pile=state.pile[:1], gathered=state.pile[1:])
    state = act(state, "0: draw")
    assert state.pile == () and G.to_act(state) == 0  # no reshuffle yet
    state = act(state, "0: discard R1", "1: draw")
    assert G.to_act(state) == CHANCE
    assert sorted(str(state.cards[s]) for s in G.chance_request(state).slots) == ["B1", "B2"]


def test_no_face_down_card_at_all_skips_the_draw():
    state = build("level8-master", [["R1"], ["O1"]], turn=0, phase=Phase.DRAW,
                  discards=[["B1"], []])
    state = state.evolve(pile=(), gathered=state.pile)
    state = act(state, "0: draw")
    assert hand_text(state, 0) == ["R1"] and state.phase is Phase.PLAY


def test_special_card_as_last_card_has_no_effect_and_ends_the_round():
    state = build("level8-master", [["TAKE"], ["O1", "O2"]], turn=0, down=(True, False))
    state = act(state, "0: play TAKE")
    assert state.phase is Phase.SHUFFLE and state.round == 2 and state.levels == (3, 1)


def test_specials_drawable_option():
    for value, expected in (("true", ["0: draw", "0: draw-discard 1"]), ("false", ["0: draw"])):
        state = build("level8", [["R1"], ["O1"]], turn=0, phase=Phase.DRAW,
                      discards=[[], ["SKIP"]], options={"specials_drawable": value})
        assert [str(a) for a in G.legal_actions(state, 0)] == expected
    with pytest.raises(IllegalActionError, match="SKIP may not be drawn from a discard pile"):
        G.check(state, G.parse_action("0: draw-discard 1"))


def test_round_start_deal_and_first_card():
    state = G.new_game(build("level8-master").rules, 3)
    assert G.chance_request(state).n == 3
    state = G.apply(state, G.parse_action("*: random 1/3"))
    assert state.dealer == 1
    state = G.apply(state, Shuffle(tuple(range(108))))
    assert [len(h) for h in state.hands] == [10, 10, 10]
    assert G.chance_request(state) == RevealRequest(state.pile[0])
    # Seat 2 (left of the dealer) got the first card: the deck's first card, R1.
    assert str(state.cards[state.hands[2][0]]) == "R1"
    first = state.pile[0]
    state = G.apply(state, G.parse_action(f"*: reveal {state.cards[first]}#{first}"))
    assert state.discards[1] == (first,) and state.turn == 2 and state.phase is Phase.DRAW
    assert str(state.cards[first]) == "Y1"  # 30 cards dealt, then the 31st
