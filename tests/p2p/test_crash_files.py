"""Crash points on the stores' replaced files (``table.json``, ``secret.json``,
``outcome.json``): ``torn`` tears them as it tears the journal (half of the text in
``FILE.tmp``, no rename, then the kill), and every reader copes: ``lancards history``,
``lancards resume``, the paused-table count of ``lancards play`` (``unfinished_tables``) and
``lancards audit`` (``docs/protocol.md``, 11.5, "Crash points (tests)")."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from lancards.cli.history import list_games
from lancards.cli.play import unfinished_tables
from lancards.p2p.net.crash_hook import CRASH_ENV

ROOT = Path(__file__).resolve().parents[2]
TABLE = "cf79d2c652902eec"
"""The table id of ``lancards play --game level8 --bots 1 --seed 5`` (the seed fixes it)."""


def lancards(home: Path, *args: str, crash: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    env["LANCARDS_HOME"] = str(home)
    if crash:
        env[CRASH_ENV] = crash
    return subprocess.run([sys.executable, "-m", "lancards", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=150)


def play(home: Path, crash: str) -> Path:
    """Tess and a bot at Level 8 (seed 5), killed at ``crash``; the table's folder."""
    done = lancards(home, "play", "--game", "level8", "--bots", "1", "--seed", "5",
                    "--autoplay", "--bot-delay", "0", "--name", "Tess", crash=crash)
    assert done.returncode == -signal.SIGKILL, done.stdout[-2000:] + done.stderr[-2000:]
    return home / "tables" / TABLE


def test_a_plain_torn_point_tears_each_store_file_and_after_renames_it(tmp_path):
    """The second durable write of each script is the file: ``torn:2`` leaves half of its
    text in ``FILE.tmp`` and the old file (or none) in place; ``after:2`` the new file."""
    writes = {"table": "s.save_table({'game': 2})", "secret": "s.save_secret('ab12')",
              "outcome": "s.save_outcome({'winners': [1]})"}
    texts = {"table": json.dumps({"game": 2}, indent=1), "secret": json.dumps({"x": "ab12"}),
             "outcome": json.dumps({"winners": [1]})}
    kept = {}
    for name, write in writes.items():
        for when in ("torn", "after"):
            folder = tmp_path / f"{name}-{when}"
            script = ("import sys\nfrom lancards.p2p.net.store import TableStore\n"
                      "s = TableStore(sys.argv[1])\ns.append('entry', {'seq': 0})\n"
                      f"{write}\n")
            proc = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                                  env={**os.environ, CRASH_ENV: f"{when}:2"}, timeout=60)
            assert proc.returncode == -signal.SIGKILL
            path, tmp = folder / f"{name}.json", folder / f"{name}.json.tmp"
            kept[name, when] = (path.read_text() if path.exists() else None,
                                tmp.read_text() if tmp.exists() else None)
    for name, text in texts.items():
        assert kept[name, "torn"] == (None, text[:len(text) // 2])
        assert kept[name, "after"] == (text, None)


def test_a_torn_first_table_file_leaves_no_game_to_list_or_resume(tmp_path):
    folder = play(tmp_path, "table-torn:1")
    whole = (folder / "table.json.tmp").read_text()
    assert not (folder / "table.json").exists() and not (folder / "journal.jsonl").exists()
    assert whole.startswith('{\n "') and not whole.rstrip().endswith("}")  # half of it
    assert list_games(tmp_path / "tables") == [] and unfinished_tables(tmp_path / "tables") == []
    history = lancards(tmp_path, "history")
    assert (history.returncode, history.stdout.strip()) == (
        0, f"no games yet in {tmp_path / 'tables'}: lancards play starts one")
    resume = lancards(tmp_path, "resume", "--autoplay")
    assert resume.returncode != 0
    assert resume.stderr.strip().endswith(
        f"no unfinished table to resume in {tmp_path / 'tables'}"), resume.stderr


def _resumed_to_one_winner(tmp_path: Path) -> str:
    """``lancards resume --autoplay`` plays the game to its end; resume, audit and history
    name the same winner (Tess or Ada: the seats' order follows from Tess's key, drawn anew
    each run). Returns the winner."""
    record = tmp_path / "game.jsonl"
    resume = lancards(tmp_path, "resume", "--autoplay", "--bot-delay", "0", "--record",
                      str(record))
    assert resume.returncode == 0, resume.stdout[-2000:] + resume.stderr[-2000:]
    winner = re.search(r"^Level 8: (\w+) wins after \d+ rounds$", resume.stdout, re.M)
    assert winner is not None and winner[1] in ("Tess", "Ada"), resume.stdout
    assert f"{winner[1]}: WIN\n" in resume.stdout
    audit = lancards(tmp_path, "audit", str(record))
    assert audit.returncode == 0 and audit.stdout.startswith("OK: Level 8, "), audit.stdout
    assert f"game finished; winner: {winner[1]} [" in audit.stdout, audit.stdout
    history = lancards(tmp_path, "history").stdout
    assert f"Level 8: {winner[1]} won" in history and f"{winner[1]} WIN" in history, history
    return winner[1]


def test_a_torn_secret_file_is_dealt_again_on_resume_and_the_game_ends(tmp_path):
    folder = play(tmp_path, "secret-torn:1")
    torn = [p.relative_to(folder).as_posix() for p in folder.rglob("secret.json*")]
    # the first share written, Tess's or the bot's (their peers run side by side), is torn
    assert torn in (["secret.json.tmp"], ["bots/1/secret.json.tmp"])
    half = (folder / torn[0]).read_text()
    assert half.startswith('{"x": "') and not half.endswith('"}'), half
    assert [g.table for g in list_games(tmp_path / "tables")] == [TABLE]
    assert unfinished_tables(tmp_path / "tables") == [folder]
    _resumed_to_one_winner(tmp_path)
    assert unfinished_tables(tmp_path / "tables") == []


def test_a_torn_outcome_file_leaves_the_game_unfinished_and_resume_ends_it(tmp_path):
    folder = play(tmp_path, "outcome-torn:1")
    assert not (folder / "outcome.json").exists() and not (folder / "finished").exists()
    half = (folder / "outcome.json.tmp").read_text()
    assert half.startswith('{"winners": [') and not half.endswith("}")
    [game] = list_games(tmp_path / "tables")
    assert (game.table, game.status) == (TABLE, "unfinished")
    assert unfinished_tables(tmp_path / "tables") == [folder]
    history = lancards(tmp_path, "history")
    assert "Level 8: unfinished" in history.stdout, history.stdout
    # the seats' order follows from Tess's key, drawn anew each run: either order is right
    assert re.search(r"^     (Tess|Ada) level 8, (Tess|Ada) level 8 after round 5 · ",
                     history.stdout, re.M), history.stdout
    _resumed_to_one_winner(tmp_path)
    assert len(json.loads((folder / "outcome.json").read_text())["winners"]) == 1
    assert not (folder / "outcome.json.tmp").exists()
    assert unfinished_tables(tmp_path / "tables") == []
