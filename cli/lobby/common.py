"""What ``lancards host`` and ``lancards join`` share: the lobby phase over a mesh
(:class:`Lobbyist`), seating at a table by its address (:func:`join_table`), where to listen, the
command-line arguments both take, and the way both commands run (:func:`run_lobby`: signals end
a table with its mDNS goodbye sent).

After the start every peer keeps a link to every other (the lower key dials), exactly as in
``lancards play``. Addresses: each joiner tells the host its listening port; the host, which sees
where each joiner connects from, sends every member the address book when the table starts
(message ``table.addrs``, checked in :mod:`lancards.p2p.protocol.table`).

Addresses: ``--interface`` (names or addresses, repeatable) picks the interfaces; without it,
every address of every interface but loopback is used, IPv6 link-local ones with their scope
(:mod:`lancards.p2p.net.addresses`). SIGINT, SIGTERM and SIGHUP end a table with the mDNS goodbye
sent (exit status 128 + the signal's number).

Test hooks (environment, never set in normal use): ``LANCARDS_TEST_CHEAT=swap-claim`` makes
this peer claim another card than the one it holds on its first discard;
``LANCARDS_TEST_DUMP_HAND=FILE`` writes this peer's final hidden hand at exit (a leaver's: the
hand it left with);
``LANCARDS_TEST_LEAVE_AFTER=N`` makes an ``--autoplay`` peer leave the table for good after its
N-th move (:mod:`lancards.cli.lobby.started_table`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError, checked_name
from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext
from lancards.cli.lobby.names import renamed_line, seated_me
from lancards.cli.lobby.started_table import CONFIG, play_table, table_data
from lancards.p2p.net.addresses import (
    AddressError,
    LocalAddress,
    any_address,
    choose_addresses,
    free_port,
)
from lancards.p2p.net.discovery import Advertiser
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.folder_lock import lock_folder
from lancards.p2p.net.node import PeerAddress
from lancards.p2p.net.store import TableStore, data_home
from lancards.p2p.net.transport import DROP_CODE, Connected, Disconnected, Mesh, Received
from lancards.p2p.protocol.errors import PeerError, RemoteProtocolError, unexpected
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.start_fetch import StartFetch
from lancards.p2p.protocol.table import Lobby, Outgoing
from lancards.p2p.protocol.wire import MESSAGE_TYPES, decode_envelope, sign_envelope

JOIN_ANSWER_S = 15.0
"""Seconds a joiner waits for the host to seat it (a full or started table never answers)."""
LOBBY_TYPES = MESSAGE_TYPES
"""Every message type (the one table, ``lancards.p2p.protocol.schemas``); lobby ones go to the
Lobby."""


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments ``host`` and ``join`` both take: --name, --interface, --autoplay, --record,
    --verbose (``--bot-level``: each its own, :mod:`lancards.cli.bot_choice`)."""
    parser.add_argument("--name", default=None,
                        help=_("your nickname (default: your identity's, at first your user "
                               "name); a name someone at the table has gets a number: ann 2"))
    parser.add_argument("--interface", action="append", default=None, metavar="NAME|IP",
                        help=_("use only this network interface: its name (eth0, wlan0) or one "
                          "of its addresses (fe80::1%%eth0 for a link-local one); repeatable; "
                          "default: every interface but loopback"))
    parser.add_argument("--autoplay", action="store_true",
                        help=_("a bot plays your seat; no screen; one line per round"))
    parser.add_argument("--record", metavar="FILE", default=None,
                        help=_("write the signed game record to FILE when the game ends"))
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help=_("with --autoplay: play again with the same players until N "
                               "games were played (default 1: say no at the end)"))
    parser.add_argument("--verbose", action="store_true",
                        help=_("also print on stderr what failed on the network, as the "
                          "libraries say it (the screen says it in words)"))


def player(name: str | None) -> Identity:
    """This player's identity, nickname ``name`` (default: the identity's own)."""
    from lancards.cli.identity import player_identity

    return player_identity(name)


def send_all(mesh: Mesh, outgoing: list[Outgoing]) -> None:
    """Send the lobby's outgoing envelopes; a peer whose link is down misses them (it asks
    again when it reconnects)."""
    for out in outgoing:
        for to in out.to:
            with contextlib.suppress(PeerError):
                mesh.send(to, out.envelope.encode())


class Lobbyist:
    """The lobby phase over a mesh: runs until the table has started and addresses are known."""

    def __init__(self, me: Identity, lobby: Lobby, mesh: Mesh) -> None:
        self.me = me
        self.lobby = lobby
        self.mesh = mesh
        self.addrs: dict[bytes, PeerAddress] = {}
        self.stash: list[tuple[bytes, bytes]] = []
        self.saved = False
        """Whether the started table's ``table.json`` is written already (the host writes it
        before its signature leaves in ``table.started``)."""
        self._seq = 1 << 40  # above the Lobby's own numbers; nothing is kept before the start
        self.dropped: dict[bytes, str] = {}
        """The reason word of each peer that closed its link with :data:`DROP_CODE` (a
        started table's peer answers a ``table.join`` so: ``started``)."""
        self.report: Callable[[PeerError], None] = report_on_stderr
        """Where a message that does not decode is reported (a waiting screen says it in
        words instead of the default ``rejected:`` line on stderr)."""

    def envelope(self, type_: str, body: dict[str, Any]) -> bytes:
        self._seq += 1
        return sign_envelope(self.me, type_, self.lobby.spec.table, self._seq, body).encode()

    async def pump(self, on_message: Any, done: Any, timeout: float, *,
                   on_link: Any = None, tick: Any = None) -> None:
        """Feed lobby messages to ``on_message(peer, env)`` until ``done()``; link changes go
        to ``on_link(peer, up)`` and ``tick()`` runs at least once a second. A message that
        does not decode is one ``rejected:`` line on stderr naming the link's peer, also when
        decoding raised what no door expected (the last-resort guard, issue 23)."""
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
                link = event.peer.hex()[:16]
                try:
                    env = decode_envelope(event.data, link, expected_sender=event.peer,
                                          types=LOBBY_TYPES)
                except RemoteProtocolError as exc:
                    self.report(exc)
                    continue
                except Exception as exc:
                    self.report(unexpected(link, exc))
                    continue
                if env.type.startswith("table."):
                    on_message(event.peer, env)
                else:
                    self.stash.append((event.peer, event.data))
            elif isinstance(event, Connected):
                self.stash.append((event.peer, b""))
                if on_link is not None:
                    on_link(event.peer, True)
            elif isinstance(event, Disconnected):
                if event.reason.startswith(f"closed {DROP_CODE}: "):
                    self.dropped[event.peer] = event.reason.split(": ", 1)[1]
                if on_link is not None:
                    on_link(event.peer, False)


def local_addresses(args: argparse.Namespace) -> list[LocalAddress]:
    """The addresses ``--interface`` chooses (default: every interface but loopback).

    Raises:
        UsageError: the argument names no interface or address of this machine (one line).
    """
    try:
        return choose_addresses(args.interface)
    except AddressError as exc:
        raise UsageError(str(exc)) from None


def listen_host(args: argparse.Namespace, chosen: list[LocalAddress]) -> str:
    """Where the transport listens: the one address given by ``--interface ADDRESS``, else
    every address of both families (:func:`lancards.p2p.net.addresses.any_address`: ``""``,
    or ``0.0.0.0`` where this machine has no IPv6), whatever the interfaces have now: they may
    gain or lose a family while the table lives (issue 24)."""
    if len(chosen) == 1 and args.interface and args.interface[0] not in {
            a.interface for a in chosen}:
        return chosen[0].text
    return any_address()


async def listen(mesh: Mesh, host: str, port: int, what: str) -> int:
    """Start ``mesh`` listening; a bind error becomes one line naming the real problem."""
    try:
        return await mesh.start(host, port or free_port(host))
    except PeerError as exc:
        text = str(exc)
        hint = _("choose another --port") if "in use" in text else (
            _("check --interface") if what == "interface" else _("check the network"))
        raise UsageError(f"{text}; {hint}") from None


def report_on_stderr(exc: PeerError) -> None:
    """The default report of a refused message (no screen: ``--autoplay``): one line on
    stderr in words (:func:`in_words`); the protocol's own words (reason codes, an
    unexpected exception's class) only in the ``--verbose`` log (issue 25)."""
    net_log.debug("rejected: %s", exc)
    print(in_words(exc), file=sys.stderr)


def in_words(exc: PeerError) -> str:
    """A refused message as a waiting screen says it (no protocol words, issue 25)."""
    who = getattr(exc, "sender", "")
    if not who:
        return _("ignored a message from a peer: it does not follow the table's rules")
    return _("ignored a message from {who}: it does not follow the table's rules").format(who=who)


def receive_or_report(lobby: Lobby, env: Any,
                      report: Callable[[PeerError], None] = report_on_stderr
                      ) -> list[Outgoing] | None:
    """``lobby.receive(env)``; a refused message (``PeerError``, naming what and who) is
    given to ``report`` (default: one line on stderr) and gives ``None``: the lobby goes on
    unchanged. Any other exception is a bug reached by a peer's message: this last-resort
    guard reports it the same way, naming the sender
    (:func:`lancards.p2p.protocol.errors.unexpected`, issue 23)."""
    try:
        return lobby.receive(env)
    except PeerError as exc:
        report(exc)
        return None
    except Exception as exc:
        report(unexpected(lobby.name(env.sender), exc))
        return None


HOST_GONE_S = float(os.environ.get("LANCARDS_HOST_GONE", "5"))
"""Seconds a guest's link to the host may stay down before the start before the guest says the
host is gone (issue 24, situation 6): the mesh redials every 2 s at most, so a host that is
there answers well within this."""


class HostGone(UsageError):
    """The host of a table not started yet is gone: it closed the table, or its link is down
    and did not come back within :data:`HOST_GONE_S` (issue 24, situation 6)."""


def refusal_text(reason: str, host_game: str, asked: str, host: str) -> str:
    """Why the host ``host`` refused this join, in words (its ``table.refused`` reason, one of
    :data:`lancards.p2p.protocol.schemas.REFUSALS`; ``host_game`` the game its table plays,
    ``asked`` the one this join asked for)."""
    plays = "".join(c for c in host_game if c.isprintable() and not c.isspace())
    because = {
        "wrong-game": _("its table plays {plays}, not {asked} (lancards join --game {game} "
                        "joins it)").format(plays=game_title(plays),
                                            asked=game_title(asked), game=plays),
        "full": _("its table is full"),
        "started": _("its table has started, or is starting, without you"),
        "closed": _("it closed its table"),
        "wrong-table": _("it hosts another table (the table id given is mistyped, or an old "
                         "one); choose its table again in the lobby"),
    }.get(reason) or _("no reason given")
    return _("the host {host} refused this join: {reason}").format(host=host, reason=because)


def member_names(lobby: Lobby, me: Identity) -> str:
    """``ann (host), Ada (bot, hard), bob (you)``: the lobby's members in join order (``bot,
    LEVEL``: its join said a bot plays the seat, at that level; the trial of 2026-12-06 found
    the level only on the table, after the start)."""
    from lancards.cli.tui.controller import LEVEL_WORDS

    words = []
    for member in lobby.members:
        host, you = member.public_key == lobby.spec.host, member.public_key == me.public_key
        text = _("{name} (host, you)") if host and you else _("{name} (host)") if host else \
            _("{name} (you)") if you else _("{name} (bot, {level})") if member.bot else "{name}"
        bot = "" if host or you else member.bot
        level = _(LEVEL_WORDS[bot]) if bot in LEVEL_WORDS else bot
        words.append(text.format(name=member.nick, level=level))
    return ", ".join(words)


def guest_lines(lobby: Lobby, me: Identity, host_name: str, where: str,
                seats: int | None) -> list[str]:
    """What a guest's waiting screen says: whom it joined, who is in, how many to go."""
    if lobby.roster_version == 0:
        return [_("asking the table of {host} at {where} for a seat...").format(
            host=host_name, where=where)]
    lines = [_("you joined the table of {host} at {where}").format(host=host_name, where=where),
             _("at the table: {names}").format(names=member_names(lobby, me))]
    if lobby.signed_statement is not None or lobby.proposed or (
            seats and len(lobby.members) >= seats):  # not "waiting for 0 more players"
        lines.append(_("every seat is taken: the table is starting..."))
    elif seats:
        left = max(0, seats - len(lobby.members))
        lines.append(ngettext("waiting for {count} more player ({taken} of {seats} seats taken)",
                              "waiting for {count} more players ({taken} of {seats} seats "
                              "taken)", left).format(count=left, taken=len(lobby.members),
                                                     seats=seats))
    else:
        lines.append(_("waiting for the table to fill"))
    renamed = renamed_line(me, lobby.members)  # another member had this name: "root 2"
    return lines if renamed is None else [*lines, renamed]


async def join_table(args: argparse.Namespace, me: Identity, table_id: str, host_key: bytes,
                     host: str, port: int, game: str, *, play: bool = False,
                     seats: int | None = None, say: Callable[[list[str]], None] | None = None,
                     host_gone: Callable[[str, bool], Awaitable[str]] | None = None) -> Any:
    """Join the table, wait for its start and the address book; then play if ``play``.

    Before the join leaves, this seat's table folder is locked for this process and written
    (issue 24; a bot of the host's, ``play``, writes inside the host's locked folder).

    ``say(lines)`` is given what the waiting screen shows whenever it changes (``seats``: the
    advertised seat count, for "N more players"); default: nothing is shown. When the host
    closes the table, or its link is down for :data:`HOST_GONE_S` (issue 24, situation 6),
    ``host_gone(text, can_wait)`` is awaited (``can_wait``: only the link is down): ``"w"``
    waits on, anything else ends the join (:class:`HostGone` raised); without ``host_gone``,
    :class:`HostGone` is raised at once. A join cancelled before the start was proposed
    tells the host it leaves (``table.leave``), so its seat is free at once.

    Raises:
        FolderBusy: another process plays this seat (holds the folder).
        StorageError: the table folder cannot be created or written.
        HostGone: the host closed the table or is gone (one line naming it).
        UsageError: the host did not take the join in time.
    """
    lobby, join = Lobby.join(me, table_id or "0" * 16, host_key, game or "level8-master",
                             bot=getattr(args, "bot_level", "") if getattr(args, "autoplay",
                                                                           False) else "")
    held = None if play else lock_folder(data_home() / "tables" / lobby.spec.table,
                                         "lancards join")
    mesh = Mesh(me, CONFIG, accept=lambda key: any(m.public_key == key for m in lobby.seats()))
    if not hasattr(args, "listen_host"):
        args.listen_host = listen_host(args, local_addresses(args)) if args.interface \
            else any_address()
    my_port = await listen(mesh, args.listen_host, 0, "interface")
    mesh.add_peer(host_key, host, port, dial=True)
    lobbyist = Lobbyist(me, lobby, mesh)
    send_all(mesh, [join])
    mesh.send(host_key, lobbyist.envelope("table.port", {"port": my_port}))
    clock = asyncio.get_running_loop().time
    host_down: list[float | None] = [None]  # since when the host's link is down
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    said: list[list[str]] = [[]]
    notes: list[str] = []  # refused messages, in words, on the waiting screen (issue 25)

    def note(exc: PeerError) -> None:
        if say is None:
            report_on_stderr(exc)
        else:
            notes.append(in_words(exc))
            show()

    lobbyist.report = note

    def show() -> None:
        if say is None:
            return
        lines = [*guest_lines(lobby, me, lobby.name(host_key), where, seats), *notes[-2:]]
        if lines != said[0]:
            said[0] = lines
            say(lines)

    def store() -> TableStore:
        if play:
            return TableStore(data_home() / "tables" / lobby.spec.table / "bots"
                              / me.public_key.hex()[:16])
        return TableStore.for_table(lobby.spec.table)

    def on_message(peer: bytes, env: Any) -> None:
        out = receive_or_report(lobby, env, note)
        if out is None:
            return
        signed = lobby.signed_statement
        if signed is not None and any(o.envelope.type == "table.sign" for o in out):
            # Durable before the signature leaves: what `lancards resume` needs to fetch the
            # started table from the peers (docs/protocol.md, "Resuming a seat signed but
            # not started").
            store().save_table(table_data(signed, seated_me(me, lobby.members),
                                          (args.listen_host, my_port),
                                          {host_key: PeerAddress(host, port)}))
        send_all(mesh, out)
        show()

    def on_link(peer: bytes, up: bool) -> None:
        if peer == host_key:
            host_down[0] = None if up else (host_down[0] or clock())
        signed = lobby.signed_statement
        if up and peer == host_key and signed is not None and not lobby.address_book:
            # The host's link is back after this guest signed (and 'table.started' or
            # 'table.addrs' never came): a host resumed after its crash answers 'table.ask'
            # with the started table and its address book (lancards.p2p.protocol.start_fetch),
            # numbered in this seat's leased envelope numbers, above the game's.
            seats_store = store()
            fetch = StartFetch(me, signed, seats_store.next_envelope())
            seats_store.lease_envelopes(fetch.next_seq + 1)
            with contextlib.suppress(PeerError):
                mesh.send(host_key, fetch.ask(host_key))

    def gone() -> str | None:
        """Why the host is gone, or None."""
        if lobby.closed:
            return _("the host {host} closed the table before the start").format(
                host=lobby.name(host_key))
        since = host_down[0]
        if since is not None and clock() - since >= HOST_GONE_S:
            return _("the host {host} is gone: no link for {seconds:.0f} s, before the "
                     "start").format(host=lobby.name(host_key), seconds=clock() - since)
        return None

    def refused() -> str | None:
        """The host's refusal in words (issue 25, item 5), or None."""
        if lobbyist.dropped.get(host_key) == "started":
            return (f"the table at {where} has started: nobody can join it now (lancards "
                    f"watch {lobby.spec.table}@{where} watches it)")
        if lobby.refused is None:
            return None
        return refusal_text(*lobby.refused, game or "level8-master", lobby.name(host_key))

    def seated() -> bool:
        return lobby.roster_version > 0

    def started() -> bool:
        return lobby.started is not None and bool(lobby.address_book)

    show()
    ok = False
    try:
        for phase, timeout in ((seated, JOIN_ANSWER_S), (started, 3600.0)):
            deadline = clock() + timeout
            while not phase():
                try:
                    await lobbyist.pump(on_message, lambda p=phase: p() or gone() is not None
                                        or refused() is not None,
                                        max(0.0, deadline - clock()), on_link=on_link,
                                        tick=show)
                except TimeoutError:
                    if phase is seated:
                        raise UsageError(
                            _("the table at {where} did not take this join within "
                              "{join_answer_s:.0f} s: it may be full, started or gone").format(
                                where=where, join_answer_s=JOIN_ANSWER_S)) from None
                    raise
                no = refused()
                if no is not None:
                    if host_gone is not None:
                        await host_gone(no, False)
                    raise HostGone(no)
                why = gone()
                if why is None:
                    continue
                if host_gone is None or await host_gone(why, not lobby.closed) != "w":
                    raise HostGone(why)
                host_down[0] = None if mesh.connected(host_key) else clock()
                deadline = max(deadline, clock() + timeout)
        ok = True
    finally:
        if not ok:
            if not lobby.closed and lobby.started is None and not lobby.proposed \
                    and lobby.roster_version:
                with contextlib.suppress(Exception):
                    send_all(mesh, lobby.leave())  # the host frees the seat at once
                    await asyncio.sleep(0.1)
            await mesh.close()
            if held is not None and lobbyist.dropped.get(host_key) == "started":
                _forget_unplayed(held)
    table = lobby.started
    assert table is not None
    # another member had this name ("root 2"): said in the table's log too, since a joiner
    # that fills the last seat never sees the waiting screen that says it (trial 2026-12-07)
    args.renamed = renamed_line(me, table.seats)
    me = seated_me(me, table.seats)  # the name the table gives this seat (same key)
    lobbyist.addrs = {k: PeerAddress(h, p) for k, (h, p) in lobby.address_book.items()}
    lobbyist.addrs[host_key] = PeerAddress(host, port)
    if play:
        return await play_table(args, me, table, mesh, lobbyist, quiet=True, store=store())
    return me, table, mesh, lobbyist


def _forget_unplayed(held: Any) -> None:
    """Let go of the folder of a table this join never sat at (it had started) and remove it
    when nothing of a table was ever kept there (no ``table.json``, no journal)."""
    held.release()
    folder = held.folder
    with contextlib.suppress(OSError):
        if not any(p.name in ("table.json", "journal.jsonl") for p in folder.iterdir()):
            shutil.rmtree(folder)


LIVE_ADVERTS: list[Advertiser] = []
"""Advertisers of this process: :func:`run_lobby` sends their goodbyes on every way out."""


EXIT_SIGNALS: tuple[str, ...] = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals that end a table with a goodbye (those a platform lacks are skipped: Windows
has no SIGHUP)."""


def run_lobby(args: argparse.Namespace, go: Any) -> int:
    """Run ``go()``; SIGINT, SIGTERM and SIGHUP cancel it so that every ``finally`` runs (the
    table's mDNS goodbye among them), then the exit status is 128 + the signal number.

    Raises:
        UsageError: a ``--name`` no table takes (:func:`~lancards.cli.errors.checked_name`),
            no terminal without ``--autoplay``, a ``--record`` file that exists.
    """
    args.name = checked_name(args.name)
    if not args.autoplay and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise UsageError(_("the table needs a terminal; use --autoplay to play without one"))
    if args.record and Path(args.record).exists():
        raise UsageError(_("--record {record}: the file exists; nothing is written over").format(
            record=args.record))

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
            while LIVE_ADVERTS:
                await LIVE_ADVERTS.pop().withdraw()
            for sig in installed:
                loop.remove_signal_handler(sig)

    return int(asyncio.run(main()))


__all__ = [
    "HOST_GONE_S",
    "JOIN_ANSWER_S",
    "LIVE_ADVERTS",
    "LOBBY_TYPES",
    "HostGone",
    "Lobbyist",
    "add_common_arguments",
    "guest_lines",
    "join_table",
    "listen",
    "listen_host",
    "local_addresses",
    "player",
    "receive_or_report",
    "run_lobby",
    "send_all",
]
