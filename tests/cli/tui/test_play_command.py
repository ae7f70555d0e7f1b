"""``lancards play``: --autoplay plays whole games; bad arguments exit 2 with one line."""

from __future__ import annotations

import pytest

from cli.main import main
from engine.driver import play_local
from engine.options import rule_set

GAMES = ["level8-master", "level8", "level8-en", "eights"]


@pytest.mark.parametrize("game", GAMES)
def test_autoplay_finishes_a_whole_game(game: str, capsys: pytest.CaptureFixture[str]):
    status = main(["play", "--game", game, "--autoplay", "--seed", "11", "--name", "Zoe"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    # The same seed with bots in every seat is the same game (one seeded chance, same bots).
    spec = rule_set(game)
    played = play_local(spec.game, spec.make_rules(), 4, 11)
    outcome = spec.game.outcome(played.final)
    assert outcome is not None and played.violations == []
    names = ["Zoe", "Ada (bot)", "Bert (bot)", "Cleo (bot)"]
    winners = " and ".join(names[s] for s in outcome.winners)
    result = [line for line in out if line.startswith("result: ")]
    assert len(result) == 1 and result[0].startswith(f"result: {winners} win")
    rounds = [line for line in out if line.startswith("round ")]
    assert len(rounds) == outcome.detail["rounds"]
    assert rounds[0].startswith("round 1: Zoe ")
    assert out[-4:] == [f"{n}: {_score(game, v)}" for n, v in zip(names, outcome.scores,
                                                                    strict=True)]


def _score(game: str, value: int) -> str:
    if game == "eights":
        return f"{value} points"
    return "WIN" if value >= 9 else f"level {value}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "9"], "--bots 9: level8-master is for 2 to 6 players, so use 1 to 5 bots"),
        (["--game", "eights", "--bots", "1"], "--bots 1: eights is for 3 to 6 players"),
        (["--game", "chess"], "--game 'chess': choose one of level8-master, level8, level8-en"),
        (["--option", "colour=blue"], "rule set 'level8-master' has no option 'colour'"),
        (["--option", "reshuffle=never"], "option 'reshuffle': invalid value 'never'"),
        (["--name", ""], "--name '': use 1 to 16 printable characters"),
        (["--record", "game.jsonl"], "--record: a local table keeps no signed record"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]):
    assert main(["play", "--autoplay", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lancards play: error: ")
    assert message in lines[0]


def test_the_table_needs_a_terminal(capsys: pytest.CaptureFixture[str]):
    assert main(["play", "--seed", "1"]) == 2  # pytest's stdin is not a terminal
    assert "use --autoplay" in capsys.readouterr().err
