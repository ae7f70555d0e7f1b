"""Level 8 rule sets and their options (rulings L8-1, L8-9, L8-11, L8-13, L8-14, L8-15)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from lancards.engine.core import RulesError
from lancards.engine.level8.cards import Card, make_deck
from lancards.engine.level8.levels import CLASSIC_FRONT, MASTER_FRONT, LevelCard, parse_level_card
from lancards.engine.options import OptionSpec, OptionValue

Edition = Literal["level8-master", "level8", "level8-en"]

EDITIONS: tuple[Edition, ...] = ("level8-master", "level8", "level8-en")
"""The three Level 8 rule sets (ruling L8-1)."""

HAND_SIZE = 10
"""Cards dealt to each player (ruling L8-2)."""

WIN_LEVEL = 9
"""The level value that means "WIN" (two levels past 7, one past 8; ruling L8-10)."""


@dataclass(frozen=True, slots=True)
class Level8Rules:
    """Everything that decides a Level 8 game besides the seats and chance.

    Attributes:
        edition: ``level8-master`` (108 cards, ranged jokers, specials), ``level8`` (98 cards,
            wild jokers, Skip cards) or ``level8-en`` (99 cards).
        reshuffle: ``eager`` or ``lazy`` (ruling L8-9).
        level8_win: ``on_laydown`` or ``on_going_out`` (ruling L8-11).
        specials_drawable: special and Skip cards may be drawn from a discard pile (L8-15).
        sides: the level-card side per seat (``front``/``back``), or one side for every seat.
        front: the front side (1 star), built in.
        back: the back side from a level-card file, or ``None`` (ruling L8-14).
    """

    edition: Edition
    reshuffle: Literal["eager", "lazy"] = "eager"
    level8_win: Literal["on_laydown", "on_going_out"] = "on_laydown"
    specials_drawable: bool = True
    sides: tuple[str, ...] = ("front",)
    front: LevelCard = MASTER_FRONT
    back: LevelCard | None = None

    @property
    def is_master(self) -> bool:
        """Level 8 Master: ranged jokers and the three special cards."""
        return self.edition == "level8-master"

    @property
    def deck(self) -> tuple[Card, ...]:
        """The canonical deck (108, 98 or 99 cards; ruling L8-1)."""
        return make_deck(self.edition)

    def level_cards(self, n_seats: int) -> tuple[LevelCard, ...]:
        """The level card side of each seat (ruling L8-14).

        Raises:
            RulesError: a side list of the wrong length, an unknown side, or the back side
                chosen without a level-card file.
        """
        sides = self.sides * n_seats if len(self.sides) == 1 else self.sides
        if len(sides) != n_seats:
            raise RulesError(
                f"option 'sides' names {len(self.sides)} sides for {n_seats} seats; "
                "give one side for everyone or one per seat (ruling L8-14)"
            ).with_code("sides-count", given=len(self.sides), seats=n_seats)
        cards = []
        for seat, side in enumerate(sides):
            if side == "front":
                cards.append(self.front)
            elif side == "back":
                if self.back is None:
                    raise RulesError(
                        f"seat {seat + 1} plays the back side, but no level-card file was "
                        "given (option 'level_cards'); the back sides are not in the rulebooks "
                        "(ruling L8-14)"
                    ).with_code("back-without-file", seat=seat + 1)
                cards.append(self.back)
            else:
                raise RulesError(f"option 'sides': unknown side {side!r}; use front or back"
                                 ).with_code("unknown-side", side=side)
        return tuple(cards)

    def keeps_four(self, side: str, level: int) -> bool:
        """Whether a player on ``level`` with level-card ``side`` may keep up to 4 (L8-13)."""
        return 5 <= level <= 8 and (self.is_master or side == "back")

    def side_of(self, seat: int) -> str:
        """The side played by ``seat``."""
        return self.sides[0] if len(self.sides) == 1 else self.sides[seat]


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "reshuffle",
        "choice",
        "eager",
        "L8-9",
        "when the discard piles are shuffled into a new draw pile",
        choices=("eager", "lazy"),
    ),
    OptionSpec(
        "level8_win",
        "choice",
        "on_laydown",
        "L8-11",
        "a player on level 8 wins on laying it down, or on going out",
        choices=("on_laydown", "on_going_out"),
    ),
    OptionSpec(
        "specials_drawable",
        "bool",
        True,
        "L8-15",
        "special and Skip cards may be drawn from a discard pile",
    ),
    OptionSpec(
        "sides",
        "text",
        "front",
        "L8-14",
        "level-card side: 'front', 'back', or one per seat like 'front,back,front'",
    ),
    OptionSpec(
        "level_cards",
        "file",
        "",
        "L8-14",
        "a TOML level-card file for the back side (format in docs/rules-level8.md)",
    ),
)


def build(edition: Edition, values: Mapping[str, OptionValue]) -> Level8Rules:
    """The rules value of ``edition`` with validated option ``values``.

    Raises:
        RulesError: an unknown side or an invalid level-card file.
    """
    sides = tuple(s.strip().lower() for s in str(values["sides"]).split(",") if s.strip())
    if not sides:
        raise RulesError("option 'sides' is empty; use front, back or one per seat")
    for side in sides:
        if side not in ("front", "back"):
            raise RulesError(f"option 'sides': unknown side {side!r}; use front or back"
                             ).with_code("unknown-side", side=side)
    text = str(values["level_cards"])
    back = parse_level_card(text, "custom level card (2 stars)") if text.strip() else None
    reshuffle = str(values["reshuffle"])
    level8_win = str(values["level8_win"])
    assert reshuffle in ("eager", "lazy") and level8_win in ("on_laydown", "on_going_out")
    return Level8Rules(
        edition=edition,
        reshuffle=reshuffle,  # type: ignore[arg-type]
        level8_win=level8_win,  # type: ignore[arg-type]
        specials_drawable=bool(values["specials_drawable"]),
        sides=sides,
        front=MASTER_FRONT if edition == "level8-master" else CLASSIC_FRONT,
        back=back,
    )
