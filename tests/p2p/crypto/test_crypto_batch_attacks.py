"""Attacks on the batched decryption-share proofs and on openings that forward whole batches
(issue 16; docs/mental-poker.md, "Reveals", "Opening a card the holder knows", "Leaving for
good"). Each cheat is caught, the cheater named; the honest message is accepted afterwards."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from lancards.p2p.crypto.coordinator import OPENING
from lancards.p2p.crypto.elgamal import Ciphertext, card_points, reencrypt
from lancards.p2p.crypto.errors import (
    DeckUsageError,
    InvalidMessageError,
    ProofError,
    ProtocolViolationError,
)
from lancards.p2p.crypto.escrow import rescue_recipient
from lancards.p2p.crypto.group import (
    ORDER,
    G,
    Point,
    SeededRandomBytes,
    decode_point,
    mul_base,
    point_sum,
)
from lancards.p2p.crypto.messages import SharesMessage, encode_message
from lancards.p2p.crypto.proofs import (
    PUBLIC,
    SHARE_PROOF,
    _composite,
    _shares_transcript,
    check_shares,
    prove_shares,
)
from lancards.p2p.crypto.transcript import ProofContext

from .harness import GAME, Table, wire

Message = dict[str, Any]

CONTEXT = ProofContext(GAME, "table-1", 3, 2)
SECRET = 0xC0FFEE1234
KEY = mul_base(SECRET)


def _bases() -> list[tuple[int, Point]]:
    points = card_points(GAME, 4)
    return [
        (slot, reencrypt(Ciphertext(points[card], G), KEY, 11 + slot).b)
        for slot, card in ((21, 0), (22, 3), (23, 1))
    ]


# ---------------------------------------------------------------------------------------------
# The batched proof itself.


def test_two_errors_that_cancel_under_the_honest_weights_are_caught() -> None:
    """The cheat the composite invites: shift D_1 by Delta and D_2 by -Delta/rho_2 so that the
    composite E is unchanged and the honest (c, z) still fits it. The weights are challenges
    of a transcript holding every D, so changing D_2 changes rho_2: the proof fails."""
    bases = _bases()
    shares, proof = prove_shares(CONTEXT, SECRET, bases, 1, SeededRandomBytes("w"))
    items = [(slot, b, d) for (slot, b), d in zip(bases, shares, strict=True)]
    weights = _composite(_shares_transcript(CONTEXT, KEY, 1, items), len(items))
    delta = mul_base(777)
    forged = [
        (items[0][0], items[0][1], items[0][2] + delta),
        (items[1][0], items[1][1], items[1][2] - delta * pow(weights[1], -1, ORDER)),
        items[2],
    ]
    combined = point_sum(d * w for w, (_, _, d) in zip(weights, forged, strict=True))
    assert combined == point_sum(d * w for w, (_, _, d) in zip(weights, items, strict=True))
    with pytest.raises(ProofError) as info:
        check_shares(CONTEXT, KEY, forged, 1, proof)
    assert (info.value.proof, info.value.seat, info.value.epoch) == (SHARE_PROOF, 2, 3)
    check_shares(CONTEXT, KEY, items, 1, proof)


def _weights(context: ProofContext, key: Point, recipient: int,
             items: list[tuple[int, Point, Point]]) -> list[int]:
    return _composite(_shares_transcript(context, key, recipient, items), len(items))


def test_the_weights_depend_on_every_input() -> None:
    """Every public input is absorbed before the weights are drawn: the key share, the
    recipient, each slot id, each b, each D, their order and count, and the context."""
    bases = _bases()
    shares, _ = prove_shares(CONTEXT, SECRET, bases, 1, SeededRandomBytes("w"))
    items = [(slot, b, d) for (slot, b), d in zip(bases, shares, strict=True)]
    honest = _weights(CONTEXT, KEY, 1, items)
    assert honest[0] == 1 and len(set(honest)) == 3
    variants = {
        "key": _weights(CONTEXT, KEY + G, 1, items),
        "recipient": _weights(CONTEXT, KEY, PUBLIC, items),
        "rescue-recipient": _weights(CONTEXT, KEY, rescue_recipient(1), items),
        "slot": _weights(CONTEXT, KEY, 1, [(24, *items[0][1:]), *items[1:]]),
        "b": _weights(CONTEXT, KEY, 1, [*items[:2], (items[2][0], G, items[2][2])]),
        "last-D": _weights(CONTEXT, KEY, 1, [*items[:2], (*items[2][:2], G)]),
        "order": _weights(CONTEXT, KEY, 1, [items[0], items[2], items[1]]),
        "epoch": _weights(dataclasses.replace(CONTEXT, epoch=4), KEY, 1, items),
        "seat": _weights(dataclasses.replace(CONTEXT, seat=1), KEY, 1, items),
        "table": _weights(dataclasses.replace(CONTEXT, table_id="t2"), KEY, 1, items),
    }
    for name, weights in variants.items():
        assert weights[1:] != honest[1:], name
    longer = _weights(CONTEXT, KEY, 1, [*items, (25, G, G)])
    assert longer[1:3] != honest[1:3]


def test_a_proof_of_all_zeros_or_of_the_trivial_composite_fails() -> None:
    """(c, z) = (0, 0) or (0, 1) and shares all the identity-free ``x'*b`` of a wrong secret:
    refused, naming the prover."""
    bases = _bases()
    shares, proof = prove_shares(CONTEXT, SECRET, bases, 1, SeededRandomBytes("w"))
    items = [(slot, b, d) for (slot, b), d in zip(bases, shares, strict=True)]
    for c, z in ((0, 0), (0, 1), (proof.challenge, 0), (0, proof.response)):
        with pytest.raises(ProofError) as info:
            check_shares(CONTEXT, KEY, items, 1, dataclasses.replace(proof, challenge=c,
                                                                        response=z))
        assert info.value.seat == 2
    other, other_proof = prove_shares(CONTEXT, SECRET + 1, bases, 1, SeededRandomBytes("w"))
    with pytest.raises(ProofError):
        check_shares(CONTEXT, KEY, [(s, b, d) for (s, b), d in zip(bases, other, strict=True)],
                     1, other_proof)


# ---------------------------------------------------------------------------------------------
# Openings that forward whole batches.


def _batches_by_seat(message: Message) -> dict[int, Message]:
    return {b["seat"]: b for b in message["batches"]}


def dealt_table(seed: str = "attack") -> Table:
    """Three seats, 12 cards in slots 12..23; slots 12, 13 and 14 dealt to seat 1 in one batch
    per seat, slot 15 to seat 2."""
    table = Table(3, 12, seed=seed)
    table.run_initial()
    table.deal({1: [12, 13, 14], 2: [15]})
    return table


def test_a_cached_batch_is_checked_again_for_another_opener() -> None:
    """Seat 1 opens slot 12: every peer now remembers seat 0's batch for seat 1 as checked.
    Seat 2, helped by seat 1, then opens slot 13 forwarding that same batch (same shares, same
    proof) as if made for it: the cache is keyed by recipient too, the proof binds seat 1, so
    it fails, naming seat 2."""
    table = dealt_table()
    first = table.peers[1].make_open(12)
    table.deliver(1, first)
    from_0 = _batches_by_seat(first)[0]
    assert [s["slot"] for s in from_0["shares"]] == [12, 13, 14]
    helper = encode_message(table.peers[1]._table._prove([13], 2))
    own = encode_message(table.peers[2]._table._prove([13], 2))
    forged = {"type": "open", "seat": 2, "slot": 13, "card": table.peers[1].card(13),
              "batches": [from_0, *({k: v for k, v in m.items() if k in ("seat", "shares", "proof")}
                                    for m in (helper, own))]}
    for seat in (0, 1):
        with pytest.raises(ProofError) as info:
            table.peers[seat].accept(2, wire(forged))
        assert (info.value.seat, info.value.proof) == (2, OPENING)
        assert not table.peers[seat].is_public(13)


def test_a_cached_batch_is_checked_again_for_another_author_or_key() -> None:
    """The cache key holds the author, recipient, key, proof and every (slot, share): the same
    shares and proof under another author, recipient or key are checked (and fail)."""
    table = dealt_table()
    table.deliver(1, table.peers[1].make_open(12))
    slots = table.peers[2]._table
    first = table.peers[1]._table.reveals[(13, 1)].batches[0]
    slots.check_batch(first, 1)  # cached since the opening: no error
    for variant, key, recipient in (
        (dataclasses.replace(first, seat=2), None, None),
        (dataclasses.replace(first, recipient=0), None, None),
        (first, mul_base(5), None),
        (first, None, rescue_recipient(0)),
    ):
        with pytest.raises(ProofError) as info:
            slots.check_batch(variant, 1, key, recipient)
        assert info.value.seat == variant.seat


def test_a_resent_batch_with_one_share_changed_is_checked_whole() -> None:
    """Seat 0's deal batch reached seat 1; seat 0 resends it with slot 14's share forged (the
    other two are repeats, ignored on their own): the whole batch is checked, the proof fails
    naming seat 0, and seat 1 keeps its card."""
    table = Table(3, 12, seed="resend")
    table.run_initial()
    for peer in table.peers:
        peer.request_private([12, 13, 14], 1)
    honest = table.peers[0].make_shares(1)
    assert honest is not None
    table.deliver(0, honest, [1])
    table.deliver(2, table.peers[2].make_shares(1), [1])
    card = table.peers[1].card(14)
    assert card is not None
    bad = copy.deepcopy(honest)
    bad["shares"][2]["share"] = mul_base(9).hex()
    with pytest.raises(ProofError) as info:
        table.peers[1].accept(0, wire(bad))
    assert (info.value.seat, info.value.proof) == (0, SHARE_PROOF)
    table.peers[1].accept(0, wire(honest))  # an identical repeat changes nothing
    assert table.peers[1].card(14) == card


def test_an_opening_with_a_slot_twice_in_a_batch_is_malformed() -> None:
    table = dealt_table()
    bad = copy.deepcopy(table.peers[1].make_open(12))
    bad["batches"][1]["shares"].append(dict(bad["batches"][1]["shares"][0]))
    for seat in (0, 2):
        with pytest.raises(InvalidMessageError, match="a slot appears twice") as info:
            table.peers[seat].accept(1, wire(bad))
        assert info.value.seat == 1


def test_an_opening_with_a_seats_batch_twice_is_refused() -> None:
    table = dealt_table()
    message = table.peers[1].make_open(12)
    bad = copy.deepcopy(message)
    bad["batches"].append(copy.deepcopy(_batches_by_seat(message)[0]))
    for seat in (0, 2):
        with pytest.raises(ProtocolViolationError,
                           match=r"with the shares of seats \[0, 0, 1, 2\]") as info:
            table.peers[seat].accept(1, wire(bad))
        assert info.value.seat == 1
    table.deliver(1, message)
    assert table.peers[0].card(12) == table.peers[2].card(12) == table.peers[1].card(12)


def test_an_opening_that_puts_the_slot_under_another_id_is_refused() -> None:
    """Seat 1 relabels slot 13's share as slot 12 in seat 0's batch (the proof binds slot ids)
    or swaps two shares inside it: refused as an opening naming seat 1."""
    table = dealt_table()
    message = table.peers[1].make_open(12)
    for edit in ("relabel", "swap"):
        bad = copy.deepcopy(message)
        shares = _batches_by_seat(bad)[0]["shares"]
        if edit == "relabel":
            shares[0]["slot"], shares[1]["slot"] = 13, 12
            shares.sort(key=lambda s: s["slot"])
        else:
            shares[0]["share"], shares[1]["share"] = shares[1]["share"], shares[0]["share"]
        for seat in (0, 2):
            with pytest.raises(ProofError) as info:
                table.peers[seat].accept(1, wire(bad))
            assert (info.value.seat, info.value.proof) == (1, OPENING)


def test_an_opening_after_the_other_slots_of_the_batch_were_reshuffled_verifies() -> None:
    """Slots 13 and 14 of seat 1's batches are reshuffled (dropped); seat 1 then opens slot 12
    forwarding the whole batches: peers that never saw them check them against the kept b."""
    table = dealt_table()
    card = table.peers[1].card(12)
    table.run_shuffle([13, 14, 16, 17], 100)
    assert table.peers[0].ciphertext(13) is None
    message = table.peers[1].make_open(12)
    assert [s["slot"] for s in _batches_by_seat(message)[2]["shares"]] == [12, 13, 14]
    table.deliver(1, message)
    assert table.peers[0].card(12) == table.peers[2].card(12) == card


def test_new_slot_ids_never_reuse_an_input_or_a_dropped_slot() -> None:
    """A shuffle whose outputs took the ids of its inputs (or of slots dropped earlier) would
    rebind those ids to new ciphertexts: a batch forwarded afterwards, proven on the old b,
    would fail at every peer that has not cached it, blaming an honest opener (it did before
    the fix). Slot ids are never reused."""
    table = dealt_table()
    with pytest.raises(DeckUsageError, match=r"new slot ids \[13, 14\] are not free"):
        table.peers[0].begin_shuffle([13, 14], 13)  # the inputs' own ids
    table.run_shuffle([13, 14], 100)
    with pytest.raises(DeckUsageError, match=r"new slot ids \[13\] are not free"):
        table.peers[0].begin_shuffle([100], 13)  # 13 was dropped by the last shuffle
    table.run_shuffle([100, 101], 102)
    table.deliver(1, table.peers[1].make_open(12))
    assert table.peers[0].card(12) == table.peers[2].card(12) == table.peers[1].card(12)


def _log_batch(table: Table, sender: int, recipient: int) -> Message:
    for author, targets, value in table.log:
        if author == sender and targets == (recipient,) and value["type"] == "shares":
            return {k: value[k] for k in ("seat", "shares", "proof")}
    raise AssertionError("no such batch")


def test_an_opening_forwarding_the_leavers_batch_is_refused() -> None:
    """Seat 0 leaves; seat 1 opens slot 12 still forwarding seat 0's batch: refused, naming
    seat 1; the honest opening (seats 1 and 2 only) is accepted."""
    table = dealt_table()
    leave = table.peers[0].make_leave([])
    table.peers[1].accept_leave(0, wire(leave), [])
    table.peers[2].accept_leave(0, wire(leave), [])
    message = table.peers[1].make_open(12)
    assert sorted(_batches_by_seat(message)) == [1, 2]
    bad = copy.deepcopy(message)
    bad["batches"].insert(0, _log_batch(table, 0, 1))
    with pytest.raises(ProtocolViolationError, match=r"seats \[0, 1, 2\]") as info:
        table.peers[2].accept(1, wire(bad))
    assert info.value.seat == 1
    table.peers[2].accept(1, wire(message))
    assert table.peers[2].card(12) == table.peers[1].card(12)


# ---------------------------------------------------------------------------------------------
# Leave and rescue.


def test_the_empty_leave_is_exact() -> None:
    """With nothing hidden, only the exact proof-less empty message is a leave; with a proof
    key added it is malformed; with hidden slots an empty leave misses them; a leave with
    shares but without its proof is malformed. Each names the leaver."""
    table = Table(3, 6, seed="empty")
    table.run_keys()
    empty = table.peers[2].make_leave([])
    assert empty == {"type": "shares", "seat": 2, "recipient": None, "shares": []}
    with pytest.raises(InvalidMessageError) as bad:
        table.peers[0].accept_leave(2, dict(empty, proof={"c": "11" * 32, "z": "22" * 32}), [])
    assert bad.value.seat == 2
    table.peers[0].accept_leave(2, wire(empty), [])
    assert table.peers[0].present == (0, 1)

    dealt = dealt_table()
    with pytest.raises(ProtocolViolationError, match="wrong slots") as wrong:
        dealt.peers[0].accept_leave(2, wire(empty), [15])
    assert wrong.value.seat == 2
    leave = copy.deepcopy(dealt.peers[2].make_leave([15]))
    del leave["proof"]
    with pytest.raises(InvalidMessageError) as missing:
        dealt.peers[0].accept_leave(2, wire(leave), [15])
    assert missing.value.seat == 2
    assert dealt.peers[0].present == (0, 1, 2)


def escrowed_table() -> Table:
    table = Table(4, 12, seed="rescue")
    table.run_initial()
    table.deal({0: [12], 1: [13, 14], 2: [15, 16], 3: [17]})
    for dealer in table.seats:
        commitments, parts = table.peers[dealer].make_escrow()
        for holder in table.seats:
            if holder != dealer:
                table.peers[holder].accept_escrow(dealer, commitments)
                table.peers[holder].accept_escrow_part(dealer, parts[holder])
    return table


def test_rescue_shares_proven_against_the_wrong_commitment_or_vanished_seat() -> None:
    """Seat 1's rescue shares for vanished seat 2: made with its part but proven against seat
    3's commitment, made with its own key share (its public shares), or made for the removal
    of seat 0 and replayed for seat 2: each fails its proof naming seat 1."""
    table = escrowed_table()
    hand = [15, 16]
    peer = table.peers[1]
    commitments = peer._escrow[2]
    part = peer._parts[2]
    forged = {
        "other-commitment": peer._table.make_rescue(part, commitments[3], rescue_recipient(2),
                                                    hand),
        "own-key-share": peer._table.make_leave(hand),
        "other-vanished": peer._table.make_rescue(peer._parts[0], peer._escrow[0][1],
                                                  rescue_recipient(0), hand),
    }
    for name, message in forged.items():
        assert isinstance(message, SharesMessage)
        with pytest.raises(ProofError) as info:
            table.peers[0].accept_rescue(1, 2, wire(encode_message(message)), hand)
        assert info.value.seat == 1, name
    table.peers[0].accept_rescue(1, 2, wire(peer.make_rescue(2, hand)), hand)
    assert table.peers[0].rescued_by(2) == (1,)


# ---------------------------------------------------------------------------------------------
# Privacy of the batches an opening forwards.


def test_a_leave_before_the_gathered_cards_are_shuffled_keeps_them_hidden() -> None:
    """Seat 1 was dealt slots 12, 13, 14 (one batch per seat) and opened slot 12 (a discard),
    forwarding seat 0's and seat 2's shares of 13 and 14 to everyone. The round ends: 13 and 14
    are gathered (no longer in the hand, not yet shuffled), and seat 1 leaves. Had it published
    its shares of 13 and 14, anyone with the record could open them (this test decrypted card
    7 that way before the fix). They go out of play with it instead (``Game.leaving_slots``,
    Level 8: gathered cards only it knows): its leave carries no share of them and nobody can
    open them. Whole games: ``tests/p2p/test_leave.py``, moment "gather"."""
    table = dealt_table()
    opening = table.peers[1].make_open(12)
    table.deliver(1, opening)
    leave = table.peers[1].make_leave([13, 14])  # what the engine takes out with it
    assert {item["slot"] for item in leave["shares"]} & {13, 14} == set()
    slot = 13
    shares = [decode_point(bytes.fromhex(item["share"]))
              for batch in (*opening["batches"], leave) for item in batch["shares"]
              if item["slot"] == slot and (batch is leave or batch["seat"] != 1)]
    assert len(shares) == 2  # seat 0's and seat 2's (forwarded); seat 1's never leaves it
    ciphertext = table.peers[0].ciphertext(slot)
    assert ciphertext is not None
    points = {p.encode(): i for i, p in enumerate(card_points(GAME, 12))}
    learned = points.get((ciphertext.a - point_sum(shares)).encode())
    assert learned is None, f"an observer learned seat 1's gathered card {learned}"
