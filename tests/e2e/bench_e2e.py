"""Benchmark across network namespaces (issue 7): prints one JSON line per measurement.

``python -m tests.e2e.bench_e2e`` (root; about 1-2 minutes on 2 cores):

1. ``deal``: 6 peers, one per namespace, each a ``lancards node`` process with a timings file
   (``cli/node_cmd.py``): seconds from the first peer's start to the moment the last peer holds
   its dealt hand; median and 95th percentile move latency, from the author's journal write of a
   draw or discard to the last peer's (made -> verified by all); wall time of that game.
2. ``game``: a whole 4-player Level 8 Master game with the real commands (``lancards host`` and
   three ``lancards join``, mDNS, no address given): wall time from the host's start to the
   last process's exit.

Not a test: nothing here asserts; run it by hand and copy the figures into docs/acceptance.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.e2e.netns import Lan, unavailable
from tests.e2e.peers import NICKS, finish, lancards, open_table, seat_peers

PORT = 47000
"""Every node listens on this port of its own namespace's address."""


def machine() -> dict[str, Any]:
    from cli.bench import machine as describe

    return dict(describe())


def deal_and_latency(n: int, game: str, folder: Path) -> dict[str, Any]:
    """One whole game of ``n`` node processes across namespaces, with timings."""
    from p2p.identity import Identity
    from p2p.table import start_local

    ids = [Identity.generate(NICKS[i]) for i in range(n)]
    table = start_local(ids, game)
    by_key = {p.public_key: p for p in ids}
    seats = [by_key[m.public_key] for m in table.seats]
    with Lan(n) as lan:
        addresses = [h.address for h in lan.hosts]
        procs = []
        started = time.time()
        for i, me in enumerate(seats):
            cfg = {
                "statement": table.statement, "sigs": table.sigs,
                "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
                "listen": [addresses[i], PORT],
                "peers": {seats[j].public_key.hex(): [addresses[j], PORT]
                          for j in range(n) if j != i},
                "folder": str(folder / f"peer{i}"), "record": str(folder / f"record{i}.jsonl"),
                "timings": str(folder / f"timings{i}.jsonl"),
            }
            path = folder / f"peer{i}.json"
            path.write_text(json.dumps(cfg))
            procs.append(lan.spawn(lan.hosts[i], lancards("node", str(path)),
                                   log=folder / f"peer{i}.log"))
        codes = [p.wait(900) for p in procs]
        wall = time.time() - started
    timings = [[json.loads(x) for x in (folder / f"timings{i}.jsonl").read_text().splitlines()]
               for i in range(n)]
    start = min(x["t"] for peer in timings for x in peer if x.get("started"))
    dealt = max(next(x["t"] for x in peer if x.get("dealt")) for peer in timings)
    seen: dict[int, list[float]] = defaultdict(list)
    for peer in timings:
        for x in peer:
            if "seq" in x:
                seen[x["seq"]].append(x["t"])
    record = [json.loads(x) for x in (folder / "record0.jsonl").read_text().splitlines()[1:]]
    latencies = []
    for item in record:
        if item.get("kind") != "entry":
            continue
        entry = item["entry"]
        verb = str(entry["payload"].get("a", "")).split(":", 1)[-1].split()[:1]
        times = seen.get(entry["seq"], [])
        if entry["payload"].get("t") == "action" and verb in (["draw"], ["discard"]) \
                and len(times) == n:
            latencies.append(max(times) - min(times))
    latencies.sort()
    return {
        "bench": "e2e-deal", "game": game, "peers": n, "exit_codes": codes,
        "deal_s": round(dealt - start, 3), "moves": len(latencies),
        "move_median_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "move_p95_ms": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 2)
        if latencies else None,
        "game_wall_s": round(wall, 2),
    }


def whole_game(n: int, game: str, folder: Path) -> dict[str, Any]:
    """A whole game with ``lancards host`` and ``join`` (mDNS) across namespaces."""
    with Lan(n) as lan:
        peers = seat_peers(lan, folder, n)
        started = time.monotonic()
        open_table(peers, game)
        codes = finish(peers, 900)
        wall = time.monotonic() - started
    verdict = peers[0].audit()
    return {"bench": "e2e-game", "game": game, "peers": n, "exit_codes": codes,
            "game_wall_s": round(wall, 2), "entries": verdict.get("entries")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--peers", type=int, default=6, help="peers of the deal bench")
    parser.add_argument("--game", default="level8-master", help="rule set (level8-master)")
    args = parser.parse_args(argv)
    reason = unavailable()
    if reason is not None:
        print(f"bench_e2e: {reason}", file=sys.stderr)
        return 2
    for run, n in ((deal_and_latency, args.peers), (whole_game, 4)):
        with tempfile.TemporaryDirectory(prefix="lancards-e2e-bench-") as tmp:
            line = run(n, args.game, Path(tmp))
        print(json.dumps({**line, "machine": machine()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
