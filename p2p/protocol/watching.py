"""The observer's side of watching a table (``docs/protocol.md`` 11.11), sans-I/O.

:class:`Watching` speaks to one seated peer over an authenticated link: :meth:`Watching.ask`
is the ``watch.ask`` to send whenever the link comes up (``have``: the entries held, so a
reconnection goes on where it stopped); :meth:`Watching.receive` takes the peer's answers. The
first must be ``watch.table``: the started table, every seat's start signature verified, the
table id the observer asked for, the peer seated in it. Then each ``watch.entry`` goes through
an observer's :class:`~lancards.p2p.protocol.core.GameCore` (:meth:`GameCore.observer`): the
signature, number, hash chain, author's turn, every proof of shuffle, decryption share and
opening, the move against the rules and the state hash, as a player checks them. The observer
sees the public view only (it holds no key share and is sent no sealed payload).

A rejected message changes nothing and is told (:class:`Event` ``rejected``); a signed entry
that breaks the rules names its author (``cheat``) and stops the watch, as the table halts.

The table plays again (issue 27): after the game's end the peer may send ``watch.next``, the
next game's started table. It is taken (:attr:`Watching.next`, :class:`Event` ``next``) only
once the game watched has ended here, with every seat's start signature good, its ``follows``
naming this table and the last entry this observer verified (``follows.tbl``,
``follows.head``), and the watched peer seated in it; else it is refused with the reason word
(``out-of-order``, ``wrong-table``, ``not-seated``, ``bad-signature``, ``unsigned``,
``malformed``) and changes nothing. The observer then watches the next table
(:meth:`Watching.following`) on the same link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import (
    EquivocationError,
    LocalProtocolError,
    PeerError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.schemas import MESSAGE_SCHEMAS
from lancards.p2p.protocol.table import StartedTable, verify_started
from lancards.p2p.protocol.wire import decode_envelope, link_envelope

WATCH_ANSWERS: Final = {t: MESSAGE_SCHEMAS[t] for t in ("watch.table", "watch.entry",
                                                         "watch.next")}
"""What an observer accepts from the peer it watches."""

CHEATS: Final = (Reason.ILLEGAL, Reason.OUT_OF_TURN, Reason.WRONG_STATE, Reason.MALFORMED)
"""Rejections of a validly signed entry that prove its author broke the rules (11.4)."""


@dataclass(frozen=True, slots=True)
class Event:
    """What a message did: ``table`` (the table is known), ``entry`` (entry ``seq`` verified
    and taken), ``next`` (the table plays again: ``text`` is the next table's id),
    ``rejected`` (nothing changed; ``text`` says why), ``cheat`` (an author named; the watch
    stops). ``error``: the refusal behind a ``rejected`` or ``cheat`` event when there is one
    (its reason code and sender, for words in the player's language); ``text`` is its English
    ``str``."""

    kind: Literal["table", "entry", "next", "rejected", "cheat"]
    text: str = ""
    seq: int = -1
    error: PeerError | None = None


class Watching:
    """An observer following one seated peer (see the module docstring).

    Args:
        me: the observer's identity (any key; it is never seated).
        table_id: the table to watch (16 hex digits).
        peer: the seated peer's Ed25519 key (32 bytes), proven by the link's hello.
    """

    def __init__(self, me: Identity, table_id: str, peer: bytes) -> None:
        self.me, self.table_id, self.peer = me, table_id, peer
        self.core: GameCore | None = None
        """The observer's core once ``watch.table`` came (its record, its public state)."""
        self.cheat: str | None = None
        """The cheat that stopped the watch, once one did (English)."""
        self.cheat_error: RecordError | None = None
        """The same cheat as the refusal that proved it (its author and :class:`Reason`)."""
        self.cheat_entry: dict[str, Any] | None = None
        """The signed entry refused as that cheat (not for a fork: its entries are in
        :attr:`cheat_error`), for the words of its move."""
        self.next: StartedTable | None = None
        """The next game of the series once its ``watch.next`` was taken."""
        self._link = f"the watched peer {describe(peer)}"

    def ask(self) -> bytes:
        """The ``watch.ask`` to send when the link comes up (from the entries held)."""
        have = 0 if self.core is None else len(self.core.record)
        return link_envelope(self.me, "watch.ask", self.table_id, {"have": have}).encode()

    def over(self) -> bool:
        """Whether the game ended or the watch stopped on a cheat."""
        return self.cheat is not None or (self.core is not None and self.core.to_act() is None)

    def receive(self, data: bytes) -> Event:
        """One message from the watched peer. Never raises for bad input."""
        try:
            env = decode_envelope(data, self._link, expected_sender=self.peer,
                                  types=WATCH_ANSWERS)
            if env.table != self.table_id:
                raise RemoteProtocolError(self._link, Reason.WRONG_TABLE, f"table {env.table}"
                                          ).with_code("other-table", table=env.table)
            if env.type == "watch.table":
                return self._on_table(env.body["statement"], env.body["sigs"])
            if env.type == "watch.next":
                return self._on_next(env.body["statement"], env.body["sigs"])
            return self._on_entry(env.body["entry"])
        except PeerError as exc:
            return Event("rejected", str(exc), error=exc)

    def _on_table(self, statement: dict[str, object], sigs: dict[str, str]) -> Event:
        if self.core is not None:  # asked again after a reconnection: the same table
            if statement != self.core.table.statement:
                raise RemoteProtocolError(self._link, Reason.WRONG_TABLE,
                                          "it sent another table than before"
                                          ).with_code("watch-other-table")
            return Event("table")
        table = verify_started(statement, sigs, self._link)
        if table.spec.table != self.table_id:
            raise RemoteProtocolError(self._link, Reason.WRONG_TABLE,
                                      f"it sent table {table.spec.table}").with_code(
                                          "watch-sent-table", table=table.spec.table)
        if self.peer not in {m.public_key for m in table.seats}:
            raise RemoteProtocolError(self._link, Reason.NOT_SEATED,
                                      "the peer is not seated at the table it sent"
                                      ).with_code("watch-not-seated")
        self.core = GameCore.observer(table)
        seat = next(m for m in table.seats if m.public_key == self.peer)
        self._link = f"the watched peer {seat}"  # by name once the table says it (h1's trial:
        return Event("table")  # "message from the watched peer [QF4Z-...] refused")

    def _on_next(self, statement: dict[str, object], sigs: dict[str, str]) -> Event:
        core = self.core
        if core is None or self.cheat is not None or core.to_act() is not None:
            raise RemoteProtocolError(self._link, Reason.OUT_OF_ORDER,
                                      "a next game before the end of this one"
                                      ).with_code("watch-next-early")
        follows = statement.get("follows")
        if not isinstance(follows, dict) or (follows.get("tbl"), follows.get("head")) != (
                self.table_id, core.record.head):
            got = follows if isinstance(follows, dict) else {}
            raise RemoteProtocolError(
                self._link, Reason.WRONG_TABLE,
                f"its next game follows table {got.get('tbl')} (entry "
                f"{str(got.get('head'))[:12]}), not the one watched here ({self.table_id}, "
                f"entry {core.record.head[:12]})").with_code(
                    "watch-next-follows", table=got.get("tbl"), head=str(got.get("head"))[:12],
                    here=self.table_id, here_head=core.record.head[:12])
        table = verify_started(statement, sigs, self._link)
        if self.peer not in {m.public_key for m in table.seats}:
            raise RemoteProtocolError(self._link, Reason.NOT_SEATED,
                                      "the peer is not seated at the next game it sent"
                                      ).with_code("watch-next-not-seated")
        if self.next is None:
            self.next = table
        elif self.next.statement != table.statement:
            raise RemoteProtocolError(self._link, Reason.WRONG_TABLE,
                                      "it sent another next game than before"
                                      ).with_code("watch-other-next")
        return Event("next", table.spec.table)

    def following(self) -> Watching:
        """The watch of the next game (after :attr:`next`), on the same link: its
        :meth:`ask` is the first message to send.

        Raises:
            LocalProtocolError: no next game was taken.
        """
        if self.next is None:
            raise LocalProtocolError("the table has not said it plays again")
        return Watching(self.me, self.next.spec.table, self.peer)

    def _on_entry(self, raw: dict[str, object]) -> Event:
        core = self.core
        if core is None:
            raise RemoteProtocolError(self._link, Reason.OUT_OF_ORDER, "an entry before the table"
                                      ).with_code("watch-entry-early")
        if self.cheat is not None:
            return Event("rejected", "the watch stopped on a cheat")
        entry = Entry.from_dict(dict(raw), self._link)
        if entry.seq < len(core.record) and core.record.entries[entry.seq] == entry:
            return Event("rejected", f"entry {entry.seq + 1} again")
        try:
            core.record.append(entry, core.validator(self._link), link=self._link)
        except EquivocationError as exc:
            self.cheat, self.cheat_error = str(exc), exc
            return Event("cheat", self.cheat, entry.seq, exc)
        except RecordError as exc:
            if exc.reason in CHEATS and entry.verifies():
                self.cheat, self.cheat_error = str(exc), exc
                self.cheat_entry = entry.to_dict()
                return Event("cheat", self.cheat, entry.seq, exc)
            raise
        return Event("entry", seq=entry.seq)


__all__ = ["CHEATS", "WATCH_ANSWERS", "Event", "Watching"]
