"""The round-end renege audit (ruling E-8).

While a round is played, no peer can see another's hand, so ``check`` cannot refuse a renege of
another seat. When the round ends, every card still in a hand is opened (public reveals); the
cards each seat played are public already, so the whole dealt hand of every seat is known. The
audit replays the round's plays and passes against those hands and finds every renege: a card
off the led suit while holding the led suit (rounds 1..7, ruling E-3), and a pass while holding
a playable card (round 8, ruling E-7). Each adds 50 points to the offender (rulebook).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS, NUMBERS, Suit
from .play import EMPTY_LAYOUT, is_playable, lay
from .state import Event, Renege


def dealt_hands(
    n_seats: int, history: Sequence[Event], left: Sequence[Sequence[int]]
) -> list[set[int]]:
    """Each seat's whole dealt hand: the cards it played plus the cards left in its hand.

    Args:
        n_seats: seat count.
        history: the round's plays and passes.
        left: per seat, the card indexes still in hand at round end (all opened).

    Returns:
        ``n_seats`` sets of card indexes.
    """
    hands = [set(cards) for cards in left]
    for event in history:
        if event.card >= 0:
            hands[event.seat].add(event.card)
    return hands[:n_seats]


def find_reneges(
    round_number: int, history: Sequence[Event], dealt: Sequence[set[int]]
) -> tuple[Renege, ...]:
    """Every renege of one round, in play order (ruling E-8).

    Args:
        round_number: 1..8; rounds 1..7 are trick rounds, round 8 the layout.
        history: the round's plays and passes in order.
        dealt: per seat, the whole dealt hand (card indexes); not modified.

    Returns:
        One :class:`Renege` per offence; the ``held`` card is the lowest card that had to be
        played instead.
    """
    hands = [set(cards) for cards in dealt]
    found: list[Renege] = []
    if round_number < 8:
        trick = 0
        led = -1
        for seat, card, number in history:
            if number != trick:
                trick, led = number, card // NUMBERS
            elif card // NUMBERS != led:
                holding = sorted(c for c in hands[seat] if c // NUMBERS == led)
                if holding:
                    found.append(
                        Renege(
                            round_number, seat, number, CARDS[card], CARDS[holding[0]], Suit(led)
                        )
                    )
            hands[seat].discard(card)
        return tuple(found)
    layout = EMPTY_LAYOUT
    for seat, card, number in history:
        if card < 0:
            playable = sorted(c for c in hands[seat] if is_playable(c, layout))
            if playable:
                found.append(Renege(round_number, seat, number, None, CARDS[playable[0]], None))
            continue
        layout = lay(card, layout)
        hands[seat].discard(card)
    return tuple(found)
