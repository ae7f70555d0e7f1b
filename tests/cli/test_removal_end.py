"""A removal that ends the game is said before the vote (the LAN trial of three friends: an 8s
Rule! table of 3 with rescue on voted Cyd out and the game ended at once, unwarned): the
question says it, and the lobby's rescue line says it of a table where every removal does.
Whether it does is the engine's rules (a trial leave), not a number in the client."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lancards.cli.removal_words import (
    every_removal_ends,
    leave_ends,
    removal_banners,
    removal_question,
)
from lancards.cli.session import Banner
from lancards.engine.core import Leave
from lancards.engine.eights import EIGHTS
from lancards.engine.eights.position import read_position
from lancards.p2p.net.discovery import TableAdvert
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.test_hint import eights_hands, eights_text

NAMES = ("Ann", "Ben", "Cyd", "Dee")
GOES_ON = ("remove Cyd? (y/n) Cyd has not answered for the table's patience; every other "
           "player must agree, then the game goes on without them")
ENDS = ("remove Cyd? the game then ends: too few players to play on (y/n) Cyd has not "
        "answered for the table's patience; every other player must agree")
ENDS_LINE = "at this table a removal ends the game at once: too few players are left to play on"


def test_the_rule_sets_say_which_tables_end_at_any_one_removal() -> None:
    assert every_removal_ends("eights", 3)
    assert not every_removal_ends("eights", 4)
    assert every_removal_ends("eights", 4, {"partners": True, "rescue": "on"})
    assert not every_removal_ends("level8-master", 3)
    assert not every_removal_ends("level8", 3)
    assert not every_removal_ends("no-such-game", 3)


def test_the_question_says_the_game_ends_when_the_removal_would_end_it() -> None:
    four = read_position(eights_text(eights_hands()), EIGHTS)  # round 2, mid-trick
    assert not leave_ends(EIGHTS, four, 2)
    assert removal_question(EIGHTS, four, 2, NAMES) == GOES_ON
    three = EIGHTS.apply(four, Leave(3))  # Dee left: three are left, each one needed
    assert leave_ends(EIGHTS, three, 2)
    assert removal_question(EIGHTS, three, 2, NAMES) == ENDS


def test_the_german_question_says_the_end_too(german) -> None:
    four = read_position(eights_text(eights_hands()), EIGHTS)
    three = EIGHTS.apply(four, Leave(3))
    assert removal_question(EIGHTS, three, 2, NAMES) == (
        "Cyd entfernen? Dann endet das Spiel: zu wenige Spieler, um weiterzuspielen (j/n) Cyd "
        "hat nicht geantwortet, solange der Tisch wartete; alle anderen müssen zustimmen")


def test_the_session_banner_asks_with_the_end_said() -> None:
    four = read_position(eights_text(eights_hands()), EIGHTS)
    core = SimpleNamespace(state=EIGHTS.apply(four, Leave(3)), record=[1, 2, 3],
                           bound=lambda: None, removing=None)
    session = SimpleNamespace(core=core, names=NAMES, game=EIGHTS, _declined=None,
                              node=SimpleNamespace(removal_offer=lambda: 2))
    extra: dict[str, object] = {}
    assert removal_banners(session, extra) == [Banner("waiting", ENDS)]
    assert extra == {"remove": 2}
    session._declined = (2, 3)  # "n" at this record position: not asked again here
    assert removal_banners(session, {}) == []


def test_the_host_screen_says_every_removal_ends_a_table_of_three() -> None:
    from lancards.cli.lobby.host import intro_lines

    me = Identity(b"\x07" * 32, "Ann")
    advert = TableAdvert("0123456789abcdef", "eights", 2, "Ann", me.public_key, 35923,
                         ("10.0.0.2",), 3, rescue=True)
    lines = intro_lines(advert, me, 3, {"rescue": "on", "patience": 30})
    assert lines[-2:] == ["rescue on: a player who vanishes can be voted out by all the "
                          "others, but all the other players together could open one "
                          "player's hand", ENDS_LINE]
    four = TableAdvert("0123456789abcdef", "eights", 3, "Ann", me.public_key, 35923,
                       ("10.0.0.2",), 4, rescue=True)
    assert ENDS_LINE not in intro_lines(four, me, 4, {"rescue": "on"})
    assert intro_lines(four, me, 4, {"rescue": "on", "partners": True})[-1] == ENDS_LINE


# -- after the vote: whose vote the removal waits for -------------------------------------------


def test_the_vote_words_name_who_is_still_to_vote() -> None:
    from lancards.cli.removal_words import vote_words

    assert vote_words(2, NAMES, [1]) == "you voted to remove Cyd; waiting for Ben's vote"
    assert vote_words(2, NAMES, [1, 3]) == \
        "you voted to remove Cyd; waiting for the votes of Ben and Dee"
    assert vote_words(2, NAMES, []) == "you voted to remove Cyd; waiting for the others' votes"


def test_the_german_vote_words(german) -> None:
    from lancards.cli.removal_words import vote_words

    assert vote_words(2, NAMES, [1]) == \
        "du hast für das Entfernen von Cyd gestimmt; es fehlt noch die Stimme von Ben"
    assert vote_words(2, NAMES, [1, 3]) == \
        "du hast für das Entfernen von Cyd gestimmt; es fehlen noch die Stimmen von Ben und Dee"


@pytest.mark.timeout(120)
def test_a_voter_reads_whose_vote_is_missing_until_the_removal_begins() -> None:
    """Real cores (``level8``, 4 seats, rescue on): Cyd vanishes; Ann votes and reads Ben's
    and Dee's votes missing, then Ben's once Dee voted; once Ben votes the removal is made and
    the line goes. The question is not asked again of a voter meanwhile."""
    from tests.p2p.test_rescue import _stall_at, _table, _vote_out

    cores, net = _table("voted-words")
    net.start()
    _stall_at(net, cores, 14, cores[2])
    ann = cores[0]

    def banners() -> tuple[list[Banner], dict[str, object]]:
        extra: dict[str, object] = {}
        session = SimpleNamespace(core=ann, names=NAMES, game=ann.game, _declined=None,
                                  node=SimpleNamespace(removal_offer=lambda: None))
        return removal_banners(session, extra), extra

    assert banners() == ([], {})
    _vote_out(net, [ann], 2)
    net.run()
    assert banners() == ([Banner("info", "you voted to remove Cyd; waiting for the votes of "
                                         "Ben and Dee")], {"voted": 2})
    _vote_out(net, [cores[3]], 2)
    net.run()
    assert banners()[0] == [Banner("info", "you voted to remove Cyd; waiting for Ben's vote")]
    _vote_out(net, [cores[1]], 2)
    net.run()
    assert ann.left_seats() == (2,)
    assert banners() == ([], {})
