"""ElGamal over secp256k1 with a joint key, and the public points every peer derives.

A card ``c`` (an index ``0 <= c < N`` into the game's canonical deck) is the point ``M_c`` made
by :func:`~p2p.crypto.group.hash_to_curve` from the game id (Barnett and Smart, "Mental Poker
Revisited", 2003, section 4: cards are group elements nobody knows a relation between). A
ciphertext of ``M`` under the joint key ``PK`` with randomness ``r`` is ``(M + r*PK, r*G)``. The
*open encryption* ``(M_c + PK, G)`` (randomness 1) is the initial deck's card and the input form
of a public card going back into a reshuffle: every peer computes it alone.

Decryption is joint: peer ``i`` with key share ``x_i`` gives the decryption share ``x_i * b``;
``M = a - sum of all shares``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lancards.p2p.crypto.group import G, Point, hash_to_curve, mul_base, point_sum


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """An ElGamal ciphertext ``(a, b) = (M + r*PK, r*G)``."""

    a: Point
    b: Point


def open_encryption(message: Point, public_key: Point) -> Ciphertext:
    """``(M + PK, G)``: the encryption of ``M`` with randomness 1, which anyone can compute."""
    return Ciphertext(message + public_key, G)


def reencrypt(ciphertext: Ciphertext, public_key: Point, randomness: int) -> Ciphertext:
    """``(a + r*PK, b + r*G)``: the same plaintext under fresh randomness ``r``."""
    return Ciphertext(ciphertext.a + public_key * randomness, ciphertext.b + mul_base(randomness))


def decrypt_with_shares(ciphertext: Ciphertext, shares: Iterable[Point]) -> Point:
    """``a - sum(shares)``: the plaintext point once every peer's decryption share is in."""
    return ciphertext.a - point_sum(shares)


@functools.lru_cache(maxsize=16)
def card_points(game_id: str, n_cards: int) -> tuple[Point, ...]:
    """The card points ``M_0 .. M_{N-1}`` of a game (``N = n_cards``), cached.

    ``M_c = hash_to_curve(b"card", game_id, c as 4 bytes big-endian)``.
    """
    return tuple(
        hash_to_curve(b"card", game_id.encode(), c.to_bytes(4, "big")) for c in range(n_cards)
    )


@functools.lru_cache(maxsize=16)
def card_lookup(game_id: str, n_cards: int) -> dict[bytes, int]:
    """Map from a card point's encoding to its index ``c`` (decryption's last step)."""
    return {point.encode(): c for c, point in enumerate(card_points(game_id, n_cards))}


@functools.lru_cache(maxsize=16)
def chain_generator(game_id: str) -> Point:
    """``h``: the start ``ĉ_0`` of the commitment chain in the proof of shuffle."""
    return hash_to_curve(b"shuffle-chain", game_id.encode())


_GENERATORS: dict[str, list[Point]] = {}


def shuffle_generators(game_id: str, count: int) -> Sequence[Point]:
    """``h_1 .. h_count``: the independent generators of the permutation commitment.

    ``h_i = hash_to_curve(b"shuffle-generator", game_id, i as 4 bytes)`` for ``i = 1..count``;
    a list of length ``count`` uses a prefix of a longer one's, so a reshuffle of fewer cards
    needs no new points (cached per game).
    """
    known = _GENERATORS.setdefault(game_id, [])
    while len(known) < count:
        index = len(known) + 1
        known.append(
            hash_to_curve(b"shuffle-generator", game_id.encode(), index.to_bytes(4, "big"))
        )
    return known[:count]


def initial_deck(game_id: str, n_cards: int, public_key: Point) -> list[Ciphertext]:
    """The deck before any shuffle: the open encryption of every card, in index order."""
    return [open_encryption(point, public_key) for point in card_points(game_id, n_cards)]
