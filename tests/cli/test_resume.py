"""``lancards play --autoplay`` killed with SIGKILL mid-game; ``lancards resume`` finishes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lancards.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def entries(home: Path) -> int:
    journals = list(home.glob("tables/*/journal.jsonl"))
    if not journals:
        return 0
    return journals[0].read_bytes().count(b'"kind":"entry"')


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
    assert "result: " in out and f"record: {record}" in out
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
