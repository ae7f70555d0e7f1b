"""Shared fixtures of the peer-layer tests: fixed identities, a started table, a record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.record import Record
from lancards.p2p.protocol.table import Lobby, OptionValue, Outgoing, StartedTable
from lancards.p2p.protocol.wire import ReplayGuard, decode_envelope

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay", "gus")
TABLE = "00112233aabbccdd"


def people(n: int = 4) -> list[Identity]:
    """``n`` identities with fixed seeds (seat-independent: seat order is by hash)."""
    return [Identity(bytes([i + 1]) * 32, NICKS[i]) for i in range(n)]


def rules_check(
    game: str, options: Mapping[str, OptionValue]
) -> tuple[dict[str, OptionValue], int, int]:
    """A stand-in rule registry: game ``test-game`` with one bool option ``fast``."""
    if game != "test-game":
        raise ValueError(f"unknown game {game!r}")
    values: dict[str, OptionValue] = {"fast": False}
    for key, value in options.items():
        if key != "fast" or not isinstance(value, bool):
            raise ValueError(f"bad option {key}={value!r}")
        values[key] = value
    return values, 2, 6


class LobbyNet:
    """Delivers lobby messages in memory through the real envelope codec and replay guards."""

    def __init__(self, lobbies: Sequence[Lobby]) -> None:
        self.by_key = {lobby.me.public_key: lobby for lobby in lobbies}
        self.guards = {key: ReplayGuard() for key in self.by_key}
        self.queue: list[tuple[bytes, bytes, bytes]] = []

    def post(self, sender: bytes, outgoing: Sequence[Outgoing]) -> None:
        for out in outgoing:
            for to in out.to:
                self.queue.append((sender, to, out.envelope.encode()))

    def run(self) -> None:
        while self.queue:
            sender, to, data = self.queue.pop(0)
            lobby = self.by_key.get(to)
            if lobby is None:
                continue
            env = decode_envelope(data, lobby.name(sender), expected_sender=sender)
            self.guards[to].accept(env)
            self.post(to, lobby.receive(env))


def seated_lobbies(
    ids: Sequence[Identity],
    options: Mapping[str, OptionValue] | None = None,
) -> tuple[list[Lobby], LobbyNet]:
    """A table hosted by ``ids[0]`` and joined by the others, not started yet (host first)."""
    host = Lobby.create(ids[0], "test-game", options, table=TABLE, rules_check=rules_check)
    lobbies = [host]
    net = LobbyNet([host])
    for me in ids[1:]:
        lobby, join = Lobby.join(me, TABLE, ids[0].public_key, "test-game", rules_check=rules_check)
        lobbies.append(lobby)
        net.by_key[me.public_key] = lobby
        net.guards[me.public_key] = ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    return lobbies, net


def start_table(
    ids: Sequence[Identity],
    options: Mapping[str, OptionValue] | None = None,
) -> tuple[list[Lobby], LobbyNet]:
    """A table hosted by ``ids[0]``, joined by the others, started by everyone."""
    lobbies, net = seated_lobbies(ids, options)
    net.post(ids[0].public_key, lobbies[0].propose_start())
    net.run()
    return lobbies, net


def started(n: int = 4) -> tuple[list[Identity], StartedTable]:
    """``n`` identities (in seat order) and their started table."""
    ids = people(n)
    lobbies, _ = start_table(ids)
    table = lobbies[0].started
    assert table is not None
    order = {m.public_key: i for i, m in enumerate(table.seats)}
    return sorted(ids, key=lambda p: order[p.public_key]), table


def state_hash(i: int) -> str:
    """A stand-in engine state hash for entry ``i``."""
    return f"{i:02x}" * 32


def record_with(n_entries: int, n_seats: int = 3) -> tuple[list[Identity], Record]:
    """A started table's record with ``n_entries`` entries, authors taking turns by seat."""
    ids, table = started(n_seats)
    record = table.new_record()
    for i in range(n_entries):
        author = ids[i % n_seats]
        record.append(record.next_entry(author, {"move": f"m{i}"}, state_hash(i)))
    return ids, record
