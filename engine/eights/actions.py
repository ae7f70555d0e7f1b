"""Actions of 8s Rule! and their one text notation.

Notation (``str(action)`` formats, :func:`parse_action` parses; they round-trip)::

    2: play B8#17 take      seat 2 plays the Blue 8 in slot 17, declaring "take" (ruling E-4)
    2: play B8#17 no-take   ... declaring "no take"
    0: play R15#130         any other card (and every card of round 8)
    1: pass                 round 8 only, without a playable card (ruling E-7)
    3: leave                seat 3 leaves for good (rulings D-1 to D-4; from the peer layer)
    *: shuffle 4 0 3 ...    chance: a shuffle (``*: shuffle ?`` in the shared record)
    *: reveal G14#75        chance: a public reveal (cut, round-end audit)

A played card names its slot and claims its identity; both are public once played.
"""

from __future__ import annotations

from dataclasses import dataclass

from lancards.engine.core import (
    LEAVE_VERB,
    ChanceAction,
    InvalidActionError,
    Leave,
    RandomInt,
    Reveal,
    Seat,
    Shuffle,
    SlotId,
    is_digits,
    parse_chance,
    split_tokens,
)

from .cards import Card, parse_card

TAKE = "take"
NO_TAKE = "no-take"


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays the card in ``slot``, claiming it is ``card``.

    Attributes:
        seat: the player.
        slot: the slot of the card in the player's hand.
        card: the card's identity as claimed by the player (public once played).
        take: for the 8 of the led suit (also when it leads), True for "take" and False for
            "no take" (ruling E-4); None for every other card and in round 8.
    """

    seat: Seat
    slot: SlotId
    card: Card
    take: bool | None = None

    def __str__(self) -> str:
        suffix = "" if self.take is None else f" {TAKE if self.take else NO_TAKE}"
        return f"{self.seat}: play {self.card}#{self.slot}{suffix}"


@dataclass(frozen=True, slots=True)
class Pass:
    """``seat`` passes in round 8 (allowed only without a playable card, ruling E-7)."""

    seat: Seat

    def __str__(self) -> str:
        return f"{self.seat}: pass"


EightsAction = Play | Pass | Leave | ChanceAction
"""Every action an 8s Rule! engine accepts."""


def format_action(action: EightsAction) -> str:
    """The notation of ``action`` (see the module docstring)."""
    return str(action)


def parse_action(text: str) -> EightsAction:
    """Parse action notation (see the module docstring).

    Raises:
        InvalidActionError: ``text`` is not an 8s Rule! action; the message quotes it.
    """
    head, sep, rest = text.strip().partition(":")
    if not sep:
        raise InvalidActionError(f"action {text!r} needs 'SEAT: ...' or '*: ...'")
    tokens = split_tokens(rest)
    head = head.strip()
    if head == "*":
        return parse_chance(tokens, parse_card)
    try:
        seat = int(head)
    except ValueError:
        raise InvalidActionError(f"action {text!r}: {head!r} is not a seat number") from None
    if seat < 0:
        raise InvalidActionError(f"action {text!r}: seat {seat} is negative")
    if tokens == ["pass"]:
        return Pass(seat)
    if tokens == [LEAVE_VERB]:
        return Leave(seat)
    if tokens and tokens[0] == "play" and len(tokens) in (2, 3):
        card_text, hash_sign, slot_text = tokens[1].rpartition("#")
        if not hash_sign or not is_digits(slot_text):
            raise InvalidActionError(f"action {text!r}: a played card is CARD#SLOT, e.g. B8#17")
        card = parse_card(card_text)
        take: bool | None = None
        if len(tokens) == 3:
            if tokens[2] not in (TAKE, NO_TAKE):
                raise InvalidActionError(
                    f"action {text!r}: after the card say {TAKE!r} or {NO_TAKE!r}, "
                    f"not {tokens[2]!r}"
                )
            take = tokens[2] == TAKE
        return Play(seat, int(slot_text), card, take)
    raise InvalidActionError(f"unknown action {text!r}; expected 'play CARD#SLOT' or 'pass'")


def public_form(action: EightsAction) -> EightsAction:
    """The form of ``action`` in the shared record: a shuffle's order is removed."""
    if isinstance(action, Shuffle) and action.order is not None:
        return Shuffle(None)
    return action


__all__ = [
    "NO_TAKE",
    "TAKE",
    "EightsAction",
    "Leave",
    "Pass",
    "Play",
    "RandomInt",
    "Reveal",
    "Shuffle",
    "format_action",
    "parse_action",
    "public_form",
]
