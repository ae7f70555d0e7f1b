"""The link channel: every frame after the hello authenticated with keys bound to that hello.

A link carries frames between two peers that proved their Ed25519 keys in the hello handshake
(:mod:`lancards.p2p.protocol.handshake`). Proving the keys is not enough when the bytes travel
through someone else (a relay at a false address, ruling out nothing on a home network): a relay
that forwards the hello unchanged comes up "authenticated as" the genuine peer and could then add or
change frames. So each hello also carries a fresh X25519 key (an ephemeral, RFC 7748), signed with
the rest of the transcript, and every later frame carries a tag under keys only the two ends can
compute. This is the transport phase of the Noise Protocol Framework (revision 34), with the
handshake's authentication done by the hello's signatures instead of static DH keys:

- **Handshake hash** ``h`` = ``SHA-256("lancards/v1/link\\0" || canonical(transcript))``, the
  transcript being both keys, nonces, ephemerals and ports (:func:`transcript_hash`). It is
  the channel binding of Noise section 11.2: a unique name of this handshake. A relay cannot
  put its own ephemeral in place of one side's without breaking that side's signature.
- **Keys** (Noise section 5.2, ``Split()``, here with HKDF directly):
  ``HKDF-SHA256(ikm = X25519(e_mine, e_theirs), salt = h, info = "lancards/v1/link", L = 64)``
  (RFC 5869); bytes 0-31 key the frames from the dialer to the listener, 32-63 the other way.
  An all-zero shared secret (a low-order ephemeral, RFC 7748 section 6.1) fails the hello.
- **Frames** (Noise section 5.1, ``CipherState``): each direction counts its frames from 0;
  frame ``n`` is the message followed by its 16-byte tag, ``ChaCha20-Poly1305(key, nonce = 4
  zero bytes || n as 8 bytes little-endian, plaintext = empty, ad = the message)`` (RFC 8439
  section 2.8, so the tag is the Poly1305 MAC of the message under a one-time key; the nonce
  layout of Noise section 12.3). Frames are authenticated, not encrypted: what must stay
  secret is sealed to its recipient inside them (``docs/protocol.md`` section 8), and moves
  are public at the table anyway. The receiver expects exactly the next ``n``: a frame
  injected, altered, replayed, dropped or reordered on the way fails its tag, and the link is
  closed (TCP delivers in order, so an honest link never reorders). Nothing of a refused frame
  reaches the core.

:class:`LinkChannel` is sans-I/O: the transport seals what it sends and opens what it reads.
"""

from __future__ import annotations

import hashlib
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from lancards.p2p.protocol.errors import FrameError, LocalProtocolError, Reason

LINK_TAG: Final = b"lancards/v1/link\x00"
"""Domain tag of the handshake hash."""
LINK_INFO: Final = b"lancards/v1/link"
"""HKDF ``info`` of the link keys."""
TAG_BYTES: Final = 16
"""Bytes a sealed frame adds (the Poly1305 tag)."""
MAX_FRAMES: Final = 2**64 - 1
"""Frames one direction of a link may carry (Noise section 5.1 reserves the last nonce)."""


def transcript_hash(canonical_transcript: bytes) -> bytes:
    """The handshake hash ``h`` (32 bytes) of a hello transcript's canonical JSON bytes."""
    return hashlib.sha256(LINK_TAG + canonical_transcript).digest()


def link_keys(shared: bytes, handshake_hash: bytes) -> tuple[bytes, bytes]:
    """The two 32-byte frame keys (dialer to listener, listener to dialer) of a link.

    Args:
        shared: the X25519 shared secret of the two ephemerals (32 bytes, not all zero).
        handshake_hash: :func:`transcript_hash` of the hello (32 bytes).

    Raises:
        LocalProtocolError: ``shared`` or ``handshake_hash`` is not 32 bytes.
    """
    if len(shared) != 32 or len(handshake_hash) != 32:
        raise LocalProtocolError("link keys need a 32-byte secret and a 32-byte hash")
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=handshake_hash,
               info=LINK_INFO).derive(shared)
    return okm[:32], okm[32:]


def _nonce(n: int) -> bytes:
    return b"\x00\x00\x00\x00" + n.to_bytes(8, "little")


class CipherState:
    """One direction of a link: a key and the number of the next frame (Noise section 5.1)."""

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.n = 0

    def seal(self, message: bytes) -> bytes:
        """The next frame: ``message`` and its 16-byte tag.

        Raises:
            LocalProtocolError: :data:`MAX_FRAMES` frames were sealed (never in practice).
        """
        if self.n >= MAX_FRAMES:
            raise LocalProtocolError("the link's frame counter is exhausted")
        tag = self._aead.encrypt(_nonce(self.n), b"", message)
        self.n += 1
        return message + tag

    def open(self, frame: bytes) -> bytes | None:
        """The message of the next frame, or ``None`` when its tag fails (the counter stays)."""
        if self.n >= MAX_FRAMES or len(frame) < TAG_BYTES:
            return None
        message, tag = frame[:-TAG_BYTES], frame[-TAG_BYTES:]
        try:
            self._aead.decrypt(_nonce(self.n), tag, message)
        except InvalidTag:
            return None
        self.n += 1
        return message


class LinkChannel:
    """Both directions of one authenticated link.

    Args:
        send_key: this side's sending key (32 bytes), ``receive_key``: the other side's.
        peer: the authenticated peer's Ed25519 key (32 bytes), ``name``: how errors name it.
        handshake_hash: the hello's :func:`transcript_hash` (the channel binding).
    """

    def __init__(self, send_key: bytes, receive_key: bytes, peer: bytes, name: str,
                 handshake_hash: bytes) -> None:
        self._send = CipherState(send_key)
        self._receive = CipherState(receive_key)
        self.peer = peer
        self.name = name
        self.handshake_hash = handshake_hash

    @property
    def sent(self) -> int:
        """Frames sealed so far."""
        return self._send.n

    @property
    def received(self) -> int:
        """Frames opened so far."""
        return self._receive.n

    def seal(self, message: bytes) -> bytes:
        """The frame to send for ``message`` (16 bytes longer: the tag)."""
        return self._send.seal(message)

    def open(self, frame: bytes) -> bytes:
        """The message of the next frame read from the link, its tag checked and removed.

        Raises:
            FrameError: ``bad-frame``, naming the link's peer and the frame's number: the tag
                fails (injected, altered, replayed, dropped before it or reordered).
        """
        message = self._receive.open(frame)
        if message is None:
            raise FrameError(self.name, Reason.BAD_FRAME,
                             f"frame {self._receive.n} of the link fails its authentication "
                             "(injected, altered, replayed or reordered on the way)"
                             ).with_code("frame-auth", frame=self._receive.n)
        return message


__all__ = ["LINK_INFO", "LINK_TAG", "MAX_FRAMES", "TAG_BYTES", "CipherState", "FrameError",
           "LinkChannel", "link_keys", "transcript_hash"]
