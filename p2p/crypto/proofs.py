"""Key commitments, Schnorr proofs of knowledge and Chaum-Pedersen decryption-share proofs.

Both proofs are Fiat-Shamir sigma protocols given as ``(challenge, response)``; the verifier
recomputes the first messages from them and checks the challenge (the usual compact form).

- Schnorr (Schnorr, "Efficient Signature Generation by Smart Cards", J. Cryptology 1991): proves
  knowledge of ``x`` with ``X = x*G``. Used on every key share (stops rogue-key attacks together
  with the commitment, Boneh-Shoup "A Graduate Course in Applied Cryptography" 22.4).
- Chaum-Pedersen (Chaum, Pedersen, "Wallet Databases with Observers", CRYPTO 1992, section 3.2):
  proves ``log_G X = log_b D``, i.e. that the decryption share ``D = x*b`` uses the key share
  ``X = x*G`` of its author.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from lancards.p2p.crypto.elgamal import Ciphertext
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import (
    ORDER,
    Point,
    RandomBytes,
    frame,
    mul_base,
    point_sum,
    random_scalar,
)
from lancards.p2p.crypto.transcript import DOMAIN_TAG, ProofContext, Transcript

KEY_PROOF: Final[str] = "key proof of knowledge"
SHARE_PROOF: Final[str] = "decryption share proof"

PUBLIC: Final[int] = -1
"""The recipient of a public decryption share (everybody)."""


@dataclass(frozen=True, slots=True)
class SigmaProof:
    """A Fiat-Shamir sigma proof in compact form: the challenge ``c`` and the response ``z``."""

    challenge: int
    response: int


def key_commitment(context: ProofContext, key_share: Point) -> bytes:
    """The 32-byte commitment to a key share, published before any key share is revealed.

    ``SHA-256(frame(DOMAIN_TAG, "key-commitment", game, table, seat, X))``; the key share is a
    uniformly random point, so the commitment hides it, and the seat in it stops a peer from
    copying another's commitment.
    """
    return hashlib.sha256(
        frame(
            DOMAIN_TAG,
            b"key-commitment",
            context.game_id.encode(),
            context.table_id.encode(),
            context.seat.to_bytes(8, "big", signed=True),
            key_share.encode(),
        )
    ).digest()


def _key_transcript(context: ProofContext, key_share: Point, commitment: Point) -> int:
    transcript = Transcript("key", context)
    transcript.append_point("X", key_share)
    transcript.append_point("R", commitment)
    return transcript.challenge("c")


def prove_key(context: ProofContext, secret: int, random_bytes: RandomBytes) -> SigmaProof:
    """Schnorr proof that the prover knows ``secret`` (``X = secret*G``)."""
    nonce = random_scalar(random_bytes)
    challenge = _key_transcript(context, mul_base(secret), mul_base(nonce))
    return SigmaProof(challenge, (nonce + challenge * secret) % ORDER)


def check_key(context: ProofContext, key_share: Point, proof: SigmaProof) -> None:
    """Verify a Schnorr proof of knowledge of the key share ``X``: ``R = z*G - c*X``.

    Raises:
        ProofError: the proof does not verify (names ``context.seat`` and ``context.epoch``).
    """
    commitment = point_sum((mul_base(proof.response), key_share * (ORDER - proof.challenge)))
    if _key_transcript(context, key_share, commitment) != proof.challenge:
        raise ProofError(
            KEY_PROOF, "the challenge does not match", seat=context.seat, epoch=context.epoch
        )


def _share_challenge(
    context: ProofContext,
    key_share: Point,
    ciphertext: Ciphertext,
    slot: int,
    recipient: int,
    share: Point,
    first: tuple[Point, Point],
) -> int:
    transcript = Transcript("decryption-share", context)
    transcript.append_items((
        (b"X", key_share.encode()),
        (b"a", ciphertext.a.encode()),
        (b"b", ciphertext.b.encode()),
        (b"slot", slot.to_bytes(8, "big", signed=True)),
        (b"recipient", recipient.to_bytes(8, "big", signed=True)),
        (b"D", share.encode()),
        (b"A", first[0].encode()),
        (b"B", first[1].encode()),
    ))
    return transcript.challenge("c")


def prove_share(
    context: ProofContext,
    secret: int,
    ciphertext: Ciphertext,
    slot: int,
    recipient: int,
    random_bytes: RandomBytes,
    key_share: Point | None = None,
) -> tuple[Point, SigmaProof]:
    """The decryption share ``D = secret*b`` of a ciphertext and its Chaum-Pedersen proof.

    Args:
        context: table, epoch of the ciphertext's slot, prover seat.
        secret: the prover's key share ``x``.
        ciphertext: ``(a, b)``.
        slot: the slot id the ciphertext belongs to.
        recipient: the seat the share is for, or :data:`PUBLIC`.
        random_bytes: the source of the proof's nonce.
        key_share: ``secret*G`` when the caller keeps it (saves one multiplication per share).

    Returns:
        The share ``D`` and the proof ``(c, z)`` with ``A = w*G``, ``B = w*b``, ``z = w + c*x``.
    """
    nonce = random_scalar(random_bytes)
    share = ciphertext.b * secret
    first = (mul_base(nonce), ciphertext.b * nonce)
    challenge = _share_challenge(
        context, mul_base(secret) if key_share is None else key_share, ciphertext, slot,
        recipient, share, first,
    )
    return share, SigmaProof(challenge, (nonce + challenge * secret) % ORDER)


def check_share(
    context: ProofContext,
    key_share: Point,
    ciphertext: Ciphertext,
    slot: int,
    recipient: int,
    share: Point,
    proof: SigmaProof,
) -> None:
    """Verify a decryption share: ``A = z*G - c*X`` and ``B = z*b - c*D`` give back ``c``.

    Raises:
        ProofError: the proof does not verify (names ``context.seat`` and ``context.epoch``).
    """
    minus_c = ORDER - proof.challenge
    first = (
        point_sum((mul_base(proof.response), key_share * minus_c)),
        point_sum((ciphertext.b * proof.response, share * minus_c)),
    )
    expected = _share_challenge(context, key_share, ciphertext, slot, recipient, share, first)
    if expected != proof.challenge:
        raise ProofError(
            SHARE_PROOF,
            f"the share for slot {slot} does not match the prover's key share",
            seat=context.seat,
            epoch=context.epoch,
        )
