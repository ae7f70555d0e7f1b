"""Another game with the same players at a host/join table (the games night;
``docs/protocol.md`` 6.1, "Another game"): each "yes" may name the rule set it agrees to, the
next game is built only when every "yes" names the same one (the first game of a new series,
its default options, the players in their places), and the attacks on it: an answer for a game
that does not fit, an unknown game, two answers with two games, a statement with another game
than the answers chose."""

from __future__ import annotations

import copy

import pytest

from lancards.cli.peer_errors import rejection_words
from lancards.p2p.protocol.errors import LocalProtocolError, Reason, RemoteProtocolError
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.series import (
    ANSWER_TAG,
    answer_bytes,
    check_answer,
    check_follows,
    sign_answer,
)
from lancards.p2p.protocol.statement import verify_started
from lancards.p2p.protocol.table import Outgoing
from lancards.p2p.protocol.wire import canonical
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import HEAD, TABLES, Bus, _offer, finished, peers
from tests.p2p.test_rematch_journal import Table, _table


def _seated(n: int, game: str = "level8-master", **kw: object) -> tuple[Finished, list[Rematch]]:
    """A finished table of ``n`` players and their agreements, in the table's seat order."""
    people = identities(n)
    done = finished(people, game, first_dealer=0, **kw)  # type: ignore[arg-type]
    order = [m.public_key for m in done.table.seats]
    return done, peers(sorted(people, key=lambda p: order.index(p.public_key)), done)


def _send(bus: Bus, by: Rematch, answer: dict, to: Rematch) -> None:
    """``by`` sends ``answer`` (signed by hand) to ``to`` alone."""
    bus.post(by.me.public_key, [Outgoing((to.me.public_key,), by._out(
        (), "rematch.answer", {"answer": answer}).envelope)])


def test_every_yes_naming_8s_rule_starts_its_first_game_with_the_players_in_their_places() -> None:
    done, rematches = _seated(3)
    bus = Bus(rematches)
    for r in rematches:
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    assert not any(bus.refused.values())
    tables = {r.started.spec.table for r in rematches if r.started is not None}
    assert len(tables) == 1 and all(r.started is not None for r in rematches)
    nxt = rematches[2].started
    assert nxt is not None
    new = nxt.spec.table
    # the rule set's defaults (no first dealer: drawn), its own range of players
    assert (nxt.spec.game, nxt.spec.options) == (
        "eights", {"partners": False, "objectives": "", "first_dealer": -1})
    assert (nxt.spec.min_seats, nxt.spec.max_seats) == (3, 6)
    follows = nxt.statement["follows"]
    assert (follows["tbl"], follows["series"], follows["game"], follows["totals"],
            follows["seating"]) == (done.table.spec.table, new, 1, [], done.table.spec.table)
    assert [a["game"] for a in follows["accepts"]] == ["eights"] * 3
    # the players keep their places round the table
    assert [m.public_key for m in nxt.seats] == [m.public_key for m in done.table.seats]
    assert nxt.spec.host == done.table.seats[0].public_key  # the first in seat order proposes
    assert verify_started(nxt.statement, nxt.sigs, "audit").statement == nxt.statement
    # game 2 of the new series: the same game, the same places, the evening's seating kept
    second = Finished(nxt, "ab" * 32, (1,), (0, 50, 20), None)
    again = peers([r.me for r in rematches], second)
    bus = Bus(again)
    for r in again:
        bus.post(r.me.public_key, r.answer(True))
    bus.run()
    third = again[0].started
    assert third is not None and not any(bus.refused.values())
    assert (third.spec.game, third.statement["follows"]["series"],
            third.statement["follows"]["game"], third.statement["follows"]["seating"]) == (
        "eights", new, 2, done.table.spec.table)
    assert [m.public_key for m in third.seats] == [m.public_key for m in done.table.seats]
    assert third.spec.options["first_dealer"] == 1  # the winner deals (ruling E-2)
    assert [(t["won"], t["score"]) for t in third.statement["follows"]["totals"]] == [
        (0, 0), (1, 50), (0, 20)]


def test_different_choices_start_no_game_and_say_who_chose_what() -> None:
    _, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.post(ann.me.public_key, ann.answer(True, "eights"))
    bus.post(bob.me.public_key, bob.answer(True, "eights"))
    bus.run()
    assert bob.failed is None and bob.statement is None  # cyd has not chosen yet
    bus.post(cyd.me.public_key, cyd.answer(True))  # the same game
    bus.run()
    a, b, c = (ann.nick(r.me.public_key) for r in (ann, bob, cyd))  # in seat order
    for r in (ann, bob, cyd):
        assert r.started is None and r.statement is None
        assert r.failed == (f"the players chose different games ({a}: eights, {b}: eights, "
                            f"{c}: level8-master)")
        assert r.failed_code == ("games-differ", {"pairs": (
            (a, "eights"), (b, "eights"), (c, "level8-master"))})
    assert not any(bus.refused.values())


def test_a_choice_is_final_and_a_decline_can_leave_too_few_for_the_game_chosen() -> None:
    _, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.post(ann.me.public_key, ann.answer(True, "eights"))
    with pytest.raises(LocalProtocolError, match="chose its game already"):
        ann.answer(True, "level8")
    bus.post(bob.me.public_key, bob.answer(True, "eights"))
    bus.post(cyd.me.public_key, cyd.answer(False))
    bus.run()
    for r in (ann, bob):  # "go on without cyd": the choice kept
        bus.post(r.me.public_key, r.answer(True))
        assert r.my_answer() is not None and r.my_answer().game == "eights"  # type: ignore[union-attr]
    bus.run()
    assert ann.failed == "too few players to go on: 2 of the at least 3 eights needs"
    assert ann.failed_code == ("too-few", {"yes": 2, "least": 3, "game": "eights"})
    assert bob.failed_code == ann.failed_code and ann.started is None


def test_an_answer_without_a_game_signs_and_verifies_as_before() -> None:
    me = identities(1)[0]
    raw = sign_answer(me, "00000000000000aa", HEAD, True)
    assert "game" not in raw
    assert answer_bytes(raw["tbl"], HEAD, raw["by"], True, []) == ANSWER_TAG + canonical(
        {"tbl": raw["tbl"], "head": HEAD, "by": raw["by"], "yes": True, "without": []})
    named = sign_answer(me, "00000000000000aa", HEAD, True, (), "eights")
    assert named["sig"] != raw["sig"] and named["game"] == "eights"


# -- attacks ------------------------------------------------------------------------------------


def _refused_by(bus: Bus, r: Rematch) -> RemoteProtocolError:
    [refusal] = bus.refused[r.me.public_key]
    return refusal


@pytest.mark.parametrize(("game", "yes", "reason", "words"), [
    ("poker", True, Reason.TABLE_RULES,
     "the answer of {ann} chose a game this program does not know: poker"),
    ("level8-master", True, Reason.MALFORMED,
     "the answer of {ann} names the game that ended (level8-master): the same game is named by "
     "no game"),
    ("eights", False, Reason.MALFORMED, "the answer of {ann} says no and names a game"),
])
def test_an_answer_naming_a_game_it_cannot_is_refused_naming_its_sender(
        game: str, yes: bool, reason: Reason, words: str) -> None:
    done, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    raw = sign_answer(ann.me, done.table.spec.table, HEAD, yes, (), game)
    _send(bus, ann, raw, bob)
    bus.run()
    refusal = _refused_by(bus, bob)
    name = bob.name(ann.me.public_key)
    assert (refusal.reason, refusal.sender) == (reason, name)
    assert str(refusal).endswith(words.format(ann=name))
    assert ann.me.public_key not in bob.answers


def test_a_game_whose_range_does_not_hold_the_table_is_refused_here_and_there() -> None:
    done, (ann, bob) = _seated(2, "level8")
    with pytest.raises(LocalProtocolError, match="chose eights, for 3 to 6 players; 2 are at"):
        ann.answer(True, "eights")
    assert ann.my_answer() is None and not ann.take_lines()
    bus = Bus([ann, bob])
    _send(bus, ann, sign_answer(ann.me, done.table.spec.table, HEAD, True, (), "eights"), bob)
    bus.run()
    refusal = _refused_by(bus, bob)
    assert (refusal.reason, refusal.sender) == (Reason.TABLE_RULES, bob.name(ann.me.public_key))
    assert refusal.code == "answer-game-range"
    assert refusal.params == {"name": bob.name(ann.me.public_key), "game": "eights",
                              "least": 3, "most": 6, "players": 2}


def test_two_answers_with_two_games_to_two_peers_are_named_and_no_game_starts() -> None:
    """ann signs "yes, eights" for bob and "yes, level8" for cyd; each passes the answer it took
    on to the other (6.1, "Answers"), so both hold the two and name ann at once."""
    done, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.mute.add(ann.me.public_key)
    tbl = done.table.spec.table
    first = sign_answer(ann.me, tbl, HEAD, True, (), "eights")
    second = sign_answer(ann.me, tbl, HEAD, True, (), "level8")
    _send(bus, ann, first, bob)
    _send(bus, ann, second, cyd)
    bus.run()
    name = bob.name(ann.me.public_key)
    for seat, other in ((bob, cyd), (cyd, bob)):
        assert seat.failed_code == ("two-games", {"name": name})
        assert seat.failed == f"{name} chose two different games"
        assert seat.statement is None
        refusal = _refused_by(bus, seat)
        assert (refusal.reason, refusal.sender) == (Reason.EQUIVOCATION, name)
        games = "eights and level8" if seat is bob else "level8 and eights"
        assert str(refusal).endswith(f"chose two different games ({games}; delivered by "
                                     f"{seat.name(other.me.public_key)})")


def test_a_statement_relaying_the_other_of_two_answers_names_the_equivocator() -> None:
    done, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.mute.add(ann.me.public_key)
    tbl = done.table.spec.table
    mine = sign_answer(ann.me, tbl, HEAD, True, (), "eights")
    for r in (bob, cyd):
        _send(bus, ann, mine, r)
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    ann.answers[ann.me.public_key] = (check_answer(mine, "self"), mine)
    statement = ann.expected("00000000000000e2")
    # ann's answer inside the statement names level8, not the eights cyd holds
    forged = copy.deepcopy(statement)
    forged["follows"]["accepts"][0] = sign_answer(ann.me, tbl, HEAD, True, (), "level8")
    _offer(bus, ann, forged, cyd)
    bus.run()
    refusal = _refused_by(bus, cyd)
    assert (refusal.reason, refusal.sender) == (Reason.EQUIVOCATION, cyd.name(ann.me.public_key))
    assert cyd.statement is None and cyd.started is None and not cyd.signed


def test_a_statement_of_another_game_than_the_answers_chose_is_refused_naming_the_proposer(
        ) -> None:
    _, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.mute.add(ann.me.public_key)
    for r in (ann, bob, cyd):
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()  # ann, muted, proposes by hand
    good = ann.expected("00000000000000e3")
    for game, who in (("level8", bob), ("level8-master", cyd)):
        forged = copy.deepcopy(good)
        forged["game"] = game  # a game nobody chose, with the answers that chose 8s Rule!
        _offer(bus, ann, forged, who)
        bus.run()
        refusal = _refused_by(bus, who)
        assert (refusal.reason, refusal.sender) == (Reason.TABLE_RULES,
                                                    who.name(ann.me.public_key))
        assert str(refusal).endswith(f"the statement plays {game}, but the answers chose eights")
        assert who.statement is None and not who.signed


def test_a_same_game_statement_when_every_yes_chose_another_is_refused() -> None:
    done, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.mute.add(ann.me.public_key)
    for r in (ann, bob, cyd):
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    same = copy.deepcopy(ann.expected("00000000000000e4"))
    old = done.table
    same.update(game=old.spec.game, options=dict(old.spec.options, dealer=1), min_seats=2)
    same["follows"].update(series=old.spec.table, game=2, totals=done.totals())
    del same["follows"]["seating"]
    _offer(bus, ann, same, bob)
    bus.run()
    refusal = _refused_by(bus, bob)
    assert refusal.reason == Reason.TABLE_RULES and refusal.code == "statement-other-game"


def test_a_record_alone_checks_that_a_new_series_names_its_game_in_every_answer() -> None:
    _, rematches = _seated(3)
    bus = Bus(rematches)
    for r in rematches:
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    nxt = rematches[0].started
    assert nxt is not None
    follows, keys = nxt.statement["follows"], [m.public_key for m in nxt.seats]
    with pytest.raises(RemoteProtocolError) as caught:  # the answers chose 8s Rule!
        check_follows(follows, keys, nxt.spec.table, "audit", None, "level8")
    assert (caught.value.reason, caught.value.code) == (Reason.MALFORMED, "answer-game-follows")
    same = sign_answer(rematches[0].me, follows["tbl"], follows["head"], True, (), "")
    with pytest.raises(RemoteProtocolError) as caught:  # a "yes" to the same game in game 1
        check_follows({**follows, "accepts": [same, *follows["accepts"][1:]]}, keys,
                      nxt.spec.table, "audit", None, "eights")
    assert (caught.value.code, caught.value.params["game"]) == ("answer-same-game-follows",
                                                                "eights")
    said = rejection_words(caught.value)
    assert said.endswith(f"the answer of {caught.value.params['name']} chose the same game "
                         "again, not 8s Rule!, which this new series plays"), said
    with pytest.raises(RemoteProtocolError) as caught:  # game 1 with totals
        check_follows({**follows, "totals": [{"pk": keys[0].hex(), "nick": "ann", "won": 1,
                                             "score": 0}]}, keys, nxt.spec.table, "audit",
                      None, "eights")
    assert caught.value.code == "new-series-shape"
    with pytest.raises(RemoteProtocolError) as caught:  # game 2 whose answers name a game
        check_follows({**follows, "game": 2, "series": "00000000000000aa"}, keys,
                      nxt.spec.table, "audit", None, "eights")
    assert caught.value.code == "answer-game-follows"
    with pytest.raises(RemoteProtocolError) as caught:  # game 1 of a series not its own
        check_follows({**follows, "series": "00000000000000aa"}, keys, nxt.spec.table,
                      "audit", None, "eights")
    assert (caught.value.reason, caught.value.code) == (Reason.WRONG_TABLE, "new-series-id")
    with pytest.raises(RemoteProtocolError) as caught:  # the table id of the game it follows
        check_follows({**follows, "tbl": nxt.spec.table}, keys, nxt.spec.table, "audit",
                      None, "eights")
    assert caught.value.code == "reused-table-id"


def test_a_restarted_seat_replays_its_choice_and_never_answers_twice() -> None:
    done, (ann, bob, cyd) = _seated(3)
    bus = Bus([ann, bob, cyd])
    bus.drop = lambda s, t, d: t == cyd.me.public_key and b"rematch.sign" in d
    for r in (ann, bob, cyd):
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    assert cyd.statement is None  # it answered, then died before any statement came
    lines = cyd.take_lines()
    assert [line["answer"].get("game") for line in lines] == ["eights"] * 3
    back = Rematch(cyd.me, done, seq=cyd.seq, new_table=lambda: next(TABLES))
    assert back.restore(lines) == []  # nothing new to say: its answer went out before
    assert back.my_answer() is not None and back.my_answer().game == "eights"  # type: ignore[union-attr]
    assert [o.envelope.body["answer"]["game"] for o in back.again_to(ann.me.public_key)] == [
        "eights"]
    bus.peers[cyd.me.public_key] = back
    bus.drop = lambda s, t, d: False
    bus.post(ann.me.public_key, ann.again_to(cyd.me.public_key))
    bus.run()
    assert back.started is not None and back.started.spec.game == "eights"
    assert ann.started is not None and ann.started.statement == back.started.statement


def _night(victim: int, kills: dict[int, str]) -> Table:
    """Every seat names Level 8 after an 8s Rule! game; ``victim`` killed at ``kills``."""
    table, _ = _table(3, victim, kills)
    table.choice = "level8"
    for seat in list(table.seats.values()):
        table.step(seat, seat.rematch.answer(True, "level8"))
    table.run()
    return table


@pytest.mark.parametrize(("victim", "when"), [(v, w) for v in range(3)
                                              for w in ("before", "after")])
def test_a_seat_killed_at_any_write_between_its_choice_and_the_start_resumes_into_it(
        victim: int, when: str) -> None:
    writes = list(_night(-1, {}).seats.values())[victim].writes
    assert writes >= 2
    for at in range(1, writes + 1):
        table = _night(victim, {at: when})
        seats = list(table.seats.values())
        assert seats[victim].restarts == 1
        started = {s.rematch.started.statement["tbl"] for s in seats
                   if s.rematch.started is not None}
        assert len(started) == 1 and all(s.rematch.started is not None for s in seats), at
        nxt = seats[0].rematch.started
        assert nxt is not None and nxt.spec.game == "level8"
        assert nxt.statement["follows"]["game"] == 1
        assert {e.reason for e in table.refused} <= {Reason.REPLAYED}, (at, table.refused)
