"""resume: time from ``lancards resume`` to the resumed peer being current, and its parts.

A whole game (default Level 8 Master, 6 peers, seeded deck randomness, bots) is played in this
process with every message through the real codec; seat 0's journal is written with the real
store. Then, for journals cut at 25, 50, 75 and 100 % of their lines, each step of a resume is
timed (wall clock, ``time.perf_counter``, median of ``--repeats``):

* ``read_s``: reading the journal and checking every line's CRC-32 (:meth:`TableStore.read`);
* ``replay_s``: :meth:`GameCore.restore`, which verifies every entry again (signatures, the
  engine, proofs of shuffle, decryption-share proofs);
* ``catch_up_s``: the entries the others appended while this seat was down (those after the
  cut up to this seat's own next entry), received from a peer as ``record.entry`` envelopes
  in memory: verification only, no network;
* ``current_s``: the sum, i.e. from reading the journal to being current with the table.

Each figure is taken twice: with the checkpoint seat 0 had written by then (every
:data:`~lancards.p2p.net.node.CHECKPOINT_EVERY` entries, as a node writes it; issue 24,
situation 7), and with none (``full_*``: every line replayed, what a resume cost before).

Per entry kind the replay time is split (``by_kind``) to show what dominates. Process start
(``python -m lancards --help``) is measured once as ``startup_s``.

Then, end to end (``--process-fractions``): every seat's journal is cut where the record had
that many entries, seats 1.. run as ``lancards node`` processes on 127.0.0.1 restored from
theirs, and seat 0's process is timed from its spawn to its ``current`` mark (its record as
long as every length its peers reported in ``record.sync``): ``process_to_current_s``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from lancards.cli.bench.machine import machine
from lancards.cli.i18n import _
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import CHECKPOINT_EVERY, bot_moves, game_bot
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.checkpoint import may_checkpoint, snapshot
from lancards.p2p.protocol.core import GameCore, Persist, Send
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import StartedTable, start_local
from lancards.p2p.protocol.wire import sign_envelope

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="level8-master",
                        help=_("rule set (default level8-master)"))
    parser.add_argument("--peers", type=int, default=6, help=_("peers at the table (default 6)"))
    parser.add_argument("--repeats", type=int, default=3, help=_("repeats per figure (default 3)"))
    parser.add_argument("--fractions", type=float, nargs="*", default=[0.25, 0.5, 0.75, 1.0],
                        help=_("journal lengths to measure, as fractions of the whole game"))
    parser.add_argument("--process-fractions", type=float, nargs="*", default=[0.5, 0.95],
                        help=_("journal lengths at which every seat runs as a `lancards node` "
                          "process and seat 0 is timed from its spawn to being current"))


def play(game: str, n: int, folder: Path) -> tuple[StartedTable, list[Identity], list[GameCore]]:
    """A whole seeded game in memory; seat 0's journal goes to ``folder``, seat i's to the
    sibling folder ``seat<i>``; seat 0's checkpoints (as :class:`PeerNode` writes them) are
    kept as ``folder/checkpoints/<journal bytes>.bin``."""
    ids = [Identity(bytes([i + 1]) * 32, NICKS[i]) for i in range(n)]
    table = start_local(ids, game, None, table="0123456789abcdef")
    order = {m.public_key: i for i, m in enumerate(table.seats)}
    ids.sort(key=lambda p: order[p.public_key])
    cores = []
    for i, me in enumerate(ids):
        cores.append(GameCore(me, table, SeededRandomBytes(f"bench-resume-{i}")))
    by_key = {c.me.public_key: c for c in cores}
    bots = {c.me.public_key: game_bot(c) for c in cores}
    stores = {me.public_key: TableStore(folder if i == 0 else folder.parent / f"seat{i}")
              for i, me in enumerate(ids)}
    queue: list[tuple[bytes, bytes, bytes]] = []
    kept = folder / "checkpoints"
    kept.mkdir()
    last = [0]

    def post(sender: bytes, outputs: list[Any]) -> None:
        for out in outputs:
            if isinstance(out, Persist):
                stores[sender].append(out.kind, out.line)
            elif isinstance(out, Send):
                targets = [out.to] if out.to is not None else [k for k in by_key if k != sender]
                queue.extend((sender, to, out.data) for to in targets)
        core, store = cores[0], stores[ids[0].public_key]
        if sender == core.me.public_key and len(core.record) >= last[0] + CHECKPOINT_EVERY \
                and may_checkpoint(core):
            last[0] = len(core.record)
            store.save_checkpoint(snapshot(core, store.lines))
            data = (folder / "checkpoint.bin").read_bytes()
            size = json.loads(data.partition(b"\n")[0].partition(b" ")[2])["bytes"]
            (kept / f"{size}.bin").write_bytes(data)

    for core in cores:
        post(core.me.public_key, core.start())
    while queue:
        sender, to, data = queue.pop(0)
        post(to, by_key[to].receive(sender, data))
        post(to, bot_moves(by_key[to], bots[to]))  # the bots: the one driver's in-memory turns
    for store in stores.values():
        store.close()
    return table, ids, cores


def resume_once(table: StartedTable, me: Identity, folder: Path, lines_kept: int,
                helper: GameCore, checkpoint: bool = True) -> dict[str, Any]:
    """Time one resume of seat 0 from the first ``lines_kept`` journal lines (with the last
    checkpoint written before them, or with none)."""
    raw = (folder / "journal.jsonl").read_bytes().split(b"\n")
    cut = Path(tempfile.mkdtemp(prefix="cut-", dir=folder.parent))
    journal_bytes = b"\n".join(raw[:lines_kept]) + b"\n"
    (cut / "journal.jsonl").write_bytes(journal_bytes)
    (cut / "secret.json").write_bytes((folder / "secret.json").read_bytes())
    sizes = [int(p.stem) for p in (folder / "checkpoints").glob("*.bin")]
    fitting = [size for size in sizes if size <= len(journal_bytes)]
    if checkpoint and fitting:
        (cut / "checkpoint.bin").write_bytes(
            (folder / "checkpoints" / f"{max(fitting)}.bin").read_bytes())
    t0 = time.perf_counter()
    store = TableStore(cut)
    journal = store.read()
    t1 = time.perf_counter()
    core = GameCore(me, table, SeededRandomBytes("bench-resume-0"),
                    secret_key=store.load_secret(), envelope_seq=journal.next_envelope)
    core.restore(journal.lines, store.load_checkpoint())
    t2 = time.perf_counter()
    have = len(core.record)
    seq = 1 << 30
    for entry in helper.record.entries[have:]:
        if entry.author == me.public_key:
            break  # the others waited for this seat: nothing later exists while it is down
        env = sign_envelope(helper.me, "record.entry", table.spec.table, seq,
                            {"entry": entry.to_dict()})
        seq += 1
        core.receive(helper.me.public_key, env.encode())
    t3 = time.perf_counter()
    return {"read_s": t1 - t0, "replay_s": t2 - t1, "catch_up_s": t3 - t2,
            "current_s": t3 - t0, "entries_replayed": have,
            "entries_caught_up": len(core.record) - have,
            "lines_from_checkpoint": core.checkpoint_lines, "state": core.state_hash()}


def replay_by_kind(table: StartedTable, me: Identity, folder: Path) -> dict[str, float]:
    """Seconds of the whole journal's replay per entry kind (key, shuffle, shares, open,
    action) and for private shares."""
    store = TableStore(folder)
    journal = store.read()
    core = GameCore(me, table, SeededRandomBytes("bench-resume-0"),
                    secret_key=store.load_secret())
    spent: dict[str, float] = defaultdict(float)
    core._replaying = True  # what restore() does, one line at a time
    for kind, line in journal.lines:
        label = str(line.get("payload", {}).get("t", kind)) if kind == "entry" else kind
        t = time.perf_counter()
        core._replay([(kind, line)])
        spent[label] += time.perf_counter() - t
    return {k: round(v, 3) for k, v in sorted(spent.items(), key=lambda kv: -kv[1])}


def cut_journal(source: Path, target: Path, entries: int) -> None:
    """Copy ``source``'s journal up to (not including) the entry numbered ``entries``, and its
    secret, into ``target``: the peer as it was when the record had ``entries`` entries."""
    target.mkdir(parents=True, exist_ok=True)
    kept = []
    for line in (source / "journal.jsonl").read_bytes().split(b"\n"):
        if not line:
            continue
        head = line[:4096]
        if head.startswith(b'{"kind":"entry"'):
            item = json.loads(line.rpartition(b" ")[0])
            if int(item["line"]["seq"]) >= entries:
                break
        kept.append(line)
    (target / "journal.jsonl").write_bytes(b"\n".join(kept) + b"\n")
    (target / "secret.json").write_bytes((source / "secret.json").read_bytes())


def process_resume(table: StartedTable, ids: list[Identity], folder: Path, entries: int,
                   limit: float = 300.0) -> dict[str, float]:
    """Every seat as a ``lancards node`` process restored from its journal cut at ``entries``;
    seats 1.. first; then seat 0 is started and timed from its spawn to being current (its
    ``current`` timing mark: its record as long as the lengths its peers reported)."""
    from lancards.cli.bench.net import free_ports
    n = len(ids)
    ports = free_ports(n)
    keys = [m.public_key.hex() for m in table.seats]
    work = Path(tempfile.mkdtemp(prefix=f"procs-{entries}-", dir=folder.parent))
    configs = []
    for i, me in enumerate(ids):
        cut_journal(folder if i == 0 else folder.parent / f"seat{i}", work / f"seat{i}", entries)
        cfg = {"statement": table.statement, "sigs": table.sigs,
               "seed": json.loads(me.to_json())["ed25519_seed"], "nick": me.nick,
               "listen": ["127.0.0.1", ports[i]],
               "peers": {keys[j]: ["127.0.0.1", ports[j]] for j in range(n) if j != i},
               "folder": str(work / f"seat{i}"), "timings": str(work / f"timings{i}.jsonl")}
        path = work / f"seat{i}.json"
        path.write_text(json.dumps(cfg))
        configs.append(path)

    def marks(i: int) -> list[dict[str, Any]]:
        try:
            text = (work / f"timings{i}.jsonl").read_text()
        except FileNotFoundError:
            return []
        return [json.loads(x) for x in text.splitlines() if x.strip()]

    def spawn(i: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "lancards", "node", str(configs[i]),
                                 "--deadline", str(limit)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)

    procs = [spawn(i) for i in range(1, n)]
    try:
        deadline = time.monotonic() + limit
        while not all(any("started" in m for m in marks(i)) for i in range(1, n)):
            if time.monotonic() > deadline:
                raise TimeoutError("the other seats did not restore in time")
            time.sleep(0.05)
        spawned = time.time()
        procs.append(spawn(0))
        while True:
            done = [m for m in marks(0) if "current" in m]
            if done:
                break
            if time.monotonic() > deadline:
                raise TimeoutError("seat 0 did not become current in time")
            time.sleep(0.05)
        started = next(m["t"] for m in marks(0) if "started" in m)
        return {"process_to_current_s": round(done[0]["t"] - spawned, 3),
                "process_to_restored_s": round(started - spawned, 3),
                "entries_at_current": int(done[0]["current"])}
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(10)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="lancards-bench-resume-") as tmp:
        folder = Path(tmp) / "seat0"
        t = time.perf_counter()
        table, ids, cores = play(args.game, args.peers, folder)
        played = time.perf_counter() - t
        lines = (folder / "journal.jsonl").read_bytes().count(b"\n")
        size = (folder / "journal.jsonl").stat().st_size
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lancards", "--help"], check=True,
                       capture_output=True)
        startup = time.perf_counter() - t
        print(json.dumps({"game": args.game, "peers": args.peers, "entries": len(
            cores[0].record), "journal_lines": lines, "journal_bytes": size,
            "game_played_in_memory_s": round(played, 1), "startup_s": round(startup, 3),
            "replay_by_kind_s": replay_by_kind(table, ids[0], folder),
            "machine": machine()}), flush=True)
        for fraction in args.fractions:
            kept = max(1, round(lines * fraction))
            runs = [resume_once(table, ids[0], folder, kept, cores[1])
                    for _ in range(args.repeats)]
            full = [resume_once(table, ids[0], folder, kept, cores[1], checkpoint=False)
                    for _ in range(args.repeats)]
            row: dict[str, Any] = {"fraction": fraction, "journal_lines": kept,
                                   "entries_replayed": runs[0]["entries_replayed"],
                                   "entries_caught_up": runs[0]["entries_caught_up"],
                                   "lines_from_checkpoint": runs[0]["lines_from_checkpoint"],
                                   "same_state": runs[0]["state"] == full[0]["state"]}
            for key in ("read_s", "replay_s", "catch_up_s", "current_s"):
                row[key] = round(statistics.median(r[key] for r in runs), 3)
            for key in ("replay_s", "current_s"):
                row["full_" + key] = round(statistics.median(r[key] for r in full), 3)
            print(json.dumps(row), flush=True)
        for fraction in args.process_fractions:
            entries = max(1, round(len(cores[0].record) * fraction))
            runs2 = [process_resume(table, ids, folder, entries) for _ in range(args.repeats)]
            row = {"fraction": fraction, "entries_in_journal": entries, "process": True}
            for key in ("process_to_restored_s", "process_to_current_s"):
                row[key] = round(statistics.median(r[key] for r in runs2), 3)
            row["entries_at_current"] = runs2[0]["entries_at_current"]
            print(json.dumps(row), flush=True)
    return 0
