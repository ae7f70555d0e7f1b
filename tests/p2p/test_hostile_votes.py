"""Issue 23 (a hostile peer, round two): votes that cannot be split or left hanging, leaves that
keep proofs and secrets. Situations 3, 6, 7, 8 and 10, each its own test: who is named (never an
honest peer) and what each honest peer sees.

In memory through :class:`GameCore` (``core_harness``: every message through the real codec);
the removal policy a node follows (:class:`lancards.p2p.protocol.removal.RemovalPolicy`) is driven
here with a test clock and each peer's own view of its links.
"""

from __future__ import annotations

from typing import Any

import pytest

from lancards.p2p.net.node import game_bot
from lancards.p2p.protocol.audit import audit_lines
from lancards.p2p.protocol.core import Notice, Send
from lancards.p2p.protocol.removal import RemovalPolicy
from tests.p2p.core_harness import Network, make_cores
from tests.p2p.public_cards import public_cards
from tests.p2p.test_leave import LeaveGame, check_finished


def named(notices: list[Notice]) -> set[int]:
    """The seats a peer's notices name as a cheater or as the sender of a refused message."""
    return {n.seat for n in notices if n.kind in ("cheat", "rejected") and n.seat is not None}


# 10. An abandoned round's hidden cards stay closed after a later leave -------------------------


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("plan", "seed"), [(["mid-trick", "shuffle"], "trick"),
                                            (["mid-trick", "turn"], "t2")])
def test_10_a_later_leave_opens_no_card_of_an_abandoned_round(plan: list[str],
                                                              seed: str) -> None:
    """8s Rule!: a leave mid-trick abandons the round (ruling D-1: its hidden cards are never
    opened) and it is dealt again; then a second seat leaves (during the new round's shuffle,
    or at its turn). The second leave publishes no share of the abandoned round's cards (they
    are out of play: ``Departure._hand``), so the batches its openings forwarded in that round
    stay incomplete: no card the game never opened decrypts from the public record (before
    the fix 14 of the second leaver's cards did)."""
    cores, net = make_cores(4, "eights", seed=seed)
    net.bots.clear()  # the test drives the bots (a leaver's never moves by itself)
    game = LeaveGame(cores, net, list(plan), patience=400)
    game.run()
    assert game.hit == plan
    found = check_finished(game, 2)  # every peer one record, audit ok, no hand opened
    assert public_cards(cores[0]) == {}
    assert [seat for _, seat, _ in found] == list(cores[0].left_seats())
    report = audit_lines(cores[0].record.to_lines())
    assert report.status == "ok", report.error


# 8. A leave that abandons a shuffle epoch keeps its unchecked proofs ----------------------------


def _bad_shuffle_then_leave(seed: str, colluding_leaver: bool) -> tuple[list, Network]:
    """Level 8, 4 peers, the first shuffle epoch: seat 1's shuffle swaps two of its outputs
    (its proof of shuffle fails) and seat 2, due next, leaves instead of shuffling, which
    abandons the epoch. Seat 0 checks the proof while idle before the leave reaches it; seat 3
    does not. ``colluding_leaver``: seat 2 leaves without checking its proofs, and the relay
    of seat 0's finding is lost, so seat 3 can only find the bad proof itself."""
    cores, net = make_cores(4, "level8", seed=seed)
    net.bots.clear()
    hostile, leaver, idle, busy = cores[1], cores[2], cores[0], cores[3]
    honest_shuffle = hostile.deck.make_shuffle

    def bad_shuffle() -> dict:
        message = honest_shuffle()
        outputs = message["outputs"]
        outputs[0], outputs[1] = outputs[1], outputs[0]
        return message

    hostile.deck.make_shuffle = bad_shuffle  # type: ignore[method-assign]
    if colluding_leaver:
        leaver._verify_deferred = lambda limit: None  # type: ignore[method-assign]
        net.tamper = lambda sender, to, data: None if b'"record.check"' in data else data
    net.start()
    while len(leaver.record) < 8:  # the joint key
        net.step()
    net.post(leaver.me.public_key, leaver.leave())
    while len(busy.record) < 10:  # seat 0's and seat 1's shuffles, unchecked
        net.step()
    assert busy.deck.deferred_proofs == 2 and idle.deck.deferred_proofs >= 1
    net.post(idle.me.public_key, idle.verify_deferred(None))  # idle: checks, halts
    assert idle.cheaters.keys() == {1}
    net.run()
    return cores, net


@pytest.mark.timeout(120)
@pytest.mark.parametrize("colluding_leaver", [False, True])
def test_8_a_leave_after_a_bad_proof_of_shuffle_names_the_prover_everywhere(
        colluding_leaver: bool) -> None:
    cores, net = _bad_shuffle_then_leave(f"bad-proof-{colluding_leaver}", colluding_leaver)
    honest = [cores[0], cores[3]] + ([] if colluding_leaver else [cores[2]])
    for core in honest:
        assert core.halted is not None and core.cheaters.keys() == {1}, core.seat
        cheats = [n for n in net.notices[core.me.public_key] if n.kind == "cheat"]
        assert [n.seat for n in cheats] == [1]
        assert "shuffle" in cheats[0].text and cheats[0].evidence["entry"]["seq"] == 9
        assert named(net.notices[core.me.public_key]) == {1}  # nobody honest is named
    # the leave was never taken: nobody went on to shuffle again without seat 1's proof
    for core in honest:
        assert len(core.record) == 10 and core.deck.present == (0, 1, 2, 3)
    if not colluding_leaver:
        assert not cores[2].has_left(2) and cores[2].leaving  # it never sent its leave


# The vote's state machine (3, 6, 7): a table of 4 with rescue, links that fail ----------------


class Links:
    """The in-memory network with links that fail: a message over a down link is lost, as
    on a dropped connection; each peer's removal policy reads its own links and a test
    clock."""

    def __init__(self, seed: str) -> None:
        self.cores, self.net = make_cores(4, "level8", seed=seed,
                                          options={"rescue": "on", "patience": 10})
        self.down: set[frozenset[bytes]] = set()
        self.net.tamper = lambda s, t, d: None if frozenset((s, t)) in self.down else d
        self.now = 0.0
        self.policies = {c.seat: RemovalPolicy(10.0) for c in self.cores}

    def key(self, seat: int) -> bytes:
        return self.cores[seat].me.public_key

    def cut(self, a: int, b: int) -> None:
        self.down.add(frozenset((self.key(a), self.key(b))))

    def mend(self, a: int, b: int) -> None:
        """The link is back: each side sends what a link-up sends (record.sync, votes)."""
        self.down.discard(frozenset((self.key(a), self.key(b))))
        self.net.post(self.key(a), self.cores[a].peer_connected(self.key(b)))
        self.net.post(self.key(b), self.cores[b].peer_connected(self.key(a)))

    def up(self, me: int) -> set[int]:
        return {c.seat for c in self.cores
                if c.seat != me and frozenset((self.key(me), c.me.public_key)) not in self.down}

    def tick(self, seconds: float) -> None:
        """Time passes; every peer says the "no"s its policy calls for; messages flow."""
        self.now += seconds
        for core in self.cores:
            mine = self.up(core.seat)
            for seat in self.policies[core.seat].withdrawals(core, mine.__contains__, self.now):
                self.net.post(core.me.public_key, core.withdraw_vote(seat))
        self.net.run()

    def play_to(self, length: int) -> None:
        for core in self.cores:
            self.net.play_bot(core.me.public_key)
        while self.net.queue and min(len(c.record) for c in self.cores) < length:
            self.net.step()

    def finish(self) -> None:
        """Play the game to its end and check it: one record everywhere, audited ok, nobody
        named, nobody removed."""
        self.net.run()
        first = self.cores[0]
        entries = [e.to_dict() for e in first.record.entries]
        for core in self.cores:
            assert core.halted is None and not core.cheaters, (core.seat, core.halted)
            assert [e.to_dict() for e in core.record.entries] == entries, core.seat
            assert named(self.net.notices[core.me.public_key]) == set(), core.seat
            assert core.deck.present == (0, 1, 2, 3)
        assert first.game.outcome(first.state) is not None, "the game did not finish"
        assert "rescue" not in {e["payload"]["t"] for e in entries}
        report = audit_lines(first.record.to_lines())
        assert report.status == "ok", report.error


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("holder", "vanished"), [
    (1, 3), pytest.param(0, 2, marks=pytest.mark.long)])  # the rescuer holds: LANCARDS_LONG=1
def test_3_a_link_failure_is_no_reason_and_a_vote_does_not_bind_for_good(
        holder: int, vanished: int) -> None:
    """The link between two honest peers fails beyond the patience: the holder, whose move
    waits for the other's private shares, votes to remove it. Every other peer is still
    connected to that seat, so it says "no"; the round's rescuer (seat 0: another peer, or
    the holder itself) voids the round, and the holder is free. When the link is back the
    shares arrive, the holder moves, and the game plays to its end: nobody named, nobody
    removed (before: the holder was bound by its vote for good and the table stalled)."""
    links = Links(f"link-{holder}")
    links.net.start()
    links.play_to(30)
    links.cut(holder, vanished)
    links.net.run()
    h = links.cores[holder]
    assert vanished in {w.seat for w in h.waiting_for()}
    at = len(h.record)
    net_notices = links.net.notices
    links.net.post(h.me.public_key, h.vote_remove(vanished))  # after the patience, at h
    links.net.run()
    assert h.bound() == (vanished, 0)
    for core in links.cores:  # the vote reached everyone (relayed round the failed link)
        if core.seat != vanished:
            assert core.votes_for(vanished) == (holder,) or core.is_void(
                (vanished, at, h.record.head, 0)), core.seat
    links.tick(1.0)  # the others are connected to the seat: "no"; the rescuer voids it
    for core in links.cores:
        assert (core.bound() is None and core.is_void((vanished, at, core.record.head, 0))) \
            or core.seat == vanished
    assert len(h.record) == at
    assert any("is void" in n.text for n in net_notices[h.me.public_key])
    links.mend(holder, vanished)
    links.finish()


@pytest.mark.timeout(300)
def test_6_a_vote_sent_to_one_peer_then_a_move_names_nobody_and_the_game_goes_on() -> None:
    """Seat 1 (hostile) signs "remove seat 2" and sends it to seat 0 only, then makes its move
    anyway. A vote is never evidence against its signer (a voter may be released by a "no"
    not seen yet), so seat 0 neither names nor halts: it relays the vote, and every peer takes
    the move (none of them voted). Before: seat 0 named seat 1 and halted, its program ended,
    and the others could vote the honest seat 0 out and play on with the cheater."""
    links = Links("one-peer")
    links.net.start()
    links.play_to(30)
    for core in links.cores:  # the test moves seat 1 itself
        links.net.bots.pop(core) if core.seat == 1 else None
    links.net.run()
    hostile = links.cores[1]
    while hostile.to_act() != 1 or not hostile.legal_actions():
        links.net.bots[hostile] = lambda legal: legal[0]
        links.net.play_bot(hostile.me.public_key)
        links.net.bots.pop(hostile)
        links.net.run()
    at = len(hostile.record)
    outputs = hostile.vote_remove(2)
    vote = next(o for o in outputs if isinstance(o, Send) and b'"record.vote"' in o.data)
    links.net.queue.append((hostile.me.public_key, links.key(0), vote.data))  # seat 0 only
    hostile._votes.clear()  # its hostile program forgets the vote, and moves
    links.net.bots[hostile] = game_bot(hostile)
    links.net.play_bot(hostile.me.public_key)
    links.net.run(limit=links.net.delivered + 200)
    for core in links.cores:
        assert len(core.record) > at and core.halted is None, core.seat
    assert links.cores[3].votes_for(2) == () and len(links.cores[3].record) > at
    links.finish()


@pytest.mark.timeout(300)
def test_7_a_seat_that_comes_back_after_one_vote_stalls_nothing() -> None:
    """Seat 2 goes silent (every link down) while the table waits for it; seat 1 signs a vote
    against it; seat 2 comes back with its entry. Seat 1, bound, keeps the entry without
    naming anyone; the others take it. Seat 2 is connected to seat 1 again, so seat 1 says
    "no"; the rescuer (seat 0, already past that position) voids the round, seat 1 takes the
    kept entry and the game plays to its end (before: the table stalled within two entries,
    nobody named, and seat 2 could no longer be removed)."""
    links, _rescuer, _at, _head = seat_vanished("comes-back", 2)
    waits = {w.seat for c in links.cores if c.seat != 2 for w in c.waiting_for()}
    assert 2 in waits
    voter = links.cores[1]
    at = len(voter.record)
    links.net.post(voter.me.public_key, voter.vote_remove(2))
    links.net.run()
    assert voter.bound() == (2, 0) and links.cores[0].votes_for(2) == (1,)
    for other in (0, 1, 3):
        links.mend(2, other)
    links.net.run()
    assert len(links.cores[0].record) > at  # the others took seat 2's entry
    rejected = [n for n in links.net.notices[voter.me.public_key] if n.kind == "rejected"]
    assert rejected and all(n.seat is None for n in rejected)
    links.tick(1.0)  # seat 2 is connected to seat 1: "no"; seat 0 voids the round
    assert voter.bound() is None and len(voter.record) > at
    links.finish()


@pytest.mark.timeout(300)
def test_a_rescuer_that_voids_a_round_and_begins_the_removal_with_it_is_named_everywhere() -> None:
    """Seat 3 vanishes; seats 1, 2 and the rescuer (seat 0, the lowest other seat) vote to
    remove it. The hostile rescuer appends its first rescue entry of round 0, holds it back,
    signs the void of that very round and sends the void to seat 1 only, then sends the rescue
    entry to both. Seat 1 voids the round and relays the void, so both honest seats hold the
    rescuer's two signatures (its void and its rescue entry of round 0) and name it; nobody
    else is named and nobody is removed (docs/protocol.md 11.10, invariant 1)."""
    import json

    from lancards.p2p.protocol.votes import sign_withdrawal
    from lancards.p2p.protocol.wire import sign_envelope

    links, rescuer, at, head = seat_vanished()
    held: list[bytes] = []

    def hold_entries(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        if frozenset((sender, to)) in links.down:
            return None
        if sender == links.key(0) and b'"record.entry"' in data:
            held.append(data)
            return None
        return data

    links.net.tamper = hold_entries
    for seat in (1, 2, 0):
        links.net.post(links.key(seat), links.cores[seat].vote_remove(3))
        links.net.run()
    assert rescuer.record.entries[at].payload["t"] == "rescue"  # it began round 0 ...
    assert len(links.cores[1].record) == len(links.cores[2].record) == at
    unvote = sign_withdrawal(rescuer.me, rescuer.table_id, 3, at, head, 0)  # ... and voids it
    seq = rescuer.next_envelope_seq + 1000  # the hostile program numbers its own envelopes
    envelope = sign_envelope(rescuer.me, "record.unvote", rescuer.table_id, seq,
                             {"unvote": unvote})
    links.net.queue.append((links.key(0), links.key(1), envelope.encode()))
    links.net.run()
    assert links.cores[1].is_void((3, at, head, 0)) and links.cores[2].is_void((3, at, head, 0))
    links.net.tamper = lambda s, t, d: None if frozenset((s, t)) in links.down else d
    body = json.loads(held[0])["body"]
    for to in (1, 2):  # the rescue entry, sent after its void (fresh envelope numbers)
        seq += 1
        again = sign_envelope(rescuer.me, "record.entry", rescuer.table_id, seq, body)
        links.net.queue.append((links.key(0), links.key(to), again.encode()))
    links.net.run()
    for seat in (1, 2):
        core = links.cores[seat]
        assert core.halted is not None and core.cheaters.keys() == {0}, seat
        cheats = [n for n in links.net.notices[core.me.public_key] if n.kind == "cheat"]
        assert cheats and {n.seat for n in cheats} == {0}
        assert named(links.net.notices[core.me.public_key]) == {0}
        assert len(core.record) == at and core.deck.present == (0, 1, 2, 3)



@pytest.mark.timeout(300)
def test_a_rescuer_that_voids_the_round_it_began_is_named_with_the_entry_counted_from_1(
        ) -> None:
    """As above, but the rescue entry reaches both honest seats before its void: each names
    the rescuer with the place of the removal counted from 1 (it said ``at entry 37`` of the
    38th, the record's own number)."""
    from lancards.p2p.protocol.votes import sign_withdrawal
    from lancards.p2p.protocol.wire import sign_envelope

    links, rescuer, at, head = seat_vanished()
    for seat in (1, 2, 0):
        links.net.post(links.key(seat), links.cores[seat].vote_remove(3))
        links.net.run()
    assert [c.record.entries[at].payload["t"] for c in links.cores[:3]] == ["rescue"] * 3
    unvote = sign_withdrawal(rescuer.me, rescuer.table_id, 3, at, head, 0)
    envelope = sign_envelope(rescuer.me, "record.unvote", rescuer.table_id,
                             rescuer.next_envelope_seq + 1000, {"unvote": unvote})
    links.net.queue.append((links.key(0), links.key(1), envelope.encode()))
    links.net.run()
    for seat in (1, 2):
        core = links.cores[seat]
        cheats = [n.text for n in links.net.notices[core.me.public_key] if n.kind == "cheat"]
        assert cheats == [f"{core.name(0)} voided round 0 of the removal of seat 4 at entry "
                          f"{at + 1}, then began it there (its withdrawal and its rescue entry "
                          "are the evidence)"], seat


def test_the_seat_voted_against_has_no_say_and_its_policy_never_raises() -> None:
    """A live round to remove seat 2 as seat 2 itself sees it (the adversary campaign made
    one: a hostile seat's vote against it): its removal policy, as a node runs it, says no
    about every other seat's round but never about its own, so the node never asks its core
    to refuse its own removal (``withdraw_vote`` raises for it: a LocalProtocolError out of
    ``PeerNode.run``). The others' no's void such a round (situation 3)."""
    from types import SimpleNamespace

    class Record:
        head = "ab" * 32

        def __len__(self) -> int:
            return 40

    core = SimpleNamespace(has_say=True, removing=None, halted=None, seat=2,
                           record=Record(), withdrew=lambda seat: False,
                           live_rounds=lambda: {1: (0, (0,)), 2: (0, (1,))})
    policy = RemovalPolicy(10.0)
    assert policy.withdrawals(core, lambda seat: True, 0.0) == [1]  # type: ignore[arg-type]
    assert policy.withdrawals(core, lambda seat: False, 11.0) == [1]  # type: ignore[arg-type]


@pytest.mark.timeout(300)
def test_a_vote_against_a_connected_seat_is_told_once_with_its_voter() -> None:
    """The LAN trial with a seated attacker: eve voted to remove cyd and ann, both connected;
    the rounds were voided and neither saw that eve tried. Here seat 3 signs "remove seat 2"
    while everyone is connected: every other peer says no, the rescuer voids the round, and
    each of seats 0, 1 and 2 gets one ``vote-void`` notice naming seat 2 with its voter, seat 3
    (the screen's line: ``cli/notice_lines.py``); the same vote sent again adds none."""
    from lancards.p2p.protocol.votes import sign_vote
    from lancards.p2p.protocol.wire import sign_envelope

    links = Links("eve-votes")
    links.net.start()
    links.play_to(30)
    links.net.bots.clear()  # the table waits: nobody moves while the vote goes round
    links.net.run()
    hostile = links.cores[3]
    at, head = len(hostile.record), hostile.record.head
    vote = sign_vote(hostile.me, hostile.table_id, 2, at, head, 0)
    seq = hostile.next_envelope_seq + 1000

    def send_vote() -> None:
        nonlocal seq
        seq += 1
        envelope = sign_envelope(hostile.me, "record.vote", hostile.table_id, seq,
                                 {"vote": vote}).encode()
        for to in (0, 1, 2):
            links.net.queue.append((links.key(3), links.key(to), envelope))
        links.net.run()

    send_vote()
    links.tick(1.0)  # seat 2 is connected to all: "no"; the rescuer (seat 0) voids the round
    send_vote()  # the same attempt again: answered with the void, told no more
    links.tick(1.0)
    for seat in (0, 1, 2):
        core = links.cores[seat]
        assert core.is_void((2, at, head, 0)) and core.bound() is None, seat
        void = [n for n in links.net.notices[core.me.public_key] if n.code == "vote-void"]
        assert [(n.seat, n.voters) for n in void] == [(2, (3,))], seat


def seat_vanished(kind: str = "liar", seat: int = 3) -> tuple[Links, Any, int, str]:
    """A four-seat table whose hostile seat plays ``kind``, played to move 30, whose ``seat``
    is then cut from the others: the links, the rescuer (seat 0's core), its record's length
    and head."""
    links = Links(kind)
    links.net.start()
    links.play_to(30)
    for other in range(4):
        if other != seat:
            links.cut(seat, other)
    links.net.run()
    rescuer = links.cores[0]
    return links, rescuer, len(rescuer.record), rescuer.record.head
