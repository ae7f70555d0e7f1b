"""Re-encryption shuffle with the Terelius-Wikström proof of shuffle.

The algorithms follow the pseudo-code of Haenni, Locher, Koenig, Dubuis, "Pseudo-Code
Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017 workshops, LNCS 10323), section 4
(Algorithms 4.1-4.6: GenShuffle, GenPermutationCommitment, GenCommitmentChain, GenShuffleProof,
CheckShuffleProof), as in the CHVote specification, written additively for an elliptic curve:
their ``g^x`` is ``x*G`` here, a product of powers is a sum of multiples, ``pk^{-s}`` is
``(-s)*PK``. Based on Terelius and Wikström, "Proofs of Restricted Shuffles", AFRICACRYPT 2010.

Conventions: the permutation ``psi`` maps output positions to inputs: output ``i`` is input
``psi[i]`` re-encrypted (``ẽ_i = ReEnc(e_{psi(i)}, r̃_{psi(i)})``), the same convention as
``engine.core.Shuffle.order``. Lists are 0-based. The challenges ``u_j`` are indexed by input,
``u'_i = u_{psi(i)}`` by output.

Cost (N cards): proving takes 6N variable-base and 4N fixed-base multiplications (the shuffle
itself included), verifying 8N variable-base and 5 fixed-base ones (the N equations of the
``t̂_i`` are checked as one random linear combination).

Offline and online phases (Wikström, "A Commitment-Consistent Proof of a Shuffle", ACISP 2009,
section 1: everything that does not depend on the input list can be computed before it
arrives): :func:`prepare_shuffle` draws the permutation and every random scalar and computes the
re-encryption pairs ``(r̃_j*PK, r̃_j*G)``, the permutation commitment, ``t_1``, ``t_2``, ``t_3``,
``-w_4*PK``, ``-w_4*G`` and the fixed-base parts ``r̂_i*G`` and ``ŵ_i*G``
(2N variable-base and 4N fixed-base multiplications); once the input list is there,
:func:`finish_shuffle` needs only 4N variable-base ones (the commitment chain, ``t_{4,1}``,
``t_{4,2}``, ``t̂_i``) and additions. The two phases draw the same random scalars in the same
order as :func:`gen_shuffle` followed by :func:`gen_shuffle_proof`, so for one random source
they give byte-identical outputs and proofs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lancards.p2p.crypto.elgamal import Ciphertext, chain_generator, reencrypt, shuffle_generators
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import (
    ORDER,
    G,
    Point,
    RandomBytes,
    linear_combination,
    mul_base,
    point_sum,
    random_permutation,
    random_scalar,
)
from lancards.p2p.crypto.transcript import ProofContext, Transcript

SHUFFLE_PROOF: Final[str] = "proof of shuffle"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A proof of shuffle (Haenni et al. 2017, Algorithm 4.4 output, plus ``c`` and ``ĉ``).

    Every tuple has one entry per card (``N``).

    Attributes:
        commitments: the permutation commitment ``c_j = r_j*G + h_i`` for ``j = psi(i)``
            (indexed by input ``j``).
        chain: the commitment chain ``ĉ_i = r̂_i*G + u'_i*ĉ_{i-1}``, ``ĉ_0 = h`` (``ĉ_1..ĉ_N``).
        t1, t2, t3, t41, t42: the first messages ``t_1, t_2, t_3, t_{4,1}, t_{4,2}``.
        t_hat: the first messages ``t̂_1..t̂_N``.
        s1, s2, s3, s4: the responses ``s_1..s_4``.
        s_hat: the responses ``ŝ_1..ŝ_N``.
        s_prime: the responses ``s'_1..s'_N``.
    """

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    t1: Point
    t2: Point
    t3: Point
    t41: Point
    t42: Point
    t_hat: tuple[Point, ...]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShuffleWitness:
    """The prover's secret: the permutation and the re-encryption randomness (per input)."""

    permutation: tuple[int, ...]
    randomness: tuple[int, ...]


def gen_shuffle(
    ciphertexts: Sequence[Ciphertext], public_key: Point, random_bytes: RandomBytes
) -> tuple[list[Ciphertext], ShuffleWitness]:
    """GenShuffle (Algorithm 4.1): permute and re-encrypt a list of ``N`` ciphertexts.

    Returns:
        The ``N`` output ciphertexts and the witness for :func:`gen_shuffle_proof`.
    """
    permutation = random_permutation(len(ciphertexts), random_bytes)
    randomness = tuple(random_scalar(random_bytes) for _ in ciphertexts)
    reencrypted = [
        reencrypt(e, public_key, r) for e, r in zip(ciphertexts, randomness, strict=True)
    ]
    return [reencrypted[j] for j in permutation], ShuffleWitness(permutation, randomness)


def _challenges_u(
    context: ProofContext,
    public_key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    commitments: Sequence[Point],
) -> tuple[Transcript, list[int]]:
    """The transcript over every public input and the challenges ``u_1..u_N``."""
    transcript = Transcript("shuffle", context)
    transcript.append_int("N", len(inputs))
    transcript.append_point("PK", public_key)
    transcript.append_points("e.a", [e.a for e in inputs])
    transcript.append_points("e.b", [e.b for e in inputs])
    transcript.append_points("e~.a", [e.a for e in outputs])
    transcript.append_points("e~.b", [e.b for e in outputs])
    transcript.append_points("c", commitments)
    return transcript, transcript.challenges("u", len(inputs))


def _challenge_c(
    transcript: Transcript,
    chain: Sequence[Point],
    t: Sequence[Point],
    t_hat: Sequence[Point],
) -> int:
    transcript.append_points("c^", chain)
    transcript.append_points("t", t)
    transcript.append_points("t^", t_hat)
    return transcript.challenge("c")


def gen_shuffle_proof(
    context: ProofContext,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    witness: ShuffleWitness,
    public_key: Point,
    random_bytes: RandomBytes,
) -> ShuffleProof:
    """GenShuffleProof (Algorithm 4.4): prove that ``outputs`` is a re-encryption shuffle.

    Args:
        context: game, table, epoch and prover seat (all hashed into every challenge).
        inputs: the ``N`` input ciphertexts.
        outputs: the ``N`` outputs of :func:`gen_shuffle`.
        witness: the permutation and randomness :func:`gen_shuffle` returned.
        public_key: the joint key.
        random_bytes: the source of every random scalar.
    """
    prepared = _prepare_proof(
        context.game_id, public_key, witness, (), random_bytes
    )
    return _prove(context, inputs, outputs, prepared)


@dataclass(frozen=True, slots=True)
class PreparedShuffle:
    """The offline phase of one shuffle of ``n`` cards under one joint key (secret: never sent).

    Every tuple has ``n`` entries. ``pairs[j]`` is ``(r̃_j*PK, r̃_j*G)``, what re-encrypting input
    ``j`` adds; the other fields are the proof's randomness and the parts computed from it
    (names as in :func:`gen_shuffle_proof`).
    """

    game_id: str
    public_key: Point
    witness: ShuffleWitness
    pairs: tuple[tuple[Point, Point], ...]
    r: tuple[int, ...]
    commitments: tuple[Point, ...]
    r_hat: tuple[int, ...]
    r_hat_g: tuple[Point, ...]
    w: tuple[int, int, int, int]
    w_hat: tuple[int, ...]
    w_hat_g: tuple[Point, ...]
    w_prime: tuple[int, ...]
    t1: Point
    t2: Point
    t3: Point
    minus_w4_pk: Point
    minus_w4_g: Point

    @property
    def size(self) -> int:
        """``n``, the number of cards this preparation shuffles."""
        return len(self.witness.permutation)


def prepare_shuffle(
    game_id: str, n: int, public_key: Point, random_bytes: RandomBytes
) -> PreparedShuffle:
    """The offline phase of a shuffle of ``n`` cards (see the module docstring).

    Args:
        game_id: the game whose generators the permutation commitment uses.
        n: the number of cards, 1 or more.
        public_key: the joint key the shuffle re-encrypts under.
        random_bytes: the source of every random scalar (drawn in :func:`gen_shuffle`'s and
            :func:`gen_shuffle_proof`'s order).

    Raises:
        ValueError: ``n`` is below 1.
    """
    if n < 1:
        raise ValueError(f"a shuffle needs 1 card or more, got {n}")
    permutation = random_permutation(n, random_bytes)
    randomness = tuple(random_scalar(random_bytes) for _ in range(n))
    pairs = tuple((public_key * rj, mul_base(rj)) for rj in randomness)
    return _prepare_proof(
        game_id, public_key, ShuffleWitness(permutation, randomness), pairs, random_bytes
    )


def _prepare_proof(
    game_id: str,
    public_key: Point,
    witness: ShuffleWitness,
    pairs: tuple[tuple[Point, Point], ...],
    random_bytes: RandomBytes,
) -> PreparedShuffle:
    """The proof's offline part for a drawn permutation and randomness (GenPermutationCommitment
    and every random scalar of GenShuffleProof, in its order)."""
    n = len(witness.permutation)
    hs = shuffle_generators(game_id, n)
    r = tuple(random_scalar(random_bytes) for _ in range(n))
    commitments: list[Point] = [G] * n
    for i, j in enumerate(witness.permutation):
        commitments[j] = mul_base(r[j]) + hs[i]
    r_hat = tuple(random_scalar(random_bytes) for _ in range(n))
    w1, w2, w3, w4 = (random_scalar(random_bytes) for _ in range(4))
    w_hat = tuple(random_scalar(random_bytes) for _ in range(n))
    w_prime = tuple(random_scalar(random_bytes) for _ in range(n))
    return PreparedShuffle(
        game_id=game_id,
        public_key=public_key,
        witness=witness,
        pairs=pairs,
        r=r,
        commitments=tuple(commitments),
        r_hat=r_hat,
        r_hat_g=tuple(mul_base(x) for x in r_hat),
        w=(w1, w2, w3, w4),
        w_hat=w_hat,
        w_hat_g=tuple(mul_base(x) for x in w_hat),
        w_prime=w_prime,
        t1=mul_base(w1),
        t2=mul_base(w2),
        t3=mul_base(w3) + linear_combination(w_prime, hs),
        minus_w4_pk=public_key * -w4,
        minus_w4_g=mul_base(-w4),
    )


def finish_shuffle(
    context: ProofContext, inputs: Sequence[Ciphertext], prepared: PreparedShuffle
) -> tuple[list[Ciphertext], ShuffleProof]:
    """The online phase: shuffle ``inputs`` and prove it with a :class:`PreparedShuffle`.

    Equal to :func:`gen_shuffle` then :func:`gen_shuffle_proof` with the same random draws.

    Args:
        context: game, table, epoch and prover seat (all hashed into every challenge).
        inputs: the ``N`` input ciphertexts.
        prepared: an unused preparation for ``N`` cards, this game and the joint key.

    Returns:
        The ``N`` output ciphertexts and the proof of shuffle.

    Raises:
        ValueError: the preparation is for another size, game or key.
    """
    n = len(inputs)
    if prepared.size != n or prepared.game_id != context.game_id:
        raise ValueError(
            f"the preparation is for {prepared.size} cards of game {prepared.game_id!r}, "
            f"not {n} of {context.game_id!r}"
        )
    reencrypted = [
        Ciphertext(e.a + pk_part, e.b + g_part)
        for e, (pk_part, g_part) in zip(inputs, prepared.pairs, strict=True)
    ]
    outputs = [reencrypted[j] for j in prepared.witness.permutation]
    return outputs, _prove(context, inputs, outputs, prepared)


def _prove(
    context: ProofContext,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    prepared: PreparedShuffle,
) -> ShuffleProof:
    """GenShuffleProof's online part (Algorithm 4.4 from the challenges ``u`` on)."""
    n = len(inputs)
    public_key = prepared.public_key
    psi = prepared.witness.permutation
    h = chain_generator(context.game_id)
    transcript, u = _challenges_u(context, public_key, inputs, outputs, prepared.commitments)
    u_prime = [u[j] for j in psi]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = point_sum((prepared.r_hat_g[i], previous * u_prime[i]))
        chain.append(previous)
    w1, w2, w3, w4 = prepared.w
    w_prime = prepared.w_prime
    t41 = point_sum((prepared.minus_w4_pk, linear_combination(w_prime, [e.a for e in outputs])))
    t42 = point_sum((prepared.minus_w4_g, linear_combination(w_prime, [e.b for e in outputs])))
    chain_before = [h, *chain[:-1]]
    t_hat = [point_sum((prepared.w_hat_g[i], chain_before[i] * w_prime[i])) for i in range(n)]
    c = _challenge_c(transcript, chain, (prepared.t1, prepared.t2, prepared.t3, t41, t42), t_hat)
    r, r_hat, w_hat = prepared.r, prepared.r_hat, prepared.w_hat
    r_bar = sum(r) % ORDER
    v = [1] * n  # v_i = prod_{k > i} u'_k
    for i in range(n - 2, -1, -1):
        v[i] = u_prime[i + 1] * v[i + 1] % ORDER
    r_chain = sum(rh * vi for rh, vi in zip(r_hat, v, strict=True)) % ORDER
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % ORDER
    r_reenc = sum(rj * uj for rj, uj in zip(prepared.witness.randomness, u, strict=True)) % ORDER
    return ShuffleProof(
        commitments=prepared.commitments,
        chain=tuple(chain),
        t1=prepared.t1,
        t2=prepared.t2,
        t3=prepared.t3,
        t41=t41,
        t42=t42,
        t_hat=tuple(t_hat),
        s1=(w1 - c * r_bar) % ORDER,
        s2=(w2 - c * r_chain) % ORDER,
        s3=(w3 - c * r_tilde) % ORDER,
        s4=(w4 - c * r_reenc) % ORDER,
        s_hat=tuple((w_hat[i] - c * r_hat[i]) % ORDER for i in range(n)),
        s_prime=tuple((w_prime[i] - c * u_prime[i]) % ORDER for i in range(n)),
    )


def check_shuffle_proof(
    context: ProofContext,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
    public_key: Point,
) -> None:
    """CheckShuffleProof (Algorithm 4.5): verify a proof of shuffle.

    Args:
        context: game, table, epoch and the prover's seat.
        inputs: the ``N`` ciphertexts the prover received.
        outputs: the ``N`` ciphertexts the prover published.
        proof: the proof; every list of length ``N``.
        public_key: the joint key.

    Raises:
        ProofError: a list of the wrong length, or the proof does not verify; names the
            prover's seat and the epoch.
    """
    n = len(inputs)

    def fail(message: str) -> ProofError:
        return ProofError(SHUFFLE_PROOF, message, seat=context.seat, epoch=context.epoch)

    lengths = {
        "outputs": len(outputs),
        "commitments": len(proof.commitments),
        "chain": len(proof.chain),
        "t_hat": len(proof.t_hat),
        "s_hat": len(proof.s_hat),
        "s_prime": len(proof.s_prime),
    }
    for name, length in lengths.items():
        if length != n:
            raise fail(f"{name} has {length} entries for {n} input cards")
    if n == 0:
        raise fail("an empty list cannot be shuffled")
    h = chain_generator(context.game_id)
    hs = shuffle_generators(context.game_id, n)
    transcript, u = _challenges_u(context, public_key, inputs, outputs, proof.commitments)
    c = _challenge_c(
        transcript, proof.chain, (proof.t1, proof.t2, proof.t3, proof.t41, proof.t42), proof.t_hat
    )
    cu = [c * uj % ORDER for uj in u]
    u_product = 1
    for uj in u:
        u_product = u_product * uj % ORDER
    # c̄ = sum c_j - sum h_i;  ĉ = ĉ_N - (prod u)*h.
    c_bar = point_sum(proof.commitments) - point_sum(hs)
    c_hat = proof.chain[-1] - h * u_product
    t1 = point_sum((c_bar * c, mul_base(proof.s1)))
    t2 = point_sum((c_hat * c, mul_base(proof.s2)))
    t3 = point_sum(
        (
            linear_combination(cu, proof.commitments),
            mul_base(proof.s3),
            linear_combination(proof.s_prime, hs),
        )
    )
    t41 = point_sum(
        (
            linear_combination(cu, [e.a for e in inputs]),
            public_key * -proof.s4,
            linear_combination(proof.s_prime, [e.a for e in outputs]),
        )
    )
    t42 = point_sum(
        (
            linear_combination(cu, [e.b for e in inputs]),
            mul_base(-proof.s4),
            linear_combination(proof.s_prime, [e.b for e in outputs]),
        )
    )
    for name, ours, theirs in (
        ("t1", t1, proof.t1),
        ("t2", t2, proof.t2),
        ("t3", t3, proof.t3),
        ("t41", t41, proof.t41),
        ("t42", t42, proof.t42),
    ):
        if ours != theirs:
            raise fail(f"{name} does not verify")
    # The N equations t̂_i = c*ĉ_i + ŝ_i*G + s'_i*ĉ_{i-1} as one random linear combination
    # (Bellare, Garay, Rabin, "Fast Batch Verification for Modular Exponentiation and Digital
    # Signatures", EUROCRYPT 1998, section 3.1, the small-exponents test with full-size
    # weights): sum rho_i*(c*ĉ_i + ŝ_i*G + s'_i*ĉ_{i-1} - t̂_i) = O. The weights hash the whole
    # proof, responses included, so a prover cannot pick responses that cancel out (soundness
    # error about 2**-256 per try). 2N variable-base and 1 fixed-base multiplications instead
    # of 2N and N; on failure the equations are checked one by one to name the first bad one.
    for scalar in (proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime):
        transcript.append_scalar("s", scalar)
    rho = transcript.challenges("batch t^", n)
    chain_weights = [
        (rho[i] * c + (rho[i + 1] * proof.s_prime[i + 1] if i + 1 < n else 0)) % ORDER
        for i in range(n)
    ]
    batch = point_sum(
        (
            mul_base(sum(r * s_hat for r, s_hat in zip(rho, proof.s_hat, strict=True))),
            linear_combination(chain_weights, proof.chain),
            h * (rho[0] * proof.s_prime[0]),
            linear_combination([ORDER - r for r in rho], proof.t_hat),
        )
    )
    if batch.is_identity:
        return
    previous = h
    for i in range(n):
        t_hat = point_sum(
            (proof.chain[i] * c, mul_base(proof.s_hat[i]), previous * proof.s_prime[i])
        )
        if t_hat != proof.t_hat[i]:
            raise fail(f"t_hat[{i}] does not verify")
        previous = proof.chain[i]
    raise fail("the t_hat equations do not verify together")  # pragma: no cover - 2**-256
