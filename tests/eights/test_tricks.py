"""Rounds 1..7: follow suit (ruling E-3), the trick winner and the 8s (ruling E-4)."""

from __future__ import annotations

import pytest

from lancards.engine.core import IllegalActionError
from lancards.engine.eights import Card, Pass, Play, Suit, parse_card
from lancards.engine.eights.play import TrickPlay, trick_winner
from lancards.engine.eights.state import Renege

from .helpers import GAME, deal, finish_round, move, play, play_all, slot_of

BLUE = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B14 B15"


def plays(*items: tuple[int, str, bool | None]) -> list[TrickPlay]:
    return [TrickPlay(seat, -1, parse_card(card).index, take) for seat, card, take in items]


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        # The examples (ruling E-4).
        (plays((0, "B5", None), (1, "R15", None), (2, "B9", None), (3, "B12", None)), 3),
        (
            plays(
                (0, "B5", None),
                (1, "R15", None),
                (2, "B9", None),
                (3, "B12", None),
                (4, "B8", True),
            ),
            4,
        ),
        (plays((0, "B8", False), (1, "B3", None), (2, "G14", None)), 1),
        (plays((0, "B8", False), (1, "R3", None), (2, "G14", None)), 0),
        # More of E-4: a led 8 with "take" beats the 15; a "no take" 8 after the lead loses;
        # an 8 of another suit is an ordinary card.
        (plays((0, "B8", True), (1, "B15", None), (2, "B14", None)), 0),
        (plays((0, "B2", None), (1, "B8", False), (2, "G14", None)), 0),
        (plays((0, "Y2", None), (1, "B8", None), (2, "R8", None), (3, "Y3", None)), 3),
    ],
)
def test_trick_winner(trick: list[TrickPlay], winner: int) -> None:
    assert trick_winner(trick) == winner


def test_blue_12_wins_the_trick_in_play() -> None:
    state = deal(4, {0: "B5", 1: "R15", 2: "B9", 3: "B12"}, dealer=3, void={1: "B"})
    assert GAME.to_act(state) == 0  # ruling E-3: left of the dealer leads
    state = play_all(state, ["B5", "R15", "B9", "B12"])
    assert state.trick_winners == (3,)
    assert sorted(state.won[3]) == sorted(slot_of(state, c) for c in ("B5", "R15", "B9", "B12"))
    assert GAME.to_act(state) == 3  # the winner leads the next trick


@pytest.mark.parametrize(("declaration", "winner"), [("take", 4), ("no-take", 3)])
def test_blue_8_played_last(declaration: str, winner: int) -> None:
    state = deal(5, {0: "B5", 1: "R15", 2: "B9", 3: "B12", 4: "B8"}, dealer=4, void={1: "B"})
    state = play_all(state, ["B5", "R15", "B9", "B12", f"B8 {declaration}"])
    assert state.trick_winners == (winner,)


def test_blue_8_led_no_take_loses_to_blue_3() -> None:
    state = deal(3, {0: "B8", 1: "B3", 2: "G14"}, dealer=2, void={2: "B"})
    state = play_all(state, ["B8 no-take", "B3", "G14"])
    assert state.trick_winners == (1,)


def test_blue_8_led_no_take_with_nobody_following_takes_the_trick() -> None:
    state = deal(3, {0: BLUE, 1: "R1", 2: "R15"}, dealer=2)
    state = play(state, "B8 no-take")
    state = play(state, "R1")
    state = play(state, "R15")
    assert state.trick_winners == (0,)


def test_follow_suit_offers_only_the_led_suit() -> None:
    state = deal(4, {0: "G4 G1", 1: "G2 R15"}, dealer=3)
    state = play(state, "G4")
    legal = GAME.legal_actions(state, 1)
    offered = {str(a.card) for a in legal if isinstance(a, Play)}
    held = {str(c) for c in state.hand_cards(1)}
    assert offered == {c for c in held if c.startswith("G")}
    assert "R15" not in offered and "G2" in offered


def test_renege_is_found_by_the_audit_and_costs_50() -> None:
    state = deal(4, {0: "G4 G1", 1: "G2 R15"}, dealer=3)
    state = play(state, "G4")
    # The play cannot be refused: other peers cannot see seat 1's hand (ruling E-8).
    state = play(state, "R15")
    state = finish_round(state)
    (result,) = state.results
    assert result.reneges == (Renege(1, 1, 1, Card(Suit.RED, 15), Card(Suit.GREEN, 2), Suit.GREEN),)
    assert str(result.reneges[0]) == (
        "round 1, trick 1: seat 1 played R15 on a Green lead while holding G2 "
        "(renege, +50, ruling E-8)"
    )
    assert result.penalties == (0, 50, 0, 0)
    assert result.totals == tuple(p + q for p, q in zip(result.points, (0, 50, 0, 0), strict=True))
    assert sum(result.points) == 10 * 15  # round 1: +10 per trick, 15 tricks of 4 cards


def test_eight_of_the_led_suit_is_offered_with_both_declarations() -> None:
    state = deal(4, {0: "Y3 R8", 1: "Y8 Y9"}, dealer=3)
    offered = GAME.legal_actions(state, 0)
    assert [str(a) for a in offered if isinstance(a, Play) and a.card.number == 8] == [
        f"0: play R8#{slot_of(state, 'R8')} take",
        f"0: play R8#{slot_of(state, 'R8')} no-take",
    ]
    state = play(state, "Y3")
    y8 = slot_of(state, "Y8")
    assert [str(a) for a in GAME.legal_actions(state, 1)][:2] == [
        f"1: play Y8#{y8} take",
        f"1: play Y8#{y8} no-take",
    ]


@pytest.mark.parametrize(
    ("lead", "text", "message"),
    [
        (None, "B8", "must declare 'take' or 'no-take' with the 8 of the led suit (ruling E-4)"),
        ("B5", "B8", "must declare 'take' or 'no-take'"),
        ("R5", "B8 take", "only the 8 of the led suit is played with 'take'"),
        (None, "B9 no-take", "only the 8 of the led suit is played with 'take'"),
    ],
)
def test_declarations_are_checked(lead: str | None, text: str, message: str) -> None:
    # Seat 3 leads ``lead`` and seat 0 follows; without a lead, seat 0 leads.
    state = deal(4, {0: "B8 B9", 3: "B5 R5"}, dealer=3 if lead is None else 2)
    if lead is not None:
        state = play(state, lead)
    assert GAME.to_act(state) == 0
    with pytest.raises(IllegalActionError) as caught:
        GAME.check(state, move(state, text))
    assert message in str(caught.value) and str(caught.value).startswith("0: play")
    with pytest.raises(IllegalActionError):
        GAME.apply(state, move(state, text))


def test_pass_is_refused_in_trick_rounds() -> None:
    state = deal(4, {}, dealer=3)
    with pytest.raises(IllegalActionError, match=r"seat 0 may not pass in round 1.*E-7"):
        GAME.check(state, Pass(0))
