"""The table's parameters and what the deck coordinator reports: events and debts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lancards.p2p.crypto.errors import DeckUsageError
from lancards.p2p.crypto.group import Point

Seat = int
"""A seat number, 0-based (``engine.core.Seat``)."""

SlotId = int
"""A card slot's id (``engine.core.SlotId``)."""


@dataclass(frozen=True, slots=True)
class TableParams:
    """What every peer of a table agrees on before the deck starts.

    Attributes:
        game_id: the game's registry name; fixes the card points and proof generators.
        table_id: the table's unique identifier (bound into every proof).
        n_seats: the number of peers, 2 to 16.
        n_cards: the size of the game's canonical deck (card indexes ``0..n_cards-1``).
    """

    game_id: str
    table_id: str
    n_seats: int
    n_cards: int

    def __post_init__(self) -> None:
        if not 2 <= self.n_seats <= 16:
            raise DeckUsageError(f"a table has 2 to 16 seats, not {self.n_seats}")
        if not 1 <= self.n_cards <= 4096:
            raise DeckUsageError(f"a deck has 1 to 4096 cards, not {self.n_cards}")


# ---------------------------------------------------------------------------------------------
# Events and debts.


@dataclass(frozen=True, slots=True)
class KeyReady:
    """Every key share verified: the joint key is known."""

    joint_key: Point


@dataclass(frozen=True, slots=True)
class ShuffleVerified:
    """The shuffle of ``seat`` in ``epoch`` verified (or was made, for our own seat)."""

    epoch: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class EpochComplete:
    """Every shuffle of ``epoch`` verified; ``slots`` are the new hidden slots, top first."""

    epoch: int
    slots: tuple[SlotId, ...]


@dataclass(frozen=True, slots=True)
class CardLearned:
    """A private reveal to this seat completed: ``slot`` is ``card`` (known to us alone)."""

    slot: SlotId
    card: int


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """A public reveal completed: ``slot`` is ``card``, now public."""

    slot: SlotId
    card: int


@dataclass(frozen=True, slots=True)
class CardOpened:
    """``seat`` opened the card it held in ``slot``: it is ``card``, now public."""

    slot: SlotId
    card: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class EpochAbandoned:
    """``epoch`` stopped before it completed because ``seat`` left: its input slots are still
    there (under the new joint key); the peer layer begins the shuffle again."""

    epoch: int
    seat: Seat


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """``seat`` left the table for good: its layer is gone from every hidden card, its hand
    is out of play, and the joint key is the sum of the remaining key shares."""

    seat: Seat


DeckEvent = (
    KeyReady
    | ShuffleVerified
    | EpochComplete
    | CardLearned
    | CardRevealed
    | CardOpened
    | EpochAbandoned
    | SeatLeft
)

DebtKind = Literal["key_commit", "key_reveal", "shuffle", "shares"]


@dataclass(frozen=True, slots=True)
class Debt:
    """Something ``seat`` still owes, as far as this peer can know.

    Attributes:
        seat: the debtor.
        kind: ``key_commit``, ``key_reveal``, ``shuffle`` or ``shares``.
        epoch: the epoch of a key or shuffle debt; ``None`` for shares.
        slots: for shares, the slots (ascending).
        recipient: for shares, the seat they are for, or ``PUBLIC`` (-1).
    """

    seat: Seat
    kind: DebtKind
    epoch: int | None = None
    slots: tuple[SlotId, ...] = ()
    recipient: Seat | None = None
