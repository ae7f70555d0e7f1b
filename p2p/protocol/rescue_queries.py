"""The queries of the removal votes and rescue entries (:mod:`lancards.p2p.protocol.rescue`,
which receives and makes them): who is being removed, by whom, the rounds voided, this peer's own
binding vote, and why a seat cannot be removed here (``Refusal`` codes, issue 28). Split out of
``rescue.py`` to keep modules under 600 lines; the rules are in that module's docstring and
``docs/protocol.md`` 11.10."""

from __future__ import annotations

from typing import Any

from lancards.engine.core import Seat
from lancards.p2p.protocol.core_parts import CoreParts
from lancards.p2p.protocol.errors import Refusal
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.votes import MIN_REMAINING, VoteKey


class RescueQueries(CoreParts):
    """What the removal votes and rescue entries this peer holds say (the queries of
    :class:`~lancards.p2p.protocol.rescue.Rescue`, which sets these fields)."""

    _votes: dict[VoteKey, dict[Seat, dict[str, Any]]]
    _voids: dict[VoteKey, dict[str, Any]]
    """The rounds voided by their rescuer (its withdrawal), kept while their position is near."""
    _withdrew: set[VoteKey]
    _relayed: set[str]
    _held: dict[bytes, tuple[Entry, str]]
    _removing: tuple[Seat, int] | None
    _entry_at: tuple[int, str]
    """The number and ``prev`` of the entry being checked (set by the validator: an auditor's
    record is not :attr:`record`)."""

    @property
    def rescue(self) -> bool:  # pragma: no cover - Escrow's
        raise NotImplementedError

    # -----------------------------------------------------------------------------------------
    # Queries.

    @property
    def removing(self) -> Seat | None:
        """The seat whose removal is under way in the record (its first rescue entry is in,
        not yet every one), or ``None``."""
        return None if self._removing is None else self._removing[0]

    @property
    def has_say(self) -> bool:
        """Whether this peer votes and says "no" about removals: a seat still at the table. An
        auditor has no say, nor a seat that left or was removed (its client may stay to
        watch): it signs no vote or withdrawal, and keeps none of the others'."""
        return self.view_seat is not None and self.view_seat in self.deck.present

    def rescuer(self, seat: Seat) -> Seat | None:
        """The only seat that may begin removing ``seat``: the lowest present other one."""
        others = [s for s in self.deck.present if s != seat]
        return others[0] if others else None

    def is_void(self, key: VoteKey) -> bool:
        """Whether the rescuer of ``key``'s seat withdrew that round (its votes bind nobody)."""
        return key in self._voids

    def live_rounds(self) -> dict[Seat, tuple[int, tuple[Seat, ...]]]:
        """Per seat voted against at the record's current position: the round not void that
        this peer holds votes of (the newest), with its signers (ascending)."""
        at, head = len(self.record), self.record.head
        out: dict[Seat, tuple[int, tuple[Seat, ...]]] = {}
        for key, got in sorted(self._votes.items()):
            seat, v_at, v_head, rnd = key
            if (v_at, v_head) == (at, head) and got and not self.is_void(key):
                out[seat] = (rnd, tuple(sorted(got)))
        return out

    def votes_for(self, seat: Seat) -> tuple[Seat, ...]:
        """The seats whose votes to remove ``seat`` at the record's current position, in its
        round not void, this peer holds (ascending)."""
        live = self.live_rounds().get(seat)
        return () if live is None else live[1]

    def vote_round(self, seat: Seat) -> int:
        """The round a vote to remove ``seat`` here is of: the first one not void."""
        at, head = len(self.record), self.record.head
        rnd = 0
        while self.is_void((seat, at, head, rnd)):
            rnd += 1
        return rnd

    def withdrew(self, seat: Seat) -> bool:
        """Whether this peer withdrew from removing ``seat`` in the current round here."""
        key = (seat, len(self.record), self.record.head, self.vote_round(seat))
        return key in self._withdrew

    def bound(self) -> tuple[Seat, int] | None:
        """``(seat, round)`` when this peer holds its own vote here of a round not void: it
        takes and appends nothing at this position but the removal (else ``None``)."""
        if not self.has_say:
            return None
        for seat, (rnd, signers) in self.live_rounds().items():
            if self.seat in signers:
                return seat, rnd
        return None

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

    def removal_problem(self, seat: Seat) -> Refusal | None:
        """Why ``seat`` cannot be removed from the record's current position (the checks of
        the record, not the clock's: :meth:`lancards.p2p.net.node.PeerNode.removal_refusal`), or
        ``None``; the refusal's ``code``: ``no-rescue``, ``not-at-table``, ``halted``, ``over``,
        ``under-way``, ``too-few``, ``not-escrowed``, ``bad-escrow``."""
        if not self.rescue:
            return Refusal("the table has no rescue (its option rescue is off): it can only wait",
                           "no-rescue")
        if not 0 <= seat < self.n or seat not in self.deck.present:
            return Refusal(f"seat {seat + 1} is not at the table", "not-at-table",
                           seat=seat + 1)  # (counted from 1, as the players panel does)
        if self._halted:
            return Refusal(f"the table is halted: {self._halted}", "halted")
        if self.game.to_act(self._state) is None:
            return Refusal("the game is over", "over")
        if self._removing is not None:
            name = self.name(self._removing[0])
            return Refusal(f"the removal of {name} is under way", "under-way", name=name)
        others = [s for s in self.deck.present if s != seat]
        if len(others) < MIN_REMAINING:
            return Refusal("a removal needs 2 remaining players or more", "too-few")
        if list(self.deck.escrow_holders(seat)) != others:
            return Refusal(f"{self.name(seat)}'s key share is not escrowed among the others",
                           "not-escrowed", name=self.name(seat))
        if self.view_seat not in (None, seat) and not self.deck.holds_escrow_part(seat):
            # Its part for this seat was bad (named when it was dealt): this seat could never
            # make its rescue entry, so it never votes to begin one (adversary finding F5).
            # (The seat itself holds no part of its own key: issue 24, lids that close.)
            return Refusal(f"{self.name(seat)} dealt this seat a bad key escrow part: it cannot "
                           "be removed", "bad-escrow", name=self.name(seat))
        return None
