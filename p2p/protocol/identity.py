"""A user's identity: an Ed25519 signing key, the X25519 key derived from it, and a nickname.

Its file (``docs/protocol.md``, "Identity file": :meth:`Identity.to_json`) is read and written
by the adapter :mod:`lancards.p2p.net.identity_file`; this module does no I/O.

The X25519 key for sealed private payloads is *derived*, not stored: its private scalar is
``HKDF-SHA256(ikm = Ed25519 seed, salt = "", info = "lancards/v1/x25519", L = 32)`` (RFC 5869;
X25519 clamps it, RFC 7748 section 5). Its public key is announced in the signed table join, so
peers bind it to the Ed25519 identity by signature, never by mDNS.

The fingerprint people compare is ``SHA-256(Ed25519 public key)``, its first 10 bytes in RFC 4648
base32 (16 characters), shown in 4 groups of 4: ``"K7QF-2MZD-PX4A-3CWE"``-style (base32 uses A-Z
and 2-7).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from lancards.p2p.protocol.errors import IdentityError, LocalProtocolError

MAX_NICK_CHARS = 24
"""The longest nickname, in characters."""

_X25519_INFO = b"lancards/v1/x25519"


def fingerprint(public_key: bytes) -> str:
    """The short fingerprint of an Ed25519 public key, for people to compare.

    Args:
        public_key: 32 bytes.

    Returns:
        19 characters: 4 groups of 4 base32 characters joined by ``-``.
    """
    text = base64.b32encode(hashlib.sha256(public_key).digest()[:10]).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def describe(public_key: bytes, nick: str | None = None) -> str:
    """How a peer is named in messages and errors: ``"alice [ABCD-EFGH-IJKL-MNOP]"``."""
    fp = fingerprint(public_key)
    return f"{nick} [{fp}]" if nick else f"[{fp}]"


def check_nickname(nick: str) -> str:
    """Validate a nickname: 1 to 24 printable characters, no leading or trailing space.

    Raises:
        LocalProtocolError: the nickname is empty, too long or holds a control character.
    """
    if not isinstance(nick, str) or not nick or nick != nick.strip():
        raise LocalProtocolError(f"nickname {nick!r} must be non-empty without outer spaces")
    if len(nick) > MAX_NICK_CHARS:
        raise LocalProtocolError(f"nickname {nick!r} is longer than {MAX_NICK_CHARS} characters")
    if not nick.isprintable():
        raise LocalProtocolError(f"nickname {nick!r} holds a control character")
    return nick


def distinct_nick(nick: str, taken: Iterable[str]) -> str:
    """``nick`` (a valid nickname), or when one of ``taken`` is the same in any case the first
    of ``"nick 2"``, ``"nick 3"``... that none is, the name cut to fit :data:`MAX_NICK_CHARS`:
    the name a lobby's host gives a joiner whose nickname another member has (three friends
    trying lancards in three windows of one machine all joined as its user, ``root``)."""
    used = {name.casefold() for name in taken}
    if nick.casefold() not in used:
        return nick
    number = 2
    while True:
        suffix = f" {number}"
        candidate = nick[: MAX_NICK_CHARS - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        number += 1


def verify_signature(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` (64 bytes) is a valid Ed25519 signature (RFC 8032) of ``message``.

    A malformed key or signature is reported as ``False``, never raised.
    """
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


# Edwards25519 (RFC 8032 section 5.1): p, d, and the point decoding of section 5.1.3.
_P = 2**255 - 19
_D = (-121665 * pow(121666, _P - 2, _P)) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _ed25519_point(encoded: bytes) -> tuple[int, int] | None:
    """Decode an Ed25519 public key to affine (x, y) as RFC 8032 section 5.1.3 does, or
    ``None`` when it is not a point (y not below p, no square root, x = 0 with sign 1)."""
    y = int.from_bytes(encoded, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _P:
        return None
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = (u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P)) % _P
    if (v * x * x - u) % _P != 0:
        x = (x * _SQRT_M1) % _P
        if (v * x * x - u) % _P != 0:
            return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = _P - x
    return x, y


def _ed25519_double(point: tuple[int, int]) -> tuple[int, int]:
    x, y = point
    t = _D * x * x * y * y % _P
    x2 = 2 * x * y * pow(1 + t, _P - 2, _P) % _P
    return x2, (y * y + x * x) * pow(1 - t, _P - 2, _P) % _P


def check_public_keys(ed25519: bytes, x25519: bytes) -> None:
    """Check that a peer's announced keys are usable: the Ed25519 key decodes to a point of
    large order (RFC 8032 section 5.1.3; a small-order key makes signatures meaningless) and the
    X25519 key gives a non-zero shared secret (RFC 7748 section 6.1: all-zero and the other
    low-order values are refused).

    Raises:
        LocalProtocolError: naming which key is unusable (the caller names the peer).
    """
    if len(ed25519) != 32 or len(x25519) != 32:
        raise LocalProtocolError("a public key is not 32 bytes")
    point = _ed25519_point(ed25519)
    if point is None:
        raise LocalProtocolError("the Ed25519 key is not a curve point")
    for _ in range(3):
        point = _ed25519_double(point)
    if point == (0, 1):
        raise LocalProtocolError("the Ed25519 key is a point of small order")
    try:
        _PROBE.exchange(X25519PublicKey.from_public_bytes(x25519))
    except ValueError:
        raise LocalProtocolError(
            "the X25519 key gives an all-zero shared secret (a low-order point)"
        ) from None


_PROBE = X25519PrivateKey.from_private_bytes(hashlib.sha256(b"lancards/v1/x25519-probe").digest())


@dataclass(frozen=True, slots=True)
class PublicIdentity:
    """What other peers know of a user.

    Attributes:
        public_key: the Ed25519 public key, 32 bytes: *the* identity.
        x25519_public: the X25519 public key for sealed payloads, 32 bytes.
        nick: the nickname (a hint for people, not unique, not proof of anything).
        bot: the bot level the member says plays its seat (``"normal"``...; ``""``: a person,
            or a seat that did not say). Like the nickname, a hint for people that proves
            nothing; not part of equality (``docs/protocol.md`` section 6).
    """

    public_key: bytes
    x25519_public: bytes
    nick: str
    bot: str = field(default="", compare=False)

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of :attr:`public_key`."""
        return fingerprint(self.public_key)

    def __str__(self) -> str:
        return describe(self.public_key, self.nick)


class Identity:
    """A user's private identity: signs messages, opens sealed payloads.

    Args:
        seed: the 32-byte Ed25519 private key seed (RFC 8032 section 5.1.5).
        nick: the nickname.

    Raises:
        IdentityError: the seed is not 32 bytes.
        LocalProtocolError: the nickname is invalid.
    """

    def __init__(self, seed: bytes, nick: str) -> None:
        if len(seed) != 32:
            raise IdentityError(f"an Ed25519 seed has 32 bytes, not {len(seed)}")
        self._seed = seed
        self.nick = check_nickname(nick)
        self._signing = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_key: bytes = self._signing.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        scalar = HKDF(hashes.SHA256(), 32, salt=None, info=_X25519_INFO).derive(seed)
        self.x25519_private = X25519PrivateKey.from_private_bytes(scalar)
        self.x25519_public: bytes = self.x25519_private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls, nick: str) -> Identity:
        """A fresh identity from the operating system's random source."""
        return cls(secrets.token_bytes(32), nick)

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        return self._signing.sign(message)

    def public(self) -> PublicIdentity:
        """The public part, to announce to other peers."""
        return PublicIdentity(self.public_key, self.x25519_public, self.nick)

    @property
    def fingerprint(self) -> str:
        """The short fingerprint of the public key."""
        return fingerprint(self.public_key)

    def __repr__(self) -> str:
        return f"Identity(nick={self.nick!r}, fingerprint={self.fingerprint!r})"

    def with_nick(self, nick: str) -> Identity:
        """The same key under another nickname.

        Raises:
            LocalProtocolError: ``nick`` is not a valid nickname.
        """
        return Identity(self._seed, nick)

    def to_json(self) -> str:
        """The identity file's contents (holds the private seed)."""
        body = {
            "ed25519_seed": self._seed.hex(),
            "format": "lancards-identity",
            "nick": self.nick,
            "v": 1,
        }
        return json.dumps(body, sort_keys=True, indent=1) + "\n"
