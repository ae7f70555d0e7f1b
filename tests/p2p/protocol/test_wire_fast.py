"""The fast paths of the wire format give exactly what the reference implementations give.

:func:`lancards.p2p.protocol.wire.canonical` encodes plain JSON values with msgspec, and
:func:`lancards.p2p.protocol.wire.parse_json` takes canonical bytes through msgspec; both must keep
every byte and every rejection of the reference code they replaced, which is kept here (``_ref_*``)
and compared against on generated values and on bytes that are not canonical. ``nesting_depth`` has
a fast path for bytes without a backslash, compared against the reference scan the same way.
``LANCARDS_FUZZ_EXAMPLES`` raises the example count (CI default: 200).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lancards.p2p.protocol import record as record_module
from lancards.p2p.protocol import wire
from lancards.p2p.protocol.errors import LocalProtocolError, MessageError, Reason
from lancards.p2p.protocol.record import sign_entry
from lancards.p2p.protocol.schemas import MAX_DEPTH, nesting_depth
from lancards.p2p.protocol.wire import MAX_INT, canonical, parse_json, text_place

from .helpers import TABLE, people

EXAMPLES = int(os.environ.get("LANCARDS_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------------
# The reference implementations (the code before the fast paths).


def _ref_check(value: Any, path: str) -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise LocalProtocolError(f"integer at {path} is beyond +-(2**53 - 1)")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _ref_check(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise LocalProtocolError(f"key {key!r} at {path} is not a string")
            _ref_check(item, f"{path}.{key}")
        return
    raise LocalProtocolError(f"value at {path} has type {type(value).__name__}, not JSON")


def _ref_canonical(value: Any) -> bytes:
    _ref_check(value, "$")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


_REF_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_REF_BRACKETS = re.compile(rb"[\[\]{}]")


def _ref_depth(data: bytes) -> int:
    depth = deepest = 0
    for bracket in _REF_BRACKETS.findall(_REF_STRING.sub(b'""', data)):
        if bracket in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class _Reject(ValueError):
    pass


def _no_float(text: str) -> Any:
    raise _Reject(f"number {text} is not an integer")


def _no_constant(text: str) -> Any:
    raise _Reject(f"{text} is not JSON")


def _bounded_int(text: str) -> int:
    if len(text) > 17 or abs(int(text)) > MAX_INT:
        raise _Reject(f"integer {text[:20]} is beyond +-(2**53 - 1)")
    return int(text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Reject(f"duplicate key {key!r}")
        result[key] = value
    return result


def _ref_parse(data: bytes, sender: str, max_size: int = wire.MAX_MESSAGE_BYTES) -> Any:
    if len(data) > max_size:
        raise MessageError(sender, Reason.OVERSIZED, f"{len(data)} bytes, limit {max_size}")
    depth = _ref_depth(data)
    if depth > MAX_DEPTH:
        raise MessageError(sender, Reason.MALFORMED,
                           f"bad JSON: nested {depth} deep, limit {MAX_DEPTH}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MessageError(sender, Reason.MALFORMED, f"not UTF-8 at byte {exc.start}") from None
    try:
        return json.loads(text, parse_float=_no_float, parse_int=_bounded_int,
                          parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except _Reject as exc:
        raise MessageError(sender, Reason.MALFORMED, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise MessageError(
            sender, Reason.MALFORMED, f"bad JSON at char {exc.pos}: {exc.msg.lower()}"
        ) from None
    except (RecursionError, ValueError) as exc:
        raise MessageError(sender, Reason.MALFORMED, f"bad JSON: {exc}") from None


def _ref_text_fault(value: Any, path: tuple[str | int, ...] = (),
                    top: Any = None) -> str | None:
    """Issue 23's rule, written plainly (recursive): the first string or key, depth first in
    document order, holding NUL or a lone surrogate (its place in words: ``text_place``)."""
    top = value if top is None else top
    def bad(text: str) -> str | None:
        for char in text:
            if char == "\x00":
                return "NUL (U+0000)"
            if 0xD800 <= ord(char) <= 0xDFFF:
                return f"a lone surrogate U+{ord(char):04X}"
        return None

    if isinstance(value, str):
        return None if bad(value) is None else f"{text_place(top, path)} holds {bad(value)}"
    if isinstance(value, dict):
        for key, child in value.items():
            if bad(key) is not None:
                return f"a key of {text_place(top, path)} holds {bad(key)}"
            found = _ref_text_fault(child, (*path, key), top)
            if found is not None:
                return found
    if isinstance(value, list):
        for i, child in enumerate(value):
            found = _ref_text_fault(child, (*path, i), top)
            if found is not None:
                return found
    return None


def _ref_parse_text(data: bytes, sender: str) -> Any:
    """The reference parser, then issue 23's text rule (what parse_json must give)."""
    value = _ref_parse(data, sender)
    fault = _ref_text_fault(value)
    if fault is not None:
        raise MessageError(sender, Reason.MALFORMED, fault)
    return value


def outcome(function: Any, *args: Any) -> tuple[str, Any]:
    """What ``function(*args)`` gives: ``("value", v)`` or ``("error", (class, reason,
    sender, message))``; a UnicodeEncodeError counts by class only (its position differs)."""
    try:
        return "value", function(*args)
    except UnicodeEncodeError:
        return "error", (UnicodeEncodeError,)
    except MessageError as exc:
        return "error", (MessageError, exc.reason, exc.sender, str(exc))
    except LocalProtocolError as exc:
        return "error", (LocalProtocolError, str(exc))


# ---------------------------------------------------------------------------------------------
# Values.

# Every code point, lone surrogates, control characters and the escaped ones included.
TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)
NICE_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF,
                                  blacklist_categories=("Cs",)), max_size=12)
BOUND_INTS = st.sampled_from([0, 1, -1, MAX_INT, -MAX_INT, MAX_INT + 1, -MAX_INT - 1,
                              2**63, -(2**63), 2**64, 2**100])
INTS = st.integers(-MAX_INT, MAX_INT) | BOUND_INTS


def json_values(text: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Plain JSON values (tuples too), some beyond the integer bound."""
    scalars = st.none() | st.booleans() | INTS | text
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
        | st.dictionaries(text, inner, max_size=5),
        max_leaves=30,
    )


class Key(str):
    pass


class Number(int):
    pass


@FUZZ
@given(json_values(TEXT))
@example({"é": 1, "\ue000": 2, "\uffff": 3, "\U0001f600": 4, "a\\\"\n": 5})
@example("\x00\x01\x1f\x7f\u2028\u2029\"\\/\b\f\n\r\t")
@example([MAX_INT, -MAX_INT, (MAX_INT + 1,)])
@example([["a", "b"], ("c", [1, (MAX_INT + 1,)])])
@example([[], (), [[None, True]]])
@example({"x": "\ud800"})
@example({"\udc00": 1})
def test_canonical_is_byte_for_byte_the_reference(value: Any) -> None:
    assert outcome(canonical, value) == outcome(_ref_canonical, value)


@pytest.mark.parametrize("value", [
    {"x": 1.5}, [float("nan")], {1: "x"}, {"a": b"bytes"}, {"a": {"b": [1, {2}]}},
    {Key("k"): Number(5)}, [Number(2**60)], {"a": [1, (2, {Key("z"): None, "b": True})]},
    {"a": (1, 2**53)}, [True, False, None, "x", 2**53], [["a"], ("b", [1.5])], [[Key("k")]],
])
def test_canonical_of_other_types_is_the_reference(value: Any) -> None:
    """Subclasses, floats, bytes, sets, big ints and non-string keys: the same bytes or the
    same error, naming the same place."""
    assert outcome(canonical, value) == outcome(_ref_canonical, value)


# ---------------------------------------------------------------------------------------------
# Parsing.


def _mutations(data: bytes) -> list[bytes]:
    """Spellings of (about) the same value that are not canonical, and broken bytes."""
    found = [
        b" " + data,
        data + b"\n",
        data.replace(b",", b", ", 1),
        data.replace(b":", b": ", 1),
        re.sub(rb"(?<![\d.eE\-])(\d+)(?=[,\]}]|$)", rb"\1.0", data, count=1),
        re.sub(rb"(?<![\d.eE\-])(\d+)(?=[,\]}]|$)", rb"\1e0", data, count=1),
        re.sub(rb"(?<![\d.eE\-])0(?=[,\]}]|$)", b"-0", data, count=1),
        data.replace(b"null", b"NaN", 1),
        data.replace(b"true", b"Infinity", 1),
        data.replace(b"a", b"\\u0061", 1),
        data.replace(b"/", b"\\/", 1),
        data.replace(b'"', b'"\\ud800', 1),
        data.replace(b'"', b'"\\ud83d\\ude00', 1),
        data.replace(b'"', b'"\xed\xa0\x80', 1),
        data.replace(b'"', b'"\xff', 1),
        data[:-1],
        data + data,
    ]
    if data.startswith(b"{") and data != b"{}":
        first = data[1:].split(b",", 1)[0].rstrip(b"}")
        found.append(b"{" + first + b"," + data[1:])  # its first member twice
    return [m for m in found if m != data]


@FUZZ
@given(json_values(NICE_TEXT))
@example({"a": 1, "b": [0, None, True, "/a"]})
@example([[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]])
@example({"k": MAX_INT, "j": [-MAX_INT]})
@example({"": "\x00", "\x00": None})  # a value's NUL before a later key's: document order
def test_parse_json_is_the_reference_on_canonical_and_other_bytes(value: Any) -> None:
    try:
        data = _ref_canonical(value)
    except LocalProtocolError:
        data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    for sample in [data, *_mutations(data)]:
        assert outcome(parse_json, sample, "bob") == outcome(_ref_parse_text, sample, "bob")


@FUZZ
@given(st.binary(max_size=40) | st.text("[]{}\"\\ a0:,\n", max_size=40).map(str.encode))
@example(b'{"a":1,"a":2}')
@example(b"[1.0]")
@example(b"[99999999999999999999999]")
@example(b'"\\ud800"')
@example(b"[" * 17 + b"]" * 17)
@example(b'["\\"[[[[[[[[[[[[[[[[[["]')
@example(b'["",[],""]')
@example(b'"[""')
def test_parse_json_and_depth_are_the_reference_on_any_bytes(data: bytes) -> None:
    assert nesting_depth(data) == _ref_depth(data)
    assert outcome(parse_json, data, "bob") == outcome(_ref_parse_text, data, "bob")


def test_canonical_bytes_take_the_fast_path_and_the_rest_the_strict_one() -> None:
    value = {"b": [1, -MAX_INT, None, True], "a": {"é": "\n\x01"}}
    data = canonical(value)
    assert wire._parse_canonical(data) == value
    assert parse_json(data, "bob") == value
    for other in (b'{"a":1,"a":2}', b"[1.0]", b"[1, 2]", b'["\\u0061"]', b"[-0]",
                  b"[9007199254740992]", b"NaN", b'"\xed\xa0\x80"'):
        assert wire._parse_canonical(other) is wire._NOT_CANONICAL
    with pytest.raises(MessageError, match="duplicate key 'a'") as info:
        parse_json(b'{"a":1,"a":2}', "bob")
    assert (info.value.sender, info.value.reason) == ("bob", Reason.MALFORMED)
    with pytest.raises(MessageError, match="not UTF-8 at byte 1"):
        parse_json(b'"\xed\xa0\x80"', "bob")
    assert parse_json(b"[1, 2]", "bob") == [1, 2]


def test_nesting_beyond_the_limit_is_refused_on_both_paths() -> None:
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    for data in (deep, deep.replace(b"[]", b'["\\\\"]')):
        with pytest.raises(MessageError, match=f"nested {MAX_DEPTH + 1} deep") as info:
            parse_json(data, "bob")
        assert (info.value.sender, info.value.reason) == ("bob", Reason.MALFORMED)


# ---------------------------------------------------------------------------------------------
# Entry hashes.


def test_an_entry_hash_is_computed_once_and_is_the_hash_of_its_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (ann,) = people(1)
    entry = sign_entry(ann, TABLE, 0, "00" * 32, {"t": "action", "a": "draw", "open": []}, "ab")
    twin = sign_entry(ann, TABLE, 0, "00" * 32, {"t": "action", "a": "draw", "open": []}, "ab")
    expected = hashlib.sha256(canonical(entry.to_dict())).hexdigest()
    calls = []
    real = record_module.canonical
    monkeypatch.setattr(record_module, "canonical", lambda v: calls.append(1) or real(v))
    assert entry.hash == expected and entry.hash == expected
    assert len(calls) == 1
    assert entry == twin and hash(entry) == hash(twin)  # the kept hash is not compared
    assert "_hash" not in repr(entry)


def test_a_received_envelope_is_verified_over_its_canonical_bytes() -> None:
    """decode_envelope encodes the parsed envelope without checking it again: the bytes are
    the ones the sender signed, also for a body parsed the strict way (spaces, escapes)."""
    (ann,) = people(1)
    body = {"text": "é\n\x01 ☺ \\\"", "n": [MAX_INT, -MAX_INT, None, True, {"z": [], "a": {}}]}
    env = wire.sign_envelope(ann, "chat", TABLE, 5, body)
    types = {"chat": {"text": str, "n": list}}
    assert wire.decode_envelope(env.encode(), "ann", expected_sender=ann.public_key,
                                types=types) == env
    spaced = json.dumps(json.loads(env.encode()), indent=1).encode()  # ASCII escapes, spaces
    assert spaced != env.encode()
    back = wire.decode_envelope(spaced, "ann", expected_sender=ann.public_key, types=types)
    assert back == env and back.signed_bytes() == env.signed_bytes()
