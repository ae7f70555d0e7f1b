"""The hello handshake without sockets: bytes in, bytes out (issue 10, item 3)."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from lancards.p2p.protocol.errors import FrameError, HandshakeError, LocalProtocolError, Reason
from lancards.p2p.protocol.handshake import HelloHandshake, proof_message, transcript
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.wire import canonical

ANN = Identity(bytes([1]) * 32, "ann")
BOB = Identity(bytes([2]) * 32, "bob")
MAL = Identity(bytes([3]) * 32, "mal")
N1, N2 = bytes([0xA1]) * 32, bytes([0xB2]) * 32
E1, E2 = bytes([0xC3]) * 32, bytes([0xD4]) * 32


def public(secret: bytes) -> bytes:
    return X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()


SEEN = transcript(ANN.public_key, BOB.public_key, N1, N2, public(E1), public(E2), 4001, 5001)
"""The transcript of :func:`pair`'s handshake."""


def pair(known: frozenset[bytes] = frozenset({ANN.public_key}),
         expected: bytes | None = BOB.public_key,
         dialer: Identity = ANN) -> tuple[HelloHandshake, HelloHandshake]:
    return (HelloHandshake.dialer(dialer, N1, "10.0.0.2:4000", ephemeral=E1, expected=expected,
                                  port=4001),
            HelloHandshake.listener(BOB, N2, "10.0.0.1:5000", ephemeral=E2,
                                    is_known=known.__contains__, port=5001))


def complete_pair() -> tuple[HelloHandshake, HelloHandshake]:
    d, lis = pair()
    lis.receive(d.receive(lis.receive(d.start() or b"") or b"") or b"")
    assert d.complete and lis.complete
    return d, lis


def edit(data: bytes, **changes: object) -> bytes:
    message = json.loads(data)
    message.update(changes)
    return canonical(message)


def test_both_sides_complete_and_learn_each_others_key() -> None:
    d, lis = pair()
    hello = d.start()
    assert hello == canonical({"t": "hello", "v": 1, "pk": ANN.public_key.hex(),
                               "nonce": N1.hex(), "e": public(E1).hex(), "port": 4001})
    reply = lis.receive(hello)
    assert reply is not None and not lis.complete
    assert json.loads(reply)["sig"] == BOB.sign(proof_message(SEEN, "listener")).hex()
    assert json.loads(reply)["e"] == public(E2).hex() and json.loads(reply)["port"] == 5001
    proof = d.receive(reply)
    assert d.complete and d.peer == BOB.public_key and d.peer_port == 5001
    assert proof == canonical({"t": "proof", "sig": ANN.sign(proof_message(SEEN, "dialer")).hex()})
    assert lis.receive(proof) is None
    assert lis.complete and lis.peer == ANN.public_key and lis.peer_port == 4001


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
    ("e", "ab" * 33, "e must be 64 lowercase hex digits"),
    ("port", 65536, "port must be in 0..65535"),
    ("port", -1, "port must be in 0..65535"),
    ("v", 2, "not a version 1 hello"),
    ("t", "proof", "not a version 1 hello"),
])
def test_a_malformed_hello_is_named(field: str, value: object, detail: str) -> None:
    d, lis = pair()
    error = rejection(lis, edit(d.start() or b"", **{field: value}))
    assert (error.reason, error.detail) == (Reason.HANDSHAKE, detail)


@pytest.mark.parametrize(("data", "detail"), [
    (b"not json", "bad JSON at char 0"),
    (b'{"e":"00","t":"hello","v":1,"pk":"00","nonce":"00","port":0,"extra":1}',
     "unknown field 'extra'"),
    (b'{"e":"00","t":"hello","v":1.0,"pk":"00","nonce":"00","port":0}',
     "number 1.0 is not an integer"),
    (b'{"t":"hello","v":1,"pk":"00","nonce":"00"}', "lacks field 'e'"),
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
    d2 = HelloHandshake.dialer(ANN, bytes(32), "x", ephemeral=E1, expected=BOB.public_key)
    lis2 = HelloHandshake.listener(BOB, N2, "y", ephemeral=E2, is_known=lambda k: True)
    lis2.receive(d2.start() or b"")
    assert rejection(lis2, proof).reason is Reason.BAD_SIGNATURE
    # A forged listener signature (a valid signature by someone else).
    d3, lis3 = pair()
    good = lis3.receive(d3.start() or b"") or b""
    forged = MAL.sign(proof_message(SEEN, "listener"))
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


# The channel: frames bound to the handshake (issue 23, situation 11) ---------------------------


def test_both_ends_derive_one_channel_and_frames_flow_each_way_in_order() -> None:
    d, lis = complete_pair()
    out, into = d.channel(), lis.channel()
    assert out.handshake_hash == into.handshake_hash
    frames = [out.seal(f"ack {i}".encode()) for i in range(3)]
    # Authenticated, not encrypted: the message, then its 16-byte tag.
    assert [f[:-16] for f in frames] == [b"ack 0", b"ack 1", b"ack 2"]
    assert [into.open(f) for f in frames] == [b"ack 0", b"ack 1", b"ack 2"]
    assert d.channel().open(lis.channel().seal(b"back")) == b"back"
    assert (out.sent, into.received) == (3, 3)


def frame_error(channel, frame: bytes) -> FrameError:
    with pytest.raises(FrameError) as caught:
        channel.open(frame)
    return caught.value


@pytest.mark.parametrize("attack", ["inject", "alter", "replay", "reorder", "reflect", "cut"])
def test_a_frame_not_sealed_in_order_by_the_other_end_is_refused(attack: str) -> None:
    d, lis = complete_pair()
    out, into = d.channel(), lis.channel()
    first, second = out.seal(b'{"type":"record.ack"}'), out.seal(b"second")
    if attack == "inject":  # plaintext as it travelled before links were sealed
        bad = b'{"body":{"hash":"ab","seq":1},"sig":"","type":"record.ack"}'
    elif attack == "alter":
        bad = bytes([first[0] ^ 1]) + first[1:]
    elif attack == "replay":
        assert into.open(first) == b'{"type":"record.ack"}'
        bad = first
    elif attack == "reorder":
        bad = second
    elif attack == "reflect":  # the listener's own frame sent back to it
        bad = into.seal(b"x")
    else:
        bad = first[:10]
    error = frame_error(into, bad)
    assert error.reason is Reason.BAD_FRAME
    assert error.sender == f"{describe(ANN.public_key)} at 10.0.0.1:5000"
    assert "fails its authentication" in error.detail


def test_another_handshake_of_the_same_peers_has_other_keys() -> None:
    """A frame recorded on one link does not open on the next one (new nonces, ephemerals)."""
    d, lis = complete_pair()
    frame = d.channel().seal(b"hello")
    d2 = HelloHandshake.dialer(ANN, N2, "x", ephemeral=E2, expected=BOB.public_key)
    lis2 = HelloHandshake.listener(BOB, N1, "y", ephemeral=E1, is_known=lambda k: True)
    lis2.receive(d2.receive(lis2.receive(d2.start() or b"") or b"") or b"")
    assert lis2.channel().handshake_hash != lis.channel().handshake_hash
    assert frame_error(lis2.channel(), frame).reason is Reason.BAD_FRAME


def test_a_relay_that_swaps_in_its_own_ephemeral_breaks_the_signatures() -> None:
    """A man in the middle forwarding the hellos but with its own X25519 keys (to read and
    write the frames) fails: each side signed the ephemerals it saw."""
    relay_e = public(bytes([7]) * 32).hex()
    for swap_reply in (True, False):
        d, lis = pair()
        hello = json.loads(d.start() or b"")
        hello["e"] = relay_e  # toward the listener: the relay's key instead of the dialer's
        reply = json.loads(lis.receive(canonical(hello)) or b"")
        if swap_reply:
            reply["e"] = relay_e  # toward the dialer, likewise
        # Either way the listener signed a transcript with the relay's key as the dialer's.
        assert rejection(d, canonical(reply)).reason is Reason.BAD_SIGNATURE


def test_a_low_order_ephemeral_fails_the_key_exchange() -> None:
    """A listener hello whose ephemeral is of low order (RFC 7748 section 6.1), signed by the
    listener itself, is refused once the signature verified."""
    d, _ = pair()
    d.start()
    seen = transcript(ANN.public_key, BOB.public_key, N1, N2, public(E1), bytes(32), 4001, 5001)
    signed = canonical({"t": "hello", "v": 1, "pk": BOB.public_key.hex(), "nonce": N2.hex(),
                        "e": "00" * 32, "port": 5001,
                        "sig": BOB.sign(proof_message(seen, "listener")).hex()})
    error = rejection(d, signed)
    assert (error.reason, error.detail) == (Reason.HANDSHAKE,
                                            "ephemeral key of low order (RFC 7748 section 6.1)")
    assert not d.complete


def test_the_channel_is_only_there_once_the_handshake_completed() -> None:
    d, _ = pair()
    with pytest.raises(LocalProtocolError, match="not complete"):
        d.channel()
    with pytest.raises(LocalProtocolError, match="32 bytes"):
        HelloHandshake.dialer(ANN, N1, "x", ephemeral=b"short", expected=None)
