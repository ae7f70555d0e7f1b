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
TEAM = ("remove Cyd? the game then ends: Cyd's team cannot play on without them (y/n) Cyd has "
        "not answered for the table's patience; every other player must agree")
TEAM_LINE = ("at this table a removal ends the game at once: a team cannot play on without one "
             "of its players")
RESCUE_LINE = ("rescue on: a player who vanishes can be voted out by all the others, but all "
               "the other players together could open one player's hand")


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
    assert intro_lines(four, me, 4, {"rescue": "on", "partners": True})[-1] == TEAM_LINE


# -- partners: the game ends because a team loses a member, not for too few players ----------


def partners(n: int) -> object:
    """An 8s Rule! table of ``n`` seats with partners, dealt round 1."""
    from lancards.engine.eights import EightsRules
    from tests.eights.helpers import deal

    return deal(n, {}, rules=EightsRules(partners=True))


def test_the_engine_says_why_a_removal_ends_the_game() -> None:
    from lancards.cli.removal_words import end_reason

    assert EIGHTS.leave_end_reason(partners(4), 2) == "team"
    assert EIGHTS.leave_end_reason(partners(6), 2) == "team"
    four = read_position(eights_text(eights_hands()), EIGHTS)
    assert EIGHTS.leave_end_reason(four, 2) is None
    assert EIGHTS.leave_end_reason(EIGHTS.apply(four, Leave(3)), 2) == "too-few"
    assert end_reason(EIGHTS, partners(4), 2) == "team"
    assert end_reason(EIGHTS, four, 2) is None


def test_the_question_at_a_partners_table_says_a_team_loses_a_member() -> None:
    assert removal_question(EIGHTS, partners(4), 2, NAMES) == TEAM
    assert removal_question(EIGHTS, partners(6), 2, (*NAMES, "Eve", "Fay")) == TEAM


def test_the_german_question_at_a_partners_table(german) -> None:
    assert removal_question(EIGHTS, partners(4), 2, NAMES) == (
        "Cyd entfernen? Dann endet das Spiel: das Team von Cyd kann ohne Cyd nicht "
        "weiterspielen (j/n) Cyd hat nicht geantwortet, solange der Tisch wartete; alle "
        "anderen müssen zustimmen")
    from lancards.cli.removal_words import advert_rescue_lines

    assert advert_rescue_lines("eights", 4, True)[-1] == (
        "an diesem Tisch endet das Spiel sofort, wenn jemand entfernt wird: ein Team kann ohne "
        "einen seiner Spieler nicht weiterspielen")


def test_join_and_the_lobby_warn_of_a_partners_table_from_its_advert() -> None:
    """``join`` prints these lines for an advert with rescue on, the lobby shows them under the
    selected table: a 4-seat (or 6-seat) partners table now warns there too, not only on the
    host's screen; its advert says ``partners=on``."""
    from dataclasses import replace

    from lancards.cli.removal_words import advert_rescue_lines
    from lancards.p2p.protocol.advert import advert_to_txt, txt_to_advert

    assert advert_rescue_lines("eights", 4, True) == [RESCUE_LINE, TEAM_LINE]
    assert advert_rescue_lines("eights", 6, True) == [RESCUE_LINE, TEAM_LINE]
    assert advert_rescue_lines("eights", 4, False) == [RESCUE_LINE]
    assert advert_rescue_lines("eights", 3, False) == [RESCUE_LINE, ENDS_LINE]
    me = Identity(b"\x07" * 32, "Ann")
    advert = TableAdvert("0123456789abcdef", "eights", 3, "Ann", me.public_key, 35923,
                         ("10.0.0.2",), 4, ("Ann",), rescue=True, partners=True)
    txt = advert_to_txt(advert)
    assert txt["partners"] == "on" and "partners" not in advert_to_txt(
        replace(advert, partners=False))
    assert txt_to_advert({k.encode(): v.encode() for k, v in txt.items()}, "x", 35923,
                         ["10.0.0.2"]) == advert


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
