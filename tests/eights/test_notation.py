"""Card and action notation: parse and format round-trip; malformed text is refused."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.engine.core import InvalidActionError, Reveal, Shuffle
from lancards.engine.eights import (
    CARDS,
    EIGHTS,
    Card,
    EightsBot,
    Pass,
    Play,
    Suit,
    parse_action,
    parse_card,
)
from lancards.engine.eights.actions import EightsAction


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("2: play B8#17 take", Play(2, 17, Card(Suit.BLUE, 8), True)),
        ("2: play B8#17 no-take", Play(2, 17, Card(Suit.BLUE, 8), False)),
        ("0: play R15#130", Play(0, 130, Card(Suit.RED, 15))),
        ("5: pass", Pass(5)),
        ("*: shuffle ?", Shuffle(None)),
        ("*: shuffle 2 0 1", Shuffle((2, 0, 1))),
        ("*: reveal G14#75", Reveal(75, Card(Suit.GREEN, 14))),
    ],
)
def test_examples(text: str, action: EightsAction) -> None:
    assert parse_action(text) == action
    assert str(action) == text
    assert EIGHTS.format_action(EIGHTS.parse_action(text)) == text
    assert EightsBot().format_action(EightsBot().parse_action(text)) == text


def test_lenient_spacing_and_case() -> None:
    assert parse_action("  3 :   play  y1#4  ") == Play(3, 4, Card(Suit.YELLOW, 1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play B8#17", "needs 'SEAT: ...'"),
        ("x: pass", "'x' is not a seat number"),
        ("-1: pass", "seat -1 is negative"),
        ("2: play B8", "a played card is CARD#SLOT"),
        ("2: play B8#x", "a played card is CARD#SLOT"),
        ("2: play B16#3", "unknown card 'B16'"),
        ("2: play P3#3", "unknown card 'P3'"),
        ("2: play B8#3 maybe", "say 'take' or 'no-take', not 'maybe'"),
        ("2: draw", "unknown action '2: draw'"),
        ("*: shuffle 0 0", "not a permutation"),
        ("*: reveal B8", "reveal needs CARD#SLOT"),
        ("*: dance", "unknown chance action"),
    ],
)
def test_malformed(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text)


def test_card_repr_pastes_back() -> None:
    card = Card(Suit.YELLOW, 12)
    assert repr(card) == "Card.parse('Y12')"
    assert Card.parse("y12") == card and card.index == 41
    with pytest.raises(InvalidActionError, match=r"card number 16 is not within 1\.\.15"):
        Card(Suit.RED, 16)
    with pytest.raises(InvalidActionError, match=r"card suit 7 is not 0\.\.3"):
        Card(7, 1)  # type: ignore[arg-type]


cards = st.sampled_from(CARDS)
actions = st.one_of(
    st.builds(
        Play,
        st.integers(0, 5),
        st.integers(0, 10_000),
        cards,
        st.sampled_from([None, True, False]),
    ),
    st.builds(Pass, st.integers(0, 5)),
    st.builds(Reveal, st.integers(0, 10_000), cards),
    st.permutations(list(range(8))).map(lambda p: Shuffle(tuple(p))),
    st.just(Shuffle(None)),
)


@settings(max_examples=200, deadline=None)
@given(actions)
def test_round_trip(action: EightsAction) -> None:
    assert parse_action(str(action)) == action


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=20))
def test_any_text_parses_or_raises_invalid(text: str) -> None:
    with contextlib.suppress(InvalidActionError):
        parse_action(text)


def test_every_card_round_trips() -> None:
    assert [parse_card(str(c)) for c in CARDS] == list(CARDS)
    assert [c.index for c in CARDS] == list(range(60))
