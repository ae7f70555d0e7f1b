"""The wire form of every message: JSON values that round-trip, and strict, named rejections."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.p2p.crypto.errors import InvalidMessageError
from lancards.p2p.crypto.group import ORDER
from lancards.p2p.crypto.messages import (
    KeyCommit,
    KeyReveal,
    OpenMessage,
    SharesMessage,
    ShuffleMessage,
    decode_message,
    encode_message,
)
from lancards.p2p.crypto.proofs import PUBLIC

from .harness import Table


@functools.cache
def samples() -> dict[str, Any]:
    """One message of each type from an honest two-seat table of four cards."""
    table = Table(2, 4, seed="messages")
    table.run_initial()
    table.deal({1: [4]})
    table.reveal([5])
    found: dict[str, Any] = {}
    for _, _, value in table.log:
        kind = value["type"]
        if kind == "shares":
            kind = "shares-public" if value["recipient"] is None else "shares-private"
        found.setdefault(kind, value)
    found["open"] = json.loads(json.dumps(table.peers[1].make_open(4)))
    return found


KINDS = {
    "key_commit": KeyCommit,
    "key_reveal": KeyReveal,
    "shuffle": ShuffleMessage,
    "shares-private": SharesMessage,
    "shares-public": SharesMessage,
    "open": OpenMessage,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_round_trip(kind: str) -> None:
    value = samples()[kind]
    message = decode_message(value, value["seat"])
    assert isinstance(message, KINDS[kind])
    assert encode_message(message) == value
    assert json.loads(json.dumps(value)) == value


def test_public_recipient_is_null_on_the_wire() -> None:
    value = samples()["shares-public"]
    assert value["recipient"] is None
    message = decode_message(value, value["seat"])
    assert isinstance(message, SharesMessage) and message.recipient == PUBLIC


Edit = Callable[[dict[str, Any]], None]

POINT = "02" + "11" * 32


def _set(path: tuple[str | int, ...], new: Any) -> Edit:
    def edit(value: dict[str, Any]) -> None:
        target: Any = value
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new

    return edit


def _drop(key: str) -> Edit:
    return lambda value: value.pop(key)


BAD: list[tuple[str, str, Edit, str]] = [
    ("key_commit", "missing-key", _drop("commitment"), "missing keys"),
    ("key_commit", "extra-key", _set(("extra",), 1), "unexpected keys"),
    ("key_commit", "short-commitment", _set(("commitment",), "ab" * 31), "expected 32 bytes"),
    ("key_commit", "uppercase-hex", _set(("commitment",), "AB" * 32), "lowercase hex"),
    ("key_commit", "odd-hex", _set(("commitment",), "a" * 63), "lowercase hex"),
    ("key_commit", "seat-is-bool", _set(("seat",), True), "expected an integer"),
    ("key_commit", "seat-negative", _set(("seat",), -1), "expected an integer"),
    ("key_commit", "seat-is-text", _set(("seat",), "0"), "expected an integer"),
    ("key_reveal", "identity-key", _set(("key",), "00"), "identity"),
    ("key_reveal", "off-curve-key", _set(("key",), "02" + "00" * 31 + "05"), "not a point"),
    ("key_reveal", "x-above-p", _set(("key",), "02" + "ff" * 32), "not a point"),
    ("key_reveal", "uncompressed-key", _set(("key",), "04" + "11" * 64), "starting with 02"),
    ("key_reveal", "scalar-not-below-order", _set(("proof", "z"), f"{ORDER:064x}"), "below"),
    ("key_reveal", "proof-not-object", _set(("proof",), []), "expected an object"),
    ("shuffle", "identity-in-output", _set(("outputs", 0, 1), "00"), "identity"),
    ("shuffle", "identity-commitment", _set(("proof", "commitments", 0), "00"), "identity"),
    ("shuffle", "identity-chain", _set(("proof", "chain", 1), "00"), "identity"),
    ("shuffle", "identity-t", _set(("proof", "t", 4), "00"), "identity"),
    ("shuffle", "identity-t_hat", _set(("proof", "t_hat", 2), "00"), "identity"),
    ("shuffle", "ciphertext-of-three", _set(("outputs", 0), [POINT] * 3), "two points"),
    ("shuffle", "t-of-four", lambda v: v["proof"]["t"].pop(), "expected 5 entries"),
    ("shuffle", "truncated-s_hat", lambda v: v["proof"]["s_hat"].pop(), "expected 4 entries"),
    ("shuffle", "truncated-outputs", lambda v: v["outputs"].pop(), "expected 4 entries"),
    ("shuffle", "outputs-not-list", _set(("outputs",), {}), "expected a list"),
    ("shares-private", "identity-share", _set(("shares", 0, "share"), "00"), "identity"),
    ("shares-private", "empty", _set(("shares",), []), "expected a list of 1"),
    ("shares-private", "recipient-text", _set(("recipient",), "1"), "expected an integer"),
    ("open", "batch-without-seat", lambda v: v["batches"][0].pop("seat"), "missing keys"),
    ("open", "share-with-a-proof", lambda v: v["batches"][0]["shares"][0].update(proof={}),
     "unexpected keys"),
    ("shares-private", "without-a-proof", lambda v: v.pop("proof"), "missing keys"),
    ("open", "card-negative", _set(("card",), -3), "expected an integer"),
    ("open", "unknown-type", _set(("type",), "deal"), "unknown type"),
]


@pytest.mark.parametrize(
    ("kind", "edit", "problem"),
    [pytest.param(kind, edit, problem, id=f"{kind}-{name}") for kind, name, edit, problem in BAD],
)
def test_malformed_message_is_rejected_and_names_the_sender(
    kind: str, edit: Edit, problem: str
) -> None:
    value = copy.deepcopy(samples()[kind])
    edit(value)
    with pytest.raises(InvalidMessageError, match=problem) as info:
        decode_message(value, 1, shuffle_size=4)
    assert info.value.seat == 1
    assert str(info.value).startswith("seat 1 sent a bad ")


@pytest.mark.parametrize("value", [None, [], "shuffle", {"type": 3}, {"seat": 0}])
def test_not_a_message(value: Any) -> None:
    with pytest.raises(InvalidMessageError, match="with a string 'type'") as info:
        decode_message(value, 0)
    assert info.value.seat == 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.text(alphabet="0123456789abcdefABx", max_size=70),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_arbitrary_json_never_crashes_the_decoder(value: Any) -> None:
    with contextlib.suppress(InvalidMessageError):
        decode_message(value, 1)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k in sorted(value) for p in _leaves(value[k], (*path, k))]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _leaves(item, (*path, i))]
    return [path]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(KINDS)), st.data())
def test_mutated_messages_are_rejected_not_crashing(kind: str, data: st.DataObject) -> None:
    """Any leaf replaced by any JSON value: the decoder returns or raises InvalidMessageError."""
    value = copy.deepcopy(samples()[kind])
    path = data.draw(st.sampled_from(_leaves(value)))
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(json_values)
    with contextlib.suppress(InvalidMessageError):
        decode_message(value, value.get("seat", 0) if isinstance(value.get("seat"), int) else 0)
