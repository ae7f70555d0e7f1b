"""A seat leaving the table for good, in the record (rulings D-1..D-4; ``docs/protocol.md``,
"Leaving for good"). Part of :class:`~lancards.p2p.protocol.core.GameCore`.

A seat that chose to leave (:meth:`Departure.leave`) appends a signed ``leave`` entry **in place
of the next entry it is due to append** (a move, a shuffle, shares, an opening): the record has
one writer at a time (:mod:`lancards.p2p.protocol.schedule`), so a leave never races another entry
and never forks the record. The entry carries the leaver's proven decryption share of every hidden
card outside its own hand (:meth:`~lancards.p2p.crypto.departures.Departures.make_leave`; design
"Leaving for good"); every peer checks the proofs, strips that layer, and applies the engine's
:class:`~lancards.engine.core.Leave`. From then on the engine skips the seat, and the deck's turns,
debts and joint key (the sum of the remaining key shares) are those of the seats still present; a
shuffle epoch that was running is begun again from its inputs under the new key. The leaver's own
hand goes out of play unopened: no share of it is ever published.

Bad leaves (each names its author; the entry is not recorded):

* an entry of any kind by a seat that left: rejected (``not-seated``), the table goes on (a
  departed seat cannot stop the others);
* a leave out of turn, a leave naming another seat, a bad proof, shares of the wrong cards:
  the author is named as a cheater with the entry as evidence, as for any signed entry against
  the rules (:mod:`lancards.p2p.protocol.inbound`).
"""

from __future__ import annotations

from typing import Any

import msgspec

from lancards.engine.core import EngineError, Leave, Seat, SlotId
from lancards.p2p.crypto.deck import DeckEvent, EpochAbandoned, SeatLeft
from lancards.p2p.protocol.core_parts import CoreParts
from lancards.p2p.protocol.errors import LocalProtocolError, Reason, RecordError
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.schemas import LeavePayload


class Departure(CoreParts):
    """Leaving for good (see the module docstring)."""

    _leaving: bool
    _leave_heard: set[Seat]

    def _on_deck_event(self, event: DeckEvent, opened_ok: bool) -> None:  # pragma: no cover
        raise NotImplementedError

    # -----------------------------------------------------------------------------------------
    # Queries.

    @property
    def leaving(self) -> bool:
        """Whether this seat chose to leave and its leave entry is still to be appended (it
        is appended in place of the next entry this seat is due to append)."""
        return self._leaving

    def left_seats(self) -> tuple[Seat, ...]:
        """The seats that left the table for good, in the order they left (ruling D-2)."""
        return tuple(self.game.left_seats(self._state))

    def has_left(self, seat: Seat) -> bool:
        """Whether ``seat`` left the table for good."""
        return seat in self.game.left_seats(self._state)

    def leave_heard(self) -> bool:
        """Whether another seat acknowledged this seat's leave entry with the hash this seat
        wrote (``record.ack``, sent to a leave's author too), so the leave reached the table
        and the others can pass it on: ``docs/protocol.md`` 11.8. A seat that acknowledges
        falsely only closes the leaver's own window early; the entry was sent to every seat."""
        return bool(self._leave_heard)

    def was_removed(self, seat: Seat) -> bool:
        """Whether ``seat`` left by a removal vote (ruling D-5: a ``rescue`` entry about it
        completed), not by its own leave; read from the record, so a peer that was asleep
        meanwhile learns it from the entries it catches up with (issue 24)."""
        return self.has_left(seat) and any(
            e.payload.get("t") == "rescue" and e.payload.get("seat") == seat
            for e in self.record.entries)

    # -----------------------------------------------------------------------------------------
    # Leaving.

    def leave(self) -> list[Any]:
        """This seat leaves the table for good (rulings D-1..D-4).

        The leave entry is appended now if this seat is due to append the next entry, else as
        soon as it is (its own turn, shuffle, shares or opening; :attr:`leaving` is true
        until then). Once it is appended this seat appends nothing more and owes no shares.

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).

        Raises:
            LocalProtocolError: an observer; the table is halted or the game is over; the
                joint key is not ready yet (leave before the game starts by not starting
                it); this seat left already.
        """
        if self.view_seat is None:
            raise LocalProtocolError("an observer cannot leave")
        if self._halted:
            raise LocalProtocolError(f"the table is halted: {self._halted}")
        if self.has_left(self.seat):
            raise LocalProtocolError("this seat left the table already")
        if self.game.to_act(self._state) is None:
            raise LocalProtocolError("the game is over")
        if self.deck.joint_key is None:
            raise LocalProtocolError("the game has not started yet (the joint key is not ready)")
        self._leaving = True
        self._pending = None
        self._advance()
        return self._flush()

    def _hand(self, seat: Seat) -> tuple[SlotId, ...]:
        """What a leave or a removal of ``seat`` publishes no share of (the same at every
        peer): what goes out of play with it as the engine knows it (its hand, and what else
        only it knows: ``Game.leaving_slots``), then every hidden card of the deck the engine
        no longer has in play (8s Rule!: the cards of a round abandoned by an earlier leave,
        ruling D-1: never opened). The seat's share of these is never published, so the
        batches it forwarded in openings never complete a hidden card's shares; the deck
        drops them all (out of play for good)."""
        hand = tuple(self.game.leaving_slots(self._state, seat))
        in_play = self.game.knowledge(self._state)
        gone = tuple(s for s in self.deck.hidden_slots() if s not in in_play and s not in hand)
        return hand + gone

    def _make_leave(self) -> dict[str, Any]:
        """This seat's leave payload (applied here as every peer applies it)."""
        message = self.deck.make_leave(self._hand(self.seat))
        self._leaving = False
        self._after_leave(self.seat)
        return {"t": EntryKind.LEAVE.value, "seat": self.seat, "msg": message}

    def _check_author(self, author: Seat, name: str, kind: Any,
                      expected: tuple[Seat, Any] | None, seq: int) -> None:
        """The schedule check of an entry: a departed author is refused; a leave may replace
        whatever entry its author is due to append; other entries must be the one due.

        Raises:
            RecordError: ``not-seated`` (the author left), ``out-of-turn``.
        """
        if self.has_left(author):
            raise RecordError(name, Reason.NOT_SEATED,
                              f"a {kind!r} entry by seat {author + 1}, who left the table", seq
                              ).with_code("after-leaving", entry=str(kind), seat=author + 1)
        self._refuse_voted_out(author, name, seq, kind)
        if kind == EntryKind.RESCUE and self.removing is None:
            return  # a removal begins in place of whatever is due (checked with its votes)
        if (kind == EntryKind.LEAVE and expected is not None and expected[0] == author
                and expected[1] != EntryKind.RESCUE):
            return
        if expected is None or expected[0] != author or expected[1] != kind:
            wanted = "nothing" if expected is None else f"seat {expected[0] + 1}'s {expected[1]}"
            what = "a leave" if kind == EntryKind.LEAVE else f"a {kind!r} entry"
            if expected is None:
                raise RecordError(name, Reason.OUT_OF_TURN, f"{what} by seat {author + 1}; the "
                                  f"record waits for {wanted}", seq).with_code(
                                      "out-of-turn-nothing", entry=str(kind), seat=author + 1)
            raise RecordError(name, Reason.OUT_OF_TURN,
                              f"{what} by seat {author + 1}; the record waits for {wanted}", seq
                              ).with_code("out-of-turn", entry=str(kind), seat=author + 1,
                                          due_entry=str(expected[1]), due_seat=expected[0] + 1)

    def _apply_leave(self, author: Seat, payload: LeavePayload) -> None:
        """Check and apply a leave entry of ``author``.

        Raises:
            EngineError: the leave names another seat.
            DeckError: a bad share or proof, shares of the wrong cards (names ``author``).
        """
        if payload.seat != author:
            raise EngineError(f"seat {author + 1} signed a leave of seat {payload.seat + 1}")
        self.deck.accept_leave(author, msgspec.to_builtins(payload.msg), self._hand(author))
        self._after_leave(author)

    def _after_leave(self, seat: Seat, text: str | None = None) -> None:
        """The deck stripped ``seat``'s layer (a leave, or a removal: ``text`` says so): take
        the deck's events (reveals the leave completed go to the engine first), apply the
        engine's leave, and begin an abandoned shuffle again."""
        for event in self.deck.take_events():
            if isinstance(event, EpochAbandoned):
                self._epoch_begun_for = None
                self.progress = ""
            elif not isinstance(event, SeatLeft):
                self._on_deck_event(event, False)
        self._state = self._engine(Leave(seat))
        self._private_for[seat].clear()
        in_play = self.game.knowledge(self._state)  # a round the leave abandoned is out of play
        self.deck.withhold(s for s in self.deck.hidden_slots() if s not in in_play)
        self._after_engine_change()
        self._notice("info", text or f"{self.name(seat)} left the table", seat,
                     code="removed" if text else "left")


__all__ = ["Departure"]
