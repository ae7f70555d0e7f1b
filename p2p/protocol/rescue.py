"""Removing a seat that vanished: the signed vote and the rescue entries (ruling D-5; design
"Leaving for good"; ``docs/protocol.md`` 11.10). Part of
:class:`~lancards.p2p.protocol.core.GameCore`.

**The vote.** When the table has waited for a seat ``V`` beyond its patience (the node decides:
:meth:`lancards.p2p.net.node.PeerNode.removal_refusal`), each remaining peer may sign "remove ``V``"
(:meth:`Rescue.vote_remove`): a :class:`~lancards.p2p.protocol.schemas.RemovalVote` bound to the
table, ``V``, and the record position it is about (``at`` = the record's length, ``head`` = the hash
of its last entry), signed with the peer's Ed25519 key over :func:`vote_bytes`, and sent to every
seat as ``record.vote`` (and journaled). A vote for another position is useless: it can only be used
in an entry numbered ``at`` whose ``prev`` is ``head``, so it cannot be replayed elsewhere.

**One writer at a time.** A peer that signed "remove ``V`` at (``at``, ``head``)" appends nothing
else at that position, and refuses ``V``'s own entry there (``not-seated``: "being voted out";
nobody is named); another entry there by a seat whose vote about it a peer holds names that seat
(it broke its vote). So once every remaining seat signed, no honest remaining peer can accept any
entry at ``at`` but the first rescue entry, which only the lowest remaining seat may append: the
record does not fork even if ``V`` comes back in the middle of the vote. (If ``V``'s entry reaches
a peer that has not signed yet, that peer takes it and never signs: the vote cannot complete; the
peers that signed then wait, see ``docs/protocol.md`` 11.10 "Not built yet".)

**The rescue.** With every vote in hand, the lowest remaining seat appends a ``rescue`` entry at
``at`` in place of whatever was due, carrying the votes and its escrow part applied to every
hidden card outside ``V``'s hand with Chaum-Pedersen proofs
(:meth:`~lancards.p2p.crypto.departures.Departures.make_rescue`); then each other remaining seat,
in seat order, appends its own ``rescue`` entry (nothing else is due meanwhile). When the last is
in, the parts add up to ``V``'s decryption shares, its layer is stripped, and everything goes on
exactly as after a leave (:mod:`lancards.p2p.protocol.departure`): the engine's ``Leave(V)``, the
joint key of the remaining seats, an abandoned shuffle begun again, the escrow dealt again among the
remaining seats (while 3 or more remain). ``V``'s hand is never opened; its later entries are
refused as ``not-seated``.

Checked by every peer and the auditor (a bad one names the entry's author as a cheater, the
entry is not recorded, the table halts): the first rescue entry is by the lowest remaining seat,
about a present seat other than its author whose key share is escrowed among all the others, at
a table where 3 or more remain, with exactly one vote of every remaining seat, each bound to
this table, this seat, the entry's number and its ``prev``, each signature valid; a later rescue
entry is by the next rescuer, about the same seat, with no votes; every share proof verifies
against the rescuer's escrow commitment (:data:`~lancards.p2p.crypto.escrow.ESCROW`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from lancards.engine.core import EngineError, Seat
from lancards.p2p.protocol.core_parts import CoreParts, Persist
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.protocol.identity import Identity, verify_signature
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.schemas import RecordVote, RemovalVote, RescuePayload, conform
from lancards.p2p.protocol.wire import canonical

VOTE_TAG = b"lancards/v1/remove\x00"
"""The domain tag of a removal vote's signed bytes (no other signed object starts with it)."""

VOTES_PER_SIGNER = 4
"""The most removal votes kept per signer (about this position or later ones this peer has not
reached yet); more are dropped (an honest peer is at most a few entries ahead)."""

MIN_REMAINING = 2
"""A removal needs at least this many remaining seats (so 3 present: with two, the one other
seat would hold the whole escrowed key share, which is never dealt)."""

VoteKey = tuple[Seat, int, str]
"""``(vanished seat, record position, head hash)``: what a vote is about."""


def vote_bytes(table: str, seat: Seat, at: int, head: str, by: bytes) -> bytes:
    """The bytes a removal vote's signature covers: :data:`VOTE_TAG` and the canonical JSON of
    ``{"at", "by", "head", "seat", "tbl"}`` (``by``: the signer's key, hex)."""
    return VOTE_TAG + canonical({"tbl": table, "seat": seat, "at": at, "head": head,
                                 "by": by.hex()})


def sign_vote(identity: Identity, table: str, seat: Seat, at: int, head: str
              ) -> dict[str, Any]:
    """A removal vote of ``identity`` for removing ``seat`` at record position ``at`` (the
    record's length) whose last entry hashes to ``head`` (JSON form of
    :class:`~lancards.p2p.protocol.schemas.RemovalVote`)."""
    signature = identity.sign(vote_bytes(table, seat, at, head, identity.public_key))
    return {"tbl": table, "seat": seat, "at": at, "head": head,
            "by": identity.public_key.hex(), "sig": signature.hex()}


def vote_problem(vote: RemovalVote, table: str, seat: Seat, at: int, head: str) -> str | None:
    """What is wrong with ``vote`` as a vote to remove ``seat`` at ``(at, head)`` of ``table``
    (its signature included), or ``None``."""
    if (vote.tbl, vote.seat, vote.at, vote.head) != (table, seat, at, head):
        return (f"a vote about table {vote.tbl}, seat {vote.seat}, entry {vote.at} "
                f"({vote.head[:12]}...), not seat {seat} at entry {at} ({head[:12]}...)")
    by = bytes.fromhex(vote.by)
    if not verify_signature(by, bytes.fromhex(vote.sig),
                            vote_bytes(vote.tbl, vote.seat, vote.at, vote.head, by)):
        return "a vote whose signature does not verify"
    return None


class Rescue(CoreParts):
    """Removal votes and rescue entries (see the module docstring)."""

    _votes: dict[VoteKey, dict[Seat, dict[str, Any]]]
    _removing: tuple[Seat, int] | None
    _entry_at: tuple[int, str]
    """The number and ``prev`` of the entry being checked (set by the validator: an auditor's
    record is not :attr:`record`)."""

    def _after_leave(self, seat: Seat, text: str | None = None) -> None:  # pragma: no cover
        raise NotImplementedError

    def has_left(self, seat: Seat) -> bool:  # pragma: no cover - Departure's
        raise NotImplementedError

    @property
    def rescue(self) -> bool:  # pragma: no cover - Escrow's
        raise NotImplementedError

    def _init_rescue(self) -> None:
        self._votes = {}
        self._removing = None
        self._entry_at = (0, "")

    # -----------------------------------------------------------------------------------------
    # Queries.

    @property
    def removing(self) -> Seat | None:
        """The seat whose removal is under way in the record (its first rescue entry is in,
        not yet every one), or ``None``."""
        return None if self._removing is None else self._removing[0]

    def votes_for(self, seat: Seat) -> tuple[Seat, ...]:
        """The seats whose votes to remove ``seat`` at the record's current position this peer
        holds (ascending)."""
        return tuple(sorted(self._votes.get(self._here(seat), {})))

    def removal_due(self) -> tuple[Seat, EntryKind] | None:
        """The next rescuer while a removal is under way (from the record alone), else
        ``None``."""
        if self._removing is None:
            return None
        vanished = self._removing[0]
        done = self.deck.rescued_by(vanished)
        for seat in self.deck.present:
            if seat != vanished and seat not in done:
                return seat, EntryKind.RESCUE
        return None  # pragma: no cover - the last rescue entry completes the removal

    def removal_problem(self, seat: Seat) -> str | None:
        """Why ``seat`` cannot be removed from the record's current position (the checks of
        the record, not the clock's: :meth:`lancards.p2p.net.node.PeerNode.removal_refusal`), or
        ``None``."""
        if not self.rescue:
            return "the table has no rescue (its option rescue is off): it can only wait"
        if not 0 <= seat < self.n or seat not in self.deck.present:
            return f"seat {seat} is not at the table"
        if self._halted:
            return f"the table is halted: {self._halted}"
        if self.game.to_act(self._state) is None:
            return "the game is over"
        if self._removing is not None:
            return f"the removal of {self.name(self._removing[0])} is under way"
        others = [s for s in self.deck.present if s != seat]
        if len(others) < MIN_REMAINING:
            return "a removal needs 2 remaining players or more"
        if list(self.deck.escrow_holders(seat)) != others:
            return f"{self.name(seat)}'s key share is not escrowed among the others"
        return None

    # -----------------------------------------------------------------------------------------
    # Voting.

    def vote_remove(self, seat: Seat) -> list[Any]:
        """This seat signs "remove ``seat``" at the record's current position (ruling D-5):
        journaled, kept, and sent to every seat. From now on this peer appends nothing else at
        this position and refuses ``seat``'s entry here. Call it only when the table has
        waited for ``seat`` beyond its patience (:meth:`PeerNode.vote_remove` checks it).

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).

        Raises:
            LocalProtocolError: an observer, this seat itself, or :meth:`removal_problem`.
        """
        if self.view_seat is None or seat == self.seat:
            raise LocalProtocolError("only another player can be voted out, by a player")
        problem = self.removal_problem(seat)
        if problem is not None:
            raise LocalProtocolError(problem)
        vote = sign_vote(self.me, self.table_id, seat, len(self.record), self.record.head)
        self._keep_vote(self.seat, vote)
        self._send(None, "record.vote", {"vote": vote})
        self._notice("info", f"this seat voted to remove {self.name(seat)}", seat)
        self._advance()
        return self._flush()

    def _keep_vote(self, signer: Seat, vote: dict[str, Any]) -> None:
        key = (int(vote["seat"]), int(vote["at"]), str(vote["head"]))
        got = self._votes.setdefault(key, {})
        if signer not in got:
            got[signer] = vote
            self._out.append(Persist("vote", {"vote": vote}))

    def _restore_vote(self, line: dict[str, Any]) -> None:
        vote = conform(line["vote"], RemovalVote, "the local record", "vote")
        signer = self._seat_of[bytes.fromhex(vote.by)]
        key = (vote.seat, vote.at, vote.head)
        self._votes.setdefault(key, {})[signer] = msgspec.to_builtins(vote)

    def _on_vote(self, body: Any, link: str) -> None:
        """A removal vote from a peer (it may relay another's). Checked: schema, a seated
        signer still present, not a vote for itself, a seat still present, the signature, this
        table; a vote for a position this peer passed is dropped, one too far ahead too.

        Raises:
            RemoteProtocolError: ``malformed``, ``not-seated``, ``illegal`` (a vote for
                itself), ``bad-signature``, ``wrong-table`` (names the link that delivered
                it).
        """
        if self._halted is not None:
            return
        vote = conform(body, RecordVote, link, "record.vote").vote
        signer = self._seat_of.get(bytes.fromhex(vote.by))
        if vote.tbl != self.table_id:
            raise RemoteProtocolError(link, Reason.WRONG_TABLE, f"a vote for table {vote.tbl}")
        if signer is None or signer not in self.deck.present:
            raise RemoteProtocolError(link, Reason.NOT_SEATED,
                                      "a removal vote signed by a peer not at the table")
        if vote.seat == signer:
            raise RemoteProtocolError(link, Reason.ILLEGAL,
                                      f"{self.name(signer)} voted to remove itself")
        problem = vote_problem(vote, vote.tbl, vote.seat, vote.at, vote.head)
        if problem is not None:
            raise RemoteProtocolError(link, Reason.BAD_SIGNATURE, problem)
        length = len(self.record)
        if vote.at < length or vote.at >= length + 32 or vote.seat not in self.deck.present:
            return  # about a position this peer passed, far ahead, or a seat gone
        if vote.at == length and vote.head != self.record.head:
            return  # about another record than this peer's: of no use here
        for key in [k for k in self._votes if k[1] < length]:
            del self._votes[key]  # positions passed
        key = (vote.seat, vote.at, vote.head)
        kept = sum(1 for k, got in self._votes.items() if signer in got and k != key)
        if kept >= VOTES_PER_SIGNER:
            return
        self._keep_vote(signer, msgspec.to_builtins(vote))
        self._advance()

    def _resend_votes(self, key: bytes) -> None:
        """A link to ``key`` came up: send it the votes held about the current position (a
        vote sent while the link was down would be lost)."""
        if self.view_seat is None:
            return
        here = (len(self.record), self.record.head)
        for (_, at, head), got in self._votes.items():
            if (at, head) == here:
                for vote in got.values():
                    self._send(key, "record.vote", {"vote": vote})

    def _here(self, seat: Seat) -> VoteKey:
        return seat, len(self.record), self.record.head

    def _my_vote_here(self) -> tuple[Seat, dict[Seat, dict[str, Any]]] | None:
        """The seat this peer voted to remove at the current position, with the votes held."""
        if self.view_seat is None:
            return None
        at, head = len(self.record), self.record.head
        for (seat, v_at, v_head), got in self._votes.items():
            if (v_at, v_head) == (at, head) and self.seat in got:
                return seat, got
        return None

    def _writing_turn(self) -> tuple[Seat, Any] | None:
        """Who this peer believes appends next, for its own appending: after its vote for the
        current position only the first rescue entry (once every vote is in), else
        :meth:`expected`."""
        if self._removing is None and not self._halted:
            mine = self._my_vote_here()
            if mine is not None:
                seat, got = mine
                others = [s for s in self.deck.present if s != seat]
                if sorted(got) == others and self.removal_problem(seat) is None:
                    return others[0], EntryKind.RESCUE
                return None
        return self.expected()

    def _refuse_voted_out(self, author: Seat, name: str, seq: int, kind: Any = None) -> None:
        """An entry by a seat this peer voted to remove at this very position is refused
        (nobody is named: it may have come back honestly). An entry other than a rescue by a
        seat that signed a vote about this very position breaks its vote (an honest voter
        appends nothing else there): its author is named.

        Raises:
            RecordError: ``not-seated``; ``illegal`` (a vote broken).
        """
        mine = self._my_vote_here()
        if mine is not None and mine[0] == author and self._removing is None:
            raise RecordError(name, Reason.NOT_SEATED,
                              f"seat {author} is being voted out at entry {seq}", seq)
        if kind == EntryKind.RESCUE or self._removing is not None:
            return
        at, head = self._entry_at
        for (seat, v_at, v_head), got in self._votes.items():
            if (v_at, v_head) == (at, head) and author in got:
                raise RecordError(name, Reason.ILLEGAL,
                                  f"seat {author} signed a vote to remove seat {seat} at entry "
                                  f"{at}, then another entry there", seq)

    # -----------------------------------------------------------------------------------------
    # Rescue entries.

    def _make_rescue(self) -> dict[str, Any]:
        """This seat's rescue entry payload (applied here as every peer applies it)."""
        if self._removing is not None:
            seat, votes = self._removing[0], []
        else:
            mine = self._my_vote_here()
            assert mine is not None
            seat, got = mine
            votes = [got[s] for s in sorted(got)]
            self._removing = (seat, len(self.record))
        message = self.deck.make_rescue(seat, self._hand(seat))
        self._after_rescue(seat)
        return {"t": EntryKind.RESCUE.value, "seat": seat, "votes": votes, "msg": message}

    def _apply_rescue(self, author: Seat, payload: RescuePayload) -> None:
        """Check and apply a rescue entry of ``author``.

        Raises:
            EngineError: a removal that may not begin here, by the wrong seat, about another
                seat than the one under way, or a missing, extra or bad vote.
            DeckError: a bad share or proof, shares of the wrong cards (names ``author``).
        """
        seat = payload.seat
        if self._removing is None:
            problem = self.removal_problem(seat) if seat != author else "it voted for itself"
            if problem is not None:
                raise EngineError(f"seat {author} began removing seat {seat}: {problem}")
            others = [s for s in self.deck.present if s != seat]
            if author != others[0]:
                raise EngineError(f"seat {author} began removing seat {seat}; only seat "
                                  f"{others[0]} may")
            signers = []
            at, head = self._entry_at
            for vote in payload.votes:
                signer = self._seat_of.get(bytes.fromhex(vote.by))
                problem = vote_problem(vote, self.table_id, seat, at, head)
                if problem is not None:
                    raise EngineError(f"seat {author} began removing seat {seat} with {problem}")
                signers.append(signer)
            if signers != others:
                raise EngineError(f"seat {author} began removing seat {seat} with votes of "
                                  f"seats {signers}, not of every remaining seat {others}")
            self.deck.accept_rescue(author, seat, msgspec.to_builtins(payload.msg),
                                    self._hand(seat))
            self._removing = (seat, at)  # only now: a refused entry changes nothing
        else:
            if seat != self._removing[0] or payload.votes:
                raise EngineError(f"seat {author} sent rescue shares for seat {seat} with "
                                  f"{len(payload.votes)} votes during the removal of seat "
                                  f"{self._removing[0]}")
            self.deck.accept_rescue(author, seat, msgspec.to_builtins(payload.msg),
                                    self._hand(seat))
        self._after_rescue(seat)

    def _after_rescue(self, seat: Seat) -> None:
        if seat in self.deck.present:
            return
        self._removing = None
        self._votes.clear()
        self._after_leave(seat, f"{self.name(seat)} was removed from the table (every "
                                "remaining player signed; its hand stays closed)")

    def _hand(self, seat: Seat) -> tuple[int, ...]:  # pragma: no cover - Departure's
        raise NotImplementedError


__all__ = ["MIN_REMAINING", "VOTE_TAG", "Rescue", "sign_vote", "vote_bytes", "vote_problem"]
