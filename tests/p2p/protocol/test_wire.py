"""The envelope: round trip, and every malformed input rejected with the sender and reason."""

from __future__ import annotations

import json

import pytest

from lancards.p2p.protocol.errors import LocalProtocolError, MessageError, Reason
from lancards.p2p.protocol.wire import (
    MAX_MESSAGE_BYTES,
    ReplayGuard,
    canonical,
    decode_envelope,
    sign_envelope,
)

from .helpers import TABLE, people

ANN, BOB = people(2)
LINK = "ann [link]"


def envelope_dict(**changes: object) -> dict[str, object]:
    env = sign_envelope(ANN, "chat", TABLE, 3, {"text": "hi ☺"})
    data: dict[str, object] = json.loads(env.encode())
    data.update(changes)
    return data


def raw(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def test_canonical_encoding_is_sorted_compact_utf8() -> None:
    assert canonical({"b": [1, True, None], "a": "é"}) == '{"a":"é","b":[1,true,null]}'.encode()
    for bad in (1.5, 2**53, {1: "x"}, b"bytes"):
        with pytest.raises(LocalProtocolError):
            canonical({"x": bad})


def test_round_trip_keeps_every_field() -> None:
    env = sign_envelope(ANN, "chat", TABLE, 3, {"text": "hi ☺"})
    data = env.encode()
    assert data == canonical(json.loads(data))
    back = decode_envelope(data, LINK, expected_sender=ANN.public_key)
    assert back == env
    assert (back.type, back.sender, back.table, back.seq, back.body) == (
        "chat",
        ANN.public_key,
        TABLE,
        3,
        {"text": "hi ☺"},
    )


def signed_raw(type_: str, body: object) -> bytes:
    """A validly signed envelope with any type and body (bypassing the schema)."""
    env = sign_envelope(ANN, type_, TABLE, 1, body)  # type: ignore[arg-type]
    return env.encode()


CASES: list[tuple[str, bytes, Reason, str]] = [
    ("bad json", b'{"v":1,', Reason.MALFORMED, "bad JSON"),
    ("bad utf-8", b'{"text":"\xff"}', Reason.MALFORMED, "not UTF-8"),
    ("not an object", b"[1,2]", Reason.MALFORMED, "list, not an object"),
    ("float", raw(envelope_dict(seq=1.5)), Reason.MALFORMED, "not an integer"),
    ("nan", raw(envelope_dict()).replace(b'"seq":3', b'"seq":NaN'), Reason.MALFORMED, "NaN"),
    ("huge int", raw(envelope_dict(seq=2**60)), Reason.MALFORMED, "beyond"),
    ("duplicate key", b'{"v":1,"v":1}', Reason.MALFORMED, "duplicate key 'v'"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, Reason.MALFORMED, "bad JSON"),
    (
        "missing field",
        raw({k: v for k, v in envelope_dict().items() if k != "tbl"}),
        Reason.MALFORMED,
        "lacks field 'tbl'",
    ),
    ("extra field", raw(envelope_dict(extra=1)), Reason.MALFORMED, "unknown field 'extra'"),
    ("seq is a string", raw(envelope_dict(seq="3")), Reason.MALFORMED, "'seq' is str, not int"),
    ("seq is a bool", raw(envelope_dict(seq=True)), Reason.MALFORMED, "'seq' is bool, not int"),
    ("body is a list", raw(envelope_dict(body=[])), Reason.MALFORMED, "'body' is list"),
    ("bad version", raw(envelope_dict(v=2)), Reason.MALFORMED, "protocol version 2"),
    ("bad table id", raw(envelope_dict(tbl="XYZ")), Reason.MALFORMED, "table id"),
    ("bad author", raw(envelope_dict(**{"from": "zz"})), Reason.MALFORMED, "not a key"),
    (
        "other author",
        raw(envelope_dict(**{"from": BOB.public_key.hex()})),
        Reason.WRONG_SENDER,
        "not the link's peer",
    ),
    ("unsigned", raw(envelope_dict(sig="")), Reason.UNSIGNED, "empty signature"),
    ("short signature", raw(envelope_dict(sig="ab" * 10)), Reason.BAD_SIGNATURE, "64 hex"),
    ("bad signature", raw(envelope_dict(sig="00" * 64)), Reason.BAD_SIGNATURE, "does not verify"),
    (
        "changed body",
        raw(envelope_dict(body={"text": "ho"})),
        Reason.BAD_SIGNATURE,
        "'chat' seq 3 does not verify",
    ),
    ("unknown type", signed_raw("poker.bet", {"text": "x"}), Reason.UNKNOWN_TYPE, "'poker.bet'"),
    ("body field type", signed_raw("chat", {"text": 5}), Reason.MALFORMED, "'text' is int"),
    ("body missing field", signed_raw("chat", {}), Reason.MALFORMED, "lacks field 'text'"),
]


@pytest.mark.parametrize(("case", "data", "reason", "detail"), CASES, ids=[c[0] for c in CASES])
def test_malformed_input_is_rejected_naming_sender_and_reason(
    case: str, data: bytes, reason: Reason, detail: str
) -> None:
    with pytest.raises(MessageError) as info:
        decode_envelope(data, LINK, expected_sender=ANN.public_key)
    assert info.value.sender == LINK
    assert info.value.reason is reason
    assert detail in info.value.detail
    assert str(info.value).startswith(f"rejected message from {LINK}")


def test_unsigned_envelope_without_sig_field_is_malformed() -> None:
    data = raw({k: v for k, v in envelope_dict().items() if k != "sig"})
    with pytest.raises(MessageError, match="lacks field 'sig'"):
        decode_envelope(data, LINK)


def test_oversized_is_rejected_before_parsing() -> None:
    env = sign_envelope(ANN, "chat", TABLE, 0, {"text": "x" * 2000})
    assert decode_envelope(env.encode(), LINK, max_size=4000) == env
    with pytest.raises(MessageError) as info:
        decode_envelope(env.encode(), LINK, max_size=1000)
    assert (info.value.reason, info.value.sender) == (Reason.OVERSIZED, LINK)
    assert f"{len(env.encode())} bytes, limit 1000" in info.value.detail
    assert MAX_MESSAGE_BYTES == 262144


def test_replayed_sequence_is_rejected_naming_the_author() -> None:
    guard = ReplayGuard(names={ANN.public_key: "ann"}.__getitem__)
    first = decode_envelope(sign_envelope(ANN, "chat", TABLE, 5, {"text": "a"}).encode(), LINK)
    guard.accept(first)
    for seq in (5, 4):  # the same message again, then an older one
        replay = decode_envelope(
            sign_envelope(ANN, "chat", TABLE, seq, {"text": "a"}).encode(), LINK
        )
        with pytest.raises(MessageError) as info:
            guard.accept(replay)
        assert (info.value.sender, info.value.reason, info.value.seq) == (
            "ann",
            Reason.REPLAYED,
            seq,
        )
        assert "not above the last accepted seq 5" in info.value.detail
    guard.accept(
        decode_envelope(sign_envelope(ANN, "chat", TABLE, 6, {"text": "b"}).encode(), LINK)
    )
    assert guard.last(ANN.public_key, TABLE) == 6
    # Another author or another table has its own counter.
    guard.accept(
        decode_envelope(sign_envelope(BOB, "chat", TABLE, 0, {"text": "c"}).encode(), LINK)
    )


def test_a_link_envelope_body_left_unchecked_is_still_checked_when_encoded():
    """``link_envelope(..., check=False)`` (the watchers' ``watch.entry``, issue 27) skips
    only the first of two checks: a float or a non-string key is refused by ``encode()``."""
    from lancards.p2p.protocol.identity import Identity
    from lancards.p2p.protocol.wire import link_envelope

    me = Identity.generate("ann")
    good = link_envelope(me, "watch.entry", "0123456789abcdef", {"entry": {"seq": 1}},
                         check=False)
    assert good.encode() == link_envelope(me, "watch.entry", "0123456789abcdef",
                                          {"entry": {"seq": 1}}).encode()
    for bad in ({"entry": 1.5}, {"entry": {1: "x"}}):
        unchecked = link_envelope(me, "watch.entry", "0123456789abcdef", bad, check=False)
        with pytest.raises(LocalProtocolError):
            unchecked.encode()
        with pytest.raises(LocalProtocolError):
            link_envelope(me, "watch.entry", "0123456789abcdef", bad)
