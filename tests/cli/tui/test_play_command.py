"""``lancards play``: --autoplay plays whole games; bad arguments exit 2 with one line."""

from __future__ import annotations

import json
import random

import pytest

from lancards.cli.driver import play_local
from lancards.cli.game_titles import game_title
from lancards.cli.main import main
from lancards.engine.rulesets import make_bot, rule_set

GAMES = ["level8-master", "level8", "level8-en", "eights"]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Identity and table folders in a temporary LANCARDS_HOME."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.mark.long  # CI budget: networked play by keys in tests/cli/tui/test_tmux.py
@pytest.mark.parametrize("game", GAMES)
def test_autoplay_plays_a_whole_networked_game_and_its_record_audits(
        game: str, tmp_path, capsys: pytest.CaptureFixture[str]):
    """Real peers on 127.0.0.1 (websockets, mental poker); the record it writes verifies."""
    record = tmp_path / "game.jsonl"
    status = main(["play", "--game", game, "--autoplay", "--seed", "11", "--name", "Zoe",
                   "--record", str(record)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert main(["audit", "--json", str(record)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["finished"] and verdict["game"] == game
    header = json.loads(record.read_text().splitlines()[0])
    names = header["nicks"]
    assert "Zoe" in names and len(names) == 4
    winners = " and ".join(names[s] for s in verdict["winners"])
    title = game_title(game)  # the result names its game, as the screen's end prints it
    result = [line for line in out if line.startswith(f"{title}: ")]
    assert len(result) == 1 and result[0].startswith(f"{title}: {winners} win")
    assert not any(line.startswith("result: ") for line in out)
    [kept] = (tmp_path / "home" / "tables").glob("*/outcome.json")  # the engine's places
    places = json.loads(kept.read_text())["detail"]["places"]
    by_place = sorted(range(4), key=lambda s: (places[s], s))  # the winner first
    assert out[-5:-1] == [f"{names[s]}: {_score(game, verdict['scores'][s])}" for s in by_place]
    assert out[-1] == f"record: {record}"


def test_local_autoplay_is_the_seeded_local_game(capsys: pytest.CaptureFixture[str]):
    game = "level8-master"
    status = main(["play", "--game", game, "--autoplay", "--local", "--seed", "11",
                   "--name", "Zoe"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    # The same seed with bots in every seat is the same game (one seeded chance, same bots:
    # the default level, normal, each seat's bot seeded as LocalSession seeds it).
    spec = rule_set(game)
    bots = [make_bot(spec.game, "normal", random.Random(f"bot-11-{s}")) for s in range(4)]
    played = play_local(spec.game, spec.make_rules(), 4, 11, bots=bots)
    outcome = spec.game.outcome(played.final)
    assert outcome is not None and played.violations == []
    names = ["Zoe", "Ada", "Bram", "Cleo"]
    winners = " and ".join(names[s] for s in outcome.winners)
    result = [line for line in out if line.startswith("Level 8 Master: ")]
    assert len(result) == 1 and result[0].startswith(f"Level 8 Master: {winners} win")
    rounds = [line for line in out if line.startswith("round ")]
    assert len(rounds) == outcome.detail["rounds"]
    assert rounds[0].startswith("round 1: Zoe ")
    by_place = sorted(range(4), key=lambda s: (outcome.detail["places"][s], s))  # winner first
    assert out[-4:] == [f"{names[s]}: {_score(game, outcome.scores[s])}" for s in by_place]


def _score(game: str, value: int) -> str:
    if game == "eights":
        return f"{value} points"
    return "WIN" if value >= 9 else f"level {value}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "9"], "--bots 9: Level 8 Master is for 2 to 6 players, so use 1 to 5 bots"),
        (["--game", "eights", "--bots", "1"], "--bots 1: 8s Rule! is for 3 to 6 players"),
        (["--game", "chess"], "--game 'chess': choose one of level8-master, level8, level8-en"),
        (["--option", "colour=blue"], "rule set 'level8-master' has no option 'colour'"),
        (["--option", "reshuffle=never"], "option 'reshuffle': invalid value 'never'"),
        (["--name", ""], "--name '': use 1 to 24 printable characters"),
        (["--record", "game.jsonl", "--local"], "--record: a --local table keeps no signed record"),
        (["--record", "/nonexistent/x.jsonl"], "--record /nonexistent/x.jsonl: no folder"),
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


def test_autoplay_names_its_game_in_the_result_line_in_german(capsys: pytest.CaptureFixture[str]):
    """The end of the table's screen prints ``8s Rule!: ...``; ``--autoplay`` printed
    ``result: ...`` (``Ergebnis: ...``) until the last session's trials: the same words now."""
    from lancards.cli import i18n

    try:
        assert main(["--lang", "de", "play", "--game", "eights", "--autoplay", "--local",
                     "--seed", "11", "--name", "Zoe"]) == 0
    finally:
        i18n.set_language("en")
    out = capsys.readouterr().out.splitlines()
    assert out[-5:] == ["8s Rule!: Bram gewinnt mit der niedrigsten Summe", "Bram: 35 Punkte",
                        "Ada: 45 Punkte", "Cleo: 110 Punkte", "Zoe: 250 Punkte"]
    assert not any(line.startswith(("Ergebnis: ", "result: ")) for line in out)
