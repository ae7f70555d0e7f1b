"""A seat leaving for good (issue 17; rulings D-1, D-5; docs/mental-poker.md, "Leaving").

The leaver publishes a proven decryption share of every hidden card outside its own hand;
every other seat strips that layer, the joint key becomes the sum of the remaining key shares,
later reveals need the remaining seats only, later shuffles skip the leaver, and the leaver's
hand is never opened.
"""

from __future__ import annotations

import copy

import pytest

from lancards.p2p.crypto.deck import (
    CardLearned,
    CardOpened,
    CardRevealed,
    EpochAbandoned,
    EpochComplete,
    SeatLeft,
)
from lancards.p2p.crypto.errors import DeckUsageError, ProofError, ProtocolViolationError
from lancards.p2p.crypto.group import point_sum

from .harness import Table, wire

N_CARDS = 20
HANDS = {0: [20, 21, 22], 1: [23, 24, 25], 2: [26, 27, 28], 3: [29, 30, 31]}


def dealt_table() -> Table:
    """Four seats, keys, one shuffle of 20 cards into slots 20..39, three cards dealt each."""
    table = Table(4, N_CARDS, seed="leave")
    table.run_initial()
    table.deal(HANDS)
    return table


def leave(table: Table, seat: int, hand: list[int]) -> None:
    message = table.peers[seat].make_leave(hand)
    for other in table.seats:
        if other != seat:
            table.peers[other].accept_leave(seat, wire(message), hand)
    table.collect()


def cards_of(table: Table, seat: int, kind: type) -> dict[int, int]:
    return {e.slot: e.card for e in table.events[seat] if isinstance(e, kind)}


def test_after_a_leave_the_others_play_on_under_the_remaining_keys() -> None:
    table = dealt_table()
    known = {seat: {s: table.peers[seat].card(s) for s in HANDS[seat]} for seat in table.seats}
    leave(table, 2, HANDS[2])
    for seat in (0, 1, 3):
        peer = table.peers[seat]
        assert peer.present == (0, 1, 3)
        assert peer.joint_key == point_sum(peer._keys.keys[s] for s in (0, 1, 3))
        assert [e for e in table.events[seat] if isinstance(e, SeatLeft)] == [SeatLeft(2)]
        assert all(peer.ciphertext(s) is None for s in HANDS[2])  # out of play
        assert {s: peer.card(s) for s in HANDS[seat]} == known[seat]  # hands unchanged
    # A draw to seat 0 needs the shares of seats 1 and 3 only, and gives the card that the
    # four original keys decrypt the slot to.
    draw = 32
    before_leave = Table(4, N_CARDS, seed="leave")
    before_leave.run_initial()
    before_leave.deal({**HANDS, 0: [*HANDS[0], draw]})
    for peer in (table.peers[0], table.peers[1], table.peers[3]):
        peer.request_private([draw], 0)
    table.send_owed_shares()
    assert table.peers[0].card(draw) == before_leave.peers[0].card(draw)
    assert table.peers[0].card(draw) is not None
    # A public reveal: the three remaining shares decrypt it.
    for peer in (table.peers[0], table.peers[1], table.peers[3]):
        peer.request_public([33])
    table.send_owed_shares()
    before_leave.reveal([33])
    assert {table.peers[s].card(33) for s in (0, 1, 3)} == {before_leave.peers[0].card(33)}


def test_the_leavers_hand_is_never_opened_and_its_messages_are_refused() -> None:
    table = dealt_table()
    message = table.peers[2].make_leave(HANDS[2])
    assert sorted(item["slot"] for item in message["shares"]) == [
        s for s in range(20, 40) if s not in HANDS[2]
    ]
    for other in (0, 1, 3):
        table.peers[other].accept_leave(2, wire(message), HANDS[2])
    table.collect()
    for seat in (0, 1, 3):
        seen = {**cards_of(table, seat, CardRevealed), **cards_of(table, seat, CardOpened)}
        assert not set(seen) & set(HANDS[2])
        with pytest.raises(ProtocolViolationError, match="seat 2 sent a deck message after"):
            table.peers[seat].accept(2, wire(table.peers[1].make_key_commit()))
        with pytest.raises(DeckUsageError):
            table.peers[seat].request_private([HANDS[2][0]], seat)  # out of play


def test_a_reshuffle_after_a_leave_skips_the_leaver_and_deals_right() -> None:
    table = dealt_table()
    leave(table, 1, HANDS[1])
    rest = [s for s in range(32, 40)]
    for seat in (0, 2, 3):
        table.peers[seat].begin_shuffle(rest, 40)
    order = []
    while (turn := table.peers[0].shuffle_turn()) is not None:
        order.append(turn)
        message = table.peers[turn].make_shuffle()
        for other in (0, 2, 3):
            if other != turn:
                table.peers[other].accept(turn, wire(message))
        table.collect()
    assert order == [0, 2, 3]
    assert all(any(isinstance(e, EpochComplete) and e.epoch == 2 for e in table.events[s])
               for s in (0, 2, 3))
    for seat in (0, 2, 3):
        for peer in (table.peers[0], table.peers[2], table.peers[3]):
            peer.request_private([40 + seat], seat)
    table.send_owed_shares()
    learned = [table.peers[s].card(40 + s) for s in (0, 2, 3)]
    assert None not in learned
    dealt = {table.peers[s].card(x) for s in (0, 2, 3) for x in HANDS[s]}
    assert not set(learned) & dealt  # a card dealt before cannot come out of the reshuffle


def test_a_leave_during_a_shuffle_abandons_the_epoch_which_starts_again() -> None:
    table = dealt_table()
    rest = list(range(32, 40))
    table.begin(rest, 40)
    message = table.peers[0].make_shuffle()
    for other in (1, 2, 3):
        table.peers[other].accept(0, wire(message))
    leave(table, 3, HANDS[3])
    for seat in (0, 1, 2):
        assert EpochAbandoned(2, 3) in table.events[seat]
        assert table.peers[seat].shuffle_turn() is None
        table.peers[seat].begin_shuffle(rest, 40)
    for turn in (0, 1, 2):
        assert table.peers[0].shuffle_turn() == turn
        message = table.peers[turn].make_shuffle()
        for other in (0, 1, 2):
            if other != turn:
                table.peers[other].accept(turn, wire(message))
    table.collect()
    assert EpochComplete(3, tuple(range(40, 48))) in table.events[1]


def test_a_reveal_in_progress_completes_when_its_last_missing_share_was_the_leavers() -> None:
    table = dealt_table()
    for peer in table.peers:
        peer.request_private([32], 0)
    for seat in (1, 3):  # seats 1 and 3 send; seat 2 never does, then leaves
        for recipient, message in table.peers[seat].make_owed_shares():
            table.deliver(seat, message, [recipient])
    assert table.peers[0].card(32) is None
    leave(table, 2, HANDS[2])
    assert 32 in cards_of(table, 0, CardLearned)


@pytest.mark.parametrize(
    ("tamper", "error", "text"),
    [
        (lambda m: m["shares"].pop(), ProtocolViolationError, "shares of the wrong slots"),
        (lambda m: m["shares"].reverse(), ProtocolViolationError, "out of order"),
        (lambda m: m.update(recipient=0), ProtocolViolationError, "not its own public shares"),
    ],
    ids=["a-slot-missing", "reordered", "private-recipient"],
)
def test_a_wrong_leave_is_refused_naming_the_leaver(tamper, error, text) -> None:  # type: ignore[no-untyped-def]
    table = dealt_table()
    message = copy.deepcopy(table.peers[2].make_leave(HANDS[2]))
    tamper(message)
    for other in (0, 1, 3):
        with pytest.raises(error, match=text) as info:
            table.peers[other].accept_leave(2, wire(message), HANDS[2])
        assert info.value.seat == 2
        assert table.peers[other].present == (0, 1, 2, 3)  # nothing applied


def test_a_leave_with_a_bad_share_fails_its_proof_naming_the_leaver() -> None:
    table = dealt_table()
    message = copy.deepcopy(table.peers[2].make_leave(HANDS[2]))
    message["shares"][3]["share"] = message["shares"][4]["share"]
    for other in (0, 1, 3):
        with pytest.raises(ProofError) as info:
            table.peers[other].accept_leave(2, wire(message), HANDS[2])
        assert info.value.seat == 2
        assert table.peers[other].present == (0, 1, 2, 3)


def test_the_hand_must_be_the_one_the_engine_knows() -> None:
    """A leaver that keeps a card out of its shares by claiming it as its hand is refused: the
    receivers compute the slots from the hand the engine says it holds."""
    table = dealt_table()
    message = table.peers[2].make_leave([*HANDS[2], 32])
    with pytest.raises(ProtocolViolationError, match="missing \\[32\\]"):
        table.peers[0].accept_leave(2, wire(message), HANDS[2])


def test_the_last_seat_cannot_leave() -> None:
    table = Table(2, 22, seed="two")
    table.run_initial()
    leave(table, 1, [])
    with pytest.raises(DeckUsageError, match="cannot leave"):
        table.peers[0].make_leave([])


# ---------------------------------------------------------------------------------------------
# Key escrow and the rescue of a seat that vanished (ruling D-5).


def escrowed_table() -> Table:
    """The dealt table with every seat's key share escrowed among the three others."""
    table = dealt_table()
    for dealer in table.seats:
        commitments, parts = table.peers[dealer].make_escrow()
        assert sorted(parts) == [s for s in table.seats if s != dealer]
        for holder in table.seats:
            if holder != dealer:
                table.peers[holder].accept_escrow(dealer, commitments)
                table.peers[holder].accept_escrow_part(dealer, parts[holder])
    return table


def rescue(table: Table, vanished: int, hand: list[int], rescuers: tuple[int, ...]) -> None:
    for sender in rescuers:
        message = table.peers[sender].make_rescue(vanished, hand)
        for other in rescuers:
            if other != sender:
                table.peers[other].accept_rescue(sender, vanished, wire(message), hand)
    table.collect()


def test_a_vanished_seat_is_removed_by_the_others_parts_and_play_goes_on() -> None:
    table = escrowed_table()
    assert all(table.peers[s].can_rescue(2) for s in (0, 1, 3))
    rescue(table, 2, HANDS[2], (0, 1, 3))
    for seat in (0, 1, 3):
        peer = table.peers[seat]
        assert peer.present == (0, 1, 3)
        assert SeatLeft(2) in table.events[seat]
    # Exactly as if seat 2 had left: the same ciphertexts at every remaining seat.
    left = dealt_table()
    leave(left, 2, HANDS[2])
    for slot in range(32, 40):
        assert table.peers[0].ciphertext(slot) == left.peers[0].ciphertext(slot)
    for peer in (table.peers[0], table.peers[1], table.peers[3]):
        peer.request_public([34])
    for seat in (0, 1, 3):  # the vanished seat's program is gone: nothing reaches it
        for _, message in table.peers[seat].make_owed_shares():
            table.deliver(seat, message, [s for s in (0, 1, 3) if s != seat])
    assert {table.peers[s].card(34) for s in (0, 1, 3)} == {left_card(34)}
    # The parts seat 2 held are gone: the others' key shares must be escrowed again.
    assert not table.peers[0].can_rescue(1)


def left_card(slot: int) -> int | None:
    """The card in ``slot`` of the dealt table, revealed with all four keys."""
    table = dealt_table()
    table.reveal([slot])
    return table.peers[0].card(slot)


def test_the_removal_waits_for_every_remaining_seats_part() -> None:
    table = escrowed_table()
    rescue(table, 2, HANDS[2], (0, 1))  # seat 3 has not sent its part yet
    assert table.peers[0].present == (0, 1, 2, 3)
    assert not any(isinstance(e, SeatLeft) for e in table.events[0])


def test_a_bad_escrow_deal_names_its_dealer() -> None:
    table = dealt_table()
    commitments, parts = table.peers[1].make_escrow()
    wrong_sum = {**commitments, 0: commitments[2]}
    with pytest.raises(ProofError, match="do not add up") as info:
        table.peers[0].accept_escrow(1, wrong_sum)
    assert info.value.seat == 1
    table.peers[0].accept_escrow(1, commitments)
    with pytest.raises(ProofError, match="does not match its commitment") as info:
        table.peers[0].accept_escrow_part(1, parts[2])  # seat 2's part sealed to seat 0
    assert info.value.seat == 1
    missing_holder = {s: c for s, c in commitments.items() if s != 3}
    with pytest.raises(ProofError, match=r"parts for seats \[0, 2\], not \[0, 2, 3\]"):
        table.peers[2].accept_escrow(1, missing_holder)


def test_a_bad_rescue_share_names_its_sender() -> None:
    table = escrowed_table()
    message = copy.deepcopy(table.peers[1].make_rescue(2, HANDS[2]))
    message["shares"][0]["share"] = message["shares"][1]["share"]
    with pytest.raises(ProofError) as info:
        table.peers[0].accept_rescue(1, 2, wire(message), HANDS[2])
    assert info.value.seat == 1
    # A public share of the vanished seat's slot cannot pass for a rescue share.
    for peer in table.peers:
        peer.request_public([33])
    public = next(m for r, m in table.peers[1].make_owed_shares())
    with pytest.raises(ProtocolViolationError, match="wrong slots"):
        table.peers[0].accept_rescue(1, 2, wire(public), HANDS[2])
