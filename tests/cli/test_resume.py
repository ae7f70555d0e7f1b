"""``lancards play --autoplay`` killed with SIGKILL mid-game; ``lancards resume`` finishes it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def entries(home: Path) -> int:
    journals = list(home.glob("tables/*/journal.jsonl"))
    if not journals:
        return 0
    return journals[0].read_bytes().count(b'"kind":"entry"')


@pytest.mark.long  # CI budget: the crash-point sweeps kill and resume every kind of seat in CI
def test_resume_after_sigkill(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    env = {**os.environ, "LANCARDS_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "lancards", "play", "--autoplay", "--seed", "4"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while entries(home) < 100:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    before = entries(home)
    monkeypatch.setenv("LANCARDS_HOME", str(home))
    record = tmp_path / "game.jsonl"
    assert main(["resume", "--autoplay", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^Level 8 Master: .+ wins? after \d+ rounds?$", out, re.M), out  # its game
    assert "result: " not in out and f"record: {record}" in out
    assert main(["audit", "--json", str(record)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["finished"] and verdict["entries"] > before
    # Nothing is left to resume, and that is a usage error with one line.
    assert main(["resume", "--autoplay"]) == 2
    assert "no unfinished table to resume" in capsys.readouterr().err


def test_resume_unknown_table_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["resume", "--autoplay", "0123456789abcdef"]) == 2
    assert "no table 0123456789abcdef" in capsys.readouterr().err


def _play_until_crash(home: Path, crash: str, *args: str) -> None:
    """Run ``lancards ARGS`` until the store's crash hook kills it (SIGKILL) at ``crash``."""
    env = {**os.environ, "LANCARDS_HOME": str(home), "LANCARDS_TEST_CRASH_AT": crash}
    proc = subprocess.run([sys.executable, "-m", "lancards", *args], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.long  # CI budget: the crash-point sweeps in CI
def test_crash_resume_crash_again_resume_loses_nothing(tmp_path, monkeypatch, capsys):
    """Issue 12, situation 4: the first crash tears the journal's last line; the resumed peer
    appends after it (cut back first), crashes again during the resume, and the next resume
    reads every line: the game finishes and audits."""
    home = tmp_path / "home"
    # 8s Rule! ends after eight rounds whatever the cards: a Level 8 Master table of bots whose
    # deck differs after a resume (fresh randomness) was once seen drawing and discarding for
    # 7000 moves at levels 5 to 7 without anyone laying down.
    _play_until_crash(home, "torn:120", "play", "--autoplay", "--game", "eights", "--seed", "7")
    journal = next(j for j in home.glob("tables/**/journal.jsonl")
                   if not j.read_bytes().endswith(b"\n"))  # a torn last line (of some peer)
    _play_until_crash(home, "after:9", "resume", "--autoplay")
    monkeypatch.setenv("LANCARDS_HOME", str(home))
    from lancards.p2p.net.store import TableStore

    kept = TableStore(journal.parent).read()
    assert kept.torn == 0 and len(kept.lines) > 0
    record = tmp_path / "game.jsonl"
    assert main(["resume", "--autoplay", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["audit", "--json", str(record)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["finished"]
    entries_kept = sum(1 for kind, _ in kept.lines if kind == "entry")
    assert verdict["entries"] > entries_kept


def test_a_damaged_journal_line_refuses_the_resume_in_one_line(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    _play_until_crash(home, "after:60", "play", "--autoplay", "--seed", "5")
    journal = next(home.glob("tables/*/journal.jsonl"))
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"seq":', b'"seq": ', 1)  # one space more on line 3
    journal.write_bytes(b"\n".join(lines))
    monkeypatch.setenv("LANCARDS_HOME", str(home))
    assert main(["resume", "--autoplay"]) == 2
    err = capsys.readouterr().err
    assert err == (f"lancards resume: error: the journal {journal} is damaged at line 3 "
                   "(checksum mismatch); not resuming from it\n")


def test_move_keys_name_the_missing_peer_not_the_player_and_count_pending_cards():
    """Issue 12, situation 3: ``x`` said the game waited for the very player who pressed it."""
    from lancards.cli.session import TableSnapshot
    from lancards.cli.tui.controller import not_now, pending_text
    from lancards.engine.level8 import LEVEL8

    waiting = "waiting for cyd (shares for your draw), 4 s"
    mine = TableSnapshot(game=LEVEL8, rule_set="level8", seat=0, names=("ann", "bob", "cyd"),
                         view=None, to_act=0, legal=[],
                         extra={"waiting": waiting, "pending": 1})
    assert not_now(mine) == f"your move is pending: {waiting}"
    assert pending_text(mine) == " + 1 pending"
    theirs = TableSnapshot(game=LEVEL8, rule_set="level8", seat=0, names=("ann", "bob", "cyd"),
                           view=None, to_act=2, legal=[],
                           extra={"waiting": "waiting for cyd (their move), 12 s"})
    assert not_now(theirs) == "not your move: waiting for cyd (their move), 12 s"
    assert pending_text(theirs) == ""
    quiet = TableSnapshot(game=LEVEL8, rule_set="level8", seat=0, names=("ann", "bob", "cyd"),
                          view=None, to_act=1, legal=[])
    assert not_now(quiet) == "not your move: waiting for bob"


def _tables(home: Path, *names: str) -> None:
    for age, name in enumerate(names):  # the first the newest: history's 1
        folder = home / "tables" / name
        folder.mkdir(parents=True)
        (folder / "table.json").write_text("{}")
        os.utime(folder / "table.json", (1_796_000_000 - 60 * age,) * 2)


def test_resume_takes_the_first_characters_of_a_table_id(tmp_path, monkeypatch):
    """The trial of 2026-12-05: ``lancards resume 0c9e`` said "no table 0c9e" while audit and
    replay take the first 4 characters or more of an id. The new-user trial of 2026-12-07:
    ``history`` showed ``lancards resume 25…`` (cut at 80 columns), and ``resume 25``,
    ``resume 49c`` and ``resume 3`` (the number audit and replay take) said ``no table 25 in
    /…/tables``: resume now takes what they take, by the same code."""
    from lancards.cli.errors import UsageError
    from lancards.cli.play import find_table

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    _tables(tmp_path, "0c9e111111111111", "0c9f222222222222", "0c9f333333333333",
            "25aa444444444444", "49cb555555555555")
    assert find_table("0c9e").name == "0c9e111111111111"
    assert find_table("0c9f3").name == "0c9f333333333333"
    assert find_table("25").name == "25aa444444444444"  # 5 games: no game 25
    assert find_table("49c").name == "49cb555555555555"
    assert find_table("3").name == "0c9f333333333333"  # the history's number 3
    assert find_table("#1").name == "0c9e111111111111"
    assert find_table("0c9f222222222222").name == "0c9f222222222222"
    for argument, error in (
            ("0c9f", "2 tables begin with 0c9f: 0c9f222222222222, 0c9f333333333333; give "
                     "more of the id"),
            ("7", "no table 7: give the number lancards history shows, or the start of a "
                  "table id"),
            ("zz", "no table zz: give the number lancards history shows, or the start of a "
                   "table id")):
        with pytest.raises(UsageError) as caught:
            find_table(argument)
        assert str(caught.value) == error


def test_resume_says_what_it_takes_in_german(tmp_path, monkeypatch, capsys, german):
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    _tables(tmp_path, "0c9f222222222222", "0c9f333333333333")
    assert main(["--lang", "de", "resume", "--autoplay", "25"]) == 2
    assert capsys.readouterr().err.strip() == (
        "lancards resume: Fehler: kein Tisch 25: gib die Nummer an, die lancards history "
        "zeigt, oder den Anfang einer Tisch-ID")
    assert main(["--lang", "de", "resume", "--autoplay", "0c9"]) == 2
    assert capsys.readouterr().err.strip() == (
        "lancards resume: Fehler: 2 Tische beginnen mit 0c9: 0c9f222222222222, "
        "0c9f333333333333; gib mehr von der ID an")
