"""net: peers in separate processes on 127.0.0.1: deal time, verified-move latency, and the
bytes every peer hands to its websocket links (message payloads, without websocket and TCP
framing) per record entry and per move; with ``--observers N``, N observers watch the game
(``lancards watch`` processes, or with ``--observer-mode sink`` one process holding N links that
ask and only count what arrives: the players' side of serving them, without the watchers'
own verifying on the same cores)."""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import start_local

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peers", type=int, nargs="*", default=[4, 6],
                        help=_("peer counts to measure (default 4 6)"))
    parser.add_argument("--game", default="level8-master",
                        help=_("rule set (default level8-master)"))
    parser.add_argument("--quick", action="store_true", help=_("4 peers only"))
    parser.add_argument("--observers", type=int, default=0,
                        help=_("observers watching the game, spread over the peers (each peer "
                               "serves at most 4)"))
    parser.add_argument("--observer-mode", choices=("watch", "sink"), default="watch",
                        help=_("watch: lancards watch processes, verifying everything; sink: "
                               "one process of links that only count the bytes"))
    parser.add_argument("--observer-nice", type=int, default=0, metavar="N",
                        help=_("run the observers' processes at this nice value (19: they get "
                               "the cores only when the players leave them idle, as observers "
                               "on other machines would)"))
    parser.add_argument("--runs", type=int, default=1, metavar="N",
                        help=_("whole games per peer count, one after another; with 2 or more "
                               "a summary line follows: every run's move p95, their median"))
    parser.add_argument("--deal-only", type=int, default=0, metavar="REPEATS",
                        help=_("instead of whole games: REPEATS tables stopped once every hand "
                               "is dealt, taking turns: the peers prepare the shuffles ahead, "
                               "then check every proof of shuffle on arrival; medians of "
                               "deal_s"))


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


def new_table(n: int, game: str) -> tuple[Any, list[Identity]]:
    """A started table of ``n`` fresh identities and the identities in seat order."""
    ids = [Identity.generate(NICKS[i]) for i in range(n)]
    table = start_local(ids, game)
    by_key = {p.public_key: p for p in ids}
    return table, [by_key[m.public_key] for m in table.seats]


def write_configs(table: Any, seats: list[Identity], listen: list[tuple[str, int]],
                  folder: Path) -> list[Path]:
    """One ``lancards node`` config per seat, with timings, in ``folder``."""
    paths = []
    for i, me in enumerate(seats):
        cfg = {
            "statement": table.statement, "sigs": table.sigs,
            "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
            "listen": list(listen[i]),
            "peers": {seats[j].public_key.hex(): list(listen[j])
                      for j in range(len(seats)) if j != i},
            "folder": str(folder / f"peer{i}"), "record": str(folder / f"record{i}.jsonl"),
            "timings": str(folder / f"timings{i}.jsonl"),
        }
        path = folder / f"peer{i}.json"
        path.write_text(json.dumps(cfg))
        paths.append(path)
    return paths


def analyse(folder: Path, n: int) -> dict[str, Any]:
    """Deal time and draw/discard latency from the timings and record ``write_configs`` asked
    for: "dealt" runs from the first peer starting its game to every peer knowing its whole
    first hand; a move's latency from its author recording it to the last peer verifying it."""
    lines = [[json.loads(x) for x in (folder / f"timings{i}.jsonl").read_text().splitlines()]
             for i in range(n)]
    start = min(x["t"] for peer in lines for x in peer if x.get("started"))
    dealt = max(next(x["t"] for x in peer if x.get("dealt")) for peer in lines)
    seen: dict[int, list[float]] = defaultdict(list)
    for peer in lines:
        for x in peer:
            if "seq" in x:
                seen[x["seq"]].append(x["t"])
    record = [json.loads(x) for x in (folder / "record0.jsonl").read_text().splitlines()[1:]]
    sent = sum(json.loads((folder / f"bytes{i}.json").read_text())["sent"] for i in range(n)
               if (folder / f"bytes{i}.json").exists())
    entries = [item["entry"] for item in record if item.get("kind") == "entry"]
    latencies = []
    for entry in entries:
        payload = entry["payload"]
        verb = str(payload.get("a", "")).split(":", 1)[-1].split()[:1]
        times = seen.get(entry["seq"], [])
        if payload.get("t") == "action" and verb in (["draw"], ["discard"]) and len(times) == n:
            latencies.append(max(times) - min(times))  # the author records it first
    latencies.sort()
    moves = sum(1 for e in entries if e["payload"].get("t") == "action")
    return {
        "wire_bytes": sent,
        "wire_bytes_per_entry": round(sent / len(entries)) if entries else None,
        "wire_bytes_per_move": round(sent / moves) if moves else None,
        "deal_s": round(dealt - start, 3),
        "moves": len(latencies),
        "move_median_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "move_p95_ms": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 2)
        if latencies else None,
        "entries": len(entries),
    }


def measure(n: int, game: str, folder: Path, observers: int = 0,
            mode: str = "watch", observer_nice: int = 0) -> dict[str, Any]:
    """Play one whole game with ``n`` peer processes on 127.0.0.1 and measure it, watched by
    ``observers`` observers (``mode`` ``watch`` or ``sink``, see the module docstring), their
    processes at nice value ``observer_nice`` (0: the players' own)."""
    table, seats = new_table(n, game)
    ports = free_ports(n)
    paths = write_configs(table, seats, [("127.0.0.1", p) for p in ports], folder)
    started = time.time()
    procs = [subprocess.Popen([sys.executable, "-c", "import sys; from lancards.cli.bench.net "
                               "import counted_node; sys.exit(counted_node(sys.argv[1], "
                               "sys.argv[2]))", str(path), str(folder / f"bytes{i}.json")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for i, path in enumerate(paths)]
    deadline = time.time() + 60
    while observers and time.time() < deadline and not all(
            (folder / f"timings{i}.jsonl").exists() for i in range(n)):
        time.sleep(0.05)  # every peer listens before the observers dial
    targets = [f"{table.spec.table}@127.0.0.1:{ports[i % n]}" for i in range(observers)]
    logs = [folder / f"watch{i}.txt" for i in range(observers)]

    def lower() -> None:
        os.nice(observer_nice)

    niced = lower if observer_nice else None
    if mode == "sink" and observers:
        watchers = [subprocess.Popen(
            [sys.executable, "-c", "import sys; from lancards.cli.bench.net import sinks; "
             "sys.exit(sinks(sys.argv[1:]))", str(logs[0]), *targets],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=niced)]
    else:
        watchers = [subprocess.Popen([sys.executable, "-m", "lancards", "watch", target,
                                      "--wait", "60"], stdout=open(log, "wb"),  # noqa: SIM115
                                     stderr=subprocess.STDOUT, preexec_fn=niced)
                    for target, log in zip(targets, logs, strict=True)]
    codes = [p.wait(900) for p in procs]
    wall = time.time() - started
    watch_codes = [w.wait(120) for w in watchers]
    result = analyse(folder, n)
    line: dict[str, Any] = {"bench": "net", "game": game, "peers": n, "exit_codes": codes,
                            **result, "game_wall_s": round(wall, 2)}
    if observers:
        done = [f"verified {result['entries']} entries" in log.read_text() for log in logs
                if log.exists()] if mode == "watch" else [
            log.read_text().split() == [str(result["entries"])] * observers for log in logs[:1]]
        line.update({"observers": observers, "observer_mode": mode, "observer_nice": observer_nice,
                     "observer_exit_codes": watch_codes, "observers_saw_every_entry": all(done)})
    return line


def sinks(argv: Sequence[str]) -> int:
    """Benchmark observers that only count: one link per ``TABLE-ID@HOST:PORT`` of
    ``argv[1:]``, each sends ``watch.ask`` and counts the ``watch.entry`` messages until its
    link closes; writes the counts, one per link, to ``argv[0]``."""
    import asyncio

    from lancards.p2p.net.probe import probe_key
    from lancards.p2p.net.transport import Connected, Disconnected, Mesh, Received
    from lancards.p2p.protocol.errors import PeerError
    from lancards.p2p.protocol.wire import link_envelope

    async def one(target: str) -> int:
        table_id, _, address = target.partition("@")
        host, _, port = address.rpartition(":")
        me = Identity.generate("sink")
        key = await probe_key(host, int(port), me, timeout=30)
        mesh = Mesh(me)
        mesh.add_peer(key, host, int(port), dial=True)
        count, asked = 0, False
        try:
            while True:
                try:
                    event = await mesh.next_event(60)
                except PeerError:
                    return count
                if isinstance(event, Connected) and not asked:
                    asked = True
                    mesh.send(key, link_envelope(me, "watch.ask", table_id, {"have": 0})
                              .encode())
                elif isinstance(event, Received):
                    count += b'"type":"watch.entry"' in event.data
                elif isinstance(event, Disconnected):
                    return count
        finally:
            await mesh.close()

    async def all_of() -> list[int]:
        return list(await asyncio.gather(*(one(t) for t in argv[1:])))

    counts = asyncio.run(all_of())
    Path(argv[0]).write_text(" ".join(str(c) for c in counts))
    return 0


def _dealt_at(path: Path) -> tuple[float | None, float | None]:
    """(started, dealt) times of one peer's timings file so far."""
    started = dealt = None
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue  # a line being written
            if item.get("started"):
                started = item["t"]
            if item.get("dealt"):
                dealt = item["t"]
    return started, dealt


def deal_cpu(folder: Path, n: int) -> float:
    """The median over ``n`` peers of the CPU seconds each spent from starting its game to
    holding its dealt hand (the ``cpu`` of its timings lines)."""
    spent: list[float] = []
    for i in range(n):
        marks = [json.loads(x) for x in (folder / f"timings{i}.jsonl").read_text().splitlines()
                 if x.strip()]
        start = float(next(m["cpu"] for m in marks if m.get("started")))
        spent.append(float(next(m["cpu"] for m in marks if m.get("dealt"))) - start)
    return float(statistics.median(spent))


def deal_once(n: int, game: str, folder: Path, pipeline: bool) -> tuple[float, float]:
    """Start ``n`` peer processes, wait until every one holds its dealt hand, stop them:
    seconds from the first start to the last dealt hand, and the median CPU seconds of a peer
    to its dealt hand (:func:`deal_cpu`)."""
    table, seats = new_table(n, game)
    paths = write_configs(table, seats, [("127.0.0.1", p) for p in free_ports(n)], folder)
    procs = [subprocess.Popen([sys.executable, "-c", "import sys; from lancards.cli.bench.net "
                               "import counted_node; sys.exit(counted_node(*sys.argv[1:]))",
                               str(path), str(folder / f"bytes{i}.json"),
                               "pipeline" if pipeline else "checked"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for i, path in enumerate(paths)]
    return await_deal(folder, n, procs)


def await_deal(folder: Path, n: int, procs: Sequence[subprocess.Popen[bytes]],
               limit: float = 120.0) -> tuple[float, float]:
    """Wait until each of ``n`` peer processes (timings in ``folder``) holds its dealt hand,
    then stop them all: seconds from the first start to the last dealt hand, and the median
    CPU seconds of a peer to its dealt hand (:func:`deal_cpu`).

    Raises:
        RuntimeError: the hands were not dealt within ``limit`` seconds.
    """
    try:
        deadline = time.time() + limit
        while time.time() < deadline:
            times = [_dealt_at(folder / f"timings{i}.jsonl") for i in range(n)]
            if all(d is not None for _, d in times):
                break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"the hands were not dealt within {limit:g} s")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:  # a process that ignores SIGTERM
                proc.kill()
                proc.wait(10)
    wall = max(d for _, d in times if d is not None) - min(s for s, _ in times if s is not None)
    return wall, deal_cpu(folder, n)


def deal_only(n: int, game: str, repeats: int) -> dict[str, Any]:
    """``repeats`` deals pipelined and ``repeats`` checked on arrival, alternating."""
    got: dict[bool, list[float]] = {True: [], False: []}
    cpu: dict[bool, list[float]] = {True: [], False: []}
    for _repeat in range(repeats):
        for pipeline in (True, False):
            with tempfile.TemporaryDirectory(prefix="lancards-bench-") as tmp:
                wall, spent = deal_once(n, game, Path(tmp), pipeline)
                got[pipeline].append(wall)
                cpu[pipeline].append(spent)
    return {"bench": "net-deal", "game": game, "peers": n, "runs": repeats,
            "deal_s_pipelined": round(statistics.median(got[True]), 3),
            "deal_s_checked_on_arrival": round(statistics.median(got[False]), 3),
            "peer_cpu_ms_pipelined": round(1000 * statistics.median(cpu[True]), 1),
            "peer_cpu_ms_checked_on_arrival": round(1000 * statistics.median(cpu[False]), 1),
            "all_pipelined": [round(x, 3) for x in got[True]],
            "all_checked": [round(x, 3) for x in got[False]]}


def summary(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The summary line of several runs at one peer count (``lines``: what :func:`measure`
    returned, one per run, at least one): every run's move p95 sorted (ms), the median of the
    p95s and of the move medians (ms), and the median deal time (s). Issue 23's goal is read
    on the median of the p95s (``docs/benchmarks.md``).

    Raises:
        ValueError: ``lines`` is empty, or no run measured a move.
    """
    p95s = sorted(x["move_p95_ms"] for x in lines if x.get("move_p95_ms") is not None)
    medians = [x["move_median_ms"] for x in lines if x.get("move_median_ms") is not None]
    if not p95s:
        raise ValueError("no run measured a move")
    return {"bench": "net-summary", "game": lines[0]["game"], "peers": lines[0]["peers"],
            "runs": len(lines), "move_p95_ms_sorted": p95s,
            "median_move_p95_ms": round(statistics.median(p95s), 2),
            "median_move_median_ms": round(statistics.median(medians), 2),
            "median_deal_s": round(statistics.median(x["deal_s"] for x in lines), 3)}


def counted_node(config: str, out: str, mode: str = "pipeline") -> int:
    """``lancards node CONFIG``, counting the bytes of the frames for what is handed to
    ``Mesh.send`` (each message and its 16-byte link tag; written to ``out`` as ``{"sent": n}``
    at exit); ``mode`` ``checked``: the core checks every proof of
    shuffle on arrival (``GameCore(pipeline=False)``). Benchmark use only."""
    import atexit

    from lancards.cli.main import main
    from lancards.p2p.net.transport import Mesh
    from lancards.p2p.protocol.channel import TAG_BYTES
    from lancards.p2p.protocol.core import GameCore

    if mode == "checked":
        init = GameCore.__init__

        def checked(self: GameCore, *args: Any, **kwargs: Any) -> None:
            init(self, *args, **{**kwargs, "pipeline": False})

        GameCore.__init__ = checked  # type: ignore[method-assign]

    sent = [0]
    original = Mesh.send

    def send(self: Mesh, peer: bytes, data: bytes) -> None:
        original(self, peer, data)
        sent[0] += len(data) + TAG_BYTES  # the frame the link sends (p2p.channel)

    Mesh.send = send  # type: ignore[method-assign]
    atexit.register(lambda: Path(out).write_text(json.dumps({"sent": sent[0]})))
    return main(["node", config])


def run(args: argparse.Namespace) -> int:
    from lancards.cli.bench.machine import machine

    if args.runs < 1:
        raise UsageError(_("--runs must be 1 or more"))
    counts = [4] if args.quick else args.peers
    for n in counts:
        if args.deal_only:
            print(json.dumps({**deal_only(n, args.game, args.deal_only), "machine": machine()}),
                  flush=True)
            continue
        lines = []
        for _run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="lancards-bench-") as tmp:
                line = measure(n, args.game, Path(tmp), args.observers, args.observer_mode,
                               args.observer_nice)
            lines.append(line)
            print(json.dumps({**line, "machine": machine()}), flush=True)
        if len(lines) > 1:
            print(json.dumps({**summary(lines), "machine": machine()}), flush=True)
    return 0
