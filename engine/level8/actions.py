"""Level 8 actions: a closed set of immutable types with one text notation.

Every action is written ``SEAT: VERB ARGS`` (chance: ``*: ...``, see :mod:`lancards.engine.core`);
:func:`parse_action` and ``str(action)`` round-trip. Cards are written as placed cards
(:mod:`lancards.engine.level8.melds`): ``R7#17``, ``J1-5#18=5``.

=============================================  ===================================================
``2: draw``                                    draw the top card of the draw pile (L8-3)
``2: draw-discard 1``                          draw the top card of seat 1's discard pile (L8-3)
``2: laydown R4#1 R5#2 J1-5#3=3 | B9#4 ...``   lay down the level, components in level order
``2: add 3 R7#44``                             add a card to meld 3 (L8-7)
``2: discard R7#44``                           end the turn with a discard (L8-3)
``2: play TAKE#50`` / ``SWAP#`` / ``KEEP#``    play a special card instead (L8M-1..3)
``2: play SKIP#53 3``                          put a Skip card in front of seat 3 (L8C-1)
``3: show R1#9 B2#10 G3#11``                   show cards for "I'll take that!" (L8M-1)
``2: choose #9`` / ``2: choose none``          take a shown card or none (L8M-1)
``2: swap-put R7#44`` / ``2: swap-end``        "I'll swap that!" (L8M-2)
``3: serve-skip``                              the skipped turn (L8C-1)
``4: keep #44`` / ``4: keep-end``              keep a hand card at round end, secretly (L8-13)
``2: end-turn``                                end a turn with an empty hand (only then)
``2: leave``                                   seat 2 leaves for good (D-1..D-4; peer layer only)
=============================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from lancards.engine.core import (
    CHANCE,
    LEAVE_VERB,
    ChanceAction,
    InvalidActionError,
    Leave,
    Seat,
    SlotId,
    is_digits,
    parse_chance,
    split_tokens,
)
from lancards.engine.level8.cards import parse_card
from lancards.engine.level8.melds import Placed, parse_placed


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top face-down card of the draw pile."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: draw"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Draw the top card of ``owner``'s discard pile (the drawer's own included)."""

    seat: Seat
    owner: Seat

    def __str__(self) -> str:
        return f"{self.seat}: draw-discard {self.owner}"


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down the whole current level: one group of cards per component, in level order."""

    seat: Seat
    groups: tuple[tuple[Placed, ...], ...]

    def __str__(self) -> str:
        body = " | ".join(" ".join(map(str, g)) for g in self.groups)
        return f"{self.seat}: laydown {body}"


@dataclass(frozen=True, slots=True)
class Add:
    """Add (lay off) one card to meld ``meld``."""

    seat: Seat
    meld: int
    card: Placed

    def __str__(self) -> str:
        return f"{self.seat}: add {self.meld} {self.card}"


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by discarding ``card`` onto the own discard pile."""

    seat: Seat
    card: Placed

    def __str__(self) -> str:
        return f"{self.seat}: discard {self.card}"


@dataclass(frozen=True, slots=True)
class PlaySpecial:
    """End the turn by playing a special card; ``target`` is the skipped seat for Skip."""

    seat: Seat
    card: Placed
    target: Seat | None = None

    def __str__(self) -> str:
        suffix = "" if self.target is None else f" {self.target}"
        return f"{self.seat}: play {self.card}{suffix}"


@dataclass(frozen=True, slots=True)
class Show:
    """Show up to three hand cards for "I'll take that!"."""

    seat: Seat
    cards: tuple[Placed, ...]

    def __str__(self) -> str:
        return f"{self.seat}: show {' '.join(map(str, self.cards))}".rstrip()


@dataclass(frozen=True, slots=True)
class Choose:
    """Take the shown card in ``slot`` (or none) after "I'll take that!"."""

    seat: Seat
    slot: SlotId | None

    def __str__(self) -> str:
        return f"{self.seat}: choose {'none' if self.slot is None else f'#{self.slot}'}"


@dataclass(frozen=True, slots=True)
class SwapPut:
    """Put one hand card onto the own discard pile during "I'll swap that!"."""

    seat: Seat
    card: Placed

    def __str__(self) -> str:
        return f"{self.seat}: swap-put {self.card}"


@dataclass(frozen=True, slots=True)
class SwapEnd:
    """Finish "I'll swap that!": draw as many cards as were put down."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: swap-end"


@dataclass(frozen=True, slots=True)
class ServeSkip:
    """The skipped turn: slide the Skip card under the draw pile."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: serve-skip"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the hand card in ``slot`` into the next round (its identity stays secret)."""

    seat: Seat
    slot: SlotId

    def __str__(self) -> str:
        return f"{self.seat}: keep #{self.slot}"


@dataclass(frozen=True, slots=True)
class KeepEnd:
    """Finish choosing the cards to keep."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: keep-end"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End a turn without a discard; legal only with an empty hand (after L8-9 skipped draws)."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: end-turn"


PlayerAction = (
    Draw
    | DrawDiscard
    | LayDown
    | Add
    | Discard
    | PlaySpecial
    | Show
    | Choose
    | SwapPut
    | SwapEnd
    | ServeSkip
    | Keep
    | KeepEnd
    | EndTurn
    | Leave
)
Action = PlayerAction | ChanceAction


def _slot(text: str) -> SlotId:
    if not text.startswith("#") or not is_digits(text[1:]):
        raise InvalidActionError(f"expected a slot like '#17', got {text!r}")
    return int(text[1:])


def _int(text: str, what: str) -> int:
    if not is_digits(text):
        raise InvalidActionError(f"expected {what}, got {text!r}")
    return int(text)


def parse_action(text: str) -> Action:
    """Parse action notation (see the module docstring).

    Raises:
        InvalidActionError: the text is not an action.
    """
    head, sep, rest = text.partition(":")
    if not sep:
        raise InvalidActionError(f"action {text!r} has no 'SEAT:' prefix")
    tokens = split_tokens(rest)
    if head.strip() == "*":
        return parse_chance(tokens, parse_card)
    seat = _int(head.strip(), "a seat number")
    if not tokens:
        raise InvalidActionError(f"action {text!r} has no verb")
    verb, args = tokens[0], tokens[1:]
    n = len(args)
    if verb == "draw" and n == 0:
        return Draw(seat)
    if verb == "draw-discard" and n == 1:
        return DrawDiscard(seat, _int(args[0], "a seat number"))
    if verb == "laydown" and n:
        groups: list[tuple[Placed, ...]] = [()]
        for token in args:
            if token == "|":
                groups.append(())
            else:
                groups[-1] = (*groups[-1], parse_placed(token))
        if any(not g for g in groups):
            raise InvalidActionError(f"action {text!r} has an empty group")
        return LayDown(seat, tuple(groups))
    if verb == "add" and n == 2:
        return Add(seat, _int(args[0], "a meld number"), parse_placed(args[1]))
    if verb == "discard" and n == 1:
        return Discard(seat, parse_placed(args[0]))
    if verb == "play" and n in (1, 2):
        target = _int(args[1], "a seat number") if n == 2 else None
        return PlaySpecial(seat, parse_placed(args[0]), target)
    if verb == "show":
        return Show(seat, tuple(parse_placed(a) for a in args))
    if verb == "choose" and n == 1:
        return Choose(seat, None if args[0] == "none" else _slot(args[0]))
    if verb == "swap-put" and n == 1:
        return SwapPut(seat, parse_placed(args[0]))
    if verb == "swap-end" and n == 0:
        return SwapEnd(seat)
    if verb == "serve-skip" and n == 0:
        return ServeSkip(seat)
    if verb == "keep" and n == 1:
        return Keep(seat, _slot(args[0]))
    if verb == "keep-end" and n == 0:
        return KeepEnd(seat)
    if verb == "end-turn" and n == 0:
        return EndTurn(seat)
    if verb == LEAVE_VERB and n == 0:
        return Leave(seat)
    raise InvalidActionError(f"unknown action {text!r}")


def format_action(action: Action) -> str:
    """The notation of ``action``; :func:`parse_action` round-trips it."""
    return str(action)


def is_chance(action: Action) -> bool:
    """Whether ``action`` is a chance action."""
    return action.seat == CHANCE
