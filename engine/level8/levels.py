"""Level cards: the eight levels of each side, built in or read from a TOML text (ruling L8-14).

A level is a tuple of components; a component is a kind (run, colour run, set, colour group) and
a minimum size (ruling L8-4). The front sides (1 star) of both editions are built in. The back
sides (2 stars) are not in the sources: players supply a level card as TOML text, format::

    name = "Back side, our house version"      # optional
    levels = [
      ["set 3", "set 3"],                       # level 1: two triplets
      ["run 5", "set 2"],                       # level 2
      # ... exactly 8 levels
    ]

Component words: ``run N``, ``colour-run N``, ``set N``, ``colour-group N`` (also the US
spellings ``color-run``/``color-group`` and the aliases ``pair`` = ``set 2``, ``triplet`` =
``set 3``, ``quadruplet`` = ``set 4``, ``quintuplet`` = ``set 5``). Sizes are 2..15 for runs and
colour runs, 2..9 for sets and 1..10 for colour groups; a level needs at most 10 cards in all
(a player holds 11 cards after drawing and must keep one for the discard, ruling L8-8).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import Enum

from lancards.engine.core import RulesError, is_digits
from lancards.engine.toml_errors import toml_error


class ComponentKind(Enum):
    """The kinds of combination (ruling L8-4)."""

    RUN = "run"
    COLOUR_RUN = "colour-run"
    SET = "set"
    COLOUR_GROUP = "colour-group"

    @property
    def is_run(self) -> bool:
        """Runs and colour runs: consecutive numbers, grow only at their ends."""
        return self in (ComponentKind.RUN, ComponentKind.COLOUR_RUN)


@dataclass(frozen=True, slots=True)
class Component:
    """One component of a level: a kind and its minimum card count."""

    kind: ComponentKind
    size: int

    def __str__(self) -> str:
        names = {2: "pair", 3: "triplet", 4: "quadruplet", 5: "quintuplet"}
        if self.kind is ComponentKind.SET:
            return names.get(self.size, f"set of {self.size}")
        if self.kind is ComponentKind.RUN:
            return f"run of {self.size}"
        if self.kind is ComponentKind.COLOUR_RUN:
            return f"colour run of {self.size}"
        return f"{self.size} of one colour"


Level = tuple[Component, ...]


@dataclass(frozen=True, slots=True)
class LevelCard:
    """One side of a level card: a name and exactly 8 levels."""

    name: str
    levels: tuple[Level, ...]

    def level(self, number: int) -> Level:
        """The components of level ``number`` (1..8)."""
        return self.levels[number - 1]


def describe(level: Level) -> str:
    """``"triplet + run of four"``-style text of a level."""
    return " + ".join(str(c) for c in level)


def _c(kind: ComponentKind, size: int) -> Component:
    return Component(kind, size)


_RUN, _CRUN, _SET, _CG = (
    ComponentKind.RUN,
    ComponentKind.COLOUR_RUN,
    ComponentKind.SET,
    ComponentKind.COLOUR_GROUP,
)

MASTER_FRONT = LevelCard(
    "Level 8 Master, front (1 star)",
    (
        (_c(_SET, 2),) * 4,
        (_c(_SET, 3), _c(_RUN, 4)),
        (_c(_SET, 3), _c(_CG, 4)),
        (_c(_SET, 3), _c(_CG, 5)),
        (_c(_SET, 3), _c(_RUN, 6)),
        (_c(_CG, 7),),
        (_c(_SET, 4), _c(_SET, 4)),
        (_c(_SET, 3), _c(_SET, 5)),
    ),
)
"""Ruling L8-14, from the Master rulebook's level list."""

CLASSIC_FRONT = LevelCard(
    "Level 8, front (1 star)",
    (
        (_c(_RUN, 3), _c(_RUN, 3)),
        (_c(_SET, 2),) * 4,
        (_c(_RUN, 3), _c(_CG, 4)),
        (_c(_RUN, 6), _c(_SET, 2)),
        (_c(_RUN, 7),),
        (_c(_SET, 2), _c(_SET, 3), _c(_SET, 3)),
        (_c(_SET, 3), _c(_CG, 5)),
        (_c(_SET, 2), _c(_SET, 3), _c(_SET, 4)),
    ),
)
"""Ruling L8-14, from the Level 8 rule summary ("Die Stufen der Vorderseite")."""

_ALIASES = {
    "pair": (_SET, 2),
    "triplet": (_SET, 3),
    "quadruplet": (_SET, 4),
    "quintuplet": (_SET, 5),
}
_KINDS = {
    "run": _RUN,
    "colour-run": _CRUN,
    "color-run": _CRUN,
    "set": _SET,
    "colour-group": _CG,
    "color-group": _CG,
}
_SIZE_LIMITS = {_RUN: (2, 15), _CRUN: (2, 15), _SET: (2, 9), _CG: (1, 10)}


def parse_component(text: str) -> Component:
    """Parse ``"run 4"``, ``"colour-group 5"``, ``"triplet"``...

    Raises:
        RulesError: unknown word or a size out of range.
    """
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _ALIASES:
        kind, size = _ALIASES[words[0]]
        return Component(kind, size)
    if len(words) != 2 or words[0] not in _KINDS or not is_digits(words[1]):
        raise RulesError(
            f"level card: component {text!r} is not 'KIND N' with KIND one of "
            "run, colour-run, set, colour-group (or pair, triplet, quadruplet, quintuplet)"
        )
    kind, size = _KINDS[words[0]], int(words[1])
    lo, hi = _SIZE_LIMITS[kind]
    if not lo <= size <= hi:
        raise RulesError(f"level card: component {text!r}: size must be {lo}..{hi}")
    return Component(kind, size)


def parse_level_card(text: str, default_name: str = "custom level card") -> LevelCard:
    """Parse a level card from TOML text (format in the module docstring; ruling L8-14).

    Raises:
        RulesError: invalid TOML, not exactly 8 levels, a bad component or too many cards.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(exc, "level card file", "level-card-toml") from None
    unknown = set(data) - {"name", "levels"}
    if unknown:
        raise RulesError(f"level card: unknown keys {', '.join(sorted(unknown))}")
    name = data.get("name", default_name)
    raw = data.get("levels")
    if not isinstance(name, str):
        raise RulesError("level card: 'name' must be a string")
    if not isinstance(raw, list) or len(raw) != 8:
        raise RulesError("level card: 'levels' must be a list of exactly 8 levels")
    levels: list[Level] = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, list) or not item or not all(isinstance(s, str) for s in item):
            raise RulesError(f"level card: level {number} must be a non-empty list of strings")
        level = tuple(parse_component(s) for s in item)
        total = sum(c.size for c in level)
        if total > 10:
            raise RulesError(
                f"level card: level {number} needs {total} cards; at most 10 fit (ruling L8-8)"
            )
        levels.append(level)
    return LevelCard(name, tuple(levels))
