"""``q`` at the game-over panel (``lancards play``, ``host``, ``join``: every table screen goes
through ``run_table``) prints the game-over panel's lines once the window closed, as a leave
for good whose game's end this machine saw does: the result, each player's final figure, from
the second game of the evening on the evening. Nothing when the next game's table follows
(``a``), and nothing twice. The new-user trial read nothing on the terminal after ``q``. The
printed winner line names its game (the trial of 2026-12-07 read ``result: You win with the
lowest total`` of an 8s Rule! game right under ``resuming table ... (Level 8 Master ...)``)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui import app
from lancards.cli.tui.app import STATUS_AGAIN, STATUS_LEFT, STATUS_OK
from lancards.cli.tui.words import farewell
from tests.cli.tui.harness import driven

EIGHTS_RESULT = ["8s Rule!: Bram wins with the lowest total",
                 "Bram: 10 points",
                 "You: 150 points",
                 "Cleo: 150 points",
                 "Ada: 170 points"]
EVENING = "evening so far: You: 1 win · Ada: 0 wins · Bram: 0 wins · Cleo: 1 win"


class Evening(LocalSession):
    """A finished game whose snapshot says the evening (:attr:`evening`), as a
    :class:`~lancards.cli.net_session.NetworkSession` of game 2 or later does."""

    evening: str | None = None

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        return dataclasses.replace(snap, extra={**snap.extra, "evening": self.evening})


def _finished(rule_set: str, evening: str | None = None) -> Evening:
    """A seeded game of You, Ada, Bram and Cleo that the bots played to its end."""
    session = Evening(rule_set, seed=5, bot_delay=60, autoplay=True)
    session.evening = evening
    while session.game.outcome(session.state) is None:
        assert session.step(), "the game stopped before its end"
    return session


def _printed(session: Any, status: int, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> str:
    """What ``run_table`` prints once a table screen that closed with ``status`` is gone."""

    class Closed:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        async def run(self) -> int:
            return status

    monkeypatch.setattr(app, "TableScreen", Closed)
    assert asyncio.run(app.run_table(session)) == status
    return capsys.readouterr().out


def test_q_at_the_game_over_panel_closes_the_window_and_the_result_is_said() -> None:
    session = _finished("eights")
    with driven(session, 80, 24) as d:
        assert "q: leave" in d.text()
        d.press("q")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == STATUS_OK
    assert farewell(session).split("\n") == EIGHTS_RESULT  # no evening of one game


def test_run_table_prints_the_result_once_and_nothing_before_the_next_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    session = _finished("eights")
    assert _printed(session, STATUS_OK, monkeypatch, capsys) == "\n".join(EIGHTS_RESULT) + "\n"
    assert _printed(session, STATUS_LEFT, monkeypatch, capsys) == \
        "\n".join(EIGHTS_RESULT) + "\n"  # Ctrl-C at the panel
    assert _printed(session, STATUS_AGAIN, monkeypatch, capsys) == ""  # a: game 2's screen


def test_from_the_second_game_of_the_evening_the_evening_comes_last(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    session = _finished("level8-master", EVENING)
    assert _printed(session, STATUS_OK, monkeypatch, capsys).split("\n") == [
        "Level 8 Master: You win after 9 rounds",
        "You: WIN",
        "Ada: level 7",
        "Cleo: level 7",
        "Bram: level 6",
        EVENING,
        ""]


def test_the_result_is_said_in_the_players_language() -> None:
    i18n.set_language("de")
    try:
        session = _finished("eights")
        assert farewell(session).split("\n") == [
            "8s Rule!: Bram gewinnt mit der niedrigsten Summe",
            "Bram: 10 Punkte",
            "Du: 150 Punkte",
            "Cleo: 150 Punkte",
            "Ada: 170 Punkte"]
    finally:
        i18n.set_language("en")


def test_the_game_over_panel_itself_still_says_result() -> None:
    """The panel shows its game at the top: its winner line says ``result:``, English and
    German."""
    from lancards.cli.tui.results import game_over_lines

    session = _finished("eights")
    assert game_over_lines(session.snapshot())[0] == "result: Bram wins with the lowest total"
    i18n.set_language("de")
    try:
        assert game_over_lines(session.snapshot())[0] == \
            "Ergebnis: Bram gewinnt mit der niedrigsten Summe"
        assert farewell(_finished("level8-master")).split("\n")[0] == \
            "Level 8 Master: Du gewinnst nach 9 Runden"
    finally:
        i18n.set_language("en")


def test_a_watcher_and_a_seat_voted_out_still_read_nothing_at_the_game_s_end() -> None:
    session = _finished("eights")
    for flag in ("watching", "removed_me"):
        snap = session.snapshot()
        quiet = dataclasses.replace(snap, extra={**snap.extra, flag: True})
        assert farewell(type("S", (), {"snapshot": lambda self, q=quiet: q})()) == ""
