"""``lancards watch``: follow a started table as an observer, without a seat.

The watcher links to one seated peer (``TABLE-ID@HOST:PORT``, or a started table found by mDNS),
asks it for the record (``watch.ask``), and verifies every entry as it arrives like a player
does: signatures, the hash chain, whose turn, every proof of shuffle, decryption share and
opening, every move against the rules, the state hash (:mod:`lancards.p2p.protocol.watching`).
It sees the public cards only: no seat sends it a private share. The players never wait for it.

The watcher's key is made afresh for each watch (it is never seated), so a player who left the
table or was removed can watch the rest of it too. Output: one line per move and round, then the
result (``--record FILE`` writes the verified entries; the file has no closing line, since only
a seat signs one, so ``lancards audit`` calls it unfinished). A peer that drops the watcher
says why in one word (``full``: it has as many watchers as it serves); the line says it in words.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.p2p.net.transport import (
    DROP_CODE,
    Connected,
    Disconnected,
    Mesh,
    Received,
    TransportConfig,
)
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.watching import Event, Watching

CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=2.0,
                         fallback_after=None)
"""The watcher's one link (it listens nowhere: it always dials)."""

DROPPED_WORDS = {
    "full": "that player's peer has as many watchers as it takes; watch through another player",
    "not-seated": "this watcher sent what only a player may send",
    "flood": "this watcher asked too often",
    "slow": "this watcher could not keep up with the table",
    "wrong-table": "that peer plays another table",
}
"""What the watcher's screen says when the peer drops it, by the peer's reason word."""


def add_parser(sub: Any) -> None:
    watch = sub.add_parser(
        "watch", help="follow a started table as an observer, without a seat",
        description="Follow a started table live: every move is verified as a player verifies "
        "it, only public cards are seen, and the players never wait for you. TABLE is a table "
        "id seen on the network (a started table advertised by mDNS) or TABLE-ID@HOST:PORT "
        "of any seated player.")
    watch.add_argument("table", nargs="?", default=None,
                       help="TABLE-ID (a started table on the network) or TABLE-ID@HOST:PORT")
    watch.add_argument("--plain", action="store_true",
                       help="one line per event (the default without a terminal)")
    watch.add_argument("--record", metavar="FILE", default=None,
                       help="write the verified record to FILE when the game ends")
    watch.add_argument("--wait", type=float, default=10.0,
                       help="seconds to look for the table and for its first answer")
    watch.add_argument("--interface", action="append", default=None, metavar="NAME|IP",
                       help="look for tables by mDNS on this interface only (repeatable)")
    watch.set_defaults(run=run_watch)


def run_watch(args: argparse.Namespace) -> int:
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; nothing is written over")
    return asyncio.run(watch_command(args))


async def watch_command(args: argparse.Namespace) -> int:
    """Find the table, then follow it; the exit status (0: the game ended, verified)."""
    table_id, key, host, port = await find_started(args)
    print(f"watching table {table_id} through {describe(key)} at {host}:{port}", flush=True)
    watcher = TableWatcher(table_id, key, host, port)
    plain = PlainTeller(watcher.watching, print)
    status = await watcher.run(plain.tell, wait=args.wait)
    plain.finish(watcher)
    if args.record and watcher.watching.core is not None:
        from lancards.p2p.net.record_file import write_record

        write_record(watcher.watching.core.record, args.record)
        print(f"record: {args.record}", flush=True)
    return status


async def find_started(args: argparse.Namespace) -> tuple[str, bytes, str, int]:
    """(table id, a seated peer's key, its host, port) from ``TABLE-ID@HOST:PORT`` (the key is
    the one that answers the hello there) or a started table found by mDNS.

    Raises:
        UsageError: a bad argument, nothing answers, or no started table is found.
    """
    from lancards.p2p.net.probe import probe_key

    target = args.table
    if target and "@" in target:
        table_id, _, address = target.rpartition("@")
        host, _, port_text = address.rpartition(":")
        if len(table_id) != 16 or not port_text.isdigit() or not host:
            raise UsageError(f"{target!r} is not TABLE-ID@HOST:PORT (a player's address)")
        host = host.strip("[]")
        try:
            key = await probe_key(host, int(port_text), Identity.generate("watcher"))
        except PeerError as exc:
            raise UsageError(str(exc)) from None
        return table_id, key, host, int(port_text)
    from lancards.cli.lobby.join import find_started_advert

    return await find_started_advert(args, target)


class TableWatcher:
    """One watch: a fresh key, one link to a seated peer, the :class:`Watching` it feeds.

    Args:
        table_id: the table (16 hex digits).
        key: the seated peer's key; ``host``, ``port``: where it listens.
    """

    def __init__(self, table_id: str, key: bytes, host: str, port: int) -> None:
        self.me = Identity.generate("watcher")
        self.key, self.host, self.port = key, host, port
        self.watching = Watching(self.me, table_id, key)
        self.dropped: str | None = None
        """The peer's reason word when it dropped this watcher."""
        self.lost: str | None = None
        """Why the watch ended early in words (no answer, dropped), else ``None``."""
        self._stop = asyncio.Event()

    def stop(self) -> None:
        """End :meth:`run` (a key press)."""
        self._stop.set()

    async def run(self, on_event: Callable[[Event], None], *, wait: float = 10.0) -> int:
        """Follow the table until the game ends (0), the peer drops this watcher (1) or
        :meth:`stop`; ``wait``: seconds for the first answer."""
        mesh = Mesh(self.me, CONFIG)
        mesh.add_peer(self.key, self.host, self.port, dial=True)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        try:
            while not self._stop.is_set() and not self.watching.over():
                if self.watching.core is None and loop.time() > deadline:
                    self.lost = f"no answer from {describe(self.key)} within {wait:.0f} s"
                    return 1
                try:
                    event = await mesh.next_event(0.2)
                except PeerError:
                    continue
                if isinstance(event, Connected) and event.peer == self.key:
                    mesh.send(self.key, self.watching.ask())
                elif isinstance(event, Received) and event.peer == self.key:
                    on_event(self.watching.receive(event.data))
                elif isinstance(event, Disconnected) and event.peer == self.key:
                    prefix = f"closed {DROP_CODE}: "
                    if event.reason.startswith(prefix):
                        self.dropped = event.reason[len(prefix):]
                        self.lost = (f"{describe(self.key)} stopped serving this watcher: "
                                     + DROPPED_WORDS.get(self.dropped, self.dropped))
                        return 1
            return 0 if self.watching.over() else 1
        finally:
            await mesh.close()


class PlainTeller:
    """The line-per-event output: each move in words as a spectator sees it, each round's
    summary, the result."""

    def __init__(self, watching: Watching, say: Callable[[str], None]) -> None:
        self.watching, self.say = watching, say
        self._before: Any = None
        self._tracker: Any = None

    def tell(self, event: Event) -> None:
        from lancards.cli.tui.narrate import narrate
        from lancards.cli.tui.results import RoundTracker

        core = self.watching.core
        if event.kind in ("rejected", "cheat"):
            self.say(f"{'cheating caught' if event.kind == 'cheat' else 'refused'}: {event.text}")
            return
        if core is None:
            return
        names = tuple(m.nick for m in core.players)
        if event.kind == "table":
            if self._tracker is None:
                self._tracker = RoundTracker(names)
                self.say(f"{core.rule_set} · " + ", ".join(str(m) for m in core.players))
            return
        entry = core.record.entries[event.seq]
        kind, seat = entry.payload.get("t"), core.seat_of(entry.author)
        after = core.state
        if kind == "leave" and seat is not None:
            self.say(f"{names[seat]} left the table")
        elif kind == "rescue" and entry.payload.get("votes"):
            self.say(f"{names[int(entry.payload['seat'])]} was removed by the others' votes")
        elif kind == "action":
            try:
                action = core.game.parse_action(str(entry.payload["a"]))
                lines = narrate(core.game.name, self._before, action, after, names, -1)
            except Exception:  # never lose a move to a wording problem
                lines = [str(entry.payload["a"])]
            for line in lines:
                self.say(line)
        self._before = after
        for report in self._tracker.observe(core.game.name, after):
            self.say(report.summary)

    def finish(self, watcher: TableWatcher) -> None:
        """The last lines: the result, or why the watch ended."""
        from lancards.cli.tui.results import final_lines

        core = self.watching.core
        if watcher.lost:
            self.say(watcher.lost)
        if self.watching.cheat:
            self.say(f"result: the table halted: {self.watching.cheat}")
            return
        outcome = None if core is None else core.game.outcome(core.state)
        if core is None or outcome is None:
            if not watcher.lost:
                self.say("the watch ended before the game did")
            return
        names = tuple(m.nick for m in core.players)
        left_by_self = {core.seat_of(e.author) for e in core.record.entries
                        if e.payload.get("t") == "leave"}
        removed = [s for s in core.left_seats() if s not in left_by_self]
        for line in final_lines(outcome, names, core.game.name, removed):
            self.say(line)
        self.say(f"verified {len(core.record)} entries")


__all__ = ["CONFIG", "DROPPED_WORDS", "PlainTeller", "TableWatcher", "add_parser",
           "find_started", "run_watch", "watch_command"]
