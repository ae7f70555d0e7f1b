"""The Level 8 state: an immutable record of where every card slot is and who knows it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from lancards.engine.core import Seat, SlotId
from lancards.engine.level8.cards import Card
from lancards.engine.level8.levels import Level, LevelCard
from lancards.engine.level8.melds import Meld
from lancards.engine.level8.rules import Level8Rules


class Phase(Enum):
    """Where the game stands. Chance acts in DEALER, SHUFFLE and FLIP (and when a reshuffle
    is due); a player acts in the others."""

    DEALER = "dealer"  # the first dealer is drawn (L8-2)
    SHUFFLE = "shuffle"  # the round's deck is shuffled (L8-12)
    FLIP = "flip"  # the dealer turns the top card of the draw pile (L8-2)
    DRAW = "draw"  # step 1 of a turn (L8-3)
    PLAY = "play"  # steps 2-4 of a turn (L8-3)
    SKIPPED = "skipped"  # a skipped turn (L8C-1)
    SHOW = "show"  # others show cards for "I'll take that!" (L8M-1)
    CHOOSE = "choose"  # the taker chooses a shown card (L8M-1)
    SWAP = "swap"  # "I'll swap that!" (L8M-2)
    KEEP = "keep"  # round end: keeping cards (L8-13)
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Level8State:
    """A Level 8 state. Never mutated; ``apply`` returns a new one.

    Card places (every slot in exactly one): ``gathered`` (cards waiting for the round's
    shuffle), ``hands``, ``pile`` (draw pile, index 0 = top), ``under`` (face-up cards under
    the draw pile), ``discards`` (per seat, last = top), ``melds``, ``in_front`` (keep and Skip
    cards lying in front of a seat).

    Attributes:
        rules: the rules.
        n: seat count, 2..6.
        level_cards: the level-card side of each seat (length ``n``).
        cards: the identities this state knows (slot -> card).
        known: for every slot in play, the bit mask of seats that know its identity.
        next_slot: the id the next new slot gets.
        levels: each seat's level, 1..8, or 9 = WIN.
        dealer: the dealer (-1 before the first dealer is drawn).
        round: the round number, 1-based (0 before the first deal).
        phase: the phase.
        turn: the seat whose turn it is.
        down: per seat, whether the level is laid down this round.
        owed: seats still owed a face-down card, in order (L8M-1 replacement, L8M-2 swap).
        reshuffle_due: the discard piles must be shuffled into the draw pile now (L8-9).
        next_meld: the id the next meld gets.
        shown: per seat, the slots shown for "I'll take that!" (empty when not shown).
        show_queue: seats still to show, in order.
        swaps: cards put down so far in "I'll swap that!".
        keep_queue: seats still to choose kept cards, in order (L8-13).
        kept: per seat, the slots chosen to keep.
        went_out: the seat that ended the round by going out, else -1.
        winners: the winners once the game is over.
        actions: how many actions led here.
        left: the seats that left the table for good, in the order they left (ruling D-2).
        out: the hands of those seats, out of play face down (ruling D-1), parallel to
            ``left``; never gathered, shuffled or revealed again.
    """

    rules: Level8Rules
    n: int
    level_cards: tuple[LevelCard, ...]
    cards: Mapping[SlotId, Card]
    known: Mapping[SlotId, int]
    next_slot: int
    levels: tuple[int, ...]
    dealer: Seat
    round: int
    phase: Phase
    turn: Seat
    gathered: tuple[SlotId, ...]
    hands: tuple[tuple[SlotId, ...], ...]
    pile: tuple[SlotId, ...]
    under: tuple[SlotId, ...]
    discards: tuple[tuple[SlotId, ...], ...]
    melds: tuple[Meld, ...]
    in_front: tuple[tuple[SlotId, ...], ...]
    down: tuple[bool, ...]
    owed: tuple[Seat, ...] = ()
    reshuffle_due: bool = False
    next_meld: int = 0
    shown: tuple[tuple[SlotId, ...], ...] = ()
    show_queue: tuple[Seat, ...] = ()
    swaps: int = 0
    keep_queue: tuple[Seat, ...] = ()
    kept: tuple[tuple[SlotId, ...], ...] = ()
    went_out: Seat = -1
    winners: tuple[Seat, ...] = ()
    actions: int = 0
    left: tuple[Seat, ...] = ()
    out: tuple[tuple[SlotId, ...], ...] = ()

    def level(self, seat: Seat) -> Level:
        """The components of ``seat``'s current level (levels 1..8)."""
        return self.level_cards[seat].level(min(self.levels[seat], 8))

    def card(self, slot: SlotId) -> Card | None:
        """The identity of ``slot`` if this state knows it."""
        return self.cards.get(slot)

    def hand_cards(self, seat: Seat) -> list[tuple[SlotId, Card | None]]:
        """``seat``'s hand as (slot, identity or None) pairs."""
        return [(s, self.cards.get(s)) for s in self.hands[seat]]

    def reshufflable(self) -> tuple[SlotId, ...]:
        """Cards that a reshuffle takes: discard piles but their tops, and cards under the
        draw pile (ruling L8-9)."""
        out: list[SlotId] = list(self.under)
        for pile in self.discards:
            out.extend(pile[:-1])
        return tuple(out)

    def places(self) -> Iterator[tuple[str, tuple[SlotId, ...]]]:
        """Every card place with its slots (for invariant checks and views)."""
        yield "gathered", self.gathered
        yield "pile", self.pile
        yield "under", self.under
        for seat in range(self.n):
            yield f"hand {seat}", self.hands[seat]
            yield f"discard pile {seat}", self.discards[seat]
            yield f"in front of {seat}", self.in_front[seat]
        for meld in self.melds:
            yield f"meld {meld.id}", tuple(p.slot for p in meld.cards)
        for seat, slots in zip(self.left, self.out, strict=True):
            yield f"out of play {seat}", slots

    def present(self) -> tuple[Seat, ...]:
        """The seats still at the table, ascending (ruling D-1)."""
        return tuple(s for s in range(self.n) if s not in self.left)

    def next_seat(self, seat: Seat) -> Seat:
        """The next seat to the left of ``seat`` that has not left: play passes over an
        empty seat (ruling D-1). ``seat`` itself if nobody else is left."""
        for k in range(1, self.n + 1):
            other = (seat + k) % self.n
            if other not in self.left:
                return other
        return seat

    def where(self, slot: SlotId) -> str:
        """A description of the place of ``slot`` (for error messages)."""
        for name, slots in self.places():
            if slot in slots:
                return name
        return "nowhere"

    def evolve(self, **changes: Any) -> Level8State:
        """A copy with ``changes`` (and the action count unchanged)."""
        return replace(self, **changes)


def set_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def without(items: tuple[SlotId, ...], slot: SlotId) -> tuple[SlotId, ...]:
    """``items`` without ``slot``."""
    return tuple(s for s in items if s != slot)
