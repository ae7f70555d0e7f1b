"""The crash-point sweep's driver: peers as ``lancards node`` processes on 127.0.0.1, one seat
killed by the store's crash hook (``LANCARDS_TEST_CRASH_AT``) at chosen persist boundaries and
restarted from its journal, again and again, until the game ends."""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from lancards.cli.bench_net import free_ports
from lancards.p2p.store import CRASH_ENV
from tests.p2p.core_harness import make_table

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class SweepGame:
    """One game of the sweep and what happened to its victim."""

    game: str
    players: int
    victim: int
    seed: int
    points: int
    crashes: list[str] = field(default_factory=list)
    """The crash points reached, as ``WHEN:N`` (N counted from the restart)."""


def plan(rng: random.Random, points: int) -> list[str]:
    """``points`` crash points: a few far into the game, and crashes right after a restart
    (during the resume's catch-up) in between."""
    out = []
    far = max(4, 240 // points)  # the points must fit in one game (about 300 writes a seat)
    for i in range(points):
        when = rng.choice(["before", "torn", "after"])
        n = rng.randint(1, 4) if i % 2 else rng.randint(3, far)
        out.append(f"{when}:{n}")
    return out


def configs(tmp: Path, game: str, n: int) -> list[Path]:
    ids, table = make_table(n, game)
    ports = free_ports(n)
    keys = [m.public_key.hex() for m in table.seats]
    paths = []
    for i, me in enumerate(ids):
        cfg = {
            "statement": table.statement, "sigs": table.sigs,
            "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
            "listen": ["127.0.0.1", ports[i]],
            "peers": {keys[j]: ["127.0.0.1", ports[j]] for j in range(n) if j != i},
            "folder": str(tmp / f"peer{i}"), "record": str(tmp / f"record{i}.jsonl"),
        }
        path = tmp / f"peer{i}.json"
        path.write_text(json.dumps(cfg))
        paths.append(path)
    return paths


def start(cfg: Path, log: Path, crash: str | None) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
    if crash:
        env[CRASH_ENV] = crash
    with log.open("ab") as out:
        out.write(f"--- start {crash or 'no crash'}\n".encode())
    return subprocess.Popen(
        [sys.executable, "-m", "lancards", "node", str(cfg), "--deadline", "300"],
        cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,
    )


def die_with_parent() -> None:
    """In the child: get SIGKILL when the test process dies (Linux ``PR_SET_PDEATHSIG``), so a
    test run stopped by SIGTERM or SIGKILL leaves no peer behind."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def run_game(tmp: Path, sweep: SweepGame, limit: float = 300.0) -> list[bytes]:
    """Play ``sweep`` to the end; returns every peer's record file (bytes), in seat order.

    Raises:
        AssertionError: a peer failed or the game did not end within ``limit`` seconds.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    rng = random.Random(sweep.seed)
    points = plan(rng, sweep.points)
    paths = configs(tmp, sweep.game, sweep.players)
    logs = [tmp / f"peer{i}.log" for i in range(sweep.players)]
    procs = [start(p, logs[i], points[0] if i == sweep.victim else None)
             for i, p in enumerate(paths)]
    next_point = 1
    try:
        deadline = time.monotonic() + limit
        while any(p.poll() is None for p in procs):
            assert time.monotonic() < deadline, f"{sweep} did not end in {limit} s"
            for i, proc in enumerate(procs):
                code = proc.poll()
                assert code in (None, 0) or (code == -9 and i == sweep.victim), (
                    f"peer {i} exited with {code}: {logs[i].read_text()[-3000:]}")
            victim = procs[sweep.victim]
            if victim.poll() == -9:
                sweep.crashes.append(points[next_point - 1])
                crash = points[next_point] if next_point < len(points) else None
                next_point += 1
                procs[sweep.victim] = start(paths[sweep.victim], logs[sweep.victim], crash)
            time.sleep(0.05)
        for i, proc in enumerate(procs):
            assert proc.returncode == 0, f"peer {i}: {logs[i].read_text()[-3000:]}"
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    return [(tmp / f"record{i}.jsonl").read_bytes() for i in range(sweep.players)]
