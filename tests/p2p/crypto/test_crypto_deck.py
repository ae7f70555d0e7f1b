"""Honest tables: joint key, shuffles, deals, public reveals, openings, reshuffles, debts."""

from __future__ import annotations

import pytest

from lancards.p2p.crypto.coordinator import DeckCoordinator
from lancards.p2p.crypto.deck import (
    CardLearned,
    CardOpened,
    CardRevealed,
    Debt,
    EpochComplete,
    KeyReady,
    ShuffleVerified,
    TableParams,
)
from lancards.p2p.crypto.errors import DeckUsageError
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.crypto.proofs import PUBLIC

from .harness import Table, wire


@pytest.mark.parametrize("n_cards", [60, 98, 108])
@pytest.mark.parametrize("n_seats", [2, 3, 4, 5, 6])
def test_honest_deal_gives_each_holder_exactly_its_cards(n_seats: int, n_cards: int) -> None:
    table = Table(n_seats, n_cards, seed=f"honest-{n_seats}-{n_cards}")
    table.run_initial()
    slots = list(range(n_cards, 2 * n_cards))
    hands = {seat: slots[10 * seat : 10 * seat + 10] for seat in table.seats}
    table.deal(hands)
    draw_pile = slots[10 * n_seats :]
    table.reveal(draw_pile)

    seen: list[int] = []
    for seat, peer in enumerate(table.peers):
        for holder, hand in hands.items():
            known = [peer.card(slot) for slot in hand]
            if holder == seat:
                assert None not in known
                seen.extend(c for c in known if c is not None)
            else:
                assert known == [None] * 10
        learned = [e for e in table.events[seat] if isinstance(e, CardLearned)]
        assert [e.slot for e in learned] == hands[seat]
    public = [table.peers[0].card(slot) for slot in draw_pile]
    for peer in table.peers[1:]:
        assert [peer.card(slot) for slot in draw_pile] == public
    seen.extend(c for c in public if c is not None)
    assert sorted(seen) == list(range(n_cards))
    # Private shares went to their holder alone, and only other seats sent them.
    for sender, recipients, value in table.log:
        if value["type"] == "shares" and value["recipient"] is not None:
            assert recipients == (value["recipient"],) and sender != value["recipient"]
    assert all(peer.debts() == [] for peer in table.peers)


def test_events_of_a_small_table() -> None:
    table = Table(2, 3, seed="events")
    table.run_initial()
    joint = table.peers[0].joint_key
    assert joint is not None and joint == table.peers[1].joint_key
    assert table.events[0] == [
        KeyReady(joint),
        ShuffleVerified(1, 0),
        ShuffleVerified(1, 1),
        EpochComplete(1, (3, 4, 5)),
    ]
    table.deal({0: [3]})
    table.reveal([4])
    card3, card4 = table.peers[0].card(3), table.peers[0].card(4)
    assert card3 is not None and card4 is not None
    assert table.events[0][-2:] == [CardLearned(3, card3), CardRevealed(4, card4)]
    assert table.events[1][-1:] == [CardRevealed(4, card4)]
    assert table.peers[1].card(3) is None
    assert table.peers[0].can_open(3) and not table.peers[1].can_open(3)
    table.open(0, 3)
    assert table.events[1][-1:] == [CardOpened(3, card3, 0)]
    assert table.peers[1].card(3) == card3 and table.peers[1].is_public(3)
    assert not table.peers[0].can_open(3)
    table.reveal([5])
    assert sorted([card3, card4, table.peers[1].card(5) or 0]) == [0, 1, 2]


def test_reshuffle_of_public_and_hidden_cards() -> None:
    """The draw pile runs out: public cards and a hand's hidden card go back with it."""
    table = Table(3, 20, seed="reshuffle")
    table.run_initial()  # slots 20..39
    table.deal({0: [20, 21], 1: [22, 23], 2: [24]})
    table.reveal([25, 26])
    table.open(1, 23)
    kept = [table.peers[0].card(20), table.peers[0].card(21), table.peers[1].card(22)]
    back = [23, 24, 25, 26, *range(27, 40)]  # 3 public, 14 hidden
    table.run_shuffle(back, 100)
    assert table.peers[1].epoch == 2
    assert table.events[1][-1] == EpochComplete(2, tuple(range(100, 117)))
    for peer in table.peers:
        assert all(peer.card(slot) is None and peer.ciphertext(slot) is None for slot in back)
    table.reveal(list(range(100, 117)))
    pile = [table.peers[2].card(s) for s in range(100, 117)]
    assert sorted(c for c in pile if c is not None) == sorted(set(range(20)) - set(kept))
    # Cards kept in a hand stay decryptable under the same joint key.
    table.open(0, 21)
    assert table.peers[2].card(21) == kept[1]


def test_debts_at_every_step() -> None:
    table = Table(3, 6, seed="debts")
    p0, p1, p2 = table.peers
    assert p2.debts() == [Debt(s, "key_commit", 0) for s in range(3)]
    table.deliver(0, p0.make_key_commit())
    table.deliver(1, p1.make_key_commit())
    assert p2.debts() == [Debt(2, "key_commit", 0)]
    with pytest.raises(DeckUsageError, match=r"commitments of seats \[2\]"):
        p0.make_key_reveal()
    table.deliver(2, p2.make_key_commit())
    assert p0.debts() == [Debt(s, "key_reveal", 0) for s in range(3)]
    for seat in table.seats:
        table.deliver(seat, table.peers[seat].make_key_reveal())
    assert p0.debts() == []
    table.begin(range(6), 6, {s: s for s in range(6)})
    for seat in table.seats:
        assert p1.debts() == [Debt(seat, "shuffle", 1)] and p1.shuffle_turn() == seat
        table.deliver(seat, table.peers[seat].make_shuffle())
    assert p1.debts() == [] and p1.shuffle_turn() is None
    for peer in table.peers:
        peer.request_private([6, 7], 1)
    assert p1.debts() == [Debt(0, "shares", None, (6, 7), 1), Debt(2, "shares", None, (6, 7), 1)]
    assert p0.debts() == [Debt(0, "shares", None, (6, 7), 1)]
    assert p2.debts() == [Debt(2, "shares", None, (6, 7), 1)]
    message = p0.make_shares(1)
    assert message is not None
    table.deliver(0, message, [1])
    assert p1.debts() == [Debt(2, "shares", None, (6, 7), 1)]
    assert p0.debts() == [] and p0.make_shares(1) is None
    for peer in table.peers:
        peer.request_public([8])
    assert (
        p0.debts()
        == [
            Debt(2, "shares", None, (6, 7), 1),
            *[Debt(s, "shares", None, (8,), PUBLIC) for s in range(3)],
        ][1:]
    )
    table.send_owed_shares()
    assert [peer.debts() for peer in table.peers] == [[], [], []]


def test_restart_from_the_log_and_the_secret_key() -> None:
    """A peer that crashed replays the log (its own entries too) with its stored key share."""
    table = Table(3, 8, seed="restart")
    table.run_initial()
    table.deal({1: [8, 9], 2: [10]})
    table.reveal([11])
    table.open(2, 10)
    old = table.peers[1]
    fresh = DeckCoordinator(
        table.params, 1, SeededRandomBytes("after-restart"), secret_key=old.secret_key
    )
    everyone_else = (0, 2)
    received = [  # what it received, and what it broadcast (its private shares are not kept)
        (sender, value)
        for sender, recipients, value in table.log
        if 1 in recipients or (sender == 1 and recipients == everyone_else)
    ]

    def replay(kind: str) -> None:
        for sender, value in received:
            if value["type"] == kind:
                fresh.accept(sender, value)

    replay("key_commit")
    replay("key_reveal")
    fresh.begin_shuffle(range(8), 8, {s: s for s in range(8)})
    replay("shuffle")
    fresh.request_private([8, 9], 1)
    fresh.request_private([10], 2)
    fresh.request_public([11])
    replay("shares")
    replay("open")
    assert fresh.joint_key == old.joint_key
    assert [fresh.card(s) for s in range(8, 16)] == [old.card(s) for s in range(8, 16)]
    # The private share it sent seat 2 is not in its log: it owes it again, harmlessly.
    assert old.debts() == []
    assert fresh.debts() == []  # slot 10 is public now, so nothing is owed


def test_repeated_shares_are_idempotent() -> None:
    table = Table(2, 4, seed="repeat")
    table.run_initial()
    table.deal({0: [4]})
    card = table.peers[0].card(4)
    for peer in table.peers:
        peer.request_private([4], 0)  # asked again, e.g. after a reconnect
    again = table.peers[1].make_shares(0, [4])
    table.deliver(1, again, [0])
    assert table.peers[0].card(4) == card
    assert table.events[0].count(CardLearned(4, card or 0)) == 1


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda p: p.begin_shuffle([0], 1, {0: 0}), "before the joint key"),
        (lambda p: p.make_shuffle(), "not seat 0's turn"),
        (lambda p: p.make_open(3), "cannot open slot 3"),
        (lambda p: p.request_private([3], 0), "not a slot of the deck"),
        (lambda p: p.request_private([3], 5), "seat 5 is not at the table"),
        (lambda p: p.make_shares(0), "never sends shares to itself"),
    ],
)
def test_local_misuse_is_a_usage_error(call, problem: str) -> None:  # type: ignore[no-untyped-def]
    peer = DeckCoordinator(TableParams("test-game", "t", 2, 4), 0, SeededRandomBytes("u"))
    with pytest.raises(DeckUsageError, match=problem) as info:
        call(peer)
    assert info.value.seat is None


@pytest.mark.parametrize(
    ("slots", "first", "open_cards", "problem"),
    [
        ([], 10, {}, "empty list"),
        ([4, 4], 10, {}, "repeated slots"),
        ([1], 10, {}, "slot 1 is unknown"),
        ([4], 10, {4: 2}, "slot 4 is hidden"),
        ([9], 10, {9: 4}, "card 4 is not in a deck of 4"),
        ([4], 5, {}, r"new slot ids \[5\] are not free"),
    ],
)
def test_bad_shuffle_requests(slots, first, open_cards, problem: str) -> None:  # type: ignore[no-untyped-def]
    table = Table(2, 4, seed="bad-requests")
    table.run_initial()
    with pytest.raises(DeckUsageError, match=problem):
        table.peers[0].begin_shuffle(slots, first, open_cards)


def test_table_params_are_validated() -> None:
    with pytest.raises(DeckUsageError, match="2 to 16 seats"):
        TableParams("g", "t", 1, 10)
    with pytest.raises(DeckUsageError, match="1 to 4096 cards"):
        TableParams("g", "t", 2, 0)
    with pytest.raises(DeckUsageError, match="seat 2 is not at a table of 2"):
        DeckCoordinator(TableParams("g", "t", 2, 4), 2, SeededRandomBytes("x"))


def test_a_withheld_slot_is_owed_by_nobody() -> None:
    """A public reveal of slot 8 was requested, then its card went out of play (8s Rule!: a
    departure abandoned the round, ruling D-1: every seat withholds it), and a reveal of slot 9
    is requested; seat 0 sends its share of 9. Nobody owes a share of the withheld slot: seat 0
    owes nothing more, so the seat due for shares (the lowest debtor) is seat 1, which will
    make them. Adversary finding F5: seat 0 stayed a debtor of slot 8 alone, was due for
    shares it never makes, and the table waited for it for ever."""
    table = Table(3, 6, seed="withheld")
    table.run_initial()
    for peer in table.peers:
        peer.request_public([8])
        peer.withhold([8])
        peer.request_public([9])
    share = table.peers[0].make_shares(PUBLIC)
    assert share is not None and [s["slot"] for s in wire(share)["shares"]] == [9]
    table.deliver(0, share)
    assert table.peers[0].make_shares(PUBLIC) is None
    for peer in table.peers:
        assert peer.debts() == [Debt(s, "shares", None, (9,), PUBLIC) for s in (1, 2)]
    table.send_owed_shares()
    assert [peer.debts() for peer in table.peers] == [[], [], []]
    assert all(peer.is_public(9) and not peer.is_public(8) for peer in table.peers)
