"""Seats leaving the deck for good: a leave, key escrow, and the rescue of a seat that vanished.

A mixin of :class:`~lancards.p2p.crypto.coordinator.DeckCoordinator` (rulings D-1..D-5;
``docs/mental-poker.md``, "Leaving for good"; :mod:`lancards.p2p.crypto.escrow`). It works on
the coordinator's slot table, key phase, running epoch and events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from lancards.p2p.crypto.deck import DeckEvent, Seat, SeatLeft, SlotId, TableParams
from lancards.p2p.crypto.errors import DeckUsageError, ProtocolViolationError
from lancards.p2p.crypto.escrow import check_commitments, check_part, deal_escrow, rescue_recipient
from lancards.p2p.crypto.group import Point, RandomBytes, point_sum
from lancards.p2p.crypto.keygen import KeyPhase
from lancards.p2p.crypto.messages import Message, SharesMessage, decode_message, encode_message
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.crypto.slots import SlotTable


class Departures:
    """Leave, escrow and rescue; the state it shares with the coordinator is declared here."""

    params: TableParams
    seat: Seat
    _secret: int
    _random: RandomBytes
    _keys: KeyPhase
    _table: SlotTable
    _events: list[DeckEvent]
    _epoch_number: int
    _escrow: dict[Seat, dict[Seat, Point]]  # dealer -> holder -> part commitment
    _parts: dict[Seat, int]  # dealer -> this seat's part of its key share
    _rescue: dict[Seat, dict[Seat, dict[SlotId, Point]]]  # vanished -> sender -> slot -> share

    @property
    def joint_key(self) -> Point | None:  # pragma: no cover - the coordinator's is used
        raise NotImplementedError

    def _abandon_epoch(self, seat: Seat) -> None:  # pragma: no cover - the coordinator's
        raise NotImplementedError

    # -----------------------------------------------------------------------------------------
    # Leaving for good (rulings D-1..D-5; docs/mental-poker.md, "Leaving").

    def leave_slots(self, hand: Iterable[SlotId]) -> tuple[SlotId, ...]:
        """The hidden slots a leaver holding ``hand`` strips its layer from (ascending)."""
        return self._table.leave_slots(hand)

    def make_leave(self, hand: Iterable[SlotId]) -> Message:
        """This seat leaves for good: its proven decryption share of every hidden slot not in
        ``hand`` (its own hand, which is never opened), to put in the record. Applied here
        too, as every other seat applies it with :meth:`accept_leave`.

        Raises:
            DeckUsageError: this seat has left already, is an observer, or would leave
                nobody at the table.
        """
        if self.seat not in self._table.present or len(self._table.present) < 2:
            raise DeckUsageError(f"seat {self.seat} cannot leave the table")
        hand = tuple(hand)
        message = self._table.make_leave(hand)
        self._leave(self.seat, message, hand)
        return encode_message(message)

    def accept_leave(self, sender: Seat, value: Any, hand: Iterable[SlotId]) -> None:
        """Check and apply ``sender``'s leave message (:meth:`make_leave`); ``hand`` is the
        leaver's hand as the engine knows it (the same at every peer).

        Afterwards ``sender``'s layer is gone from every hidden slot, its hand's slots are out
        of play, :attr:`joint_key` is the sum of the remaining key shares (every later shuffle
        re-encrypts under it), no share is owed by or to ``sender``, and a shuffle epoch that
        was running is abandoned (:class:`~lancards.p2p.crypto.deck.EpochAbandoned`): its
        input slots are still there, and the peer layer begins it again with the new key.

        Raises:
            InvalidMessageError: the message is malformed (names ``sender``).
            ProtocolViolationError: not a leave of exactly the hidden slots outside ``hand``,
                by a seat still at the table (names ``sender``).
            ProofError: a decryption share proof fails (names ``sender``).
            DeckUsageError: ``sender`` is not a seat, or is the last one at the table.
        """
        if not 0 <= sender < self.params.n_seats:
            raise DeckUsageError(f"seat {sender} is not at the table")
        if sender not in self._table.present:
            raise ProtocolViolationError(
                f"seat {sender} left the table already", seat=sender, epoch=self._epoch_number
            )
        if len(self._table.present) < 2:
            raise DeckUsageError("the last seat at the table cannot leave")
        # nothing hidden to strip (a fresh face-up deck): the decoder wants 1 share or more
        message: Any = (SharesMessage(sender, PUBLIC, (), None) if _no_shares(value, sender)
                        else decode_message(value, sender))
        if not isinstance(message, SharesMessage):
            raise ProtocolViolationError(
                f"seat {sender} left with a {value.get('type')!r} message instead of shares",
                seat=sender,
                epoch=self._epoch_number,
            )
        hand = tuple(hand)
        self._table.check_leave(sender, message, hand)
        self._leave(sender, message, hand)

    def _leave(self, seat: Seat, message: SharesMessage, hand: tuple[SlotId, ...]) -> None:
        self._remove(seat, {item.slot: item.share for item in message.shares}, hand)

    def _remove(self, seat: Seat, shares: Mapping[SlotId, Point], hand: tuple[SlotId, ...]
                ) -> None:
        self._abandon_epoch(seat)
        self._table.strip(seat, shares, hand)
        self._escrow.pop(seat, None)
        self._parts.pop(seat, None)
        self._rescue.pop(seat, None)
        for dealer in list(self._escrow):  # parts the removed seat held are lost: deal again
            if seat in self._escrow[dealer]:
                del self._escrow[dealer]
                self._parts.pop(dealer, None)
        self._events.append(SeatLeft(seat))

    # -----------------------------------------------------------------------------------------
    # Key escrow and the rescue of a seat that vanished (p2p/crypto/escrow.py; ruling D-5).

    def make_escrow(self) -> tuple[dict[Seat, Point], dict[Seat, int]]:
        """Deal this seat's key share among the other present seats: the public commitments
        (broadcast) and the secret parts (each sealed to its holder by the peer layer). Also
        recorded here as if accepted.

        Raises:
            DeckUsageError: the joint key is not ready, or no other seat is present.
        """
        if self.joint_key is None or self.seat not in self._table.present:
            raise DeckUsageError("the key share can be escrowed once the joint key is ready")
        holders = [s for s in self._table.present if s != self.seat]
        if not holders:
            raise DeckUsageError("no other seat to escrow the key share with")
        commitments, parts = deal_escrow(self._secret, holders, self._random)
        self._escrow[self.seat] = dict(commitments)
        return commitments, parts

    def accept_escrow(self, dealer: Seat, commitments: Mapping[Seat, Point]) -> None:
        """Check and keep ``dealer``'s public part commitments (one per other present seat,
        adding up to its key share).

        Raises:
            ProofError: the commitments are wrong (names ``dealer``; ``proof`` is
                :data:`~lancards.p2p.crypto.escrow.ESCROW`).
            DeckUsageError: ``dealer`` is not present or the joint key is not ready.
        """
        if self.joint_key is None or dealer not in self._table.present:
            raise DeckUsageError(f"seat {dealer} cannot escrow now")
        holders = [s for s in self._table.present if s != dealer]
        check_commitments(dealer, self._keys.keys[dealer], commitments, holders)
        self._escrow[dealer] = dict(commitments)
        self._parts.pop(dealer, None)

    def accept_escrow_part(self, dealer: Seat, part: int) -> None:
        """Check and keep the part of ``dealer``'s key share sealed to this seat (after
        :meth:`accept_escrow` of its commitments).

        Raises:
            ProofError: ``part*G`` is not the commitment for this seat (names ``dealer``).
            DeckUsageError: no commitments of ``dealer`` yet.
        """
        commitments = self._escrow.get(dealer)
        if commitments is None or self.seat not in commitments:
            raise DeckUsageError(f"no escrow commitments of seat {dealer} for this seat yet")
        check_part(dealer, part, commitments[self.seat])
        self._parts[dealer] = part

    def escrow_holders(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats holding a part of ``dealer``'s key share (ascending; empty when it is
        not escrowed, or no longer: a holder left)."""
        return tuple(sorted(self._escrow.get(dealer, {})))

    def can_rescue(self, vanished: Seat) -> bool:
        """True if ``vanished``'s key share is escrowed among the other present seats and this
        seat, if it is one of them, holds its part (so it can call :meth:`make_rescue`)."""
        commitments = self._escrow.get(vanished)
        return (
            commitments is not None
            and sorted(commitments) == [s for s in self._table.present if s != vanished]
            and (self.seat not in commitments or vanished in self._parts)
        )

    def rescued_by(self, vanished: Seat) -> tuple[Seat, ...]:
        """The seats whose rescue shares for removing ``vanished`` were accepted so far
        (ascending; empty when no removal of it is under way)."""
        return tuple(sorted(self._rescue.get(vanished, {})))

    def holds_escrow_part(self, dealer: Seat) -> bool:
        """Whether this seat holds a good escrowed part of ``dealer``'s key share (its part
        checked against the dealer's commitment; a bad one is never kept)."""
        return dealer in self._parts and dealer in self._escrow

    def make_rescue(self, vanished: Seat, hand: Iterable[SlotId]) -> Message:
        """This seat's rescue shares for removing ``vanished`` (``hand``: its hand as the
        engine knows it): its escrow part applied to every hidden slot outside that hand, with
        proofs. Recorded here as if accepted.

        Raises:
            DeckUsageError: no escrowed part of ``vanished`` here.
        """
        part = self._parts.get(vanished)
        commitments = self._escrow.get(vanished)
        if part is None or commitments is None or vanished not in self._table.present:
            raise DeckUsageError(f"seat {self.seat} holds no escrow part of seat {vanished}")
        hand = tuple(hand)
        message = self._table.make_rescue(
            part, commitments[self.seat], rescue_recipient(vanished), hand
        )
        self._take_rescue(self.seat, vanished, message, hand)
        return encode_message(message)

    def accept_rescue(
        self, sender: Seat, vanished: Seat, value: Any, hand: Iterable[SlotId]
    ) -> None:
        """Check and keep ``sender``'s rescue shares for removing ``vanished``; once every
        other present seat's are in, their sum is ``vanished``'s decryption share of each
        slot, and it is removed as if it had left (:meth:`accept_leave`).

        Raises:
            InvalidMessageError: malformed (names ``sender``).
            ProtocolViolationError: not shares of exactly the hidden slots outside ``hand``, a
                repeat, or from a seat holding no part (names ``sender``).
            ProofError: a share does not match ``sender``'s escrow commitment.
            DeckUsageError: ``vanished`` is not present or its key share is not escrowed.
        """
        commitments = self._escrow.get(vanished)
        if commitments is None or vanished not in self._table.present:
            raise DeckUsageError(f"seat {vanished} cannot be rescued: no escrow of its key")
        epoch = self._epoch_number
        if sender not in commitments or sender in self._rescue.get(vanished, {}):
            raise ProtocolViolationError(
                f"seat {sender} sent rescue shares it does not owe", seat=sender, epoch=epoch
            )
        message: Any = (SharesMessage(sender, PUBLIC, (), None) if _no_shares(value, sender)
                        else decode_message(value, sender))
        if not isinstance(message, SharesMessage):
            raise ProtocolViolationError(
                f"seat {sender} sent a {value.get('type')!r} message as rescue shares",
                seat=sender,
                epoch=epoch,
            )
        hand = tuple(hand)
        self._table.check_leave(
            sender, message, hand, (commitments[sender], rescue_recipient(vanished))
        )
        self._take_rescue(sender, vanished, message, hand)

    def _take_rescue(
        self, sender: Seat, vanished: Seat, message: SharesMessage, hand: tuple[SlotId, ...]
    ) -> None:
        got = self._rescue.setdefault(vanished, {})
        got[sender] = {item.slot: item.share for item in message.shares}
        commitments = self._escrow[vanished]
        if sorted(got) != sorted(commitments):
            return
        slots = self._table.leave_slots(hand)
        shares = {slot: point_sum(part[slot] for part in got.values()) for slot in slots}
        self._remove(vanished, shares, hand)


def _no_shares(value: Any, sender: Seat) -> bool:
    """Whether ``value`` is exactly the leave message of ``sender`` with no share (the deck's
    decoder wants one or more; a leave when no card is hidden has none)."""
    return bool(value == {"type": "shares", "seat": sender, "recipient": None, "shares": []})
