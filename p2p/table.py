"""Table formation before the game starts, as a sans-I/O state machine.

One peer creates a table and *hosts its lobby*: it takes joins and leaves and sends the roster
(the members) to everyone. When the host proposes the start, every seated peer checks the start
statement against its own view and signs it; the table has started when every seated peer's
signature is on it. Nobody can be seated, or held to a game or options, without their signature.
After the start the host has no special role: the started table is the record's genesis.

Seat order (``docs/protocol.md``, "Seat order"): members sorted by
``SHA-256(b"lancards/v1/seat\\x00" + table id (ASCII) + Ed25519 key)``. It depends on nobody's
join time, so every peer computes the same order; the first dealer is then drawn from the joint
randomness (ruling L8-2).

Messages (bodies in :data:`lancards.p2p.schemas.MESSAGE_SCHEMAS`): ``table.join`` (guest to
host), ``table.port`` (member to host: its listening port; only members' ports are kept),
``table.leave`` (either way; from the host it closes the lobby), ``table.roster`` (host to all),
``table.start`` (host to all: the statement), ``table.sign`` (each seat to the host),
``table.started`` (host to all: statement and every signature), ``table.addrs`` (host to every
seat once started: the seated members' addresses, nobody else's).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lancards.p2p.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.identity import (
    Identity,
    PublicIdentity,
    check_nickname,
    check_public_keys,
    describe,
    verify_signature,
)
from lancards.p2p.record import Record
from lancards.p2p.schemas import TableAddrs, TablePort, conform
from lancards.p2p.wire import TABLE_ID, Envelope, canonical, hex_field, require, sign_envelope

SEAT_TAG: Final = b"lancards/v1/seat\x00"
"""Domain tag of the seat order hash."""

START_TAG: Final = b"lancards/v1/table-start\x00"
"""Domain tag of start statement signatures."""

OptionValue = str | bool | int
RulesCheck = Callable[[str, Mapping[str, OptionValue]], tuple[dict[str, OptionValue], int, int]]
"""Validates a game name and its options: returns (all options with defaults, fewest seats,
most seats); raises ``engine.core.RulesError`` (or any ``Exception``) to refuse."""

_MEMBER_SCHEMA: Final = {"pk": str, "xpk": str, "nick": str}
_SPEC_SCHEMA: Final = {
    "tbl": str,
    "game": str,
    "options": dict,
    "host": str,
    "min_seats": int,
    "max_seats": int,
}
_STATEMENT_SCHEMA: Final = {**_SPEC_SCHEMA, "seats": list}


def registry_rules_check(
    game: str, options: Mapping[str, OptionValue]
) -> tuple[dict[str, OptionValue], int, int]:
    """The default :data:`RulesCheck`: the engine's rule-set registry (``engine.options``).

    Raises:
        engine.core.RulesError: an unknown game, option or value.
    """
    from lancards.engine.options import rule_set

    spec = rule_set(game)
    values = spec.validate(options)
    spec.make_rules(values)
    return values, spec.min_players, spec.max_players


def new_table_id() -> str:
    """A fresh random table id: 16 lowercase hex digits."""
    return os.urandom(8).hex()


def member_to_dict(member: PublicIdentity) -> dict[str, str]:
    """``{"nick", "pk", "xpk"}`` of a member."""
    return {"pk": member.public_key.hex(), "xpk": member.x25519_public.hex(), "nick": member.nick}


def member_from_dict(data: Any, link: str) -> PublicIdentity:
    """Parse a member; its keys must be usable (:func:`lancards.p2p.identity.check_public_keys`).

    Raises:
        TableError: ``malformed`` fields, keys (an all-zero or other low-order X25519 key, an
            Ed25519 key that is no point or of small order) or nickname; names ``link`` and
            the member.
    """
    raw = require(data, _MEMBER_SCHEMA, link, "member", error=TableError)
    try:
        nick = check_nickname(raw["nick"])
    except LocalProtocolError as exc:
        raise TableError(link, Reason.MALFORMED, str(exc)) from None
    member = PublicIdentity(
        hex_field(raw["pk"], 32, link, "member key", error=TableError),
        hex_field(raw["xpk"], 32, link, "member X25519 key", error=TableError),
        nick,
    )
    try:
        check_public_keys(member.public_key, member.x25519_public)
    except LocalProtocolError as exc:
        raise TableError(link, Reason.MALFORMED, f"member {member}: {exc}") from None
    return member


def seat_order(table: str, members: Sequence[PublicIdentity]) -> tuple[PublicIdentity, ...]:
    """The members in seat order (see the module docstring)."""
    prefix = SEAT_TAG + table.encode("ascii")
    return tuple(sorted(members, key=lambda m: hashlib.sha256(prefix + m.public_key).digest()))


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a table plays.

    Attributes:
        table: the table id.
        game: the rule set's name (``level8-master``...).
        options: every rule option, defaults filled in.
        host: the lobby host's Ed25519 key, 32 bytes.
        min_seats: the fewest players the game allows.
        max_seats: the most players the game allows (2 to 6).
    """

    table: str
    game: str
    options: dict[str, OptionValue] = field(hash=False)
    host: bytes
    min_seats: int
    max_seats: int

    def to_dict(self) -> dict[str, Any]:
        """The spec's wire form."""
        return {
            "tbl": self.table,
            "game": self.game,
            "options": dict(self.options),
            "host": self.host.hex(),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
        }

    @classmethod
    def from_dict(cls, data: Any, link: str, schema: Mapping[str, Any] = _SPEC_SCHEMA) -> TableSpec:
        """Parse the wire form.

        Raises:
            TableError: ``malformed``.
        """
        raw = require(data, schema, link, "table spec", error=TableError)
        if not TABLE_ID.fullmatch(raw["tbl"]) or not 2 <= raw["min_seats"] <= raw["max_seats"] <= 6:
            raise TableError(link, Reason.MALFORMED, "table spec has a bad id or seat range")
        if not all(isinstance(v, (str, bool, int)) for v in raw["options"].values()):
            raise TableError(link, Reason.MALFORMED, "rule option values must be str, bool or int")
        host = hex_field(raw["host"], 32, link, "host key", error=TableError)
        return cls(
            raw["tbl"], raw["game"], dict(raw["options"]), host, raw["min_seats"], raw["max_seats"]
        )


def start_statement(spec: TableSpec, seats: Sequence[PublicIdentity]) -> dict[str, Any]:
    """The statement every seated peer signs: the spec and the seats in seat order."""
    return {**spec.to_dict(), "seats": [member_to_dict(m) for m in seats]}


def statement_hash(statement: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical statement, in hex."""
    return hashlib.sha256(canonical(dict(statement))).hexdigest()


def sign_statement(identity: Identity, statement: Mapping[str, Any]) -> bytes:
    """This peer's signature of a start statement (64 bytes)."""
    return identity.sign(START_TAG + canonical(dict(statement)))


@dataclass(frozen=True, slots=True)
class StartedTable:
    """A table every seated peer has signed into play.

    Attributes:
        spec: the game, its options and the table id.
        seats: the players in seat order (2 to 6).
        statement: the signed start statement.
        sigs: each seat's signature of it, keyed by the seat's key in hex (128 hex digits).
    """

    spec: TableSpec
    seats: tuple[PublicIdentity, ...]
    statement: dict[str, Any] = field(hash=False)
    sigs: dict[str, str] = field(hash=False)

    def genesis(self) -> dict[str, Any]:
        """The record header's ``genesis``: ``{"sigs": {...}, "statement": {...}}``."""
        return {"statement": self.statement, "sigs": dict(self.sigs)}

    def new_record(self) -> Record:
        """An empty game record founded on this table."""
        return Record(
            self.spec.table,
            [m.public_key for m in self.seats],
            [m.nick for m in self.seats],
            self.genesis(),
        )


def verify_started(statement: Any, sigs: Any, link: str) -> StartedTable:
    """Check a start statement and every seated peer's signature of it.

    Raises:
        TableError: ``malformed`` (fields, seats not in seat order, repeated or too few or too
            many seats), ``unsigned`` (a seat's signature is missing), ``bad-signature``.
    """
    raw = require(statement, _STATEMENT_SCHEMA, link, "start statement", error=TableError)
    spec = TableSpec.from_dict({k: raw[k] for k in _SPEC_SCHEMA}, link)
    seats = tuple(member_from_dict(m, link) for m in raw["seats"])
    keys = [m.public_key for m in seats]
    if len(set(keys)) != len(keys) or not spec.min_seats <= len(seats) <= spec.max_seats:
        raise TableError(link, Reason.MALFORMED, f"{len(seats)} seats (or a repeated seat)")
    if seat_order(spec.table, seats) != seats:
        raise TableError(link, Reason.MALFORMED, "seats are not in seat order")
    if not isinstance(sigs, dict) or set(sigs) - {k.hex() for k in keys}:
        raise TableError(link, Reason.MALFORMED, "signatures must be keyed by seated keys")
    message = START_TAG + canonical(raw)
    for member in seats:
        sig = sigs.get(member.public_key.hex())
        if not sig:
            raise TableError(link, Reason.UNSIGNED, f"{member} has not signed the start")
        if (
            not isinstance(sig, str)
            or len(sig) != 128
            or not verify_signature(
                member.public_key, bytes.fromhex(sig) if _is_hex(sig) else b"", message
            )
        ):
            raise TableError(link, Reason.BAD_SIGNATURE, f"start signature of {member} is bad")
    return StartedTable(spec, seats, dict(raw), dict(sigs))


def check_record_genesis(record: Record) -> None:
    """``genesis_check`` for :func:`lancards.p2p.record.verify_lines`: the header's genesis is a
    fully signed start statement whose table, seats and nicknames are the header's.

    Raises:
        TableError: as :func:`verify_started`, or ``wrong-table`` when the header differs.
    """
    genesis = require(
        record.genesis,
        {"statement": dict, "sigs": dict},
        "record file",
        "genesis",
        error=TableError,
    )
    started = verify_started(genesis["statement"], genesis["sigs"], "record file")
    if (
        started.spec.table,
        tuple(m.public_key for m in started.seats),
        tuple(m.nick for m in started.seats),
    ) != (record.table, record.seats, record.nicks):
        raise TableError("record file", Reason.WRONG_TABLE, "header differs from the statement")


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to send: ``envelope`` to each key in ``to`` (Ed25519 keys, 32 bytes)."""

    to: tuple[bytes, ...]
    envelope: Envelope


class Lobby:
    """One peer's view of a table before it starts (host or guest).

    Use :meth:`create` (host) or :meth:`join` (guest). Feed every verified ``table.*`` envelope
    (after :func:`lancards.p2p.wire.decode_envelope` and a
    :class:`lancards.p2p.wire.ReplayGuard`) to :meth:`receive`; send what it returns.

    Attributes:
        spec: the table's spec (a guest's is provisional until the first roster).
        members: everyone in the lobby, host first, then in join order.
        started: the started table once every seat has signed, else ``None``.
        closed: the host closed the lobby, or this peer left.
    """

    def __init__(self, me: Identity, spec: TableSpec, rules_check: RulesCheck) -> None:
        self.me = me
        self.spec = spec
        self.rules_check = rules_check
        self.members: list[PublicIdentity] = [me.public()] if spec.host == me.public_key else []
        self.roster_version = 0
        self.started: StartedTable | None = None
        self.closed = False
        self._statement: dict[str, Any] | None = None
        self._sigs: dict[str, str] = {}
        self._seq = 0
        self.ports: dict[bytes, int] = {}
        """Host: the listening port each member announced (``table.port``); members only."""
        self.address_book: dict[bytes, tuple[str, int]] = {}
        """Guest: the seated members' addresses from the host's ``table.addrs``."""

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        me: Identity,
        game: str,
        options: Mapping[str, OptionValue] | None = None,
        *,
        table: str | None = None,
        rules_check: RulesCheck = registry_rules_check,
    ) -> Lobby:
        """Host a new table.

        Raises:
            LocalProtocolError: the game or options are refused by ``rules_check``.
        """
        try:
            values, lo, hi = rules_check(game, dict(options or {}))
        except Exception as exc:
            raise LocalProtocolError(f"cannot create a {game!r} table: {exc}") from exc
        spec = TableSpec(table or new_table_id(), game, values, me.public_key, lo, min(hi, 6))
        return cls(me, spec, rules_check)

    @classmethod
    def join(
        cls,
        me: Identity,
        table: str,
        host: bytes,
        game: str,
        *,
        rules_check: RulesCheck = registry_rules_check,
    ) -> tuple[Lobby, Outgoing]:
        """Ask to join a table (found by mDNS or at ``host:port``): the lobby and the join."""
        lobby = cls(me, TableSpec(table, game, {}, host, 2, 6), rules_check)
        body = {"nick": me.nick, "xpk": me.x25519_public.hex(), "game": game}
        return lobby, lobby._out((host,), "table.join", body)

    # -- local actions -----------------------------------------------------------------------

    @property
    def is_host(self) -> bool:
        return self.spec.host == self.me.public_key

    @property
    def free_seats(self) -> int:
        """Seats still free (the mDNS TXT key ``seats``)."""
        return max(0, self.spec.max_seats - len(self.members))

    def seats(self) -> tuple[PublicIdentity, ...]:
        """The current members in seat order."""
        return seat_order(self.spec.table, self.members)

    def leave(self) -> list[Outgoing]:
        """Leave before the start (a host closes the lobby for everyone).

        Raises:
            LocalProtocolError: the table has started already.
        """
        self._require_open("leave")
        self.closed = True
        if self.is_host:
            return [self._out(self._others(), "table.leave", {})]
        return [self._out((self.spec.host,), "table.leave", {})]

    def propose_start(self) -> list[Outgoing]:
        """Host: send the start statement (and sign it first).

        Raises:
            LocalProtocolError: not the host, the lobby is closed or started, or too few seats.
        """
        self._require_open("start")
        if not self.is_host:
            raise LocalProtocolError("only the table's host proposes the start")
        if len(self.members) < self.spec.min_seats:
            raise LocalProtocolError(
                f"{self.spec.game} needs at least {self.spec.min_seats} players "
                f"(currently {len(self.members)})"
            )
        self._statement = start_statement(self.spec, self.seats())
        self._sigs = {self.me.public_key.hex(): sign_statement(self.me, self._statement).hex()}
        return [self._out(self._others(), "table.start", {"statement": self._statement})]

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, env: Envelope) -> list[Outgoing]:
        """Handle one verified ``table.*`` envelope.

        Returns:
            The messages to send in answer (possibly none).

        Raises:
            TableError: the message breaks table formation (reason ``wrong-table``,
                ``wrong-sender``, ``table-rules``, ``malformed``, ``bad-signature``); the
                lobby is unchanged.
        """
        who = self.name(env.sender)
        if env.table != self.spec.table:
            raise TableError(who, Reason.WRONG_TABLE, f"message for table {env.table}")
        if env.type == "table.addrs":
            return self._on_addrs(env, who)
        if self.closed or self.started is not None:
            raise TableError(
                who,
                Reason.TABLE_RULES,
                f"{env.type!r} after the lobby {'closed' if self.closed else 'started'}",
            )
        from_host = env.sender == self.spec.host
        handlers: dict[tuple[str, bool], Callable[[Envelope, str], list[Outgoing]]] = {
            ("table.join", True): self._on_join,
            ("table.leave", True): self._on_leave,
            ("table.sign", True): self._on_sign,
            ("table.port", True): self._on_port,
            ("table.roster", False): self._on_roster,
            ("table.start", False): self._on_start,
            ("table.started", False): self._on_started,
        }
        if env.type == "table.leave" and from_host and not self.is_host:
            self.closed = True
            return []
        handler = handlers.get((env.type, self.is_host))
        if handler is None or (not self.is_host and not from_host):
            raise TableError(
                who,
                Reason.WRONG_SENDER,
                f"{env.type!r} is not expected by a {'host' if self.is_host else 'guest'}"
                " from this peer",
            )
        return handler(env, who)

    def name(self, key: bytes) -> str:
        """A member's name for errors and screens."""
        for m in self.members:
            if m.public_key == key:
                return str(m)
        return describe(key)

    def _on_join(self, env: Envelope, who: str) -> list[Outgoing]:
        if self._statement is not None:
            raise TableError(who, Reason.TABLE_RULES, "the start is already proposed")
        body = env.body
        if body["game"] != self.spec.game:
            raise TableError(
                who,
                Reason.TABLE_RULES,
                f"joins for {body['game']!r}; this table plays {self.spec.game!r}",
            )
        member = member_from_dict(
            {"pk": env.sender.hex(), "xpk": body["xpk"], "nick": body["nick"]}, who
        )
        if any(m.public_key == env.sender for m in self.members):
            raise TableError(who, Reason.TABLE_RULES, "is already at the table")
        if self.free_seats == 0:
            raise TableError(
                who, Reason.TABLE_RULES, f"the table is full ({self.spec.max_seats} seats)"
            )
        self.members.append(member)
        return [self._roster()]

    def _on_port(self, env: Envelope, who: str) -> list[Outgoing]:
        if not any(m.public_key == env.sender for m in self.members):
            raise TableError(who, Reason.NOT_SEATED, "announces a port but is not at the table")
        self.ports[env.sender] = conform(env.body, TablePort, who, "table.port",
                                         error=TableError).port
        return []

    def _on_addrs(self, env: Envelope, who: str) -> list[Outgoing]:
        if self.is_host or env.sender != self.spec.host or self.started is None:
            raise TableError(who, Reason.WRONG_SENDER, "'table.addrs' comes from the host "
                             "once the table has started")
        book = conform(env.body, TableAddrs, who, "table.addrs", error=TableError).addrs
        seated = {m.public_key for m in self.started.seats}
        keys = {bytes.fromhex(k): v for k, v in book.items()}
        if set(keys) - seated:
            raise TableError(who, Reason.NOT_SEATED, "address book names a peer not seated")
        self.address_book = {k: (host, port) for k, (host, port) in keys.items()}
        return []

    def address_book_message(
        self, hosts: Mapping[bytes, str], public_host: str, own: tuple[str, int]
    ) -> Outgoing:
        """Host, once started: ``table.addrs`` to every other seat, with the address of every
        seated member that announced its port (``hosts``: where each connected from; loopback
        addresses are replaced by ``public_host``). Nobody else is in it.

        Raises:
            LocalProtocolError: not the host, or the table has not started.
        """
        if not self.is_host or self.started is None:
            raise LocalProtocolError("only the host sends the address book, once started")
        book: dict[str, list[Any]] = {}
        for member in self.started.seats:
            key = member.public_key
            if key == self.me.public_key:
                host, port = own
            elif key in self.ports:
                host, port = hosts.get(key, "127.0.0.1"), self.ports[key]
            else:
                continue
            book[key.hex()] = [public_host if host.startswith("127.") else host, port]
        return self._out(self._others(), "table.addrs", {"addrs": book})

    def _on_leave(self, env: Envelope, who: str) -> list[Outgoing]:
        if self._statement is not None:
            raise TableError(who, Reason.TABLE_RULES, "cannot leave once the start is proposed")
        before = len(self.members)
        self.members = [m for m in self.members if m.public_key != env.sender]
        if len(self.members) == before:
            raise TableError(who, Reason.TABLE_RULES, "is not at the table")
        return [self._roster()]

    def _on_roster(self, env: Envelope, who: str) -> list[Outgoing]:
        version = env.body["version"]
        if version <= self.roster_version:
            raise TableError(who, Reason.TABLE_RULES, f"stale roster version {version}")
        spec = TableSpec.from_dict(env.body["spec"], who)
        members = [member_from_dict(m, who) for m in env.body["members"]]
        if (
            spec.table != self.spec.table
            or spec.host != self.spec.host
            or (spec.game != self.spec.game)
        ):
            raise TableError(who, Reason.TABLE_RULES, "roster changes the table, host or game")
        if len({m.public_key for m in members}) != len(members) or len(members) > spec.max_seats:
            raise TableError(who, Reason.MALFORMED, "roster repeats a member or overfills")
        self._check_rules(spec, who)
        self.spec, self.members, self.roster_version = spec, members, version
        return []

    def _on_start(self, env: Envelope, who: str) -> list[Outgoing]:
        statement = env.body["statement"]
        expected = start_statement(self.spec, self.seats())
        if statement != expected:
            raise TableError(
                who,
                Reason.TABLE_RULES,
                "start statement differs from this peer's view of the table",
            )
        if not any(m.public_key == self.me.public_key for m in self.members):
            raise TableError(who, Reason.TABLE_RULES, "start proposed to a peer not seated")
        self._statement = expected
        sig = sign_statement(self.me, expected).hex()
        body = {"statement_hash": statement_hash(expected), "sig": sig}
        return [self._out((self.spec.host,), "table.sign", body)]

    def _on_sign(self, env: Envelope, who: str) -> list[Outgoing]:
        if self._statement is None:
            raise TableError(who, Reason.TABLE_RULES, "signature before any start proposal")
        if env.body["statement_hash"] != statement_hash(self._statement):
            raise TableError(who, Reason.TABLE_RULES, "signed another start statement")
        if not any(m.public_key == env.sender for m in self.members):
            raise TableError(who, Reason.TABLE_RULES, "is not seated")
        sig = env.body["sig"]
        if not (
            len(sig) == 128
            and _is_hex(sig)
            and verify_signature(
                env.sender, bytes.fromhex(sig), START_TAG + canonical(self._statement)
            )
        ):
            raise TableError(who, Reason.BAD_SIGNATURE, "start signature does not verify")
        self._sigs[env.sender.hex()] = sig
        if len(self._sigs) < len(self.members):
            return []
        self.started = verify_started(self._statement, self._sigs, "self")
        body = {"statement": self._statement, "sigs": dict(self._sigs)}
        return [self._out(self._others(), "table.started", body)]

    def _on_started(self, env: Envelope, who: str) -> list[Outgoing]:
        started = verify_started(env.body["statement"], env.body["sigs"], who)
        if self._statement is None or started.statement != self._statement:
            raise TableError(who, Reason.TABLE_RULES, "started a statement this peer never signed")
        self.started = started
        return []

    # -- helpers -----------------------------------------------------------------------------

    def _check_rules(self, spec: TableSpec, who: str) -> None:
        try:
            values, _, _ = self.rules_check(spec.game, spec.options)
        except Exception as exc:
            raise TableError(who, Reason.TABLE_RULES, f"rules refused: {exc}") from None
        if values != spec.options:
            raise TableError(who, Reason.TABLE_RULES, "options are not complete and valid")

    def _require_open(self, what: str) -> None:
        if self.closed or self.started is not None:
            raise LocalProtocolError(f"cannot {what}: the lobby has closed or started")

    def _others(self) -> tuple[bytes, ...]:
        return tuple(m.public_key for m in self.members if m.public_key != self.me.public_key)

    def _roster(self) -> Outgoing:
        self.roster_version += 1
        body = {
            "version": self.roster_version,
            "spec": self.spec.to_dict(),
            "members": [member_to_dict(m) for m in self.members],
        }
        return self._out(self._others(), "table.roster", body)

    def _out(self, to: tuple[bytes, ...], type: str, body: dict[str, Any]) -> Outgoing:
        env = sign_envelope(self.me, type, self.spec.table, self._seq, body)
        self._seq += 1
        return Outgoing(to, env)


def start_local(
    members: Sequence[Identity],
    game: str,
    options: Mapping[str, OptionValue] | None = None,
    *,
    table: str | None = None,
    rules_check: RulesCheck = registry_rules_check,
) -> StartedTable:
    """Form and start a table among identities held in one place (tests, a local bot table).

    Every member signs the start statement at once, so no lobby messages are needed; the
    result is the same :class:`StartedTable` a lobby would give.

    Raises:
        LocalProtocolError: the game or options are refused, or a wrong number of members.
        engine.core.RulesError: from ``rules_check``.
    """
    values, lo, hi = rules_check(game, dict(options or {}))
    if not lo <= len(members) <= min(hi, 6):
        raise LocalProtocolError(f"{game} is for {lo} to {min(hi, 6)} players, not {len(members)}")
    spec = TableSpec(table or new_table_id(), game, values, members[0].public_key, lo, min(hi, 6))
    seats = seat_order(spec.table, [m.public() for m in members])
    statement = start_statement(spec, seats)
    sigs = {m.public_key.hex(): sign_statement(m, statement).hex() for m in members}
    return verify_started(statement, sigs, "local")
