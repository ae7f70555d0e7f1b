"""Benchmark across network namespaces (issue 7): prints one JSON line per measurement.

``python -m tests.e2e.bench_e2e`` (root; about 1-2 minutes on 2 cores):

1. ``deal``: 6 peers, one per namespace, each a ``lancards node`` process with a timings file
   (``cli/node_cmd.py``): seconds from the first peer's start to the moment the last peer holds
   its dealt hand; median and 95th percentile move latency, from the author's journal write of a
   draw or discard to the last peer's (made -> verified by all); wall time of that game.
2. ``game``: a whole 4-player Level 8 Master game with the real commands (``lancards host`` and
   three ``lancards join``, mDNS, no address given): wall time from the host's start to the
   last process's exit.

``--deal-only N`` (issue 16's goal, "6 peers across network namespaces, start to all hands
dealt"): N deals only, each table stopped once every hand is dealt; one JSON line with the
median and every run.

Not a test: nothing here asserts; run it by hand and copy the figures into docs/acceptance.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.e2e.netns import Lan, unavailable
from tests.e2e.peers import finish, lancards, open_table, seat_peers

PORT = 47000
"""Every node listens on this port of its own namespace's address."""


def machine() -> dict[str, Any]:
    from lancards.cli.bench.machine import machine as describe

    return dict(describe())


def deal_and_latency(n: int, game: str, folder: Path) -> dict[str, Any]:
    """One whole game of ``n`` node processes across namespaces, with timings."""
    from lancards.cli.bench.net import analyse, new_table, write_configs

    table, seats = new_table(n, game)
    with Lan(n) as lan:
        listen = [(h.address, PORT) for h in lan.hosts]
        paths = write_configs(table, seats, listen, folder)
        started = time.time()
        procs = [lan.spawn(lan.hosts[i], lancards("node", str(path)),
                           log=folder / f"peer{i}.log") for i, path in enumerate(paths)]
        codes = [p.wait(900) for p in procs]
        wall = time.time() - started
    return {"bench": "e2e-deal", "game": game, "peers": n, "exit_codes": codes,
            **analyse(folder, n), "game_wall_s": round(wall, 2)}


def deal_once(n: int, game: str, folder: Path) -> tuple[float, float]:
    """Seconds from the first of ``n`` node processes (one per namespace) starting its game to
    the last one holding its dealt hand (the processes are stopped then), and the median CPU
    seconds of a peer to its dealt hand."""
    from lancards.cli.bench.net import await_deal, new_table, write_configs

    table, seats = new_table(n, game)
    with Lan(n) as lan:
        listen = [(h.address, PORT) for h in lan.hosts]
        paths = write_configs(table, seats, listen, folder)
        procs = [lan.spawn(lan.hosts[i], lancards("node", str(path)),
                           log=folder / f"peer{i}.log") for i, path in enumerate(paths)]
        return await_deal(folder, n, procs)


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
    parser.add_argument("--deal-only", type=int, default=0, metavar="N",
                        help="only N deals of --peers peers (start to every hand dealt)")
    args = parser.parse_args(argv)
    reason = unavailable()
    if reason is not None:
        print(f"bench_e2e: {reason}", file=sys.stderr)
        return 2
    if args.deal_only:
        runs, cpu = [], []
        for _ in range(args.deal_only):
            with tempfile.TemporaryDirectory(prefix="lancards-e2e-bench-") as tmp:
                wall, spent = deal_once(args.peers, args.game, Path(tmp))
                runs.append(wall)
                cpu.append(spent)
        print(json.dumps({"bench": "e2e-deal-only", "game": args.game, "peers": args.peers,
                          "deal_s": round(statistics.median(runs), 3),
                          "peer_cpu_ms": round(1000 * statistics.median(cpu), 1),
                          "runs": [round(x, 3) for x in runs], "machine": machine()}),
              flush=True)
        return 0
    for run, n in ((deal_and_latency, args.peers), (whole_game, 4)):
        with tempfile.TemporaryDirectory(prefix="lancards-e2e-bench-") as tmp:
            line = run(n, args.game, Path(tmp))
        print(json.dumps({**line, "machine": machine()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
