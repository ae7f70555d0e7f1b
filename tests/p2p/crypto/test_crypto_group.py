"""The group layer: encodings, the explicit identity, hash-to-curve, randomness helpers."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.p2p.crypto.elgamal import card_points, chain_generator, shuffle_generators
from lancards.p2p.crypto.errors import DeckError, EncodingError
from lancards.p2p.crypto.group import (
    FIELD_PRIME,
    HASH_TO_CURVE_TAG,
    IDENTITY,
    ORDER,
    G,
    SeededRandomBytes,
    decode_point,
    decode_scalar,
    encode_scalar,
    frame,
    hash_to_curve,
    linear_combination,
    mul_base,
    point_sum,
    random_permutation,
    random_scalar,
)

# SEC 2 v2, section 2.4.1: the base point of secp256k1, compressed.
G_HEX = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

scalars = st.integers(min_value=0, max_value=ORDER - 1)


def test_base_point_and_orders_are_secp256k1() -> None:
    assert G.hex() == G_HEX
    assert FIELD_PRIME == 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
    assert (G * (ORDER - 1)) + G == IDENTITY
    assert mul_base(ORDER) == IDENTITY


def test_identity_is_explicit_and_neutral() -> None:
    p = mul_base(5)
    assert IDENTITY.is_identity and not p.is_identity
    assert IDENTITY.encode() == b"\x00"
    assert p + IDENTITY == p and IDENTITY + p == p
    assert p - p == IDENTITY
    assert -IDENTITY == IDENTITY
    assert IDENTITY * 7 == IDENTITY and p * 0 == IDENTITY
    assert point_sum([]) == IDENTITY
    assert point_sum([p, -p, p]) == p


def test_decode_rejects_identity_unless_allowed() -> None:
    with pytest.raises(EncodingError, match="identity"):
        decode_point(b"\x00")
    assert decode_point(b"\x00", allow_identity=True) == IDENTITY


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "33 bytes"),
        (bytes.fromhex(G_HEX)[:32], "33 bytes"),
        (b"\x04" + bytes.fromhex(G_HEX)[1:], "starting with 02 or 03"),
        (b"\x02" + (5).to_bytes(32, "big"), "not a point"),  # x = 5: x^3 + 7 is no square
        (b"\x02" + b"\xff" * 32, "not a point"),  # x >= p
    ],
)
def test_decode_rejects_invalid_points(data: bytes, problem: str) -> None:
    with pytest.raises(EncodingError, match=problem) as info:
        decode_point(data)
    assert isinstance(info.value, DeckError) and info.value.seat is None


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"\x01" * 31, "32 bytes"),
        (ORDER.to_bytes(32, "big"), "below the group order"),
        (b"\xff" * 32, "below the group order"),
    ],
)
def test_decode_scalar_rejects_non_canonical(data: bytes, problem: str) -> None:
    with pytest.raises(EncodingError, match=problem):
        decode_scalar(data)


@settings(max_examples=40, deadline=None)
@given(scalars, scalars)
def test_arithmetic_is_a_group_homomorphism(k1: int, k2: int) -> None:
    assert mul_base(k1) + mul_base(k2) == mul_base(k1 + k2)
    assert G * k1 == mul_base(k1)
    assert -mul_base(k1) == mul_base(-k1)
    assert decode_scalar(encode_scalar(k1)) == k1
    point = mul_base(k1)
    assert decode_point(point.encode(), allow_identity=True) == point


def test_linear_combination() -> None:
    points = [mul_base(3), mul_base(5), mul_base(7)]
    assert linear_combination([2, 0, ORDER - 1], points) == mul_base(6 - 7)
    with pytest.raises(ValueError, match="2 scalars for 3 points"):
        linear_combination([1, 2], points)


def _is_square(value: int) -> bool:
    return pow(value, (FIELD_PRIME - 1) // 2, FIELD_PRIME) in (0, 1)


def test_hash_to_curve_is_try_and_increment_with_even_y() -> None:
    """Recompute the card point M_0 of level8-master by the documented recipe, in pure Python."""
    parts = (b"card", b"level8-master", (0).to_bytes(4, "big"))
    for counter in range(100):
        digest = hashlib.sha256(
            frame(HASH_TO_CURVE_TAG, *parts, counter.to_bytes(4, "big"))
        ).digest()
        x = int.from_bytes(digest, "big")
        if x < FIELD_PRIME and _is_square((x**3 + 7) % FIELD_PRIME):
            break
    assert hash_to_curve(*parts).encode() == b"\x02" + x.to_bytes(32, "big")
    assert card_points("level8-master", 1)[0] == hash_to_curve(*parts)


def test_fixed_points_of_level8_master() -> None:
    """Fixed vectors (docs/mental-poker.md): a change to the hashing cannot pass unnoticed."""
    assert card_points("level8-master", 2)[0].hex() == (
        "026d3ca1a661fc979c08161f84e77e8f78d4233197378198907588c9b589c8c0d1"
    )
    assert chain_generator("level8-master").hex() == (
        "0226ae4167354aef9728c282fd1d9d11de97923f2fafcf78e597d350b9a0a4d8c1"
    )
    assert shuffle_generators("level8-master", 1)[0].hex() == (
        "02b352a474b0bcdb18d6db50b633531d8cc8a9a897a6c6915ded8f2d286aa5b4d6"
    )


def test_points_are_domain_separated_and_distinct() -> None:
    cards = card_points("level8-master", 108)
    gens = shuffle_generators("level8-master", 108)
    everything = [*cards, *gens, chain_generator("level8-master"), G]
    assert len({p.encode() for p in everything}) == 108 + 108 + 2
    assert card_points("eights", 1)[0] != cards[0]
    assert hash_to_curve(b"card", b"ab", b"c") != hash_to_curve(b"card", b"a", b"bc")
    assert list(shuffle_generators("level8-master", 3)) == list(gens[:3])


def test_seeded_random_bytes_are_fixed_and_split_freely() -> None:
    whole = SeededRandomBytes("abc")(40)
    assert whole.hex() == (
        "ee16925b04ef1c77f21ac49cd28c06194c0b2aab873ce39cfa2d2d5019321bbcfee55a08d8e41c24"
    )
    pieces = SeededRandomBytes("abc")
    assert pieces(7) + pieces(33) == whole
    assert SeededRandomBytes(b"abd")(40) != whole


def test_random_permutation_and_scalars() -> None:
    source = SeededRandomBytes("perm")
    for size in (0, 1, 2, 108):
        order = random_permutation(size, source)
        assert sorted(order) == list(range(size))
    assert random_permutation(10, SeededRandomBytes("x")) == random_permutation(
        10, SeededRandomBytes("x")
    )
    assert all(0 < random_scalar(source) < ORDER for _ in range(50))
    assert random_scalar(lambda k: b"\x00" * k) == 1
