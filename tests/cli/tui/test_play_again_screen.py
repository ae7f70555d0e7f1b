"""The game-over panel's "play again with the same players" (issue 27), on a LocalSession whose
game is over, through the pyte harness: ``a`` answers yes, the panel says whom it waits for, a
player who declined is named with "go on without them", ``q`` says no, and the screen closes
with the status that opens the next game's screen once it has started."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.play_again import again_words
from lancards.cli.session import Banner, TableSnapshot
from lancards.cli.tui.app import STATUS_AGAIN, STATUS_OK
from lancards.cli.tui.other_game import STATUS_OTHER
from lancards.engine.core import Outcome
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

NAMES = ("Ann", "Ben", "Cyd")


class Over(LocalSession):
    """A session whose game is over, with play-again answers scripted by the test."""

    again: dict[str, Any]
    answers: list[bool]

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        extra = {**snap.extra, "again": dict(self.again),
                 "evening": "evening so far: Ann: 2 wins · Ben: 0 wins · Cyd: 0 wins"}
        banner = Banner("again", again_words(self.again))  # the one a SessionSeries adds
        return dataclasses.replace(snap, outcome=Outcome((0,), (9, 3, 2), {"rounds": 4}),
                                   extra=extra, banners=(*snap.banners, banner))

    def play_again(self, yes: bool) -> None:
        self.answers.append(yes)
        self.again = {**self.again, "asked": False, "waiting": ["Ben"]}
        self._changed()

    def choose_other(self, rule_set: str) -> None:
        self.play_again(False)
        self.chosen = rule_set


def _over() -> Over:
    state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=0,
                  phase=Phase.DRAW)
    session = Over("level8-master", names=NAMES, state=state, bot_delay=60)
    session.again = {"asked": True, "waiting": ["Ben", "Cyd"], "declined": [], "failed": None,
                     "started": False}
    session.answers = []
    return session


def test_a_plays_again_and_the_screen_gives_way_to_the_next_game_once_it_started() -> None:
    session = _over()
    with driven(session) as d:
        screen = d.text()
        assert "game over" in screen and "result: Ann wins after 4 rounds" in screen
        assert "evening so far: Ann: 2 wins · Ben: 0 wins · Cyd: 0 wins" in screen
        # once, at the panel's end: not again in a banner over it (the trial of 2026-12-05)
        assert screen.count("play again with the same players?") == 1, screen
        assert "NOTE" not in screen and screen.rstrip().endswith(
            "play again with the same players? a: play again · q: leave"), screen
        screen = d.press("a")
        assert session.answers == [True]
        assert "play again: waiting for Ben to answer" in screen
        session.again = {**session.again, "started": True}
        session._changed()
        d.settle(lambda: d.done)
        assert d.done
    assert d.task is not None and d.task.result() == STATUS_AGAIN


def test_a_player_who_declined_is_named_and_q_says_no() -> None:
    session = _over()
    session.again = {**session.again, "declined": ["Cyd"], "waiting": ["Ben"]}
    with driven(session) as d:
        assert "Cyd will not play again. a: go on without them · q: stop" in d.text()
        d.press("q")
        d.settle(lambda: d.done)
    assert session.answers == [False]
    assert d.task is not None and d.task.result() == STATUS_OK


def test_another_game_is_offered_and_its_key_closes_the_screen_for_its_table() -> None:
    """``lancards play`` offered the same game only; the panel's last line now names the other
    rule sets (``PlayAgain.status()["others"]``) and a key picks one: "no" to the same game,
    the screen closes with STATUS_OTHER (``lancards play`` opens the new table)."""
    session = _over()
    session.again = {**session.again, "others": {"1": "level8", "2": "level8-en",
                                                 "3": "eights"}}
    with driven(session) as d:
        lines = d.text().rstrip().splitlines()
        assert lines[-2:] == [
            " play again with the same players? a: play again · q: leave",
            " or another game with them: 1: Level 8 · 2: Level 8 (English) · 3: 8s Rule!"]
        d.press("4")  # no such game: nothing happens
        assert not d.done and session.answers == []
        d.press("3")
        d.settle(lambda: d.done)
    assert session.answers == [False] and session.chosen == "eights"
    assert d.task is not None and d.task.result() == STATUS_OTHER


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", [" play again with the same players? a: play again · q: leave",
            " or another game with them: 1: Level 8 Master · 2: Level 8 (English) ·",
            "   3: 8s Rule!"]),
    ("de", [" noch einmal mit denselben Spielern? a: noch einmal · q: gehen",
            " oder ein anderes Spiel mit ihnen: 1: Level 8 Master · 2: Level 8 (englisch) ·",
            "   3: 8s Rule!"]),
])
def test_at_80_columns_the_other_games_wrap_between_games_only(
        lang: str, lines: list[str]) -> None:
    """The re-check trial of 2026-12-07 read ``... · 3:`` then ``   8s Rule!`` at 80 columns
    (German, a Level 8 game over): a game's key and name stay on one line."""
    from lancards.cli.i18n import set_language

    set_language(lang)
    try:
        session = _over()
        session.again = {**session.again, "others": {"1": "level8-master", "2": "level8-en",
                                                     "3": "eights"}}
        with driven(session, 80, 30) as d:
            assert [row.rstrip() for row in d.text().rstrip().splitlines()[-3:]] == lines
    finally:
        set_language("en")


@pytest.mark.parametrize(("lang", "declined", "line"), [
    ("en", ["Cyd"], " Cyd will not play again. a: go on without them · q: stop"),
    ("en", ["Ben", "Cyd"], " Ben and Cyd will not play again. a: go on without them · q: stop"),
    ("de", ["Cyd"], " Cyd spielt nicht noch einmal. a: ohne Cyd weiter · q: aufhören"),
    ("de", ["Ben", "Cyd"],
     " Ben und Cyd spielen nicht noch einmal. a: ohne sie weiter · q: aufhören"),
])
def test_the_decliners_verb_goes_by_their_number(
        lang: str, declined: list[str], line: str) -> None:
    """A LAN trial read ``cy spielen nicht noch einmal. a: ohne sie weiter`` in German for one
    player who declined: the verb and the pronoun go by the number who declined (ngettext)."""
    from lancards.cli.i18n import set_language

    set_language(lang)
    try:
        session = _over()
        session.again = {**session.again, "declined": declined, "waiting": []}
        with driven(session, 80, 24) as d:
            assert [row.rstrip() for row in d.text().rstrip().splitlines()][-1] == line
    finally:
        set_language("en")
