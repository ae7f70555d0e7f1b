"""A peer process killed with SIGKILL mid-round restarts from its journal and the game finishes
with identical records on all peers (separate processes, websockets on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lancards.cli.bench_net import free_ports
from lancards.p2p.audit import audit_lines
from tests.p2p.core_harness import make_table

ROOT = Path(__file__).resolve().parents[2]


def journal_entries(folder: Path) -> int:
    try:
        return sum(1 for line in (folder / "journal.jsonl").read_bytes().split(b"\n")
                   if b'"kind":"entry"' in line)
    except FileNotFoundError:
        return 0


def start(cfg: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "lancards", "node", str(cfg), "--deadline", "300"],
        cwd=ROOT, stdout=log.open("ab"), stderr=subprocess.STDOUT,
    )


def test_sigkill_mid_round_and_resume(tmp_path):
    ids, table = make_table(4, "level8-master")
    ports = free_ports(4)
    keys = [m.public_key.hex() for m in table.seats]
    configs = []
    for i, me in enumerate(ids):
        cfg = {
            "statement": table.statement, "sigs": table.sigs,
            "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
            "listen": ["127.0.0.1", ports[i]],
            "peers": {keys[j]: ["127.0.0.1", ports[j]] for j in range(4) if j != i},
            "folder": str(tmp_path / f"peer{i}"), "record": str(tmp_path / f"record{i}.jsonl"),
        }
        path = tmp_path / f"peer{i}.json"
        path.write_text(json.dumps(cfg))
        configs.append(path)
    procs = [start(c, tmp_path / f"peer{i}.log") for i, c in enumerate(configs)]
    victim = 2
    try:
        deadline = time.monotonic() + 120
        while journal_entries(tmp_path / f"peer{victim}") < 120:
            assert time.monotonic() < deadline, "the game did not get going"
            assert procs[victim].poll() is None, "the victim ended before the kill"
            time.sleep(0.05)
        os.kill(procs[victim].pid, signal.SIGKILL)
        procs[victim].wait(10)
        killed_at = journal_entries(tmp_path / f"peer{victim}")
        time.sleep(0.5)
        procs[victim] = start(configs[victim], tmp_path / f"peer{victim}.log")
        for proc in procs:
            assert proc.wait(300) == 0, (tmp_path / f"peer{procs.index(proc)}.log").read_text()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    records = [(tmp_path / f"record{i}.jsonl").read_bytes() for i in range(4)]
    # Identical but for the closing line, which each peer signs itself.
    bodies = [r.rstrip(b"\n").rsplit(b"\n", 1)[0] for r in records]
    assert all(b == bodies[0] for b in bodies)
    assert all(b'"kind":"close"' in r.rstrip(b"\n").rsplit(b"\n", 1)[1] for r in records)
    report = audit_lines(records[0].rstrip(b"\n").split(b"\n"))
    assert report.ok and report.finished and report.entries > killed_at
