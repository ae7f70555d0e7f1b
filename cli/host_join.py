"""``lancards host`` and ``lancards join``: play with friends on the home network.

``host`` advertises a table by mDNS (``_lancards._tcp.local.``) and listens for players;
``join`` finds tables by mDNS (or takes ``HOST:PORT``), joins one, and the table starts when
it is full and every seated peer has signed the start. Then every peer keeps a link to every
other (the lower key dials), exactly as in ``lancards play``. Addresses: each joiner tells the
host its listening port; the host, which sees where each joiner connects from, sends every
member the address book when the table starts (message ``table.addrs``).

Addresses: ``--interface`` (names or addresses, repeatable) picks the interfaces; without it,
every address of every interface but loopback is advertised, IPv6 link-local ones with their
scope (:mod:`lancards.p2p.addresses`). A joiner tries a table's addresses until the advertised
key answers and prints the one that did. SIGINT, SIGTERM and SIGHUP end a host with the mDNS
goodbye sent (exit status 128 + the signal's number).

Test hooks (environment, never set in normal use): ``LANCARDS_TEST_CHEAT=swap-claim`` makes
this peer claim another card than the one it holds on its first discard;
``LANCARDS_TEST_DUMP_HAND=FILE`` writes this peer's final hidden hand at exit;
``LANCARDS_TEST_MDNS_TTL=S`` gives the table's mDNS records a TTL of S seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from zeroconf import Error as ZeroconfError

from lancards.cli.selfplay import add_rules_arguments, rules_from_args
from lancards.cli.started_table import CONFIG, play_table
from lancards.p2p.addresses import AddressError, LocalAddress, choose_addresses, rescope
from lancards.p2p.discovery import (
    Advertiser,
    Browser,
    Ignored,
    TableAdvert,
    TableFound,
    TableRemoved,
    TableUpdated,
    reachable_address,
)
from lancards.p2p.errors import LocalProtocolError, PeerError, RemoteProtocolError
from lancards.p2p.identity import Identity, describe
from lancards.p2p.node import PeerAddress
from lancards.p2p.store import TableStore, data_home
from lancards.p2p.table import Lobby, Outgoing, StartedTable
from lancards.p2p.transport import (
    Connected,
    Disconnected,
    Mesh,
    Received,
    probe_key,
)
from lancards.p2p.wire import MESSAGE_TYPES, decode_envelope, sign_envelope

CREATE = "\x00create"
"""What :func:`lobby_choice` returns when the user creates a table."""
LOBBY_GRACE_S = float(os.environ.get("LANCARDS_LOBBY_GRACE", "10"))
"""Seconds a guest's seat is kept after its link drops before the start (then freed; the same
key may join again at any time)."""
JOIN_ANSWER_S = 15.0
"""Seconds a joiner waits for the host to seat it (a full or started table never answers)."""
PROBE_S = 3.0
"""Seconds one address of a table found by mDNS has to answer the hello probe."""
SETTLE_S = 1.5
"""Seconds ``join TABLE-ID`` keeps looking after a match, to see a second table with that id."""
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
        description="Without TABLE: in a terminal, the lobby lists the tables found (each "
        "checked to answer) and you choose one; with --autoplay, the first table found with a "
        "free seat that answers is joined. TABLE is a table id seen in the list, or "
        "TABLE-ID@HOST:PORT as the host prints it.")
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
    parser.add_argument("--interface", action="append", default=None, metavar="NAME|IP",
                        help="use only this network interface: its name (eth0, wlan0) or one "
                        "of its addresses (fe80::1%%eth0 for a link-local one); repeatable; "
                        "default: every interface but loopback")
    parser.add_argument("--autoplay", action="store_true",
                        help="a bot plays your seat; no screen; one line per round")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="write the signed game record to FILE when the game ends")


def _identity(name: str | None) -> Identity:
    from lancards.cli.identity import player_identity

    return player_identity(name)


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
        self._seq = 1 << 40  # above the Lobby's own numbers; nothing is kept before the start

    def envelope(self, type_: str, body: dict[str, Any]) -> bytes:
        self._seq += 1
        return sign_envelope(self.me, type_, self.lobby.spec.table, self._seq, body).encode()

    async def pump(self, on_message: Any, done: Any, timeout: float, *,
                   on_link: Any = None, tick: Any = None) -> None:
        """Feed lobby messages to ``on_message(peer, env)`` until ``done()``; link changes go
        to ``on_link(peer, up)`` and ``tick()`` runs at least once a second."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not done():
            if tick is not None:
                tick()
                if done():
                    break
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
                if on_link is not None:
                    on_link(event.peer, True)
            elif isinstance(event, Disconnected) and on_link is not None:
                on_link(event.peer, False)


async def _advertise(lobby: Lobby, me: Identity, port: int, chosen: list[LocalAddress],
                     size: int) -> Advertiser:
    """Advertise the table on the chosen interfaces, every one of their addresses."""
    advert = TableAdvert(lobby.spec.table, lobby.spec.game, size - 1, me.nick, me.public_key,
                         port, tuple(a.text for a in chosen), size, (me.nick,))
    ttl = int(os.environ.get("LANCARDS_TEST_MDNS_TTL", "0") or 0)
    advertiser = Advertiser(advert, chosen, **({"ttl": ttl} if ttl > 0 else {}))
    await advertiser.start()
    return advertiser


def _local_addresses(args: argparse.Namespace) -> list[LocalAddress]:
    """The addresses ``--interface`` chooses (default: every interface but loopback).

    Raises:
        UsageError: the argument names no interface or address of this machine (one line).
    """
    from lancards.cli.main import UsageError

    try:
        return choose_addresses(args.interface)
    except AddressError as exc:
        raise UsageError(str(exc)) from None


def _check_port(port: int) -> None:
    from lancards.cli.main import UsageError

    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: a TCP port is 1 to 65535 (0: any free port)")


def _listen_host(args: argparse.Namespace, chosen: list[LocalAddress]) -> str:
    """Where the transport listens: the one address given by ``--interface ADDRESS``, else
    every interface (``""``: IPv4 and IPv6 when an IPv6 address is chosen, else 0.0.0.0)."""
    if len(chosen) == 1 and args.interface and args.interface[0] not in {
            a.interface for a in chosen}:
        return chosen[0].text
    return "" if any(a.version == 6 for a in chosen) else "0.0.0.0"


def _free_port(host: str) -> int:
    """A TCP port free on IPv4 and IPv6 at once (a listener on ``""`` binds both with one
    port; asyncio would give each family its own ephemeral port)."""
    if host != "":
        return 0
    for _ in range(50):
        with socket.socket(socket.AF_INET) as four:
            four.bind(("", 0))
            port = int(four.getsockname()[1])
            try:
                with socket.socket(socket.AF_INET6) as six:
                    six.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                    six.bind(("::", port))
            except OSError as exc:
                if exc.errno == 98:  # EADDRINUSE: try another
                    continue
            return port
    return 0


async def _listen(mesh: Mesh, host: str, port: int, what: str) -> int:
    """Start ``mesh`` listening; a bind error becomes one line naming the real problem."""
    from lancards.cli.main import UsageError

    try:
        return await mesh.start(host, port or _free_port(host))
    except PeerError as exc:
        text = str(exc)
        hint = "choose another --port" if "in use" in text else (
            "check --interface" if what == "interface" else "check the network")
        raise UsageError(f"{text}; {hint}") from None


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
    _check_port(args.port)
    chosen = _local_addresses(args)
    me = _identity(args.name)
    lobby = Lobby.create(me, spec.name, raw)
    mesh = Mesh(me, CONFIG, accept=lambda key: lobby.started is None and not lobby.closed)
    bind = args.listen_host = _listen_host(args, chosen)
    port = await _listen(mesh, bind, args.port, "interface" if args.interface else "port")
    try:
        advertiser = await _advertise(lobby, me, port, chosen, args.players)
    except (PeerError, OSError, TimeoutError, ZeroconfError) as exc:
        await mesh.close()
        raise UsageError(f"cannot advertise the table on "
                         f"{', '.join(a.text for a in chosen)}: {exc}") from None
    _LIVE_ADVERTS.append(advertiser)  # withdrawn by _run on any way out
    lobbyist = _Lobbyist(me, lobby, mesh)
    lobbyist.addrs[me.public_key] = PeerAddress(
        bind if bind not in ("0.0.0.0", "") else "127.0.0.1", port)
    bots = [await _start_bot_joiner(i, lobby, me, port, args) for i in range(args.bots)]
    others = args.players - 1
    first = advertiser.advert.addresses[0]
    target = f"{lobby.spec.table}@{f'[{first}]' if ':' in first else first}:{port}"
    print(f"table {lobby.spec.table} · {spec.name} · {args.players} seats · host "
          f"{describe(me.public_key, me.nick)}\n"
          f"waiting for {others} player{'s' if others != 1 else ''}; on this network they run:\n"
          f"    lancards join\n"
          f"  or, where the network blocks mDNS:\n"
          f"    lancards join --game {spec.name} {target}", flush=True)
    if len(advertiser.advert.addresses) > 1:
        print(f"advertised at {', '.join(advertiser.advert.addresses)} port {port}", flush=True)
    down: dict[bytes, float] = {}  # guests whose link dropped, since when
    clock = asyncio.get_running_loop().time
    said = [""]

    def status() -> None:
        """Print whom the host waits for, when that changes (nobody once started)."""
        if lobby.started is not None:
            return
        lost = [f"{lobby.name(k).split(' [')[0]} (link lost)" for k in down]
        if lobby.proposed:
            text = "waiting for the start signatures of " + ", ".join(
                m.nick for m in lobby.unsigned())
        else:
            free = args.players - len(lobby.seats())
            text = f"waiting for {free} player{'s' if free != 1 else ''}"
        text += "; " + ", ".join(lost) if lost else ""
        if text != said[0]:
            said[0] = text
            print(text, flush=True)

    def on_message(peer: bytes, env: Any) -> None:
        try:
            _send(mesh, lobby.receive(env))
        except PeerError as exc:
            print(f"rejected: {exc}", file=sys.stderr)
            return
        _readvertise(advertiser, lobby, args.players)
        if len(lobby.seats()) == args.players and not lobby.proposed:
            _send(mesh, lobby.propose_start())
        status()

    def on_link(peer: bytes, up: bool) -> None:
        if up:
            down.pop(peer, None)
        elif any(m.public_key == peer for m in lobby.members):
            down[peer] = clock()
        status()

    def tick() -> None:
        for key, since in list(down.items()):
            if clock() - since < LOBBY_GRACE_S or lobby.started is not None:
                continue
            del down[key]
            name = lobby.name(key)
            out = lobby.drop(key)
            lobbyist.addrs.pop(key, None)
            if out:
                print(f"freed the seat of {name}: its link was lost for "
                      f"{LOBBY_GRACE_S:.0f} s", flush=True)
                _send(mesh, out)
            status()

    try:
        await lobbyist.pump(on_message, lambda: lobby.started is not None, 3600.0,
                            on_link=on_link, tick=tick)
    finally:
        await advertiser.withdraw()
    table = lobby.started
    assert table is not None
    public_host = advertiser.advert.addresses[0]
    own = lobbyist.addrs[me.public_key]
    book = lobby.address_book_message(mesh.remote_hosts, public_host, (own.host, own.port))
    _send(mesh, [book])
    seated = {m.public_key for m in table.seats}
    lobbyist.addrs.update({k: PeerAddress(mesh.remote_hosts.get(k, "127.0.0.1"), port)
                           for k, port in lobby.ports.items() if k in seated})
    return me, table, mesh, lobbyist, bots


def _readvertise(advertiser: Advertiser, lobby: Lobby, size: int) -> None:
    """Publish the seats and players after a lobby change (in the background)."""
    players = tuple(m.nick for m in lobby.seats())
    free = max(0, size - len(players))
    if (free, players) == (advertiser.advert.free_seats, advertiser.advert.players):
        return

    async def update() -> None:
        with contextlib.suppress(PeerError, OSError, TimeoutError):
            await advertiser.update(free_seats=free, players=players)

    task = asyncio.ensure_future(update())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


_BACKGROUND: set[asyncio.Task[None]] = set()
_LIVE_ADVERTS: list[Advertiser] = []
"""Advertisers of this process: :func:`_run` sends their goodbyes on every way out."""


async def _start_bot_joiner(index: int, lobby: Lobby, host: Identity, port: int,
                            args: argparse.Namespace) -> Any:
    """A bot peer on this machine that joins the table like anyone else: at 127.0.0.1, or at
    the one address the host listens on (``--interface ADDRESS``)."""
    bot = Identity.generate(f"bot{index + 1}")
    listen = getattr(args, "listen_host", "")
    dial = listen if listen not in ("", "0.0.0.0") else "127.0.0.1"
    ns = argparse.Namespace(name=None, interface=None, autoplay=True, record=None,
                            listen_host="0.0.0.0" if ":" not in dial else "")
    return asyncio.create_task(join_table(ns, bot, lobby.spec.table, host.public_key,
                                          dial, port, lobby.spec.game, play=True))


def _probe(me: Identity) -> Any:
    async def probe(host: str, port: int) -> bytes:
        return await probe_key(host, port, me, timeout=PROBE_S)

    return probe


async def _browser(args: argparse.Namespace) -> Browser:
    """A started mDNS browser on the chosen interfaces.

    Raises:
        UsageError: no such interface or address, or mDNS cannot start there (one line).
    """
    from lancards.cli.main import UsageError

    try:
        chosen = _local_addresses(args)
        browser = Browser(chosen)
        await browser.start()
    except (OSError, ZeroconfError) as exc:
        raise UsageError(f"cannot look for tables by mDNS on "
                         f"{', '.join(a.text for a in chosen)}: {exc}") from None
    return browser


async def find_table(args: argparse.Namespace, me: Identity) -> tuple[str, bytes, str, int, str]:
    """(table id, host key, host address, port, game) from the argument or mDNS.

    Without a table id, the first table found with a free seat whose advertised key answers
    at one of its addresses; with one, that table, refused when two hosts advertise the id.
    """
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
        print(f"host: {describe(key)} at {address}", flush=True)
        return table_id, key, host.strip("[]"), int(port_text), args.game
    browser = await _browser(args)
    probe = _probe(me)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + args.wait
        matches: dict[str, tuple[TableAdvert, str]] = {}
        why_not: dict[str, str] = {}  # table id -> why a table seen was not joined
        while True:
            left = deadline - loop.time()
            if left <= 0:
                if matches:
                    break
                if target is not None and target in why_not:
                    raise UsageError(why_not[target])
                if why_not:
                    raise UsageError("no table to join: " + "; ".join(why_not.values()))
                raise UsageError("no table found on the network; ask the host for HOST:PORT, "
                                 "and check that UDP port 5353 is open")
            try:
                event = await browser.next_event(left)
            except (PeerError, TimeoutError):
                continue
            if isinstance(event, Ignored):
                print(f"ignored an advert: {event.error}", flush=True)
                continue
            if not isinstance(event, TableFound | TableUpdated):
                continue
            advert = event.advert
            if advert.free_seats <= 0 or (target is not None and target != advert.table):
                print(f"seen table {advert.table} ({advert.game}) of {advert.nick}: "
                      f"{_free_seats(advert.free_seats)}", flush=True)
                if advert.free_seats <= 0:
                    why_not[advert.table] = (f"table {advert.table} of "
                                             f"{describe(advert.public_key, advert.nick)} "
                                             "has no free seat")
                continue
            try:
                address, failed = await reachable_address(advert, probe)
            except LocalProtocolError as exc:
                print(f"skipped: {exc}", flush=True)
                why_not[advert.table] = str(exc)
                continue
            for line in failed:
                print(f"tried {line}", flush=True)
            print(f"found table {advert.table} ({advert.game}) of {advert.nick}: "
                  f"{_free_seats(advert.free_seats)} at {address} port {advert.port}", flush=True)
            print(f"host: {describe(advert.public_key, advert.nick)}", flush=True)
            matches[advert.public_key.hex()] = (advert, address)
            if target is None:
                break
            deadline = min(deadline, loop.time() + SETTLE_S)  # a second table with this id?
    finally:
        await browser.close()
    if len(matches) > 1:
        raise UsageError(
            f"{len(matches)} tables use the id {target}: "
            + "; ".join(f"{describe(a.public_key, a.nick)} at {addr}:{a.port}"
                        for a, addr in matches.values())
            + "; check the host's fingerprint and join by TABLE-ID@HOST:PORT")
    advert, address = next(iter(matches.values()))
    return advert.table, advert.public_key, address, advert.port, advert.game


async def join_table(args: argparse.Namespace, me: Identity, table_id: str, host_key: bytes,
                     host: str, port: int, game: str, *, play: bool = False) -> Any:
    """Join the table, wait for its start and the address book; then play if ``play``."""
    lobby, join = Lobby.join(me, table_id or "0" * 16, host_key, game or "level8-master")
    mesh = Mesh(me, CONFIG, accept=lambda key: any(m.public_key == key for m in lobby.seats()))
    if not hasattr(args, "listen_host"):
        args.listen_host = _listen_host(args, _local_addresses(args)) if args.interface \
            else ("0.0.0.0" if ":" not in host else "")
    my_port = await _listen(mesh, args.listen_host, 0, "interface")
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


async def lobby_choice(args: argparse.Namespace, me: Identity) -> str | tuple[Any, ...] | None:
    """Show the lobby screen fed by the mDNS browser; returns the choice or ``None``.

    The choice is :data:`CREATE`, a typed ``HOST:PORT``, or for a listed table the tuple
    ``(table id, host key, address, port, game)``: the key whose fingerprint the lobby showed,
    at the address that answered. A table is listed only once its advertised key answered the
    hello probe at one of its addresses (:func:`lancards.p2p.discovery.reachable_address`).
    """
    from lancards.cli.tui.lobby import LobbyScreen, entries_from

    answered: dict[str, tuple[TableAdvert, str]] = {}
    choice: dict[str, Any] = {}
    screen = LobbyScreen(
        [], describe(me.public_key, me.nick),
        on_join=lambda entry: choice.update(entry=entry),
        on_create=lambda: choice.update(create=True),
        on_manual=lambda text: choice.update(target=text),
    )
    browser = await _browser(args)
    probe = _probe(me)
    probing: dict[str, asyncio.Task[None]] = {}

    def show() -> None:
        screen.set_tables(entries_from(answered))

    async def check(name: str, advert: TableAdvert) -> None:
        try:
            address, _ = await reachable_address(advert, probe)
        except LocalProtocolError:
            answered.pop(name, None)
        else:
            if browser.tables.get(name) == advert:  # not withdrawn meanwhile
                answered[name] = (advert, address)
        show()

    async def feed() -> None:
        while True:
            try:
                event = await browser.next_event(1.0)
            except (PeerError, TimeoutError):
                continue
            if isinstance(event, TableFound | TableUpdated):
                name = event.advert.instance_name
                known = answered.get(name)
                if known is not None and (known[0].addresses, known[0].port) == (
                        event.advert.addresses, event.advert.port):
                    answered[name] = (event.advert, known[1])  # seats changed: no new probe
                    show()
                    continue
                if name in probing:
                    probing[name].cancel()
                probing[name] = asyncio.create_task(check(name, event.advert))
            elif isinstance(event, TableRemoved):
                if event.name in probing:
                    probing.pop(event.name).cancel()
                answered.pop(event.name, None)
                show()

    feeder = asyncio.create_task(feed())
    try:
        await screen.run()
    finally:
        feeder.cancel()
        for task in probing.values():
            task.cancel()
        await browser.close()
    if choice.get("create"):
        return CREATE
    entry = choice.get("entry")
    if entry is not None:
        advert, address = answered.get(entry.name, (None, None))
        if advert is None or address is None:
            return None
        return (advert.table, advert.public_key, address, advert.port, advert.game)
    target = choice.get("target")
    return str(target) if target is not None else None


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
            if isinstance(target, tuple):
                table_id, key, host, port, game = target
                me2, table, mesh, lobbyist = await join_table(args, me, table_id, key, host,
                                                              port, game)
                _rescope_book(lobbyist, host)
                return int(await play_table(args, me2, table, mesh, lobbyist))
            args.table = target  # TABLE-ID@HOST:PORT, typed in the lobby
        table_id, key, host, port, game = await find_table(args, me)
        me2, table, mesh, lobbyist = await join_table(args, me, table_id, key, host, port, game)
        _rescope_book(lobbyist, host)
        return int(await play_table(args, me2, table, mesh, lobbyist))

    return _run(args, go)


def _rescope_book(lobbyist: _Lobbyist, reached: str) -> None:
    """Give the link-local addresses of the host's address book the scope of the interface
    this peer reached the host over (the host wrote its own interface names)."""
    lobbyist.addrs = {key: PeerAddress(rescope(a.host, reached), a.port)
                      for key, a in lobbyist.addrs.items()}


EXIT_SIGNALS: tuple[str, ...] = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that end a table with a goodbye (those a platform lacks are skipped: Windows
has no SIGHUP)."""


def _run(args: argparse.Namespace, go: Any) -> int:
    """Run ``go()``; SIGINT, SIGTERM and SIGHUP cancel it so that every ``finally`` runs (the
    table's mDNS goodbye among them), then the exit status is 128 + the signal number."""
    from lancards.cli.main import UsageError

    if not args.autoplay and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise UsageError("the table needs a terminal; use --autoplay to play without one")
    if args.record and Path(args.record).exists():
        raise UsageError(f"--record {args.record}: the file exists; nothing is written over")

    async def main() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        caught: list[int] = []
        installed: list[signal.Signals] = []

        def stop(signum: int) -> None:
            caught.append(signum)
            task.cancel()

        for name in EXIT_SIGNALS:
            sig = getattr(signal, name, None)
            if sig is None:
                continue
            try:
                loop.add_signal_handler(sig, stop, int(sig))
            except (NotImplementedError, RuntimeError, ValueError):
                continue  # no signal handlers in this loop (Windows): KeyboardInterrupt only
            installed.append(sig)
        try:
            return int(await go())
        except asyncio.CancelledError:
            if not caught:
                raise
            return 128 + caught[0]
        finally:
            while _LIVE_ADVERTS:
                await _LIVE_ADVERTS.pop().withdraw()
            for sig in installed:
                loop.remove_signal_handler(sig)

    return int(asyncio.run(main()))


__all__ = ["add_parser", "data_home"]


def _free_seats(count: int) -> str:
    """``"no free seat"``, ``"1 free seat"``, ``"3 free seats"``."""
    if count <= 0:
        return "no free seat"
    return f"{count} free seat{'s' if count != 1 else ''}"
