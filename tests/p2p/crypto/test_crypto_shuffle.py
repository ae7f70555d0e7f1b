"""GenShuffle, GenShuffleProof and CheckShuffleProof: honest proofs verify, every cheat fails."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.p2p.crypto.elgamal import Ciphertext, card_lookup, initial_deck, reencrypt
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import G, SeededRandomBytes, mul_base
from lancards.p2p.crypto.shuffle import (
    SHUFFLE_PROOF,
    ShuffleProof,
    check_shuffle_proof,
    gen_shuffle,
    gen_shuffle_proof,
)
from lancards.p2p.crypto.transcript import ProofContext

GAME = "test-game"
SECRET = 0xC0FFEE
PK = mul_base(SECRET)
CONTEXT = ProofContext(GAME, "table-1", 1, 1)


def _decrypt(ciphertexts: list[Ciphertext], n_cards: int) -> list[int]:
    lookup = card_lookup(GAME, n_cards)
    return [lookup[(e.a - e.b * SECRET).encode()] for e in ciphertexts]


def _honest(
    n_cards: int, seed: str = "s"
) -> tuple[list[Ciphertext], list[Ciphertext], ShuffleProof, tuple[int, ...]]:
    source = SeededRandomBytes(seed)
    deck = initial_deck(GAME, n_cards, PK)
    outputs, witness = gen_shuffle(deck, PK, source)
    proof = gen_shuffle_proof(CONTEXT, deck, outputs, witness, PK, source)
    return deck, outputs, proof, witness.permutation


def _rejects(
    inputs: list[Ciphertext],
    outputs: list[Ciphertext],
    proof: ShuffleProof,
    context: ProofContext = CONTEXT,
) -> ProofError:
    with pytest.raises(ProofError) as info:
        check_shuffle_proof(context, inputs, outputs, proof, PK)
    assert (info.value.proof, info.value.seat, info.value.epoch) == (
        SHUFFLE_PROOF,
        context.seat,
        context.epoch,
    )
    return info.value


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=1, max_value=9), st.text(max_size=4))
def test_honest_shuffle_verifies_and_permutes(n_cards: int, seed: str) -> None:
    deck, outputs, proof, permutation = _honest(n_cards, seed)
    check_shuffle_proof(CONTEXT, deck, outputs, proof, PK)
    assert _decrypt(outputs, n_cards) == list(permutation)
    assert all(o.b != G for o in outputs)  # every card re-encrypted


def test_outputs_swapped_after_proving() -> None:
    deck, outputs, proof, _ = _honest(6)
    outputs[0], outputs[1] = outputs[1], outputs[0]
    _rejects(deck, outputs, proof)


def test_duplicate_card_cannot_be_proven() -> None:
    """A cheater replaces card 3 by a fresh encryption of card 0 and proves the result."""
    source = SeededRandomBytes("cheat")
    deck = initial_deck(GAME, 6, PK)
    outputs, witness = gen_shuffle(deck, PK, source)
    outputs[witness.permutation.index(3)] = reencrypt(outputs[witness.permutation.index(0)], PK, 7)
    assert sorted(_decrypt(outputs, 6)) == [0, 0, 1, 2, 4, 5]
    proof = gen_shuffle_proof(CONTEXT, deck, outputs, witness, PK, source)
    _rejects(deck, outputs, proof)


def test_reencryption_under_a_wrong_key_cannot_be_proven() -> None:
    source = SeededRandomBytes("wrong-key")
    deck = initial_deck(GAME, 6, PK)
    outputs, witness = gen_shuffle(deck, PK + G, source)
    proof = gen_shuffle_proof(CONTEXT, deck, outputs, witness, PK, source)
    _rejects(deck, outputs, proof)


@pytest.mark.parametrize(
    "context",
    [
        pytest.param(dataclasses.replace(CONTEXT, epoch=2), id="other-epoch"),
        pytest.param(dataclasses.replace(CONTEXT, table_id="table-2"), id="other-table"),
        pytest.param(dataclasses.replace(CONTEXT, seat=2), id="other-seat"),
    ],
)
def test_proof_is_bound_to_epoch_table_and_seat(context: ProofContext) -> None:
    deck, outputs, proof, _ = _honest(5)
    _rejects(deck, outputs, proof, context)


T = TypeVar("T")


def _swap(values: tuple[T, ...]) -> tuple[T, ...]:
    return (values[1], values[0], *values[2:])


TAMPERINGS: dict[str, Callable[[ShuffleProof], ShuffleProof]] = {
    "truncated-commitments": lambda p: dataclasses.replace(p, commitments=p.commitments[:-1]),
    "truncated-chain": lambda p: dataclasses.replace(p, chain=p.chain[:-1]),
    "truncated-t_hat": lambda p: dataclasses.replace(p, t_hat=p.t_hat[:-1]),
    "truncated-s_hat": lambda p: dataclasses.replace(p, s_hat=p.s_hat[:-1]),
    "truncated-s_prime": lambda p: dataclasses.replace(p, s_prime=p.s_prime[:-1]),
    "reordered-commitments": lambda p: dataclasses.replace(p, commitments=_swap(p.commitments)),
    "reordered-chain": lambda p: dataclasses.replace(p, chain=_swap(p.chain)),
    "reordered-t_hat": lambda p: dataclasses.replace(p, t_hat=_swap(p.t_hat)),
    "reordered-s_hat": lambda p: dataclasses.replace(p, s_hat=_swap(p.s_hat)),
    "reordered-s_prime": lambda p: dataclasses.replace(p, s_prime=_swap(p.s_prime)),
    "t1-t2-swapped": lambda p: dataclasses.replace(p, t1=p.t2, t2=p.t1),
    "s1-s2-swapped": lambda p: dataclasses.replace(p, s1=p.s2, s2=p.s1),
    "s4-changed": lambda p: dataclasses.replace(p, s4=p.s4 + 1),
    "t42-changed": lambda p: dataclasses.replace(p, t42=p.t42 + G),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_tampered_proof_is_rejected(name: str) -> None:
    deck, outputs, proof, _ = _honest(4)
    error = _rejects(deck, outputs, TAMPERINGS[name](proof))
    if name.startswith("truncated"):
        assert "entries for 4 input cards" in str(error)


def test_truncated_outputs_and_empty_list() -> None:
    deck, outputs, proof, _ = _honest(4)
    assert "outputs has 3 entries" in str(_rejects(deck, outputs[:3], proof))
    empty = dataclasses.replace(proof, commitments=(), chain=(), t_hat=(), s_hat=(), s_prime=())
    assert "empty" in str(_rejects([], [], empty))


def test_shuffle_of_one_card() -> None:
    deck, outputs, proof, permutation = _honest(1)
    check_shuffle_proof(CONTEXT, deck, outputs, proof, PK)
    assert permutation == (0,)
