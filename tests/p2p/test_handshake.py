"""The hello handshake without sockets: bytes in, bytes out (issue 10, item 3)."""

from __future__ import annotations

import json

import pytest

from lancards.p2p.protocol.errors import HandshakeError, Reason
from lancards.p2p.protocol.handshake import HelloHandshake, proof_message
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.wire import canonical

ANN = Identity(bytes([1]) * 32, "ann")
BOB = Identity(bytes([2]) * 32, "bob")
MAL = Identity(bytes([3]) * 32, "mal")
N1, N2 = bytes([0xA1]) * 32, bytes([0xB2]) * 32


def pair(known: frozenset[bytes] = frozenset({ANN.public_key}),
         expected: bytes | None = BOB.public_key,
         dialer: Identity = ANN) -> tuple[HelloHandshake, HelloHandshake]:
    return (HelloHandshake.dialer(dialer, N1, "10.0.0.2:4000", expected=expected),
            HelloHandshake.listener(BOB, N2, "10.0.0.1:5000", is_known=known.__contains__))


def edit(data: bytes, **changes: object) -> bytes:
    message = json.loads(data)
    message.update(changes)
    return canonical(message)


def test_both_sides_complete_and_learn_each_others_key() -> None:
    d, lis = pair()
    hello = d.start()
    assert hello == canonical({"t": "hello", "v": 1, "pk": ANN.public_key.hex(),
                               "nonce": N1.hex()})
    reply = lis.receive(hello)
    assert reply is not None and not lis.complete
    assert json.loads(reply)["sig"] == BOB.sign(
        proof_message(ANN.public_key, BOB.public_key, N1, N2, "listener")).hex()
    proof = d.receive(reply)
    assert d.complete and d.peer == BOB.public_key
    assert proof == canonical({"t": "proof", "sig": ANN.sign(
        proof_message(ANN.public_key, BOB.public_key, N1, N2, "dialer")).hex()})
    assert lis.receive(proof) is None
    assert lis.complete and lis.peer == ANN.public_key


def rejection(side: HelloHandshake, data: bytes) -> HandshakeError:
    with pytest.raises(HandshakeError) as caught:
        side.receive(data)
    return caught.value


def test_a_128_character_non_hex_signature_is_a_rejection_not_a_value_error() -> None:
    d, lis = pair()
    reply = lis.receive(d.start() or b"")
    assert reply is not None
    error = rejection(d, edit(reply, sig="zz" * 64))
    assert error.reason is Reason.HANDSHAKE
    assert error.detail == "sig must be 128 lowercase hex digits"
    assert error.sender == f"{describe(BOB.public_key)} at 10.0.0.2:4000"
    # The listener's side too: the proof's signature.
    d2, lis2 = pair()
    d2.receive(lis2.receive(d2.start() or b"") or b"")
    error = rejection(lis2, canonical({"t": "proof", "sig": "g" * 128}))
    assert (error.reason, error.detail) == (Reason.HANDSHAKE,
                                            "sig must be 128 lowercase hex digits")


@pytest.mark.parametrize(("field", "value", "detail"), [
    ("pk", "AB" * 32, "pk must be 64 lowercase hex digits"),
    ("pk", "ab" * 31, "pk must be 64 lowercase hex digits"),
    ("nonce", " 1" * 32, "nonce must be 64 lowercase hex digits"),
    ("v", 2, "not a version 1 hello"),
    ("t", "proof", "not a version 1 hello"),
])
def test_a_malformed_hello_is_named(field: str, value: object, detail: str) -> None:
    d, lis = pair()
    error = rejection(lis, edit(d.start() or b"", **{field: value}))
    assert (error.reason, error.detail) == (Reason.HANDSHAKE, detail)


@pytest.mark.parametrize(("data", "detail"), [
    (b"not json", "bad JSON at char 0"),
    (b'{"t":"hello","v":1,"pk":"00","nonce":"00","extra":1}', "unknown field 'extra'"),
    (b'{"t":"hello","v":1.0,"pk":"00","nonce":"00"}', "number 1.0 is not an integer"),
    (b"[]", "not an object"),
    (b"{" * 5000, "bytes, limit 4096"),
])
def test_bytes_that_are_no_hello_are_a_rejection(data: bytes, detail: str) -> None:
    _, lis = pair()
    error = rejection(lis, data)
    assert error.reason is Reason.HANDSHAKE and detail in error.detail


def test_a_key_the_listener_does_not_admit_is_not_seated() -> None:
    d, lis = pair(dialer=MAL)
    error = rejection(lis, d.start() or b"")
    assert error.reason is Reason.NOT_SEATED
    assert error.sender == f"{describe(MAL.public_key)} at 10.0.0.1:5000"


def test_the_dialer_refuses_another_key_than_expected() -> None:
    d, lis = pair(expected=MAL.public_key)
    error = rejection(d, lis.receive(d.start() or b"") or b"")
    assert error.reason is Reason.WRONG_SENDER
    assert error.detail == f"expected {describe(MAL.public_key)} at that address"


def test_a_reflected_or_replayed_proof_does_not_verify() -> None:
    d, lis = pair()
    reply = lis.receive(d.start() or b"") or b""
    # Reflection: the listener's own signature sent back as the dialer's proof.
    error = rejection(lis, canonical({"t": "proof", "sig": json.loads(reply)["sig"]}))
    assert error.reason is Reason.BAD_SIGNATURE
    # Replay: a proof from an earlier handshake (other nonces) into a new one.
    proof = d.receive(reply) or b""
    d2 = HelloHandshake.dialer(ANN, bytes(32), "x", expected=BOB.public_key)
    lis2 = HelloHandshake.listener(BOB, N2, "y", is_known=lambda k: True)
    lis2.receive(d2.start() or b"")
    assert rejection(lis2, proof).reason is Reason.BAD_SIGNATURE
    # A forged listener signature (a valid signature by someone else).
    d3, lis3 = pair()
    good = lis3.receive(d3.start() or b"") or b""
    forged = MAL.sign(proof_message(ANN.public_key, BOB.public_key, N1, N2, "listener"))
    assert rejection(d3, edit(good, sig=forged.hex())).reason is Reason.BAD_SIGNATURE


def test_messages_out_of_order_are_refused() -> None:
    d, lis = pair()
    hello = d.start() or b""
    error = rejection(d, hello)  # the dialer's own hello fed back, unsigned
    assert error.reason is Reason.HANDSHAKE and "lacks field 'sig'" in error.detail
    reply = lis.receive(hello) or b""
    proof = d.receive(reply) or b""
    lis.receive(proof)
    assert rejection(lis, proof).detail == "a message after the handshake completed"
    assert rejection(d, reply).detail == "a message after the handshake completed"
