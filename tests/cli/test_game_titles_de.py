"""A German screen names Level 8's English edition in German words: ``Level 8 (englisch)``,
not ``Level 8 (English)`` (the re-check trial of issue 26), wherever the games' names show:
``--help``, the history, selfplay, the lobby and the game-over offer
(``tests/cli/tui/test_german_lobby.py``, ``test_play_again_screen.py``); the English screen
keeps ``Level 8 (English)``."""

from __future__ import annotations

from pathlib import Path

import pytest

from lancards.cli import history
from lancards.cli.game_titles import game_choices, game_title
from lancards.cli.main import main


def test_the_names_in_german_and_in_english(german) -> None:
    assert [game_title(n) for n in ("level8-master", "level8", "level8-en", "eights")] == [
        "Level 8 Master", "Level 8", "Level 8 (englisch)", "8s Rule!"]
    assert game_choices(["level8", "level8-en"]) == (
        "level8 = Level 8, level8-en = Level 8 (englisch)")
    assert game_title("other") == "other"


def test_the_english_name_stays() -> None:
    assert game_title("level8-en") == "Level 8 (English)"


def test_the_german_history_names_the_edition_in_german(german, tmp_path: Path) -> None:
    game = history.PlayedGame(folder=tmp_path, table="00112233aabbccdd", game="level8-en",
                              nicks=["Ada", "Zoe"], me=1, status="unfinished")
    assert history.lines([game], 0)[0].startswith("  1  Datum unbekannt  Level 8 (englisch): ")


def test_german_selfplay_names_the_edition_in_german(german, capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert main(["--lang", "de", "selfplay", "--game", "level8-en", "--games", "1",
                 "--players", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == \
        "Level 8 (englisch), 2 Spieler, 1 Partie (Seed 0)"
