"""In-memory peers for the protocol core: every message goes through the real codec."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lancards.p2p.core import GameCore, Notice, Output, Persist, Send
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.identity import Identity
from lancards.p2p.table import StartedTable, start_local

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def identities(n: int) -> list[Identity]:
    return [Identity(bytes([i + 1]) * 32, NICKS[i]) for i in range(n)]


class Network:
    """Delivers every ``Send`` to its recipients, in order; keeps what each peer persisted."""

    def __init__(self, cores: Sequence[GameCore]) -> None:
        self.cores = {c.me.public_key: c for c in cores}
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

    def run(self, limit: int = 2_000_000) -> None:
        while self.queue and self.delivered < limit:
            sender, to, data = self.queue.pop(0)
            if self.tamper is not None:
                changed = self.tamper(sender, to, data)
                if changed is None:
                    continue
                data = changed
            core = self.cores.get(to)
            if core is None:
                continue
            self.delivered += 1
            self.post(to, core.receive(sender, data))


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
        spec_game = None
        core = GameCore(me, table, SeededRandomBytes(f"{seed}-{i}"), bot=spec_game)
        core.bot = core.game.bot()
        cores.append(core)
    return cores, Network(cores)
