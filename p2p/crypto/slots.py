"""The slot table of one seat: every hidden or public card slot, and the reveals under way.

A slot holds its ciphertext and the epoch that produced it; once revealed it also holds its card
index (public, or known to this seat alone). A *reveal* is one (slot, recipient) pair, the
recipient a seat (a private reveal: deal, draw) or ``PUBLIC``; it records whether the engine
asked for it, whether this seat sent its decryption share, and the verified shares received.
:class:`~lancards.p2p.crypto.coordinator.DeckCoordinator` owns one table and drives it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from lancards.p2p.crypto.deck import (
    CardLearned,
    CardOpened,
    CardRevealed,
    Debt,
    DeckEvent,
    Seat,
    SlotId,
    TableParams,
)
from lancards.p2p.crypto.elgamal import Ciphertext, card_lookup, card_points, decrypt_with_shares
from lancards.p2p.crypto.errors import DeckError, DeckUsageError, ProofError, ProtocolViolationError
from lancards.p2p.crypto.group import Point, RandomBytes, mul_base
from lancards.p2p.crypto.messages import OpenMessage, Share, SharesMessage
from lancards.p2p.crypto.proofs import PUBLIC, check_shares, prove_shares
from lancards.p2p.crypto.transcript import ProofContext

OPENING: Final[str] = "card opening"
"""The name of the proof an ``open`` message makes (its shares decrypt to the claimed card)."""


@dataclass(slots=True)
class Slot:
    """One slot: its ciphertext, the epoch that made it, its card once known.

    ``proven`` is the ciphertext as its epoch made it, once a leave stripped a layer from
    ``ciphertext`` (else ``None``): every decryption share proof binds that one, so shares
    proven before a leave stay valid after it (``b``, the point the share is ``x*b`` of, never
    changes).
    """

    ciphertext: Ciphertext
    epoch: int
    card: int | None = None
    public: bool = False
    proven: Ciphertext | None = None

    @property
    def bound(self) -> Ciphertext:
        """The ciphertext every decryption share proof of this slot binds."""
        return self.ciphertext if self.proven is None else self.proven


@dataclass(slots=True)
class RevealProgress:
    """One (slot, recipient) pair: requested by the engine? our share sent? shares received."""

    requested: bool = False
    sent: bool = False
    shares: dict[Seat, Share] = field(default_factory=dict)
    batches: dict[Seat, SharesMessage] = field(default_factory=dict)
    """The proven batch each received share came in (an opening forwards it whole)."""


class SlotTable:
    """Slots, reveals and decryption shares as one seat sees them.

    Args:
        params: the table.
        seat: this seat.
        secret: this seat's key share ``x``.
        keys: every seat's key share ``X_i`` (filled by the joint-key phase).
        random_bytes: the source of the proofs' nonces.
        events: where to append events.
        current_epoch: the coordinator's epoch, named in errors about unknown slots.
        before_shares: called before any decryption share is made (the coordinator checks
            the proofs of shuffle still unchecked there; it raises ``ProofError`` on a bad one).
    """

    def __init__(
        self,
        params: TableParams,
        seat: Seat,
        secret: int,
        keys: Mapping[Seat, Point],
        random_bytes: RandomBytes,
        events: list[DeckEvent],
        current_epoch: Callable[[], int],
        before_shares: Callable[[], object] | None = None,
    ) -> None:
        self.params = params
        self.seat = seat
        self._secret = secret
        self._key_share = mul_base(secret)  # X = x*G, hashed into every share proof
        self._keys = keys
        self._random = random_bytes
        self._events = events
        self._current_epoch = current_epoch
        self._before_shares = before_shares
        self.slots: dict[SlotId, Slot] = {}
        self.bases: dict[SlotId, tuple[int, Point]] = {}
        """Every slot ever made, dropped ones too: its epoch and the ``b`` its shares are of (a
        forwarded batch may hold shares of slots reshuffled since)."""
        self.reveals: dict[tuple[SlotId, Seat], RevealProgress] = {}
        self.withheld: set[SlotId] = set()
        """Slots out of play for good (a round abandoned by a departure, ruling D-1): this seat
        never makes a share of them again, so no request of them ever completes."""
        self._checked: set[tuple[object, ...]] = set()
        self.present: list[Seat] = list(range(params.n_seats))
        """The seats whose key shares still encrypt the deck (all, until somebody leaves)."""

    def _context(self, epoch: int, seat: Seat) -> ProofContext:
        return ProofContext(self.params.game_id, self.params.table_id, epoch, seat)

    # -----------------------------------------------------------------------------------------
    # Slots.

    def hidden(self, slot: SlotId) -> Slot:
        """The hidden slot ``slot``.

        Raises:
            DeckUsageError: no such slot, or it is public.
        """
        state = self.slots.get(slot)
        if state is None:
            raise DeckUsageError(f"slot {slot} is not a slot of the deck")
        if state.public:
            raise DeckUsageError(f"slot {slot} is already public")
        return state

    def replace(
        self, old: Iterable[SlotId], first_new_slot: SlotId, outputs: list[Ciphertext], epoch: int
    ) -> tuple[SlotId, ...]:
        """A shuffle epoch completed: drop the input slots, add the outputs as new slots."""
        for slot in old:
            self.slots.pop(slot, None)
        self.reveals = {k: v for k, v in self.reveals.items() if k[0] in self.slots}
        new_slots = tuple(range(first_new_slot, first_new_slot + len(outputs)))
        for slot, ciphertext in zip(new_slots, outputs, strict=True):
            self.slots[slot] = Slot(ciphertext, epoch)
            self.bases[slot] = (epoch, ciphertext.b)
        return new_slots

    def can_open(self, slot: SlotId) -> bool:
        """True if this seat knows the hidden card in ``slot`` and holds every other share."""
        state = self.slots.get(slot)
        reveal = self.reveals.get((slot, self.seat))
        return (
            state is not None
            and not state.public
            and state.card is not None
            and reveal is not None
            and len(reveal.shares) == len(self.present) - 1
        )

    def pending(self, slot: SlotId) -> bool:
        """True while this seat waits for or owes shares of ``slot``."""
        for (s, recipient), reveal in self.reveals.items():
            if s != slot or not reveal.requested:
                continue
            if recipient == PUBLIC and len(reveal.shares) < len(self.present):
                return True
            if recipient == self.seat and len(reveal.shares) < len(self.present) - 1:
                return True
            if recipient not in (PUBLIC, self.seat) and not reveal.sent:
                return True
        return False

    def share_debts(self) -> list[Debt]:
        """Shares owed, as far as this seat knows (see ``DeckCoordinator.debts``), sorted. A
        withheld slot is owed by nobody: every seat withholds the same slots (from the record),
        so a debt of one would make its debtor due for shares it never makes and stall the
        table (adversary finding F5: a public reveal requested before a departure abandoned
        the round kept the lowest seat due for shares of an abandoned card)."""
        owed: dict[tuple[Seat, Seat], list[SlotId]] = {}
        for (slot, recipient), reveal in self.reveals.items():
            if not reveal.requested or self.slots[slot].public or slot in self.withheld:
                continue
            if recipient not in (PUBLIC, self.seat):
                if not reveal.sent:
                    owed.setdefault((self.seat, recipient), []).append(slot)
                continue
            for debtor in self.present:
                if debtor != recipient and debtor not in reveal.shares:
                    owed.setdefault((debtor, recipient), []).append(slot)
        return [
            Debt(debtor, "shares", None, tuple(sorted(slots)), recipient)
            for (debtor, recipient), slots in sorted(owed.items())
        ]

    # -----------------------------------------------------------------------------------------
    # Reveals.

    def request(self, slots: Iterable[SlotId], recipient: Seat) -> None:
        """The engine asks to reveal ``slots`` to ``recipient`` (a seat or ``PUBLIC``).

        Raises:
            DeckUsageError: a slot unknown or already public.
        """
        slot_list = list(slots)
        for slot in slot_list:
            self.hidden(slot)
        for slot in slot_list:
            self.reveals.setdefault((slot, recipient), RevealProgress()).requested = True
            self._complete(slot, recipient)

    def owes(self, slot: SlotId, recipient: Seat) -> bool:
        """True if this seat still owes ``recipient`` its share of ``slot``."""
        reveal = self.reveals.get((slot, recipient))
        return (
            reveal is not None
            and slot not in self.withheld
            and reveal.requested
            and not reveal.sent
            and self.seat not in reveal.shares
            and not self.slots[slot].public
        )

    def _prove(
        self, slots: Iterable[SlotId], recipient: int, secret: int | None = None,
        key: Point | None = None,
    ) -> SharesMessage:
        """This seat's shares of ``slots`` with one batched proof (``secret``/``key``: an
        escrow part and its commitment instead of the key share, for rescue shares)."""
        bases = [(slot, self.bases[slot][1]) for slot in slots]
        if not bases:
            return SharesMessage(self.seat, recipient, (), None)
        if self._before_shares is not None:
            self._before_shares()
        epoch = max(self.bases[slot][0] for slot, _ in bases)
        shares, proof = prove_shares(
            self._context(epoch, self.seat),
            self._secret if secret is None else secret,
            bases,
            recipient,
            self._random,
            self._key_share if key is None else key,
        )
        items = tuple(Share(self.seat, slot, d) for (slot, _), d in zip(bases, shares, strict=True))
        message = SharesMessage(self.seat, recipient, items, proof)
        # This seat's own batch, forwarded back to it in an opening, needs no check: only a
        # bit-identical copy matches (check_batch; issue 23, the latency of a lay down).
        self._checked.add(self._marker(message, recipient,
                                       self._key_share if key is None else key))
        return message

    @staticmethod
    def _marker(message: SharesMessage, proven_for: int, key: Point) -> tuple[object, ...]:
        """What identifies a checked batch: its author, recipient, key, proof and shares."""
        return (message.seat, proven_for, key.encode(), message.proof,
                tuple((s.slot, s.share.encode()) for s in message.shares))

    def make_shares(self, recipient: Seat, slots: Iterable[SlotId]) -> SharesMessage | None:
        """This seat's shares of ``slots`` for ``recipient``, one batched proof; ``None`` for
        no slot.

        Raises:
            DeckUsageError: a slot without a request for ``recipient``.
        """
        slot_list = list(slots)
        for slot in slot_list:
            self.hidden(slot)
            reveal = self.reveals.get((slot, recipient))
            if reveal is None or not reveal.requested:
                raise DeckUsageError(f"no reveal of slot {slot} to {recipient} was requested")
            if slot in self.withheld:
                raise DeckUsageError(f"slot {slot} is out of play: its shares are withheld")
        if not slot_list:
            return None
        message = self._prove(slot_list, recipient)
        for item in message.shares:
            reveal = self.reveals[(item.slot, recipient)]
            reveal.sent = True
            if recipient == PUBLIC:
                reveal.shares[self.seat] = item
                reveal.batches[self.seat] = message
                self._complete(item.slot, PUBLIC)
        return message

    def check_batch(
        self,
        message: SharesMessage,
        sender: Seat,
        key: Point | None = None,
        recipient: int | None = None,
    ) -> None:
        """Check a batch of shares by ``message.seat`` sent or forwarded by ``sender``: every
        slot known (dropped ones too), the author at the table, the batched proof (against
        ``key`` and ``recipient`` when given: rescue shares). A batch already checked here is
        not checked again (an opening forwards the same batch as earlier ones).

        Raises:
            ProtocolViolationError: an unknown slot, or an author not at the table.
            ProofError: the proof does not verify (names the author).
        """
        author = message.seat
        for item in message.shares:
            if item.slot not in self.bases:
                raise ProtocolViolationError(
                    f"seat {sender} sent a share for slot {item.slot}, which is not in the deck",
                    seat=sender,
                    epoch=self._current_epoch(),
                )
        if author not in self.present:
            raise ProtocolViolationError(
                f"seat {sender} sent shares by seat {author}, who is not at the table",
                seat=sender,
                epoch=self._current_epoch(),
            )
        proven_key = self._keys[author] if key is None else key
        proven_for = message.recipient if recipient is None else recipient
        if message.proof is None:
            raise ProtocolViolationError(
                f"seat {sender} sent shares by seat {author} without a proof",
                seat=sender, epoch=self._current_epoch(),
            )
        marker = self._marker(message, proven_for, proven_key)
        if marker in self._checked:
            return
        items = [(s.slot, self.bases[s.slot][1], s.share) for s in message.shares]
        epoch = max(self.bases[s.slot][0] for s in message.shares)
        check_shares(self._context(epoch, author), proven_key, items, proven_for, message.proof)
        self._checked.add(marker)

    def accept_shares(self, sender: Seat, message: SharesMessage) -> None:
        """Check every share of ``message`` (one batched proof), then record them all (or
        none). An identical repeat, or a message whose every slot is public already, changes
        nothing.

        Raises:
            ProtocolViolationError: addressed to another seat, or an unknown slot.
            ProofError: the batched decryption share proof fails.
        """
        recipient = message.recipient
        if recipient not in (PUBLIC, self.seat) or recipient == sender:
            raise ProtocolViolationError(
                f"seat {sender} sent this seat shares addressed to {recipient}",
                seat=sender,
                epoch=self._current_epoch(),
            )
        fresh: list[Share] = []
        for item in message.shares:
            reveal = self.reveals.get((item.slot, recipient))
            known = None if reveal is None else reveal.shares.get(sender)
            state = self.slots.get(item.slot)
            if state is None and item.slot in self.bases:
                # A slot a completed shuffle dropped since: private shares travel beside the
                # log, so an honest sender may have sealed them before the epoch ended there.
                continue  # too late to matter (found by the adversary campaign)
            if state is None:
                raise ProtocolViolationError(
                    f"seat {sender} sent a share for slot {item.slot}, which is not in the deck",
                    seat=sender,
                    epoch=self._current_epoch(),
                )
            if (known is not None and known.share == item.share) or state.public:
                continue  # a repeat, or too late to matter
            fresh.append(item)
        if not fresh:
            return
        self.check_batch(message, sender)
        for item in fresh:
            reveal = self.reveals.setdefault((item.slot, recipient), RevealProgress())
            reveal.shares[sender] = item
            reveal.batches[sender] = message
        for item in fresh:
            self._complete(item.slot, recipient)

    def _complete(self, slot: SlotId, recipient: Seat) -> None:
        reveal = self.reveals.get((slot, recipient))
        state = self.slots[slot]
        if reveal is None or not reveal.requested or state.public:
            return
        shares = [s.share for s in reveal.shares.values()]
        if recipient == PUBLIC and len(shares) == len(self.present):
            state.card, state.public = self._decrypt(state.ciphertext, shares), True
            self._events.append(CardRevealed(slot, state.card))
        elif (
            recipient == self.seat and state.card is None and len(shares) == len(self.present) - 1
        ):
            own = state.ciphertext.b * self._secret
            state.card = self._decrypt(state.ciphertext, [*shares, own])
            self._events.append(CardLearned(slot, state.card))

    def _decrypt(self, ciphertext: Ciphertext, shares: list[Point]) -> int:
        point = decrypt_with_shares(ciphertext, shares)
        card = card_lookup(self.params.game_id, self.params.n_cards).get(point.encode())
        if card is None:  # pragma: no cover - impossible once every proof verified
            raise DeckError("a decryption gave no card: the deck is corrupt")
        return card

    # -----------------------------------------------------------------------------------------
    # A seat leaving for good.

    def leave_slots(self, hand: Iterable[SlotId]) -> tuple[SlotId, ...]:
        """The hidden slots a leaver must strip its layer from: every hidden slot not in
        ``hand`` (the leaver's own hand, which goes out of play unopened), ascending."""
        out = set(hand)
        return tuple(
            sorted(s for s, state in self.slots.items() if not state.public and s not in out)
        )

    def make_leave(self, hand: Iterable[SlotId]) -> SharesMessage:
        """This seat's decryption shares of :meth:`leave_slots` (recipient ``PUBLIC``, one
        batched proof; no proof when there is none): with them every other seat strips this
        seat's layer."""
        return self._prove(self.leave_slots(hand), PUBLIC)

    def check_leave(
        self,
        sender: Seat,
        message: SharesMessage,
        hand: Iterable[SlotId],
        proven: tuple[Point, int] | None = None,
    ) -> None:
        """Check a leave message: public shares by ``sender`` of exactly :meth:`leave_slots`,
        with their batched proof (with ``proven = (S, recipient)``: rescue shares, proven
        against the escrow commitment ``S`` for that recipient value instead of the sender's
        key share).

        Raises:
            ProtocolViolationError: another recipient, another seat's shares, or not exactly
                the hidden slots outside the leaver's hand.
            ProofError: the batched decryption share proof fails.
        """
        epoch = self._current_epoch()
        expected = self.leave_slots(hand)
        got = tuple(item.slot for item in message.shares)
        if message.recipient != PUBLIC or message.seat != sender:
            raise ProtocolViolationError(
                f"seat {sender} left with shares that are not its own public shares",
                seat=sender, epoch=epoch,
            )
        if got != expected:
            missing = sorted(set(expected) - set(got))[:5]
            extra = sorted(set(got) - set(expected))[:5]
            raise ProtocolViolationError(
                f"seat {sender} left with shares of the wrong slots (missing {missing}, "
                f"not wanted {extra}, or out of order)",
                seat=sender, epoch=epoch,
            )
        if not got:
            return
        if proven is None:
            self.check_batch(message, sender)
        else:
            self.check_batch(message, sender, proven[0], proven[1])

    def make_rescue(
        self, part: int, commitment: Point, recipient: int, hand: Iterable[SlotId]
    ) -> SharesMessage:
        """This seat's rescue shares: ``part*b`` for every slot of :meth:`leave_slots`, one
        batched proof against the escrow ``commitment = part*G`` for ``recipient``."""
        message = self._prove(self.leave_slots(hand), recipient, part, commitment)
        return SharesMessage(message.seat, PUBLIC, message.shares, message.proof)

    def strip(self, seat: Seat, shares: Mapping[SlotId, Point], hand: Iterable[SlotId]) -> None:
        """Apply a checked leave or rescue: remove ``seat``'s layer from every slot of
        ``shares`` (its decryption share ``D`` of the slot: ``a - D``; the decryption shares of
        the others stay valid, ``b`` is unchanged), drop its hand's slots (out of play, never
        opened) and every reveal addressed to it, forget its shares, and finish the reveals
        that now have every share they need."""
        for slot, share in shares.items():
            state = self.slots[slot]
            state.proven = state.bound
            state.ciphertext = Ciphertext(state.ciphertext.a - share, state.ciphertext.b)
        for slot in set(hand):
            self.slots.pop(slot, None)
        self.present.remove(seat)
        self.reveals = {
            key: reveal for key, reveal in self.reveals.items()
            if key[0] in self.slots and key[1] != seat
        }
        for reveal in self.reveals.values():
            reveal.shares.pop(seat, None)
            reveal.batches.pop(seat, None)
        for slot, recipient in list(self.reveals):
            self._complete(slot, recipient)

    # -----------------------------------------------------------------------------------------
    # Opening a card the holder knows.

    def make_open(self, slot: SlotId) -> OpenMessage:
        """Open a card this seat holds: its own share of the slot, freshly proven, and the
        batch each other seat's share came in; the slot is public afterwards.

        Raises:
            DeckUsageError: this seat does not know the card or lacks some seat's share.
        """
        state = self.slots.get(slot)
        if state is None or state.card is None or not self.can_open(slot):
            raise DeckUsageError(f"seat {self.seat} cannot open slot {slot}")
        own = self._prove([slot], self.seat)
        received = self.reveals[(slot, self.seat)].batches
        batches = sorted([own, *received.values()], key=_by_seat)
        state.public = True
        self._events.append(CardOpened(slot, state.card, self.seat))
        return OpenMessage(self.seat, slot, state.card, tuple(batches))

    def accept_open(self, sender: Seat, message: OpenMessage) -> None:
        """Check an opening: per seat one proven batch for the opener holding its share of
        the slot, the shares decrypting to the claimed card.

        Raises:
            ProtocolViolationError: not a hidden slot, or the wrong set of batches.
            ProofError: ``OPENING`` failed: a batch is invalid (the opener vouched for it) or
                the card is not the one in the slot.
        """
        state = self.slots.get(message.slot)
        epoch = self._current_epoch() if state is None else state.epoch

        def violation(problem: str) -> ProtocolViolationError:
            text = f"seat {sender} opened slot {message.slot} {problem}"
            return ProtocolViolationError(text, seat=sender, epoch=epoch)

        if state is None or state.public:
            raise violation("which is not a hidden slot")
        seats = sorted(b.seat for b in message.batches)
        if seats != self.present:
            raise violation(f"with the shares of seats {seats}")
        shares: list[Point] = []
        for batch in message.batches:
            found = [s.share for s in batch.shares if s.slot == message.slot]
            if batch.recipient != sender or len(found) != 1:
                raise violation("with the shares of another slot")
            shares.append(found[0])
        for batch in message.batches:
            try:
                self.check_batch(batch, sender)
            except ProofError as exc:
                raise ProofError(OPENING, str(exc), seat=sender, epoch=epoch) from None
        point = decrypt_with_shares(state.ciphertext, shares)
        points = card_points(self.params.game_id, self.params.n_cards)
        if not 0 <= message.card < len(points) or point != points[message.card]:
            raise ProofError(
                OPENING,
                f"slot {message.slot} does not hold card {message.card}",
                seat=sender,
                epoch=epoch,
            )
        state.card, state.public = message.card, True
        self._events.append(CardOpened(message.slot, message.card, sender))


def _by_seat(batch: SharesMessage) -> Seat:
    return batch.seat
