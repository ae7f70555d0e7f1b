"""The hello handshake, sans-I/O: bytes in, bytes out (the shape of noise's ``HandshakeState``).

:class:`HelloHandshake` never touches a socket, a clock or a random source: the transport
(:class:`lancards.p2p.net.transport.Mesh`) passes in a fresh nonce, sends what :meth:`start` and
:meth:`receive` return, and feeds every frame it reads to :meth:`receive`. After the last
message :attr:`complete` is true and :attr:`peer` is the authenticated Ed25519 key.

Messages (``docs/protocol.md``, "Hello"), each canonical JSON in one binary frame:

1. dialer -> listener: ``{"nonce": hex32, "pk": hex32, "t": "hello", "v": 1}``
2. listener -> dialer: ``{"nonce": hex32, "pk": hex32, "sig": hex64, "t": "hello", "v": 1}``
3. dialer -> listener: ``{"sig": hex64, "t": "proof"}``

Each ``sig`` is the signer's Ed25519 signature (RFC 8032) of ``b"lancards/v1/hello\\x00" +
canonical({"dialer": hex, "dialer_nonce": hex, "listener": hex, "listener_nonce": hex,
"role": "listener" | "dialer"})``: both nonces are fresh, so an old handshake cannot be
replayed, and the role stops a listener's signature from being reflected as a dialer's.
Every field is checked against its declared shape (lowercase hex of the exact length) before
use; anything else is a :class:`~lancards.p2p.protocol.errors.HandshakeError` naming the address and
the reason, never a ``ValueError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Literal

from lancards.p2p.protocol.errors import HandshakeError, MessageError, Reason
from lancards.p2p.protocol.identity import Identity, describe, verify_signature
from lancards.p2p.protocol.wire import PROTOCOL_VERSION, canonical, parse_json, require

HELLO_TAG: Final = b"lancards/v1/hello\x00"
"""Domain tag of handshake signatures."""
MAX_HELLO_BYTES: Final = 4096
"""The largest handshake message accepted."""

_HELLO: Final = {"t": str, "v": int, "pk": str, "nonce": str}
_HELLO_SIGNED: Final = {**_HELLO, "sig": str}
_PROOF: Final = {"t": str, "sig": str}
_HEX = re.compile(r"[0-9a-f]*")

Role = Literal["dialer", "listener"]


def proof_message(dialer: bytes, listener: bytes, dialer_nonce: bytes, listener_nonce: bytes,
                  role: Role) -> bytes:
    """The bytes a handshake signature covers (see the module docstring)."""
    return HELLO_TAG + canonical({
        "dialer": dialer.hex(),
        "dialer_nonce": dialer_nonce.hex(),
        "listener": listener.hex(),
        "listener_nonce": listener_nonce.hex(),
        "role": role,
    })


class HelloHandshake:
    """One side of one hello handshake.

    Use :meth:`dialer` or :meth:`listener` to make one.

    Attributes:
        role: ``"dialer"`` or ``"listener"``.
        complete: whether the peer is authenticated.
        peer: the peer's 32-byte Ed25519 key once known (checked only when ``complete``).
    """

    def __init__(self, identity: Identity, role: Role, nonce: bytes, address: str, *,
                 expected: bytes | None = None,
                 is_known: Callable[[bytes], bool] | None = None) -> None:
        if len(nonce) != 32:
            raise ValueError("the nonce must be 32 bytes")
        self.identity = identity
        self.role: Role = role
        self.address = address
        self.complete = False
        self.peer: bytes | None = None
        self._nonce = nonce
        self._theirs = b""
        self._expected = expected
        self._is_known = is_known
        self._step = 0

    @classmethod
    def dialer(cls, identity: Identity, nonce: bytes, address: str, *,
               expected: bytes | None) -> HelloHandshake:
        """The side that opened the connection.

        Args:
            identity: this peer (signs the proof).
            nonce: 32 fresh random bytes.
            address: ``host:port`` of the other side, for errors.
            expected: the key that must answer, or ``None`` to learn it (a join by address).
        """
        return cls(identity, "dialer", nonce, address, expected=expected)

    @classmethod
    def listener(cls, identity: Identity, nonce: bytes, address: str, *,
                 is_known: Callable[[bytes], bool]) -> HelloHandshake:
        """The side that accepted the connection.

        Args:
            is_known: whether a key may connect (a seated member, or a newcomer to a lobby).
        """
        return cls(identity, "listener", nonce, address, is_known=is_known)

    def start(self) -> bytes | None:
        """The first message to send: the dialer's hello; ``None`` for the listener."""
        if self.role != "dialer" or self._step != 0:
            return None
        self._step = 1
        return canonical({"t": "hello", "v": PROTOCOL_VERSION,
                          "pk": self.identity.public_key.hex(), "nonce": self._nonce.hex()})

    def receive(self, data: bytes) -> bytes | None:
        """Take one message of the other side; returns the message to send back, if any.

        Raises:
            HandshakeError: ``handshake`` (malformed, wrong version, unexpected message),
                ``wrong-sender`` (another key than expected), ``not-seated`` (a key this
                listener does not admit) or ``bad-signature`` (a proof that does not verify).
        """
        if self.complete:
            raise self._error(Reason.HANDSHAKE, "a message after the handshake completed")
        if self.role == "listener" and self._step == 0:
            return self._on_dialer_hello(data)
        if self.role == "dialer" and self._step == 1:
            return self._on_listener_hello(data)
        if self.role == "listener" and self._step == 1:
            self._on_proof(data)
            return None
        raise self._error(Reason.HANDSHAKE, "a message out of order")

    # -- the steps ------------------------------------------------------------------------

    def _on_dialer_hello(self, data: bytes) -> bytes:
        hello = self._decode(data, _HELLO, "hello")
        peer, theirs = self._check_hello(hello)
        self.peer, self._theirs = peer, theirs
        assert self._is_known is not None
        if peer == self.identity.public_key or not self._is_known(peer):
            raise self._error(Reason.NOT_SEATED, "is not a peer of this table")
        me = self.identity.public_key
        sig = self.identity.sign(proof_message(peer, me, theirs, self._nonce, "listener"))
        self._step = 1
        return canonical({"t": "hello", "v": PROTOCOL_VERSION, "pk": me.hex(),
                          "nonce": self._nonce.hex(), "sig": sig.hex()})

    def _on_listener_hello(self, data: bytes) -> bytes:
        hello = self._decode(data, _HELLO_SIGNED, "hello")
        peer, theirs = self._check_hello(hello)
        self.peer, self._theirs = peer, theirs
        if self._expected is not None and peer != self._expected:
            raise self._error(Reason.WRONG_SENDER,
                              f"expected {describe(self._expected)} at that address")
        me = self.identity.public_key
        sig = self._hex(hello["sig"], 64, "sig")
        if not verify_signature(peer, sig, proof_message(me, peer, self._nonce, theirs,
                                                         "listener")):
            raise self._error(Reason.BAD_SIGNATURE, "hello proof does not verify")
        proof = self.identity.sign(proof_message(me, peer, self._nonce, theirs, "dialer"))
        self._step = 2
        self.complete = True
        return canonical({"t": "proof", "sig": proof.hex()})

    def _on_proof(self, data: bytes) -> None:
        proof = self._decode(data, _PROOF, "proof")
        if proof["t"] != "proof":
            raise self._error(Reason.HANDSHAKE, f"expected a proof, got {proof['t']!r}")
        sig = self._hex(proof["sig"], 64, "sig")
        assert self.peer is not None
        me = self.identity.public_key
        if not verify_signature(self.peer, sig, proof_message(self.peer, me, self._theirs,
                                                              self._nonce, "dialer")):
            raise self._error(Reason.BAD_SIGNATURE, "hello proof does not verify")
        self._step = 2
        self.complete = True

    # -- checks -----------------------------------------------------------------------------

    def _decode(self, data: bytes, schema: dict[str, Any], where: str) -> dict[str, Any]:
        try:
            return require(parse_json(data, self.address, max_size=MAX_HELLO_BYTES), schema,
                           self.address, where)
        except MessageError as exc:
            raise HandshakeError(self._who(), Reason.HANDSHAKE, exc.detail) from None

    def _check_hello(self, hello: dict[str, Any]) -> tuple[bytes, bytes]:
        if hello["t"] != "hello" or hello["v"] != PROTOCOL_VERSION:
            raise self._error(Reason.HANDSHAKE, f"not a version {PROTOCOL_VERSION} hello")
        return self._hex(hello["pk"], 32, "pk"), self._hex(hello["nonce"], 32, "nonce")

    def _hex(self, text: str, size: int, field: str) -> bytes:
        if len(text) != 2 * size or not _HEX.fullmatch(text):
            raise self._error(Reason.HANDSHAKE,
                              f"{field} must be {2 * size} lowercase hex digits")
        return bytes.fromhex(text)

    def _who(self) -> str:
        return self.address if self.peer is None else f"{describe(self.peer)} at {self.address}"

    def _error(self, reason: Reason, detail: str) -> HandshakeError:
        return HandshakeError(self._who(), reason, detail)


__all__ = ["HELLO_TAG", "HelloHandshake", "proof_message"]
