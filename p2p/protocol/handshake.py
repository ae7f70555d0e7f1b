"""The hello handshake, sans-I/O: bytes in, bytes out (the shape of noise's ``HandshakeState``).

:class:`HelloHandshake` never touches a socket, a clock or a random source: the transport
(:class:`lancards.p2p.net.transport.Mesh`) passes in a fresh nonce, sends what :meth:`start` and
:meth:`receive` return, and feeds every frame it reads to :meth:`receive`. After the last
message :attr:`complete` is true and :attr:`peer` is the authenticated Ed25519 key.

Messages (``docs/protocol.md``, "Hello"), each canonical JSON in one binary frame:

1. dialer -> listener: ``{"e": hex32, "nonce": hex32, "pk": hex32, "port": int, "t": "hello",
   "v": 1}``
2. listener -> dialer: ``{"e": hex32, "nonce": hex32, "pk": hex32, "port": int, "sig": hex64,
   "t": "hello", "v": 1}``
3. dialer -> listener: ``{"sig": hex64, "t": "proof"}``

``e`` is the side's fresh X25519 public key (an ephemeral, RFC 7748), ``port`` the TCP port it
listens on (0: none), ``nonce`` 32 fresh random bytes. The *transcript* is
``{"dialer", "dialer_e", "dialer_nonce", "dialer_port", "listener", "listener_e",
"listener_nonce", "listener_port"}`` (keys and ephemerals in hex). Each ``sig`` is the signer's
Ed25519 signature (RFC 8032) of ``b"lancards/v1/hello\x00" + canonical(transcript + {"role":
"listener" | "dialer"})``: both nonces are fresh, so an old handshake cannot be replayed; the
role stops a listener's signature from being reflected as a dialer's; the ephemerals are
signed, so a relay cannot swap in its own. After the last message both sides derive the link
keys from ``X25519(own ephemeral, other's ephemeral)`` and the transcript
(:mod:`lancards.p2p.protocol.channel`): :meth:`HelloHandshake.channel` seals and opens every later
frame, so a relay that forwards the hello can carry the link but never add to it or change it. Every
field is checked against its declared shape (lowercase hex of the exact length, a port in 0..65535)
before use; anything else is a :class:`~lancards.p2p.protocol.errors.HandshakeError` naming the
address and the reason, never a ``ValueError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Literal

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from lancards.p2p.protocol.channel import LinkChannel, link_keys, transcript_hash
from lancards.p2p.protocol.errors import HandshakeError, LocalProtocolError, MessageError, Reason
from lancards.p2p.protocol.identity import Identity, describe, verify_signature
from lancards.p2p.protocol.wire import PROTOCOL_VERSION, canonical, parse_json, require

HELLO_TAG: Final = b"lancards/v1/hello\x00"
"""Domain tag of handshake signatures."""
MAX_HELLO_BYTES: Final = 4096
"""The largest handshake message accepted."""

_HELLO: Final = {"t": str, "v": int, "pk": str, "nonce": str, "e": str, "port": int}
_HELLO_SIGNED: Final = {**_HELLO, "sig": str}
_PROOF: Final = {"t": str, "sig": str}
_HEX = re.compile(r"[0-9a-f]*")

Role = Literal["dialer", "listener"]


def transcript(dialer: bytes, listener: bytes, dialer_nonce: bytes, listener_nonce: bytes,
               dialer_e: bytes, listener_e: bytes, dialer_port: int,
               listener_port: int) -> dict[str, Any]:
    """The hello transcript both signatures and the link keys cover (module docstring)."""
    return {
        "dialer": dialer.hex(),
        "dialer_e": dialer_e.hex(),
        "dialer_nonce": dialer_nonce.hex(),
        "dialer_port": dialer_port,
        "listener": listener.hex(),
        "listener_e": listener_e.hex(),
        "listener_nonce": listener_nonce.hex(),
        "listener_port": listener_port,
    }


def proof_message(seen: dict[str, Any], role: Role) -> bytes:
    """The bytes a handshake signature by ``role`` covers: the tag, then the canonical
    :func:`transcript` with the role added."""
    return HELLO_TAG + canonical({**seen, "role": role})


class HelloHandshake:
    """One side of one hello handshake.

    Use :meth:`dialer` or :meth:`listener` to make one.

    Attributes:
        role: ``"dialer"`` or ``"listener"``.
        complete: whether the peer is authenticated.
        peer: the peer's 32-byte Ed25519 key once known (checked only when ``complete``).
    """

    def __init__(self, identity: Identity, role: Role, nonce: bytes, address: str, *,
                 ephemeral: bytes, port: int = 0, expected: bytes | None = None,
                 is_known: Callable[[bytes], bool] | None = None) -> None:
        if len(nonce) != 32 or len(ephemeral) != 32:
            raise LocalProtocolError("the nonce and the ephemeral key must be 32 bytes")
        if not 0 <= port <= 65535:
            raise LocalProtocolError(f"port {port} is not in 0..65535")
        self.identity = identity
        self.role: Role = role
        self.address = address
        self.complete = False
        self.peer: bytes | None = None
        self.peer_port = 0
        """The port the peer said it listens on (0: none); known once ``complete``."""
        self._nonce = nonce
        self._ephemeral = X25519PrivateKey.from_private_bytes(ephemeral)
        self._e = self._ephemeral.public_key().public_bytes_raw()
        self._port = port
        self._theirs = b""
        self._their_e = b""
        self._expected = expected
        self._is_known = is_known
        self._step = 0
        self._channel: LinkChannel | None = None

    @classmethod
    def dialer(cls, identity: Identity, nonce: bytes, address: str, *, ephemeral: bytes,
               expected: bytes | None, port: int = 0) -> HelloHandshake:
        """The side that opened the connection.

        Args:
            identity: this peer (signs the proof).
            nonce: 32 fresh random bytes.
            address: ``host:port`` of the other side, for errors.
            ephemeral: 32 fresh random bytes, the X25519 private key of this link (RFC 7748).
            expected: the key that must answer, or ``None`` to learn it (a join by address).
            port: the TCP port this peer listens on (0: none), told to the other side.

        Raises:
            LocalProtocolError: ``nonce`` or ``ephemeral`` is not 32 bytes, or ``port`` is out
                of range.
        """
        return cls(identity, "dialer", nonce, address, ephemeral=ephemeral, port=port,
                   expected=expected)

    @classmethod
    def listener(cls, identity: Identity, nonce: bytes, address: str, *, ephemeral: bytes,
                 is_known: Callable[[bytes], bool], port: int = 0) -> HelloHandshake:
        """The side that accepted the connection (arguments as :meth:`dialer`).

        Args:
            is_known: whether a key may connect (a seated member, or a newcomer to a lobby).
        """
        return cls(identity, "listener", nonce, address, ephemeral=ephemeral, port=port,
                   is_known=is_known)

    def channel(self) -> LinkChannel:
        """The channel of this link: seals and opens every frame after the hello.

        Raises:
            LocalProtocolError: the handshake is not complete.
        """
        if not self.complete or self._channel is None:
            raise LocalProtocolError("the handshake is not complete")
        return self._channel

    def start(self) -> bytes | None:
        """The first message to send: the dialer's hello; ``None`` for the listener."""
        if self.role != "dialer" or self._step != 0:
            return None
        self._step = 1
        return canonical({"t": "hello", "v": PROTOCOL_VERSION,
                          "pk": self.identity.public_key.hex(), "nonce": self._nonce.hex(),
                          "e": self._e.hex(), "port": self._port})

    def receive(self, data: bytes) -> bytes | None:
        """Take one message of the other side; returns the message to send back, if any.

        Raises:
            HandshakeError: ``handshake`` (malformed, wrong version, unexpected message),
                ``wrong-sender`` (another key than expected), ``not-seated`` (a key this
                listener does not admit) or ``bad-signature`` (a proof that does not verify).
        """
        if self.complete:
            raise self._error(Reason.HANDSHAKE, "a message after the handshake completed"
                              ).with_code("hello-after")
        if self.role == "listener" and self._step == 0:
            return self._on_dialer_hello(data)
        if self.role == "dialer" and self._step == 1:
            return self._on_listener_hello(data)
        if self.role == "listener" and self._step == 1:
            self._on_proof(data)
            return None
        raise self._error(Reason.HANDSHAKE, "a message out of order").with_code("hello-order")

    # -- the steps ------------------------------------------------------------------------

    def _on_dialer_hello(self, data: bytes) -> bytes:
        hello = self._decode(data, _HELLO, "hello")
        peer, theirs = self._check_hello(hello)
        self.peer, self._theirs = peer, theirs
        assert self._is_known is not None
        if peer == self.identity.public_key or not self._is_known(peer):
            raise self._error(Reason.NOT_SEATED, "is not a peer of this table").with_code(
                "hello-stranger")
        me = self.identity.public_key
        sig = self.identity.sign(proof_message(self._seen(), "listener"))
        self._step = 1
        return canonical({"t": "hello", "v": PROTOCOL_VERSION, "pk": me.hex(),
                          "nonce": self._nonce.hex(), "e": self._e.hex(), "port": self._port,
                          "sig": sig.hex()})

    def _on_listener_hello(self, data: bytes) -> bytes:
        hello = self._decode(data, _HELLO_SIGNED, "hello")
        peer, theirs = self._check_hello(hello)
        self.peer, self._theirs = peer, theirs
        if self._expected is not None and peer != self._expected:
            raise self._error(Reason.WRONG_SENDER,
                              f"expected {describe(self._expected)} at that address"
                              ).with_code("hello-other-key", expected=describe(self._expected))
        seen = self._seen()
        sig = self._hex(hello["sig"], 64, "sig")
        if not verify_signature(peer, sig, proof_message(seen, "listener")):
            raise self._error(Reason.BAD_SIGNATURE, "hello proof does not verify").with_code(
                "hello-proof")
        proof = self.identity.sign(proof_message(seen, "dialer"))
        self._finish(seen)
        return canonical({"t": "proof", "sig": proof.hex()})

    def _on_proof(self, data: bytes) -> None:
        proof = self._decode(data, _PROOF, "proof")
        if proof["t"] != "proof":
            raise self._error(Reason.HANDSHAKE, f"expected a proof, got {proof['t']!r}"
                              ).with_code("hello-not-proof", got=proof["t"][:40])
        sig = self._hex(proof["sig"], 64, "sig")
        assert self.peer is not None
        seen = self._seen()
        if not verify_signature(self.peer, sig, proof_message(seen, "dialer")):
            raise self._error(Reason.BAD_SIGNATURE, "hello proof does not verify").with_code(
                "hello-proof")
        self._finish(seen)

    def _seen(self) -> dict[str, Any]:
        """The transcript as this side saw it (its own values and the other side's)."""
        assert self.peer is not None
        me = self.identity.public_key
        if self.role == "dialer":
            return transcript(me, self.peer, self._nonce, self._theirs, self._e, self._their_e,
                              self._port, self.peer_port)
        return transcript(self.peer, me, self._theirs, self._nonce, self._their_e, self._e,
                          self.peer_port, self._port)

    def _finish(self, seen: dict[str, Any]) -> None:
        """Both signatures verified: derive the link keys (:mod:`lancards.p2p.protocol.channel`)."""
        try:
            shared = self._ephemeral.exchange(X25519PublicKey.from_public_bytes(self._their_e))
        except ValueError:
            raise self._error(Reason.HANDSHAKE, "ephemeral key of low order (RFC 7748 "
                              "section 6.1)").with_code("hello-low-order") from None
        h = transcript_hash(canonical(seen))
        to_listener, to_dialer = link_keys(shared, h)
        assert self.peer is not None
        send, receive = ((to_listener, to_dialer) if self.role == "dialer"
                         else (to_dialer, to_listener))
        self._channel = LinkChannel(send, receive, self.peer, self._who(), h)
        self._step = 2
        self.complete = True

    # -- checks -----------------------------------------------------------------------------

    def _decode(self, data: bytes, schema: dict[str, Any], where: str) -> dict[str, Any]:
        try:
            return require(parse_json(data, self.address, max_size=MAX_HELLO_BYTES), schema,
                           self.address, where)
        except MessageError as exc:
            raise HandshakeError(self._who(), Reason.HANDSHAKE, exc.detail).with_code(
                exc.code, **exc.params) from None  # what was wrong with the bytes

    def _check_hello(self, hello: dict[str, Any]) -> tuple[bytes, bytes]:
        if hello["t"] != "hello" or hello["v"] != PROTOCOL_VERSION:
            raise self._error(Reason.HANDSHAKE, f"not a version {PROTOCOL_VERSION} hello"
                              ).with_code("hello-version", version=PROTOCOL_VERSION)
        peer, nonce = self._hex(hello["pk"], 32, "pk"), self._hex(hello["nonce"], 32, "nonce")
        self._their_e = self._hex(hello["e"], 32, "e")
        port = hello["port"]
        if not 0 <= port <= 65535:
            raise self._error(Reason.HANDSHAKE, "port must be in 0..65535").with_code(
                "hello-port")
        self.peer_port = port
        return peer, nonce

    def _hex(self, text: str, size: int, field: str) -> bytes:
        if len(text) != 2 * size or not _HEX.fullmatch(text):
            raise self._error(Reason.HANDSHAKE,
                              f"{field} must be {2 * size} lowercase hex digits"
                              ).with_code("hello-hex", field=field, digits=2 * size)
        return bytes.fromhex(text)

    def _who(self) -> str:
        return self.address if self.peer is None else f"{describe(self.peer)} at {self.address}"

    def _error(self, reason: Reason, detail: str) -> HandshakeError:
        return HandshakeError(self._who(), reason, detail)


__all__ = ["HELLO_TAG", "HelloHandshake", "proof_message", "transcript"]
