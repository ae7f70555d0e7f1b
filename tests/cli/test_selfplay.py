"""``lancards selfplay``: a summary in words, or one JSON object with ``--json``; bad arguments
are usage errors (exit 2)."""

from __future__ import annotations

import json

import pytest

from lancards.cli.main import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_selfplay_prints_one_json_summary(capsys):
    status, out, _ = run(capsys, "selfplay", "--game", "level8-master", "--players", "3",
                         "--games", "2", "--seed", "2026", "--json")
    assert status == 0
    summary = json.loads(out)
    assert summary["games"] == 2 and summary["invariant_violations"] == 0
    assert sum(summary["wins_by_seat"]) == 2 and len(summary["wins_by_seat"]) == 3
    # seed 2026 is the golden game: seat 0 wins after 8 rounds (tests/level8/golden).
    assert summary["wins_by_seat"][0] >= 1
    assert summary["actions"] > 300 and summary["rounds"] >= 8
    assert summary["games_per_second"] > 0
    # the keys docs/bots.md lists, each said by name (the trial of 2026-12-05: a bare
    # "winners" list read as winners, not as wins by table seat)
    assert list(summary) == [
        "game", "players", "games", "seed", "seats", "rounds", "wins_by_seat", "shared_wins",
        "levels", "rounds_over_1000_moves", "longest_round_moves", "actions",
        "invariant_violations", "seconds", "games_per_second", "actions_per_second"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "poker"], "--game 'poker': choose one of eights, level8, level8-en, level8-master"),
    (["--players", "7"], "Level 8 Master is for 2 to 6 players"),
    (["--seats", "hard"], "--seats of 1 seat: Level 8 Master is for 2 to 6 players"),
    (["--games", "0"], "play at least one game"),
    (["--players", "3", "--seats", "normal,greedy,greedy,greedy"],
     "--players 3 and --seats of 4 seats: give one of them"),
    (["--option", "reshuffle"], "is not of the form KEY=VALUE"),
    (["--option", "colour=blue"], "has no option 'colour'"),
    (["--option", "reshuffle=never"], "invalid value 'never'"),
    (["--option", "level_cards=/nonexistent/file.toml"], "cannot read"),
])
def test_selfplay_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    status, out, err = run(capsys, "selfplay", *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1 and err.startswith("lancards selfplay: error:")


def test_unknown_flag_is_an_argparse_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["selfplay", "--colour", "red"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --colour red" in capsys.readouterr().err


def test_selfplay_tournament_rotates_seats_and_reports_each_level(capsys):
    """Issue 26: --seats rotates one seat per game; each level gets its win rate with a 95 %
    Wilson interval, mean final level and decision times; long rounds are counted."""
    status, out, _ = run(capsys, "selfplay", "--game", "level8", "--seats",
                         "normal,greedy,greedy", "--games", "3", "--seed", "5",
                         "--check-every", "0", "--json")
    assert status == 0
    summary = json.loads(out)
    assert summary["players"] == 3 and summary["seats"] == ["normal", "greedy", "greedy"]
    normal, greedy = summary["levels"]["normal"], summary["levels"]["greedy"]
    assert normal["seat_games"] == 3 and greedy["seat_games"] == 6
    assert normal["wins"] + greedy["wins"] == sum(summary["wins_by_seat"]) >= 3
    assert normal["win_rate"] == round(normal["wins"] / 3, 4)
    low, high = normal["wilson95"]
    assert 0 <= low <= normal["win_rate"] <= high <= 1
    assert 1 <= normal["mean_final"] <= 9
    assert normal["decision_ms"]["median"] <= normal["decision_ms"]["p95"] \
        <= normal["decision_ms"]["max"]
    cpu = normal["decision_cpu_ms"]
    assert 0 < cpu["median"] <= cpu["p95"] <= cpu["max"]
    assert summary["rounds_over_1000_moves"] == 0
    assert summary["longest_round_moves"] == 106  # these seeds' longest round, player moves


def test_wilson_interval_values():
    from lancards.cli.selfplay import wilson

    low, high = wilson(45, 100)
    assert (round(low, 4), round(high, 4)) == (0.3561, 0.5476)
    assert wilson(0, 0) == (0.0, 1.0)


def test_selfplay_unknown_bot_level_is_a_usage_error(capsys):
    status, out, err = run(capsys, "selfplay", "--seats", "normal,genius")
    assert status == 2 and out == ""
    assert err == ("lancards selfplay: error: --seats: 'genius' is not a level of Level 8 "
                   "Master; it offers easy, normal, hard, greedy\n")


@pytest.mark.parametrize("command", [["selfplay"], ["host", "--autoplay", "--interface",
                                                    "127.0.0.1"], ["join", "--autoplay"]])
def test_an_unknown_game_is_said_in_german_by_every_command(capsys, tmp_path, monkeypatch,
                                                           command):
    """The new-user trial of 2026-12-05 read ``Fehler: unknown game 'poker'...`` from
    ``selfplay`` (and ``join``): the engine's English words, not the catalog's."""
    from lancards.cli import i18n

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    try:
        assert main(["--lang", "de", *command, "--game", "poker"]) == 2
        assert capsys.readouterr().err == (
            f"lancards {command[0]}: Fehler: --game 'poker': eines von eights, level8, level8-en, "
            "level8-master wählen\n")
    finally:
        i18n.set_language("en")


SUMMARY = {
    "game": "level8-master", "players": 4, "games": 1000, "seed": 3000,
    "seats": ["hard", "normal", "normal", "normal"], "rounds": 11234, "wins_by_seat": [],
    "shared_wins": 0, "rounds_over_1000_moves": 0, "longest_round_moves": 162, "actions": 1,
    "invariant_violations": 0, "seconds": 5321.04, "games_per_second": 0.19,
    "actions_per_second": 1.0,
    "levels": {
        "hard": {"seat_games": 1000, "wins": 265, "win_rate": 0.265,
                 "wilson95": [0.2391, 0.2925], "mean_final": 7.1234,
                 "decision_ms": {"median": 0.41, "p95": 136.04, "max": 588.3, "decisions": 9},
                 "decision_cpu_ms": {"median": 0.4, "p95": 136.0, "max": 588.0}},
        "normal": {"seat_games": 3000, "wins": 745, "win_rate": 0.2483,
                   "wilson95": [0.2331, 0.2642], "mean_final": 7.0,
                   "decision_ms": {"median": 0.2, "p95": 4.9, "max": 120.0, "decisions": 9},
                   "decision_cpu_ms": {"median": 0.2, "p95": 4.9, "max": 120.0}},
    },
}


def test_the_summary_in_words_has_a_row_per_level_within_80_columns():
    """The trial of 2026-12-07: 35 s of silence, then one long JSON line; now a table. Issue
    26's trial read ``mean level 9.00`` (a winner is at 9, WIN: no level 9 exists), ``played
    120`` for 30 games of 4 seats, ``longest: 109 moves`` and no fair share: the levels done
    (the final level less one), ``seat-games``, ``longest round`` and a ``fair`` row."""
    from lancards.cli.selfplay_table import summary_lines

    lines = summary_lines(SUMMARY)
    assert lines == [
        "Level 8 Master, 4 players, 1000 games (seeds 3000-3999)",
        "the levels move one seat on each game",
        "bot     seat-games  won  win % (95 % bounds)  levels done  ms/move: med/p95/max",
        "hard          1000  265  26.5 (24-29)         6.12         0.4/136.0/588.3",
        "normal        3000  745  24.8 (23-26)         6.00         0.2/4.9/120.0",
        "fair                     25.0",
        "11234 rounds · longest round: 162 moves · over 1,000 moves: 0 · failed checks: 0",
        "5321.0 s, 0.19 games a second (--json prints every figure)",
    ]
    assert max(len(line) for line in lines) <= 80
    won = {**SUMMARY["levels"]["hard"], "mean_final": 9.0}  # every seat won: all 8 levels done
    assert summary_lines({**SUMMARY, "levels": {"hard": won}})[2] == \
        "hard        1000  265  26.5 (24-29)         8.00         0.4/136.0/588.3"
    eights = summary_lines({**SUMMARY, "game": "eights", "games": 1, "seed": 7, "players": 3})
    assert eights[:3] == ["8s Rule!, 3 players, 1 game (seed 7)", "the lowest total wins",
                          "bot     seat-games  won  win % (95 % bounds)  mean total  "
                          "ms/move: med/p95/max"]
    assert eights[3] == "hard          1000  265  26.5 (24-29)         7.12        0.4/136.0/588.3"
    assert eights[5] == "fair                     33.3"


def test_selfplay_prints_words_by_default_and_progress_only_on_a_terminal(capsys, monkeypatch):
    import io

    from lancards.cli.selfplay_table import Progress

    status, out, err = run(capsys, "selfplay", "--game", "eights", "--players", "3",
                           "--games", "2", "--seed", "5")
    assert status == 0 and err == ""  # not a terminal: no progress line
    lines = out.splitlines()
    assert lines[0] == "8s Rule!, 3 players, 2 games (seeds 5-6)"
    assert lines[2].split() == ["bot", "seat-games", "won", "win", "%", "(95", "%", "bounds)",
                                "mean", "total", "ms/move:", "med/p95/max"]
    assert lines[3].split()[:2] == ["greedy", "6"]

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    progress = Progress(tty, 3)
    progress.game_done(0, 1.2)
    progress.game_done(1, 2.6)
    progress.close()
    assert tty.getvalue() == "\rgame 1 of 3 played, 1 s\rgame 2 of 3 played, 3 s\n"


def test_the_german_summary_fits_80_columns_too():
    from lancards.cli.i18n import set_language
    from lancards.cli.selfplay_table import summary_lines

    set_language("de")
    try:
        lines = summary_lines(SUMMARY)
    finally:
        set_language("en")
    assert lines[2] == ("Bot     Sitze  Siege  Sieg-% (95-%-Grenzen)  Stufen fertig  "
                        "ms/Zug: Med/p95/Max")
    assert lines[5] == "fair                  25.0"
    assert lines[6] == ("11234 Runden · längste Runde: 162 Züge · über 1.000 Züge: 0 · "
                        "Prüffehler: 0")
    assert max(len(line) for line in lines) <= 80
