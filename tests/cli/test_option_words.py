"""Option words from issue 26's new-user trial: ``host --bot-level easy,hard`` read argparse's
``invalid choice``; ``join --bot-level`` without ``--autoplay`` did nothing; an error named the
game by its id (``level8-master``); ``selfplay --seats hard,,normal`` and ``--bot-delay abc``
were not said in play's plain words."""

from __future__ import annotations

import pytest

from lancards.cli.main import main


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = int(str(stop.code))
    assert code == 2
    return capsys.readouterr().err


def test_host_takes_a_level_per_bot_as_play_does(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    host = ("host", "--autoplay", "--interface", "127.0.0.1", "--bots", "2", "--bot-level")
    assert _error(capsys, *host, "easy,hrd") == (
        "lancards host: error: --bot-level: 'hrd' is not a level of Level 8 Master; it offers "
        "easy, normal, hard, greedy\n")
    assert _error(capsys, *host, "easy,hard,normal") == (
        "lancards host: error: --bot-level 'easy,hard,normal': 3 levels for 2 bots; give one "
        "level, or 2 separated by commas\n")
    assert _error(capsys, *host, "easy,,hard") == (
        "lancards host: error: --bot-level 'easy,,hard': a level is missing (an empty name "
        "before, between or after the commas)\n")


def test_join_refuses_a_bot_level_without_autoplay(capsys):
    assert _error(capsys, "join", "--bot-level", "hard") == (
        "lancards join: error: --bot-level is the level of the bot that plays your seat with "
        "--autoplay; without --autoplay you play it yourself: give both, or neither\n")
    assert _error(capsys, "join", "--autoplay", "--bot-level", "hard,easy") == (
        "lancards join: error: --bot-level 'hard,easy': join plays one seat, yours: give one "
        "level\n")
    assert _error(capsys, "join", "--autoplay", "--bot-level", "hrd") == (
        "lancards join: error: --bot-level: 'hrd' is not a level; the levels are easy, normal, "
        "hard, greedy\n")


def test_errors_name_the_game_by_its_name(capsys):
    assert _error(capsys, "play", "--local", "--autoplay", "--bots", "0") == (
        "lancards play: error: --bots 0: Level 8 Master is for 2 to 6 players, so use 1 to 5 "
        "bots\n")
    assert _error(capsys, "join", "--players", "9") == (
        "lancards join: error: --players 9: Level 8 Master is for 2 to 6 players\n")
    assert _error(capsys, "selfplay", "--players", "1") == (
        "lancards selfplay: error: --players 1: Level 8 Master is for 2 to 6 players\n")


def test_selfplay_says_an_empty_or_unknown_level_as_play_does(capsys):
    assert _error(capsys, "selfplay", "--seats", "hard,,normal") == (
        "lancards selfplay: error: --seats 'hard,,normal': a level is missing (an empty name "
        "before, between or after the commas)\n")
    assert _error(capsys, "selfplay", "--seats", "hard,hrd") == (
        "lancards selfplay: error: --seats: 'hrd' is not a level of Level 8 Master; it offers "
        "easy, normal, hard, greedy\n")


@pytest.mark.parametrize("command", ["play", "resume", "host"])
def test_a_bot_delay_that_is_no_number_is_said_in_words(capsys, command):
    # said as the other refused values are (--bots 9: ...): no argparse "argument --bot-delay:"
    assert _error(capsys, command, "--bot-delay", "abc") == (
        f"lancards {command}: error: --bot-delay 'abc': not a number of seconds; use 0 to 10, "
        "e.g. 0.5\n")
    assert _error(capsys, command, "--bot-delay", "20") == (
        f"lancards {command}: error: --bot-delay 20: use 0 to 10 seconds\n")


@pytest.mark.parametrize("command", ["play", "resume", "host"])
def test_a_bot_delay_that_is_no_number_in_german(capsys, german, command):
    assert _error(capsys, "--lang", "de", command, "--bot-delay", "abc") == (
        f"lancards {command}: Fehler: --bot-delay 'abc': keine Sekundenzahl; nimm 0 bis 10, "
        "z. B. 0.5\n")
    assert _error(capsys, "--lang", "de", command, "--bot-delay", "-1") == (
        f"lancards {command}: Fehler: --bot-delay -1: nimm 0 bis 10 Sekunden\n")


def test_the_option_words_in_german(capsys, german):
    assert _error(capsys, "--lang", "de", "selfplay", "--seats", "hard,,normal") == (
        "lancards selfplay: Fehler: --seats 'hard,,normal': eine Stufe fehlt (ein leerer Name "
        "vor, zwischen oder nach den Kommas)\n")
    assert _error(capsys, "--lang", "de", "join", "--bot-level", "hard") == (
        "lancards join: Fehler: --bot-level ist die Stufe des Bots, der mit --autoplay deinen "
        "Platz spielt; ohne --autoplay spielst du selbst: gib beides an oder keins\n")
