"""The 8s Rule! deck: 60 cards, numbers 1 to 15 in the suits Red, Blue, Yellow and Green (E-1).

Card notation: the suit letter and the number, ``R8``, ``B15``, ``Y1``, ``G10`` (letters in
either case are accepted when parsing; formatting is always upper case). Inside the engine a card
is a small integer, its *index* ``suit * 15 + number - 1`` (0 = ``R1``, 59 = ``G15``); the deck's
canonical order (the order of the first 60 slots) is ascending index.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from lancards.engine.core import InvalidActionError

SUITS_IN_DECK: Final = 4
NUMBERS: Final = 15
DECK_SIZE: Final = SUITS_IN_DECK * NUMBERS
"""60 cards, one of each suit and number (ruling E-1)."""

EIGHT: Final = 8


class Suit(IntEnum):
    """The four suits, in the deck's canonical order (ruling E-1)."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``R``, ``B``, ``Y`` or ``G``."""
        return _LETTERS[self]

    @property
    def title(self) -> str:
        """The name as printed in the rulebook: ``Red``, ``Blue``, ``Yellow``, ``Green``."""
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter or name, in any case (``r``, ``Red``, ``GREEN``).

        Raises:
            ValueError: ``text`` names no suit.
        """
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.name):
                return suit
        raise ValueError(f"unknown suit {text!r}; use Red, Blue, Yellow or Green")


_LETTERS: Final = {Suit.RED: "R", Suit.BLUE: "B", Suit.YELLOW: "Y", Suit.GREEN: "G"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of the 60-card deck (ruling E-1). ``str()`` is the notation (``B8``).

    Attributes:
        suit: the suit.
        number: 1 to 15.
    """

    suit: Suit
    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            try:
                object.__setattr__(self, "suit", Suit(self.suit))
            except ValueError:
                raise InvalidActionError(f"card suit {self.suit!r} is not 0..3") from None
        if not isinstance(self.number, int) or not 1 <= self.number <= NUMBERS:
            raise InvalidActionError(f"card number {self.number!r} is not within 1..15")

    @property
    def index(self) -> int:
        """The card's index 0..59 (``suit * 15 + number - 1``), its position in the deck."""
        return self.suit * NUMBERS + self.number - 1

    @property
    def is_eight(self) -> bool:
        """Whether this is one of the four 8s."""
        return self.number == EIGHT

    def __str__(self) -> str:
        return f"{self.suit.letter}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse card notation such as ``B8`` or ``g15``.

        Raises:
            InvalidActionError: ``text`` is not a card of this deck.
        """
        return parse_card(text)


CARDS: Final[tuple[Card, ...]] = tuple(
    Card(suit, number) for suit in Suit for number in range(1, NUMBERS + 1)
)
"""The 60 cards by index: ``CARDS[i].index == i``."""

_BY_TEXT: Final = {str(card): card for card in CARDS}


def parse_card(text: str) -> Card:
    """Parse card notation (``R8``, ``b15``).

    Raises:
        InvalidActionError: ``text`` is not one of the 60 cards, e.g. ``'R16'`` or ``'X3'``.
    """
    card = _BY_TEXT.get(text.strip().upper())
    if card is None:
        raise InvalidActionError(
            f"unknown card {text!r}; a card is a suit letter R, B, Y or G and a number 1..15"
        )
    return card


def suit_of(index: int) -> int:
    """The suit (0..3) of card index ``index``."""
    return index // NUMBERS


def number_of(index: int) -> int:
    """The number (1..15) of card index ``index``."""
    return index % NUMBERS + 1


def card_index(suit: int, number: int) -> int:
    """The index of the card of ``suit`` (0..3) and ``number`` (1..15)."""
    return suit * NUMBERS + number - 1
