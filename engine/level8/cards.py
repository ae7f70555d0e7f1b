"""Level 8 cards, decks and their text notation (ruling L8-1).

Notation (one token per card, round-trips with :func:`parse_card` / ``str``):

========================  ==========================================
``R7``, ``P15``           number card: colour letter + number 1..15
``J``                     wild joker (``level8``, ``level8-en``)
``J1-5``, ``J6-10``,      ranged jokers of Level 8 Master
``J11-15``
``TAKE``, ``SWAP``,       "I'll take that!", "I'll swap that!",
``KEEP``                  "I'll keep that!" (Master, rulings L8M-1..3)
``SKIP``                  "Skip!" (``level8``, ruling L8C-1)
========================  ==========================================

Colour letters: R red, O orange, Y yellow, G green, B blue, P purple. The sources name only
red; the other names are a display choice (ruling L8-1), and the interface also shows the letter
so that colour is never the only cue.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from lancards.engine.core import InvalidActionError


class Colour(Enum):
    """The six colours, in canonical order."""

    RED = "R"
    ORANGE = "O"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"
    PURPLE = "P"

    def __str__(self) -> str:
        return self.value

    @property
    def display(self) -> str:
        """The colour's display name (ruling L8-1)."""
        return self.name.lower()


COLOURS: tuple[Colour, ...] = tuple(Colour)
COLOUR_INDEX: dict[Colour, int] = {c: i for i, c in enumerate(COLOURS)}


class Kind(Enum):
    """What a card is."""

    NUMBER = "number"
    JOKER = "joker"
    TAKE = "TAKE"
    SWAP = "SWAP"
    KEEP = "KEEP"
    SKIP = "SKIP"


SPECIAL_KINDS = frozenset({Kind.TAKE, Kind.SWAP, Kind.KEEP, Kind.SKIP})


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card face. Faces are singletons (made once here), so equality is identity.

    Attributes:
        kind: number card, joker or a special card.
        number: 1..15 for number cards, else 0.
        colour: the colour of a number card, else ``None``.
        lo: lowest number a joker may stand for (1 for wild jokers); 0 otherwise.
        hi: highest number a joker may stand for (15 for wild jokers); 0 otherwise.
    """

    sort_key: int
    kind: Kind
    number: int = 0
    colour: Colour | None = None
    lo: int = 0
    hi: int = 0
    is_number: bool = field(init=False)
    """True for number cards."""
    is_joker: bool = field(init=False)
    """True for jokers (wild or ranged)."""
    is_special: bool = field(init=False)
    """True for "I'll take that!", "I'll swap that!", "I'll keep that!" and "Skip!"."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_number", self.kind is Kind.NUMBER)
        object.__setattr__(self, "is_joker", self.kind is Kind.JOKER)
        object.__setattr__(self, "is_special", self.kind in SPECIAL_KINDS)

    def __str__(self) -> str:
        return _FORMAT[self]

    def __hash__(self) -> int:
        return self.sort_key

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return parse_card, (str(self),)

    def __repr__(self) -> str:
        return f"card({str(self)!r})"

    def can_be(self, number: int) -> bool:
        """Whether a joker may stand for ``number`` (ruling L8-6); for number cards, equality."""
        if self.kind is Kind.JOKER:
            return self.lo <= number <= self.hi
        return self.kind is Kind.NUMBER and self.number == number


def number_card(colour: Colour, number: int) -> Card:
    """The number card of ``colour`` and ``number`` (1..15)."""
    return _NUMBER[(colour, number)]


def _build() -> tuple[dict[str, Card], dict[Card, str], dict[tuple[Colour, int], Card]]:
    by_text: dict[str, Card] = {}
    key = 0
    numbers: dict[tuple[Colour, int], Card] = {}
    for colour in COLOURS:
        for n in range(1, 16):
            card = Card(key, Kind.NUMBER, n, colour)
            by_text[f"{colour.value}{n}"] = card
            numbers[(colour, n)] = card
            key += 1
    for lo, hi in ((1, 5), (6, 10), (11, 15)):
        by_text[f"J{lo}-{hi}"] = Card(key, Kind.JOKER, lo=lo, hi=hi)
        key += 1
    by_text["J"] = Card(key, Kind.JOKER, lo=1, hi=15)
    key += 1
    for kind in (Kind.TAKE, Kind.SWAP, Kind.KEEP, Kind.SKIP):
        by_text[kind.value] = Card(key, kind)
        key += 1
    return by_text, {c: t for t, c in by_text.items()}, numbers


_PARSE, _FORMAT, _NUMBER = _build()

WILD_JOKER = _PARSE["J"]
RANGED_JOKERS: tuple[Card, ...] = (_PARSE["J1-5"], _PARSE["J6-10"], _PARSE["J11-15"])
TAKE, SWAP, KEEP, SKIP = (_PARSE[k] for k in ("TAKE", "SWAP", "KEEP", "SKIP"))


def parse_card(text: str) -> Card:
    """Parse one card token (see the module docstring).

    Raises:
        InvalidActionError: the token is not a card.
    """
    card = _PARSE.get(text.strip().upper())
    if card is None:
        raise InvalidActionError(f"unknown card {text!r}")
    return card


def card(text: str) -> Card:
    """Shorthand of :func:`parse_card` for tests and the REPL: ``card('R7')``."""
    return parse_card(text)


@cache
def make_deck(edition: str) -> tuple[Card, ...]:
    """The canonical deck of an edition (ruling L8-1), in canonical order.

    Args:
        edition: ``level8-master`` (108 cards), ``level8`` (98) or ``level8-en`` (99).

    Raises:
        ValueError: an unknown edition.
    """
    numbers = [number_card(c, n) for c in COLOURS for n in range(1, 16)]
    if edition == "level8-master":
        extra = [j for j in RANGED_JOKERS for _ in range(3)]
        extra += [TAKE] * 2 + [SWAP] * 3 + [KEEP] * 4
    elif edition == "level8":
        extra = [WILD_JOKER] * 5 + [SKIP] * 3
    elif edition == "level8-en":
        extra = [WILD_JOKER] * 6 + [SKIP] * 3
    else:
        raise ValueError(f"unknown Level 8 edition {edition!r}")
    return tuple(numbers + extra)


@cache
def deck_counts(edition: str) -> Counter[Card]:
    """How many copies of each face the edition's deck holds."""
    return Counter(make_deck(edition))
