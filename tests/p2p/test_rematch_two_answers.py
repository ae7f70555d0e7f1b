"""Play again when a player gives two answers: "yes" to the proposer and "no" to everyone else
(the LAN trial of 2026-12-08 with a seated attacker, h1). Before, the proposer waited for the
others to go on without a player it held a "yes" of, the others for the proposer to go on
without a player whose "no" it never saw: the agreement hung on every seat and nobody was
named. Now every player passes each answer it takes on to the others once
(``docs/protocol.md`` 6.1, "Answers"), a statement that seats a player whose "no" a seat holds
is dropped by that seat (and by the proposer, who proposes again without them), and the others
start the next game without the player who said two things."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from lancards.p2p.protocol.errors import Reason
from lancards.p2p.protocol.rematch import Rematch
from lancards.p2p.protocol.series import sign_answer
from lancards.p2p.protocol.statement import sign_statement
from lancards.p2p.protocol.table import Outgoing
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import HEAD, Bus, finished, peers


def _bots_answer(bus: Bus, honest: Sequence[Rematch]) -> None:
    """Each honest player answers as a bot does (``cli.play_again.bot_answer``): "yes" at first
    and again, going on without them, after each "no"; until nobody has more to say."""
    while True:
        said = False
        for r in honest:
            mine = r.my_answer()
            gone = sorted(k.hex() for k in r.declined())
            if r.failed is None and not r.signed and (mine is None or (
                    mine.yes and mine.without != gone)):
                bus.post(r.me.public_key, r.answer(True))
                said = True
        bus.run()
        if not said:
            return


def _two_faced(bus: Bus, evil: Rematch, yes_to: Sequence[Rematch],
               no_to: Sequence[Rematch]) -> None:
    table = evil.table_id
    yes = sign_answer(evil.me, table, HEAD, True)
    no = sign_answer(evil.me, table, HEAD, False)
    for answer, to in ((yes, yes_to), (no, no_to)):
        bus.post(evil.me.public_key, [Outgoing(tuple(r.me.public_key for r in to), evil._out(
            (), "rematch.answer", {"answer": answer}).envelope)])
    bus.mute.add(evil.me.public_key)


def _check_started_without(evil: Rematch, honest: Sequence[Rematch], bus: Bus) -> None:
    nxt = honest[0].started
    assert nxt is not None, [(r.nick(r.me.public_key), r.failed, r.undecided()) for r in honest]
    assert all(r.started == nxt for r in honest)
    assert [m.public_key for m in nxt.seats] == [
        m.public_key for m in evil.finished.table.seats if m.public_key != evil.me.public_key]
    assert evil.me.public_key.hex() not in nxt.sigs
    for r in honest:  # no honest player is ever named
        assert all(exc.sender == evil.name(evil.me.public_key)
                   for exc in bus.refused[r.me.public_key]), bus.refused[r.me.public_key]


def test_yes_to_the_proposer_and_no_to_the_others_starts_the_next_game_without_them() -> None:
    people = identities(4)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    evil, honest = rematches[2], [rematches[0], rematches[1], rematches[3]]
    _two_faced(bus, evil, [rematches[0]], [rematches[1], rematches[3]])  # 0 is the proposer
    _bots_answer(bus, honest)
    _check_started_without(evil, honest, bus)


def test_a_statement_made_before_the_no_came_is_made_again_without_them() -> None:
    """Everyone held the two-faced player's "yes" and the proposer's statement was signed by
    every honest seat before its "no" reached all but the proposer: those drop the statement
    (it seats a player whose "no" they hold; the proposer is not to blame) and pass the "no"
    on, the proposer drops it too and proposes again without them."""
    people = identities(4)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    evil, honest = rematches[3], rematches[:3]
    proposer = rematches[0]
    _two_faced(bus, evil, honest, [])  # "yes" to everyone
    _bots_answer(bus, honest)
    first = proposer.statement
    assert first is not None and all(r.signed and r.statement == first for r in honest)
    assert evil.me.public_key.hex() in {m["pk"] for m in first["seats"]}
    assert all(r.started is None for r in honest)  # the two-faced one never signs
    bus.mute.discard(evil.me.public_key)
    _two_faced(bus, evil, [], honest[1:])  # then "no" to all but the proposer
    bus.run()
    _bots_answer(bus, honest)
    _check_started_without(evil, honest, bus)
    assert proposer.started is not None and proposer.started.statement["tbl"] != first["tbl"]
    assert not any(bus.refused.values())


def _own_statement(evil: Rematch, like: dict[str, Any]) -> dict[str, Any]:
    """A statement like ``like`` that ``evil`` proposes itself (it is not the proposer)."""
    return {**copy.deepcopy(like), "host": evil.me.public_key.hex()}


@pytest.mark.parametrize("evil_says", [True, False])
def test_a_statement_of_a_player_who_is_not_the_proposer_never_stops_the_next_game(
        evil_says: bool) -> None:
    """The LAN trial (h1): dora, not the proposer, sent a statement of her own once the others
    held the proposer's, and every seat stopped: "dora offered two different statements for
    the next game". A player who said no could so stop the others' next game. Now such a
    statement is refused as not the proposer's, naming its sender, and the game starts."""
    people = identities(4)
    done = finished(people, "eights")
    order = [m.public_key for m in done.table.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    evil, honest = rematches[1], [rematches[0], rematches[2], rematches[3]]
    seen: list[dict[str, Any]] = []

    def hold(sender: bytes, to: bytes, data: bytes) -> bool:
        if sender == honest[0].me.public_key and b"rematch.sign" in data and not seen:
            assert honest[0].statement is not None
            seen.append(honest[0].statement)  # the proposer's: evil's own goes out first
            mine = _own_statement(evil, honest[0].statement)
            sig = sign_statement(evil.me, mine).hex()
            bus.post(evil.me.public_key, [evil._out(evil._others(evil.present), "rematch.sign",
                                                    {"statement": mine,
                                                     "sigs": {evil.me.public_key.hex(): sig}})])
        return False

    bus.drop = hold
    bus.post(evil.me.public_key, evil.answer(evil_says))
    _bots_answer(bus, honest)
    nxt = honest[0].started
    assert nxt is not None and all(r.started == nxt for r in honest), [r.failed for r in honest]
    assert (evil.me.public_key in [m.public_key for m in nxt.seats]) == evil_says
    for r in honest[1:]:
        assert [(e.reason, e.sender) for e in bus.refused[r.me.public_key]] == [
            (Reason.TABLE_RULES, evil.name(evil.me.public_key))]
        assert str(bus.refused[r.me.public_key][0]).endswith(
            f"the statement is proposed by {evil.name(evil.me.public_key)}, not by "
            f"{evil.name(honest[0].me.public_key)}")

