"""Round objectives of 8s Rule! rounds 1 to 7 as data, and their TOML file format (ruling E-6).

The objectives are printed on the game's Player's Card, which is not in our sources. lancards
ships a default set chosen in ruling E-6 (:data:`DEFAULT_OBJECTIVES_TOML`), marked everywhere as
*not from the publisher*; players replace it with the option ``objectives`` (the text of a TOML
file, format in ``docs/rules-eights.md``).

An objective is one of three kinds:

- ``tricks``: ``points`` per trick taken (round 1: +10, round 7: -10).
- ``cards``: points for taken cards; ``cards`` is a list of entries, each matching by ``card``,
  or by ``suit`` and/or ``number``, with ``points``; the first matching entry decides a card's
  points, a card no entry matches scores 0. With ``early_end = true`` (the default, ruling E-5/E-6)
  the round ends as soon as the last card worth points has been taken.
- ``last-tricks``: ``points`` is a list for the last tricks of the round, the last trick last
  (round 6: ``[25, 50]`` = second-to-last +25, last +50).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Final, TypeGuard

from lancards.engine.core import InvalidActionError, RulesError
from lancards.engine.toml_errors import toml_error

from .cards import CARDS, DECK_SIZE, NUMBERS, Suit, parse_card

OBJECTIVE_ROUNDS: Final = 7
"""Rounds 1..7 have objectives; round 8 is the layout round (ruling E-7)."""

MAX_LAST_TRICKS: Final = DECK_SIZE // 6
"""At most 10 tricks are played in a round with 6 players, so at most 10 last-trick entries."""

NOT_FROM_PUBLISHER: Final = "not from the publisher"


class ObjectiveKind(StrEnum):
    """How an objective scores (ruling E-6)."""

    TRICKS = "tricks"
    CARDS = "cards"
    LAST_TRICKS = "last-tricks"


@dataclass(frozen=True, slots=True)
class Objective:
    """The objective of one round 1..7.

    Attributes:
        number: the round, 1..7.
        title: a short name for the interface ("No Red cards").
        kind: how it scores.
        per_trick: points per trick taken (kind ``tricks``), else 0.
        card_points: kind ``cards``: 60 entries, the points of each card index; else empty.
        last_tricks: kind ``last-tricks``: points of the last tricks, the last trick last.
        early_end: kind ``cards``: end the round once no card worth points is left to take
            (ruling E-5).
    """

    number: int
    title: str
    kind: ObjectiveKind
    per_trick: int = 0
    card_points: tuple[int, ...] = ()
    last_tricks: tuple[int, ...] = ()
    early_end: bool = False

    @property
    def scoring_cards(self) -> frozenset[int]:
        """Indexes of the cards worth points (kind ``cards``), else empty."""
        return frozenset(i for i, points in enumerate(self.card_points) if points)

    def score(
        self, won: Sequence[Sequence[int]], trick_winners: Sequence[int], n_seats: int
    ) -> tuple[int, ...]:
        """Points of each seat for one round (before renege penalties).

        Args:
            won: per seat, the indexes of the cards taken in tricks.
            trick_winners: the winner of each trick played, in order.
            n_seats: seat count.

        Returns:
            ``n_seats`` point figures.
        """
        points = [0] * n_seats
        if self.kind is ObjectiveKind.TRICKS:
            for seat in trick_winners:
                points[seat] += self.per_trick
        elif self.kind is ObjectiveKind.CARDS:
            for seat in range(n_seats):
                points[seat] = sum(self.card_points[c] for c in won[seat])
        else:
            count = len(self.last_tricks)
            if len(trick_winners) >= count:
                for seat, value in zip(trick_winners[-count:], self.last_tricks, strict=True):
                    points[seat] += value
        return tuple(points)

    def describe(self) -> str:
        """One line for the interface, e.g. ``"No 8s: 8s +25 each"``."""
        if self.kind is ObjectiveKind.TRICKS:
            return f"{self.title}: {self.per_trick:+d} per trick"
        if self.kind is ObjectiveKind.LAST_TRICKS:
            names = ["last trick", "second-to-last trick", "third-to-last trick"]
            parts = []
            for back, value in enumerate(reversed(self.last_tricks)):
                name = names[back] if back < len(names) else f"trick {back + 1} from the end"
                parts.append(f"{name} {value:+d}")
            return f"{self.title}: {', '.join(reversed(parts))}"
        worth = [f"{CARDS[i]} {p:+d}" for i, p in enumerate(self.card_points) if p]
        shown = ", ".join(worth[:8]) + (", ..." if len(worth) > 8 else "")
        end = "; ends when none is left to take" if self.early_end else ""
        return f"{self.title}: {shown}{end}"


@dataclass(frozen=True, slots=True)
class Objectives:
    """The objectives of rounds 1..7 (ruling E-6).

    Attributes:
        source: where they come from, shown in the interface.
        from_publisher: whether the file claims to copy the publisher's Player's Card; the
            built-in defaults say False.
        rounds: 7 objectives, round 1 first.
    """

    source: str
    from_publisher: bool
    rounds: tuple[Objective, ...]

    @property
    def notice(self) -> str:
        """The source line for the interface, e.g. ``"lancards defaults (ruling E-6), not from
        the publisher"``."""
        return self.source if self.from_publisher else f"{self.source}, {NOT_FROM_PUBLISHER}"

    def for_round(self, number: int) -> Objective:
        """The objective of round ``number`` (1..7).

        Raises:
            ValueError: ``number`` is not 1..7.
        """
        if not 1 <= number <= OBJECTIVE_ROUNDS:
            raise ValueError(f"round {number} has no objective (rounds 1..7 do)")
        return self.rounds[number - 1]


DEFAULT_OBJECTIVES_TOML: Final = """\
# 8s Rule! round objectives, rounds 1 to 7 (ruling E-6).
#
# NOT FROM THE PUBLISHER. The rulebook says each round's objective and points are printed on the
# Player's Card, which is not in our sources. These are lancards' defaults, chosen in ruling E-6.
# Replace them with `--option objectives=FILE`; the format is in docs/rules-eights.md.

source = "lancards defaults (ruling E-6)"
from_publisher = false

[[round]]
number = 1
title = "No tricks"
kind = "tricks"
points = 10            # per trick taken

[[round]]
number = 2
title = "No Red cards"
kind = "cards"
cards = [
    { card = "R15", points = 15 },   # the first matching entry decides: the Red 15 scores 15
    { suit = "Red", points = 5 },
]

[[round]]
number = 3
title = "No 8s"
kind = "cards"
cards = [{ number = 8, points = 25 }]

[[round]]
number = 4
title = "No 1s and no 15s"
kind = "cards"
cards = [{ number = 1, points = 10 }, { number = 15, points = 10 }]

[[round]]
number = 5
title = "No Red 15"
kind = "cards"
cards = [{ card = "R15", points = 75 }]

[[round]]
number = 6
title = "Not the last two tricks"
kind = "last-tricks"
points = [25, 50]      # the second-to-last trick, then the last trick

[[round]]
number = 7
title = "Tricks wanted"
kind = "tricks"
points = -10           # per trick taken
"""
"""The built-in objectives file (ruling E-6), not from the publisher."""


@cache
def default_objectives() -> Objectives:
    """The built-in objectives (:data:`DEFAULT_OBJECTIVES_TOML`), not from the publisher."""
    return parse_objectives(DEFAULT_OBJECTIVES_TOML)


def parse_objectives(text: str) -> Objectives:
    """Parse and validate an objectives file (TOML; format in ``docs/rules-eights.md``).

    Args:
        text: the file's text.

    Returns:
        The 7 objectives.

    Raises:
        RulesError: not TOML, an unknown or missing key, a wrong type, a round missing or given
            twice, an unknown kind, card, suit or number; the message names the round and key.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, "objectives file", "objectives-toml") from None
    _no_unknown_keys(data, {"source", "from_publisher", "round"}, _At())
    source = data.get("source", "objectives file")
    if not isinstance(source, str) or not source.strip():
        raise _At().error("'source' must be a non-empty string", "objectives-source")
    from_publisher = data.get("from_publisher", False)
    if not isinstance(from_publisher, bool):
        raise _At().error("'from_publisher' must be true or false", "objectives-from-publisher")
    tables = data.get("round")
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise _At().error("needs [[round]] tables for rounds 1 to 7", "objectives-rounds")
    by_number: dict[int, Objective] = {}
    for table in tables:
        number = table.get("number")
        if not _is_int(number) or not 1 <= number <= OBJECTIVE_ROUNDS:
            raise _At().error(f"every [[round]] needs 'number' 1..7, got {number!r}",
                              "objectives-round-number", value=number)
        if number in by_number:
            raise _At().error(f"round {number} is given twice", "objectives-round-twice",
                              number=number)
        by_number[number] = _parse_round(number, table)
    missing = [n for n in range(1, OBJECTIVE_ROUNDS + 1) if n not in by_number]
    if missing:
        raise _At().error(f"round(s) {', '.join(map(str, missing))} missing; give rounds 1 to 7",
                          "objectives-rounds-missing", missing=tuple(missing))
    rounds = tuple(by_number[n] for n in range(1, OBJECTIVE_ROUNDS + 1))
    return Objectives(source=source.strip(), from_publisher=from_publisher, rounds=rounds)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class _At:
    """Where in an objectives file an error is: the file, a round, a round's cards entry."""

    round: int | None = None
    entry: int | None = None

    def __str__(self) -> str:
        where = "objectives file"
        if self.round is not None:
            where += f", round {self.round}"
        if self.entry is not None:
            where += f", cards entry {self.entry}"
        return where

    def error(self, text: str, code: str, **params: object) -> RulesError:
        """A :class:`RulesError` ``"<where>: <text>"`` with its ``code`` and ``params`` (and
        ``round`` and ``entry``, for the command line's words)."""
        return RulesError(f"{self}: {text}").with_code(
            code, round=self.round, entry=self.entry, **params)


def _no_unknown_keys(table: Mapping[str, Any], allowed: set[str], where: _At) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise where.error(
            f"unknown key(s) {', '.join(map(repr, unknown))} "
            f"(allowed: {', '.join(sorted(allowed))})",
            "objectives-unknown-keys", keys=tuple(unknown), allowed=tuple(sorted(allowed)))


def _parse_round(number: int, table: Mapping[str, Any]) -> Objective:
    where = _At(number)
    kind_text = table.get("kind")
    try:
        kind = ObjectiveKind(str(kind_text))
    except ValueError:
        raise where.error(
            f"'kind' must be one of {', '.join(k.value for k in ObjectiveKind)}, "
            f"got {kind_text!r}", "objectives-kind",
            kinds=tuple(k.value for k in ObjectiveKind), value=kind_text) from None
    title = table.get("title", f"Round {number}")
    if not isinstance(title, str) or not title.strip():
        raise where.error("'title' must be a non-empty string", "objectives-title")
    title = title.strip()
    if kind is ObjectiveKind.TRICKS:
        _no_unknown_keys(table, {"number", "title", "kind", "points"}, where)
        points = table.get("points")
        if not _is_int(points):
            raise where.error("kind 'tricks' needs whole-number 'points' per trick",
                              "objectives-tricks-points")
        return Objective(number, title, kind, per_trick=points)
    if kind is ObjectiveKind.LAST_TRICKS:
        _no_unknown_keys(table, {"number", "title", "kind", "points"}, where)
        values = table.get("points")
        if (
            not isinstance(values, list)
            or not 1 <= len(values) <= MAX_LAST_TRICKS
            or not all(_is_int(v) for v in values)
        ):
            raise where.error(
                f"kind 'last-tricks' needs 'points', a list of 1 to {MAX_LAST_TRICKS} "
                "whole numbers (the last trick last)", "objectives-last-tricks-points",
                most=MAX_LAST_TRICKS)
        return Objective(number, title, kind, last_tricks=tuple(values))
    _no_unknown_keys(table, {"number", "title", "kind", "cards", "early_end"}, where)
    early_end = table.get("early_end", True)
    if not isinstance(early_end, bool):
        raise where.error("'early_end' must be true or false", "objectives-early-end")
    entries = table.get("cards")
    if not isinstance(entries, list) or not entries:
        raise where.error("kind 'cards' needs 'cards', a non-empty list of entries",
                          "objectives-cards")
    matchers = [_parse_entry(where, i + 1, entry) for i, entry in enumerate(entries)]
    card_points = []
    for card in CARDS:
        value = 0
        for suit, num, points in matchers:
            if (suit is None or suit == card.suit) and (num is None or num == card.number):
                value = points
                break
        card_points.append(value)
    return Objective(number, title, kind, card_points=tuple(card_points), early_end=early_end)


def _parse_entry(at: _At, index: int, entry: object) -> tuple[Suit | None, int | None, int]:
    where = _At(at.round, index)
    if not isinstance(entry, dict):
        raise where.error('must be a table like { suit = "Red", points = 5 }', "objectives-entry")
    _no_unknown_keys(entry, {"card", "suit", "number", "points"}, where)
    points = entry.get("points")
    if not _is_int(points):
        raise where.error("needs whole-number 'points'", "objectives-entry-points")
    if "card" in entry:
        if "suit" in entry or "number" in entry:
            raise where.error("give either 'card' or 'suit'/'number', not both",
                              "objectives-entry-both")
        try:
            card = parse_card(str(entry["card"]))
        except InvalidActionError as exc:
            raise where.error(str(exc), "objectives-entry-card",
                              card=str(entry["card"])) from None
        return card.suit, card.number, points
    if "suit" not in entry and "number" not in entry:
        raise where.error("needs 'card', 'suit' or 'number'", "objectives-entry-needs")
    suit = None
    if "suit" in entry:
        try:
            suit = Suit.parse(str(entry["suit"]))
        except ValueError as exc:
            raise where.error(str(exc), "objectives-entry-suit",
                              suit=str(entry["suit"])) from None
    num = entry.get("number")
    if num is not None and (not _is_int(num) or not 1 <= num <= NUMBERS):
        raise where.error(f"'number' must be 1..15, got {num!r}", "objectives-entry-number",
                          value=num)
    return suit, num, points
