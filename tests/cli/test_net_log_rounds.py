"""The networked table's log tells every 8s Rule! round's score, also of a round that ends
early (ruling E-5). Such a round is scored when the last hand card is opened for the audit, an
opening and not a move, so the log said "Bram takes trick 18: ..." and went on to the next
round's marker without "round 3 scored: ..." (a person's game of 8s Rule!), although the result
panel showed the round's score. And the last trick of every round is told before the round's
score: it moves the game to the next round at once, and was left out of the log."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from lancards.cli.net_session import NetworkSession
from lancards.cli.tui.narrate import scored_lines
from lancards.engine.eights.state import RoundResult
from lancards.p2p.protocol.identity import Identity
from tests.cli.test_resume_log import bots_play_until
from tests.eights.helpers import deal

pytestmark = pytest.mark.timeout(180)

ME = Identity(b"\x0b" * 32, "Ann")


async def played(home: Path, rounds: int) -> tuple[NetworkSession, list[str]]:
    """A seeded table of Ann and two bots, every seat played by a bot and the log told after
    every change (as the screen does), until ``rounds`` rounds are scored."""
    session = await NetworkSession.create("eights", {}, ME, 2, home=home, bot_delay=0, seed=11)
    await bots_play_until(session, lambda: len(session.core.state.results) >= rounds, 6000)
    return session, [line.text for line in session.snapshot().log]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[NetworkSession, list[str], Path]:
    """The seeded table played until 3 rounds are scored, its log, and its home."""
    home = tmp_path_factory.mktemp("home")
    session, log = asyncio.run(played(home, 3))
    return session, log, home


def test_a_round_that_ends_early_is_scored_in_the_log(
        table: tuple[NetworkSession, list[str], Path]) -> None:
    session, log, _ = table
    results = session.core.state.results
    assert [(r.round, r.ended_early, r.tricks) for r in results[:3]] == [
        (1, False, 20), (2, False, 20), (3, True, 18)]  # round 3, no 8s: the last 8 taken
    end = log.index("Bram takes trick 18: Y5 Y9 Y8")
    assert log[end:end + 3] == ["Bram takes trick 18: Y5 Y9 Y8",
                                "round 3 scored: Ann +25, Ada +50, Bram +25",
                                "── round 4 · you deal ──"]
    # the last trick of a round that runs to its end (20 tricks of 3) moves the game to the
    # next round at once: its trick was left out, the log went from "Ada played G8" straight
    # to "round 1 scored: ..."
    end = log.index("round 1 scored: Ann +40, Ada +60, Bram +100")
    assert log[end - 2:end + 2] == ["Ada played G8", "Bram takes trick 20: Y15 B6 G8",
                                    "round 1 scored: Ann +40, Ada +60, Bram +100",
                                    "── round 2 · dealer Ada ──"]
    end = log.index("round 2 scored: Ann +60, Ada +5, Bram +20")
    assert log[end - 2:end + 2] == ["Bram played R7", "You take trick 20: Y8 G7 R7",
                                    "round 2 scored: Ann +60, Ada +5, Bram +20",
                                    "── round 3 · dealer Bram ──"]
    assert [t for t in log if " scored: " in t] == [
        "round 1 scored: Ann +40, Ada +60, Bram +100",
        "round 2 scored: Ann +60, Ada +5, Bram +20",
        "round 3 scored: Ann +25, Ada +50, Bram +25"]  # each round once


def test_the_replay_tells_the_last_trick_and_the_early_end_score(
        table: tuple[NetworkSession, list[str], Path], capsys: pytest.CaptureFixture[str]) -> None:
    """lancards replay of the same record: the last trick of round 1 before its score, and the
    score of round 3, which the audit's openings scored (no move: the replay went from trick 18
    to the next round's shuffles)."""
    from lancards.cli.record_tools import run_replay

    _, _, home = table
    [record] = home.glob("tables/*/record.jsonl")
    capsys.readouterr()
    assert run_replay(argparse.Namespace(file=str(record), positions=False, step=False)) == 0
    told = [line[6:] for line in capsys.readouterr().out.splitlines()]
    end = told.index("Bram takes trick 20: Y15 B6 G8")
    assert told[end:end + 3] == ["Bram takes trick 20: Y15 B6 G8",
                                 "round 1 scored: Ann +40, Ada +60, Bram +100",
                                 "── round 2 · dealer Ada ──"]
    end = told.index("Bram takes trick 18: Y5 Y9 Y8")
    rest = [line for line in told[end:] if not line.startswith(("round 3 · ", " "))]
    assert rest[:3] == ["Bram takes trick 18: Y5 Y9 Y8",
                        "round 3 scored: Ann +25, Ada +50, Bram +25",
                        "── round 4 · dealer Ann ──"]  # the replay tells it as a spectator


def test_scored_lines_tell_the_rounds_scored_since_a_view() -> None:
    names = ("Ann", "Ada", "Bram")
    state = deal(3, {})
    scored = replace(state, results=(RoundResult(3, 1, (25, 50, 25), (), 18, True, None),))
    assert scored_lines("eights", state, scored, names, 0) == [
        "round 3 scored: Ann +25, Ada +50, Bram +25"]
    assert scored_lines("eights", scored, scored, names, 0) == []  # told already
    assert scored_lines("eights", None, scored, names, 0) == []  # nothing told yet: unknown
    assert scored_lines("level8", state, scored, names, 0) == []  # told with the going out
