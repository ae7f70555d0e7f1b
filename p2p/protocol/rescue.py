"""Removing a seat that vanished: the signed votes, their withdrawal, and the rescue entries
(ruling D-5; design "Leaving for good"; ``docs/protocol.md`` 11.10, whose state machine this
is). Part of :class:`~lancards.p2p.protocol.core.GameCore`.

**The vote.** When a peer has waited for a seat ``V`` beyond the table's patience (the node
decides: :meth:`lancards.p2p.net.node.PeerNode.removal_refusal`), it may sign "remove ``V``"
(:meth:`Rescue.vote_remove`): a :class:`~lancards.p2p.protocol.schemas.RemovalVote` bound to the
table, ``V``, the record position it is about (``at`` = the record's length, ``head`` = the hash of
its last entry) and a *round* there, signed with the peer's Ed25519 key over
:func:`~lancards.p2p.protocol.votes.vote_bytes`, sent to every seat as ``record.vote``, journaled,
and relayed once by every peer that keeps it (so it reaches every remaining seat however the links
are). It can only be used in an entry numbered ``at`` whose ``prev`` is ``head``.

**The rescuer decides.** Only the lowest present seat other than ``V`` (its *rescuer* ``R``)
may begin the removal, with every remaining seat's vote of one round. A signed
:class:`~lancards.p2p.protocol.schemas.RemovalWithdrawal` (``record.unvote``, "no") of any seat asks
``R`` to give the round up; ``R``'s own withdrawal *voids* the round: ``R`` never begins the
removal with its votes (a first rescue entry by ``R`` of a round it voided is the evidence that
names ``R``), so no vote of it binds anyone any more. ``R`` voids a round as soon as it holds
anyone's withdrawal of it (unless it began the removal with it). Votes then start again in the
next round (at most :data:`MAX_ROUNDS` per position).

**Bound, not blamed.** A peer holding its own vote of a round not void appends nothing at that
position but the first rescue entry, and refuses every other entry there (``bound-by-vote``;
``V``'s as ``not-seated``, "being voted out"), naming nobody: the entry is kept and taken once
the round is void. So once every remaining seat signed, no honest peer takes anything at ``at``
but the rescue, and a vanished seat coming back mid-vote cannot fork the record. A vote is never
evidence against its signer (a voter may be released by a withdrawal not yet seen here), so a
vote sent to one peer only costs nothing but a wait.

**The rescue.** With every vote of a round in hand, ``R`` appends a ``rescue`` entry at ``at``
in place of whatever was due, carrying the votes and its escrow part applied to every hidden
card outside ``V``'s hand with Chaum-Pedersen proofs
(:meth:`~lancards.p2p.crypto.departures.Departures.make_rescue`); then each other remaining seat,
in seat order, appends its own ``rescue`` entry. When the last is in, ``V``'s layer is stripped
and everything goes on as after a leave (:mod:`lancards.p2p.protocol.departure`).

Checked by every peer and the auditor (a bad one names the entry's author as a cheater, the
entry is not recorded, the table halts): the first rescue entry is by ``R``, about a present
seat other than its author whose key share is escrowed among all the others, at a table where 3
or more remain, with exactly one vote of every remaining seat, all of one round, each bound to
this table, this seat, the entry's number and its ``prev``, each signature valid, of a round
``R`` did not void (as far as the checking peer knows: one that learns of the void later names
``R`` then); a later rescue entry is by the next rescuer, about the same seat, with no votes;
every share proof verifies against the rescuer's escrow commitment.
"""

from __future__ import annotations

from typing import Any

import msgspec

from lancards.engine.core import EngineError, Seat
from lancards.p2p.protocol.core_parts import Notice, Persist
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.rescue_queries import RescueQueries
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.schemas import (
    RecordUnvote,
    RecordVote,
    RemovalVote,
    RemovalWithdrawal,
    RescuePayload,
    conform,
)
from lancards.p2p.protocol.votes import (
    MAX_ROUNDS,
    VOTES_PER_SIGNER,
    VoteKey,
    sign_vote,
    sign_withdrawal,
    vote_problem,
    withdrawal_verifies,
)


class Rescue(RescueQueries):
    """Removal votes, withdrawals and rescue entries (see the module docstring)."""

    def _after_leave(self, seat: Seat, text: str | None = None) -> None:  # pragma: no cover
        raise NotImplementedError

    def has_left(self, seat: Seat) -> bool:  # pragma: no cover - Departure's
        raise NotImplementedError

    def _init_rescue(self) -> None:
        self._votes = {}
        self._voids = {}
        self._withdrew = set()
        self._relayed = set()
        self._held = {}
        self._removing = None
        self._entry_at = (0, "")

    # -----------------------------------------------------------------------------------------
    # Voting and withdrawing.

    def vote_remove(self, seat: Seat) -> list[Any]:
        """This seat signs "remove ``seat``" at the record's current position, in its first
        round not void (ruling D-5): journaled, kept, and sent to every seat. From now on this
        peer appends and takes nothing else at this position until the round is void. Call it
        only when the table has waited for ``seat`` beyond its patience
        (:meth:`PeerNode.vote_remove` checks it).

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).

        Raises:
            LocalProtocolError: an observer or a seat no longer at the table (it left or was
                removed: :attr:`has_say`), this seat itself, :meth:`removal_problem`, a vote
                of this peer here not void yet, or :data:`MAX_ROUNDS` rounds void here.
        """
        if not self.has_say or seat == self.seat:
            raise LocalProtocolError("only another player can be voted out, by a player"
                                     ).with_code("not-another-player")
        problem = self.removal_problem(seat)
        if problem is not None:
            raise LocalProtocolError(problem).with_code(problem.code, **problem.params)
        if self.bound() is not None:
            raise LocalProtocolError("this seat's vote at this position is not void yet"
                                     ).with_code("vote-not-void")
        rnd = self.vote_round(seat)
        if rnd >= MAX_ROUNDS:
            raise LocalProtocolError(f"{MAX_ROUNDS} removal rounds at this position"
                                     ).with_code("max-rounds", rounds=MAX_ROUNDS)
        vote = sign_vote(self.me, self.table_id, seat, len(self.record), self.record.head, rnd)
        self._keep_vote(self.seat, vote)
        self._relayed.add(vote["sig"])
        self._send(None, "record.vote", {"vote": vote})
        self._notice("info", f"this seat voted to remove {self.name(seat)}", seat, code="vote")
        self._advance()
        return self._flush()

    def withdraw_vote(self, seat: Seat) -> list[Any]:
        """This seat says "no" to removing ``seat`` in the current round at this position (it
        withdraws its vote, or refuses to vote): signed, journaled, sent to every seat. When
        this seat is the round's rescuer the round is void at once (and this peer takes what
        waited); otherwise the rescuer voids it on receipt.

        Returns:
            The outputs to carry out.

        Raises:
            LocalProtocolError: an observer or a seat no longer at the table
                (:attr:`has_say`), or this seat itself.
        """
        if not self.has_say or seat == self.seat:
            raise LocalProtocolError("only another player's removal can be refused, by a player")
        self._withdraw((seat, len(self.record), self.record.head, self.vote_round(seat)))
        self._advance()
        return self._flush()

    def _withdraw(self, key: VoteKey) -> None:
        seat, at, head, rnd = key
        if key in self._withdrew or not self.has_say:
            return
        self._withdrew.add(key)
        unvote = sign_withdrawal(self.me, self.table_id, seat, at, head, rnd)
        if at >= len(self.record):  # (a passed position binds nobody here: nothing to keep)
            self._out.append(Persist("unvote", {"unvote": unvote}))
        self._relayed.add(unvote["sig"])
        self._send(None, "record.unvote", {"unvote": unvote})
        if self.rescuer(seat) == self.seat:
            self._void(key, unvote)

    def _void(self, key: VoteKey, unvote: dict[str, Any]) -> None:
        """The rescuer's withdrawal of ``key``'s round: nobody is bound by it any more."""
        if key in self._voids:
            return
        self._voids[key] = unvote
        voters = tuple(sorted(self._votes.pop(key, None) or ()))  # who asked, as this peer saw
        if key[0] in self.deck.present and not self._replaying:
            self._out.append(Notice("info", f"the vote to remove {self.name(key[0])} is void (a "
                                    "player said no, or it outlived its life)", key[0],
                                    code="vote-void", voters=voters))
        self._take_held()

    def _take_held(self) -> None:
        """Take the entries kept while this peer was bound (now free, or passed)."""
        if self.bound() is not None or not self._held or self._replaying:
            return
        held, self._held = self._held, {}
        length = len(self.record)
        for entry, link in held.values():
            if entry.seq == len(self.record) and not self._halted:
                self._append_remote(entry, link)
        self._drain_future()
        if len(self.record) > length and not self._halted:
            # entries later than the kept one may have been refused meanwhile: ask again
            self._send(None, "record.sync", {"have": len(self.record)})

    def _keep_vote(self, signer: Seat, vote: dict[str, Any]) -> None:
        key = (int(vote["seat"]), int(vote["at"]), str(vote["head"]), int(vote["round"]))
        got = self._votes.setdefault(key, {})
        if signer not in got:
            got[signer] = vote
            self._out.append(Persist("vote", {"vote": vote}))

    def _restore_vote(self, line: dict[str, Any]) -> None:
        vote = conform(line["vote"], RemovalVote, "the local record", "vote")
        signer = self._seat_of[bytes.fromhex(vote.by)]
        key = (vote.seat, vote.at, vote.head, vote.round)
        if key not in self._voids:
            self._votes.setdefault(key, {})[signer] = msgspec.to_builtins(vote)

    def _restore_unvote(self, line: dict[str, Any]) -> None:
        unvote = conform(line["unvote"], RemovalWithdrawal, "the local record", "withdrawal")
        signer = self._seat_of[bytes.fromhex(unvote.by)]
        key = (unvote.seat, unvote.at, unvote.head, unvote.round)
        if signer == self.seat:
            self._withdrew.add(key)
        if signer == self.rescuer(unvote.seat):
            self._voids[key] = msgspec.to_builtins(unvote)
            self._votes.pop(key, None)

    def _signer(self, by: str, link: str, what: str) -> Seat | None:
        """The seat that signed a vote or withdrawal; ``None`` (drop it, naming nobody) when
        this peer has no say (:attr:`has_say`) or the signer is a seat that left or was
        removed: its client may still watch, and a stale or relayed signature of it is no
        one's fault (a player who is gone is never blamed on the table for it).

        Raises:
            RemoteProtocolError: ``not-seated``: a key that never had a seat here.
        """
        signer = self._seat_of.get(bytes.fromhex(by))
        if signer is None:
            raise RemoteProtocolError(link, Reason.NOT_SEATED,
                                      f"a removal {what} signed by a peer not at the table"
                                      ).with_code(f"unseated-{what}")
        if signer not in self.deck.present or not self.has_say:
            return None
        return signer

    def _relay(self, type_: str, field: str, value: dict[str, Any], link: str) -> None:
        """Pass a vote or withdrawal on once, to every seat: it reaches every remaining seat
        whichever links are down (the bound is the keeping bound)."""
        if value["sig"] not in self._relayed:
            self._relayed.add(value["sig"])
            self._send(None, type_, {field: value})

    def _on_vote(self, body: Any, link: str) -> None:
        """A removal vote from a peer (it may relay another's). Checked: schema, a seated
        signer still present, not a vote for itself, a seat still present, the signature, this
        table; a vote for a position this peer passed is dropped (its rescuer answers it with
        a void: the voter may be waiting), one too far ahead too, one of a void round is
        answered with the void.

        Raises:
            RemoteProtocolError: ``malformed``, ``not-seated``, ``illegal`` (a vote for
                itself), ``bad-signature``, ``wrong-table`` (names the link that delivered
                it).
        """
        if self._halted is not None:
            return
        vote = conform(body, RecordVote, link, "record.vote").vote
        if vote.sig in self._relayed:
            return  # kept and passed on already (a relayed copy): nothing to check again
        if vote.tbl != self.table_id:
            raise RemoteProtocolError(link, Reason.WRONG_TABLE, f"a vote for table {vote.tbl}"
                                      ).with_code("vote-other-table", table=vote.tbl)
        signer = self._signer(vote.by, link, "vote")
        if signer is None:
            return
        if vote.seat == signer:
            raise RemoteProtocolError(link, Reason.ILLEGAL,  # a person, not "itself"
                                      f"{self.name(signer)} voted to remove themselves"
                                      ).with_code("own-vote", name=self.name(signer))
        problem = vote_problem(vote, vote.tbl, vote.seat, vote.at, vote.head)
        if problem is not None:
            raise RemoteProtocolError(link, Reason.BAD_SIGNATURE, problem).with_code(
                problem.code, **problem.params)
        key = (vote.seat, vote.at, vote.head, vote.round)
        length = len(self.record)
        if vote.seat not in self.deck.present:
            return
        if vote.at < length or key in self._voids:
            self._rescuer_says_no(key)
            return
        if vote.at >= length + 32 or (vote.at == length and vote.head != self.record.head):
            return  # far ahead, or about another record than this peer's
        for old in [k for k in self._votes if k[1] < length]:
            del self._votes[old]  # positions passed
        for old in [k for k in self._voids if k[1] < length - 64]:
            del self._voids[old]
        self._withdrew = {k for k in self._withdrew if k[1] >= length - 64}
        kept = sum(1 for k, got in self._votes.items() if signer in got and k != key)
        if kept >= VOTES_PER_SIGNER:
            return
        raw = msgspec.to_builtins(vote)
        self._keep_vote(signer, raw)
        self._relay("record.vote", "vote", raw, link)
        self._advance()

    def _rescuer_says_no(self, key: VoteKey) -> None:
        """A withdrawal of another seat, a vote of a void round, or one about a position this
        peer passed without that removal: as the round's rescuer, this peer voids the round
        (or sends its void again), so that a voter still bound there is freed. Nothing is
        done for a round this peer began the removal with (the voters take it)."""
        seat, at, _head, _rnd = key
        if not self.has_say or self.rescuer(seat) != self.seat:
            return
        if key in self._voids:
            self._send(None, "record.unvote", {"unvote": self._voids[key]})
            return
        if at < len(self.record):
            if at < len(self.record) - 64:
                return
            entry = self.record.entries[at]
            if entry.payload.get("t") == EntryKind.RESCUE and entry.author == self.me.public_key:
                return
        self._withdraw(key)

    def _on_unvote(self, body: Any, link: str) -> None:
        """A removal withdrawal from a peer (it may relay another's). Checked like a vote; the
        rescuer's voids its round (and names the rescuer, with the evidence, if the record
        holds its first rescue entry of that very round); when this seat is the rescuer,
        anyone's makes it void the round (unless it began the removal with it).

        Raises:
            RemoteProtocolError: ``malformed``, ``not-seated``, ``bad-signature``,
                ``wrong-table`` (names the link that delivered it).
        """
        if self._halted is not None:
            return
        unvote = conform(body, RecordUnvote, link, "record.unvote").unvote
        if unvote.sig in self._relayed and unvote.at >= len(self.record):
            return  # kept and passed on already
        if unvote.tbl != self.table_id:
            raise RemoteProtocolError(link, Reason.WRONG_TABLE,
                                      f"a withdrawal for table {unvote.tbl}").with_code(
                                          "withdrawal-other-table", table=unvote.tbl)
        signer = self._signer(unvote.by, link, "withdrawal")
        if signer is None:
            return
        if not withdrawal_verifies(unvote):
            raise RemoteProtocolError(link, Reason.BAD_SIGNATURE,
                                      "a withdrawal whose signature does not verify"
                                      ).with_code("withdrawal-signature")
        key = (unvote.seat, unvote.at, unvote.head, unvote.round)
        length = len(self.record)
        raw = msgspec.to_builtins(unvote)
        if unvote.at < length and self._began(unvote.at, signer, unvote.round):
            # The rescuer voided the round it began the removal with: both are signed.
            self._relay("record.unvote", "unvote", raw, link)
            entry = self.record.entries[unvote.at]
            self._cheat(signer, f"{self.name(signer)} voided round {unvote.round} of the "
                        f"removal of seat {unvote.seat + 1} at entry {unvote.at + 1}, then began "
                        "it there (its withdrawal and its rescue entry are the evidence)",
                        {"entry": entry.to_dict(), "unvote": raw}, "unvote")
            return
        if (unvote.seat not in self.deck.present or key in self._voids
                or not length - 64 <= unvote.at < length + 32):
            return
        if unvote.at >= length:
            self._relay("record.unvote", "unvote", raw, link)
        if signer == self.rescuer(unvote.seat):
            if unvote.at >= length:
                self._out.append(Persist("unvote", {"unvote": raw}))
                self._void(key, raw)
        else:
            self._rescuer_says_no(key)
        self._advance()

    def _began(self, at: int, author: Seat, rnd: int) -> bool:
        """Whether entry ``at`` of the record is ``author``'s first rescue entry of round
        ``rnd``."""
        entry = self.record.entries[at]
        votes = entry.payload.get("votes") if entry.payload.get("t") == EntryKind.RESCUE else None
        return (bool(votes) and entry.author == self.players[author].public_key
                and isinstance(votes, list) and isinstance(votes[0], dict)
                and votes[0].get("round") == rnd)

    def _resend_votes(self, key: bytes) -> None:
        """A link to ``key`` came up: send it the votes and voids held about the current
        position again (one sent while the link was down would be lost)."""
        if not self.has_say:
            return
        here = (len(self.record), self.record.head)
        for (_, at, head, _rnd), got in self._votes.items():
            if (at, head) == here:
                for vote in got.values():
                    self._send(key, "record.vote", {"vote": vote})
        for (_, at, head, _rnd), unvote in self._voids.items():
            if (at, head) == here:
                self._send(key, "record.unvote", {"unvote": unvote})

    def _writing_turn(self) -> tuple[Seat, Any] | None:
        """Who this peer believes appends next, for its own appending: while bound by its own
        vote only the first rescue entry (once every vote of its round is in), else
        :meth:`expected`."""
        if self._removing is None and not self._halted:
            mine = self.bound()
            if mine is not None:
                seat, _rnd = mine
                others = [s for s in self.deck.present if s != seat]
                if list(self.votes_for(seat)) == others and self.removal_problem(seat) is None:
                    return others[0], EntryKind.RESCUE
                return None
        return self.expected()

    def _refuse_voted_out(self, author: Seat, name: str, seq: int, kind: Any = None) -> None:
        """While this peer is bound by its own vote at this position it takes only the first
        rescue entry there: any other entry is refused and kept, to be taken once the round
        is void (nobody is named: the author may be honest, e.g. a seat that came back, or a
        voter released by a withdrawal not yet here).

        Raises:
            RecordError: ``not-seated`` (the seat voted against), ``bound-by-vote``.
        """
        mine = self.bound() if self._removing is None and not self._replaying else None
        if mine is None or kind == EntryKind.RESCUE:
            return
        if self._entry_at[0] != len(self.record):
            return  # an auditor's or a replay's record
        seat, rnd = mine
        if author == seat:
            raise RecordError(name, Reason.NOT_SEATED,
                              f"seat {author + 1} is being voted out at entry {seq + 1}", seq
                              ).with_code("being-voted-out", seat=author + 1, seq=seq + 1)
        raise RecordError(name, Reason.BOUND, f"this seat voted to remove seat {seat + 1} at "
                          "entry "
                          f"{seq + 1} (round {rnd}): it takes only the removal there until the "
                          "round is void", seq).with_code("bound", seat=seat + 1, seq=seq + 1,
                                                          round=rnd)

    def _hold_bound(self, entry: Entry, link: str) -> None:
        """Keep an entry refused while bound (at most :data:`HELD_PER_AUTHOR` per author)."""
        self._held = {k: v for k, v in self._held.items() if v[0].seq == len(self.record)}
        self._held[entry.author] = (entry, link)

    # -----------------------------------------------------------------------------------------
    # Rescue entries.

    def _make_rescue(self) -> dict[str, Any]:
        """This seat's rescue entry payload (applied here as every peer applies it)."""
        if self._removing is not None:
            seat, votes = self._removing[0], []
        else:
            mine = self.bound()
            assert mine is not None
            seat, rnd = mine
            got = self._votes[(seat, len(self.record), self.record.head, rnd)]
            votes = [got[s] for s in sorted(got)]
            self._removing = (seat, len(self.record))
        message = self.deck.make_rescue(seat, self._hand(seat))
        self._after_rescue(seat)
        return {"t": EntryKind.RESCUE.value, "seat": seat, "votes": votes, "msg": message}

    def _apply_rescue(self, author: Seat, payload: RescuePayload) -> None:
        """Check and apply a rescue entry of ``author``.

        Raises:
            EngineError: a removal that may not begin here, by the wrong seat, about another
                seat than the one under way, a missing, extra or bad vote, votes of several
                rounds, or of a round its author voided (as far as this peer knows).
            DeckError: a bad share or proof, shares of the wrong cards (names ``author``).
        """
        seat = payload.seat
        if self._removing is None:
            problem = self.removal_problem(seat) if seat != author else "it voted for itself"
            if problem is not None:
                raise EngineError(f"seat {author + 1} began removing seat {seat + 1}: {problem}")
            others = [s for s in self.deck.present if s != seat]
            if author != others[0]:
                raise EngineError(f"seat {author + 1} began removing seat {seat + 1}; only seat "
                                  f"{others[0] + 1} may")
            signers = []
            at, head = self._entry_at
            for vote in payload.votes:
                signer = self._seat_of.get(bytes.fromhex(vote.by))
                problem = vote_problem(vote, self.table_id, seat, at, head)
                if problem is not None:
                    raise EngineError(f"seat {author + 1} began removing seat {seat + 1} "
                                      f"with {problem}")
                signers.append(signer)
            if signers != others:
                raise EngineError(f"seat {author + 1} began removing seat {seat + 1} with votes "
                                  f"of seats {[s + 1 for s in signers if s is not None]}, not "
                                  f"of every remaining seat {[s + 1 for s in others]}")
            rounds = sorted({vote.round for vote in payload.votes})
            if len(rounds) != 1:
                raise EngineError(f"seat {author + 1} began removing seat {seat + 1} "
                                  f"with votes of "
                                  f"rounds {rounds}, not of one round")
            if (seat, at, head, rounds[0]) in self._voids:
                raise EngineError(f"seat {author + 1} began removing seat {seat + 1} "
                                  f"with the votes of "
                                  f"round {rounds[0]}, which it had voided (its withdrawal is "
                                  "the evidence)")
            self.deck.accept_rescue(author, seat, msgspec.to_builtins(payload.msg),
                                    self._hand(seat))
            self._removing = (seat, at)  # only now: a refused entry changes nothing
        else:
            if seat != self._removing[0] or payload.votes:
                raise EngineError(f"seat {author + 1} sent rescue shares for seat {seat + 1} "
                                  "with "
                                  f"{len(payload.votes)} votes during the removal of seat "
                                  f"{self._removing[0] + 1}")
            self.deck.accept_rescue(author, seat, msgspec.to_builtins(payload.msg),
                                    self._hand(seat))
        self._after_rescue(seat)

    def _after_rescue(self, seat: Seat) -> None:
        self._held = {}
        if seat in self.deck.present:
            return
        self._removing = None
        self._votes.clear()
        self._after_leave(seat, f"{self.name(seat)} was removed from the table (every "
                                "remaining player signed; its hand stays closed)")

    def _hand(self, seat: Seat) -> tuple[int, ...]:  # pragma: no cover - Departure's
        raise NotImplementedError


__all__ = ["Rescue"]
