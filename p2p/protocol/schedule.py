"""Who appends the next record entry, and whom the table waits for (``docs/protocol.md``,
"Game").

The record is one linear log; at every moment exactly one seat may append, and what it appends
follows from the record alone:

1. the joint key: each seat's ``key_commit`` in seat order, then each seat's ``key_reveal``;
2. the engine's chance requests: ``ShuffleRequest`` by one proven ``shuffle`` entry per seat in
   seat order; ``RevealRequest`` by an ``open`` entry of the holder when one seat holds the card,
   else by a public ``shares`` entry per seat in seat order;
3. otherwise the seat the engine says is to act appends an ``action`` entry;
4. in place of any entry it is due to append, a seat may append a ``leave`` entry (it leaves
   for good, :mod:`lancards.p2p.protocol.departure`); from then on the engine skips it and the
   deck's turns, debts and joint key are those of the seats still present.
5. once every remaining seat signed "remove V" about the current position, the lowest
   remaining seat appends a ``rescue`` entry in place of whatever is due, then each other
   remaining seat in seat order (:mod:`lancards.p2p.protocol.rescue`; :meth:`GameCore.expected` puts
   the rescuer due first).

Beside the log, the holder of a card dealt or drawn privately waits for every other seat's
decryption shares (sealed to it); only the holder can see them arrive, so a peer names such a
stall only for its own cards. :func:`waiting_for` lists every stall a screen shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from lancards.engine.core import CHANCE, Game, RevealRequest, Seat, ShuffleRequest, SlotId
from lancards.p2p.crypto.coordinator import DeckCoordinator
from lancards.p2p.crypto.proofs import PUBLIC


class EntryKind(StrEnum):
    """The kind ``t`` of a record entry's payload."""

    KEY = "key"
    """A key commitment or key reveal (joint-key phase)."""
    SHUFFLE = "shuffle"
    """A proven re-encryption shuffle of the deck."""
    SHARES = "shares"
    """Public decryption shares of a card everyone sees."""
    OPEN = "open"
    """A card opened by its only holder."""
    ACTION = "action"
    """A move in the engine's notation (with the openings of the cards it makes public)."""
    LEAVE = "leave"
    """The author leaves the table for good (rulings D-1..D-4): its proven decryption share of
    every hidden card outside its own hand. Never due: a seat that chose to leave appends it in
    place of the next entry it is due to append (:mod:`lancards.p2p.protocol.departure`)."""
    ESCROW = "escrow"
    """The author's key share split among the other seats, for a rescue (ruling D-5;
    :mod:`lancards.p2p.protocol.escrow_entries`): due first, in seat order, while a dealer's parts
    are not held by every other present seat, at tables with the option ``rescue``."""
    RESCUE = "rescue"
    """The author's rescue shares for removing a seat that vanished (ruling D-5;
    :mod:`lancards.p2p.protocol.rescue`): the first one, by the lowest remaining seat, in place of
    whatever is due once every remaining seat signed the removal; then the others in seat
    order."""


WAITING_WHAT: dict[EntryKind, str] = {
    EntryKind.KEY: "a key share",
    EntryKind.SHUFFLE: "a shuffle",
    EntryKind.SHARES: "decryption shares for a card everyone sees",
    EntryKind.OPEN: "a card opening",
    EntryKind.ACTION: "a move",
    EntryKind.LEAVE: "a leave",
    EntryKind.ESCROW: "a key escrow",
    EntryKind.RESCUE: "rescue shares",
}
"""What the table waits for, in words, by the kind of entry due."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for ``seat`` to send ``what``.

    Attributes:
        seat: the seat waited for.
        what: in words: ``"a move"``, ``"a shuffle"``, ``"decryption shares for a draw (cards
            #12, #40)"``...
        kind: the entry kind due, or ``None`` for private shares (sent beside the log).
    """

    seat: Seat
    what: str
    kind: EntryKind | None


def next_author(
    game: Game[Any, Any],
    state: Any,
    deck: DeckCoordinator,
    holder: Callable[[SlotId], Seat | None],
) -> tuple[Seat, EntryKind] | None:
    """The seat that must append the next entry and its kind, or ``None`` (game over, or
    nothing is due until private shares arrive)."""
    if deck.joint_key is None:
        debts = deck.debts()
        return (min(d.seat for d in debts), EntryKind.KEY) if debts else None
    to_act = game.to_act(state)
    if to_act is None:
        return None
    if to_act != CHANCE:
        return to_act, EntryKind.ACTION
    request = game.chance_request(state)
    if isinstance(request, ShuffleRequest):
        turn = deck.shuffle_turn()
        return None if turn is None else (turn, EntryKind.SHUFFLE)
    if isinstance(request, RevealRequest):
        seat = holder(request.slot)
        if seat is not None:
            return seat, EntryKind.OPEN
        debts = [d for d in deck.debts() if d.kind == "shares" and d.recipient == PUBLIC]
        return (min(d.seat for d in debts), EntryKind.SHARES) if debts else None
    return None


def private_debts(deck: DeckCoordinator, me: Seat) -> list[Waiting]:
    """The seats that still owe this seat decryption shares for its own cards."""
    out = []
    for debt in deck.debts():
        if debt.kind == "shares" and debt.recipient == me and debt.seat != me:
            cards = ", ".join(f"#{s}" for s in debt.slots[:6])
            more = "..." if len(debt.slots) > 6 else ""
            out.append(Waiting(debt.seat, f"decryption shares for a deal or draw (cards "
                               f"{cards}{more})", None))
    return out


__all__ = ["WAITING_WHAT", "EntryKind", "Waiting", "next_author", "private_debts"]
