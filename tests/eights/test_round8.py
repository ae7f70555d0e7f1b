"""Round 8, the layout (ruling E-7), its renege audit (ruling E-8) and the end of the game."""

from __future__ import annotations

import pytest

from lancards.engine.core import CHANCE, IllegalActionError, RevealRequest
from lancards.engine.eights import Card, EightsState, Pass, Phase, Play, Suit
from lancards.engine.eights.play import EMPTY_LAYOUT, is_playable, lay
from lancards.engine.eights.state import Renege

from .helpers import GAME, cards, deal, first_legal, move, play, reveal_all

# Six players, dealer 0: seat 1 holds all four 8s and the Red run 9..14 and goes out on its
# tenth turn; the other hands are chosen so that every move of the "first legal" policy is
# forced or obvious (see test_going_out_ends_the_game_with_exact_scores).
HANDS = {
    1: "R8 B8 Y8 G8 R9 R10 R11 R12 R13 R14",
    2: "R1 R2 R3 R4 R5 R6 R7 R15 B1 B2",
    3: "B9 B10 B11 B12 B13 B14 B15 B3 B4 B5",
    4: "Y9 Y10 Y11 Y12 Y13 Y14 Y15 B6 B7 Y1",
    5: "G9 G10 G11 G12 G13 G14 G15 Y2 Y3 Y4",
    0: "Y5 Y6 Y7 G1 G2 G3 G4 G5 G6 G7",
}


def round8() -> EightsState:
    return deal(6, HANDS, round_number=8, dealer=0)


@pytest.mark.parametrize(
    ("laid", "card", "playable"),
    [
        ("", "R8", True),
        ("", "R7", False),
        ("R8", "R7", True),
        ("R8", "R9", True),
        ("R8", "R10", False),
        ("R8", "B8", True),
        ("R8 R9 R10", "R11", True),
        ("R8 R7", "R5", False),
        ("R8 R7 R6 R5 R4 R3 R2 R1", "R15", False),
        ("G8", "G7", True),
    ],
)
def test_layout_rules(laid: str, card: str, playable: bool) -> None:
    layout = EMPTY_LAYOUT
    for c in cards(laid):
        assert is_playable(c, layout)
        layout = lay(c, layout)
    assert is_playable(cards(card)[0], layout) is playable


def test_left_of_dealer_without_an_8_must_pass() -> None:
    state = deal(6, HANDS, round_number=8, dealer=5)  # seat 0 starts and holds no 8
    assert state.phase is Phase.LAYOUT
    assert GAME.legal_actions(state, 0) == [Pass(0)]
    state = play(state, "pass")
    assert GAME.to_act(state) == 1
    assert [str(a.card) for a in GAME.legal_actions(state, 1) if isinstance(a, Play)] == [
        "R8",
        "B8",
        "Y8",
        "G8",
    ]


def test_a_card_that_does_not_fit_is_refused() -> None:
    state = round8()
    with pytest.raises(IllegalActionError, match=r"R9 does not fit the layout .*ruling E-7"):
        GAME.check(state, move(state, "R9"))
    with pytest.raises(IllegalActionError, match="'take' and 'no-take' are for trick rounds"):
        GAME.check(state, move(state, "R8 take"))


def test_going_out_ends_the_game_with_exact_scores() -> None:
    state = round8()
    turns = 0
    while state.phase is Phase.LAYOUT:
        state = GAME.apply(state, first_legal(state))
        turns += 1
    # Seat 1 plays R8..R14, B8, Y8, G8, one per round of turns: out on turn 9 * 6 + 1.
    assert turns == 55
    assert state.phase is Phase.AUDIT and GAME.to_act(state) == CHANCE
    assert isinstance(GAME.chance_request(state), RevealRequest)
    state = reveal_all(state)
    assert state.phase is Phase.OVER and GAME.to_act(state) is None
    result = state.results[-1]
    # Left in hand: seat 0 played Y7 (9 left), seat 2 played R7..R1 and R15 (2 left), seat 3
    # B9 and B10 (8 left), seat 4 B7 and B6 (8 left), seat 5 nothing (10 left).
    assert result.went_out == 1
    assert result.points == (90, -25, 20, 80, 80, 100)
    assert result.reneges == ()
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (90, -25, 20, 80, 80, 100)  # rounds 1..7 were zero here
    assert outcome.winners == (1,)


def test_pass_with_a_playable_card_is_a_renege() -> None:
    state = round8()
    for _ in range(44):  # up to seat 3's turn after B8 was laid (turn 45)
        state = GAME.apply(state, first_legal(state))
    assert GAME.to_act(state) == 3 and state.layout[Suit.BLUE] == (8, 8)
    assert Pass(3) not in GAME.legal_actions(state, 3)  # it holds the playable B9
    GAME.check(state, Pass(3))  # other peers cannot see the hand: accepted, audited later
    state = GAME.apply(state, Pass(3))
    while state.phase is Phase.LAYOUT:
        state = GAME.apply(state, first_legal(state))
    state = reveal_all(state)
    result = state.results[-1]
    assert result.reneges == (Renege(8, 3, 45, None, Card(Suit.BLUE, 9), None),)
    assert str(result.reneges[0]) == (
        "round 8, turn 45: seat 3 passed while holding the playable B9 (renege, +50, ruling E-8)"
    )
    # Seat 3 lays B9 one turn later than before and keeps B10: 9 cards left, plus 50.
    assert result.points == (90, -25, 20, 90, 80, 100)
    assert result.totals == (90, -25, 20, 140, 80, 100)


def test_a_full_turn_of_passes_ends_round_8_and_the_audit_names_the_passer() -> None:
    """A dead layout (``docs/rules-eights.md``, reading 5): seat 1 holds all four 8s and
    passes; nobody else can play, so without an end the round would go round for ever. After
    six passes in a row the round ends with nobody out and goes to the audit."""
    state = round8()
    for seat in (1, 2, 3, 4, 5):
        assert GAME.to_act(state) == seat
        state = GAME.apply(state, Pass(seat))
        assert state.phase is Phase.LAYOUT
    assert GAME.legal_actions(state, 0) == [Pass(0)]  # seat 0 passes honestly: the sixth
    state = GAME.apply(state, Pass(0))
    assert state.phase is Phase.AUDIT and GAME.to_act(state) == CHANCE
    state = reveal_all(state)
    assert state.phase is Phase.OVER
    result = state.results[-1]
    assert result.went_out is None
    assert result.reneges == (Renege(8, 1, 1, None, Card(Suit.RED, 8), None),)
    assert result.points == (100, 100, 100, 100, 100, 100)  # 10 cards left each, nobody out
    assert result.totals == (100, 150, 100, 100, 100, 100)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2, 3, 4, 5)  # E-9: shared


def test_passes_short_of_a_full_turn_do_not_end_round_8() -> None:
    """Five passes of six seats, then a card: the count starts again after the card."""
    state = round8()
    state = GAME.apply(state, move(state, "R8"))
    for seat in (2, 3, 4, 5, 0):
        state = GAME.apply(state, Pass(seat))
    assert state.phase is Phase.LAYOUT and GAME.to_act(state) == 1
    state = GAME.apply(state, move(state, "R9"))
    for seat in (2, 3, 4, 5, 0):
        state = GAME.apply(state, Pass(seat))
    assert state.phase is Phase.LAYOUT and GAME.to_act(state) == 1
