"""In-memory peers for the protocol core: every message goes through the real codec."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import Chooser, PeerAddress, PeerNode, bot_moves, game_bot
from lancards.p2p.net.store import TableStore
from lancards.p2p.net.transport import Mesh, TransportConfig
from lancards.p2p.protocol.core import GameCore, Notice, Output, Persist, Send
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import StartedTable, start_local
from lancards.p2p.protocol.wire import sign_envelope

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def identities(n: int) -> list[Identity]:
    return [Identity(bytes([i + 1]) * 32, NICKS[i]) for i in range(n)]


class Network:
    """Delivers every ``Send`` to its recipients, in order; keeps what each peer persisted.

    Every core given is played by its game's bot (:func:`lancards.p2p.net.node.bot_moves`, the
    in-memory form of the one bot driver) after each message it receives and when :meth:`run`
    begins; ``bots.pop(core)`` makes a seat a person's (it moves only when a test submits).
    """

    def __init__(self, cores: Sequence[GameCore]) -> None:
        self.cores = {c.me.public_key: c for c in cores}
        self.bots: dict[GameCore, Chooser] = {c: game_bot(c) for c in cores}
        self.queue: list[tuple[bytes, bytes, bytes]] = []
        self.persisted: dict[bytes, list[tuple[str, dict[str, Any]]]] = {k: [] for k in self.cores}
        self.notices: dict[bytes, list[Notice]] = {k: [] for k in self.cores}
        self.tamper: Callable[[bytes, bytes, bytes], bytes | None] | None = None
        self.delivered = 0

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        for out in outputs:
            if isinstance(out, Persist):
                self.persisted[sender].append((out.kind, out.line))
            elif isinstance(out, Notice):
                self.notices[sender].append(out)
            elif isinstance(out, Send):
                targets = [out.to] if out.to is not None else [k for k in self.cores if k != sender]
                for to in targets:
                    self.queue.append((sender, to, out.data))

    def start(self) -> None:
        for key, core in self.cores.items():
            self.post(key, core.start())

    def play_bot(self, key: bytes) -> None:
        """Let the bot of the core at ``key`` (if it has one) make the moves it is due."""
        core = self.cores.get(key)
        choose = None if core is None else self.bots.get(core)
        if core is not None and choose is not None:
            outputs = bot_moves(core, choose)
            if outputs:
                self.post(key, outputs)

    def step(self) -> None:
        """Deliver the next message (unless tampered away), then let its receiver's bot move."""
        sender, to, data = self.queue.pop(0)
        if self.tamper is not None:
            changed = self.tamper(sender, to, data)
            if changed is None:
                return
            data = changed
        core = self.cores.get(to)
        if core is None:
            return
        self.delivered += 1
        self.post(to, core.receive(sender, data))
        self.play_bot(to)

    idle_checks = True
    """When nothing is in flight, peers check their pipelined proofs of shuffle one at a time
    (as :class:`~lancards.p2p.net.node.PeerNode` does while idle)."""

    def run(self, limit: int = 2_000_000) -> None:
        for key in list(self.cores):
            self.play_bot(key)
        self._deliver(limit)
        while self.idle_checks and not self.queue and self.delivered < limit:
            busy = [(k, c) for k, c in self.cores.items() if c.deferred_proofs]
            if not busy:
                return
            for key, core in busy:
                self.post(key, core.verify_deferred())
                self.play_bot(key)
            self._deliver(limit)

    def _deliver(self, limit: int) -> None:
        while self.queue and self.delivered < limit:
            self.step()


def make_table(n: int, game: str = "level8-master", options: dict[str, Any] | None = None,
               ) -> tuple[list[Identity], StartedTable]:
    ids = identities(n)
    table = start_local(ids, game, options, table="0123456789abcdef")
    order = {m.public_key: i for i, m in enumerate(table.seats)}
    return sorted(ids, key=lambda p: order[p.public_key]), table


def make_cores(n: int, game: str = "level8-master", *, seed: str = "s",
               options: dict[str, Any] | None = None) -> tuple[list[GameCore], Network]:
    ids, table = make_table(n, game, options)
    cores = []
    for i, me in enumerate(ids):
        cores.append(GameCore(me, table, SeededRandomBytes(f"{seed}-{i}")))
    return cores, Network(cores)


# ---------------------------------------------------------------------------------------------
# A hostile seat that forks the record: one signed entry to some peers, another to the others.


def entry_of(data: bytes) -> dict[str, Any] | None:
    """The entry inside a ``record.entry`` envelope's bytes, else ``None``."""
    env = json.loads(data)
    return env["body"]["entry"] if env.get("type") == "record.entry" else None


def twin_entry(core: GameCore, lines: Sequence[tuple[str, dict[str, Any]]], seq: int,
               original: dict[str, Any]) -> dict[str, Any] | None:
    """Another validly signed entry number ``seq`` by ``core``'s seat: a twin of the seat is
    restored from what it persisted before that entry and makes its own (other randomness, or
    another legal move). ``None`` when the twin makes the very same entry."""
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    twin = GameCore(core.me, core.table, SeededRandomBytes(f"twin-{seq}"), secret_key=secret)
    outputs = twin.restore(list(lines))
    if twin.expected() == (twin.seat, "action") and len(twin.record) == seq:
        played = original["payload"].get("a")
        other = [a for a in twin.legal_actions()
                 if twin.game.format_action(twin.game.public_action(a)) != played]
        if other:
            outputs += twin.submit(other[0])
    for out in outputs:
        if isinstance(out, Send) and out.to is None:
            entry = entry_of(out.data)
            if entry is not None and entry["seq"] == seq and entry != original:
                return entry
    return None


class ForkingNetwork(Network):
    """A network where seat ``hostile`` forks at its first entry numbered ``at`` or later:
    the peers in ``group_b`` receive a twin entry, the others the original."""

    def __init__(self, cores: Sequence[GameCore], hostile: int, at: int,
                 group_b: Sequence[int]) -> None:
        super().__init__(cores)
        self.hostile = cores[hostile]
        self.at = at
        self.group_b = {cores[i].me.public_key for i in group_b}
        self.fork: tuple[dict[str, Any], dict[str, Any]] | None = None

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        if sender != self.hostile.me.public_key or self.fork is not None:
            super().post(sender, outputs)
            return
        lines = list(self.persisted[sender])
        for out in outputs:
            if isinstance(out, Persist):
                if out.kind == "entry" and out.line["seq"] >= self.at:
                    break
                lines.append((out.kind, out.line))
        for i, out in enumerate(outputs):
            if not isinstance(out, Send) or out.to is not None:
                continue
            entry = entry_of(out.data)
            if entry is None or entry["seq"] < self.at:
                continue
            twin = twin_entry(self.hostile, lines, entry["seq"], entry)
            if twin is None:
                continue
            self.fork = (entry, twin)
            env = json.loads(out.data)
            forged = sign_envelope(self.hostile.me, "record.entry", env["tbl"], env["seq"],
                                   {"entry": twin}).encode()
            super().post(sender, outputs[:i])
            for key in self.cores:
                if key != sender:
                    self.queue.append((sender, key, forged if key in self.group_b else out.data))
            super().post(sender, outputs[i + 1:])
            return
        super().post(sender, outputs)


SOCKET_CONFIG = TransportConfig(ping_interval=2.0, ping_timeout=5.0, backoff_max=0.5)
"""The links of :func:`listening_nodes`: quick pings and reconnects for tests."""


async def listening_nodes(n: int, game: str, seed: str, folder: Any = None) -> list[PeerNode]:
    """``n`` peer nodes of one new table on 127.0.0.1, each listening and dialling the others
    (``folder``: a journal per peer in ``folder/peer<i>``; ``None``: none). Close them."""
    ids, table = make_table(n, game)
    nodes = []
    for i, me in enumerate(ids):
        mesh = Mesh(me, SOCKET_CONFIG)
        await mesh.start("127.0.0.1", 0)
        store = None if folder is None else TableStore(folder / f"peer{i}")
        nodes.append(PeerNode(GameCore(me, table, SeededRandomBytes(f"{seed}-{i}")), mesh,
                              store))
    addresses = {node.core.me.public_key: PeerAddress("127.0.0.1", node.mesh.port)
                 for node in nodes}
    for node in nodes:
        node.connect(addresses)
    return nodes
