"""``lancards join``: find tables on the home network (mDNS) or take ``TABLE-ID@HOST:PORT``,
join one and play.

In a terminal without a table argument, the lobby screen (:mod:`lancards.cli.tui.lobby`) lists
the tables found, each once its advertised key answered the hello probe; ``n`` there hosts a
table instead (:func:`lancards.cli.lobby.host.host_table`). A joiner tries a table's addresses
until the advertised key answers and prints the one that did. The lobby phase and the way the
command runs are :mod:`lancards.cli.lobby.common`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from zeroconf import Error as ZeroconfError

from lancards.cli.bot_choice import add_join_bot_level_argument, join_level
from lancards.cli.errors import UsageError
from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext
from lancards.cli.lobby.common import (
    HostGone,
    Lobbyist,
    add_common_arguments,
    join_table,
    local_addresses,
    player,
    run_lobby,
)
from lancards.cli.lobby.host import TABLE_SEATS, play_hosted
from lancards.cli.lobby.started_table import play_table
from lancards.cli.peer_errors import error_words, failure_words, tried_words
from lancards.cli.removal_words import advert_rescue_lines
from lancards.p2p.net.addresses import book_addresses
from lancards.p2p.net.discovery import (
    Browser,
    Ignored,
    TableAdvert,
    TableFound,
    TableRemoved,
    TableUpdated,
    reachable_address,
)
from lancards.p2p.net.failure_words import Failure
from lancards.p2p.net.node import PeerAddress
from lancards.p2p.net.probe import probe_key
from lancards.p2p.net.store import check_writable, data_home
from lancards.p2p.protocol.errors import LocalProtocolError, PeerError
from lancards.p2p.protocol.identity import Identity, describe

CREATE = "\x00create"
"""What :func:`lobby_choice` returns when the user creates a table."""
PROBE_S = 3.0
"""Seconds one address of a table found by mDNS has to answer the hello probe."""
SETTLE_S = 1.5
"""Seconds ``join TABLE-ID`` keeps looking after a match, to see a second table with that id."""


def add_parser(sub: Any) -> None:
    join = sub.add_parser(
        "join", help=_("find tables on the network (mDNS) and join one"),
        description=_("Without TABLE: in a terminal, the lobby lists the tables found (each "
          "checked to answer) and you choose one; with --autoplay, the first table found with a "
          "free seat that answers is joined. TABLE is a table id seen in the list, or "
          "TABLE-ID@HOST:PORT as the host prints it."))
    join.add_argument("table", nargs="?", default=None,
                      help=_("TABLE-ID (from the list) or TABLE-ID@HOST:PORT (no mDNS needed)"))
    join.add_argument("--game", default="level8-master",
                      help=_("the table's game when joining by TABLE-ID@HOST:PORT, or the game "
                        "of a table created from the lobby (n)"))
    join.add_argument("--players", type=int, default=TABLE_SEATS,
                      help=_("seats of a table created from the lobby (default 4)"))
    join.add_argument("--wait", type=float, default=10.0,
                      help=_("seconds to look for tables (default 10)"))
    add_common_arguments(join)
    add_join_bot_level_argument(join)
    join.set_defaults(run=run_join)


def _probe(me: Identity) -> Any:
    async def probe(host: str, port: int) -> bytes:
        return await probe_key(host, port, me, timeout=PROBE_S)

    return probe


async def _browser(args: argparse.Namespace) -> Browser:
    """A started mDNS browser on the chosen interfaces.

    Raises:
        UsageError: no such interface or address, or mDNS cannot start there (one line).
    """
    try:
        chosen = local_addresses(args)
        browser = Browser(chosen)
        await browser.start()
    except (OSError, ZeroconfError) as exc:
        raise UsageError(_("cannot look for tables by mDNS on {list}: {reason}").format(
            list=', '.join(a.text for a in chosen),
            reason=failure_words(exc, 'the network'))) from None
    return browser


def refuse_own_table(table_id: str, me: Identity) -> None:
    """Refuse at once to join a table this identity already sits at on this machine (a second
    window with the same ``LANCARDS_HOME``): the trial of 2026-12-05 read "no lancards table
    answers ... (the host closed the connection)" while the table ran in the other window.

    Raises:
        UsageError: ``tables/TABLE-ID`` holds a started, unfinished table of this identity.
    """
    from lancards.p2p.net.folder_lock import read_holder

    folder = data_home() / "tables" / table_id
    holder = read_holder(folder)  # a host of this home still waiting for players (no start)
    held = holder is not None and holder.pid != os.getpid() and holder.alive()
    if not (held and not (folder / "finished").exists()):
        try:
            data = json.loads((folder / "table.json").read_text("utf-8"))
        except (OSError, ValueError):
            return
        if (not isinstance(data, dict) or data.get("me") != me.public_key.hex()
                or "sigs" not in data or (folder / "finished").exists()):
            return
    raise UsageError(_("table {table} is yours already: it runs in another window, or 'lancards "
                       "resume {table}' goes on with it; a second player on this machine needs "
                       "another LANCARDS_HOME").format(table=table_id))


async def find_table(args: argparse.Namespace, me: Identity
                     ) -> tuple[str, bytes, str, int, str, int | None]:
    """(table id, host key, host address, port, game, seats) from the argument or mDNS
    (``seats``: the advertised seat count; ``None`` for an address given).

    Without a table id, the first table found with a free seat whose advertised key answers
    at one of its addresses; with one, that table, refused when two hosts advertise the id.
    """
    target = args.table
    if target and ("@" in target or ":" in target):
        table_id, at, address = target.rpartition("@")
        host, _colon, port_text = address.rpartition(":")
        if not at or len(table_id) != 16 or not port_text.isdigit() or not host:
            raise UsageError(_("{target!r} is not TABLE-ID@HOST:PORT (the host prints it)").format(
                target=target))
        refuse_own_table(table_id, me)
        try:
            key = await probe_key(host.strip("[]"), int(port_text), me)
        except PeerError as exc:
            raise UsageError(error_words(exc)) from None
        print(_("host: {host} at {address}").format(host=describe(key), address=address),
              flush=True)
        return table_id, key, host.strip("[]"), int(port_text), args.game, None
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
                    raise UsageError(_("no table to join: {reasons}").format(
                        reasons="; ".join(why_not.values())))
                raise UsageError(_("no table found on the network; ask the host for HOST:PORT, "
                                   "and check that UDP port 5353 is open"))
            try:
                event = await browser.next_event(left)
            except (PeerError, TimeoutError):
                continue
            if isinstance(event, Ignored):
                print(_("ignored an advert: {error}").format(error=event.error), flush=True)
                continue
            if not isinstance(event, TableFound | TableUpdated):
                continue
            advert = event.advert
            if advert.free_seats <= 0 or (target is not None and target != advert.table):
                print(advert_line(advert), flush=True)
                if advert.free_seats <= 0:
                    why_not[advert.table] = _("table {table} of {host} has no free seat").format(
                        table=advert.table, host=describe(advert.public_key, advert.nick))
                continue
            try:
                tried: list[tuple[str, Failure | None]] = []
                address, _failed = await reachable_address(advert, probe, tried)
            except LocalProtocolError as exc:
                print(_("skipped: {reason}").format(reason=error_words(exc)), flush=True)
                why_not[advert.table] = error_words(exc)
                continue
            for line in tried_words(tried):
                print(_("tried {address}").format(address=line), flush=True)
            print(advert_line(advert, address), flush=True)
            print(_("host: {host}").format(host=describe(advert.public_key, advert.nick)),
                  flush=True)
            if advert.rescue:
                for line in advert_rescue_lines(advert.game, advert.size, advert.partners):
                    print(line, flush=True)
            matches[advert.public_key.hex()] = (advert, address)
            if target is None:
                break
            deadline = min(deadline, loop.time() + SETTLE_S)  # a second table with this id?
    finally:
        await browser.close()
    if len(matches) > 1:
        raise UsageError(_(
            "{count} tables use the id {table}: {hosts}; check the host's fingerprint and join "
            "by TABLE-ID@HOST:PORT").format(
                count=len(matches), table=target, hosts="; ".join(
                    _("{host} at {address}").format(host=describe(a.public_key, a.nick),
                                                    address=f"{addr}:{a.port}")
                    for a, addr in matches.values())))
    advert, address = next(iter(matches.values()))
    return (advert.table, advert.public_key, address, advert.port, advert.game,
            advert.size or None)


async def find_started_advert(args: argparse.Namespace, target: str | None
                              ) -> tuple[str, bytes, str, int]:
    """(table id, host key, address, port) of the first started table found by mDNS whose
    advertised key answers (``target``: that table id only), for ``lancards watch``.

    Raises:
        UsageError: none within ``args.wait`` seconds.
    """
    browser = await _browser(args)
    probe = _probe(Identity.generate("watcher"))
    seen: list[str] = []
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + args.wait
        while loop.time() < deadline:
            try:
                event = await browser.next_event(max(0.01, deadline - loop.time()))
            except (PeerError, TimeoutError):
                continue
            if not isinstance(event, TableFound | TableUpdated):
                continue
            advert = event.advert
            if not advert.started or (target is not None and target != advert.table):
                seen.append((_("{table} of {host} (started)") if advert.started else
                             _("{table} of {host} (not started)")).format(
                                 table=advert.table, host=advert.nick))
                continue
            try:
                address, _failed = await reachable_address(advert, probe)
            except LocalProtocolError as exc:
                seen.append(error_words(exc))
                continue
            return advert.table, advert.public_key, address, advert.port
    finally:
        await browser.close()
    if seen:
        raise UsageError(_("no started table found on the network (seen: {seen}); ask a player "
                           "for TABLE-ID@HOST:PORT").format(seen="; ".join(seen[:4])))
    raise UsageError(_("no started table found on the network; ask a player for "
                       "TABLE-ID@HOST:PORT"))


async def lobby_choice(args: argparse.Namespace, me: Identity) -> str | tuple[Any, ...] | None:
    """Show the lobby screen fed by the mDNS browser; returns the choice or ``None``.

    The choice is :data:`CREATE`, a typed ``HOST:PORT``, a :class:`WatchTarget` (``w`` on a
    started table), or for a listed table the tuple
    ``(table id, host key, address, port, game, seats)``: the key whose fingerprint the lobby
    showed, at the address that answered. A table is listed only once its advertised key
    answered the hello probe at one of its addresses
    (:func:`lancards.p2p.net.discovery.reachable_address`).
    """
    from lancards.cli.tui.lobby import LobbyScreen, entries_from

    answered: dict[str, tuple[TableAdvert, str]] = {}
    choice: dict[str, Any] = {}
    screen = LobbyScreen(
        [], describe(me.public_key, me.nick),
        on_join=lambda entry: choice.update(entry=entry),
        on_create=lambda game, seats: choice.update(create=(game, seats)),
        on_manual=lambda text: choice.update(target=text),
        on_watch=lambda entry: choice.update(watch=entry),
    )
    browser = await _browser(args)
    probe = _probe(me)
    probing: dict[str, asyncio.Task[None]] = {}

    def show() -> None:
        screen.set_tables(entries_from(answered))

    async def check(name: str, advert: TableAdvert) -> None:
        try:
            address, _probe = await reachable_address(advert, probe)
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
        args.game, args.players = choice["create"]  # what n asked (issue 25, item 14)
        return CREATE
    entry = choice.get("entry") or choice.get("watch")
    if entry is not None:
        advert, address = answered.get(entry.name, (None, None))
        if advert is None or address is None:
            return None
        if "watch" in choice:
            return WatchTarget(advert.table, advert.public_key, address, advert.port)
        return (advert.table, advert.public_key, address, advert.port, advert.game,
                advert.size or entry.seats)
    target = choice.get("target")
    return str(target) if target is not None else None


class WatchTarget(NamedTuple):
    """A started table chosen in the lobby to watch (``w``): its id, the advertised key, the
    address that answered, the port."""

    table_id: str
    key: bytes
    host: str
    port: int


REJOIN = "rejoin"
"""What :func:`join_on_screen` returns when the person chose to rejoin (the host is gone)."""


async def join_on_screen(args: argparse.Namespace, me: Identity, table_id: str, key: bytes,
                         host: str, port: int, game: str, seats: int | None) -> Any:
    """:func:`lancards.cli.lobby.common.join_table` with the waiting screen shown: whom this
    peer joined, who is in, how many to go; ``q``, Esc, Ctrl-C or Ctrl-D cancel (one line
    printed, ``None`` returned). When the host is gone (issue 24, situation 6) the screen says
    so and offers to wait (``w``), rejoin (``r``: :data:`REJOIN` returned) or quit (``q``)."""
    from lancards.cli.tui.waiting import Cancelled, WaitingScreen, wait_on

    screen = WaitingScreen(_("lancards · joining a table"))
    answer = [""]

    async def gone(text: str, can_wait: bool) -> str:
        choices = {"w": _("wait for it")} if can_wait else {}
        choices.update({"r": _("rejoin (choose a table again)"), "q": _("quit")})
        answer[0] = await screen.ask(text, choices)
        return answer[0]

    try:
        return await wait_on(screen, join_table(args, me, table_id, key, host, port, game,
                                                seats=seats, say=screen.show, host_gone=gone))
    except Cancelled:
        print(_("you left the table before it started"), flush=True)
        return None
    except HostGone as exc:
        if answer[0] == "r":
            return REJOIN
        print(_("{reason}; you left").format(reason=exc), flush=True)
        return None


def check_join_args(args: argparse.Namespace) -> None:
    """Every argument of ``join`` checked where it is given, before anything starts (issue 25).

    Raises:
        UsageError: ``--wait`` not above 0, a ``TABLE`` that is neither a table id (16 hex
            digits) nor ``TABLE-ID@HOST:PORT``, ``--players`` out of the game's range.
            An unknown ``--game`` (one line naming the games there are).
    """
    from lancards.cli.selfplay import known_rule_set

    if not args.wait > 0:
        raise UsageError(_("--wait {wait:g}: seconds to look for tables, above 0").format(
            wait=args.wait))
    join_level(args)  # only with --autoplay, one level (issue 26's trial)
    spec = known_rule_set(args.game)
    if not spec.min_players <= args.players <= spec.max_players:
        raise UsageError(_("--players {players}: {name} is for {min_players} to {max_players} "
                           "players").format(
            players=args.players, name=game_title(spec.name), min_players=spec.min_players,
            max_players=spec.max_players))
    target = args.table
    if target is not None and "@" not in target and ":" not in target and not (
            len(target) == 16 and all(c in "0123456789abcdef" for c in target)):
        raise UsageError(_("{target!r} is neither a table id (16 hex digits, as the lobby lists "
                           "it) nor TABLE-ID@HOST:PORT (the host prints it)").format(
            target=target))


def run_join(args: argparse.Namespace) -> int:
    check_join_args(args)

    async def go() -> int:
        me = player(args.name)
        check_writable(data_home() / "tables")  # before looking for tables (issue 24)
        typed = args.table
        while True:
            args.table = typed
            if args.table is None and not args.autoplay:
                target = await lobby_choice(args, me)
                if target is None:
                    return 0
                if target == CREATE:  # host a table of --game for --players from the lobby
                    hosting = argparse.Namespace(
                        game=args.game, option=[], players=args.players, bots=0,
                        name=args.name, interface=args.interface, port=0, autoplay=False,
                        record=args.record)
                    return await play_hosted(hosting)
                if isinstance(target, WatchTarget):  # w on a started table
                    from lancards.cli.lobby.watch_table import watch_at

                    return await watch_at(*target, record=args.record, screen=(  # as watch
                        sys.stdin.isatty() and sys.stdout.isatty()))  # (h1: it was plain)
                if isinstance(target, tuple):
                    found = target
                else:
                    args.table = target  # TABLE-ID@HOST:PORT, typed in the lobby
                    found = await find_table(args, me)
            else:
                found = await find_table(args, me)
            table_id, key, host, port, game, seats = found
            refuse_own_table(table_id, me)
            if args.autoplay:
                me2, table, mesh, lobbyist = await join_table(
                    args, me, table_id, key, host, port, game, seats=seats, say=_new_lines())
            else:
                got = await join_on_screen(args, me, table_id, key, host, port, game, seats)
                if got == REJOIN:
                    continue
                if got is None:
                    return 0
                me2, table, mesh, lobbyist = got
            _rescope_book(lobbyist, host)
            return int(await play_table(args, me2, table, mesh, lobbyist))

    return run_lobby(args, go)


def _new_lines() -> Callable[[list[str]], None]:
    """``join --autoplay``'s waiting screen: each line the screen would show, printed once,
    when it first appears (joined, who is at the table and at what bot level, how many to go,
    the start); the trial of 2026-12-06 saw nothing between the host's line and round 1."""
    told: set[str] = set()

    def say(lines: list[str]) -> None:
        for line in lines:
            if line not in told:
                told.add(line)
                print(line, flush=True)

    return say


def _rescope_book(lobbyist: Lobbyist, reached: str) -> None:
    """The host's address book as this peer dials it (:func:`book_addresses`): the seats on
    the host's machine (its bots) at the address this peer reached the host at, the other
    link-local addresses with the scope of the interface it reached the host over (the host
    wrote its own interface names)."""
    host = lobbyist.lobby.spec.host
    dialled = book_addresses(lobbyist.lobby.address_book, host, reached)
    lobbyist.addrs = {key: PeerAddress(*dialled[key]) if key in dialled and key != host else a
                      for key, a in lobbyist.addrs.items()}


def advert_line(advert: TableAdvert, address: str | None = None) -> str:
    """``join``'s line about a table its search saw (``address``: the one it answered at, for
    the table it joins), naming the game by its name, never its id: ``found table ... (Level 8
    (English)) of ann: 2 free seats at 10.0.0.2 port 4000`` (it read ``(level8-en)``)."""
    if address is None:
        return _("seen table {table} ({game}) of {host}: {seats}").format(
            table=advert.table, game=game_title(advert.game), host=advert.nick,
            seats=_free_seats(advert.free_seats))
    return _("found table {table} ({game}) of {host}: {seats} at {address} port {port}").format(
        table=advert.table, game=game_title(advert.game), host=advert.nick,
        seats=_free_seats(advert.free_seats), address=address, port=advert.port)


def _free_seats(count: int) -> str:
    """``"no free seat"``, ``"1 free seat"``, ``"3 free seats"``."""
    if count <= 0:
        return _("no free seat")
    return ngettext("{count} free seat", "{count} free seats", count).format(count=count)


__all__ = ["CREATE", "REJOIN", "WatchTarget", "add_parser", "advert_line", "find_started_advert",
           "find_table", "join_on_screen", "lobby_choice", "run_join"]
