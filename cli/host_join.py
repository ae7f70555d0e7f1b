"""``lancards host`` and ``lancards join``: play with friends on the home network.

``host`` advertises a table by mDNS (``_lancards._tcp.local.``) and listens for players;
``join`` finds tables by mDNS (or takes ``HOST:PORT``), joins one, and the table starts when
it is full and every seated peer has signed the start. Then every peer keeps a link to every
other (the lower key dials), exactly as in ``lancards play``. Addresses: each joiner tells the
host its listening port; the host, which sees where each joiner connects from, sends every
member the address book when the table starts (message ``table.addrs``).

Test hooks (environment, never set in normal use): ``LANCARDS_TEST_CHEAT=swap-claim`` makes
this peer claim another card than the one it holds on its first discard;
``LANCARDS_TEST_DUMP_HAND=FILE`` writes this peer's final hidden hand at exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from lancards.cli.selfplay import add_rules_arguments, rules_from_args
from lancards.p2p.core import GameCore
from lancards.p2p.discovery import (
    Advertiser,
    Browser,
    TableAdvert,
    TableFound,
    TableRemoved,
    TableUpdated,
)
from lancards.p2p.errors import PeerError, RemoteProtocolError
from lancards.p2p.identity import Identity
from lancards.p2p.node import PeerAddress, PeerNode
from lancards.p2p.store import TableStore, data_home
from lancards.p2p.table import Lobby, Outgoing, StartedTable, verify_started
from lancards.p2p.transport import Connected, Mesh, Received, TransportConfig, probe_key
from lancards.p2p.wire import MESSAGE_TYPES, decode_envelope, sign_envelope

CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=2.0)
CREATE = "\x00create"
"""What :func:`lobby_choice` returns when the user creates a table."""
JOIN_ANSWER_S = 15.0
"""Seconds a joiner waits for the host to seat it (a full or started table never answers)."""
LOBBY_TYPES = MESSAGE_TYPES
"""Every message type (the one table, ``lancards.p2p.schemas``); lobby ones go to the Lobby."""


def add_parser(sub: Any) -> None:
    host = sub.add_parser(
        "host", help="advertise a table on the network and play when it is full",
        description="Advertise a table by mDNS and wait for players; the table starts when "
        "it has --players seats filled (bots fill --bots of them).")
    add_rules_arguments(host, "level8-master")
    host.add_argument("--players", type=int, default=2, help="seats at the table (default 2)")
    host.add_argument("--bots", type=int, default=0, help="seats filled by bots on this machine")
    _common(host)
    host.add_argument("--port", type=int, default=0, help="TCP port (default: any free port)")
    host.set_defaults(run=run_host)
    join = sub.add_parser(
        "join", help="find tables on the network (mDNS) and join one",
        description="Without TABLE: list the tables found and join the first one. TABLE is a "
        "table id seen in the list, or TABLE-ID@HOST:PORT as the host prints it.")
    join.add_argument("table", nargs="?", default=None,
                      help="TABLE-ID (from the list) or TABLE-ID@HOST:PORT (no mDNS needed)")
    join.add_argument("--game", default="level8-master",
                      help="the table's game when joining by TABLE-ID@HOST:PORT, or the game "
                      "of a table created from the lobby (n)")
    join.add_argument("--players", type=int, default=4,
                      help="seats of a table created from the lobby (default 4)")
    join.add_argument("--wait", type=float, default=10.0,
                      help="seconds to look for tables (default 10)")
    _common(join)
    join.set_defaults(run=run_join)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default=None, help="your nickname (default: your identity's)")
    parser.add_argument("--interface", action="append", default=None, metavar="IP",
                        help="use only the network interface with this address (repeatable)")
    parser.add_argument("--autoplay", action="store_true",
                        help="a bot plays your seat; no screen; one line per round")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="write the signed game record to FILE when the game ends")


def _identity(name: str | None) -> Identity:
    from lancards.cli.play import player_identity
    from lancards.p2p.identity import load_or_create_identity

    return player_identity(name) if name else load_or_create_identity()


def _send(mesh: Mesh, outgoing: list[Outgoing]) -> None:
    for out in outgoing:
        for to in out.to:
            with contextlib.suppress(PeerError):
                mesh.send(to, out.envelope.encode())


class _Lobbyist:
    """The lobby phase over a mesh: runs until the table has started and addresses are known."""

    def __init__(self, me: Identity, lobby: Lobby, mesh: Mesh) -> None:
        self.me = me
        self.lobby = lobby
        self.mesh = mesh
        self.addrs: dict[bytes, PeerAddress] = {}
        self.stash: list[tuple[bytes, bytes]] = []
        self._seq = time.time_ns() // 1000

    def envelope(self, type_: str, body: dict[str, Any]) -> bytes:
        self._seq += 1
        return sign_envelope(self.me, type_, self.lobby.spec.table, self._seq, body).encode()

    async def pump(self, on_message: Any, done: Any, timeout: float) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not done():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError("the table did not start in time")
            try:
                event = await self.mesh.next_event(min(left, 1.0))
            except PeerError:
                continue
            if isinstance(event, Received):
                try:
                    env = decode_envelope(event.data, event.peer.hex()[:16],
                                          expected_sender=event.peer, types=LOBBY_TYPES)
                except RemoteProtocolError as exc:
                    print(f"rejected: {exc}", file=sys.stderr)
                    continue
                if env.type.startswith("table."):
                    on_message(event.peer, env)
                else:
                    self.stash.append((event.peer, event.data))
            elif isinstance(event, Connected):
                self.stash.append((event.peer, b""))


async def _advertise(lobby: Lobby, me: Identity, port: int, interfaces: list[str] | None,
                     free: int) -> Advertiser:
    addresses = tuple(interfaces or _local_addresses())
    advert = TableAdvert(lobby.spec.table, lobby.spec.game, free, me.nick, me.public_key, port,
                         addresses)
    advertiser = Advertiser(advert, interfaces)
    await advertiser.start()
    return advertiser


def _local_addresses() -> list[str]:
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: picks the outgoing interface
            return [s.getsockname()[0]]
    except OSError:
        return ["127.0.0.1"]


async def host_table(args: argparse.Namespace) -> tuple[Identity, StartedTable, Mesh,
                                                          _Lobbyist, list[Any]]:
    """Advertise, gather the players, start; returns what the game needs."""
    from lancards.cli.main import UsageError

    spec, _, raw = rules_from_args(args)
    if not spec.min_players <= args.players <= spec.max_players:
        raise UsageError(f"--players {args.players}: {spec.name} is for {spec.min_players} "
                         f"to {spec.max_players} players")
    if not 0 <= args.bots < args.players:
        raise UsageError(f"--bots {args.bots}: use 0 to {args.players - 1}")
    me = _identity(args.name)
    lobby = Lobby.create(me, spec.name, raw)
    mesh = Mesh(me, CONFIG, accept=lambda key: lobby.started is None and not lobby.closed)
    bind = "0.0.0.0" if not args.interface else args.interface[0]
    try:
        port = await mesh.start(bind, args.port)
    except PeerError as exc:
        raise UsageError(f"{exc}; choose another --port") from None
    advertiser = await _advertise(lobby, me, port, args.interface, args.players - 1)
    lobbyist = _Lobbyist(me, lobby, mesh)
    lobbyist.addrs[me.public_key] = PeerAddress(bind if bind != "0.0.0.0" else "127.0.0.1",
                                                port)
    bots = [await _start_bot_joiner(i, lobby, me, port, args) for i in range(args.bots)]
    others = args.players - 1
    print(f"table {lobby.spec.table} ({spec.name}): waiting for {others} "
          f"player{'s' if others != 1 else ''}; "
          f"they run: lancards join, or lancards join --game {spec.name} "
          f"{lobby.spec.table}@{advertiser.advert.addresses[0]}:{port}", flush=True)
    proposed = False

    def on_message(peer: bytes, env: Any) -> None:
        nonlocal proposed
        try:
            _send(mesh, lobby.receive(env))
        except PeerError as exc:
            print(f"rejected: {exc}", file=sys.stderr)
            return
        if len(lobby.seats()) == args.players and not proposed:
            proposed = True
            _send(mesh, lobby.propose_start())

    await lobbyist.pump(on_message, lambda: lobby.started is not None, 3600.0)
    table = lobby.started
    assert table is not None
    await advertiser.withdraw()
    public_host = advertiser.advert.addresses[0]
    own = lobbyist.addrs[me.public_key]
    book = lobby.address_book_message(mesh.remote_hosts, public_host, (own.host, own.port))
    _send(mesh, [book])
    seated = {m.public_key for m in table.seats}
    lobbyist.addrs.update({k: PeerAddress(mesh.remote_hosts.get(k, "127.0.0.1"), port)
                           for k, port in lobby.ports.items() if k in seated})
    return me, table, mesh, lobbyist, bots


async def _start_bot_joiner(index: int, lobby: Lobby, host: Identity, port: int,
                            args: argparse.Namespace) -> Any:
    """A bot peer on this machine that joins the table at 127.0.0.1 like anyone else."""
    bot = Identity.generate(f"bot{index + 1}")
    ns = argparse.Namespace(name=None, interface=None, autoplay=True, record=None)
    return asyncio.create_task(join_table(ns, bot, lobby.spec.table, host.public_key,
                                          "127.0.0.1", port, lobby.spec.game, play=True))


async def find_table(args: argparse.Namespace, me: Identity) -> tuple[str, bytes, str, int, str]:
    """(table id, host key, host address, port, game) from the argument or mDNS."""
    from lancards.cli.main import UsageError

    target = args.table
    if target and ":" in target:
        table_id, at, address = target.rpartition("@")
        host, _, port_text = address.rpartition(":")
        if not at or len(table_id) != 16 or not port_text.isdigit() or not host:
            raise UsageError(f"{target!r} is not TABLE-ID@HOST:PORT (the host prints it)")
        try:
            key = await probe_key(host.strip("[]"), int(port_text), me)
        except PeerError as exc:
            raise UsageError(str(exc)) from None
        return table_id, key, host.strip("[]"), int(port_text), args.game
    browser = Browser(args.interface)
    await browser.start()
    try:
        deadline = asyncio.get_running_loop().time() + args.wait
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise UsageError("no table found on the network; ask the host for HOST:PORT, "
                                 "and check that UDP port 5353 is open")
            try:
                event = await browser.next_event(left)
            except (PeerError, TimeoutError):
                continue
            if isinstance(event, TableFound | TableUpdated):
                advert = event.advert
                print(f"found table {advert.table} ({advert.game}) of {advert.nick}: "
                      f"{advert.free_seats} free seats at "
                      f"{', '.join(advert.addresses)} port {advert.port}", flush=True)
                if advert.free_seats > 0 and (target is None or target == advert.table):
                    return (advert.table, advert.public_key, advert.addresses[0], advert.port,
                            advert.game)
    finally:
        await browser.close()


async def join_table(args: argparse.Namespace, me: Identity, table_id: str, host_key: bytes,
                     host: str, port: int, game: str, *, play: bool = False) -> Any:
    """Join the table, wait for its start and the address book; then play if ``play``."""
    lobby, join = Lobby.join(me, table_id or "0" * 16, host_key, game or "level8-master")
    mesh = Mesh(me, CONFIG, accept=lambda key: any(m.public_key == key for m in lobby.seats()))
    bind = args.interface[0] if args.interface else "0.0.0.0"
    my_port = await mesh.start(bind, 0)
    mesh.add_peer(host_key, host, port, dial=True)
    lobbyist = _Lobbyist(me, lobby, mesh)
    _send(mesh, [join])
    mesh.send(host_key, lobbyist.envelope("table.port", {"port": my_port}))

    def on_message(peer: bytes, env: Any) -> None:
        try:
            _send(mesh, lobby.receive(env))
        except PeerError as exc:
            print(f"rejected: {exc}", file=sys.stderr)

    from lancards.cli.main import UsageError

    try:
        await lobbyist.pump(on_message, lambda: lobby.roster_version > 0, JOIN_ANSWER_S)
    except TimeoutError:
        await mesh.close()
        raise UsageError(f"the table at {host}:{port} did not take this join within "
                         f"{JOIN_ANSWER_S:.0f} s: it may be full, started or gone") from None
    await lobbyist.pump(on_message,
                        lambda: lobby.started is not None and bool(lobby.address_book), 3600.0)
    table = lobby.started
    assert table is not None
    lobbyist.addrs = {k: PeerAddress(h, p) for k, (h, p) in lobby.address_book.items()}
    lobbyist.addrs[host_key] = PeerAddress(host, port)
    if play:
        folder = data_home() / "tables" / table.spec.table / "bots" / me.public_key.hex()[:16]
        return await play_table(args, me, table, mesh, lobbyist, quiet=True,
                                store=TableStore(folder))
    return me, table, mesh, lobbyist


async def play_table(args: argparse.Namespace, me: Identity, table: StartedTable, mesh: Mesh,
                     lobbyist: _Lobbyist | None, *, quiet: bool = False,
                     restore: TableStore | None = None, store: TableStore | None = None) -> int:
    """Run the game at a started table (autoplay or the full-screen table)."""
    store = restore or store or TableStore.for_table(table.spec.table)
    addrs = lobbyist.addrs if lobbyist is not None else {
        bytes.fromhex(k): PeerAddress(str(v[0]), int(v[1]))
        for k, v in store.load_table()["peers"].items()}
    if restore is None:
        store.save_table({"mode": "remote", "statement": table.statement, "sigs": table.sigs,
                          "me": me.public_key.hex(), "nick": me.nick,
                          "listen": [mesh_bind(args), mesh.port],
                          "peers": {k.hex(): [a.host, a.port] for k, a in addrs.items()}})
    secret = store.load_secret() if restore is not None else None
    core = GameCore(me, table, secrets.token_bytes, secret_key=secret,
                    envelope_seq=time.time_ns() // 1000)
    node = PeerNode(core, mesh, store)
    if restore is not None:
        node.handle(core.restore(list(store.journal())))
    for key, address in addrs.items():
        if key != me.public_key and not mesh.connected(key):
            mesh.add_peer(key, address.host, address.port)
        elif key != me.public_key:
            mesh.add_peer(key, address.host, address.port, dial=False)
    if lobbyist is not None:
        for peer, data in lobbyist.stash:
            node.handle(core.peer_connected(peer) if not data else core.receive(peer, data))
    for key in addrs:
        if key != me.public_key and mesh.connected(key):
            node.connected.add(key)
            node.handle(core.peer_connected(key))
    if not quiet and not args.autoplay:
        from lancards.cli.net_session import NetworkSession
        from lancards.cli.tui.app import run_table

        session = NetworkSession([node], 0, table.spec.game, data_home(), bot_delay=0.0,
                                 autoplay=False, record_path=args.record)
        return await run_table(session)
    cheat = os.environ.get("LANCARDS_TEST_CHEAT", "")
    status = await _drive(node, args, quiet, cheat)
    dump = os.environ.get("LANCARDS_TEST_DUMP_HAND")
    if dump and not quiet:
        _dump_hand(core, Path(dump))
    return status


def mesh_bind(args: argparse.Namespace) -> str:
    return args.interface[0] if getattr(args, "interface", None) else "0.0.0.0"


async def _drive(node: PeerNode, args: argparse.Namespace, quiet: bool, cheat: str) -> int:
    from lancards.cli.tui.results import RoundTracker, final_lines

    core = node.core
    names = tuple(m.nick for m in core.players)
    tracker = RoundTracker(names)
    bot = core.game.bot()
    cheated = False
    run = asyncio.create_task(node.run(linger=1.5))
    try:
        while not run.done():
            await asyncio.sleep(0.01)
            if not quiet:
                for report in tracker.observe(core.game.name, core.game.view(core.state, None)):
                    print(report.summary, flush=True)
            legal = core.legal_actions()
            if not legal or core.pending_action is not None:
                continue
            action = bot.choose(core.state, core.seat, legal)
            if (cheat == "swap-claim" and not cheated and type(action).__name__ == "Discard"
                    and not core.deck.is_public(action.card.slot)):
                cheated = True  # a card still hidden: its opening will contradict the claim
                node.handle(_forge_swapped_discard(core, action))
                continue
            with contextlib.suppress(Exception):
                node.submit(action)
        await run
    finally:
        if args.record and len(core.record):
            core.record.write(args.record)
        if node.store is not None and len(core.record):
            core.record.write(node.store.folder / "record.jsonl")
            if core.game.outcome(core.state) is not None:
                (node.store.folder / "finished").touch()
        await node.close()
    if quiet:
        return 0
    for notice in node.notices:
        if notice.kind == "cheat":
            print(f"cheat: {notice.text}", flush=True)
    if core.halted:
        print(f"result: the table halted: {core.halted}")
        return 1
    outcome = core.game.outcome(core.state)
    if outcome is None:
        print("result: the game stopped without a result")
        return 1
    for line in final_lines(outcome, names, core.game.name):
        print(line)
    if args.record:
        print(f"record: {args.record}")
    return 0


def _forge_swapped_discard(core: GameCore, action: Any) -> list[Any]:
    """Test hook: discard ``action``'s card but claim another one (the opening will differ)."""
    from lancards.p2p.core import Send

    slot = action.card.slot
    real = core.game.identity(core.state, slot)
    known = {core.game.identity(core.state, s) for s in core.game.knowledge(core.state)}
    fake = next(c for c in core.faces if getattr(c, "is_number", False) and c != real
                and c not in known)
    opening = core.deck.make_open(slot)
    payload = {"t": "action", "a": f"{core.seat}: discard {fake}#{slot}", "open": [opening]}
    entry = core.record.next_entry(core.me, payload, core.state_hash())
    env = sign_envelope(core.me, "record.entry", core.table_id, time.time_ns() // 1000,
                        {"entry": entry.to_dict()})
    core.halt("this peer cheated (test hook)")
    return [Send(None, env.encode())]


def _dump_hand(core: GameCore, path: Path) -> None:
    from lancards.engine.core import ALL_SEATS, seat_bit

    mine = seat_bit(core.seat)
    tokens = [f"{core.game.identity(core.state, s)}#{s}"
              for s, m in core.game.knowledge(core.state).items()
              if m & mine and m != ALL_SEATS and core.game.identity(core.state, s) is not None]
    path.write_text("\n".join(tokens) + "\n")


def run_host(args: argparse.Namespace) -> int:
    async def go() -> int:
        me, table, mesh, lobbyist, bots = await host_table(args)
        try:
            return await play_table(args, me, table, mesh, lobbyist)
        finally:
            for task in bots:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 10)

    return _run(args, go)


async def lobby_choice(args: argparse.Namespace, me: Identity) -> str | None:
    """Show the lobby screen fed by the mDNS browser; returns a join target or ``None``.

    The target is a table id (``args.table`` is set to it) or ``ID@HOST:PORT``.
    """
    from lancards.cli.tui.lobby import LobbyScreen, TableEntry

    adverts: dict[str, TableAdvert] = {}
    choice: dict[str, Any] = {}
    screen = LobbyScreen(
        [], f"{me.nick} [{me.fingerprint}]",
        on_join=lambda entry: choice.update(target=entry.table_id),
        on_create=lambda: choice.update(create=True),
        on_manual=lambda text: choice.update(target=text),
    )

    def show() -> None:
        screen.set_tables([
            TableEntry(a.table, a.game, f"{a.nick} {a.public_key.hex()[:6]}",
                       f"{a.addresses[0]}:{a.port}", a.free_seats)
            for a in adverts.values()
        ])

    browser = Browser(args.interface)
    await browser.start()

    async def feed() -> None:
        while True:
            try:
                event = await browser.next_event(1.0)
            except (PeerError, TimeoutError):
                continue
            if isinstance(event, TableFound | TableUpdated):
                adverts[event.advert.table] = event.advert
            elif isinstance(event, TableRemoved):
                for table, advert in list(adverts.items()):
                    if event.name.startswith(advert.instance_name.split(".")[0]):
                        del adverts[table]
            show()

    feeder = asyncio.create_task(feed())
    try:
        await screen.run()
    finally:
        feeder.cancel()
        await browser.close()
    if choice.get("create"):
        return CREATE
    return choice.get("target")


def run_join(args: argparse.Namespace) -> int:
    async def go() -> int:
        me = _identity(args.name)
        if args.table is None and not args.autoplay:
            target = await lobby_choice(args, me)
            if target is None:
                return 0
            if target == CREATE:  # host a table of --game for --players from the lobby
                hosting = argparse.Namespace(
                    game=args.game, option=[], players=args.players, bots=0, name=args.name,
                    interface=args.interface, port=0, autoplay=False, record=args.record)
                me2, table, mesh, lobbyist, _ = await host_table(hosting)
                return await play_table(hosting, me2, table, mesh, lobbyist)
            args.table = target
        table_id, key, host, port, game = await find_table(args, me)
        me2, table, mesh, lobbyist = await join_table(args, me, table_id, key, host, port, game)
        return int(await play_table(args, me2, table, mesh, lobbyist))

    return _run(args, go)


def _run(args: argparse.Namespace, go: Any) -> int:
    from lancards.cli.main import UsageError

    if not args.autoplay and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise UsageError("the table needs a terminal; use --autoplay to play without one")
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; nothing is written over")
    return int(asyncio.run(go()))


async def resume_remote(folder: Path, me: Identity, args: argparse.Namespace) -> int:
    """Continue a host/join table from its journal after a crash."""
    store = TableStore(folder)
    data = store.load_table()
    table = verify_started(data["statement"], data["sigs"], "the table file")
    host, port = data["listen"]
    member = next(m for m in table.seats if m.public_key == me.public_key)
    me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), member.nick)
    mesh = Mesh(me, CONFIG)
    await mesh.start(str(host), int(port))
    ns = argparse.Namespace(interface=[host] if host != "0.0.0.0" else None,
                            record=args.record, autoplay=True)
    return await play_table(ns, me, table, mesh, None, restore=store)


__all__ = ["add_parser", "data_home"]
