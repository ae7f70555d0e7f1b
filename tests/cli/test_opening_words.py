"""What the terminal says while a table opens before its screen (``cli/opening_words.py``): the
new-user trial of session 28 sat 5 to 8 s before a blank terminal after ``lancards resume``
(every peer of the machine checks every move again before the table shows), and after a "play
again" under the last lines printed. ``lancards resume`` now names the table and the moves it
checks before anything slow, with or without a table id; the next game names itself while it
opens."""

from __future__ import annotations

import asyncio
import io
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.opening_words import checking_words, moves_in, next_table_words
from lancards.p2p.protocol.identity import Identity


@pytest.fixture(autouse=True)
def english() -> Any:
    i18n.set_language("en")
    yield None
    i18n.set_language("en")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with one seeded 3-player 8s Rule! game of ``lancards play`` (the seats'
    order, so the deal, follow from the fixed key)."""
    folder = tmp_path_factory.mktemp("opening")
    (folder / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (folder / "identity.json").chmod(0o600)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LANCARDS_HOME", str(folder))
        assert main(["play", "--autoplay", "--game", "eights", "--seed", "5", "--bots", "2",
                     "--bot-level", "greedy", "--bot-delay", "0"]) == 0
    return folder


@pytest.fixture
def unfinished(played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The played game's folder made unfinished (its end markers gone), ``LANCARDS_HOME``."""
    shutil.copytree(played, tmp_path, dirs_exist_ok=True)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    (folder,) = list((tmp_path / "tables").iterdir())
    for gone in ("finished", "outcome.json", "record.jsonl"):
        (folder / gone).unlink()
    return folder


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


MOVES = 428
"""The moves (signed actions) of the seeded game's journal, its shuffles and shares not
counted."""


@pytest.mark.parametrize("table", [None, "id"])
def test_resume_says_the_table_and_the_moves_it_checks_before_the_screen(
        unfinished: Path, monkeypatch: pytest.MonkeyPatch, table: str | None) -> None:
    """What the terminal holds when the screen opens: before, nothing with a table id, and
    without one only the table's line, for the seconds the peers took to check the journal."""
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.setattr("sys.stdin", Terminal())
    seen: list[str] = []

    async def screen(session: Any, **_: Any) -> int:
        seen.append(terminal.getvalue())  # what the person read until the table showed
        await session.close()
        return 1  # paused

    monkeypatch.setattr("lancards.cli.tui.app.run_table", screen)
    assert moves_in(unfinished) == MOVES
    words = ["resume", "--bot-delay", "0"] + ([unfinished.name[:6]] if table else [])
    assert main(words) == 1
    assert seen == [f"resuming table {unfinished.name[:8]} (8s Rule!, with Ada, Bram)\n"
                    f"checking {MOVES} moves played so far…\n"]


def test_a_host_or_join_seat_says_it_too(unfinished: Path, monkeypatch: pytest.MonkeyPatch,
                                        ) -> None:
    """A seat of ``lancards host`` / ``join`` (``mode`` remote) checks its journal the same
    way before its screen (``resume_host``)."""
    import json

    data = json.loads((unfinished / "table.json").read_text())
    (unfinished / "table.json").write_text(json.dumps({**data, "mode": "remote"}))
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.setattr("sys.stdin", Terminal())
    seen: list[str] = []

    async def resume_host(folder: Path, me: Any, args: Any) -> int:
        seen.append(terminal.getvalue())
        return 1

    monkeypatch.setattr("lancards.cli.lobby.resume_again.resume_host", resume_host)
    assert main(["resume", unfinished.name]) == 1
    assert seen == [f"resuming table {unfinished.name[:8]} (8s Rule!, with Ada, Bram)\n"
                    f"checking {MOVES} moves played so far…\n"]


def test_resume_of_a_finished_table_named_stays_one_line(unfinished: Path,
                                                         capsys: pytest.CaptureFixture[str],
                                                         ) -> None:
    (unfinished / "finished").touch()
    capsys.readouterr()
    assert main(["resume", "--autoplay", unfinished.name]) == 2
    assert capsys.readouterr().out == ""


def test_the_checking_words_in_english_and_german() -> None:
    assert [checking_words(n) for n in (0, 1, 212)] == [
        "checking the deal…", "checking 1 move played so far…",
        "checking 212 moves played so far…"]
    i18n.set_language("de")
    assert [checking_words(n) for n in (0, 1, 212)] == [
        "das Geben wird geprüft…", "1 bisher gespielter Zug wird geprüft…",
        "212 bisher gespielte Züge werden geprüft…"]


def _session(started: Any = None, other: str | None = None) -> Any:
    me = SimpleNamespace(public_key=b"a", nick="Ann")
    players = [me, SimpleNamespace(public_key=b"b", nick="Bram"),
               SimpleNamespace(public_key=b"c", nick="Cleo")]
    core = SimpleNamespace(me=me, players=players, left_seats=lambda: [2])
    return SimpleNamespace(core=core, seat=0, rule_set="level8-master", other_rule_set=other,
                           again=SimpleNamespace(started=lambda: started))


AGAIN, OTHER = 10, 11


def test_the_next_game_says_itself_while_its_table_opens() -> None:
    table = SimpleNamespace(statement={"follows": {"game": 3}}, seats=[
        SimpleNamespace(public_key=b"b", nick="Bram"), SimpleNamespace(public_key=b"a",
                                                                       nick="Ann")])
    assert next_table_words(_session(table), AGAIN, AGAIN, OTHER) == \
        "opening game 3 (Level 8 Master, with Bram)…"
    assert next_table_words(_session(None, "eights"), OTHER, AGAIN, OTHER) == \
        "opening a table of 8s Rule! (with Bram)…"  # Cleo left the table
    # another game agreed at a host/join table: the first game of a new series, its own game
    other = SimpleNamespace(statement={"follows": {"game": 1}}, seats=table.seats,
                            spec=SimpleNamespace(game="eights"))
    assert next_table_words(_session(other), AGAIN, AGAIN, OTHER) == \
        "opening a table of 8s Rule! (with Bram)…"
    assert next_table_words(_session(table), 1, AGAIN, OTHER) is None  # the screen closed
    assert next_table_words(_session(None), AGAIN, AGAIN, OTHER) is None  # nothing started
    i18n.set_language("de")
    assert next_table_words(_session(table), AGAIN, AGAIN, OTHER) == \
        "Spiel 3 wird geöffnet (Level 8 Master, mit Bram)…"
    assert next_table_words(_session(None, "eights"), OTHER, AGAIN, OTHER) == \
        "ein Tisch für 8s Rule! wird geöffnet (mit Bram)…"


def test_the_next_game_is_said_before_its_table_opens(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str],
                                                      ) -> None:
    """``lancards play`` and ``resume`` print it after the game-over panel closed with "play
    again", before the peers of the next table start (the trial: the last lines printed stood
    there for seconds)."""
    from lancards.cli import play
    from lancards.cli.tui.app import STATUS_AGAIN

    table = SimpleNamespace(statement={"follows": {"game": 2}}, seats=[
        SimpleNamespace(public_key=b"b", nick="Bram")])
    order: list[str] = []

    async def following(session: Any, status: int, again: int) -> Any:
        order.append(capsys.readouterr().out)
        return None

    monkeypatch.setattr("lancards.cli.tui.other_game.following", following)
    assert asyncio.run(play._tables(_session(table), STATUS_AGAIN)) == STATUS_AGAIN
    assert order == ["opening game 2 (Level 8 Master, with Bram)…\n"]
