"""Leaving for good: time from "leave" (or the last removal signature) to play going on, N
peers in one process.

``lancards bench leave`` seats N in-process peers (:class:`~lancards.p2p.protocol.core.GameCore`,
every message through the real codec) at a Level 8 Master table (108 cards), lets bots play
``--moves`` moves, then the seat to move leaves for good (``docs/protocol.md`` 11.8). Each
configuration prints one JSON line of medians over ``--repeats`` runs (milliseconds ``_ms``):

- ``shares``: the decryption shares the leave carries (hidden cards outside the leaver's hand);
  ``entry_bytes``: the size of the signed ``record.entry`` envelope that carries it.
- ``make_ms``: the leaver's CPU to make its proven shares, strip its layer and sign the entry.
- ``accept_ms``: one other peer's CPU to check the entry (every proof) and apply it (the
  largest over the peers).
- ``critical_path_ms``: ``make_ms + accept_ms``: from "leave" to the next player able to move
  when each peer has its own processor (the network's latency aside).
- ``serial_ms``: wall time in this one process from "leave" until the next player can move
  (every peer's work one after another, on one processor).

With ``--escrow`` it measures instead what the table option ``rescue`` costs at the start
(``docs/protocol.md`` 11.9): ``escrow_bytes``, the signed ``record.entry`` envelopes of the N
escrow entries together; ``escrow_cpu_per_peer_ms``, the extra CPU of one peer from the start to
the first shuffle (dealing its escrow, checking the others' and opening its parts; the largest
over peers); ``start_serial_ms`` and ``start_serial_no_rescue_ms``, wall time
in this one process from the start to the first shuffle entry, with and without the option.

With ``--rescue`` (option ``rescue`` on, 3 peers or more) the seat to move vanishes instead
(nothing more reaches it, it sends nothing) and the others vote it out (ruling D-5;
``docs/protocol.md`` 11.10): ``shares`` per rescue entry; ``rescue_bytes``, the signed
``record.entry`` envelopes of the N-1 rescue entries together; ``serial_ms``, wall time in this
one process from the last removal signature until the next player can move (the N-1 rescue
entries one after another, each checked by every peer, then the escrow dealt again among the
N-1); ``cpu_per_peer_ms``, the most CPU one remaining peer spent over that time (a bound of
the critical path from below when each peer has its own processor).

With ``--mid-shuffle`` the leave comes during a shuffle epoch instead (the leaver is due to
shuffle after others did): the epoch is begun again under the new joint key, so play goes on
once the remaining peers have shuffled again; ``serial_ms`` then includes that shuffle.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from lancards.cli.bench.machine import machine
from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.engine.core import CHANCE, ShuffleRequest
from lancards.engine.rulesets import standard_bot
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.protocol.core import GameCore, Output, Send
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import start_local

DEFAULT_PEERS = (3, 6)
NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peers", type=int, action="append",
                        help=_("peers at the table, 2 to 6 (repeatable; default 3 and 6)"))
    parser.add_argument("--moves", type=int, default=12,
                        help=_("moves played before the leave (default 12)"))
    parser.add_argument("--repeats", type=int, default=5, help=_("runs per configuration"))
    parser.add_argument("--mid-shuffle", action="store_true",
                        help=_("leave during a shuffle epoch (after the first seat shuffled)"))
    parser.add_argument("--escrow", action="store_true",
                        help=_("measure the key escrow at the start (option rescue) instead"))
    parser.add_argument("--rescue", action="store_true",
                        help=_("a seat vanishes and the others vote it out (option rescue)"))
    parser.add_argument("--seed", default="bench", help=_("seed of the peers' randomness"))
    parser.set_defaults(run=run)


class _Table:
    """N cores and a queue that carries every ``Send`` through ``receive``."""

    def __init__(self, peers: int, seed: str, options: dict[str, Any] | None = None) -> None:
        ids = [Identity(bytes([i + 1]) * 32, NICKS[i]) for i in range(peers)]
        table = start_local(ids, "level8-master", options, table="0123456789abcdef")
        order = {m.public_key: i for i, m in enumerate(table.seats)}
        ids.sort(key=lambda p: order[p.public_key])
        self.cores = [GameCore(me, table, SeededRandomBytes(f"{seed}-{i}"))
                      for i, me in enumerate(ids)]
        self.bots = [standard_bot(c.game) for c in self.cores]
        self.by_key = {c.me.public_key: c for c in self.cores}
        self.queue: list[tuple[bytes, bytes, bytes]] = []
        self.cpu: dict[bytes, float] = {}
        self.timed: set[bytes] = set()
        self.arm: GameCore | None = None  # leaves once due to shuffle after another seat
        self.leave_at: float | None = None  # wall clock when the leave entry was made
        self.leave_data = b""
        self.escrow_sizes: list[int] = []  # the broadcast escrow entries' envelopes
        self.rescue_sizes: list[int] = []  # the broadcast rescue entries' envelopes

    def post(self, sender: bytes, outputs: list[Output]) -> None:
        for out in outputs:
            if isinstance(out, Send) and not self.leave_data and b'"t":"leave"' in out.data:
                self.leave_data, self.leave_at = out.data, time.perf_counter()
            if isinstance(out, Send) and out.to is None and b'"t":"escrow"' in out.data:
                self.escrow_sizes.append(len(out.data))
            if isinstance(out, Send) and out.to is None and b'"t":"rescue"' in out.data:
                self.rescue_sizes.append(len(out.data))
            if isinstance(out, Send):
                targets = [out.to] if out.to is not None else [k for k in self.by_key
                                                                if k != sender]
                self.queue += [(sender, to, out.data) for to in targets]

    def run(self) -> None:
        while self.queue:
            sender, to, data = self.queue.pop(0)
            if to not in self.by_key:
                continue  # a seat that vanished (--rescue)
            core = self.by_key[to]
            if core is self.arm and _shuffling_after_another(core):
                self.arm = None
                self.post(to, core.leave())
                self.timed = {k for k in self.by_key if k != to}
            start = time.process_time()
            outputs = self.by_key[to].receive(sender, data)
            if to in self.timed:
                self.cpu[to] = self.cpu.get(to, 0.0) + time.process_time() - start
            self.post(to, outputs)

    def mover(self) -> GameCore | None:
        return next((c for c in self.cores if c.legal_actions()), None)

    def move(self) -> bool:
        self.run()
        core = self.mover()
        if core is None:
            return False
        legal = core.legal_actions()
        self.post(core.me.public_key, core.submit(self.bots[core.seat].choose(
            core.state, core.seat, legal)))
        return True


def _shuffling_after_another(core: GameCore) -> bool:
    if core.to_act() != CHANCE or not isinstance(core.game.chance_request(core.state),
                                                  ShuffleRequest):
        return False
    turn = core.deck.shuffle_turn()
    return turn is not None and turn < core.seat


def _to_first_shuffle(peers: int, seed: str, rescue: bool) -> tuple[_Table, float]:
    table = _Table(peers, seed, {"rescue": "on"} if rescue else None)
    table.timed = set(table.by_key)
    wall = time.perf_counter()
    for core in table.cores:
        start = time.process_time()
        outputs = core.start()
        table.cpu[core.me.public_key] = time.process_time() - start
        table.post(core.me.public_key, outputs)
    lead = table.cores[0]
    while table.queue and "shuffle" not in [e.payload["t"] for e in lead.record.entries]:
        sender, to, data = table.queue.pop(0)
        core = table.by_key[to]
        start = time.process_time()
        outputs = core.receive(sender, data)
        if b'"t":"shuffle"' not in b"".join(o.data for o in outputs if isinstance(o, Send)):
            table.cpu[to] += time.process_time() - start
        table.post(to, outputs)
    return table, time.perf_counter() - wall


def escrow_once(peers: int, seed: str) -> dict[str, float]:
    """The cost of the key escrow at the start (see the module docstring)."""
    plain, plain_wall = _to_first_shuffle(peers, seed, False)
    table, wall = _to_first_shuffle(peers, seed, True)
    extra = max(table.cpu[k] - plain.cpu[k] for k in table.cpu)
    return {"escrow_entries": len(table.escrow_sizes), "escrow_bytes": sum(table.escrow_sizes),
            "escrow_cpu_per_peer_ms": extra * 1000, "start_serial_ms": wall * 1000,
            "start_serial_no_rescue_ms": plain_wall * 1000}


def run_once(peers: int, moves: int, mid_shuffle: bool, seed: str) -> dict[str, float]:
    """One leave at a fresh table; the figures of the module docstring."""
    table = _Table(peers, seed)
    for core in table.cores:
        table.post(core.me.public_key, core.start())
    for _move in range(moves):
        if not table.move():
            raise UsageError(_("the game ended before the leave; use fewer --moves"))
    table.run()
    leaver = table.mover()
    made = 0.0
    if mid_shuffle:  # the last seat leaves at its turn to shuffle, after the others'
        leaver = table.arm = table.cores[-1]
        while table.leave_at is None:
            if not table.move():
                raise UsageError(_("no shuffle came before the game ended"))
    else:
        assert leaver is not None
        table.timed = {c.me.public_key for c in table.cores if c is not leaver}
        start = time.process_time()
        outputs = leaver.leave()
        made = time.process_time() - start
        table.post(leaver.me.public_key, outputs)
    assert table.leave_at is not None
    table.run()
    while table.mover() is None and table.queue:
        table.run()
    serial = time.perf_counter() - table.leave_at
    entry = next(e.payload for e in table.cores[0].record.entries if e.payload["t"] == "leave")
    accept = max(table.cpu.values())
    return {"shares": len(entry["msg"]["shares"]), "entry_bytes": len(table.leave_data),
            "make_ms": made * 1000, "accept_ms": accept * 1000,
            "critical_path_ms": (made + accept) * 1000, "serial_ms": serial * 1000}


def rescue_once(peers: int, moves: int, seed: str) -> dict[str, float]:
    """The seat to move vanishes and the others vote it out (see the module docstring)."""
    table = _Table(peers, seed, {"rescue": "on"})
    for core in table.cores:
        table.post(core.me.public_key, core.start())
    for _move in range(moves):
        if not table.move():
            raise UsageError(_("the game ended before the vanishing; use fewer --moves"))
    table.run()
    gone = table.mover()
    assert gone is not None
    del table.by_key[gone.me.public_key]
    table.cores = [c for c in table.cores if c is not gone]
    for voter in table.cores[:-1]:
        table.post(voter.me.public_key, voter.vote_remove(gone.seat))
        table.run()
    last = table.cores[-1]
    table.timed, table.cpu = set(table.by_key), {}
    wall = time.perf_counter()
    start = time.process_time()
    outputs = last.vote_remove(gone.seat)
    table.cpu[last.me.public_key] = time.process_time() - start
    table.post(last.me.public_key, outputs)
    table.run()
    while table.mover() is None and table.queue:
        table.run()
    serial = time.perf_counter() - wall
    if not all(c.has_left(gone.seat) for c in table.cores) or table.mover() is None:
        raise UsageError(_("the removal did not complete"))
    first = next(e.payload for e in table.cores[0].record.entries if e.payload["t"] == "rescue")
    return {"shares": len(first["msg"]["shares"]), "rescue_bytes": sum(table.rescue_sizes),
            "serial_ms": serial * 1000, "cpu_per_peer_ms": max(table.cpu.values()) * 1000}


def run(args: argparse.Namespace) -> int:
    peers_list = args.peers or list(DEFAULT_PEERS)
    if any(not 2 <= p <= 6 for p in peers_list) or args.repeats < 1:
        raise UsageError(_("--peers must be 2 to 6 and --repeats at least 1"))
    for peers in peers_list:
        line: dict[str, Any] = {"bench": "leave", "peers": peers, "cards": 108,
                                "repeats": args.repeats}
        if args.rescue:
            if peers < 3:
                raise UsageError(_("the option rescue needs 3 peers or more"))
            runs = [rescue_once(peers, args.moves, f"{args.seed}-{r}")
                    for r in range(args.repeats)]
            line.update(rescue=True, moves_before=args.moves)
        elif args.escrow:
            if peers < 3:
                raise UsageError(_("the option rescue needs 3 peers or more"))
            runs = [escrow_once(peers, f"{args.seed}-{r}") for r in range(args.repeats)]
            line["escrow"] = True
        else:
            runs = [run_once(peers, args.moves, args.mid_shuffle, f"{args.seed}-{r}")
                    for r in range(args.repeats)]
            line.update(moves_before=args.moves, mid_shuffle=args.mid_shuffle)
        for name in runs[0]:
            line[name] = round(statistics.median(r[name] for r in runs), 2)
        line["machine"] = machine()
        print(json.dumps(line), flush=True)
    return 0
