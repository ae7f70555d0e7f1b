"""Schnorr proofs of knowledge, key commitments and Chaum-Pedersen decryption-share proofs."""

from __future__ import annotations

import dataclasses

import pytest

from lancards.p2p.crypto.elgamal import Ciphertext, card_points, decrypt_with_shares, reencrypt
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import G, SeededRandomBytes, mul_base
from lancards.p2p.crypto.proofs import (
    KEY_PROOF,
    PUBLIC,
    SHARE_PROOF,
    SigmaProof,
    check_key,
    check_share,
    key_commitment,
    prove_key,
    prove_share,
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


def _ciphertext() -> Ciphertext:
    message = card_points("test-game", 3)[2]
    return reencrypt(Ciphertext(message + mul_base(SECRET), G), mul_base(SECRET), 99)


def test_decryption_share_proof_verifies_and_decrypts() -> None:
    ciphertext = _ciphertext()
    share, proof = prove_share(CONTEXT, SECRET, ciphertext, 17, 1, SeededRandomBytes("s"))
    assert share == ciphertext.b * SECRET
    check_share(CONTEXT, mul_base(SECRET), ciphertext, 17, 1, share, proof)
    assert decrypt_with_shares(ciphertext, [share]) == card_points("test-game", 3)[2]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"slot": 18}, id="other-slot"),
        pytest.param({"recipient": PUBLIC}, id="other-recipient"),
        pytest.param({"share": "wrong-secret"}, id="share-of-another-secret"),
        pytest.param({"key": "other"}, id="other-key-share"),
        pytest.param({"ciphertext": "other"}, id="other-ciphertext"),
        pytest.param({"response": 1}, id="tampered-response"),
    ],
)
def test_decryption_share_proof_rejects(change: dict[str, object]) -> None:
    ciphertext = _ciphertext()
    share, proof = prove_share(CONTEXT, SECRET, ciphertext, 17, 1, SeededRandomBytes("s"))
    slot, recipient, key = 17, 1, mul_base(SECRET)
    slot = int(change.get("slot", slot))  # type: ignore[call-overload]
    recipient = int(change.get("recipient", recipient))  # type: ignore[call-overload]
    if "share" in change:
        share = ciphertext.b * (SECRET + 1)
    if "key" in change:
        key = key + G
    if "ciphertext" in change:
        ciphertext = reencrypt(ciphertext, mul_base(SECRET), 5)
    if "response" in change:
        proof = SigmaProof(proof.challenge, proof.response + 1)
    with pytest.raises(ProofError) as info:
        check_share(CONTEXT, key, ciphertext, slot, recipient, share, proof)
    assert (info.value.proof, info.value.seat, info.value.epoch) == (SHARE_PROOF, 2, 0)


@pytest.mark.parametrize("context", OTHER_CONTEXTS)
def test_decryption_share_proof_is_bound_to_its_context(context: ProofContext) -> None:
    ciphertext = _ciphertext()
    share, proof = prove_share(CONTEXT, SECRET, ciphertext, 17, 1, SeededRandomBytes("s"))
    with pytest.raises(ProofError):
        check_share(context, mul_base(SECRET), ciphertext, 17, 1, share, proof)
