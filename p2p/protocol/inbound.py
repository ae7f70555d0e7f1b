"""What arrives from peers: dispatch of verified envelopes, entries (early ones bounded), the
consistent-broadcast acks (:mod:`lancards.p2p.protocol.agreement`), catch-up, evidence and private
shares. Part of :class:`~lancards.p2p.protocol.core.GameCore`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from lancards.engine.core import Seat
from lancards.p2p.crypto.errors import DeckError
from lancards.p2p.protocol.cheat_evidence import keep_cheat, refused_by
from lancards.p2p.protocol.core_parts import (
    EARLY_PER_SENDER,
    FUTURE_PER_AUTHOR,
    FUTURE_WINDOW,
    Persist,
    Send,
)
from lancards.p2p.protocol.errors import (
    EquivocationError,
    LocalProtocolError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.schemas import PrivateShares, conform
from lancards.p2p.protocol.sealed import MAX_PLAINTEXT, SealedPayload, open_sealed
from lancards.p2p.protocol.void import Void
from lancards.p2p.protocol.wire import Envelope, link_envelope, parse_json

REACK_ENTRIES = 64
"""Entries acknowledged again to a peer whose link came back (:meth:`Inbound._ack_again`)."""

SHARES_PURPOSE = "deck.shares"
"""The sealed-payload purpose of private decryption shares."""


class Inbound(Void):
    """Handling what peers send (see the module docstring)."""

    # -----------------------------------------------------------------------------------------
    # Dispatch.

    def _dispatch(self, env: Envelope, link: str) -> None:
        sender_seat = self._seat_of[env.sender]
        body = env.body
        if self._halted is not None and env.type in ("record.entry", "record.ack", "sealed"):
            return  # the table stopped: nothing more is checked against a halted state
        if env.type == "record.entry":
            self._on_entry(env.sender, body["entry"], link)
        elif env.type == "sealed":
            self._on_sealed(sender_seat, body["payload"], link)
        elif env.type == "record.sync":
            self._on_sync(env.sender, body["have"])
        elif env.type == "record.ack":
            self._on_ack(sender_seat, body["seq"], body["hash"])
        elif env.type == "record.evidence":
            found = self.record.add_evidence(body["first"], body["second"], link=link)
            if self._halted is None or found.first.author not in self._cheater_keys():
                self._out.append(Persist("evidence", found.to_line_dict()))
                self._cheat(self._seat_of.get(found.first.author), self._equivocated(found),
                            found.to_line_dict(), "equivocation")
        elif env.type == "record.vote":
            self._on_vote(body, link)
        elif env.type == "record.unvote":
            self._on_unvote(body, link)
        elif env.type == "record.check":
            self._on_check(body["seq"], body["hash"])
        elif env.type == "chat":
            self._notice("chat", body["text"][:200], sender_seat)
        elif env.type == "presence":
            self._on_presence(sender_seat, body)
        elif env.type == "links":
            self._on_links(sender_seat, body["missing"], link)
        else:
            raise RemoteProtocolError(link, Reason.UNKNOWN_TYPE, f"{env.type!r} during a game"
                                      ).with_code("not-in-game", type=env.type)

    def _on_check(self, seq: int, digest: str) -> None:
        """Another peer found a bad proof of shuffle in entry ``seq``: check every proof still
        unchecked now (they are this peer's own checks: a false claim costs the work moved
        earlier, and names nobody)."""
        if self._halted is not None or seq >= len(self.record):
            return
        if self.record.entries[seq].hash == digest and self.deck.deferred_proofs:
            self._verify_deferred(None)
            if not self._halted and not self.deck.checks_due:
                self._advance()

    def _cheater_keys(self) -> set[bytes]:
        return {self.players[s].public_key for s in self.cheaters}

    def _equivocated(self, found: Any) -> str:
        return (f"{self._name(found.first.author)} signed two different entries numbered "
                f"{found.first.seq + 1} (equivocation)")  # counted from 1, as seats

    def _on_sealed(self, sender_seat: Seat, data: Any, link: str) -> None:
        payload = SealedPayload.from_dict(data, link)
        plaintext = open_sealed(self.me, payload, self.players[sender_seat], table=self.table_id,
                                purpose=SHARES_PURPOSE, link=link)
        try:
            message = conform(parse_json(plaintext, link, max_size=MAX_PLAINTEXT),
                              PrivateShares, link, "sealed shares")
        except RemoteProtocolError:
            # Ask again at once: a sender that is honest but garbled resends (bounded).
            self._send(self.players[sender_seat].public_key, "record.sync",
                       {"have": len(self.record)})
            raise
        self._accept_private(sender_seat, message)

    def _on_sync(self, sender: bytes, have: int) -> None:
        seat = self._seat_of[sender]
        self.peer_has[seat] = max(self.peer_has.get(seat, 0), have)
        if self._sync_wait is not None:
            self._sync_wait.discard(seat)
            self._advance()  # the last answer may end the hold (hold_until_synced)
        for number in self._agree.catch_up(seat, have, len(self.record)):
            self._send(sender, "record.entry", {"entry": self.record.entries[number].to_dict()})
        slots = sorted(s for s in self._private_for[seat] if self._owes_private(s))
        if slots and self._agree.may_resend_shares(seat, len(self.record)):
            self._send_shares(seat, slots)

    def _on_ack(self, seat: Seat, seq: int, digest: str) -> None:
        # Every budget below is the acker's own (per seat and number): another seat's acks
        # cannot use it up (issue 23, situation 2).
        if seq < len(self.record):
            mine = self.record.entries[seq]
            if mine.hash == digest and mine.author == self.me.public_key \
                    and mine.payload.get("t") == "leave":
                self._leave_heard.add(seat)  # this seat's leave reached ``seat`` whole
            if mine.hash != digest and self._agree.may_reply(seat, seq):
                self._send(self.players[seat].public_key, "record.entry",
                           {"entry": mine.to_dict()})
            return
        length = len(self.record)
        ask = set(self._agree.hold(seat, seq, digest, length))  # acks disagree: ask each
        if self._agree.ask_gap(seat, seq, length):  # or this peer's copy is missing
            ask.add(seat)
        for other in sorted(ask):
            self._send(self.players[other].public_key, "record.sync", {"have": length})

    def _ack(self, entry: Entry) -> None:
        """Consistent broadcast: tell every seat but the author the hash accepted; a leave's
        author is told too (its window closes once the leave reached the table, without
        waiting for the next player's move: ``docs/protocol.md`` 11.8)."""
        if self._replaying or self.view_seat is None:
            return
        data = link_envelope(self.me, "record.ack", self.table_id,
                             {"seq": entry.seq, "hash": entry.hash}).encode()
        skip = {self.me.public_key}
        if entry.payload.get("t") != "leave":
            skip.add(entry.author)
        for member in self.players:
            if member.public_key not in skip:
                self._out.append(Send(member.public_key, data))

    def send_dropped(self, key: bytes) -> None:
        """A message to ``key`` was never queued (the adapter's queue to it was full, e.g. while
        it slept): what this peer sends a seat at most once per link-up (catch-up entries,
        private shares again) may be sent again at its next ``record.sync``, as after a link-up
        (else the entries dropped would wait for the seat's next link-up). Never raises."""
        seat = self._seat_of.get(key)
        if seat is not None:
            self._agree.link_up(seat)

    def _link_up(self, key: bytes) -> None:
        """A link to seated ``key`` came up: ask it for the entries this peer lacks
        (``record.sync``), acknowledge the recent entries again (:meth:`_ack_again`: the acks
        sent while the link was down were lost with it, so a fork made meanwhile is found once
        the link is back; issue 23, finding F4), send again every piece of evidence this peer
        sent (a halted peer's evidence reaches every peer), and the votes it holds."""
        self._agree.link_up(self._seat_of[key])
        self._presence_back(self._seat_of[key])
        self._send(key, "record.sync", {"have": len(self.record)})
        self._ack_again(key)
        for type_, body in self._told:
            self._send(key, type_, body)
        self._resend_votes(key)

    # -----------------------------------------------------------------------------------------
    # Back from a sleep (issue 24, lids that close).

    def hold_until_synced(self) -> list[Any]:
        """This peer was stopped for a while (a laptop's lid closed; the adapter saw its clock
        jump): until every other seat still at the table has answered a ``record.sync`` and
        the record is as long as each reported, this seat authors no entry (no move, shuffle,
        share or opening) and :meth:`submit` refuses (:attr:`syncing`). Meanwhile the others
        may have voted it out and appended the removal at the very position where this seat
        was due (ruling D-5): an entry of its own there would part its record from theirs for
        good. A ``record.sync`` goes to every seat now (over the links still up; the others
        get one when their link comes back). :meth:`release_hold` ends the wait early (the
        adapter bounds it: a seat gone for good never answers).

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).
        """
        if self.view_seat is not None and not self._halted:
            self._sync_wait = {s for s in self.deck.present if s != self.seat}
            self._send(None, "record.sync", {"have": len(self.record)})
        return self._flush()

    def release_hold(self) -> list[Any]:
        """End :meth:`hold_until_synced` now and author what this seat owes."""
        self._sync_wait = None
        self._advance()
        return self._flush()

    @property
    def syncing(self) -> bool:
        """Whether :meth:`hold_until_synced` still holds this seat's entries: some seat still
        at the table has not answered, or reported a longer record than this one."""
        if self._sync_wait is None:
            return False
        self._sync_wait -= set(self.game.left_seats(self._state))
        present = [s for s in self.deck.present if s != self.seat]
        if self._sync_wait or max((self.peer_has.get(s, 0) for s in present),
                                  default=0) > len(self.record):
            return True
        self._sync_wait = None
        return False

    @property
    def unanswered(self) -> tuple[Seat, ...]:
        """The seats still at the table whose ``record.sync`` :meth:`hold_until_synced` still
        waits for (ascending; empty when not holding)."""
        left = set(self.game.left_seats(self._state))
        return tuple(sorted(s for s in self._sync_wait or () if s not in left))

    def _may_submit(self) -> None:
        """Refuse a move on a halted table or while :attr:`syncing`.

        Raises:
            LocalProtocolError: either (code ``halted`` or ``catching-up``).
        """
        if self._halted:
            raise LocalProtocolError(f"the table is halted: {self._halted}").with_code("halted")
        if self.syncing:
            raise LocalProtocolError("catching up with the table after a pause: a moment"
                                     ).with_code("catching-up")

    def _ack_again(self, key: bytes) -> None:
        """Acknowledge to ``key`` (a link just up) the last :data:`REACK_ENTRIES` entries it did
        not author (its own leave too, :meth:`_ack`): where its copy differs it answers with its
        own entry (``_on_ack``), so two entries of one number meet. A fork older than that
        window was acknowledged over links that stayed up (every honest peer is linked to some
        other by then)."""
        if self._replaying or self.view_seat is None:
            return
        for entry in self.record.entries[-REACK_ENTRIES:]:
            if entry.author != key or entry.payload.get("t") == "leave":
                data = link_envelope(self.me, "record.ack", self.table_id,
                                     {"seq": entry.seq, "hash": entry.hash}).encode()
                self._out.append(Send(key, data))

    def _on_entry(self, sender: bytes, data: Any, link: str) -> None:
        entry = Entry.from_dict(data, link)
        if entry.seq > len(self.record):
            self._hold_future(sender, entry, link)
            return
        if entry.seq == len(self.record) or not self._voided_by(entry, link):
            self._append_remote(entry, link)
        self._drain_future()

    def _drain_future(self) -> None:
        """Take the early entries held that now fit the record."""
        while not self._halted and self._future:
            length = len(self.record)
            for key in sorted(k for k in self._future if k[0] < length):
                # Held, but another entry took its number: compare them.
                held, held_link = self._future.pop(key)
                if held != self.record.entries[key[0]] and not self._halted:
                    self._append_remote(held, held_link)
            due = sorted(k for k in self._future if k[0] == len(self.record))
            if not due:
                break
            entry, link = self._future.pop(due[0])  # the others: compared on the next pass
            self._append_remote(entry, link)

    def _hold_future(self, sender: bytes, entry: Entry, link: str) -> None:
        """Hold an entry that arrived early, checked first; ask the link for the gap. Held
        entries are kept per number *and author*, each author within its own cap, so one
        author's early entries never displace another's."""
        if entry.table != self.table_id or entry.author not in self._seat_of:
            raise RecordError(link, Reason.NOT_SEATED, "an early entry by an unseated author",
                              entry.seq).with_code("early-unseated")
        if not entry.verifies():
            raise RecordError(link, Reason.BAD_SIGNATURE, "an early entry's signature does "
                              "not verify", entry.seq).with_code("early-signature")
        held = self._future.get((entry.seq, entry.author))
        if held is not None and held[0] != entry:
            self._found_equivocation(self.record.add_evidence(held[0], entry, link=link))
            return
        per_author = sum(1 for _, author in self._future if author == entry.author)
        if (held is None and entry.seq < len(self.record) + FUTURE_WINDOW
                and per_author < FUTURE_PER_AUTHOR):
            self._future[(entry.seq, entry.author)] = (entry, link)
        self._send(sender, "record.sync", {"have": len(self.record)})

    def _found_equivocation(self, found: Any) -> None:
        line = found.to_line_dict()
        self._out.append(Persist("evidence", line))
        self._tell_everyone("record.evidence", {"first": found.first.to_dict(),
                                                "second": found.second.to_dict()})
        self._cheat(self._seat_of[found.first.author], self._equivocated(found), line,
                    "equivocation")

    def _append_remote(self, entry: Entry, link: str) -> None:
        if (entry.seq == len(self.record) and self.deck.deferred_proofs
                and entry.payload.get("t") in ("leave", "rescue")):
            # A leave or a removal may abandon the running epoch and drop its unchecked
            # proofs: every proof is checked first, so a bad one names its prover here as at
            # the peers that checked it while idle (issue 23, situation 8).
            self._verify_deferred(None)
            if self._halted:
                return
        try:
            self.record.append(entry, self._validator(link), link=link)
        except EquivocationError:
            self._found_equivocation(self.record.evidence[-1])
            return
        except RecordError as exc:
            if exc.reason in (Reason.REPLAYED, Reason.OUT_OF_ORDER, Reason.BROKEN_CHAIN):
                # A retransmission, or an entry built on another branch of a fork: the fork is
                # found through the acks (p2p.agreement); its author is not at fault.
                return
            author = self._seat_of.get(entry.author)
            signed = author is not None and entry.verifies()
            if (signed and exc.reason in (Reason.BOUND, Reason.NOT_SEATED)
                    and entry.seq == len(self.record) and self.bound() is not None):
                self._hold_bound(entry, link)  # taken once the round is void
                if exc.reason is Reason.BOUND and author is not None:
                    self._round_lacks(author)
            if signed and exc.reason in (Reason.ILLEGAL, Reason.OUT_OF_TURN, Reason.WRONG_STATE,
                                         Reason.MALFORMED):
                if keep_cheat(self.record, entry, exc):  # into the record file's end
                    self._out.append(Persist("cheat-entry", {"entry": entry.to_dict()}))
                self._cheat(author, str(exc), {"entry": entry.to_dict()}, str(exc.reason),
                            refused_by(exc))
                # Every other peer must see it too: it is signed, so it names its author
                # wherever it arrives (at another position it is an equivocation).
                self._tell_everyone("record.entry", {"entry": entry.to_dict()})
            else:
                self._notice("rejected", str(exc), None, error=exc)
            return
        self._out.append(Persist("entry", entry.to_dict()))
        self._ack(entry)
        self._after_append()

    def _round_lacks(self, author: Seat) -> None:
        """An entry by ``author`` (signed, at the position this peer is bound at, on its head)
        was refused because of this peer's own vote. When ``author`` is a remaining seat whose
        vote the round lacks, the round can never complete: an honest seat that appended at a
        position never votes there (its record is past it). So this peer says "no" at once
        (a rescuer's "no" voids the round, and the kept entry is taken; another voter's asks
        the rescuer to), instead of waiting for the vanished seat's link or the round's life.
        Adversary finding F6: a rescuer bound by a vote that only it and the seat voted
        against held, every other peer past that position, waited for ever."""
        mine = self.bound()
        if mine is None:
            return
        seat, rnd = mine
        if author != seat and author in self.deck.present and author not in self.votes_for(seat):
            self._withdraw((seat, len(self.record), self.record.head, rnd))

    def _after_append(self) -> None:
        last = self.record.entries[-1]
        for seat in self._agree.settled(last.seq, last.hash):
            self._send(self.players[seat].public_key, "record.entry", {"entry": last.to_dict()})
        if self._early:
            early, self._early = self._early, []
            for seat, message in early:
                self._accept_private(seat, message)
        self._advance()

    # -----------------------------------------------------------------------------------------
    # Private shares.

    def _accept_private(self, sender: Seat, message: PrivateShares) -> None:
        """Take private shares (schema-checked); hold them (bounded) when the entry that deals
        the cards is still to come; persist them when the deck accepts them."""
        if self.game.left_seats(self._state) and sender in self.game.left_seats(self._state):
            return  # sent before its leave, arrived after: the leave stripped its layer
        slots = [item.slot for item in message.shares]
        if any(s not in self._requested for s in slots):
            if sum(1 for s, _ in self._early if s == sender) < EARLY_PER_SENDER:
                self._early.append((sender, message))
            return
        if all(self.deck.ciphertext(s) is None for s in slots):
            return  # too late: the cards went back into the deck (or are public by now)
        raw = msgspec.to_builtins(message)
        try:
            self.deck.accept(sender, raw)
        except DeckError as exc:
            self._notice("cheat", f"{self.name(sender)} sent a bad private share: {exc}", sender,
                         code="bad-private-share")
            return
        self._out.append(Persist("private", {"from": sender, "payload": raw,
                                             "at": len(self.record)}))
        self._take_deck_events()
        self._advance()


__all__ = ["SHARES_PURPOSE", "Inbound"]
