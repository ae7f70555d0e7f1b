"""The offline phase of a shuffle and pipelined proof checks (issue 16).

- ``prepare_shuffle`` + ``finish_shuffle`` give byte for byte what ``gen_shuffle`` +
  ``gen_shuffle_proof`` give from the same random source.
- With ``defer_proof`` every seat shuffles on the previous output before checking it; the epoch
  completes (and shares can be made) only once every proof is checked; a bad proof found late
  still names its prover, and nobody can make a decryption share of that epoch's cards.
"""

from __future__ import annotations

import copy

import pytest

from lancards.p2p.crypto.coordinator import DeckCoordinator
from lancards.p2p.crypto.deck import EpochComplete, ShuffleVerified
from lancards.p2p.crypto.elgamal import Ciphertext, card_points, open_encryption
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import ORDER, SeededRandomBytes, mul_base
from lancards.p2p.crypto.shuffle import (
    ShuffleProof,
    check_shuffle_proof,
    finish_shuffle,
    gen_shuffle,
    gen_shuffle_proof,
    prepare_shuffle,
)
from lancards.p2p.crypto.transcript import ProofContext

from .harness import Table, wire

CONTEXT = ProofContext("level8-master", "table-9", 3, 1)
PK = mul_base(0xC0FFEE)


@pytest.mark.parametrize("n", [1, 2, 17, 108])
def test_offline_and_online_phases_equal_the_one_shot_shuffle(n: int) -> None:
    deck = [open_encryption(p, PK) for p in card_points("level8-master", 108)[:n]]
    one, two = SeededRandomBytes("same"), SeededRandomBytes("same")
    outputs, witness = gen_shuffle(deck, PK, one)
    proof = gen_shuffle_proof(CONTEXT, deck, outputs, witness, PK, one)
    prepared = prepare_shuffle("level8-master", n, PK, two)
    outputs2, proof2 = finish_shuffle(CONTEXT, deck, prepared)
    assert outputs2 == outputs
    assert proof2 == proof
    assert one(32) == two(32)  # the same number of random bytes drawn
    check_shuffle_proof(CONTEXT, deck, outputs2, proof2, PK)


def test_a_preparation_for_another_size_or_game_is_refused() -> None:
    deck = [open_encryption(p, PK) for p in card_points("level8-master", 108)[:5]]
    prepared = prepare_shuffle("level8-master", 6, PK, SeededRandomBytes("x"))
    with pytest.raises(ValueError, match="for 6 cards of game 'level8-master', not 5"):
        finish_shuffle(CONTEXT, deck, prepared)
    with pytest.raises(ValueError, match="1 card or more, got 0"):
        prepare_shuffle("level8-master", 0, PK, SeededRandomBytes("x"))


def _pipelined_epoch(table: Table, tamper_seat: int | None = None) -> None:
    """Keys, then one epoch over 8 cards where every proof is taken in unchecked."""
    table.run_keys()
    table.begin(range(8), 8, {s: s for s in range(8)})
    for peer in table.peers[1:]:
        assert peer.prepare_shuffle()  # the offline phase while seat 0 shuffles
    for seat in table.seats:
        message = table.peers[seat].make_shuffle()
        if seat == tamper_seat:
            message = copy.deepcopy(message)
            message["outputs"][0], message["outputs"][1] = (message["outputs"][1],
                                                            message["outputs"][0])
        for other in table.seats:
            if other != seat:
                table.peers[other].accept(seat, wire(message), defer_proof=True)
        table.collect()


def test_a_pipelined_epoch_completes_and_its_shares_wait_for_every_proof() -> None:
    pipelined, plain = Table(3, 8, seed="pipe"), Table(3, 8, seed="pipe")
    _pipelined_epoch(pipelined)
    plain.run_keys()
    plain.run_shuffle(range(8), 8, {s: s for s in range(8)})
    # Seat 2 shuffled last: it has the proofs of seats 0 and 1 still to check, yet the epoch
    # completed with its last shuffle on every seat (the same record position everywhere).
    assert [p.deferred_proofs for p in pipelined.peers] == [2, 2, 2]
    assert all(p.checks_due for p in pipelined.peers)
    for seat in pipelined.seats:
        assert [e.epoch for e in pipelined.events[seat] if isinstance(e, EpochComplete)] == [1]
    # The same cards in the same places as without pipelining.
    for seat in pipelined.seats:
        assert ([pipelined.peers[seat].ciphertext(s) for s in range(8, 16)]
                == [plain.peers[seat].ciphertext(s) for s in range(8, 16)])
    # Making a share checks what is due first: seat 1's shares for seat 0 check both proofs.
    for peer in pipelined.peers:
        peer.request_private([8, 9], 0)
    shares = pipelined.peers[1].make_shares(0)
    assert shares is not None and pipelined.peers[1].deferred_proofs == 0
    pipelined.peers[0].accept(1, wire(shares))
    verified = [e.seat for e in pipelined.peers[1].take_events() if isinstance(e, ShuffleVerified)]
    assert sorted(verified) == [0, 2]
    pipelined.deal({0: [8, 9], 1: [10], 2: [11]})
    plain.deal({0: [8, 9], 1: [10], 2: [11]})
    assert [pipelined.peers[0].card(s) for s in (8, 9)] == [plain.peers[0].card(s) for s in (8, 9)]
    assert all(p.deferred_proofs == 0 for p in pipelined.peers)


def test_a_bad_proof_found_late_names_its_prover_and_no_share_is_made() -> None:
    table = Table(3, 8, seed="pipe")
    _pipelined_epoch(table, tamper_seat=1)
    for seat in (0, 2):
        peer: DeckCoordinator = table.peers[seat]
        peer.request_private([8], (seat + 1) % 3)
        if seat == 2:
            assert peer.check_deferred(limit=1) == 1  # seat 0's proof is fine
        with pytest.raises(ProofError) as info:
            peer.make_shares((seat + 1) % 3)  # the check before any share finds it
        assert (info.value.seat, info.value.epoch) == (1, 1)
        # Seat 1's (failed) proof stays first in line, and the one after it unchecked; no
        # share was made.
        assert peer.deferred_proofs == (2 if seat == 0 else 1)
        assert any(d.kind == "shares" and d.seat == seat and d.slots == (8,)
                   for d in peer.debts())
        with pytest.raises(ProofError):
            peer.check_deferred()


def _proof_of_shuffle(n: int = 12) -> tuple[list[Ciphertext], list[Ciphertext], ShuffleProof]:
    deck = [open_encryption(p, PK) for p in card_points("level8-master", 108)[:n]]
    prepared = prepare_shuffle("level8-master", n, PK, SeededRandomBytes("batch"))
    outputs, proof = finish_shuffle(CONTEXT, deck, prepared)
    return deck, outputs, proof


def test_one_bad_t_hat_response_is_named_by_its_index() -> None:
    import dataclasses

    deck, outputs, proof = _proof_of_shuffle()
    s_hat = list(proof.s_hat)
    s_hat[5] = (s_hat[5] + 1) % ORDER
    bad = dataclasses.replace(proof, s_hat=tuple(s_hat))
    with pytest.raises(ProofError, match=r"t_hat\[5\] does not verify"):
        check_shuffle_proof(CONTEXT, deck, outputs, bad, PK)


def test_responses_that_cancel_under_the_honest_weights_are_caught() -> None:
    """The batch weights hash the responses: errors chosen to cancel under the weights of the
    honest proof no longer cancel, since changing the responses changes the weights."""
    import dataclasses

    from lancards.p2p.crypto.shuffle import _challenge_c, _challenges_u

    deck, outputs, proof = _proof_of_shuffle()
    p = proof
    transcript, _ = _challenges_u(CONTEXT, PK, deck, outputs, p.commitments)
    _challenge_c(transcript, p.chain, (p.t1, p.t2, p.t3, p.t41, p.t42), p.t_hat)
    for scalar in (p.s1, p.s2, p.s3, p.s4, *p.s_hat, *p.s_prime):
        transcript.append_scalar("s", scalar)
    rho = transcript.challenges("batch t^", len(deck))
    s_hat = list(p.s_hat)
    s_hat[0] = (s_hat[0] + rho[1]) % ORDER  # rho_0*rho_1 - rho_1*rho_0 = 0 on the G term
    s_hat[1] = (s_hat[1] - rho[0]) % ORDER
    bad = dataclasses.replace(p, s_hat=tuple(s_hat))
    with pytest.raises(ProofError, match=r"t_hat\[0\] does not verify"):
        check_shuffle_proof(CONTEXT, deck, outputs, bad, PK)
