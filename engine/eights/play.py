"""The rules of play as pure functions over card indexes: follow suit (E-3), the trick winner
with the 8s' "take" / "no take" (E-4), and the round-8 layout (E-7).

Cards are indexes 0..59 (see :mod:`lancards.engine.eights.cards`). A layout is a tuple of 4
pairs, one per suit: ``(low, high)``, the lowest and highest numbers laid in that suit, or
``(0, 0)`` while the suit's 8 is not out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from lancards.engine.core import Seat, SlotId

from .cards import EIGHT, NUMBERS, SUITS_IN_DECK

Layout = tuple[tuple[int, int], ...]
"""Per suit ``(low, high)``; ``(0, 0)`` = the suit is not opened (ruling E-7)."""

EMPTY_LAYOUT: Final[Layout] = ((0, 0),) * SUITS_IN_DECK


class TrickPlay(NamedTuple):
    """One card in the current trick.

    Attributes:
        seat: who played it.
        slot: the card's slot.
        card: the card index.
        take: for the 8 of the led suit, True for "take", False for "no take" (ruling E-4);
            None for every other card.
    """

    seat: Seat
    slot: SlotId
    card: int
    take: bool | None


def follow_suit_cards(hand: Iterable[int], led_suit: int | None) -> list[int]:
    """The cards of ``hand`` that may be played to a trick (ruling E-3).

    Args:
        hand: card indexes.
        led_suit: the suit led in this trick, or None when leading.

    Returns:
        The cards of the led suit if the hand has any, else every card, ascending.
    """
    cards = sorted(hand)
    if led_suit is None:
        return cards
    follow = [c for c in cards if c // NUMBERS == led_suit]
    return follow or cards


def is_eight_of_led_suit(card: int, led_suit: int | None) -> bool:
    """Whether ``card`` is the 8 of the led suit (``led_suit`` None: the card leads)."""
    suit = card // NUMBERS
    return card % NUMBERS + 1 == EIGHT and (led_suit is None or suit == led_suit)


def trick_winner(plays: Sequence[TrickPlay]) -> Seat:
    """The seat that takes a complete trick (ruling E-4).

    The highest card of the led suit wins, unless the 8 of the led suit was played with "take":
    then its player wins. A "no take" 8 cannot win while another card of the led suit is in the
    trick (the highest other card of the led suit wins). If the 8 was led and nobody followed
    suit, its player takes the trick whatever was declared. An 8 of another suit is an ordinary
    card.

    Args:
        plays: the trick's cards in play order (at least one).

    Raises:
        ValueError: ``plays`` is empty.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = plays[0].card // NUMBERS
    best_seat = -1
    best_number = 0
    eight_seat = -1
    eight_take = False
    for seat, _slot, card, take in plays:
        if card // NUMBERS != led:
            continue
        number = card % NUMBERS + 1
        if number == EIGHT:
            eight_seat, eight_take = seat, bool(take)
        elif number > best_number:
            best_seat, best_number = seat, number
    if eight_seat >= 0 and (eight_take or best_seat < 0):
        return eight_seat
    return best_seat


def is_playable(card: int, layout: Layout) -> bool:
    """Whether ``card`` may be laid on the round-8 layout now (ruling E-7).

    An 8 opens its suit; in an opened suit the next lower card (7 down to 1) or the next higher
    card (9 up to 15) may be laid.
    """
    low, high = layout[card // NUMBERS]
    number = card % NUMBERS + 1
    if low == 0:
        return number == EIGHT
    return number == low - 1 or number == high + 1


def playable_cards(hand: Iterable[int], layout: Layout) -> list[int]:
    """The cards of ``hand`` that may be laid on ``layout`` (ruling E-7), ascending."""
    return sorted(c for c in hand if is_playable(c, layout))


def lay(card: int, layout: Layout) -> Layout:
    """The layout after laying ``card``; the caller has checked :func:`is_playable`."""
    suit = card // NUMBERS
    number = card % NUMBERS + 1
    low, high = layout[suit]
    if low == 0:
        pair = (EIGHT, EIGHT)
    elif number < low:
        pair = (number, high)
    else:
        pair = (low, number)
    return (*layout[:suit], pair, *layout[suit + 1 :])


def describe_layout(layout: Layout) -> str:
    """E.g. ``"Red 8, Blue 5-10, Yellow -, Green -"`` for messages."""
    names = ("Red", "Blue", "Yellow", "Green")
    parts = []
    for name, (low, high) in zip(names, layout, strict=True):
        if low == 0:
            parts.append(f"{name} -")
        elif low == high:
            parts.append(f"{name} {low}")
        else:
            parts.append(f"{name} {low}-{high}")
    return ", ".join(parts)
