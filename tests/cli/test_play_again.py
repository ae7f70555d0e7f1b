"""A whole rematch of 8s Rule! through ``lancards play --autoplay --games 2`` (issue 27): bots,
seeded; the second game's first dealer by the rules (ruling E-2: the winner of the last game),
the evening's totals after each game, each record auditing alone and the second naming the
game it follows, and ``lancards history`` listing both in one series."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lancards.cli.main import main
from lancards.p2p.protocol.identity import Identity


@pytest.mark.long  # two whole games of 8s Rule! through real peers (about 50 s here)
def test_a_seeded_series_of_two_games_through_lancards_play(tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["play", "--autoplay", "--game", "eights", "--seed", "5", "--bots", "2",
                 "--bot-level", "greedy", "--bot-delay", "0", "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    first_end = out.index("8s Rule!: You win with the lowest total")
    assert out[first_end + 1:first_end + 5] == [
        "You: 80 points", "Bram: 205 points", "Ada: 215 points",  # by place, the winner first
        "game 2 of the evening: You deal round 1 (the winner of the last game deals)",
    ]  # no evening of one game, after it nor under the next game's first line (the trials)
    assert out[first_end + 5].startswith("round 1: ")
    assert out[-5:] == [
        "8s Rule!: Bram wins with the lowest total",
        "Bram: 135 points", "Ada: 170 points", "You: 175 points",
        "evening so far: Ada: 0 wins, 385 points · Bram: 1 win, 340 points · "
        "You: 1 win, 255 points",
    ]
    folders = {json.loads((f / "table.json").read_text())["statement"].get("follows", {}).get(
        "game", 1): f for f in (tmp_path / "tables").iterdir()}
    first, second = folders[1], folders[2]
    statement = json.loads((second / "table.json").read_text())["statement"]
    you = Identity(b"\x05" * 32, "You").public_key.hex()
    assert statement["seats"][statement["options"]["first_dealer"]]["pk"] == you
    assert statement["follows"]["tbl"] == first.name
    capsys.readouterr()
    assert main(["audit", str(second / "record.jsonl")]) == 0
    lines = capsys.readouterr().out.splitlines()
    closing = json.loads((first / "record.jsonl").read_text().splitlines()[-1])
    # short ids and the entry's number, as lancards history says them (the full ids and head:
    # --verbose)
    assert lines[0] == (f"game 2 of series {first.name[:8]}: follows table {first.name[:8]}, "
                        f"whose record ends in entry {closing['entries']} "
                        f"({closing['head'][:8]})")
    assert lines[1].startswith("OK: 8s Rule!, ")
    assert main(["audit", str(first / "record.jsonl")]) == 0
    capsys.readouterr()
    assert main(["history"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].endswith(f"8s Rule!: Bram won · game 2 of series {first.name[:8]}")
    assert listed[1].endswith(f"· table {second.name[:8]}")
    assert listed[2].endswith(f"8s Rule!: You won · game 1 of series {first.name[:8]}")


@pytest.mark.long  # two whole games of 8s Rule! through real peers, one kill (about 50 s)
@pytest.mark.parametrize("crash", ["rematch-after:1", "rematch-before:3"])
def test_lancards_play_killed_inside_play_again_resumes_into_the_next_game(
        tmp_path: Path, capsys, monkeypatch, crash: str) -> None:
    """``lancards play --autoplay --games 2`` killed (SIGKILL, the crash hook) at a journal
    write of "play again": after its first (a bot's answer, durable), or before its third;
    ``lancards resume --autoplay`` replays every peer's agreement lines and plays game 2."""
    import os
    import signal
    import subprocess
    import sys

    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    env = {**os.environ, "LANCARDS_HOME": str(tmp_path), "LANCARDS_TEST_CRASH_AT": crash}
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-m", "lancards", "play", "--autoplay", "--game",
                           "eights", "--seed", "5", "--bots", "2", "--bot-level", "greedy",
                           "--bot-delay", "0", "--games", "2"], cwd=root, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    assert proc.returncode == -signal.SIGKILL
    [first] = [f for f in (tmp_path / "tables").iterdir() if (f / "again").exists()]
    assert (first / "finished").exists() and not (first / "again-over").exists()
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["resume", "--autoplay"]) == 0
    out = capsys.readouterr().out.splitlines()
    # game 1 was won by You (the seeded game above): You deal game 2 (ruling E-2)
    assert "game 2 of the evening: You deal round 1 (the winner of the last game deals)" in out
    evenings = [line for line in out if line.startswith("evening so far")]
    won = sum(int(part.split(": ")[1].split(" ")[0])
              for part in evenings[-1].removeprefix("evening so far: ").split(" · "))
    assert won == 2  # two games counted
    assert (first / "again-over").exists()
    second = [f for f in (tmp_path / "tables").iterdir() if f != first]
    assert len(second) == 1 and (second[0] / "finished").exists()
    statement = json.loads((second[0] / "table.json").read_text())["statement"]
    assert statement["follows"]["tbl"] == first.name
    assert main(["resume", "--autoplay"]) == 2  # nothing left to resume


@pytest.mark.timeout(120)
def test_a_series_says_the_evening_once_after_each_game(tmp_path: Path, capsys,
                                                        monkeypatch) -> None:
    """The trial of 2026-12-05: ``--autoplay --games 2`` printed the same "evening so far"
    line twice in a row (after game 1's result and again under game 2's first line); the
    new-user trial: an evening of one game is no evening. The line comes once, after game 2."""
    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["play", "--autoplay", "--game", "level8", "--seed", "3", "--bots", "2",
                 "--bot-level", "greedy", "--bot-delay", "0", "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    evenings = [i for i, line in enumerate(out) if line.startswith("evening so far: ")]
    assert evenings == [len(out) - 1]
    assert out[-1] == "evening so far: You: 1 win · Ada: 0 wins · Bram: 1 win"
    second = out.index("game 2 of the evening: Bram deals round 1 (the player left of the "
                       "last game's first dealer deals)")
    assert out[second - 4:second] == ["Level 8: Bram wins after 9 rounds", "Bram: WIN",
                                      "You: level 8", "Ada: level 8"]  # game 1: no evening
    assert out[second + 1].startswith("round 1: ")
