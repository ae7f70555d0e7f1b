"""The deck coordinator: one peer's sans-I/O state machine of the mental-poker deck.

Each peer runs one :class:`DeckCoordinator` for its seat. The peer layer feeds it every message
it receives (:meth:`~DeckCoordinator.accept`), asks it for the messages this seat must send
(``make_*``), tells it what the engine wants (:meth:`~DeckCoordinator.begin_shuffle`,
:meth:`~DeckCoordinator.request_private`, :meth:`~DeckCoordinator.request_public`) and drains
what happened (:meth:`~DeckCoordinator.take_events`). It never touches a socket, a clock or a
global random generator: every random input comes from the ``random_bytes`` callable.

The steps (``docs/mental-poker.md`` has the whole protocol):

1. Joint key (epoch 0, :mod:`lancards.p2p.crypto.keygen`): every seat sends ``key_commit``; once all
   commitments are in, every seat sends ``key_reveal``.
2. Shuffle epochs 1, 2, ...: for an engine ``ShuffleRequest`` every peer calls
   ``begin_shuffle``; seats 0, 1, ... in turn send a proven re-encryption shuffle of the
   current list. When the last one verifies, output ``i`` becomes slot ``first_new_slot + i``.
3. Reveals (the mixin :class:`~lancards.p2p.crypto.reveals.Reveals`): a private reveal (deal,
   draw) makes every other seat owe the holder a decryption share, sent to the holder alone; a
   public reveal makes every seat owe a public share. A holder may later open a card it knows
   (``make_open``) with its own share and the others'.

Every message is checked when it arrives; a failure raises a
:class:`~p2p.crypto.errors.PeerFaultError` naming the seat at fault and the epoch, and leaves
the coordinator's state unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from lancards.p2p.crypto.deck import (
    Debt,
    DeckEvent,
    EpochAbandoned,
    EpochComplete,
    KeyReady,
    Seat,
    ShuffleVerified,
    SlotId,
    TableParams,
)
from lancards.p2p.crypto.departures import Departures
from lancards.p2p.crypto.elgamal import (
    Ciphertext,
    card_points,
    open_encryption,
)
from lancards.p2p.crypto.errors import (
    DeckUsageError,
    InvalidMessageError,
    ProtocolViolationError,
)
from lancards.p2p.crypto.group import ORDER, Point, RandomBytes, point_sum, random_scalar
from lancards.p2p.crypto.keygen import KeyPhase
from lancards.p2p.crypto.messages import (
    KeyCommit,
    KeyReveal,
    Message,
    SharesMessage,
    ShuffleMessage,
    decode_message,
    encode_message,
)
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.crypto.reveals import Reveals
from lancards.p2p.crypto.shuffle import (
    PreparedShuffle,
    check_shuffle_proof,
    finish_shuffle,
    prepare_shuffle,
)
from lancards.p2p.crypto.slots import OPENING, SlotTable
from lancards.p2p.crypto.transcript import ProofContext

__all__ = ["OPENING", "DeckCoordinator"]


@dataclass(slots=True)
class _Epoch:
    number: int
    input_slots: tuple[SlotId, ...]
    first_new_slot: SlotId
    current: list[Ciphertext]
    turn: Seat = 0


@dataclass(frozen=True, slots=True)
class _Unchecked:
    """A shuffle taken in before its proof was checked (pipelining), with what checking it
    needs: its epoch, prover, inputs and the joint key it re-encrypted under."""

    epoch: int
    prover: Seat
    inputs: list[Ciphertext]
    message: ShuffleMessage
    joint_key: Point


OBSERVER = -2
"""The seat of an auditor: it verifies every message of the log and makes none."""


class DeckCoordinator(Reveals, Departures):
    """The mental-poker deck as seen by one seat.

    Args:
        params: the table's parameters (the same at every peer).
        seat: this peer's seat.
        random_bytes: the source of every random input (``secrets.token_bytes`` in play, a
            :class:`~lancards.p2p.crypto.group.SeededRandomBytes` in tests).
        secret_key: this seat's key share ``x`` when restoring after a restart; a new one is
            drawn when omitted. The peer layer must store it durably before sending anything.

    Raises:
        DeckUsageError: the seat is not at the table or the secret key is out of range.
    """

    def __init__(
        self,
        params: TableParams,
        seat: Seat,
        random_bytes: RandomBytes,
        *,
        secret_key: int | None = None,
    ) -> None:
        if seat == OBSERVER:
            secret_key = 1  # an auditor verifies; it never makes a share
        elif not 0 <= seat < params.n_seats:
            raise DeckUsageError(f"seat {seat} is not at a table of {params.n_seats}")
        if secret_key is not None and not 0 < secret_key < ORDER:
            raise DeckUsageError("the secret key must be in 1..n-1 (n the group order)")
        self.params = params
        self.seat = seat
        self._random = random_bytes
        self._secret = secret_key if secret_key is not None else random_scalar(random_bytes)
        self._keys = KeyPhase(params, seat, self._secret, random_bytes)
        self._epoch_number = 0
        self._epoch: _Epoch | None = None
        self._unchecked: list[_Unchecked] = []  # oldest first
        self._prepared: tuple[int, PreparedShuffle] | None = None  # (epoch, offline phase)
        self._escrow: dict[Seat, dict[Seat, Point]] = {}  # dealer -> holder -> part commitment
        self._parts: dict[Seat, int] = {}  # dealer -> this seat's part of its key share
        # vanished -> sender -> its rescue share of each slot
        self._rescue: dict[Seat, dict[Seat, dict[SlotId, Point]]] = {}
        self._events: list[DeckEvent] = []
        self._table = SlotTable(
            params,
            seat,
            self._secret,
            self._keys.keys,
            random_bytes,
            self._events,
            self._current_epoch,
            partial(self.check_deferred, due_only=True),  # no share before the proofs
        )

    # -----------------------------------------------------------------------------------------
    # Queries.

    @property
    def secret_key(self) -> int:
        """This seat's key share ``x`` (store it durably; never send it)."""
        return self._secret

    @property
    def joint_key(self) -> Point | None:
        """The joint public key once every key share verified, else ``None``: the sum of the
        key shares of the seats still present (:attr:`present`)."""
        joint = self._keys.joint_key
        if joint is None or len(self._table.present) == self.params.n_seats:
            return joint
        return point_sum(self._keys.keys[s] for s in self._table.present)

    @property
    def present(self) -> tuple[Seat, ...]:
        """The seats whose key shares encrypt the deck, ascending (every seat until one
        leaves; :meth:`make_leave`, :meth:`accept_leave`)."""
        return tuple(self._table.present)

    @property
    def epoch(self) -> int:
        """The current epoch: 0 during the joint-key phase, then the last shuffle epoch."""
        return self._epoch_number

    def _current_epoch(self) -> int:
        return self._epoch_number  # a bound method, not a lambda: the deck can be pickled

    def take_events(self) -> list[DeckEvent]:
        """Every event since the last call, in order."""
        events = list(self._events)
        self._events.clear()
        return events

    def shuffle_turn(self) -> Seat | None:
        """The seat whose shuffle the running epoch waits for, or ``None`` if none runs."""
        return None if self._epoch is None else self._epoch.turn

    def shuffle_input(self) -> list[Ciphertext]:
        """The list the next shuffle of the running epoch takes (empty if none runs)."""
        return [] if self._epoch is None else list(self._epoch.current)

    def ciphertext(self, slot: SlotId) -> Ciphertext | None:
        """The ciphertext of a hidden slot, or ``None`` (unknown or public)."""
        state = self._table.slots.get(slot)
        return None if state is None or state.public else state.ciphertext

    def hidden_slots(self) -> tuple[SlotId, ...]:
        """Every slot the deck holds hidden (not public), ascending."""
        return tuple(sorted(s for s, state in self._table.slots.items() if not state.public))

    def card(self, slot: SlotId) -> int | None:
        """The card in ``slot`` if this seat knows it (public, or revealed to us), else ``None``."""
        state = self._table.slots.get(slot)
        return None if state is None else state.card

    def is_public(self, slot: SlotId) -> bool:
        """True once ``slot`` was revealed publicly or opened."""
        state = self._table.slots.get(slot)
        return state is not None and state.public

    def can_open(self, slot: SlotId) -> bool:
        """True if this seat knows the hidden card in ``slot`` and holds every other share."""
        return self._table.can_open(slot)

    def as_replayed(self) -> None:
        """Forget what a replay of the journal does not rebuild (a checkpointed deck made what
        the replay would have made it, :func:`lancards.p2p.protocol.checkpoint.load`): this
        seat's private shares (sealed to one holder) travel beside the record, unjournaled,
        so they count as not sent and a restored seat sends them again; an offline shuffle
        phase prepared ahead is dropped (a replay prepares none; the next is drawn anew)."""
        for (_slot, recipient), reveal in self._table.reveals.items():
            if recipient != PUBLIC:
                reveal.sent = False
        self._prepared = None

    def debts(self) -> list[Debt]:
        """What is owed by whom, as far as this seat can know, sorted.

        Key and shuffle debts are known to all. Shares owed to a holder other than this seat
        travel privately and only the holder sees them arrive, so they are listed only for
        this seat's own debts; shares owed to this seat and public shares are listed for all.
        """
        if self.joint_key is None:
            return self._keys.debts()
        debts: list[Debt] = []
        if self._epoch is not None:
            debts.append(Debt(self._epoch.turn, "shuffle", self._epoch.number))
        debts.extend(self._table.share_debts())
        return debts

    def _context(self, epoch: int, seat: Seat) -> ProofContext:
        return ProofContext(self.params.game_id, self.params.table_id, epoch, seat)

    # -----------------------------------------------------------------------------------------
    # Joint key (epoch 0).

    def make_key_commit(self) -> Message:
        """This seat's ``key_commit`` message (broadcast)."""
        return encode_message(self._keys.make_commit())

    def make_key_reveal(self) -> Message:
        """This seat's ``key_reveal`` message (broadcast).

        Raises:
            DeckUsageError: not every seat's commitment has arrived yet (revealing earlier
                would let a later peer choose its key after seeing ours).
        """
        message, ready = self._keys.make_reveal()
        self._key_ready(ready)
        return encode_message(message)

    def _key_ready(self, ready: bool) -> None:
        if ready and self.joint_key is not None:
            self._events.append(KeyReady(self.joint_key))

    # -----------------------------------------------------------------------------------------
    # Shuffle epochs.

    def begin_shuffle(
        self,
        slots: Sequence[SlotId],
        first_new_slot: SlotId,
        open_cards: Mapping[SlotId, int] | None = None,
        *,
        abandon_reveals: bool = False,
    ) -> int:
        """Start a shuffle epoch for an engine ``ShuffleRequest`` (every peer calls it).

        The input list has one ciphertext per slot of ``slots``, in that order: the slot's
        ciphertext if it is hidden, the open encryption ``(M_c + PK, G)`` if it is public.

        Args:
            slots: the request's slots (ascending, as the engine gives them), 1 or more.
            first_new_slot: output ``i`` becomes slot ``first_new_slot + i``.
            open_cards: card indexes of slots this coordinator has never seen (the initial
                deck: ``{slot: card}`` in the game's canonical order).
            abandon_reveals: give up unfinished private reveals of input slots instead of
                refusing (the peer layer's choice: a card going back into the deck no longer
                needs revealing, and peers may disagree on whether the last share arrived).

        Returns:
            The new epoch's number.

        Raises:
            DeckUsageError: no joint key yet, an epoch already running, an empty or repeated
                list, an unknown slot, an open card given for a hidden slot or out of range,
                shares still owed for an input slot, or a new slot id already used (now or by an
                earlier slot: ids are never reused).
        """
        joint_key = self.joint_key
        if joint_key is None:
            raise DeckUsageError("cannot shuffle before the joint key is ready")
        if self._epoch is not None:
            raise DeckUsageError(f"epoch {self._epoch.number} is still shuffling")
        if not slots or len(set(slots)) != len(slots):
            raise DeckUsageError(f"cannot shuffle an empty list or repeated slots: {slots!r}")
        open_cards = dict(open_cards or {})
        points = card_points(self.params.game_id, self.params.n_cards)
        inputs: list[Ciphertext] = []
        for slot in slots:
            state = self._table.slots.get(slot)
            card = open_cards.get(slot)
            if card is not None and not 0 <= card < self.params.n_cards:
                raise DeckUsageError(f"slot {slot}: card {card} is not in a deck of {len(points)}")
            if state is not None and not state.public:
                if card is not None:
                    raise DeckUsageError(f"slot {slot} is hidden; its card cannot be given")
                if not abandon_reveals and self._table.pending(slot):
                    raise DeckUsageError(f"shares are still owed for slot {slot}")
                inputs.append(state.ciphertext)
                continue
            if state is not None:
                if card is not None and card != state.card:
                    raise DeckUsageError(f"slot {slot} is public as card {state.card}, not {card}")
                card = state.card
            if card is None:
                raise DeckUsageError(f"slot {slot} is unknown; give its card in open_cards")
            inputs.append(open_encryption(points[card], joint_key))
        new_slots = range(first_new_slot, first_new_slot + len(slots))
        # never reuse an id (an input's or a dropped slot's): a batch of shares proven on the
        # old b may still be forwarded in an opening, and is checked against that b
        clash = [s for s in new_slots if s in self._table.bases]
        if clash or first_new_slot < 0:
            raise DeckUsageError(f"new slot ids {clash[:5] or [first_new_slot]} are not free")
        self._epoch_number += 1
        self._epoch = _Epoch(
            self._epoch_number, tuple(slots), first_new_slot, inputs, self._table.present[0]
        )
        return self._epoch_number

    def prepare_shuffle(self) -> bool:
        """Compute the offline phase of this seat's coming shuffle in the running epoch
        (:func:`~lancards.p2p.crypto.shuffle.prepare_shuffle`), so that :meth:`make_shuffle`
        only does the online phase once the previous shuffle is in. Call it while waiting.

        The random draws are the ones :meth:`make_shuffle` would make, in the same order, so
        calling it or not changes no output for a given random source.

        Returns:
            True if a preparation was made; False when there is nothing to prepare (no epoch,
            this seat has shuffled already or is an observer, or it is prepared already).
        """
        epoch = self._epoch
        joint_key = self.joint_key
        if (epoch is None or joint_key is None or self.seat == OBSERVER or epoch.turn > self.seat
                or (self._prepared is not None and self._prepared[0] == epoch.number)):
            return False
        prepared = prepare_shuffle(self.params.game_id, len(epoch.current), joint_key,
                                   self._random)
        self._prepared = (epoch.number, prepared)
        return True

    def make_shuffle(self) -> Message:
        """This seat's shuffle of the current list, with its proof of shuffle (broadcast).

        Uses the offline phase of :meth:`prepare_shuffle` when it was made, else makes it now.

        Raises:
            DeckUsageError: no epoch running, or not this seat's turn.
        """
        epoch = self._epoch
        joint_key = self.joint_key
        if epoch is None or epoch.turn != self.seat or joint_key is None:
            raise DeckUsageError(f"it is not seat {self.seat}'s turn to shuffle")
        self.prepare_shuffle()
        assert self._prepared is not None and self._prepared[0] == epoch.number
        _, prepared = self._prepared
        self._prepared = None
        outputs, proof = finish_shuffle(
            self._context(epoch.number, self.seat), epoch.current, prepared
        )
        message = ShuffleMessage(self.seat, epoch.number, tuple(outputs), proof)
        self._events.append(ShuffleVerified(epoch.number, self.seat))
        self._advance(epoch, outputs)
        return encode_message(message)

    def _accept_shuffle(
        self, sender: Seat, message: ShuffleMessage, joint_key: Point, defer_proof: bool
    ) -> None:
        epoch = self._epoch
        if epoch is None:
            raise ProtocolViolationError(
                f"seat {sender} sent a shuffle while no shuffle is running",
                seat=sender,
                epoch=message.epoch,
            )
        if message.epoch != epoch.number:
            raise ProtocolViolationError(
                f"seat {sender} sent a shuffle for epoch {message.epoch} in epoch {epoch.number}",
                seat=sender,
                epoch=epoch.number,
            )
        if sender != epoch.turn:
            raise ProtocolViolationError(
                f"seat {sender} shuffled out of turn (seat {epoch.turn} is to shuffle)",
                seat=sender,
                epoch=epoch.number,
            )
        if defer_proof:
            self._unchecked.append(_Unchecked(epoch.number, sender, epoch.current, message,
                                              joint_key))
        else:
            check_shuffle_proof(
                self._context(epoch.number, sender),
                epoch.current,
                message.outputs,
                message.proof,
                joint_key,
            )
            self._events.append(ShuffleVerified(epoch.number, sender))
        self._advance(epoch, list(message.outputs))

    @property
    def deferred_proofs(self) -> int:
        """How many proofs of shuffle taken in with ``defer_proof`` wait for
        :meth:`check_deferred` (of the running epoch or of completed ones)."""
        return len(self._unchecked)

    @property
    def checks_due(self) -> bool:
        """Whether a completed epoch has proofs still unchecked: no decryption share may be
        made until :meth:`check_deferred` has checked them (making one checks them first)."""
        running = None if self._epoch is None else self._epoch.number
        return any(u.epoch != running for u in self._unchecked)

    def check_deferred(self, limit: int | None = None, *, due_only: bool = False) -> int:
        """Check proofs of shuffle taken in with ``defer_proof``, oldest first.

        Args:
            limit: check at most this many (``None``: all of them).
            due_only: only those of completed epochs (:attr:`checks_due`), not the running
                one's (what must be checked before a decryption share is made).

        Returns:
            The number checked.

        Raises:
            ProofError: a proof fails; names the prover and the epoch. No decryption share of
                its epoch's cards can then be made: the peer layer names the prover a cheater
                and halts.
        """
        done = 0
        running = None if self._epoch is None else self._epoch.number
        while self._unchecked and (limit is None or done < limit):
            item = self._unchecked[0]
            if due_only and item.epoch == running:
                break  # the running epoch's (always the newest): not due yet
            check_shuffle_proof(
                self._context(item.epoch, item.prover), item.inputs, item.message.outputs,
                item.message.proof, item.joint_key,
            )
            self._unchecked.pop(0)
            self._events.append(ShuffleVerified(item.epoch, item.prover))
            done += 1
        return done

    def _advance(self, epoch: _Epoch, outputs: list[Ciphertext]) -> None:
        epoch.current = outputs
        later = [s for s in self._table.present if s > epoch.turn]
        epoch.turn = later[0] if later else self.params.n_seats
        self._complete_if_done(epoch)

    def _complete_if_done(self, epoch: _Epoch) -> None:
        if epoch.turn < self.params.n_seats or self._epoch is not epoch:
            return
        new_slots = self._table.replace(
            epoch.input_slots, epoch.first_new_slot, epoch.current, epoch.number
        )
        self._epoch = None
        self._events.append(EpochComplete(epoch.number, new_slots))

    def _abandon_epoch(self, seat: Seat) -> None:
        """``seat`` leaves: a running epoch stops (its input slots are still there)."""
        epoch = self._epoch
        if epoch is not None:
            self._epoch = None
            self._events.append(EpochAbandoned(epoch.number, seat))
            # Its shuffles are dropped unused: their proofs no longer matter.
            self._unchecked = [u for u in self._unchecked if u.epoch != epoch.number]
        self._prepared = None

    # -----------------------------------------------------------------------------------------
    # Input.

    def accept(self, sender: Seat, value: Any, *, defer_proof: bool = False) -> None:
        """Check and apply one message from ``sender`` (the seat the peer layer authenticated).

        Messages must arrive in the order of the shared log; a private ``shares`` message
        must come after the log entries before it. Read the results with :meth:`take_events`.
        On any error the state is unchanged.

        With ``defer_proof``, a shuffle's proof of shuffle is not checked yet: its output
        becomes the next shuffler's input at once (pipelining; ``docs/mental-poker.md``,
        "Pipelined shuffles"), and :meth:`check_deferred` checks it later. The epoch does not
        complete, so no decryption share of its cards can be made, until every proof of the
        epoch has been checked.

        Raises:
            InvalidMessageError: the message is malformed (names ``sender``).
            ProtocolViolationError: the message is not allowed now (names ``sender``).
            ProofError: a proof fails (names the proof, the prover and the epoch).
            DeckUsageError: ``sender`` is not at the table.
        """
        if not 0 <= sender < self.params.n_seats:
            raise DeckUsageError(f"seat {sender} is not at the table")
        if sender not in self._table.present:
            raise ProtocolViolationError(
                f"seat {sender} sent a deck message after leaving the table",
                seat=sender,
                epoch=self._epoch_number,
            )
        size = None if self._epoch is None else len(self._epoch.current)
        try:
            message = decode_message(value, sender, shuffle_size=size)
        except InvalidMessageError as exc:
            exc.epoch = self._epoch_number  # the epoch in which it arrived
            raise
        if message.seat != sender:
            raise ProtocolViolationError(
                f"seat {sender} sent a message in the name of seat {message.seat}",
                seat=sender,
                epoch=self._epoch_number,
            )
        if isinstance(message, KeyCommit):
            self._keys.accept_commit(sender, message)
            return
        if isinstance(message, KeyReveal):
            self._key_ready(self._keys.accept_reveal(sender, message))
            return
        joint_key = self.joint_key
        if joint_key is None:
            raise ProtocolViolationError(
                f"seat {sender} sent a {value['type']} message before the joint key was ready",
                seat=sender,
                epoch=0,
            )
        if isinstance(message, ShuffleMessage):
            self._accept_shuffle(sender, message, joint_key, defer_proof)
        elif isinstance(message, SharesMessage):
            self._table.accept_shares(sender, message)
        else:
            self._table.accept_open(sender, message)
