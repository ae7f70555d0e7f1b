"""Another game at a host/join table's end (``host_words`` in ``cli/play_again.py``,
``RemoteAgain.status``): "play again" there offers the same game only (the others need a new
lobby), and the LAN trial of 2026-12-07 read ``play again with the same players? a: play again
· q: leave`` with no word on how to play another game. The game-over panel's last line now
says it, naming the ids the host types, within 80 columns, English and German."""

from __future__ import annotations

import pytest

from lancards.cli.i18n import set_language
from lancards.cli.play_again import host_words
from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.table import start_local
from tests.cli.tui.harness import driven
from tests.cli.tui.test_play_again_screen import _over
from tests.p2p.core_harness import identities


def _remote(game: str, players: int) -> RemoteAgain:
    """A host/join seat's agreement at the end of a ``game`` of ``players`` (no links: only
    its status is asked)."""
    people = identities(players)
    table = start_local(people, game, {}, table="00000000000000bb")
    done = Finished(table, "ab" * 32, (0,), tuple(range(players)), 0)
    again = RemoteAgain.__new__(RemoteAgain)
    again.rematch = Rematch(people[0], done)
    again.alone_text = ""
    return again


def test_a_host_join_seat_is_told_the_other_games_until_it_answers() -> None:
    again = _remote("level8-master", 5)
    status = again.status()
    assert status["asked"] and status["another"] == ["level8", "level8-en", "eights"]
    assert "others" not in status  # no key picks one: a new lobby starts it
    again.rematch.answer(True)
    assert "another" not in again.status()
    assert _remote("level8", 2).status()["another"] == ["level8-master", "level8-en"]


@pytest.mark.parametrize(("lang", "games", "line"), [
    ("en", ["eights"], "another game: q, then lancards host --game eights"),
    ("en", ["level8-master", "level8", "level8-en"],
     "another game: q, then lancards host --game level8-master, level8 or level8-en"),
    ("de", ["eights"], "anderes Spiel: q und lancards host --game eights"),
    ("de", ["level8-master", "level8", "level8-en"],
     "anderes Spiel: q und lancards host --game level8-master, level8 oder level8-en"),
])
def test_the_line_names_the_games_the_host_types(lang: str, games: list[str],
                                                   line: str) -> None:
    set_language(lang)
    try:
        assert host_words(games) == line
        assert len(f" {line}") <= 80  # the panel's line, its margin included
        assert host_words([]) == ""
    finally:
        set_language("en")


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", [" play again with the same players? a: play again · q: leave",
            " another game: q, then lancards host --game level8, level8-en or eights"]),
    ("de", [" noch einmal mit denselben Spielern? a: noch einmal · q: gehen",
            " anderes Spiel: q und lancards host --game level8, level8-en oder eights"]),
])
def test_the_game_over_panel_of_a_host_join_table_says_how_to_play_another_game(
        lang: str, lines: list[str]) -> None:
    """At 80x24, a Level 8 Master game over: the panel's last two lines, whole."""
    set_language(lang)
    try:
        session = _over()
        session.again = {**session.again, "another": ["level8", "level8-en", "eights"]}
        with driven(session, 80, 24) as d:
            assert [row.rstrip() for row in d.text().rstrip().splitlines()[-2:]] == lines
            session.play_again(True)  # answered: the line is gone with the question
            session.again = {**session.again, "another": ["level8", "level8-en", "eights"]}
            session._changed()
            d.settle(lambda: "another game" not in d.text() and "anderes" not in d.text())
            assert "lancards host" not in d.text()
    finally:
        set_language("en")
