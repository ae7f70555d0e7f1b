"""Resuming a seat that signed the start but never saw the table start (``docs/protocol.md``,
"Resuming a seat signed but not started").

A guest makes its ``table.json`` durable *before* its start signature (``table.sign``) leaves:
the statement it signed, its nick, where it listens and the addresses it knows, but no
signatures (:meth:`lancards.p2p.net.store.TableStore.save_table`). Killed after that, it cannot tell
whether the table started. ``lancards resume`` of such a folder asks the seated peers it can
reach (``table.ask``, carrying the statement's hash); a peer whose game is running answers with
``table.told``: the statement, every start signature and its address book of the seated members
(:func:`told_body`). :class:`StartFetch` checks each answer: from a seated peer, to an ask sent to
it, the same statement this seat signed, every signature verifying
(:func:`lancards.p2p.protocol.statement.verify_started`); any other answer is refused with an error
naming the peer and ignored, and the seat waits for another. The adapter
:func:`lancards.p2p.net.fetch_started.fetch_started` drives it over a mesh for a bounded time: the
table never started (the host freed the seat) when no peer answered in time.

Envelope numbers: every ask is numbered from the seat's journal lease
(:meth:`lancards.p2p.net.store.TableStore.lease_envelopes`), so the game that follows numbers above
it and the peers' replay guards accept it.

A guest still in its lobby after signing asks the same way when its link to the host comes
back (a host killed after making its started table durable but before ``table.started`` left,
then resumed): :meth:`lancards.p2p.protocol.table.Lobby.receive` takes the host's ``table.told`` as
the start (:func:`check_told`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    Reason,
    TableError,
)
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.statement import StartedTable, statement_hash, verify_started
from lancards.p2p.protocol.wire import MESSAGE_TYPES, ReplayGuard, decode_envelope, sign_envelope

ASK_EVERY_S = 2.0
"""Seconds between two asks to a linked peer that has not answered (a host still in its lobby
answers only once its game runs)."""
START_WAIT_S = 60.0
"""Seconds ``lancards resume`` waits for a seated peer to answer before it says the table never
started with this seat."""

Addresses = dict[bytes, tuple[str, int]]
"""Ed25519 key (32 bytes) -> (host, port)."""


def told_body(table: StartedTable, asked_hash: str, asker: str,
              addrs: Mapping[bytes, tuple[str, int]]) -> dict[str, Any]:
    """A seated peer's ``table.told`` body for a ``table.ask`` of ``asked_hash``.

    Args:
        table: this peer's started table.
        asked_hash: the ask's ``statement_hash`` (64 hex digits, schema-checked).
        asker: the asker's name, for the error.
        addrs: this peer's address book (seated keys only are sent).

    Raises:
        TableError: ``table-rules`` when the asker signed another statement than this table's.
    """
    if asked_hash != statement_hash(table.statement):
        raise TableError(asker, Reason.TABLE_RULES,
                         "asks for the start of a statement this table did not start"
                         ).with_code("ask-other-statement")
    seated = {m.public_key for m in table.seats}
    return {"statement": dict(table.statement), "sigs": dict(table.sigs),
            "addrs": {k.hex(): [h, p] for k, (h, p) in addrs.items() if k in seated}}


class StartFetch:
    """One resumed seat's asks for the started table of the statement it signed (sans-I/O).

    Args:
        me: this seat's identity (a seat of ``statement``).
        statement: the start statement this seat signed (from its ``table.json``).
        next_seq: the first envelope number to use (the journal's lease).

    Raises:
        TableError: ``statement`` is not a start statement seating ``me`` (a corrupt store).
    """

    def __init__(self, me: Identity, statement: Mapping[str, Any], next_seq: int) -> None:
        self.me = me
        self.statement = dict(statement)
        self.hash = statement_hash(self.statement)
        try:
            self.table_id = str(self.statement["tbl"])
            self.seats = {bytes.fromhex(m["pk"]): str(m.get("nick", ""))
                          for m in self.statement["seats"]}
        except (KeyError, TypeError, ValueError, AttributeError):
            raise TableError("the table file", Reason.MALFORMED,
                             "the signed statement has no table or seats").with_code(
                                 "statement-no-seats") from None
        if me.public_key not in self.seats:
            raise TableError("the table file", Reason.TABLE_RULES,
                             "the signed statement does not seat this peer").with_code(
                                 "statement-not-me")
        self.next_seq = next_seq
        self.asked: set[bytes] = set()
        """The peers this seat has asked (an answer from anyone else is refused)."""
        self._guard = ReplayGuard(self.name)

    def name(self, key: bytes) -> str:
        """A seat's name for errors (nick and fingerprint), else the key's fingerprint."""
        nick = self.seats.get(key)
        return describe(key, nick) if nick else describe(key)

    def ask(self, peer: bytes) -> bytes:
        """The encoded ``table.ask`` envelope for ``peer`` (numbered ``next_seq``, then 1 up).

        Raises:
            LocalProtocolError: ``peer`` is not seated in the statement.
        """
        if peer not in self.seats or peer == self.me.public_key:
            raise LocalProtocolError(f"{describe(peer)} is not another seat of the table")
        env = sign_envelope(self.me, "table.ask", self.table_id, self.next_seq,
                            {"statement_hash": self.hash})
        self.next_seq += 1
        self.asked.add(peer)
        return env.encode()

    def receive(self, peer: bytes, data: bytes) -> tuple[StartedTable, Addresses] | None:
        """Check one message from the authenticated link of ``peer``.

        Returns:
            The started table and ``peer``'s address book (seated keys only) for a good
            ``table.told``; ``None`` for other traffic of a seated peer (its lobby or game
            messages: they come again once this seat plays).

        Raises:
            RemoteProtocolError: naming ``peer``: ``not-seated`` (not a seat of the statement),
                any envelope error (``malformed``, ``bad-signature``, ``replayed`` ...),
                ``wrong-table``, ``wrong-sender`` (a ``table.told`` this seat never asked
                for), ``table-rules`` (another statement than the one signed), ``malformed``,
                ``unsigned``, ``bad-signature`` (from ``verify_started``), ``not-seated`` (the
                address book names a peer not seated).
        """
        who = self.name(peer)
        if peer not in self.seats or peer == self.me.public_key:
            raise TableError(who, Reason.NOT_SEATED, "is not a seat of the signed statement"
                             ).with_code("not-in-statement")
        env = decode_envelope(data, who, expected_sender=peer, types=MESSAGE_TYPES)
        if env.table != self.table_id:
            raise TableError(who, Reason.WRONG_TABLE, f"message for table {env.table}"
                             ).with_code("other-table", table=env.table)
        if env.sig:
            self._guard.accept(env)
        if env.type != "table.told":
            return None
        if peer not in self.asked:
            raise TableError(who, Reason.WRONG_SENDER, "answers a 'table.ask' never sent to it"
                             ).with_code("unasked-answer")
        return check_told(env.body, self.statement, who)


def check_told(body: Mapping[str, Any], signed: Mapping[str, Any],
               who: str) -> tuple[StartedTable, Addresses]:
    """Check a ``table.told`` body (schema-checked) against the statement this seat signed.

    Returns:
        The started table and the address book (seated keys only).

    Raises:
        TableError: naming ``who``: ``malformed``, ``unsigned``, ``bad-signature`` (from
            ``verify_started``), ``table-rules`` (another statement than ``signed``),
            ``not-seated`` (the address book names a peer not seated).
    """
    started = verify_started(body["statement"], body["sigs"], who)
    if started.statement != dict(signed):
        raise TableError(who, Reason.TABLE_RULES,
                         "answers with another start statement than the one this seat signed"
                         ).with_code("told-other-statement")
    book = {bytes.fromhex(k): (str(h), int(p)) for k, (h, p) in body["addrs"].items()}
    seated = {m.public_key for m in started.seats}
    if set(book) - seated:
        raise TableError(who, Reason.NOT_SEATED, "address book names a peer not seated"
                         ).with_code("addrs-unseated")
    return started, book


__all__ = ["ASK_EVERY_S", "START_WAIT_S", "StartFetch", "check_told",
           "told_body"]
