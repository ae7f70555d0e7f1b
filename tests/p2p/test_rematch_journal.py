"""Play again, journaled (issue 27): a seat killed inside the agreement (kill -9 just before or
just after any of its journal writes, and again at the next write after its restart) resumes
from its journal lines (``Rematch.take_lines`` / ``Rematch.restore``) and joins the next game;
every seat starts the same statement and no seat ever sees two from one signer. In memory,
through the protocol core and the real envelope codec (``tests/p2p/test_rematch.py``'s bus)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from lancards.p2p.protocol.errors import Reason, RemoteProtocolError, TableError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.statement import verify_started
from lancards.p2p.protocol.table import Outgoing
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import finished


@dataclass
class Seat:
    """One seat: its agreement, its durable journal, and its kill plan (write numbers)."""

    me: Identity
    done: Finished
    tables: Iterator[str]
    rematch: Rematch
    journal: list[dict[str, Any]] = field(default_factory=list)
    writes: int = 0
    kills: dict[int, str] = field(default_factory=dict)
    """write number (1-based, over the seat's lives) -> "before" or "after"."""
    restarts: int = 0
    lease: int = 0
    """The envelope numbers made durable (the adapter's ``mark`` lines)."""


class Table:
    """Every seat's agreement over a bus that loses what was in flight to a killed seat."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.seats = {s.me.public_key: s for s in seats}
        self.queue: list[tuple[bytes, bytes, bytes]] = []
        self.refused: list[RemoteProtocolError] = []
        self.choice: str | None = None
        """The game every seat's "yes" names (another game: ``test_rematch_games.py``)."""

    def step(self, seat: Seat, outs: list[Outgoing]) -> None:
        """What the adapter does after each call: the new lines durable, then the sends; a
        kill at this write loses the sends (and, "before", the lines)."""
        lines = seat.rematch.take_lines()
        if lines or outs:
            seat.writes += 1
            kill = seat.kills.get(seat.writes)
            if kill != "before":
                seat.journal += lines
                seat.lease = max([seat.lease, *(o.envelope.seq + 1 for o in outs)])
            if kill is not None:
                self.restart(seat)
                return
        for out in outs:
            for to in out.to:
                self.queue.append((seat.me.public_key, to, out.envelope.encode()))

    def restart(self, seat: Seat) -> None:
        """Kill -9 and restart: in-flight messages to it are lost with its links; it replays
        its journal, then each link comes back up (both sides send their part again)."""
        key = seat.me.public_key
        seat.restarts += 1
        self.queue = [q for q in self.queue if q[1] != key]
        seat.rematch = Rematch(seat.me, seat.done, seq=seat.lease,
                               new_table=lambda: next(seat.tables))
        self.step(seat, seat.rematch.restore(list(seat.journal)))
        if seat.rematch.my_answer() is None:  # killed before its answer was durable: asked again
            self.step(seat, seat.rematch.answer(True, self.choice))
        for other in self.seats.values():
            if other is not seat:
                self.step(seat, seat.rematch.again_to(other.me.public_key))
                self.step(other, other.rematch.again_to(key))

    def run(self) -> None:
        while self.queue:
            sender, to, data = self.queue.pop(0)
            seat = self.seats[to]
            try:
                outs = seat.rematch.receive_bytes(sender, data)
            except RemoteProtocolError as exc:
                self.refused.append(exc)
                outs = []
            self.step(seat, outs)


def _table(n: int, victim: int, kills: dict[int, str]) -> tuple[Table, Finished]:
    people = identities(n)
    done = finished(people, "eights", winners=(1,))
    seats = []
    for i, p in enumerate(people):
        tables = (f"{j:08x}{i:08x}" for j in itertools.count(1))
        seats.append(Seat(p, done, tables, Rematch(p, done, new_table=lambda t=tables: next(t)),
                          kills=kills if i == victim else {}))
    return Table(seats), done


def _play(n: int, victim: int, kills: dict[int, str]) -> Table:
    table, _ = _table(n, victim, kills)
    for seat in list(table.seats.values()):
        table.step(seat, seat.rematch.answer(True))
    table.run()
    return table


def _writes(n: int, victim: int) -> int:
    return next(iter(_play(n, victim, {}).seats.values())).writes if victim < 0 else \
        list(_play(n, -1, {}).seats.values())[victim].writes


def _case(victim: int, at: int, when: str, again: str | None) -> Any:
    """CI runs the proposer's and one other seat's kills, the second kill like the first
    (about 4 s); LANCARDS_LONG=1 every combination (about 10 s)."""
    quick = victim in (0, 2) and again in (None, when)
    return pytest.param(victim, at, when, again, id=f"seat{victim}-write{at}-{when}-"
                        f"{again or 'once'}", marks=() if quick else pytest.mark.long)


CASES = [_case(victim, at, when, again)
         for victim in range(3) for at in range(1, _writes(3, victim) + 1)
         for when in ("before", "after") for again in (None, "before", "after")]


@pytest.mark.parametrize(("victim", "at", "when", "again"), CASES)
def test_a_seat_killed_at_any_write_of_the_agreement_twice_resumes_and_joins_the_next_game(
        victim: int, at: int, when: str, again: str | None) -> None:
    kills = {at: when} | ({at + 1: again} if again else {})
    table = _play(3, victim, kills)
    seats = list(table.seats.values())
    assert seats[victim].restarts == (2 if again else 1) or (
        again and seats[victim].restarts == 1 and seats[victim].writes == at)
    started = [s.rematch.started for s in seats]
    assert all(t is not None for t in started), [s.rematch.failed for s in seats]
    statements = {t.statement["tbl"] for t in started if t is not None}
    assert len(statements) == 1  # one next game, the same on every seat
    first = started[0]
    assert first is not None
    assert [m.public_key for m in first.seats] == [m.public_key for m in seats[0].done.table.seats]
    assert verify_started(first.statement, first.sigs, "audit").statement == first.statement
    # nothing refused but repeats of what was sent before the kill
    assert {e.reason for e in table.refused} <= {Reason.REPLAYED}, table.refused
    assert not any(e.reason == Reason.EQUIVOCATION for e in table.refused)


def test_the_journal_lines_are_the_answers_and_the_statement_with_its_signatures() -> None:
    table = _play(3, -1, {})
    seats = list(table.seats.values())
    proposer = table.seats[seats[0].done.table.seats[0].public_key]  # the first "yes"
    kinds = [next(iter(line)) for line in proposer.journal]
    assert kinds[0] == "answer"
    assert proposer.journal[0]["answer"]["by"] == proposer.me.public_key.hex()
    assert kinds.count("answer") == 3 and "statement" in kinds
    last = proposer.journal[-1]
    assert set(last["sigs"]) == {s.me.public_key.hex() for s in seats}
    # a seat restored from these lines alone holds the started game and sends nothing new
    again = Rematch(proposer.me, proposer.done, seq=proposer.lease)
    assert again.restore(proposer.journal) == []
    assert again.started is not None and again.started.statement == last["statement"]
    assert again.take_lines() == []


def test_a_restored_no_stays_no_and_a_restored_seat_builds_no_second_statement() -> None:
    people = identities(3)
    done = finished(people, "eights", winners=(0,))
    r = Rematch(people[2], done)
    r.answer(False)
    lines = r.take_lines()
    back = Rematch(people[2], done, seq=10)
    assert back.restore(lines) == [] and back.failed == "you stopped"
    # the proposer killed after its statement line: restored, it sends the same statement
    table, done = _table(3, -1, {})
    seats = [table.seats[m.public_key] for m in done.table.seats]  # seat order: [0] proposes
    for seat in seats[1:]:
        table.step(seat, seat.rematch.answer(True))
    table.run()
    outs = seats[0].rematch.answer(True)
    statement = seats[0].rematch.statement
    assert statement is not None
    lines = seats[0].rematch.take_lines()
    back = Rematch(seats[0].me, done, seq=100, new_table=lambda: "ffffffffffffffff")
    assert back.restore(lines) == [] and back.statement == statement and back.signed
    again = back.again_to(seats[1].me.public_key)
    assert [o.envelope.type for o in again] == ["rematch.answer", "rematch.sign"]
    assert again[1].envelope.body["statement"] == statement
    assert {o.envelope.type for o in outs} == {"rematch.answer", "rematch.sign"}


def test_a_told_start_of_another_statement_is_refused_and_the_signed_one_is_taken() -> None:
    table = _play(3, -1, {})
    seats = list(table.seats.values())
    nxt = seats[0].rematch.started
    assert nxt is not None
    everyone = {s.me.public_key.hex() for s in seats}
    # seat 2's lines up to its own signature: killed before the others' signatures came
    lines = [line for line in seats[2].journal if "answer" in line or set(line["sigs"]) != everyone]
    back = Rematch(seats[2].me, seats[2].done, seq=500)
    back.restore(lines)
    assert back.signed and back.started is None
    elsewhere = next(iter(_play(3, -1, {}).seats.values())).rematch.started  # another table's
    assert elsewhere is not None and elsewhere.statement != nxt.statement
    with pytest.raises(TableError) as err:
        back.take_started(elsewhere, "ann")
    assert err.value.reason == Reason.TABLE_RULES and "another statement" in str(err.value)
    assert back.started is None
    back.take_started(nxt, "ann")
    assert back.started == nxt
    assert back.take_lines()[-1]["sigs"] == nxt.sigs
