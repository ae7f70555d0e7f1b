"""Deck, cut and deal (rulings E-1, E-2), early round end (E-5) and round scoring (E-6)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from lancards.engine.core import CHANCE, Reveal, RevealRequest, Shuffle, ShuffleRequest
from lancards.engine.eights import CARDS, EightsRules, EightsState, Phase, parse_card
from lancards.engine.eights.objectives import default_objectives

from .helpers import GAME, deal, finish_round, play, play_all

RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 R15"


@pytest.mark.parametrize(("n", "per_seat"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_all_60_cards_are_dealt_left_of_the_dealer_first(n: int, per_seat: int) -> None:
    state = deal(n, {}, dealer=1)
    assert [len(hand) for hand in state.hands] == [per_seat] * n
    # The first card of the pile goes to the seat left of the dealer (ruling E-1).
    assert state.hands[2][0] == state.base
    assert GAME.to_act(state) == 2
    # Each dealt slot is known to its holder only.
    for seat, hand in enumerate(state.hands):
        assert all(state.known[slot - state.base] == 1 << seat for slot in hand)


def order_showing(state: EightsState, shown: list[str]) -> tuple[int, ...]:
    """A shuffle order whose pile starts with the cards ``shown``, the rest ascending."""
    ident = list(state.ident)
    first = [ident.index(parse_card(c).index) for c in shown]
    return tuple(first + [i for i in range(60) if i not in first])


def test_high_cut_with_a_recut_of_the_tied() -> None:
    state = GAME.new_game(EightsRules(), 4)
    assert GAME.to_act(state) == CHANCE
    assert GAME.chance_request(state) == ShuffleRequest(tuple(range(60)), 60)
    state = GAME.apply(state, Shuffle(order_showing(state, ["R14", "B14", "Y3", "G1"])))
    for seat in range(4):
        request = GAME.chance_request(state)
        assert request == RevealRequest(60 + seat)
        assert isinstance(request, RevealRequest)
        state = GAME.apply(state, Reveal(request.slot, GAME.identity(state, request.slot)))
    # Seats 0 and 1 tie with 14 and cut again from a new shuffle (ruling E-2).
    assert state.phase is Phase.CUT_SHUFFLE and state.cutters == (0, 1)
    assert GAME.chance_request(state) == ShuffleRequest(tuple(range(60, 120)), 120)
    state = GAME.apply(state, Shuffle(order_showing(state, ["R2", "B15"])))
    for _ in range(2):
        request = GAME.chance_request(state)
        assert isinstance(request, RevealRequest)
        state = GAME.apply(state, Reveal(request.slot, GAME.identity(state, request.slot)))
    assert state.phase is Phase.DEAL and state.dealer == 1 and state.round == 1
    state = GAME.apply(state, Shuffle(tuple(range(60))))
    assert GAME.to_act(state) == 2


def test_first_dealer_option_skips_the_cut() -> None:
    state = GAME.new_game(EightsRules(first_dealer=2), 3)
    assert state.phase is Phase.DEAL and state.dealer == 2
    assert isinstance(GAME.chance_request(state), ShuffleRequest)


def test_no_8s_round_ends_when_the_fourth_8_is_taken() -> None:
    # Round 3 ("no 8s", +25 each), dealer 0: seat 1 holds all of Red and leads the Red 8; the
    # others are void in Red and throw away their 8s.
    hands = {1: RED, 2: "B8", 3: "Y8", 0: "G8"}
    state = deal(4, hands, round_number=3, dealer=0)
    assert state.scoring_left == 4
    state = play_all(state, ["R8 no-take", "B8", "Y8"])
    assert state.phase is Phase.TRICKS
    state = play(state, "G8")
    # Nobody followed the led 8, so seat 1 takes the trick (ruling E-4) and the last 8 with it:
    # the round ends at once (ruling E-5) and the 56 unplayed cards are opened for the audit.
    assert state.phase is Phase.AUDIT and GAME.to_act(state) == CHANCE
    state = finish_round(state)
    assert state.phase is Phase.DEAL and state.round == 4
    assert state.dealer == 1  # the deal passes left (ruling E-2)
    result = state.results[-1]
    assert result.round == 3 and result.tricks == 1 and result.ended_early
    assert result.points == (0, 100, 0, 0)  # unplayed cards score nothing
    assert result.reneges == ()
    state = GAME.apply(state, Shuffle(tuple(range(60))))
    assert GAME.to_act(state) == 2  # left of the new dealer leads round 4


def test_round_without_early_end_runs_all_tricks() -> None:
    state = deal(4, {}, round_number=1, dealer=0)
    state = finish_round(state)
    result = state.results[-1]
    assert result.tricks == 15 and not result.ended_early
    assert sum(result.points) == 150


@pytest.mark.parametrize(
    ("number", "won", "winners", "expected"),
    [
        (1, [[], [], []], [0, 0, 2], (20, 0, 10)),
        (2, [["R15", "R1", "B3"], ["R2"], []], [0, 1], (20, 5, 0)),
        (3, [["R8", "B8"], ["G8"], ["Y8", "Y9"]], [0, 1, 2], (50, 25, 25)),
        (4, [["R1", "B15", "Y7"], [], ["G1"]], [0, 2], (20, 0, 10)),
        (5, [["R14"], ["R15"], []], [0, 1], (0, 75, 0)),
        (6, [[], [], []], [1, 1, 1, 2, 0], (50, 0, 25)),
        (7, [[], [], []], [0, 0, 2, 1], (-20, -10, -10)),
    ],
)
def test_default_objective_scores(
    number: int, won: list[list[str]], winners: list[int], expected: tuple[int, ...]
) -> None:
    objective = default_objectives().for_round(number)
    won_cards = [[parse_card(c).index for c in seat] for seat in won]
    assert objective.score(won_cards, winners, 3) == expected


def test_card_notation_covers_the_deck() -> None:
    assert [str(c) for c in CARDS[:3]] == ["R1", "R2", "R3"]
    assert str(CARDS[59]) == "G15"
    assert all(parse_card(str(card)) == card for card in CARDS)


def corrupt(state: EightsState, how: str) -> EightsState:
    hands = list(state.hands)
    if how == "card in two places":
        hands[1] = (*hands[1], hands[0][0])
    elif how == "lost card":
        hands[0] = hands[0][1:]
    elif how == "identity twice":
        return replace(state, ident=(state.ident[1], *state.ident[1:]))
    elif how == "hidden hand card":
        return replace(state, known=(0, *state.known[1:]))
    elif how == "layout":
        return replace(state, layout=((8, 9), (0, 0), (0, 0), (0, 0)))
    elif how == "scoring count":
        return replace(state, scoring_left=state.scoring_left + 1)
    return replace(state, hands=tuple(hands))


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("card in two places", r"slot #\d+ is in 2 places \['hand of seat 0', 'hand of seat 1'\]"),
        ("lost card", r"slot #\d+ is in 0 places"),
        ("identity twice", r"is known to be in 2 slots"),
        ("hidden hand card", r"seat 1 does not know its own slot #60"),
        ("layout", r"the layout .* does not match the cards laid"),
        ("scoring count", r"5 scoring cards counted left, 4 really left"),
    ],
)
def test_invariant_checker_catches_corruption(how: str, message: str) -> None:
    state = deal(4, {}, round_number=3, dealer=0)
    assert GAME.invariant_violations(state) == []
    problems = GAME.invariant_violations(corrupt(state, how))
    assert any(re.search(message, p) for p in problems), problems
