"""The start statement of a table: its spec, its seats in seat order, every seat's signature.

Seat order (``docs/protocol.md``, "Seat order"): members sorted by
``SHA-256(b"lancards/v1/seat\\x00" + table id (ASCII) + Ed25519 key)``. It depends on nobody's
join time, so every peer computes the same order; the first dealer is then drawn from the joint
randomness (ruling L8-2). A member's keys are checked when parsed
(:func:`lancards.p2p.protocol.identity.check_public_keys`). The started table (statement and
signatures) is the game record's genesis. The lobby that gathers the signatures is
:class:`lancards.p2p.protocol.table.Lobby`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import (
    Identity,
    PublicIdentity,
    check_nickname,
    check_public_keys,
    verify_signature,
)
from lancards.p2p.protocol.record import Record
from lancards.p2p.protocol.series import check_follows
from lancards.p2p.protocol.wire import TABLE_ID, canonical, hex_field, require

SEAT_TAG: Final = b"lancards/v1/seat\x00"
"""Domain tag of the seat order hash."""

START_TAG: Final = b"lancards/v1/table-start\x00"
"""Domain tag of start statement signatures."""

OptionValue = str | bool | int
RulesCheck = Callable[[str, Mapping[str, OptionValue]], tuple[dict[str, OptionValue], int, int]]
"""Validates a game name and its options: returns (all options with defaults, fewest seats,
most seats); raises ``engine.core.RulesError`` (or any ``Exception``) to refuse."""

_MEMBER_SCHEMA: Final = {"pk": str, "xpk": str, "nick": str}
_BOT_MEMBER_SCHEMA: Final = {**_MEMBER_SCHEMA, "bot": str}
_SPEC_SCHEMA: Final = {
    "tbl": str,
    "game": str,
    "options": dict,
    "host": str,
    "min_seats": int,
    "max_seats": int,
}
_STATEMENT_SCHEMA: Final = {**_SPEC_SCHEMA, "seats": list}
_REMATCH_SCHEMA: Final = {**_STATEMENT_SCHEMA, "follows": dict}


TABLE_OPTIONS: Final = ("rescue", "patience", "dealer")
"""Options of the table rather than of the game (ruling D-5; ``p2p/protocol/escrow_entries.py``):
``rescue`` (``"on"`` / ``"off"``, default off: key shares are escrowed so that a seat that
vanished can be removed; tables of 3 or more) and ``patience`` (seconds a seat may be silent
before its removal may be voted, 10..3600, default 120); ``dealer`` (a seat, 0..5: the first
dealer of a Level 8 game that follows another, ruling L8-17, in place of the joint random draw
of L8-2; refused for a rule set with its own ``first_dealer`` option). Present in a table's
options only when given."""

TABLE_OPTION_KINDS: Final = {"rescue": "choice", "patience": "int", "dealer": "int"}
"""The declared type of each of the :data:`TABLE_OPTIONS`, as an
:class:`~lancards.engine.options.OptionSpec` kind: a command line's text ``"1"`` is the whole
number 1 for an ``int`` one (``cli/option_values.py``)."""


def game_options(options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """``options`` without the :data:`TABLE_OPTIONS` (what the game's rules take)."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTIONS}


def _table_options(options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    from lancards.engine.core import RulesError

    out: dict[str, OptionValue] = {}
    if "rescue" in options:
        value = options["rescue"]
        if value not in ("on", "off", True, False):
            raise RulesError(f"option rescue must be on or off, not {value!r}").with_code(
                "table-rescue", value=value)
        out["rescue"] = "on" if value in ("on", True) else "off"
    if "patience" in options:
        value = options["patience"]
        try:
            seconds = int(value)
        except (TypeError, ValueError):
            seconds = 0
        if isinstance(value, bool) or not 10 <= seconds <= 3600:
            raise RulesError(
                f"option patience must be 10 to 3600 seconds, not {value!r}"
            ).with_code("table-patience", value=value)
        out["patience"] = seconds
    if "dealer" in options:
        value = options["dealer"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
            raise RulesError(f"option dealer must be a seat 0 to 5, not {value!r}").with_code(
                "table-dealer", value=value)
        out["dealer"] = value
    return out


def registry_rules_check(
    game: str, options: Mapping[str, OptionValue]
) -> tuple[dict[str, OptionValue], int, int]:
    """The default :data:`RulesCheck`: the engine's rule-set registry (``engine.options``) for
    the game's options, and the :data:`TABLE_OPTIONS` (``rescue`` on needs 3 seats or more).

    Raises:
        engine.core.RulesError: an unknown game, option or value.
    """
    from lancards.engine.core import RulesError
    from lancards.engine.rulesets import rule_set

    spec = rule_set(game)
    values = spec.validate(game_options(options))
    spec.make_rules(values)
    table = _table_options(options)
    if "dealer" in table and "first_dealer" in values:
        raise RulesError(f"{game} names its first dealer with the option first_dealer, "
                         "not dealer").with_code("first-dealer-not-dealer", game=game)
    least = max(spec.min_players, 3) if table.get("rescue") == "on" else spec.min_players
    return {**values, **table}, least, spec.max_players


def new_table_id() -> str:
    """A fresh random table id: 16 lowercase hex digits."""
    return secrets.token_hex(8)


def member_to_dict(member: PublicIdentity) -> dict[str, str]:
    """``{"nick", "pk", "xpk"}`` of a member, and ``"bot"`` (its level) for a member that
    said a bot plays its seat."""
    out = {"pk": member.public_key.hex(), "xpk": member.x25519_public.hex(), "nick": member.nick}
    if member.bot:
        out["bot"] = member.bot
    return out


def member_from_dict(data: Any, link: str) -> PublicIdentity:
    """Parse a member; its keys must be usable
    (:func:`lancards.p2p.protocol.identity.check_public_keys`).

    Raises:
        TableError: ``malformed`` fields, keys (an all-zero or other low-order X25519 key, an
            Ed25519 key that is no point or of small order) or nickname; names ``link`` and
            the member.
    """
    schema = _BOT_MEMBER_SCHEMA if isinstance(data, dict) and "bot" in data else _MEMBER_SCHEMA
    raw = require(data, schema, link, "member", error=TableError)
    try:
        nick = check_nickname(raw["nick"])
    except LocalProtocolError as exc:
        raise TableError(link, Reason.MALFORMED, str(exc)).with_code(
            "bad-nick", nick=str(raw["nick"])[:40]) from None
    bot = raw.get("bot", "")
    if "bot" in raw:
        from lancards.engine.rulesets import BOT_LEVELS

        if bot not in BOT_LEVELS:
            raise TableError(link, Reason.MALFORMED, f"member {nick!r} names the bot level "
                             f"{bot[:20]!r}, not one of {', '.join(BOT_LEVELS)}").with_code(
                                 "bot-level", nick=nick, level=bot[:20],
                                 levels=", ".join(BOT_LEVELS))
    member = PublicIdentity(
        hex_field(raw["pk"], 32, link, "member key", error=TableError),
        hex_field(raw["xpk"], 32, link, "member X25519 key", error=TableError),
        nick,
        bot,
    )
    try:
        check_public_keys(member.public_key, member.x25519_public)
    except LocalProtocolError as exc:
        raise TableError(link, Reason.MALFORMED, f"member {member}: {exc}").with_code(
            "member-keys", name=str(member)) from None
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
            raise TableError(link, Reason.MALFORMED, "table spec has a bad id or seat range"
                             ).with_code("spec-range")
        if not all(isinstance(v, (str, bool, int)) for v in raw["options"].values()):
            raise TableError(link, Reason.MALFORMED, "rule option values must be str, bool or int"
                             ).with_code("option-values")
        host = hex_field(raw["host"], 32, link, "host key", error=TableError)
        return cls(
            raw["tbl"], raw["game"], dict(raw["options"]), host, raw["min_seats"], raw["max_seats"]
        )


def start_statement(spec: TableSpec, seats: Sequence[PublicIdentity],
                    follows: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The statement every seated peer signs: the spec and the seats in seat order, and for
    a game that follows another its ``follows`` (:mod:`lancards.p2p.protocol.series`)."""
    statement = {**spec.to_dict(), "seats": [member_to_dict(m) for m in seats]}
    if follows is not None:
        statement["follows"] = dict(follows)
    return statement


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

    A statement with ``follows`` (a rematch) orders its seats by the series id and carries
    every seat's signed "yes" (:func:`lancards.p2p.protocol.series.check_follows`).

    Raises:
        TableError: ``malformed`` (fields, seats not in seat order, repeated or too few or too
            many seats, a table option ``dealer`` that is no seat), ``unsigned`` (a seat's
            signature is missing), ``bad-signature``; of ``follows``: as ``check_follows``.
    """
    schema = _REMATCH_SCHEMA if isinstance(statement, dict) and "follows" in statement else \
        _STATEMENT_SCHEMA
    raw = require(statement, schema, link, "start statement", error=TableError)
    spec = TableSpec.from_dict({k: raw[k] for k in _SPEC_SCHEMA}, link)
    seats = tuple(member_from_dict(m, link) for m in raw["seats"])
    keys = [m.public_key for m in seats]
    if len(set(keys)) != len(keys) or not spec.min_seats <= len(seats) <= spec.max_seats:
        raise TableError(link, Reason.MALFORMED, f"{len(seats)} seats (or a repeated seat)"
                         ).with_code("seat-count", count=len(seats))
    order = spec.table
    if "follows" in raw:
        got = check_follows(raw["follows"], keys, spec.table, link,
                            {m.public_key: str(m) for m in seats}, spec.game)
        order = got.seating or got.series
    if seat_order(order, seats) != seats:
        raise TableError(link, Reason.MALFORMED, "seats are not in seat order").with_code(
            "seat-order")
    dealer = spec.options.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(seats):
        raise TableError(link, Reason.MALFORMED, f"the first dealer {dealer!r} is no seat"
                         ).with_code("dealer", dealer=repr(dealer)[:40])
    if not isinstance(sigs, dict) or set(sigs) - {k.hex() for k in keys}:
        raise TableError(link, Reason.MALFORMED, "signatures must be keyed by seated keys"
                         ).with_code("sig-keys")
    message = START_TAG + canonical(raw)
    for member in seats:
        sig = sigs.get(member.public_key.hex())
        if not sig:
            raise TableError(link, Reason.UNSIGNED, f"{member} has not signed the start"
                             ).with_code("start-unsigned", name=str(member))
        if (
            not isinstance(sig, str)
            or len(sig) != 128
            or not verify_signature(
                member.public_key, bytes.fromhex(sig) if _is_hex(sig) else b"", message
            )
        ):
            raise TableError(link, Reason.BAD_SIGNATURE, f"start signature of {member} is bad"
                             ).with_code("start-signature-of", name=str(member))
    return StartedTable(spec, seats, dict(raw), dict(sigs))


def check_record_genesis(record: Record) -> None:
    """``genesis_check`` for :func:`lancards.p2p.protocol.record.verify_lines`: the header's genesis
    is a fully signed start statement whose table, seats and nicknames are the header's.

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
        raise TableError("record file", Reason.WRONG_TABLE, "header differs from the statement"
                         ).with_code("header-differs")


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)
