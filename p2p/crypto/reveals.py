"""Reveals and openings: what a seat owes and sends so that cards become known to their holder
or to everyone. A mixin of :class:`~lancards.p2p.crypto.coordinator.DeckCoordinator`
(``docs/mental-poker.md``, "Reveals"); the slot table (:mod:`lancards.p2p.crypto.slots`) does
the work.
"""

from __future__ import annotations

from collections.abc import Iterable

from lancards.p2p.crypto.deck import Seat, SlotId
from lancards.p2p.crypto.errors import DeckUsageError
from lancards.p2p.crypto.messages import Message, encode_message
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.crypto.slots import SlotTable


class Reveals:
    """Private and public reveals, owed shares, openings; the state it shares with the
    coordinator is declared here."""

    seat: Seat
    _table: SlotTable

    def request_private(self, slots: Iterable[SlotId], holder: Seat) -> None:
        """The engine deals or draws ``slots`` to ``holder``: every other seat owes it shares.

        Raises:
            DeckUsageError: a slot unknown or public, or ``holder`` not at the table.
        """
        if holder not in self._table.present:
            raise DeckUsageError(f"seat {holder} is not at the table")
        self._table.request(slots, holder)

    def request_public(self, slots: Iterable[SlotId]) -> None:
        """The engine turns ``slots`` face up: every seat owes a public share for each.

        Raises:
            DeckUsageError: a slot unknown or already public.
        """
        self._table.request(slots, PUBLIC)

    def make_shares(self, recipient: Seat, slots: Iterable[SlotId] | None = None) -> Message | None:
        """This seat's decryption shares for ``recipient`` (a seat or ``PUBLIC``).

        Send the message to the recipient alone (encrypted end to end) for a private reveal,
        to everyone for a public one. Public shares count locally at once.

        Args:
            recipient: the holder, or ``PUBLIC``.
            slots: which requested slots; every one this seat still owes ``recipient`` if
                omitted.

        Returns:
            The ``shares`` message, or ``None`` when nothing is owed.

        Raises:
            DeckUsageError: ``recipient`` is this seat, or a slot has no such request.
        """
        if recipient == self.seat:
            raise DeckUsageError("a seat never sends shares to itself")
        if slots is None:
            table = self._table
            slots = sorted(s for s, r in table.reveals if r == recipient and table.owes(s, r))
        message = self._table.make_shares(recipient, slots)
        return None if message is None else encode_message(message)

    def make_owed_shares(self) -> list[tuple[Seat, Message]]:
        """Every share this seat owes now, as ``(recipient, message)`` pairs (``PUBLIC`` last)."""
        table = self._table
        owed: dict[Seat, list[SlotId]] = {}
        for slot, recipient in table.reveals:  # one pass over the reveals
            if recipient != self.seat and table.owes(slot, recipient):
                owed.setdefault(recipient, []).append(slot)
        out = []
        for recipient in sorted(owed, key=lambda r: (r == PUBLIC, r)):
            message = table.make_shares(recipient, sorted(owed[recipient]))
            if message is not None:
                out.append((recipient, encode_message(message)))
        return out

    def withhold(self, slots: Iterable[SlotId]) -> None:
        """``slots`` went out of play for good (8s Rule!: the hidden cards of a round a
        departure abandoned, ruling D-1, never opened): this seat owes no share of them any
        more and never makes one, so a reveal requested before the departure and not yet
        complete never completes (it would open an abandoned card and hand the engine a reveal
        it no longer asks for)."""
        self._table.withheld.update(slots)

    def is_withheld(self, slot: SlotId) -> bool:
        """Whether ``slot`` is out of play for good (:meth:`withhold`)."""
        return slot in self._table.withheld

    def make_open(self, slot: SlotId) -> Message:
        """Open a card this seat holds (lay down, discard, play): broadcast the message.

        Raises:
            DeckUsageError: this seat does not know the card or lacks some seat's share.
        """
        return encode_message(self._table.make_open(slot))
