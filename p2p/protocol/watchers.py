"""A seated peer's observers (``docs/protocol.md`` 11.11), sans-I/O: who may watch, what each is
sent, and who is dropped.

An observer has no seat: a key of its own, never in the seats, never in the record, never
waited for. It links to one seated peer and sends one ``watch.ask {"have"}``; the peer answers
``watch.table`` (the started table, every start signature: the record's genesis) and then, as
``watch.entry``, every entry from ``have`` on and each later one as this peer appends or accepts
it (:meth:`Watchers.top_up`, after every batch of the core's outputs). Every message to an
observer is one of these two, link-only (unsigned: the link is authenticated, the entries are
signed by their authors and the table by every seat): no sealed payload, ack, vote or chat ever
goes to an observer, so it sees only what the record makes public.

Bounds: at most :data:`MAX_WATCHERS` observers are served per peer (the next is dropped with
the word ``full``), at most :data:`WATCH_LINKS` unseated links are let in at all
(:meth:`Watchers.may_link`), and an observer's link is dropped (:class:`Drop`, a reason word
the observer shows) when it sends anything but a well-formed ``watch.ask`` for this table
(``not-seated`` for what only a seat may send, ``started`` for a ``table.join``: a joiner
too late, told so in words by ``lancards join``; else the rejection's reason), more than
:data:`MAX_ASKS` asks on one link (``flood``), or cannot keep up (``slow``: its queue is full).
None of this reaches the table's screen: the drops are kept in :attr:`Watchers.dropped`.

A peer halted on a proven cheat also sends each observer the cheater's signed entry it
refused (out of turn, against the rules, with a false proof) or, for a fork, the other entry of
the two (the one its record does not hold), as one more ``watch.entry``: the observer's own
checks refuse it naming its author, so the watch stops on the cheat in words as the seated
screens do (the LAN trial with a seated attacker: the watcher read "eve to move" for ever
while both players' tables had stopped on eve's cheat).

When the table plays again (issue 27), the peer sends each observer it serves ``watch.next``:
the next game's started table (:meth:`Watchers.next_table`); the observer checks it follows the
game it watched and asks the next table on the same link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.core_parts import Send
from lancards.p2p.protocol.errors import RemoteProtocolError
from lancards.p2p.protocol.statement import StartedTable
from lancards.p2p.protocol.wire import MESSAGE_TYPES, decode_envelope, link_envelope

MAX_WATCHERS: Final = 4
"""Observers one seated peer serves at once."""

WATCH_LINKS: Final = 2 * MAX_WATCHERS
"""Unseated links a seated peer's mesh lets in at once (served or about to be dropped)."""

MAX_ASKS: Final = 4
"""``watch.ask`` messages one observer may send on one link (the first is the one that
counts; a reconnection is a new link)."""

DROP_WORDS: Final = ("full", "not-seated", "flood", "slow", "wrong-table", "malformed",
                     "started")
"""The reasons a peer drops an observer's link (told in the link's close frame)."""


@dataclass(frozen=True, slots=True)
class Drop:
    """Close the link to observer ``key``, telling it ``reason`` (one of :data:`DROP_WORDS`,
    or another rejection reason word); ``detail`` says why in a sentence."""

    key: bytes
    reason: str
    detail: str


WatchOutput = Send | Drop


class Watchers:
    """The observers of one seated peer (see the module docstring).

    Args:
        core: this seat's game core (read only: its table and record).
        cap: the most observers served at once.
    """

    def __init__(self, core: GameCore, cap: int = MAX_WATCHERS) -> None:
        self.core = core
        self.cap = cap
        self.linked: set[bytes] = set()
        """Unseated keys whose link is up."""
        self.served: dict[bytes, int] = {}
        """Observer key -> the number of the next entry it is sent."""
        self.asks: dict[bytes, int] = {}
        self.dropped: list[tuple[str, str]] = []
        """(observer key in hex, reason) of every drop, oldest first (never on the table)."""
        self._encoded: tuple[int, bytes] | None = None  # the last entry's message, once
        self._told: dict[bytes, int] = {}
        """Observer key -> how many of the core's :attr:`~GameCore.told` it was sent."""

    def is_observer(self, key: bytes) -> bool:
        """Whether ``key`` is not seated at this table (its messages are an observer's)."""
        return self.core.seat_of(key) is None

    def may_link(self, key: bytes) -> bool:
        """Whether the mesh may let in a link from unseated ``key`` now (:data:`WATCH_LINKS`)."""
        return self.is_observer(key) and (key in self.linked or len(self.linked) < WATCH_LINKS)

    def link_up(self, key: bytes) -> None:
        """The link of unseated ``key`` came up (it is served once it asks)."""
        self.linked.add(key)
        self.served.pop(key, None)
        self.asks.pop(key, None)
        self._told.pop(key, None)

    def link_down(self, key: bytes) -> None:
        """The link of ``key`` went down: forget it (a new link asks anew)."""
        self.linked.discard(key)
        self.served.pop(key, None)
        self.asks.pop(key, None)
        self._told.pop(key, None)

    def receive(self, key: bytes, data: bytes) -> list[WatchOutput]:
        """One message from unseated ``key``'s link: the answer to a good first ask, nothing
        for a later one, a :class:`Drop` for anything else. Never raises."""
        link = f"observer {key.hex()[:16]}"
        try:
            env = decode_envelope(data, link, expected_sender=key, types=MESSAGE_TYPES)
        except RemoteProtocolError as exc:
            return self._drop(key, exc.reason.value, str(exc))
        if env.type == "table.join":  # a joiner reached a started table: it says so in words
            return self._drop(key, "started", f"{link} asked to join the started table")
        if env.type != "watch.ask":
            return self._drop(key, "not-seated", f"{link} sent {env.type!r}: only a seat may")
        if env.table != self.core.table_id:
            return self._drop(key, "wrong-table", f"{link} asked for table {env.table}")
        asks = self.asks[key] = self.asks.get(key, 0) + 1
        if asks > MAX_ASKS:
            return self._drop(key, "flood", f"{link} asked {asks} times on one link")
        if key in self.served:
            return []
        if len(self.served) >= self.cap:
            return self._drop(key, "full", f"{self.cap} observers watch this peer already")
        table = self.core.table
        self.served[key] = min(int(env.body["have"]), len(self.core.record))
        genesis = link_envelope(self.core.me, "watch.table", self.core.table_id,
                                {"statement": table.statement, "sigs": table.sigs})
        return [Send(key, genesis.encode()), *self._top_up_one(key)]

    def top_up(self) -> list[WatchOutput]:
        """Every entry appended since each observer's last, in order (call after every batch
        of the core's outputs). Never raises."""
        out: list[WatchOutput] = []
        for key in list(self.served):
            out += self._top_up_one(key)
        return out

    def next_table(self, table: StartedTable) -> list[WatchOutput]:
        """``watch.next`` to every observer served: ``table``, the next game of the series
        (its statement ``follows`` this one), every seat's start signature. Never raises."""
        body = {"statement": table.statement, "sigs": table.sigs}
        data = link_envelope(self.core.me, "watch.next", self.core.table_id, body).encode()
        return [Send(key, data) for key in self.served]

    def queue_full(self, key: bytes) -> list[WatchOutput]:
        """The observer's queue was full: it cannot keep up; drop it (``slow``; once)."""
        return self._drop(key, "slow", "its queue is full") if key in self.served else []

    def _top_up_one(self, key: bytes) -> list[WatchOutput]:
        out: list[WatchOutput] = []
        entries = self.core.record.entries
        for number in range(self.served[key], len(entries)):
            out.append(Send(key, self._entry_message(number)))
        self.served[key] = len(entries)
        told = self.core.told
        for type_, body in told[self._told.get(key, 0):]:
            for entry in self._cheat_entries(type_, body):
                data = link_envelope(self.core.me, "watch.entry", self.core.table_id,
                                     {"entry": entry})
                out.append(Send(key, data.encode()))
        self._told[key] = len(told)
        return out

    def _cheat_entries(self, type_: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The signed entries of a piece of evidence an observer is sent (see the module
        docstring): a refused entry, or the entry of a fork the record does not hold (both
        when the record holds neither)."""
        if type_ == "record.entry":
            return [body["entry"]]
        if type_ != "record.evidence":
            return []
        entries = self.core.record.entries
        pair = [body["first"], body["second"]]
        seq = pair[0].get("seq")
        if isinstance(seq, int) and 0 <= seq < len(entries):
            held = entries[seq].to_dict()
            return [e for e in pair if e != held][:1]
        return pair

    def _entry_message(self, number: int) -> bytes:
        """The ``watch.entry`` of entry ``number`` (the same bytes for every observer; the
        latest is kept, so live observers share one encoding)."""
        if self._encoded is not None and self._encoded[0] == number:
            return self._encoded[1]
        body: dict[str, Any] = {"entry": self.core.record.entries[number].to_dict()}
        data = link_envelope(self.core.me, "watch.entry", self.core.table_id, body,
                             check=False).encode()  # encode() checks the body
        self._encoded = (number, data)
        return data

    def _drop(self, key: bytes, reason: str, detail: str) -> list[WatchOutput]:
        self.served.pop(key, None)
        self._told.pop(key, None)
        self.dropped.append((key.hex(), reason))
        del self.dropped[:-64]
        return [Drop(key, reason, detail)]


__all__ = ["DROP_WORDS", "MAX_ASKS", "MAX_WATCHERS", "WATCH_LINKS", "Drop", "WatchOutput",
           "Watchers"]
