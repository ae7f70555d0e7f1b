"""Which games a "play again" offers the players still at the table (``Rematch.games``,
``fitting_games``): every rule set whose range of players holds them, not only the game that
ended. At an 8s Rule! table (3 to 6 players) with only 2 players left, nothing was offered,
though the Level 8 rule sets (2 to 6) fit them."""

from __future__ import annotations

from lancards.p2p.protocol.rematch import Finished, Rematch
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import Bus, finished, peers

LEVEL8S = ("level8-master", "level8", "level8-en")


def _eights_with(present: int) -> tuple[Finished, list[Rematch]]:
    """A finished 8s Rule! table of 3; the first ``present`` seats are still there."""
    people = identities(3)
    done = finished(people, "eights", winners=(0,))
    order = [m.public_key for m in done.table.seats]
    people = sorted(people, key=lambda p: order.index(p.public_key))
    done = Finished(done.table, done.head, done.winners, done.scores, done.first_dealer,
                    tuple(order[:present]))
    return done, peers(people, done)


def test_two_players_left_at_8s_rule_are_offered_the_level_8_games_only() -> None:
    _, (ann, bob, gone) = _eights_with(2)
    assert ann.games() == bob.games() == LEVEL8S
    assert ann.possible() and bob.possible()
    assert not gone.possible()  # not at the table any more


def test_three_players_left_are_offered_8s_rule_first_then_the_others() -> None:
    _, rematches = _eights_with(3)
    assert all(r.games() == ("eights", *LEVEL8S) and r.possible() for r in rematches)


def test_a_level_8_table_of_two_is_offered_the_level_8_games_and_not_8s_rule() -> None:
    people = identities(2)
    rematches = peers(people, finished(people, "level8"))
    assert rematches[0].games() == ("level8", "level8-master", "level8-en")


def test_the_two_left_at_8s_rule_start_level_8_and_the_same_game_fails_for_too_few() -> None:
    _, (ann, bob, _gone) = _eights_with(2)
    bus = Bus([ann, bob])
    for r in (ann, bob):
        bus.post(r.me.public_key, r.answer(True, "level8"))
    bus.run()
    assert not any(bus.refused.values())
    assert ann.started is not None and bob.started is not None
    assert ann.started.spec.table == bob.started.spec.table
    assert (ann.started.spec.game, len(ann.started.seats)) == ("level8", 2)
    _, (ann, bob, _gone) = _eights_with(2)
    bus = Bus([ann, bob])
    for r in (ann, bob):
        bus.post(r.me.public_key, r.answer(True))  # the same game: 2 of the 3 it needs
    bus.run()
    assert ann.started is None and ann.failed_code == (
        "too-few", {"yes": 2, "least": 3, "game": "eights"})
