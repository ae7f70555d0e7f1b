"""net: peers in separate processes on 127.0.0.1: deal time and verified-move latency."""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from p2p.identity import Identity
from p2p.table import start_local

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peers", type=int, nargs="*", default=[4, 6],
                        help="peer counts to measure (default 4 6)")
    parser.add_argument("--game", default="level8-master", help="rule set (default level8-master)")
    parser.add_argument("--quick", action="store_true", help="4 peers only")


def free_ports(n: int) -> list[int]:
    """``n`` TCP ports free on 127.0.0.1 right now (for peer processes that must listen on
    ports known in advance)."""
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def measure(n: int, game: str, folder: Path) -> dict[str, Any]:
    """Play one whole game with ``n`` peer processes and measure it."""
    ids = [Identity.generate(NICKS[i]) for i in range(n)]
    table = start_local(ids, game)
    by_key = {p.public_key: p for p in ids}
    seats = [by_key[m.public_key] for m in table.seats]
    ports = free_ports(n)
    procs = []
    started = time.time()
    for i, me in enumerate(seats):
        cfg = {
            "statement": table.statement, "sigs": table.sigs,
            "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
            "listen": ["127.0.0.1", ports[i]],
            "peers": {seats[j].public_key.hex(): ["127.0.0.1", ports[j]]
                      for j in range(n) if j != i},
            "folder": str(folder / f"peer{i}"), "record": str(folder / f"record{i}.jsonl"),
            "timings": str(folder / f"timings{i}.jsonl"),
        }
        path = folder / f"peer{i}.json"
        path.write_text(json.dumps(cfg))
        procs.append(subprocess.Popen([sys.executable, "-m", "cli", "node", str(path)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    codes = [p.wait(900) for p in procs]
    wall = time.time() - started
    lines = [[json.loads(x) for x in (folder / f"timings{i}.jsonl").read_text().splitlines()]
             for i in range(n)]
    start = min(x["t"] for peer in lines for x in peer if x.get("started"))
    dealt = max(next(x["t"] for x in peer if x.get("dealt")) for peer in lines)
    record = [json.loads(x) for x in (folder / "record0.jsonl").read_text().splitlines()[1:]]
    kinds = {e["entry"]["seq"]: e["entry"]["payload"] for e in record if e.get("kind") == "entry"}
    seen: dict[int, dict[str, float]] = defaultdict(dict)
    for i, peer in enumerate(lines):
        for x in peer:
            if "seq" in x:
                seen[x["seq"]][seats[i].public_key.hex()[:16]] = x["t"]
    latencies = []
    for seq, payload in kinds.items():
        verb = str(payload.get("a", "")).split(":", 1)[-1].split()[:1]
        if payload.get("t") != "action" or verb not in (["draw"], ["discard"]):
            continue
        times = seen.get(seq, {})
        author = next((e["entry"]["author"][:16] for e in record
                       if e.get("kind") == "entry" and e["entry"]["seq"] == seq), "")
        if author in times and len(times) == n:
            latencies.append(max(times.values()) - times[author])
    latencies.sort()
    return {
        "bench": "net",
        "game": game,
        "peers": n,
        "exit_codes": codes,
        "deal_s": round(dealt - start, 3),
        "moves": len(latencies),
        "move_median_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "move_p95_ms": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 2)
        if latencies else None,
        "game_wall_s": round(wall, 2),
        "entries": len(kinds),
    }


def run(args: argparse.Namespace) -> int:
    from cli.bench import machine

    counts = [4] if args.quick else args.peers
    for n in counts:
        with tempfile.TemporaryDirectory(prefix="lancards-bench-") as tmp:
            line = measure(n, args.game, Path(tmp))
        print(json.dumps({**line, "machine": machine()}), flush=True)
    return 0
