"""The group: secp256k1 through coincurve (libsecp256k1), with an explicit identity element.

Additive notation throughout: points ``P + Q``, scalar multiples ``k * P``; the base point is
:data:`G` and the group order :data:`ORDER` (cofactor 1, so every valid point is in the group).
coincurve cannot represent the point at infinity, so :class:`Point` models it explicitly; it
encodes as the single byte ``00`` (SEC 1 v2, section 2.3.3) and every decoder that expects a
proper point rejects it.

Encodings (SEC 1 v2, sections 2.3.3-2.3.8): a point is 33 bytes, compressed (``02``/``03`` and
the big-endian x); a scalar is 32 bytes big-endian and must be below :data:`ORDER`.

Hash-to-curve is try-and-increment on x (Boneh, Lynn, Shacham 2001, section 3.2 "MapToGroup"):
``x = SHA-256(frame(tag, domain, parts..., counter))``, the first counter whose x is on the curve
gives the point with even y. Nobody knows a discrete logarithm between two such points.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from coincurve import PublicKey

from lancards.p2p.crypto.errors import EncodingError

ORDER: Final[int] = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The order n of secp256k1 (SEC 2 v2, section 2.4.1)."""

FIELD_PRIME: Final[int] = 2**256 - 2**32 - 977
"""The field prime p of secp256k1."""

POINT_BYTES: Final[int] = 33
SCALAR_BYTES: Final[int] = 32
IDENTITY_ENCODING: Final[bytes] = b"\x00"

HASH_TO_CURVE_TAG: Final[bytes] = b"lancards/hash-to-curve/v1"
"""Domain tag of :func:`hash_to_curve`; part of every card point and generator."""

RandomBytes = Callable[[int], bytes]
"""A source of random bytes, like ``secrets.token_bytes``: ``f(k)`` returns ``k`` bytes."""


class Point:
    """An element of the secp256k1 group, the identity included.

    Immutable. ``P + Q``, ``P - Q``, ``-P``, ``k * P`` (``k`` an int, taken mod :data:`ORDER`),
    ``P == Q`` and ``hash(P)`` work as expected; :meth:`encode` gives the SEC 1 bytes.
    """

    __slots__ = ("_encoding", "_key")

    def __init__(self, key: PublicKey | None, encoding: bytes | None = None) -> None:
        """Wrap a coincurve key; ``None`` is the identity. Use :func:`decode_point` for bytes.

        ``encoding``, when the caller has it already (a decoded point), saves computing it.
        """
        self._key = key
        self._encoding = encoding

    @property
    def is_identity(self) -> bool:
        """True for the point at infinity."""
        return self._key is None

    def encode(self) -> bytes:
        """33 compressed bytes, or ``b"\\x00"`` for the identity (computed once, then kept)."""
        encoding = self._encoding
        if encoding is None:
            encoding = IDENTITY_ENCODING if self._key is None else self._key.format(compressed=True)
            self._encoding = encoding
        return encoding

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        """Pickled as its encoding (a checkpoint of this peer's own state, :mod:`pickle`):
        loading parses it again (libsecp256k1 checks it is on the curve)."""
        return (_from_encoding, (self.encode(),))

    def hex(self) -> str:
        """:meth:`encode` as lowercase hex (66 characters; ``"00"`` for the identity)."""
        return self.encode().hex()

    def __add__(self, other: Point) -> Point:
        return point_sum((self, other))

    def __neg__(self) -> Point:
        if self._key is None:
            return self
        data = self.encode()
        negated = bytes((data[0] ^ 1,)) + data[1:]
        return Point(PublicKey(negated), negated)

    def __sub__(self, other: Point) -> Point:
        return point_sum((self, -other))

    def __mul__(self, scalar: int) -> Point:
        k = scalar % ORDER
        if self._key is None or k == 0:
            return IDENTITY
        return Point(self._key.multiply(k.to_bytes(SCALAR_BYTES, "big")))

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        return self.encode() == other.encode()

    def __hash__(self) -> int:
        return hash(self.encode())

    def __repr__(self) -> str:
        return f"decode_point(bytes.fromhex({self.hex()!r}))"


IDENTITY: Final[Point] = Point(None)
"""The point at infinity (the neutral element)."""

G: Final[Point] = Point(PublicKey.from_valid_secret((1).to_bytes(SCALAR_BYTES, "big")))
"""The standard base point of secp256k1."""


def _from_encoding(data: bytes) -> Point:
    """The point of :meth:`Point.encode`'s bytes (what unpickling a point calls)."""
    if data == IDENTITY_ENCODING:
        return IDENTITY
    return Point(PublicKey(data), data)


def mul_base(scalar: int) -> Point:
    """``scalar * G``, with libsecp256k1's fixed-base multiplication (faster than ``G * k``)."""
    k = scalar % ORDER
    if k == 0:
        return IDENTITY
    return Point(PublicKey.from_valid_secret(k.to_bytes(SCALAR_BYTES, "big")))


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of ``points`` (the identity for none), in one call to libsecp256k1."""
    keys = [p._key for p in points if p._key is not None]
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return Point(keys[0])
    try:
        return Point(PublicKey.combine_keys(keys))
    except ValueError:  # the sum is the point at infinity
        return IDENTITY


def linear_combination(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """``sum(k_i * P_i)``: one multiplication per pair, then one summation.

    Raises:
        ValueError: the two sequences differ in length.
    """
    if len(scalars) != len(points):
        raise ValueError(f"{len(scalars)} scalars for {len(points)} points")
    return point_sum([p * k for k, p in zip(scalars, points, strict=True)])


def decode_point(data: bytes, *, allow_identity: bool = False) -> Point:
    """Decode and validate a SEC 1 compressed point.

    Args:
        data: 33 bytes (``02``/``03`` + x), or ``00`` for the identity.
        allow_identity: accept ``00``; off by default, since no message carries the identity.

    Raises:
        EncodingError: wrong length or prefix, x not below p or not on the curve, or the
            identity when it is not allowed.
    """
    if data == IDENTITY_ENCODING:
        if allow_identity:
            return IDENTITY
        raise EncodingError("the identity point is not allowed here")
    if len(data) != POINT_BYTES or data[0] not in (2, 3):
        raise EncodingError(
            f"a point is {POINT_BYTES} bytes starting with 02 or 03, got {len(data)} bytes "
            f"starting with {data[:1].hex() or 'nothing'}"
        )
    try:
        return Point(PublicKey(data), bytes(data))
    except ValueError:
        raise EncodingError(f"{data.hex()} is not a point of secp256k1") from None


def encode_scalar(scalar: int) -> bytes:
    """32 bytes big-endian of ``scalar mod ORDER``."""
    return (scalar % ORDER).to_bytes(SCALAR_BYTES, "big")


def decode_scalar(data: bytes) -> int:
    """Decode a scalar: exactly 32 bytes big-endian, below :data:`ORDER` (canonical).

    Raises:
        EncodingError: wrong length or not below the group order.
    """
    if len(data) != SCALAR_BYTES:
        raise EncodingError(f"a scalar is {SCALAR_BYTES} bytes, got {len(data)}")
    value = int.from_bytes(data, "big")
    if value >= ORDER:
        raise EncodingError("a scalar must be below the group order")
    return value


def frame(*parts: bytes) -> bytes:
    """Injective encoding of a sequence of byte strings: each one prefixed by its 4-byte length."""
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def hash_to_curve(domain: bytes, *parts: bytes) -> Point:
    """A point nobody knows the discrete logarithm of, by try-and-increment on x.

    ``x = SHA-256(frame(HASH_TO_CURVE_TAG, domain, *parts, counter))`` for counter 0, 1, ...
    (4 bytes big-endian); the first x below p with ``x^3 + 7`` a square gives the point
    ``(x, even y)``. About two tries on average.

    Args:
        domain: what the point is for (``b"card"``, ``b"shuffle-generator"``, ...).
        parts: the inputs (game id, index...), framed so that no two inputs collide.

    Raises:
        EncodingError: no point after 2**16 tries (probability about 2**-65536).
    """
    for counter in range(1 << 16):
        digest = hashlib.sha256(
            frame(HASH_TO_CURVE_TAG, domain, *parts, counter.to_bytes(4, "big"))
        ).digest()
        if int.from_bytes(digest, "big") >= FIELD_PRIME:
            continue
        try:
            return Point(PublicKey(b"\x02" + digest))
        except ValueError:
            continue
    raise EncodingError("hash_to_curve found no point")  # pragma: no cover


def random_scalar(random_bytes: RandomBytes) -> int:
    """A uniform nonzero scalar: 64 random bytes reduced mod ``ORDER - 1``, plus one.

    The bias of the reduction is below 2**-256.
    """
    return int.from_bytes(random_bytes(64), "big") % (ORDER - 1) + 1


def random_below(bound: int, random_bytes: RandomBytes) -> int:
    """A uniform integer in ``range(bound)`` (16 random bytes reduced; bias below 2**-100).

    Raises:
        ValueError: ``bound`` is not positive.
    """
    if bound < 1:
        raise ValueError(f"bound must be positive, got {bound}")
    return int.from_bytes(random_bytes(16), "big") % bound


def random_permutation(size: int, random_bytes: RandomBytes) -> tuple[int, ...]:
    """A uniform permutation of ``range(size)`` (Fisher-Yates, Knuth TAOCP vol. 2, 3.4.2 P)."""
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = random_below(i + 1, random_bytes)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


class SeededRandomBytes:
    """Deterministic random bytes from a seed (SHA-256 in counter mode), for tests and benches.

    Never use it for a real game: anybody who knows the seed knows every secret.

    Args:
        seed: any bytes or string; equal seeds give equal streams.
    """

    def __init__(self, seed: bytes | str) -> None:
        self._seed = seed.encode() if isinstance(seed, str) else bytes(seed)
        self._counter = 0
        self._buffer = b""

    def __call__(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hashlib.sha256(
                frame(b"lancards/seeded-random/v1", self._seed, self._counter.to_bytes(8, "big"))
            ).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out
