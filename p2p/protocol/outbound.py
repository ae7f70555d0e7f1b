"""What this seat appends and sends: the chance requests started, the entries it owes (key,
shuffle, shares, opening, move) and the private shares it owes. Part of
:class:`~lancards.p2p.protocol.core.GameCore`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from lancards.engine.core import (
    CHANCE,
    EngineError,
    RandomInt,
    RandomIntRequest,
    RevealRequest,
    Seat,
    ShuffleRequest,
    SlotId,
)
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.protocol.core_parts import CoreParts, DeferredProofError, Persist
from lancards.p2p.protocol.inbound import SHARES_PURPOSE
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.sealed import seal


def joint_random(table: str, joint_key: bytes, counter: int, n: int) -> int:
    """A joint random integer in ``range(n)`` (the first dealer).

    Every seat committed to its key share before any was revealed, so no seat chooses the joint
    key alone; the value is ``SHA-256(tag, table, joint key, counter) mod n`` (bias below
    ``n / 2**256``).
    """
    digest = hashlib.sha256(
        b"lancards/v1/random\x00" + table.encode() + joint_key + counter.to_bytes(4, "big")
    ).digest()
    return int.from_bytes(digest, "big") % n


class Outbound(CoreParts):
    """Producing this seat's entries and private shares (see the module docstring)."""

    # -----------------------------------------------------------------------------------------
    # Producing this seat's entries.

    def _prepare_chance(self) -> None:
        """Start what the engine's chance request needs (idempotent; the same on every peer)."""
        while self.deck.joint_key is not None and self.game.to_act(self._state) == CHANCE:
            request = self.game.chance_request(self._state)
            if isinstance(request, RandomIntRequest):
                assert self.deck.joint_key is not None
                value = joint_random(self.table_id, self.deck.joint_key.encode(),
                                     self._random_counter, request.n)
                self._random_counter += 1
                present = [s for s in range(self.n) if s not in self.game.left_seats(self._state)]
                if request.purpose == "first dealer" and len(present) == request.n:
                    # A game that follows another names its first dealer (ruling L8-17).
                    chosen = self.table.spec.options.get("dealer")
                    if isinstance(chosen, int) and not isinstance(chosen, bool):
                        after = [s for s in present if s >= chosen] or present
                        value = present.index(after[0])  # passed on if that seat left
                    self.first_dealer = present[value]
                self._state = self._engine(RandomInt(value, request.n))
                self._after_engine_change()
                continue
            if isinstance(request, ShuffleRequest):
                key = (request.first_new_slot, *request.slots)
                if self._epoch_begun_for != key:
                    self._epoch_begun_for = key
                    # Slots the deck never saw hold the canonical deck face up: the first
                    # deck in slots 0.., and (8s Rule! after a leave, ruling D-1) a fresh one
                    # in slots base + i; card index = slot mod deck size.
                    size = len(self.faces)
                    unseen = {
                        s: s % size for s in request.slots
                        if self.deck.card(s) is None and self.deck.ciphertext(s) is None
                        and (s < size or self.game.identity(self._state, s) == self.faces[s % size])
                    }
                    self.deck.begin_shuffle(request.slots, request.first_new_slot, unseen,
                                            abandon_reveals=True)
                    if self.pipeline and not self._replaying:
                        # The offline phase while the seats before this one shuffle
                        # (never in a replay: a restored peer draws nothing it did not).
                        self.deck.prepare_shuffle()
                    self.progress = self._shuffle_progress(None, "waiting")
            elif (
                isinstance(request, RevealRequest)
                and self._holder(request.slot) is None
                and request.slot not in self._requested
            ):
                self._requested.add(request.slot)
                self.deck.request_public([request.slot])
            return

    def _advance(self) -> None:
        """Append every entry this seat owes now, and send the private shares it owes."""
        while not self._halted and not self._replaying and not self.syncing:
            if self.deck.checks_due:
                # An epoch completed with proofs of shuffle unchecked: none of its cards'
                # shares may leave before they are. A node checks them while idle (its
                # last shuffle entry leaves first); other drivers check them here.
                if self.checks_when_idle:
                    return
                try:
                    self._check_epoch_proofs()
                except DeferredProofError as exc:
                    self._deferred_failed(exc)
                    return
                self._take_deck_events()
            self._send_owed_private()
            self._prepare_chance()
            expected = self._writing_turn()
            if expected is None or expected[0] != self.seat:
                return
            kind = expected[1]
            if (self._leaving or kind is EntryKind.RESCUE) and self.deck.deferred_proofs:
                # A leave or a removal may abandon the running epoch, whose unchecked proofs
                # would then be dropped: every proof is checked first (issue 23, 8).
                self._verify_deferred(None)
                if self._halted:
                    return
            payload = self._make_payload(kind)
            if payload is None:
                return
            digest = self.state_hash()
            entry = self.record.next_entry(self.me, payload, digest)
            self.record.append(entry)
            self._out.append(Persist("entry", entry.to_dict()))
            self._send(None, "record.entry", {"entry": entry.to_dict()})
            self._agree.settled(entry.seq, entry.hash)

    def _owes_private(self, slot: SlotId) -> bool:
        return (not self.deck.is_public(slot) and self.deck.ciphertext(slot) is not None
                and not self.deck.is_withheld(slot))

    def _send_shares(self, recipient: Seat, slots: Sequence[SlotId]) -> None:
        """Seal this seat's decryption shares of ``slots`` to ``recipient`` and send them.

        Called from :meth:`_advance` (the debts) and on a peer's ``record.sync`` (a resend).
        While a completed epoch's proofs of shuffle are unchecked (:attr:`deck.checks_due`) no
        share may be made: with :attr:`checks_when_idle` (or on a halted table) nothing is sent
        now (the debts go out from :meth:`_advance` once the idle checks pass); otherwise the
        proofs are checked here, and a bad one names its prover and halts (issue 23,
        situation 4: a ``record.sync`` made the deck's check raise out of ``receive``)."""
        if self.deck.checks_due:
            if self._halted is not None or self.checks_when_idle:
                return
            try:
                self._check_epoch_proofs()
            except DeferredProofError as exc:
                self._deferred_failed(exc)
                return
            self._take_deck_events()
        message = self.deck.make_shares(recipient, slots)
        if message is None:
            return
        plaintext = json.dumps(message, sort_keys=True, separators=(",", ":")).encode()
        payload = seal(self.me, self.players[recipient], self.table_id, SHARES_PURPOSE, plaintext,
                       random_bytes=self._random)
        self._send(self.players[recipient].public_key, "sealed", {"payload": payload.to_dict()})

    def _send_owed_private(self) -> None:
        for debt in self.deck.debts():
            if debt.kind == "shares" and debt.seat == self.seat and debt.recipient is not None \
                    and debt.recipient not in (PUBLIC, self.seat):
                self._send_shares(debt.recipient, debt.slots)

    def _make_payload(self, kind: EntryKind) -> dict[str, Any] | None:
        if kind is EntryKind.RESCUE:
            return self._make_rescue()
        if self._leaving:
            return self._make_leave()
        if kind is EntryKind.ESCROW:
            return self._make_escrow()
        if kind is EntryKind.KEY:
            debts = [d for d in self.deck.debts() if d.seat == self.seat]
            if not debts:
                return None
            if debts[0].kind == "key_commit":
                message = self.deck.make_key_commit()
            else:
                message = self.deck.make_key_reveal()
            self._take_deck_events()
            return {"t": EntryKind.KEY.value, "msg": message}
        if kind is EntryKind.SHUFFLE:
            self.progress = self._shuffle_progress(self.seat, "proving")
            message = self.deck.make_shuffle()
            self._take_deck_events()
            return {"t": EntryKind.SHUFFLE.value, "msg": message}
        if kind is EntryKind.SHARES:
            shares = self.deck.make_shares(PUBLIC)
            if shares is None:
                return None
            self._take_deck_events()
            return {"t": EntryKind.SHARES.value, "msg": shares}
        if kind is EntryKind.OPEN:
            request = self.game.chance_request(self._state)
            assert isinstance(request, RevealRequest)
            if not self.deck.can_open(request.slot):
                return None
            message = self.deck.make_open(request.slot)
            self._take_deck_events(opened_ok=True)
            return {"t": EntryKind.OPEN.value, "msg": message}
        return self._make_action()

    def _make_action(self) -> dict[str, Any] | None:
        action = self._pending
        if action is None or not self.hand_ready():
            return None
        self._pending = None
        try:  # the move was checked when it was submitted, but entries taken since (a leave
            self.game.check(self._state, action)  # that took the shown card it names) may
        except EngineError as exc:  # have changed the table: dropped, the seat chooses again
            self._notice("info", f"this seat's move {action} no longer fits the table: {exc}",
                         self.seat, code="move-dropped")
            return None
        before = self.game.knowledge(self._state)
        state = self.game.apply(self._state, action)
        opens = [
            self.deck.make_open(slot)
            for slot in self._revealed(before, self.game.knowledge(state))
            if not self.deck.is_public(slot)
        ]
        self.deck.take_events()
        self._state = state
        self._after_engine_change()
        move = self.game.format_action(self.game.public_action(action))
        return {"t": EntryKind.ACTION.value, "a": move, "open": opens}


__all__ = ["Outbound", "joint_random"]
