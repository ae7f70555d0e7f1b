"""Schnorr proofs of knowledge, key commitments and batched Chaum-Pedersen decryption-share
proofs."""

from __future__ import annotations

import dataclasses

import pytest

from lancards.p2p.crypto.elgamal import Ciphertext, card_points, decrypt_with_shares, reencrypt
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import G, Point, SeededRandomBytes, mul_base
from lancards.p2p.crypto.proofs import (
    KEY_PROOF,
    PUBLIC,
    SHARE_PROOF,
    SigmaProof,
    check_key,
    check_shares,
    key_commitment,
    prove_key,
    prove_shares,
)
from lancards.p2p.crypto.transcript import ProofContext

CONTEXT = ProofContext("test-game", "table-1", 0, 2)
SECRET = 0x1234567890ABCDEF
OTHER_CONTEXTS = [
    pytest.param(dataclasses.replace(CONTEXT, table_id="table-2"), id="other-table"),
    pytest.param(dataclasses.replace(CONTEXT, epoch=1), id="other-epoch"),
    pytest.param(dataclasses.replace(CONTEXT, seat=3), id="other-seat"),
    pytest.param(dataclasses.replace(CONTEXT, game_id="eights"), id="other-game"),
]


def test_key_proof_verifies() -> None:
    proof = prove_key(CONTEXT, SECRET, SeededRandomBytes("k"))
    check_key(CONTEXT, mul_base(SECRET), proof)


@pytest.mark.parametrize("context", OTHER_CONTEXTS)
def test_key_proof_is_bound_to_its_context(context: ProofContext) -> None:
    proof = prove_key(CONTEXT, SECRET, SeededRandomBytes("k"))
    with pytest.raises(ProofError) as info:
        check_key(context, mul_base(SECRET), proof)
    assert (info.value.proof, info.value.seat, info.value.epoch) == (
        KEY_PROOF,
        context.seat,
        context.epoch,
    )


def test_key_proof_of_another_key_fails() -> None:
    proof = prove_key(CONTEXT, SECRET, SeededRandomBytes("k"))
    with pytest.raises(ProofError, match="key proof of knowledge by seat 2 in epoch 0"):
        check_key(CONTEXT, mul_base(SECRET + 1), proof)
    with pytest.raises(ProofError):
        check_key(CONTEXT, mul_base(SECRET), SigmaProof(proof.challenge, proof.response + 1))


def test_key_commitment_binds_seat_table_and_key() -> None:
    key = mul_base(SECRET)
    base = key_commitment(CONTEXT, key)
    assert len(base) == 32
    assert key_commitment(CONTEXT, key) == base
    assert key_commitment(dataclasses.replace(CONTEXT, seat=1), key) != base
    assert key_commitment(dataclasses.replace(CONTEXT, table_id="t"), key) != base
    assert key_commitment(CONTEXT, key + G) != base


def _ciphertext(card: int = 2, r: int = 99) -> Ciphertext:
    message = card_points("test-game", 3)[card]
    return reencrypt(Ciphertext(message + mul_base(SECRET), G), mul_base(SECRET), r)


BATCH = [(17, _ciphertext(2, 99)), (4, _ciphertext(0, 5)), (30, _ciphertext(1, 7))]
"""Three slots (ids out of order on purpose) and their ciphertexts."""


def _prove(bases: list[tuple[int, Ciphertext]] = BATCH, recipient: int = 1) -> tuple[
        list[tuple[int, Point, Point]], SigmaProof]:
    shares, proof = prove_shares(CONTEXT, SECRET, [(slot, ct.b) for slot, ct in bases],
                                 recipient, SeededRandomBytes("s"))
    return [(slot, ct.b, d) for (slot, ct), d in zip(bases, shares, strict=True)], proof


def test_decryption_share_batch_verifies_and_decrypts() -> None:
    items, proof = _prove()
    assert [d for _, _, d in items] == [ct.b * SECRET for _, ct in BATCH]
    check_shares(CONTEXT, mul_base(SECRET), items, 1, proof)
    cards = card_points("test-game", 3)
    assert [decrypt_with_shares(ct, [d]) for (_, ct), (_, _, d) in zip(BATCH, items, strict=True)
            ] == [cards[2], cards[0], cards[1]]
    single, single_proof = _prove(BATCH[:1])
    check_shares(CONTEXT, mul_base(SECRET), single, 1, single_proof)


def _wrong(items: list[tuple[int, Point, Point]], index: int) -> list[tuple[int, Point, Point]]:
    slot, b, _ = items[index]
    return [*items[:index], (slot, b, b * (SECRET + 1)), *items[index + 1:]]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"slot": 18}, id="other-slot"),
        pytest.param({"recipient": PUBLIC}, id="other-recipient"),
        pytest.param({"wrong": 0}, id="first-share-of-another-secret"),
        pytest.param({"wrong": 2}, id="last-share-of-another-secret"),
        pytest.param({"swap": True}, id="two-shares-swapped"),
        pytest.param({"drop": True}, id="a-share-left-out"),
        pytest.param({"key": "other"}, id="other-key-share"),
        pytest.param({"ciphertext": "other"}, id="other-ciphertext"),
        pytest.param({"response": 1}, id="tampered-response"),
    ],
)
def test_decryption_share_batch_rejects(change: dict[str, object]) -> None:
    items, proof = _prove()
    recipient, key = 1, mul_base(SECRET)
    if "slot" in change:
        items = [(18, *items[0][1:]), *items[1:]]
    recipient = int(change.get("recipient", recipient))  # type: ignore[call-overload]
    if "wrong" in change:
        items = _wrong(items, int(change["wrong"]))  # type: ignore[call-overload]
    if "swap" in change:
        items = [(items[0][0], items[0][1], items[1][2]), (items[1][0], items[1][1], items[0][2]),
                 items[2]]
    if "drop" in change:
        items = items[:2]
    if "key" in change:
        key = key + G
    if "ciphertext" in change:
        other = reencrypt(BATCH[0][1], mul_base(SECRET), 5)
        items = [(items[0][0], other.b, other.b * SECRET), *items[1:]]
    if "response" in change:
        proof = SigmaProof(proof.challenge, proof.response + 1)
    with pytest.raises(ProofError) as info:
        check_shares(CONTEXT, key, items, recipient, proof)
    assert (info.value.proof, info.value.seat, info.value.epoch) == (SHARE_PROOF, 2, 0)
    assert "do not match the prover's key share" in str(info.value)


def test_an_empty_batch_is_refused() -> None:
    with pytest.raises(ValueError, match="one slot or more"):
        prove_shares(CONTEXT, SECRET, [], 1, SeededRandomBytes("s"))
    with pytest.raises(ProofError, match="empty"):
        check_shares(CONTEXT, mul_base(SECRET), [], 1, SigmaProof(1, 1))


@pytest.mark.parametrize("context", OTHER_CONTEXTS)
def test_decryption_share_batch_is_bound_to_its_context(context: ProofContext) -> None:
    items, proof = _prove()
    with pytest.raises(ProofError):
        check_shares(context, mul_base(SECRET), items, 1, proof)
