"""A host's process after ``q`` at the game's end (``end_bots`` in ``cli/lobby/host_bots.py``):
the LAN trial of 2026-12-07 sat silent about 20 s before the process ended, waiting ten
seconds for each of its two ``--bots`` seats' last messages, one after the other. The wait is
now one bound for all of them together, :data:`BOT_END_S` (3 s), and one line says what the
process does meanwhile, English and German. The bound given is asserted, never timed."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import pytest

from lancards.cli.i18n import set_language
from lancards.cli.lobby import host, host_bots


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    """The bounded waits ``end_bots`` makes (how many tasks, the bound), each returning at
    once: a bot seat that never ends is cancelled without the test waiting."""
    made: list[tuple[int, float]] = []

    async def wait(tasks: Any, timeout: float) -> tuple[set[Any], set[Any]]:
        made.append((len(tasks), timeout))
        return set(), set(tasks)

    monkeypatch.setattr(host_bots, "_wait", wait)
    return made


def _hosted(monkeypatch: pytest.MonkeyPatch, status: int, autoplay: bool = False) -> list[Any]:
    """``play_hosted`` with two bot seats that never end and a game that ends with ``status``;
    the bot tasks (cancelled or not) once it returned."""
    bots: list[Any] = []

    async def never() -> None:
        await asyncio.Event().wait()

    async def screen(args: argparse.Namespace) -> tuple[Any, ...]:
        bots.extend(asyncio.ensure_future(never()) for _ in range(2))
        return None, None, None, None, bots

    async def table(*args: Any) -> int:
        return status

    monkeypatch.setattr(host, "host_on_screen", screen)
    monkeypatch.setattr(host, "host_table", screen)
    monkeypatch.setattr(host, "play_table", table)
    args = argparse.Namespace(autoplay=autoplay, host_gone=None)
    assert asyncio.run(host.play_hosted(args)) == status
    return bots


@pytest.mark.parametrize(("lang", "line"), [("en", "closing the table…"),
                                            ("de", "der Tisch wird geschlossen…")])
def test_after_the_game_one_line_says_the_table_closes_and_one_bound_covers_every_bot(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        waits: list[tuple[int, float]], lang: str, line: str) -> None:
    set_language(lang)
    try:
        bots = _hosted(monkeypatch, 0)
    finally:
        set_language("en")
    assert capsys.readouterr().out == f"{line}\n"
    assert waits == [(2, 3.0)] and host_bots.BOT_END_S == 3.0  # not 10 s for each bot
    assert all(task.cancelled() for task in bots)


def test_after_a_pause_or_with_autoplay_no_line_and_the_pause_bound(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        waits: list[tuple[int, float]]) -> None:
    _hosted(monkeypatch, 3)  # paused: the table's own lines say so
    _hosted(monkeypatch, 0, autoplay=True)  # its output is one line per round
    assert capsys.readouterr().out == ""
    assert waits == [(2, host_bots.BOT_PAUSE_S), (2, host_bots.BOT_END_S)]


def test_bots_that_ended_are_not_waited_for_and_nothing_is_said(
        waits: list[tuple[int, float]], capsys: pytest.CaptureFixture[str]) -> None:
    async def run() -> None:
        done = asyncio.ensure_future(asyncio.sleep(0))
        await done
        await host_bots.end_bots([done], host_bots.BOT_END_S, say=True)

    asyncio.run(run())
    assert waits == [] and capsys.readouterr().out == ""
