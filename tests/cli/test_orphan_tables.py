"""Orphan table folders (a crash at a new table's first write) removed when tables are listed,
and only those (:mod:`lancards.cli.orphan_tables`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from lancards.cli.history import list_games
from lancards.cli.orphan_tables import STARTED, remove_orphans
from lancards.cli.play import unfinished_tables

ROOT = Path(__file__).resolve().parents[2]
DEAD = {"command": "lancards play", "pid": 2 ** 22 + 7, "proc_start": 1, "since": 1.0}
"""A holder.json of a process that is gone (a pid above Linux's pid_max)."""


def folder(tables: Path, name: str, files: dict[str, str], age: float = 3600.0) -> Path:
    path = tables / name
    path.mkdir(parents=True)
    for file, text in files.items():
        (path / file).write_text(text)
    when = STARTED - age
    for p in [*path.iterdir(), path]:
        os.utime(p, (when, when))
    return path


def layout(tables: Path) -> None:
    leftovers = {"lock": "", "holder.json": json.dumps(DEAD), "table.json.tmp": '{\n "ga'}
    folder(tables, "a-torn", leftovers)
    folder(tables, "b-empty", {})
    folder(tables, "c-lock-only", {"lock": "", "holder.json": json.dumps(DEAD)})
    folder(tables, "d-table", {**leftovers, "table.json": "{}"})
    folder(tables, "e-journal", {"lock": "", "journal.jsonl": ""})
    folder(tables, "f-more", {**leftovers, "secret.json": "{}"})
    folder(tables, "g-young", leftovers, age=-5.0)  # made after this process started
    live = {**DEAD, "pid": os.getpid(), "proc_start": None}
    folder(tables, "h-held", {**leftovers, "holder.json": json.dumps(live)})


def test_only_old_unheld_folders_without_table_or_journal_are_removed(tmp_path):
    tables = tmp_path / "tables"
    layout(tables)
    locked = folder(tables, "i-locked", {"lock": "", "table.json.tmp": "{"})
    holder = subprocess.Popen(  # another process holds i-locked's lock, as a table's does
        [sys.executable, "-c", "import sys, time, filelock\n"
         "lock = filelock.FileLock(sys.argv[1], thread_local=False)\nlock.acquire()\n"
         "print('held', flush=True)\ntime.sleep(60)\n", str(locked / "lock")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        os.utime(locked / "lock", (STARTED - 60, STARTED - 60))
        removed = remove_orphans(tables)
    finally:
        holder.kill()
        holder.wait(10)
    assert [p.name for p in removed] == ["a-torn", "b-empty", "c-lock-only"]
    assert sorted(p.name for p in tables.iterdir()) == [
        "d-table", "e-journal", "f-more", "g-young", "h-held", "i-locked"]
    assert sorted(p.name for p in (tables / "f-more").iterdir()) == [
        "holder.json", "lock", "secret.json", "table.json.tmp"]  # nothing of a kept one goes
    assert remove_orphans(tables) == [tables / "i-locked"]  # its holder ended: now it goes


def test_history_and_resume_remove_them_as_they_list_tables(tmp_path):
    for lister in (list_games, unfinished_tables):
        tables = tmp_path / lister.__name__
        layout(tables)
        lister(tables)
        assert sorted(p.name for p in tables.iterdir()) == [
            "d-table", "e-journal", "f-more", "g-young", "h-held"]


def test_lancards_history_removes_what_a_torn_first_table_file_left(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "LANCARDS_HOME": str(home), "LANCARDS_TEST_CRASH_AT": "table-torn:1"}
    done = subprocess.run([sys.executable, "-m", "lancards", "play", "--game", "level8",
                           "--bots", "1", "--seed", "5", "--autoplay", "--bot-delay", "0"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == -9, done.stderr
    [left] = (home / "tables").iterdir()
    assert sorted(p.name for p in left.iterdir()) == ["holder.json", "lock", "table.json.tmp"]
    time.sleep(2.1)  # the next process starts (to the second) after the folder was made
    del env["LANCARDS_TEST_CRASH_AT"]
    history = subprocess.run([sys.executable, "-m", "lancards", "history"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    assert history.stdout == f"no games yet in {home / 'tables'}: lancards play starts one\n"
    assert list((home / "tables").iterdir()) == []
