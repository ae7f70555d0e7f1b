"""Play again (issue 27): the agreement that starts the next game of a series, in memory through
the protocol core (``p2p/protocol/rematch.py``), with the attacks on it: two statements offered
to two peers, a forged previous-table reference, a replayed old acceptance, a seat put in
without its "yes"."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Sequence

import pytest

from lancards.engine.core import RulesError
from lancards.p2p.protocol.errors import LocalProtocolError, Reason, RemoteProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.schemas import conform
from lancards.p2p.protocol.series import check_answer, sign_answer
from lancards.p2p.protocol.series_schemas import RematchAnswer
from lancards.p2p.protocol.statement import (
    sign_statement,
    verify_started,
)
from lancards.p2p.protocol.table import Outgoing, start_local
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import identities, make_cores

HEAD = hashlib.sha256(b"the last entry").hexdigest()
TABLES = iter(f"{i:016x}" for i in range(0xA0, 0x1000))


class Bus:
    """Delivers every Outgoing through the real envelope codec; keeps each refusal."""

    def __init__(self, peers: Sequence[Rematch]) -> None:
        self.peers = {p.me.public_key: p for p in peers}
        self.queue: list[tuple[bytes, bytes, bytes]] = []
        self.refused: dict[bytes, list[RemoteProtocolError]] = {k: [] for k in self.peers}
        self.drop: Callable[[bytes, bytes, bytes], bool] = lambda s, t, d: False
        self.mute: set[bytes] = set()
        """Peers whose answers are not sent (a hostile one sends by hand)."""

    def post(self, sender: bytes, outs: Sequence[Outgoing]) -> None:
        for out in outs:
            for to in out.to:
                self.queue.append((sender, to, out.envelope.encode()))

    def run(self) -> None:
        while self.queue:
            sender, to, data = self.queue.pop(0)
            if to not in self.peers or self.drop(sender, to, data):
                continue
            try:
                outs = self.peers[to].receive_bytes(sender, data)
                if to not in self.mute:
                    self.post(to, outs)
            except RemoteProtocolError as exc:
                self.refused[to].append(exc)


def finished(people: Sequence[Identity], game: str, *, winners: tuple[int, ...] = (1,),
             first_dealer: int | None = None, options: dict[str, object] | None = None,
             table: str | None = None) -> Finished:
    started = start_local(people, game, options or {}, table=table or next(TABLES))
    n = len(started.seats)
    return Finished(started, HEAD, winners, tuple(10 * (s + 1) for s in range(n)), first_dealer)


def peers(people: Sequence[Identity], done: Finished) -> list[Rematch]:
    return [Rematch(p, done, new_table=lambda: next(TABLES)) for p in people]


def all_answer(bus: Bus, rematches: Sequence[Rematch], yes: Sequence[bool]) -> None:
    for r, y in zip(rematches, yes, strict=True):
        bus.post(r.me.public_key, r.answer(y))
    bus.run()


def test_all_accept_and_every_peer_starts_the_same_next_game_dealt_by_the_winner() -> None:
    people = identities(3)
    done = finished(people, "eights", winners=(2,))
    rematches = peers(people, done)
    bus = Bus(rematches)
    all_answer(bus, rematches, [True, True, True])
    assert all(r.started is not None for r in rematches)
    tables = {r.started.statement["tbl"] for r in rematches if r.started}
    assert len(tables) == 1 and done.table.spec.table not in tables
    nxt = rematches[0].started
    assert nxt is not None
    winner = done.table.seats[2].public_key
    # 8s Rule! "the winner of the game deals Round 1 in the next game" (ruling E-2)
    assert nxt.seats[int(nxt.spec.options["first_dealer"])].public_key == winner
    follows = nxt.statement["follows"]
    assert (follows["tbl"], follows["head"], follows["series"], follows["game"]) == (
        done.table.spec.table, HEAD, done.table.spec.table, 2)
    # the same players keep their places: the seats ordered by the series id
    assert [m.public_key for m in nxt.seats] == [m.public_key for m in done.table.seats]
    assert [(t["nick"], t["won"], t["score"]) for t in follows["totals"]] == [
        (m.nick, 1 if i == 2 else 0, 10 * (i + 1)) for i, m in enumerate(done.table.seats)]
    assert not any(bus.refused.values())
    # the record of the rematch verifies alone: every seat's signed "yes" is in its statement
    assert verify_started(nxt.statement, nxt.sigs, "audit").statement == nxt.statement


def test_level8_the_player_left_of_the_last_first_dealer_deals_and_a_third_game_adds_up() -> None:
    people = identities(3)
    done = finished(people, "level8", winners=(0,), first_dealer=2)
    rematches = peers(people, done)
    bus = Bus(rematches)
    all_answer(bus, rematches, [True, True, True])
    nxt = rematches[1].started
    assert nxt is not None
    assert nxt.spec.options["dealer"] == 0  # left of seat 2 is seat 0 (ruling L8-17)
    # the third game: its predecessor's totals carried on
    third = Finished(nxt, hashlib.sha256(b"second").hexdigest(), (0,), (9, 4, 5), 0)
    rematches = peers(people, third)
    bus = Bus(rematches)
    all_answer(bus, rematches, [True, True, True])
    last = rematches[2].started
    assert last is not None
    follows = last.statement["follows"]
    assert (follows["game"], follows["series"], follows["tbl"]) == (
        3, done.table.spec.table, nxt.spec.table)
    assert [(t["won"], t["score"]) for t in follows["totals"]] == [(2, 19), (0, 24), (0, 35)]
    assert last.spec.options["dealer"] == 1


def test_a_player_who_declines_is_named_and_the_others_go_on_without_them() -> None:
    people = identities(4)
    done = finished(people, "eights", winners=(3,))
    rematches = peers(people, done)
    bus = Bus(rematches)
    quitter = done.table.seats[3].public_key  # the winner declines: the deal passes on
    order = {r.me.public_key: r for r in rematches}
    for r in rematches:
        bus.post(r.me.public_key, r.answer(r.me.public_key != quitter))
    bus.run()
    stay = [r for r in rematches if r.me.public_key != quitter]
    assert all(r.declined() == (quitter,) for r in stay)
    assert all(r.started is None for r in rematches)
    assert {r.me.public_key for r in stay} == set(stay[0].undecided())  # each to say "go on"
    for r in stay:
        bus.post(r.me.public_key, r.answer(True))  # "go on without them"
    bus.run()
    nxt = stay[0].started
    assert nxt is not None and all(r.started == nxt for r in stay)
    assert order[quitter].started is None
    assert [m.public_key for m in nxt.seats] == [m.public_key for m in done.table.seats[:3]]
    assert nxt.spec.options["first_dealer"] == 0  # left of the winner, who left
    assert not any(bus.refused.values())


def test_too_few_left_after_a_decline_stops_the_series() -> None:
    people = identities(3)
    done = finished(people, "eights")
    rematches = peers(people, done)
    bus = Bus(rematches)
    all_answer(bus, rematches, [True, False, True])
    for r in (rematches[0], rematches[2]):
        bus.post(r.me.public_key, r.answer(True))
    bus.run()
    assert [r.failed for r in (rematches[0], rematches[2])] == [
        "too few players to go on: 2 of the at least 3 eights needs"] * 2
    with pytest.raises(LocalProtocolError, match="said no"):
        rematches[1].answer(True)


# -- attacks ------------------------------------------------------------------------------------


def _hostile_proposer(n: int = 3) -> tuple[Finished, Bus, list[Rematch]]:
    """A finished table whose proposer (the first seat) is hostile: every honest player said
    "yes"; the hostile one signed its "yes" and sent it, and builds statements by hand."""
    people = identities(n)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    evil = rematches[0]
    raw = sign_answer(evil.me, done.table.spec.table, HEAD, True)
    evil.answers[evil.me.public_key] = (check_answer(raw, "self"), raw)
    bus.post(evil.me.public_key, [evil._out(evil._others(evil.present), "rematch.answer",
                                            {"answer": raw})])
    for r in rematches[1:]:
        bus.post(r.me.public_key, r.answer(True))
    bus.mute.add(evil.me.public_key)  # the hostile peer sends by hand
    bus.run()
    return done, bus, rematches


def _offer(bus: Bus, evil: Rematch, statement: dict, to: Rematch) -> None:
    sig = sign_statement(evil.me, statement).hex()
    bus.post(evil.me.public_key, [Outgoing((to.me.public_key,), evil._out(
        (), "rematch.sign", {"statement": statement, "sigs": {evil.me.public_key.hex(): sig}}
    ).envelope)])


def test_a_proposer_offering_two_statements_to_two_peers_is_named_by_both() -> None:
    _, bus, (evil, p1, p2) = _hostile_proposer()
    _offer(bus, evil, evil.expected("00000000000000f1"), p1)
    _offer(bus, evil, evil.expected("00000000000000f2"), p2)
    bus.run()
    evil_name = evil.name(evil.me.public_key)
    for peer in (p1, p2):
        assert peer.started is None
        assert peer.failed == f"{evil_name} offered two different statements for the next game"
        [refusal] = bus.refused[peer.me.public_key]
        assert (refusal.reason, refusal.sender) == (Reason.EQUIVOCATION, evil_name)
    assert "tables 00000000000000f1 and 00000000000000f2" in str(bus.refused[p1.me.public_key][0])


def test_a_forged_previous_table_reference_is_refused_naming_the_proposer() -> None:
    done, bus, (evil, p1, _) = _hostile_proposer()
    statement = copy.deepcopy(evil.expected("00000000000000f3"))
    statement["follows"]["head"] = "ee" * 32
    _offer(bus, evil, statement, p1)
    bus.run()
    [refusal] = bus.refused[p1.me.public_key]
    assert (refusal.reason, refusal.sender) == (Reason.WRONG_TABLE, evil.name(evil.me.public_key))
    assert str(refusal).endswith(
        f"the statement follows table {done.table.spec.table} (entry eeeeeeeeeeee), not the game "
        f"that ended here ({done.table.spec.table}, entry {HEAD[:12]})")
    assert p1.statement is None and p1.started is None and not p1.signed


def test_a_replayed_old_acceptance_is_refused_naming_who_delivered_it_and_whose_it_was() -> None:
    people = identities(3)
    old = finished(people, "eights")
    _, bus, (evil, p1, p2) = _hostile_proposer()
    p2_old = sign_answer(p2.me, old.table.spec.table, HEAD, True)  # p2's "yes" to another game
    # passed on by another peer (6.1, "Answers"): it is about another game, and the peer that
    # passed it on is named
    bus.post(evil.me.public_key, [Outgoing((p1.me.public_key,), evil._out(
        (), "rematch.answer", {"answer": p2_old}).envelope)])
    # sent again by its own signer: it is about another game
    bus.post(p2.me.public_key, [Outgoing((p1.me.public_key,), p2._out(
        (), "rematch.answer", {"answer": p2_old}).envelope)])
    # put into a statement in place of p2's answer to this game
    statement = copy.deepcopy(evil.expected("00000000000000f4"))
    statement["follows"]["accepts"][2] = p2_old
    _offer(bus, evil, statement, p1)
    bus.run()
    relayed, replayed, inside = bus.refused[p1.me.public_key]
    assert (relayed.reason, relayed.sender) == (Reason.WRONG_TABLE, evil.name(evil.me.public_key))
    assert str(relayed).endswith(
        f"the answer of {p1.name(p2.me.public_key)} is about table {old.table.spec.table} "
        f"(entry {HEAD[:12]}), not the game that ended here")
    assert (replayed.reason, replayed.sender) == (Reason.WRONG_TABLE, p1.name(p2.me.public_key))
    assert (inside.reason, inside.sender) == (Reason.WRONG_TABLE, evil.name(evil.me.public_key))
    assert str(inside).endswith(
        f"the answer of {p1.name(p2.me.public_key)} is about table {old.table.spec.table} "
        f"(entry {HEAD[:12]}), not the game that ended here")
    assert p1.statement is None and p1.answers[p2.me.public_key][1]["tbl"] != old.table.spec.table


def test_a_player_put_in_without_its_yes_is_refused_and_a_signed_no_cannot_be_seated() -> None:
    done, bus, (evil, p1, p2, p3) = _hostile_proposer(4)
    bus.post(p3.me.public_key, p3.answer(False))  # p3 stops
    bus.run()
    # evil seats p3 anyway, with a "yes" it made up under p3's key
    forged = {**sign_answer(evil.me, done.table.spec.table, HEAD, True),
              "by": p3.me.public_key.hex()}
    evil.answers[p3.me.public_key] = (conform(forged, RematchAnswer, "x", "x"), forged)
    statement = evil.expected("00000000000000f6")
    assert [a["by"] for a in statement["follows"]["accepts"]][3] == p3.me.public_key.hex()
    _offer(bus, evil, statement, p1)
    bus.run()
    [refusal] = bus.refused[p1.me.public_key]
    assert (refusal.reason, refusal.sender) == (Reason.BAD_SIGNATURE,
                                                evil.name(evil.me.public_key))
    assert str(refusal).endswith(f"the answer of {p1.name(p3.me.public_key)} is not its "
                                 "signature")
    assert p1.statement is None
    # the auditor of a record alone refuses a statement that seats a "no"
    statement = copy.deepcopy(statement)
    statement["follows"]["accepts"][3] = sign_answer(p3.me, done.table.spec.table, HEAD, False)
    sigs = {r.me.public_key.hex(): sign_statement(r.me, statement).hex()
            for r in (evil, p1, p2, p3)}
    with pytest.raises(RemoteProtocolError) as caught:
        verify_started(statement, sigs, "record file")
    assert caught.value.reason == Reason.MALFORMED
    assert str(caught.value).endswith(f"{p1.name(p3.me.public_key)} declined; it cannot be "
                                      "seated")


@pytest.mark.parametrize("dealer", [0, 2])
def test_level8_a_table_option_dealer_names_the_first_dealer_on_every_peer(dealer: int) -> None:
    """The statement's ``dealer`` replaces the joint random draw (ruling L8-17): every peer's
    engine has that dealer for round 1, and an option that is no seat is refused."""
    cores, net = make_cores(3, "level8", options={"dealer": dealer})
    net.start()
    while net.queue and any(c.first_dealer is None for c in cores):
        net.step()
    assert [(c.first_dealer, c.state.dealer, c.state.round) for c in cores] == [
        (dealer, dealer, 1)] * 3
    assert cores[0].table.statement["options"]["dealer"] == dealer


def test_the_dealer_option_is_checked_by_every_peer() -> None:
    with pytest.raises(RulesError, match="first_dealer, not dealer"):
        start_local(identities(3), "eights", {"dealer": 1})
    table = start_local(identities(2), "level8", {"dealer": 1})
    statement = {**table.statement, "options": {**table.statement["options"], "dealer": 2}}
    sigs = {m.public_key.hex(): sign_statement(p, statement).hex()
            for m, p in zip(table.seats, sorted(identities(2), key=lambda p: [
                m.public_key for m in table.seats].index(p.public_key)), strict=True)}
    with pytest.raises(RemoteProtocolError, match="the first dealer 2 is no seat"):
        verify_started(statement, sigs, "peer")


def test_a_game_core_refuses_rematch_messages_mid_game_naming_their_sender() -> None:
    """The adversary's ``rematch`` move, once: a "yes" to the next game in the middle of this
    one reaches the game core, which refuses it (``unknown-type``) and goes on."""
    cores, _ = make_cores(3, "level8")
    hostile, victim = cores[0], cores[1]
    answer = sign_answer(hostile.me, hostile.table_id, hostile.record.head, True)
    data = sign_envelope(hostile.me, "rematch.answer", hostile.table_id, 10**6,
                         {"answer": answer}).encode()
    [notice] = [o for o in victim.receive(hostile.me.public_key, data)
                if type(o).__name__ == "Notice"]
    assert (notice.kind, notice.seat) == ("rejected", hostile.seat)
    assert "unknown-type" in notice.text and not victim.halted


def test_after_a_shared_8s_rule_win_the_next_game_cuts_for_its_dealer() -> None:
    people = identities(4)
    done = finished(people, "eights", winners=(0, 2))
    rematches = peers(people, done)
    bus = Bus(rematches)
    all_answer(bus, rematches, [True] * 4)
    nxt = rematches[3].started
    assert nxt is not None and nxt.spec.options["first_dealer"] == -1  # the high cut (E-2)
