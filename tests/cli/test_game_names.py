"""The games named by their names, never their ids, where a person reads them: ``lancards
join``'s lines about the tables it saw and ``lancards watch``'s first line (they read
``(level8-en)``; ``cli/game_titles.py``)."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.lobby.join import advert_line
from lancards.p2p.protocol.advert import TableAdvert
from lancards.p2p.protocol.identity import Identity

ANN = Identity(b"\x07" * 32, "ann")
ADVERT = TableAdvert("0123456789abcdef", "level8-en", 2, "ann", ANN.public_key, 35923,
                     ("10.0.0.2",), 4)
FULL = TableAdvert("0123456789abcdef", "eights", 0, "ann", ANN.public_key, 35923,
                   ("10.0.0.2",), 4)


@pytest.mark.parametrize(("lang", "found", "seen"), [
    ("en", "found table 0123456789abcdef (Level 8 (English)) of ann: 2 free seats at 10.0.0.2 "
           "port 35923",
     "seen table 0123456789abcdef (8s Rule!) of ann: no free seat"),
    ("de", "Tisch 0123456789abcdef (Level 8 (englisch)) von ann gefunden: 2 freie Plätze unter "
           "10.0.0.2 Port 35923",
     "Tisch 0123456789abcdef (8s Rule!) von ann gesehen: kein freier Platz")])
def test_join_names_the_game_of_a_table_it_saw(german, lang: str, found: str, seen: str) -> None:
    i18n.set_language(lang)
    assert advert_line(ADVERT, "10.0.0.2") == found
    assert advert_line(FULL) == seen


def test_a_german_watcher_reads_the_game_by_its_name(german) -> None:
    from tests.cli.tui.test_watch_screen import watched

    session = watched("level8-en", 2, 40)
    assert any(line.text.startswith("Level 8 (englisch) · Spieler ")
               for line in session.snapshot().log)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "too few players to go on: 1 of the at least 3 8s Rule! needs"),
    ("de", "zu wenige Spieler zum Weitermachen: 1 von mindestens 3, die 8s Rule! braucht")])
def test_an_autoplay_seat_says_why_there_is_no_next_game_naming_the_game(german, lang: str,
                                                                        words: str) -> None:
    """``join --autoplay --games 2``'s ``no next game: ...`` read ``... 3 eights needs`` (the
    agreement's English, with the id) in German too."""
    from lancards.cli.remote_again import RemoteAgain
    from lancards.p2p.protocol.rematch import Finished, Rematch
    from lancards.p2p.protocol.table import start_local
    from tests.p2p.core_harness import identities

    people = identities(3)
    table = start_local(people, "eights", {}, table="00000000000000dd")
    mine = Rematch(people[0], Finished(table, "dd" * 32, (0,), (0, 10, 20), 0))
    for other in (people[1], people[2]):  # both others say no
        theirs = Rematch(other, mine.finished)
        for out in theirs.answer(False):
            mine.receive_bytes(other.public_key, out.envelope.encode())
    mine.answer(True)  # and "go on without them": too few
    again = RemoteAgain.__new__(RemoteAgain)
    again.rematch, again.alone_text = mine, ""
    i18n.set_language(lang)
    assert again.no_game_words() == words
