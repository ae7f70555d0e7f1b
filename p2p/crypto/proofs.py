"""Key commitments, Schnorr proofs of knowledge and Chaum-Pedersen decryption-share proofs.

Both proofs are Fiat-Shamir sigma protocols given as ``(challenge, response)``; the verifier
recomputes the first messages from them and checks the challenge (the usual compact form).

- Schnorr (Schnorr, "Efficient Signature Generation by Smart Cards", J. Cryptology 1991): proves
  knowledge of ``x`` with ``X = x*G``. Used on every key share (stops rogue-key attacks together
  with the commitment, Boneh-Shoup "A Graduate Course in Applied Cryptography" 22.4).
- Chaum-Pedersen (Chaum, Pedersen, "Wallet Databases with Observers", CRYPTO 1992, section 3.2):
  proves ``log_G X = log_b D``, i.e. that the decryption share ``D = x*b`` uses the key share
  ``X = x*G`` of its author. One proof covers a whole message of shares: it is made for the
  composites ``C = sum rho_i*b_i``, ``E = sum rho_i*D_i`` (the composite proof of RFC 9497,
  section 2.2.1, with ``rho_1 = 1``): the weights are challenges of a transcript holding every
  ``D_i``, so ``E - x*C = sum rho_i*(D_i - x*b_i)`` is the identity with probability about
  ``1/ORDER`` when any share is wrong (fixed before the weights; if only the first is wrong the
  sum is that share's error, never the identity).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

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


ShareItem = tuple[int, Point, Point]
"""One decryption share in a batch as the proofs see it: ``(slot, b, D)``, the slot id, the
``b`` of the ciphertext its epoch made (the point the share is ``x*b`` of) and the share ``D``."""


def _shares_transcript(
    context: ProofContext, key_share: Point, recipient: int, items: Sequence[ShareItem]
) -> Transcript:
    transcript = Transcript("decryption-shares", context)
    transcript.append_items((
        (b"X", key_share.encode()),
        (b"recipient", recipient.to_bytes(8, "big", signed=True)),
        (b"count", len(items).to_bytes(4, "big")),
        *((b"item", slot.to_bytes(8, "big") + b.encode() + share.encode())
          for slot, b, share in items),
    ))
    return transcript


def _composite(transcript: Transcript, count: int) -> list[int]:
    """The batch weights ``rho``: 1 for the first share, then ``count - 1`` challenges of the
    transcript (every ``b`` and ``D`` already absorbed)."""
    return [1, *transcript.challenges("weights", count - 1)] if count > 1 else [1]


def _combine(weights: Sequence[int], points: Sequence[Point]) -> Point:
    return point_sum((points[0], *(p * w for w, p in zip(weights[1:], points[1:], strict=True))))


def prove_shares(
    context: ProofContext,
    secret: int,
    bases: Sequence[tuple[int, Point]],
    recipient: int,
    random_bytes: RandomBytes,
    key_share: Point | None = None,
) -> tuple[tuple[Point, ...], SigmaProof]:
    """The decryption shares ``D_i = secret*b_i`` of ``m`` slots and one batched
    Chaum-Pedersen proof for all of them.

    The proof shows ``log_G X = log_C E`` for the composites ``C = sum rho_i*b_i`` and
    ``E = sum rho_i*D_i``, with ``rho_1 = 1`` and the other weights Fiat-Shamir challenges of a
    transcript holding ``X``, the recipient and every ``(slot, b_i, D_i)``: a wrong ``D_i``
    makes ``E != x*C`` except with probability about ``1/ORDER`` (RFC 9497, section 2.2.1).
    ``2m + 1`` variable-base and 1 fixed-base multiplications (``m`` for the shares).

    Args:
        context: table, epoch (the largest epoch of the slots) and prover seat.
        secret: the prover's key share ``x`` (or an escrow part, for rescue shares).
        bases: ``m >= 1`` pairs ``(slot, b)``, ``b`` of the slot's ciphertext as its epoch made
            it; the slots distinct.
        recipient: the seat the shares are for, :data:`PUBLIC`, or a rescue recipient value.
        random_bytes: the source of the proof's nonce.
        key_share: ``secret*G`` when the caller keeps it (saves one multiplication).

    Returns:
        The ``m`` shares in the order of ``bases`` and the proof ``(c, z)`` with ``A = w*G``,
        ``B = w*C``, ``z = w + c*x``.

    Raises:
        ValueError: no slot.
    """
    if not bases:
        raise ValueError("a batch of decryption shares needs one slot or more")
    shares = tuple(b * secret for _, b in bases)
    key = mul_base(secret) if key_share is None else key_share
    transcript = _shares_transcript(
        context, key, recipient, [(slot, b, d) for (slot, b), d in zip(bases, shares, strict=True)]
    )
    composite = _combine(_composite(transcript, len(bases)), [b for _, b in bases])
    nonce = random_scalar(random_bytes)
    transcript.append_items((
        (b"E", (composite * secret).encode()),
        (b"A", mul_base(nonce).encode()),
        (b"B", (composite * nonce).encode()),
    ))
    challenge = transcript.challenge("c")
    return shares, SigmaProof(challenge, (nonce + challenge * secret) % ORDER)


def check_shares(
    context: ProofContext,
    key_share: Point,
    items: Sequence[ShareItem],
    recipient: int,
    proof: SigmaProof,
) -> None:
    """Verify a batch of decryption shares and its proof (:func:`prove_shares`):
    ``A = z*G - c*X`` and ``B = z*C - c*E`` must give back ``c``. ``2m + 2`` variable-base and
    1 fixed-base multiplications for ``m`` shares (one proof each took ``3m`` and ``m``).

    Args:
        context: table, epoch (the largest epoch of the slots) and the prover's seat.
        key_share: the prover's key share ``X`` (or escrow commitment, for rescue shares).
        items: ``m >= 1`` triples ``(slot, b, D)`` in the message's order.
        recipient: as proven.
        proof: the batch's ``(c, z)``.

    Raises:
        ProofError: no share, or the proof does not verify (names ``context.seat`` and
            ``context.epoch``).
    """
    def fail(problem: str) -> ProofError:
        return ProofError(SHARE_PROOF, problem, seat=context.seat, epoch=context.epoch)

    if not items:
        raise fail("a batch of decryption shares is empty")
    transcript = _shares_transcript(context, key_share, recipient, items)
    weights = _composite(transcript, len(items))
    composite = _combine(weights, [b for _, b, _ in items])
    combined = _combine(weights, [d for _, _, d in items])
    minus_c = ORDER - proof.challenge
    transcript.append_items((
        (b"E", combined.encode()),
        (b"A", point_sum((mul_base(proof.response), key_share * minus_c)).encode()),
        (b"B", point_sum((composite * proof.response, combined * minus_c)).encode()),
    ))
    if transcript.challenge("c") != proof.challenge:
        slots = [slot for slot, _, _ in items]
        shown = ", ".join(map(str, slots[:8])) + (", ..." if len(slots) > 8 else "")
        raise fail(f"the shares for slots {shown} do not match the prover's key share")
