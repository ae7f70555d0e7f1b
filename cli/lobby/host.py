"""``lancards host``: advertise a table on the home network and play when it is full.

The host advertises the table by mDNS (``_lancards._tcp.local.``) on the chosen interfaces,
listens for players, seats them (``--bots`` of the seats are bot peers on this machine that join
like anyone else), and when the table starts sends every member the address book. The lobby
phase and the way the command runs are :mod:`lancards.cli.lobby.common`'s.

Test hook (environment, never set in normal use): ``LANCARDS_TEST_MDNS_TTL=S`` gives the
table's mDNS records a TTL of S seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from zeroconf import Error as ZeroconfError

from lancards.cli.bot_choice import add_host_bot_level_argument, chosen_levels
from lancards.cli.errors import UsageError
from lancards.cli.game_titles import game_title
from lancards.cli.i18n import N_, _, ngettext, number_text
from lancards.cli.lobby.common import (
    EXIT_SIGNALS,
    LIVE_ADVERTS,
    Lobbyist,
    add_common_arguments,
    in_words,
    join_table,
    listen,
    listen_host,
    member_names,
    player,
    receive_or_report,
    report_on_stderr,
    run_lobby,
    send_all,
)
from lancards.cli.lobby.host_bots import (
    BOT_END_S,
    BOT_PAUSE_S,
    HostGone,
    bots_play_on,
    end_bots,
    stop_bots,
)
from lancards.cli.lobby.started_table import BOT_GAMES, CONFIG, play_table, table_data
from lancards.cli.local_session import BOT_NAMES
from lancards.cli.pacing import DEFAULT_DELAY, BotPacer, delay_seconds
from lancards.cli.peer_errors import failure_words
from lancards.cli.removal_words import RESCUE_WORDS, rescue_ends_lines
from lancards.cli.selfplay import add_rules_arguments, rules_from_args
from lancards.engine.rulesets import DEFAULT_BOT_LEVEL
from lancards.p2p.net.addresses import AddressError, FollowedAddresses
from lancards.p2p.net.discovery import RECORD_TTL, Advertiser, TableAdvert
from lancards.p2p.net.folder_lock import lock_folder
from lancards.p2p.net.node import PeerAddress
from lancards.p2p.net.store import TableStore, data_home
from lancards.p2p.net.transport import Mesh
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.table import Lobby, StartedTable

TABLE_SEATS = 4
"""The seats of a table unless ``--players`` says otherwise: ``host``'s, a table created from
``join``'s lobby, and ``lancards play``'s (you and its 3 bots), so every way in offers the same
table."""

LOBBY_GRACE_S = float(os.environ.get("LANCARDS_LOBBY_GRACE", "10"))
"""Seconds a guest's seat is kept after its link drops before the start (then freed; the same
key may join again at any time)."""


def add_parser(sub: Any) -> None:
    host = sub.add_parser(
        "host", help=_("advertise a table on the network and play when it is full"),
        description=_("Advertise a table by mDNS and wait for players; the table starts when "
          "it has --players seats filled (bots fill --bots of them)."))
    add_rules_arguments(host, "level8-master")
    host.add_argument("--players", type=int, default=TABLE_SEATS,
                      help=_("seats at the table, yours and --bots included (default 4)"))
    host.add_argument("--bots", type=int, default=0, help=_("seats filled by bots on this machine"))
    host.add_argument("--bot-delay", default=None, metavar="SECONDS",
                      help=_("seconds each --bots bot waits before its turn; the steps of a "
                             "turn follow at once (default {default_delay}, 0 with "
                             "--autoplay; b at the table changes it)").format(
                          default_delay=number_text(DEFAULT_DELAY)))
    add_common_arguments(host)
    add_host_bot_level_argument(host)
    host.add_argument("--port", type=int, default=0, help=_("TCP port (default: any free port)"))
    host.set_defaults(run=run_host)


async def _advertise(lobby: Lobby, me: Identity, port: int, follow: FollowedAddresses,
                     size: int) -> Advertiser:
    """Advertise the table on the chosen interfaces, every one of their addresses, following
    them as they change (issue 24, situation 4: a new lease; the host sets ``on_move``, which
    says where it moved)."""
    chosen = follow.current
    advert = TableAdvert(lobby.spec.table, lobby.spec.game, size - 1, me.nick, me.public_key,
                         port, tuple(a.text for a in chosen), size, (me.nick,),
                         rescue=lobby.spec.options.get("rescue") == "on",
                         bots=(0,) if lobby.members[0].bot else (),
                         partners=lobby.spec.options.get("partners") is True)
    ttl = int(os.environ.get("LANCARDS_TEST_MDNS_TTL", "0") or 0)
    advertiser = Advertiser(advert, follow=follow, ttl=ttl if ttl > 0 else RECORD_TTL)
    await advertiser.start()
    return advertiser


def check_table(spec: Any, rules: Any, raw: dict[str, Any], players: int) -> None:
    """Refuse at once what the table would refuse when full (issue 25): the table options
    (``rescue`` on or off, ``patience`` 10 to 3600 s and only with rescue on; rescue needs 3
    seats or more) and the game's own seat rules (a trial deal for ``players``: 8s Rule!'s
    ``partners`` needs 4 or 6, ruling E-10).

    Raises:
        UsageError: one line naming the option or ``--players`` and what is allowed.
    """
    from lancards.cli.option_values import check_dealer
    from lancards.cli.rules_errors import rules_error_words
    from lancards.engine.core import RulesError
    from lancards.p2p.protocol.statement import registry_rules_check

    check_dealer(raw, players)
    try:
        values, least, most = registry_rules_check(spec.name, raw)
    except RulesError as exc:
        raise UsageError(rules_error_words(exc)) from None
    if "patience" in raw and values.get("rescue") != "on":
        raise UsageError(_("option patience is the silence before a removal vote: it needs "
                           "--option rescue=on"))
    if not least <= players <= most:
        text = _("--players {players}: {name} is for {least} to {most} players (rescue on needs "
                 "3 or more)") if values.get("rescue") == "on" else \
            _("--players {players}: {name} is for {least} to {most} players")
        raise UsageError(text.format(players=players, name=game_title(spec.name), least=least,
                                     most=most))
    try:
        spec.game.new_game(rules, players)
    except RulesError as exc:
        raise UsageError(_("--players {players}: {exc}").format(
            players=players, exc=rules_error_words(exc))) from None


def _check_port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise UsageError(_("--port {port}: a TCP port is 1 to 65535 (0: any free port)").format(
            port=port))


REFUSED_WORDS = {"wrong-game": N_("it asked for another game"), "full": N_("the table is full"),
                 "started": N_("the start was already under way"),
                 "closed": N_("the table is closed"),
                 "wrong-table": N_("it asked for another table id (mistyped, or an old one)")}
"""A refused join as the host's waiting screen says it (``table.refused`` reasons)."""


async def host_table(args: argparse.Namespace, *, say: Callable[[list[str]], None] | None = None
                     ) -> tuple[Identity, StartedTable, Mesh, Lobbyist, list[Any]]:
    """Advertise, gather the players, start; returns what the game needs.

    ``say(lines)`` is given what the waiting screen shows whenever it changes (how to join,
    who is in, how many to go); without it the same is printed, a line per change. A host
    cancelled before the start (the waiting screen's ``q``, a signal) closes the lobby for
    every guest (``table.leave``) before its advert is withdrawn.

    Before anything is advertised: the identity is read (or created) and the table folder
    is locked for this process and written (:func:`lancards.p2p.net.folder_lock.lock_folder`).

    Raises:
        UsageError: a bad argument, a busy port, an address this machine lacks.
        IdentityError: the identity cannot be read or created (one line, issue 24).
        StorageError: the table folder cannot be created or written (one line, issue 24).
    """
    spec, rules, raw = rules_from_args(args)
    check_table(spec, rules, raw, args.players)
    if not 0 <= args.bots < args.players:
        raise UsageError(_("--bots {bots}: use 0 to {most} (of {players} seats, one is "
                           "yours)").format(bots=args.bots, most=args.players - 1,
                                           players=args.players))
    # one level for every bot, or one each (play's list: the trial of issue 26); the own
    # --autoplay seat's level is the one level, or the default with a list
    level, seat_levels = chosen_levels(spec, getattr(args, "bot_level", DEFAULT_BOT_LEVEL),
                                       args.bots)
    args.bot_level = level
    _check_port(args.port)
    try:
        follow = FollowedAddresses(args.interface)
    except AddressError as exc:
        raise UsageError(str(exc)) from None
    chosen = follow.current
    me = player(args.name)
    lobby = Lobby.create(me, spec.name, raw, bot=level if args.autoplay else "")
    # This seat's folder, locked and written before anything is advertised (issue 24): a
    # read-only or full disk is one line here, never a lobby that cannot keep its table.
    lock_folder(data_home() / "tables" / lobby.spec.table, "lancards host")
    mesh = Mesh(me, CONFIG, accept=lambda key: lobby.started is None and not lobby.closed)
    bind = args.listen_host = listen_host(args, chosen)
    port = await listen(mesh, bind, args.port, "interface" if args.interface else "port")
    try:
        advertiser = await _advertise(lobby, me, port, follow, args.players)
    except (PeerError, OSError, TimeoutError, ZeroconfError) as exc:
        await mesh.close()
        raise UsageError(_("cannot advertise the table on {list}: {reason}").format(
            list=', '.join(a.text for a in chosen),
            reason=failure_words(exc, 'the network'))) from None
    LIVE_ADVERTS.append(advertiser)  # withdrawn by run_lobby on any way out
    lobbyist = Lobbyist(me, lobby, mesh)
    lobbyist.addrs[me.public_key] = PeerAddress(
        bind if bind not in ("0.0.0.0", "") else "127.0.0.1", port)
    lobby.spare_bot_names = spare_bot_names(me.nick)  # a person keeps the name of a bot
    bots = [await _start_bot_joiner(nick, lobby, me, port, args, seat_levels[i])
            for i, nick in enumerate(hosted_bot_names(args.bots, me.nick))]
    others = args.players - 1
    intro = intro_lines(advertiser.advert, me, args.players, lobby.spec.options)
    waiting = ngettext("waiting for {count} player", "waiting for {count} players",
                       others).format(count=others)
    if say is None:
        print(f"{intro[0]}\n{intro[1]}\n"
              + _("{waiting}; on this network they run:").format(waiting=waiting) + "\n"
              + "\n".join(intro[3:]), flush=True)
    down: dict[bytes, float] = {}  # guests whose link dropped, since when
    dialable: set[bytes] = set()  # guests whose listening port the host knows
    clock = asyncio.get_running_loop().time
    said = [waiting if say is None else ""]
    notes: list[str] = []  # said on the waiting screen in words (issue 25, item 5)
    refused = [0]  # of lobby.refusals, how many were said

    def note(exc: PeerError) -> None:
        if say is None:
            report_on_stderr(exc)
        else:
            notes.append(in_words(exc))

    lobbyist.report = note

    def status() -> None:
        """Print whom the host waits for, when that changes (nobody once started)."""
        if lobby.started is not None:
            return
        lost = [_("{name} (link lost)").format(name=lobby.name(k).split(" [")[0]) for k in down]
        if lobby.proposed:
            text = _("waiting for the start signatures of {names}").format(
                names=", ".join(m.nick for m in lobby.unsigned()))
        else:
            free = args.players - len(lobby.seats())
            text = ngettext("waiting for {count} player", "waiting for {count} players",
                            free).format(count=free)
        text += "; " + ", ".join(lost) if lost else ""
        for who, reason in lobby.refusals[refused[0]:]:
            line = _("refused {who}: {reason}").format(
                who=who, reason=_(REFUSED_WORDS[reason]) if reason in REFUSED_WORDS else reason)
            notes.append(line)
            if say is None:
                print(line, flush=True)
        refused[0] = len(lobby.refusals)
        if text != said[0]:
            said[0] = text
            if say is None:
                print(text, flush=True)
        show()

    def show() -> None:
        if say is not None:
            names = member_names(lobby, me)
            say([*intro, "", _("at the table: {names}").format(names=names), said[0],
                 *notes[-3:]])

    hosting = asyncio.current_task()

    def moved(now: TableAdvert) -> None:
        """This machine's addresses changed (the advert follows them): the waiting screen shows
        the new ones and says so; later the table's log says so (``args.tell``, set while
        the table's screen runs); nothing is printed over a full screen."""
        line = moved_line(now)
        if say is not None and hosting is not None and not hosting.done():
            intro[:] = intro_lines(now, me, args.players, lobby.spec.options)
            notes.append(line)
            show()
        elif getattr(args, "tell", None) is not None:
            args.tell(line)
        else:
            print(line, flush=True)

    advertiser.on_move = moved

    def on_message(peer: bytes, env: Any) -> None:
        out = receive_or_report(lobby, env, note)
        if out is None:
            status()
            return
        if lobby.started is not None and not lobbyist.saved:
            # Durable before this seat's signature leaves in 'table.started', so a host killed
            # at any moment resumes (docs/protocol.md, "Resuming a seat signed but not started").
            seated = {m.public_key for m in lobby.started.seats}
            lobbyist.addrs.update({k: PeerAddress(mesh.remote_hosts.get(k, "127.0.0.1"), p)
                                   for k, p in lobby.ports.items() if k in seated})
            TableStore.for_table(lobby.spec.table).save_table(table_data(
                lobby.started.statement, me, (bind, port), lobbyist.addrs, lobby.started.sigs,
                bots=getattr(args, "bot_keys", None)))
            lobbyist.saved = True
        send_all(mesh, out)
        for key, guest_port in lobby.ports.items():
            if key not in dialable and key in mesh.remote_hosts:
                # The guest dials; the host dials it back after fallback_after when no link
                # is up, so a guest still dialling the host's old address (a new lease) hears
                # the new one in the host's hello (issue 24, situation 4).
                mesh.add_peer(key, mesh.remote_hosts[key], guest_port, dial=False)
                dialable.add(key)
        _readvertise(advertiser, lobby, args.players)
        if len(lobby.seats()) == args.players and not lobby.proposed:
            send_all(mesh, lobby.propose_start())
        status()

    def on_link(peer: bytes, up: bool) -> None:
        if up:
            down.pop(peer, None)
            send_all(mesh, lobby.catch_up(peer))
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
                line = _("freed the seat of {name}: its link was lost for {seconds:.0f} s").format(
                    name=name, seconds=LOBBY_GRACE_S)
                if say is None:
                    print(line, flush=True)
                else:
                    notes.append(line)
                send_all(mesh, out)
                _readvertise(advertiser, lobby, args.players)  # every lobby shows it free
            status()

    status()
    try:
        await lobbyist.pump(on_message, lambda: lobby.started is not None, 3600.0,
                            on_link=on_link, tick=tick)
    except BaseException:
        if lobby.started is None and not lobby.closed and not lobby.proposed:
            with contextlib.suppress(Exception):
                send_all(mesh, lobby.leave())  # every guest hears the table is closed
                await asyncio.sleep(0.1)
        await stop_bots(bots)
        await mesh.close()
        raise
    finally:
        if lobby.started is None:
            await advertiser.withdraw()
    table = lobby.started
    assert table is not None
    gone: HostGone | None = getattr(args, "host_gone", None)
    if gone is not None:  # its bots' names as seated (one may have given its name up)
        nicks = {m.public_key: m.nick for m in table.seats}
        gone.names = [nicks[k] for k in getattr(args, "bot_keys", {}) if k in nicks]
    await _advertise_started(advertiser, table, {m.public_key for m in lobby.members if m.bot})
    public_host = advertiser.advert.addresses[0]
    own = lobbyist.addrs[me.public_key]
    book = lobby.address_book_message(mesh.remote_hosts, public_host, (own.host, own.port))
    send_all(mesh, [book])
    seated = {m.public_key for m in table.seats}
    lobbyist.addrs.update({k: PeerAddress(mesh.remote_hosts.get(k, "127.0.0.1"), port)
                           for k, port in lobby.ports.items() if k in seated})
    return me, table, mesh, lobbyist, bots


def intro_lines(advert: TableAdvert, me: Identity, players: int,
                options: Mapping[str, Any] | None = None) -> list[str]:
    """The top of the host's waiting screen: the table, the host, how the others join (by
    mDNS, and by the advert's first address), with rescue on its trade-off (and, where any
    one removal ends the game under the game's ``options``, that it does: the LAN trial's 8s
    Rule! table of 3) and, when it has more, every address."""
    from lancards.cli.game_titles import game_title

    first, port = advert.addresses[0], advert.port
    target = f"{advert.table}@{f'[{first}]' if ':' in first else first}:{port}"
    # A table on loopback only is found by a join told to look there (a join looks on every
    # interface but loopback; the trial of 2026-12-06 was told a bare "lancards join")
    where = f" --interface {first.split('%')[0]}" if all(
        _loopback(a) for a in advert.addresses) else ""
    # Two lines, not one of 81 columns (issue 25, item 14): the fingerprint has its own.
    intro = [ngettext("table {table} · {game} · {count} seat", "table {table} · {game} · {count} "
                      "seats", players).format(table=advert.table, count=players,
                                               game=game_title(advert.game)),
             _("host {host}").format(host=describe(me.public_key, me.nick)),
             _("on this network the others run:"),
             "    lancards join" + where,
             "  " + _("or, where the network blocks mDNS:"),
             f"    lancards join --game {advert.game} {target}"]
    if advert.rescue:
        intro += [_(RESCUE_WORDS), *rescue_ends_lines(advert.game, players, options)]
    if len(advert.addresses) > 1:
        intro.append(_("advertised at {addresses} port {port}").format(
            addresses=", ".join(advert.addresses), port=port))
    return intro


def _loopback(address: str) -> bool:
    """Whether ``address`` (``"127.0.0.1"``, ``"::1"``, ``"fe80::1%eth0"``) is a loopback one."""
    import ipaddress

    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def moved_line(advert: TableAdvert) -> str:
    """What the host says when this machine's addresses changed (the advert moved)."""
    return _("this machine's addresses changed: advertised at {addresses} port {port}").format(
        addresses=", ".join(advert.addresses), port=advert.port)


def _readvertise(advertiser: Advertiser, lobby: Lobby, size: int) -> None:
    """Publish the seats and players after a lobby change (in the background); the players in
    the order they sat down, the host first, as the waiting screens list them (issue 25: the
    seat order, by the keys' hashes, put ``Ada, ann`` in one lobby and ``ann, Ada`` in the
    next)."""
    players = tuple(m.nick for m in lobby.members)
    bots = tuple(i for i, m in enumerate(lobby.members) if m.bot)
    free = max(0, size - len(players))
    if (free, players, bots) == (advertiser.advert.free_seats, advertiser.advert.players,
                                 advertiser.advert.bots):
        return

    async def update() -> None:
        with contextlib.suppress(PeerError, OSError, TimeoutError):
            await advertiser.update(free_seats=free, players=players, bots=bots)

    task = asyncio.ensure_future(update())
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


_BACKGROUND: set[asyncio.Task[None]] = set()


async def _advertise_started(advertiser: Advertiser, table: StartedTable,
                             bots: set[bytes]) -> None:
    """The table started: advertise it as started (no free seat, the players in seat order,
    ``bots`` the keys of the seats bots play, TXT ``state=started``) for ``lancards watch``;
    withdrawn when this process ends (:func:`run_lobby`). A failure only costs watchers the
    mDNS hint."""
    with contextlib.suppress(PeerError, OSError, TimeoutError, ZeroconfError):
        await advertiser.update(free_seats=0, players=[m.nick for m in table.seats],
                                bots=[i for i, m in enumerate(table.seats)
                                      if m.public_key in bots], started=True)


def bot_pacer(args: argparse.Namespace) -> BotPacer:
    """The one pacer of a host's ``--bots`` (issue 25, item 13: paced per turn as at
    ``lancards play``): ``--bot-delay`` seconds before each bot's turn, by default
    :data:`~lancards.cli.pacing.DEFAULT_DELAY`, or none with ``--autoplay`` (nobody watches the
    host's screen). The host's table shares it, so its ``b`` key changes their pace."""
    if getattr(args, "bot_pacer", None) is None:
        delay = getattr(args, "bot_delay", None)
        if delay is None:
            delay = 0.0 if args.autoplay else DEFAULT_DELAY
        args.bot_pacer = BotPacer(delay)
    pacer: BotPacer = args.bot_pacer
    return pacer


def hosted_bot_names(count: int, host: str) -> list[str]:
    """The nicknames of a host's ``count`` bots: those of ``lancards play``'s bots (Ada, Bram,
    Cleo...), the host's own name skipped (any case); before, ``bot1``, ``bot2`` (the trial)."""
    return list(spare_bot_names(host)[:count])


def spare_bot_names(host: str) -> tuple[str, ...]:
    """The names a host's bots may have: ``lancards play``'s, the host's own skipped; a bot
    whose name a joining person asks for takes the first free one (``Lobby.own_bots``)."""
    return tuple(n for n in BOT_NAMES if n.casefold() != host.casefold())


async def _start_bot_joiner(nick: str, lobby: Lobby, host: Identity, port: int,
                            args: argparse.Namespace, level: str) -> Any:
    """A bot peer on this machine that joins the table like anyone else: at 127.0.0.1, or at
    the one address the host listens on (``--interface ADDRESS``). It listens where the host
    does: both address families (``""``: IPv4 and IPv6, link-local included) unless one
    address was given, since the other players dial it at the host's address, whichever family
    the machine has by then (issue 24, situation 5)."""
    bot = Identity.generate(nick)
    lobby.own_bots.add(bot.public_key)  # it gives its name up to a person who asks for it
    if not hasattr(args, "bot_keys"):
        args.bot_keys = {}
    args.bot_keys[bot.public_key] = level  # the host's table shows the bot's level
    if getattr(args, "host_gone", None) is None:
        args.host_gone = HostGone()
    args.host_gone.names.append(bot.nick)
    listen = getattr(args, "listen_host", "")
    dial = listen if listen not in ("", "0.0.0.0") else "127.0.0.1"
    ns = argparse.Namespace(name=None, interface=None, autoplay=True, record=None,
                            listen_host=listen, games=BOT_GAMES,  # a bot plays again
                            bot_level=level, bot_pacer=bot_pacer(args),
                            bot_seed=json.loads(bot.to_json())["ed25519_seed"],
                            host_gone=args.host_gone)
    return asyncio.create_task(join_table(ns, bot, lobby.spec.table, host.public_key,
                                          dial, port, lobby.spec.game, play=True))


async def host_on_screen(args: argparse.Namespace) -> tuple[Identity, StartedTable, Mesh,
                                                             Lobbyist, list[Any]] | None:
    """:func:`host_table` with the waiting screen shown (:mod:`lancards.cli.tui.waiting`);
    ``None`` when the person cancelled it (``q``, Esc, Ctrl-C or Ctrl-D): the lobby is closed
    for every guest, the advert withdrawn and one line printed."""
    from lancards.cli.tui.waiting import Cancelled, WaitingScreen, wait_on

    screen = WaitingScreen(_("lancards · your table, waiting for players"))
    screen.show([_("advertising your table on the network...")])
    try:
        return await wait_on(screen, host_table(args, say=screen.show))
    except Cancelled:
        print(_("you closed your table before it started"), flush=True)
        return None


async def play_hosted(args: argparse.Namespace) -> int:
    """Host (the waiting screen in a terminal, lines with ``--autoplay``), then play; 0 when
    the person cancelled before the start."""
    got = await (host_table(args) if args.autoplay else host_on_screen(args))
    if got is None:
        return 0
    me, table, mesh, lobbyist, bots = got
    status = None
    try:
        status = await play_table(args, me, table, mesh, lobbyist)
        gone: HostGone | None = getattr(args, "host_gone", None)
        if gone is not None and gone.left:
            signum = await bots_play_on(gone, bots, EXIT_SIGNALS)
            gone.keep_result(TableStore.for_table(table.spec.table).folder, args.record)
            return status if signum is None else 128 + signum
        return status
    finally:
        # after the game: their last messages (play again); after a pause: nothing to do
        # without the host's key shares, so a resume at once finds the folders free
        await end_bots(bots, BOT_END_S if status == 0 else BOT_PAUSE_S,
                       say=status == 0 and not args.autoplay)


def run_host(args: argparse.Namespace) -> int:
    if args.bot_delay is not None:  # among the values, before "needs a terminal"
        args.bot_delay = delay_seconds(args.bot_delay)
    return run_lobby(args, lambda: play_hosted(args))


__all__ = ["LOBBY_GRACE_S", "TABLE_SEATS", "add_parser", "check_table", "host_on_screen",
           "host_table", "hosted_bot_names", "play_hosted", "run_host", "spare_bot_names"]
