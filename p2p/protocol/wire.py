"""The message envelope: canonical JSON, Ed25519 signatures, validated decoding.

Every message between peers is one envelope (``docs/protocol.md``, "Envelope")::

    {"body": {...}, "from": "<64 hex: Ed25519 key>", "seq": 7, "sig": "<128 hex>",
     "tbl": "<16 hex: table id>", "type": "table.join", "v": 1}

encoded as canonical JSON (:func:`canonical`): keys sorted, no spaces, UTF-8, integers only
(no floats, within +-(2**53 - 1)), no duplicate keys. ``sig`` is the Ed25519 signature (RFC 8032)
of ``b"lancards/v1/envelope\\x00" + canonical(envelope without "sig")``. ``seq`` is the sender's
message counter for that table, strictly increasing (:class:`ReplayGuard`).

A receiver decodes with :func:`decode_envelope`, which checks, in this order: size, UTF-8,
JSON, the envelope's fields and types, the author against the link's authenticated peer, the
signature, the message type and the body's fields and types. Every rejection is a
:class:`~lancards.p2p.protocol.errors.MessageError` naming the link's peer and the
:class:`~lancards.p2p.protocol.errors.Reason`. Size and nesting depth are checked before parsing,
and the envelope and every body against its declared schema (:mod:`lancards.p2p.protocol.schemas`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Final

import msgspec

from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    MessageError,
    Reason,
    RemoteProtocolError,
)
from lancards.p2p.protocol.identity import Identity, describe, verify_signature
from lancards.p2p.protocol.schemas import MESSAGE_SCHEMAS, EnvelopeSchema, check_limits, conform

PROTOCOL_VERSION: Final = 1
"""The protocol version in envelopes, the hello handshake and the mDNS TXT key ``v``."""

MAX_MESSAGE_BYTES: Final = 256 * 1024
"""Default size limit of one message, in bytes (a 108-card proof of shuffle is about 50 KB)."""

MAX_INT: Final = 2**53 - 1
"""The largest integer magnitude allowed in canonical JSON (exact in every JSON reader)."""

ENVELOPE_TAG: Final = b"lancards/v1/envelope\x00"
"""Domain tag prefixed to the canonical bytes an envelope signature covers."""

TABLE_ID = re.compile(r"[0-9a-f]{16}")
"""A table id: 16 lowercase hex digits (8 random bytes)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")
_TYPE_NAME = re.compile(r"[a-z][a-z0-9.\-]{0,39}")

FieldType = type | tuple[type, ...]
Schema = Mapping[str, FieldType]
"""A body schema: field name -> required Python type(s); every field is required, no others."""

LINK_ONLY_TYPES: Final = frozenset({"record.ack", "watch.ask", "watch.table", "watch.entry",
                                    "watch.next"})
"""Message types sent unsigned (``sig`` empty, ``seq`` 0), vouched for only by the
authenticated link: a forged one can make the receiver send a signed entry it already holds or
ask for entries, never blame anyone or change a record (``docs/protocol.md`` 11.6). They skip
the :class:`ReplayGuard`. Signing them cost an Ed25519 signature and verification per
acknowledgement, the largest cost of consistent broadcast (``docs/benchmarks.md``). The
observer messages (``watch.*``, 11.11) carry entries their authors signed, or a table every seat
signed, and nothing else: no seat's core accepts them."""

MESSAGE_TYPES: Final[Mapping[str, Any]] = MESSAGE_SCHEMAS
"""Every message type this version knows, with its body schema: the one table of message types
(:data:`lancards.p2p.protocol.schemas.MESSAGE_SCHEMAS`; see ``docs/protocol.md``)."""


# ---------------------------------------------------------------------------------------------
# Canonical JSON.


def _check_value(value: Any, path: str) -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise LocalProtocolError(f"integer at {path} is beyond +-(2**53 - 1)")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_value(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise LocalProtocolError(f"key {key!r} at {path} is not a string")
            _check_value(item, f"{path}.{key}")
        return
    raise LocalProtocolError(f"value at {path} has type {type(value).__name__}, not JSON")


_ATOMS: Final = frozenset({str, bool, type(None)})
_KEYS: Final = frozenset({str})
_SEQUENCES: Final = frozenset({list, tuple})
_PLAIN: Final = frozenset({str, bool, type(None), int, dict, list, tuple})
_encode_sorted = msgspec.json.Encoder(order="sorted").encode
_decode = msgspec.json.Decoder().decode


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only the exact types ``dict`` (string keys), ``list``,
    ``tuple``, ``str``, ``bool``, ``None`` and ``int`` within +-(2**53 - 1): the values for
    which msgspec's sorted encoding is byte for byte the reference encoding of
    :func:`canonical` (``tests/p2p/protocol/test_wire_fast.py`` proves it). False for anything
    else, including a subclass of those types, which :func:`canonical` then checks and encodes
    the reference way."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-MAX_INT <= value <= MAX_INT)
    if kind is dict:
        return set(map(type, value)) <= _KEYS and _plain_items(value.values())
    if kind is list or kind is tuple:
        return _plain_items(value)
    return False


def _plain_items(items: Any) -> bool:
    kinds = set(map(type, items))
    if kinds <= _ATOMS:
        return True
    if kinds <= _SEQUENCES:  # a list of lists (a deck of ciphertexts): check them as one
        return _plain_items(list(chain.from_iterable(items)))
    return kinds <= _PLAIN and all(map(_plain, items))


def canonical(value: Any) -> bytes:
    """The canonical JSON encoding of ``value``: sorted keys, no spaces, UTF-8.

    The bytes are those of ``json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` encoded as UTF-8; values of the plain JSON types are encoded by
    msgspec, which gives the same bytes faster (``tests/p2p/protocol/test_wire_fast.py``).

    Args:
        value: ``None``, bool, int (within +-(2**53 - 1)), str, list/tuple or dict with string
            keys, nested.

    Raises:
        LocalProtocolError: a float, an out-of-range integer, a non-string key or another type.
        UnicodeEncodeError: a string holds a lone surrogate (not encodable as UTF-8).
    """
    if _plain(value):
        return _encode_sorted(value)
    _check_value(value, "$")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


class _Reject(ValueError):
    """A JSON value the protocol refuses, with its refusal's code and values."""

    def __init__(self, text: str, code: str, **params: object) -> None:
        super().__init__(text)
        self.code, self.params = code, params


def _no_float(text: str) -> Any:
    raise _Reject(f"number {text} is not an integer", "json-float", number=text[:40])


def _no_constant(text: str) -> Any:
    raise _Reject(f"{text} is not JSON", "json-constant", constant=text)


def _bounded_int(text: str) -> int:
    if len(text) > 17 or abs(int(text)) > MAX_INT:
        raise _Reject(f"integer {text[:20]} is beyond +-(2**53 - 1)", "json-big-int",
                      number=text[:20])
    return int(text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Reject(f"duplicate key {key!r}", "json-duplicate", key=key)
        result[key] = value
    return result


_NOT_CANONICAL: Final = object()


def _parse_canonical(data: bytes) -> Any:
    """The value ``data`` encodes when ``data`` is exactly its canonical encoding, else
    :data:`_NOT_CANONICAL` (and :func:`parse_json` parses the strict, slower way).

    Sound because the strict parser accepts every canonical encoding and returns the value
    encoded: msgspec parses, and the value counts only if it holds plain JSON types within the
    integer bound (no float, no NaN) and encodes back to exactly ``data``, which rules out
    duplicate keys (a dict holds one of them: shorter bytes), spaces, escapes other than the
    canonical ones and any other spelling. Every other input, valid or not, takes the strict
    path, so every rejection and its message is the strict parser's."""
    try:
        value = _decode(data)
        if _plain(value) and _encode_sorted(value) == data:
            return value
    except (msgspec.MsgspecError, ValueError, RecursionError):
        pass
    return _NOT_CANONICAL


_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")
"""What no string of a message may hold: NUL, or a lone surrogate (a ``\\uD800``-``\\uDFFF``
escape without its pair; not a Unicode scalar value, RFC 8259 section 8.2, so not UTF-8)."""


def text_fault(value: Any) -> str | None:
    """Why ``value`` (a parsed JSON value) holds invalid text, or ``None``: the first string
    or object key, depth first in document order, with NUL or a lone surrogate, in the plain
    words of the schema errors (:func:`text_place`): ``"'chat' body field 'text' holds NUL
    (U+0000)"``, ``"a key of the message's field 'a' holds a lone surrogate U+D800"`` (the
    LAN trial read ``string at $.body.text holds NUL (U+0000)``). Iterative: any depth, no
    recursion."""
    # (is a key, item, place): a key is checked just before its value's subtree, as it stands
    stack: list[tuple[bool, Any, tuple[str | int, ...]]] = [(False, value, ())]
    while stack:
        is_key, item, where = stack.pop()
        if is_key:
            if isinstance(item, str) and (match := _BAD_TEXT.search(item)):
                return f"a key of {text_place(value, where)} holds {_describe_char(match.group())}"
        elif isinstance(item, str):
            if match := _BAD_TEXT.search(item):
                return f"{text_place(value, where)} holds {_describe_char(match.group())}"
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                stack.append((False, child, (*where, key)))
                stack.append((True, key, where))
        elif isinstance(item, list):
            stack.extend(reversed([(False, child, (*where, i)) for i, child in enumerate(item)]))
    return None


_TYPE_NAME = re.compile(r"[a-z][a-z0-9.-]{0,39}")


def text_place(value: Any, where: tuple[str | int, ...]) -> str:
    """The place ``where`` (keys and list indexes from the top) inside the parsed message
    ``value``, as the schema errors say it (:func:`lancards.p2p.protocol.schema_words.explain`):
    ``'chat' body field 'text'`` inside an envelope whose ``type`` reads as one, else ``the
    message's field 'entry'.payload.a``, ``the message's item 0``, ``the message``."""
    kind = value.get("type") if isinstance(value, dict) else None
    if where[:1] == ("body",) and isinstance(kind, str) and _TYPE_NAME.fullmatch(kind):
        top, rest = f"{kind!r} body", where[1:]
    else:
        top, rest = "the message", where
    if not rest:
        return top
    first = f"field {rest[0]!r}" if isinstance(rest[0], str) else f"item {rest[0]}"
    tail = "".join(f".{part}" if isinstance(part, str) else f"[{part}]" for part in rest[1:])
    owner = top if top != "the message" else "the message's"
    return f"{owner} {first}{tail}"[:300]


def _describe_char(char: str) -> str:
    return "NUL (U+0000)" if char == "\x00" else f"a lone surrogate U+{ord(char):04X}"


def parse_json(data: bytes, sender: str, *, max_size: int = MAX_MESSAGE_BYTES) -> Any:
    """Parse bytes that must be canonical-compatible JSON (no floats, no duplicate keys) whose
    every string is valid text (no NUL, no lone surrogate: issue 23).

    Args:
        data: the bytes received.
        sender: who sent them, for the error.
        max_size: the limit in bytes.

    Canonical bytes (what every peer sends) take a fast path (msgspec) that returns what the
    strict parser would; anything else is parsed strictly.

    Raises:
        MessageError: ``oversized`` beyond ``max_size``; ``malformed`` for bad UTF-8 (an
            over-long encoding, an encoded surrogate, a stray byte: ``not UTF-8 at byte N``),
            bad JSON, a float, NaN or Infinity, an integer beyond +-(2**53 - 1), a duplicate
            key, nesting deeper than :data:`lancards.p2p.protocol.schemas.MAX_DEPTH` (checked before
            parsing), or a string or key holding NUL or a lone surrogate (:func:`text_fault`;
            such a string cannot be encoded back to UTF-8, so a signature over it could never
            be checked).
    """
    check_limits(data, sender, max_size=max_size)
    # msgspec refuses lone surrogate escapes and invalid UTF-8 itself; NUL can only come as
    # the escape \u0000, which sends the bytes to the strict path (and its check below). The
    # backslash test first: a memchr, 0.5 us for a 15 KB shuffle where the escape search
    # alone costs 16 us.
    escaped_nul = b"\\" in data and b"\\u0000" in data
    value = _NOT_CANONICAL if escaped_nul else _parse_canonical(data)
    if value is not _NOT_CANONICAL:
        return value
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MessageError(sender, Reason.MALFORMED, f"not UTF-8 at byte {exc.start}"
                           ).with_code("not-utf8", byte=exc.start) from None
    try:
        value = json.loads(
            text,
            parse_float=_no_float,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except _Reject as exc:
        raise MessageError(sender, Reason.MALFORMED, str(exc)).with_code(
            exc.code, **exc.params) from None
    except json.JSONDecodeError as exc:
        raise MessageError(
            sender, Reason.MALFORMED, f"bad JSON at char {exc.pos}: {exc.msg.lower()}"
        ).with_code("bad-json", at=exc.pos) from None
    except (RecursionError, ValueError) as exc:
        raise MessageError(sender, Reason.MALFORMED, f"bad JSON: {exc}").with_code(
            "json-unreadable") from None
    # Raw NUL and raw surrogates cannot pass json.loads and the UTF-8 decoding: only escapes.
    fault = text_fault(value) if "\\u" in text else None
    if fault is not None:
        raise MessageError(sender, Reason.MALFORMED, fault).with_code(
            "bad-text", char=fault.rsplit("U+", 1)[1].rstrip(")"))  # the code point: "0000"
    return value


def require(
    data: Any,
    schema: Schema,
    sender: str,
    where: str,
    *,
    error: type[RemoteProtocolError] = MessageError,
) -> dict[str, Any]:
    """Check that ``data`` is an object with exactly the fields of ``schema``, typed.

    ``bool`` never passes for ``int``.

    Raises:
        MessageError (or ``error``): ``malformed``, naming ``where`` and the field.
    """
    if not isinstance(data, dict):
        raise error(sender, Reason.MALFORMED, f"{where} is {type(data).__name__}, not an object"
                    ).with_code("schema", where=where)
    missing = sorted(set(schema) - set(data))
    if missing:
        raise error(sender, Reason.MALFORMED, f"{where} lacks field {missing[0]!r}"
                    ).with_code("schema", where=where)
    extra = sorted(set(data) - set(schema))
    if extra:
        raise error(sender, Reason.MALFORMED, f"{where} has unknown field {extra[0]!r}"
                    ).with_code("schema", where=where)
    for name, kind in schema.items():
        value = data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            wanted = "/".join(k.__name__ for k in kinds)
            raise error(
                sender,
                Reason.MALFORMED,
                f"{where} field {name!r} is {type(value).__name__}, not {wanted}",
            ).with_code("schema", where=where)
    return data


def hex_field(
    value: str,
    length: int,
    sender: str,
    what: str,
    *,
    error: type[RemoteProtocolError] = MessageError,
) -> bytes:
    """Decode a lowercase hex field of ``length`` bytes.

    Raises:
        MessageError (or ``error``): ``malformed`` when it is not ``2 * length`` lowercase hex.
    """
    if len(value) != 2 * length or not re.fullmatch(r"[0-9a-f]*", value):
        raise error(sender, Reason.MALFORMED, f"{what} {value[:80]!r} is not {length} hex bytes"
                    ).with_code("not-hex", field=what, length=length)
    return bytes.fromhex(value)


# ---------------------------------------------------------------------------------------------
# Envelopes.

@dataclass(frozen=True, slots=True)
class Envelope:
    """One signed message.

    Attributes:
        type: the message type, a key of :data:`MESSAGE_TYPES`.
        sender: the author's Ed25519 public key, 32 bytes.
        table: the table id (16 lowercase hex digits).
        seq: the author's message counter for this table, 0 or more, strictly increasing.
        body: the type's fields (JSON object).
        sig: the Ed25519 signature, 64 bytes.
    """

    type: str
    sender: bytes
    table: str
    seq: int
    body: dict[str, Any] = field(hash=False)
    sig: bytes

    def unsigned(self) -> dict[str, Any]:
        """The envelope's fields without ``sig``."""
        return {
            "v": PROTOCOL_VERSION,
            "type": self.type,
            "from": self.sender.hex(),
            "tbl": self.table,
            "seq": self.seq,
            "body": self.body,
        }

    def signed_bytes(self) -> bytes:
        """The bytes the signature covers: the domain tag, then the canonical unsigned fields."""
        return ENVELOPE_TAG + canonical(self.unsigned())

    def encode(self) -> bytes:
        """The wire bytes (canonical JSON)."""
        return canonical({**self.unsigned(), "sig": self.sig.hex()})


def sign_envelope(
    identity: Identity, type: str, table: str, seq: int, body: Mapping[str, Any]
) -> Envelope:
    """Build and sign an envelope.

    Raises:
        LocalProtocolError: a bad table id, a negative ``seq`` or a body that is not canonical
            JSON.
    """
    if not TABLE_ID.fullmatch(table):
        raise LocalProtocolError(f"table id {table!r} is not 16 lowercase hex digits")
    if not 0 <= seq <= MAX_INT:
        raise LocalProtocolError(f"sequence number {seq} is out of range")
    draft = Envelope(type, identity.public_key, table, seq, dict(body), b"")
    return Envelope(
        type, identity.public_key, table, seq, dict(body), identity.sign(draft.signed_bytes())
    )


def link_envelope(identity: Identity, type: str, table: str, body: Mapping[str, Any], *,
                  check: bool = True) -> Envelope:
    """An unsigned envelope of a type in :data:`LINK_ONLY_TYPES` (``seq`` 0, ``sig`` empty).
    ``check=False`` leaves the body's check to :meth:`Envelope.encode`, which checks it anyway
    (the watchers' ``watch.entry``: one encoding pass per entry instead of two, issue 27).

    Raises:
        LocalProtocolError: ``type`` must be signed, a bad table id or (``check``) a body that
            is not canonical JSON.
    """
    if type not in LINK_ONLY_TYPES:
        raise LocalProtocolError(f"{type!r} messages are signed")
    if not TABLE_ID.fullmatch(table):
        raise LocalProtocolError(f"table id {table!r} is not 16 lowercase hex digits")
    if check:
        canonical(dict(body))
    return Envelope(type, identity.public_key, table, 0, dict(body), b"")


def decode_envelope(
    data: bytes,
    link: str,
    *,
    expected_sender: bytes | None = None,
    types: Mapping[str, Any] = MESSAGE_TYPES,
    max_size: int = MAX_MESSAGE_BYTES,
) -> Envelope:
    """Decode and verify one envelope received over a link.

    Args:
        data: the bytes of one message.
        link: the name of the link's authenticated peer (for errors).
        expected_sender: the link's authenticated Ed25519 key; the envelope's author must be it.
        types: the message types accepted and their body schemas (msgspec structs of
            :mod:`lancards.p2p.protocol.schemas`, or :data:`Schema` field maps).
        max_size: the limit in bytes.

    Returns:
        The verified envelope.

    An envelope of a type in :data:`LINK_ONLY_TYPES` with an empty ``sig`` is accepted
    unsigned when ``expected_sender`` (the authenticated link's key) is given.

    Raises:
        MessageError: with reason ``oversized``, ``malformed`` (encoding, JSON, fields, types,
            version), ``wrong-sender``, ``unsigned``, ``bad-signature`` or ``unknown-type``.
    """
    parsed = parse_json(data, link, max_size=max_size)
    conform(parsed, EnvelopeSchema, link, "envelope")
    raw: dict[str, Any] = parsed
    if raw["v"] != PROTOCOL_VERSION:
        raise MessageError(link, Reason.MALFORMED, f"protocol version {raw['v']} is not 1"
                           ).with_code("version", version=raw["v"])
    if not _TYPE_NAME.fullmatch(raw["type"]):
        raise MessageError(link, Reason.MALFORMED, f"message type {raw['type'][:40]!r} is bad"
                           ).with_code("bad-type-name", type=raw["type"][:40])
    if not TABLE_ID.fullmatch(raw["tbl"]):
        raise MessageError(link, Reason.MALFORMED, f"table id {raw['tbl'][:40]!r} is bad"
                           ).with_code("bad-table-id", table=raw["tbl"][:40])
    if raw["seq"] < 0:
        raise MessageError(link, Reason.MALFORMED, f"sequence number {raw['seq']} is negative"
                           ).with_code("negative-seq", seq=raw["seq"])
    if not _HEX64.fullmatch(raw["from"]):
        raise MessageError(link, Reason.MALFORMED, f"author {raw['from'][:80]!r} is not a key"
                           ).with_code("bad-author", author=raw["from"][:80])
    sender = bytes.fromhex(raw["from"])
    if expected_sender is not None and sender != expected_sender:
        raise MessageError(
            link, Reason.WRONG_SENDER, f"author {raw['from'][:16]}... is not the link's peer"
        ).with_code("not-link-peer", author=raw["from"][:16])
    if raw["sig"] == "" and raw["type"] in LINK_ONLY_TYPES and expected_sender is not None:
        env = Envelope(raw["type"], sender, raw["tbl"], raw["seq"], raw["body"], b"")
        if env.type not in types:
            raise MessageError(link, Reason.UNKNOWN_TYPE, f"message type {env.type!r} is unknown"
                               ).with_code("unknown-type", type=env.type)
        conform(env.body, types[env.type], link, f"{env.type!r} body")
        return env
    if raw["sig"] == "":
        raise MessageError(link, Reason.UNSIGNED, "the envelope has an empty signature"
                           ).with_code("envelope-unsigned")
    if not _HEX128.fullmatch(raw["sig"]):
        raise MessageError(link, Reason.BAD_SIGNATURE, "the signature is not 64 hex bytes"
                           ).with_code("signature-form")
    env = Envelope(
        raw["type"], sender, raw["tbl"], raw["seq"], raw["body"], bytes.fromhex(raw["sig"])
    )
    # Every value parse_json returns holds plain JSON types only, so the msgspec encoding is
    # the canonical one (env.signed_bytes() without walking the body again to check it).
    if not verify_signature(sender, env.sig, ENVELOPE_TAG + _encode_sorted(env.unsigned())):
        raise MessageError(
            link,
            Reason.BAD_SIGNATURE,
            f"signature of {raw['type']!r} seq {raw['seq']} does not verify",
            raw["seq"],
        ).with_code("bad-signature", type=raw["type"])
    schema = types.get(env.type)
    if schema is None:
        raise MessageError(link, Reason.UNKNOWN_TYPE, f"message type {env.type!r} is unknown"
                           ).with_code("unknown-type", type=env.type)
    if isinstance(schema, type):
        conform(env.body, schema, link, f"{env.type!r} body")
    else:
        require(env.body, schema, link, f"{env.type!r} body")
    return env


class ReplayGuard:
    """Rejects envelopes whose ``seq`` is not above the last one accepted from that author for
    that table (a replayed or reordered message).

    Args:
        names: maps an author's key to its name for errors (default: the fingerprint).
    """

    def __init__(self, names: Callable[[bytes], str] | None = None) -> None:
        self._last: dict[tuple[bytes, str], int] = {}
        self._names = names

    def last(self, sender: bytes, table: str) -> int | None:
        """The last sequence number accepted from ``sender`` for ``table``."""
        return self._last.get((sender, table))

    def accept(self, env: Envelope) -> None:
        """Accept ``env`` if its ``seq`` is fresh, remembering it.

        Raises:
            MessageError: ``replayed`` when ``env.seq`` is not above the last accepted one.
        """
        key = (env.sender, env.table)
        last = self._last.get(key)
        if last is not None and env.seq <= last:
            name = self._names(env.sender) if self._names else describe(env.sender)
            raise MessageError(
                name,
                Reason.REPLAYED,
                f"{env.type!r} seq {env.seq} is not above the last accepted seq {last}",
                env.seq,
            ).with_code("replayed", type=env.type, last=last)
        self._last[key] = env.seq
