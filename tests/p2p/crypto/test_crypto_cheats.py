"""Every cheat is rejected when its message arrives, the cheater named, the state unchanged."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lancards.p2p.crypto.coordinator import OPENING
from lancards.p2p.crypto.elgamal import Ciphertext, reencrypt
from lancards.p2p.crypto.errors import (
    InvalidMessageError,
    PeerFaultError,
    ProofError,
    ProtocolViolationError,
)
from lancards.p2p.crypto.group import G, SeededRandomBytes, mul_base
from lancards.p2p.crypto.messages import KeyReveal, ShuffleMessage, encode_message
from lancards.p2p.crypto.proofs import KEY_PROOF, SHARE_PROOF, key_commitment, prove_key
from lancards.p2p.crypto.shuffle import (
    SHUFFLE_PROOF,
    ShuffleWitness,
    gen_shuffle,
    gen_shuffle_proof,
)
from lancards.p2p.crypto.transcript import ProofContext

from .harness import GAME, Table, wire

Message = dict[str, Any]


E = TypeVar("E", bound=PeerFaultError)


def rejected_by_all(
    table: Table, sender: int, message: Message, error: type[E], epoch: int
) -> list[E]:
    """Deliver ``message`` to every other seat; each must raise ``error`` naming ``sender``."""
    errors = []
    for seat in table.seats:
        if seat == sender:
            continue
        with pytest.raises(error) as info:
            table.peers[seat].accept(sender, wire(message))
        assert (info.value.seat, info.value.epoch) == (sender, epoch), str(info.value)
        errors.append(info.value)
    return errors


# ---------------------------------------------------------------------------------------------
# Shuffles.


def shuffling_table(epochs_before: int = 0) -> Table:
    """Three seats, six cards, keys done, epoch ``1 + epochs_before`` running; seat 0 done."""
    table = Table(3, 6, seed="cheats")
    table.run_keys()
    first = 6
    table.begin(range(6), first, {s: s for s in range(6)})
    for _ in range(epochs_before):
        for seat in table.seats:
            table.deliver(seat, table.peers[seat].make_shuffle())
        table.begin(range(first, first + 6), first + 6)
        first += 6
    table.deliver(0, table.peers[0].make_shuffle())
    return table


def crafted_shuffle(
    table: Table,
    seat: int,
    *,
    alter: Callable[[list[Ciphertext], ShuffleWitness], None] | None = None,
    key_offset: bool = False,
    context_change: dict[str, Any] | None = None,
) -> Message:
    """Seat ``seat`` shuffles with the library's functions, cheating as told, and proves."""
    peer = table.peers[seat]
    inputs = peer.shuffle_input()
    joint_key = peer.joint_key
    assert joint_key is not None
    source = SeededRandomBytes("cheater")
    outputs, witness = gen_shuffle(inputs, joint_key + G if key_offset else joint_key, source)
    if alter is not None:
        alter(outputs, witness)
    fields: dict[str, Any] = {"game_id": GAME, "table_id": "table-1", "epoch": peer.epoch}
    fields.update(context_change or {})
    context = ProofContext(seat=seat, **fields)
    proof = gen_shuffle_proof(context, inputs, outputs, witness, joint_key, source)
    return encode_message(ShuffleMessage(seat, peer.epoch, tuple(outputs), proof))


def then_honest_run_completes(table: Table, cheater: int) -> None:
    """After the rejection the state is unchanged: the cheater's honest shuffle is accepted."""
    for seat in range(cheater, table.params.n_seats):
        table.deliver(seat, table.peers[seat].make_shuffle())
    assert table.peers[0].shuffle_turn() is None


def test_outputs_swapped_after_proving() -> None:
    table = shuffling_table()
    message = table.peers[1].make_shuffle()
    tampered = copy.deepcopy(message)
    tampered["outputs"][0], tampered["outputs"][1] = message["outputs"][1], message["outputs"][0]
    errors = rejected_by_all(table, 1, tampered, ProofError, 1)
    assert all(e.proof == SHUFFLE_PROOF for e in errors)
    table.deliver(1, message)  # the untampered message still verifies
    table.deliver(2, table.peers[2].make_shuffle())
    assert table.peers[0].shuffle_turn() is None


def _duplicate(table: Table) -> dict[str, Any]:
    joint_key = table.peers[1].joint_key
    assert joint_key is not None

    def alter(outputs: list[Ciphertext], witness: ShuffleWitness) -> None:
        outputs[1] = reencrypt(outputs[0], joint_key, 3)  # the card of output 0, twice

    return {"alter": alter}


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(_duplicate, id="one-card-replaced-by-a-duplicate"),
        pytest.param(lambda t: {"key_offset": True}, id="reencrypted-with-a-wrong-key"),
        pytest.param(lambda t: {"context_change": {"epoch": 2}}, id="proof-of-another-epoch"),
        pytest.param(
            lambda t: {"context_change": {"table_id": "table-2"}}, id="proof-of-another-table"
        ),
        pytest.param(
            lambda t: {"context_change": {"game_id": "eights"}}, id="proof-of-another-game"
        ),
    ],
)
def test_cheating_shuffle_is_rejected(options: Callable[[Table], dict[str, Any]]) -> None:
    table = shuffling_table(epochs_before=2)  # epoch 3: a proof "of epoch 2" is a replay
    message = crafted_shuffle(table, 1, **options(table))
    errors = rejected_by_all(table, 1, message, ProofError, 3)
    assert all(e.proof == SHUFFLE_PROOF and "seat 1 in epoch 3" in str(e) for e in errors)
    then_honest_run_completes(table, 1)


def test_honest_crafted_shuffle_is_accepted() -> None:
    """The crafting helper itself is sound: without a cheat its message verifies."""
    table = shuffling_table(epochs_before=1)
    table.deliver(1, crafted_shuffle(table, 1), [0, 1, 2])  # seat 1 applies its own too
    table.deliver(2, table.peers[2].make_shuffle())
    assert table.peers[0].shuffle_turn() is None


def test_whole_message_replayed_from_another_epoch() -> None:
    table = Table(3, 6, seed="cheats")
    table.run_initial()
    old = next(v for s, _, v in table.log if v["type"] == "shuffle" and s == 1)
    table.begin(range(6, 12), 12)
    table.deliver(0, table.peers[0].make_shuffle())
    errors = rejected_by_all(table, 1, old, ProtocolViolationError, 2)
    assert "for epoch 1 in epoch 2" in str(errors[0])
    relabelled = dict(old, epoch=2)
    rejected_by_all(table, 1, relabelled, ProofError, 2)
    then_honest_run_completes(table, 1)


def _swap(values: list[Any]) -> None:
    values[0], values[1] = values[1], values[0]


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        pytest.param(lambda p: p["t_hat"].pop(), InvalidMessageError, id="truncated-t_hat"),
        pytest.param(lambda p: p["chain"].pop(), InvalidMessageError, id="truncated-chain"),
        pytest.param(lambda p: p["s_prime"].pop(), InvalidMessageError, id="truncated-s_prime"),
        pytest.param(lambda p: p["t"].pop(), InvalidMessageError, id="truncated-t"),
        pytest.param(lambda p: _swap(p["s_hat"]), ProofError, id="reordered-s_hat"),
        pytest.param(lambda p: _swap(p["commitments"]), ProofError, id="reordered-commitments"),
        pytest.param(lambda p: _swap(p["t"]), ProofError, id="reordered-t"),
        pytest.param(lambda p: p["s"].reverse(), ProofError, id="reordered-s"),
    ],
)
def test_truncated_or_reordered_proof(
    edit: Callable[[dict[str, Any]], None], error: type[PeerFaultError]
) -> None:
    table = shuffling_table()
    message = crafted_shuffle(table, 1)
    edit(message["proof"])
    rejected_by_all(table, 1, message, error, 1)
    then_honest_run_completes(table, 1)


def test_out_of_turn_and_impersonation() -> None:
    table = shuffling_table()
    early = crafted_shuffle(table, 2)
    errors = rejected_by_all(table, 2, early, ProtocolViolationError, 1)
    assert "out of turn (seat 1 is to shuffle)" in str(errors[0])
    in_the_name_of_1 = crafted_shuffle(table, 1)
    with pytest.raises(ProtocolViolationError, match="in the name of seat 1") as info:
        table.peers[0].accept(2, wire(in_the_name_of_1))
    assert info.value.seat == 2
    then_honest_run_completes(table, 1)


def test_shuffle_when_none_runs() -> None:
    table = Table(2, 4, seed="none")
    table.run_initial()
    stale = next(v for s, _, v in table.log if v["type"] == "shuffle" and s == 1)
    errors = rejected_by_all(table, 1, stale, ProtocolViolationError, 1)
    assert "no shuffle is running" in str(errors[0])


# ---------------------------------------------------------------------------------------------
# Joint key.


def committed_table() -> Table:
    table = Table(3, 6, seed="keys")
    for seat in table.seats:
        table.deliver(seat, table.peers[seat].make_key_commit())
    return table


def test_key_share_without_valid_proof_of_knowledge() -> None:
    table = committed_table()
    reveal = table.peers[2].make_key_reveal()
    reveal["proof"]["z"] = reveal["proof"]["c"]
    errors = rejected_by_all(table, 2, reveal, ProofError, 0)
    assert errors[0].proof == KEY_PROOF
    assert str(errors[0]).startswith("key proof of knowledge by seat 2 in epoch 0 rejected")


def test_rogue_key_chosen_after_seeing_the_others() -> None:
    """Seat 2 waits for the others' key shares, then reveals Y - X0 - X1 (joint key Y)."""
    table = committed_table()
    for seat in (0, 1):
        table.deliver(seat, table.peers[seat].make_key_reveal())
    x0, x1 = (mul_base(table.peers[s].secret_key) for s in (0, 1))
    rogue = mul_base(12345) - x0 - x1
    proof = prove_key(ProofContext(GAME, "table-1", 0, 2), 12345, SeededRandomBytes("r"))
    message = encode_message(KeyReveal(2, rogue, proof))
    errors = rejected_by_all(table, 2, message, ProtocolViolationError, 0)
    assert "does not match its commitment (rogue key)" in str(errors[0])
    table.deliver(2, table.peers[2].make_key_reveal())
    assert table.peers[0].joint_key is not None


def test_rogue_key_with_a_matching_commitment_fails_the_proof_of_knowledge() -> None:
    """Even a seat that knew the others' key shares in advance cannot prove its rogue key."""
    table = Table(3, 6, seed="keys")
    x0, x1 = (mul_base(table.peers[s].secret_key) for s in (0, 1))
    rogue = mul_base(12345) - x0 - x1
    for seat in (0, 1):
        table.deliver(seat, table.peers[seat].make_key_commit())
    commit = {"type": "key_commit", "seat": 2}
    commit["commitment"] = key_commitment(ProofContext(GAME, "table-1", 0, 2), rogue).hex()
    table.deliver(2, commit)
    for seat in (0, 1):
        table.deliver(seat, table.peers[seat].make_key_reveal())
    proof = prove_key(ProofContext(GAME, "table-1", 0, 2), 12345, SeededRandomBytes("r"))
    errors = rejected_by_all(table, 2, encode_message(KeyReveal(2, rogue, proof)), ProofError, 0)
    assert errors[0].proof == KEY_PROOF


def test_reveal_before_commit_and_second_commitment() -> None:
    table = Table(2, 4, seed="order")
    table.deliver(0, table.peers[0].make_key_commit())
    table.peers[1].make_key_commit()
    early = table.peers[1]  # its commitment was made but never sent
    reveal = encode_message(
        KeyReveal(
            1,
            mul_base(early.secret_key),
            prove_key(
                ProofContext(GAME, "table-1", 0, 1), early.secret_key, SeededRandomBytes("e")
            ),
        )
    )
    errors = rejected_by_all(table, 1, reveal, ProtocolViolationError, 0)
    assert "revealed its key share before committing to it" in str(errors[0])
    commit = table.peers[0].make_key_commit()
    other = dict(commit, commitment="ab" * 32)
    with pytest.raises(ProtocolViolationError, match="second, different key commitment"):
        table.peers[1].accept(0, other)
    table.peers[1].accept(0, commit)  # the same one again is harmless


def test_deck_messages_before_the_joint_key() -> None:
    table = Table(2, 4, seed="early")
    donor = Table(2, 4, seed="early")
    donor.run_initial()
    shuffle = next(v for s, _, v in donor.log if v["type"] == "shuffle" and s == 0)
    errors = rejected_by_all(table, 0, shuffle, ProtocolViolationError, 0)
    assert "before the joint key was ready" in str(errors[0])


# ---------------------------------------------------------------------------------------------
# Decryption shares and openings.


def dealt_table() -> tuple[Table, Message]:
    """Three seats, six cards, slot 6 requested for seat 0; returns seat 1's private shares."""
    table = Table(3, 6, seed="shares")
    table.run_initial()
    for peer in table.peers:
        peer.request_private([6], 0)
    message = table.peers[1].make_shares(0)
    assert message is not None
    return table, message


@pytest.mark.parametrize(
    ("edit", "error", "proof"),
    [
        pytest.param(
            lambda m: m["proof"].update(z="11" * 32),
            ProofError,
            SHARE_PROOF,
            id="tampered-proof",
        ),
        pytest.param(
            lambda m: m["shares"][0].update(share=mul_base(7).hex()),
            ProofError,
            SHARE_PROOF,
            id="another-share",
        ),
        pytest.param(
            lambda m: m["shares"][0].update(slot=7),
            ProofError,
            SHARE_PROOF,
            id="proof-for-another-slot",
        ),
        pytest.param(
            lambda m: m["shares"][0].update(slot=99),
            ProtocolViolationError,
            None,
            id="slot-not-in-the-deck",
        ),
        pytest.param(
            lambda m: m["shares"][0].update(share="00"),
            InvalidMessageError,
            None,
            id="identity-share",
        ),
    ],
)
def test_bad_private_share(
    edit: Callable[[Message], None], error: type[PeerFaultError], proof: str | None
) -> None:
    table, message = dealt_table()
    bad = copy.deepcopy(message)
    edit(bad)
    with pytest.raises(error) as info:
        table.peers[0].accept(1, wire(bad))
    assert info.value.seat == 1
    if proof is not None:
        assert isinstance(info.value, ProofError) and info.value.proof == proof
        assert info.value.epoch == 1
    table.deliver(1, message, [0])
    table.send_owed_shares()
    assert table.peers[0].card(6) is not None


def test_private_shares_delivered_to_the_wrong_seat() -> None:
    table, message = dealt_table()
    with pytest.raises(ProtocolViolationError, match="addressed to 0") as info:
        table.peers[2].accept(1, wire(message))
    assert info.value.seat == 1


def test_bad_public_share_is_rejected_by_everyone() -> None:
    table = Table(3, 6, seed="public")
    table.run_initial()
    for peer in table.peers:
        peer.request_public([7])
    message = table.peers[2].make_shares(-1)
    assert message is not None
    bad = copy.deepcopy(message)
    bad["proof"]["c"] = bad["proof"]["z"]
    errors = rejected_by_all(table, 2, bad, ProofError, 1)
    assert all(e.proof == SHARE_PROOF for e in errors)


def opened_table() -> tuple[Table, Message]:
    table = Table(3, 6, seed="open")
    table.run_initial()
    table.deal({1: [8]})
    return table, table.peers[1].make_open(8)


def test_open_with_a_false_card() -> None:
    table, message = opened_table()
    errors = rejected_by_all(table, 1, dict(message, card=(message["card"] + 1) % 6), ProofError, 1)
    assert errors[0].proof == OPENING and "does not hold card" in str(errors[0])
    rejected_by_all(table, 1, dict(message, card=6), ProofError, 1)


def test_open_with_a_bad_share_blames_the_opener() -> None:
    table, message = opened_table()
    bad = copy.deepcopy(message)
    bad["batches"][0]["shares"][0]["share"] = mul_base(5).hex()  # seat 0's, forged by seat 1
    errors = rejected_by_all(table, 1, bad, ProofError, 1)
    assert errors[0].proof == OPENING and "seat 0" in str(errors[0])


def test_a_batch_with_one_wrong_share_is_refused_whole() -> None:
    """Seat 1 deals three cards to seat 0 in one batch, the middle share forged: seat 0 refuses
    the whole message naming seat 1, learns none of the three, and takes the honest batch."""
    table = Table(3, 6, seed="batch")
    table.run_initial()
    for peer in table.peers:
        peer.request_private([6, 7, 8], 0)
    message = table.peers[1].make_shares(0)
    assert message is not None and [s["slot"] for s in message["shares"]] == [6, 7, 8]
    bad = copy.deepcopy(message)
    bad["shares"][1]["share"] = mul_base(11).hex()
    with pytest.raises(ProofError) as info:
        table.peers[0].accept(1, wire(bad))
    assert (info.value.seat, info.value.proof, info.value.epoch) == (1, SHARE_PROOF, 1)
    assert "slots 6, 7, 8" in str(info.value)
    assert [table.peers[0].card(s) for s in (6, 7, 8)] == [None, None, None]
    table.deliver(1, message, [0])
    table.send_owed_shares()
    assert None not in [table.peers[0].card(s) for s in (6, 7, 8)]


def test_a_batch_with_a_slot_twice_is_malformed() -> None:
    table, message = dealt_table()
    bad = copy.deepcopy(message)
    bad["shares"].append(dict(bad["shares"][0]))
    with pytest.raises(InvalidMessageError, match="a slot appears twice") as info:
        table.peers[0].accept(1, wire(bad))
    assert info.value.seat == 1


def forwarding_table() -> tuple[Table, Message]:
    """Three seats; slots 8 and 9 dealt to seat 1 in one batch per seat, slot 10 to seat 2;
    seat 1 opens slot 8, forwarding the batches of seats 0 and 2 whole."""
    table = Table(3, 6, seed="forward")
    table.run_initial()
    table.deal({1: [8, 9], 2: [10]})
    message = table.peers[1].make_open(8)
    assert [[s["slot"] for s in b["shares"]] for b in message["batches"]] == [[8, 9], [8], [8, 9]]
    return table, message


def test_an_opening_forwards_whole_batches_and_each_is_checked_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from lancards.p2p.crypto import slots

    checked: list[int] = []  # the author of every batch proof checked
    real = slots.check_shares

    def counting(context: ProofContext, *args: Any) -> None:
        checked.append(context.seat)
        real(context, *args)

    monkeypatch.setattr(slots, "check_shares", counting)
    table, message = forwarding_table()
    checked.clear()
    table.deliver(1, message)
    assert [peer.card(8) for peer in table.peers] == [table.peers[1].card(8)] * 3
    # Seats 0 and 2 each check the opener's batch and the other's, never their own
    # (a bit-identical copy of what they made: issue 23, the latency of a lay down).
    assert sorted(checked) == [0, 1, 1, 2]
    second = table.peers[1].make_open(9)
    assert [b for b in second["batches"] if b["seat"] != 1] == [
        b for b in message["batches"] if b["seat"] != 1]
    checked.clear()
    table.deliver(1, second)
    assert table.peers[0].card(9) == table.peers[2].card(9) == table.peers[1].card(9)
    assert checked == [1, 1]  # only the opener's fresh batch: the forwarded ones are known


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda m: m["batches"][0]["shares"][1].update(share=mul_base(3).hex()),
                     id="other-slot-of-the-batch-forged"),
        pytest.param(lambda m: m["batches"][2]["shares"].pop(1), id="batch-cut-down"),
        pytest.param(lambda m: m["batches"][0]["proof"].update(c=m["batches"][2]["proof"]["c"]),
                     id="proof-of-another-batch"),
    ],
)
def test_an_opening_with_a_tampered_forwarded_batch_blames_the_opener(
    edit: Callable[[Message], None],
) -> None:
    table, message = forwarding_table()
    bad = copy.deepcopy(message)
    edit(bad)
    errors = rejected_by_all(table, 1, bad, ProofError, 1)
    assert all(e.proof == OPENING for e in errors)
    table.deliver(1, message)
    assert table.peers[0].is_public(8)


def test_an_opening_cannot_forward_a_batch_made_for_another_holder() -> None:
    """Seat 1 forwards, as seat 0's share of slot 8, the batch seat 0 made for seat 2's slot
    10 relabelled: the batch proof binds its recipient and slots, so it fails, naming seat 1."""
    table, message = forwarding_table()
    batch_for_2 = table.peers[2].make_open(10)["batches"][0]
    assert batch_for_2["seat"] == 0
    bad = copy.deepcopy(message)
    bad["batches"][0] = dict(batch_for_2, shares=[dict(batch_for_2["shares"][0], slot=8)])
    errors = rejected_by_all(table, 1, bad, ProofError, 1)
    assert all(e.proof == OPENING for e in errors)


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        pytest.param(lambda m: m["batches"].pop(0), "with the shares of seats [1, 2]",
                     id="missing"),
        pytest.param(
            lambda m: m.update(slot=9), "with the shares of another slot", id="other-slot"
        ),
        pytest.param(lambda m: m.update(slot=99), "not a hidden slot", id="unknown-slot"),
    ],
)
def test_malformed_opening(edit: Callable[[Message], None], problem: str) -> None:
    table, message = opened_table()
    bad = copy.deepcopy(message)
    edit(bad)
    errors = rejected_by_all(table, 1, bad, ProtocolViolationError, 1)
    assert problem in str(errors[0])
    table.deliver(1, message)
    assert table.peers[0].is_public(8)


# ---------------------------------------------------------------------------------------------
# The identity point or an invalid encoding anywhere a point is expected.

POINT_PLACES: list[tuple[str, tuple[Any, ...]]] = [
    ("shuffle", ("outputs", 2, 0)),
    ("shuffle", ("outputs", 5, 1)),
    ("shuffle", ("proof", "commitments", 3)),
    ("shuffle", ("proof", "chain", 0)),
    ("shuffle", ("proof", "t", 0)),
    ("shuffle", ("proof", "t_hat", 5)),
    ("open", ("batches", 2, "shares", 0, "share")),
]


@pytest.mark.parametrize("bad_point", ["00", "02" + "00" * 31 + "05", "03" + "ff" * 32, "0211"])
@pytest.mark.parametrize(("kind", "path"), POINT_PLACES)
def test_identity_or_invalid_point_anywhere(
    kind: str, path: tuple[Any, ...], bad_point: str
) -> None:
    if kind == "shuffle":
        table = shuffling_table()
        message = crafted_shuffle(table, 1)
    else:
        table, message = opened_table()
    target: Any = message
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = bad_point
    errors = rejected_by_all(table, 1, message, InvalidMessageError, 1)
    assert "seat 1 sent a bad" in str(errors[0])


def test_identity_key_share() -> None:
    table = committed_table()
    reveal = dict(table.peers[2].make_key_reveal(), key="00")
    errors = rejected_by_all(table, 2, reveal, InvalidMessageError, 0)
    assert "identity" in str(errors[0])


# ---------------------------------------------------------------------------------------------
# Fuzzing: whatever a peer sends, the receiver raises a PeerFaultError naming it, or accepts.

_json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=2**33)
    | st.sampled_from(["", "00", "02" + "11" * 32, "ab" * 32, "zz", mul_base(3).hex()])
)
_json = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def _leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k in sorted(value) for p in _leaf_paths(value[k], (*path, k))]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _leaf_paths(item, (*path, i))]
    return [path]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["shuffle", "open"]), st.data())
def test_fuzzed_messages_only_raise_peer_faults(kind: str, data: st.DataObject) -> None:
    if kind == "shuffle":
        table = shuffling_table()
        message = crafted_shuffle(table, 1)
    else:
        table, message = opened_table()
    path = data.draw(st.sampled_from(_leaf_paths(message)))
    target: Any = message
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(_json)
    try:
        table.peers[0].accept(1, wire(message))
    except PeerFaultError as exc:
        assert exc.seat == 1
