"""Playing a started host/join table: this seat's peer over the mesh, its journal, the
full-screen table or the autoplay bot, and resuming it after a crash (``lancards resume``).

The lobby before the start is in :mod:`lancards.cli.lobby.host` and :mod:`lancards.cli.lobby.join`.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from lancards.cli.halted_table import save_halt
from lancards.cli.history import outcome_json
from lancards.cli.i18n import _
from lancards.cli.lobby.host_bots import HostGone
from lancards.cli.lobby.names import tell_renamed
from lancards.cli.pacing import BotPacer
from lancards.cli.peer_errors import error_words
from lancards.cli.peer_words import halt_words, notice_words
from lancards.cli.session import REMOVED_WHILE_AWAY
from lancards.engine.rulesets import DEFAULT_BOT_LEVEL
from lancards.p2p.net.addresses import any_address, free_port
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.net.record_file import write_record
from lancards.p2p.net.store import JournalDamaged, StorageError, TableStore, data_home
from lancards.p2p.net.transport import Mesh, Received, TransportConfig
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.start_fetch import START_WAIT_S
from lancards.p2p.protocol.table import StartedTable, verify_started
from lancards.p2p.protocol.wire import sign_envelope


class Handover(Protocol):
    """What the lobby phase hands to the game (:class:`lancards.cli.lobby.common.Lobbyist`):
    the seats' addresses, whether ``table.json`` is written already, and the messages that
    arrived for the game before it began (``(peer, data)``; empty data: a link came up)."""

    addrs: dict[bytes, PeerAddress]
    saved: bool
    stash: list[tuple[bytes, bytes]]

CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=2.0)
"""The links of a host/join table (seconds)."""

BOT_GAMES = 20
"""How many games in a row a host's ``--bots`` seat plays at most: it says yes to playing again
as long as the others do (issue 27)."""


async def play_table(args: argparse.Namespace, me: Identity, table: StartedTable, mesh: Mesh,
                     lobbyist: Handover | None, *, quiet: bool = False,
                     restore: TableStore | None = None, store: TableStore | None = None) -> int:
    """Run the game at a started table (autoplay or the full-screen table)."""
    store = restore or store or TableStore.for_table(table.spec.table)
    addrs = lobbyist.addrs if lobbyist is not None else {
        bytes.fromhex(k): PeerAddress(str(v[0]), int(v[1]))
        for k, v in store.load_table()["peers"].items()}
    if restore is None and not (lobbyist is not None and lobbyist.saved):
        store.save_table(table_data(table.statement, me, (mesh_bind(args), mesh.port), addrs,
                                    table.sigs, bots=getattr(args, "bot_keys", None),
                                    seed=getattr(args, "bot_seed", None)))
    if restore is None and args.record:
        store.keep_record_path(args.record)  # a resume writes it at the game's end
    # the evening before this series (another game at the end of an earlier one): this seat's
    args.evening = tuple(store.load_table().get("evening", ()))  # own, in its table.json
    secret = store.load_secret() if restore is not None else None
    journal = store.read()  # raises JournalDamaged (one line naming file and line)
    core = GameCore(me, table, secrets.token_bytes, secret_key=secret,
                    envelope_seq=journal.next_envelope)
    core.address_book = {k: (a.host, a.port) for k, a in addrs.items()}  # for 'table.told'
    node = PeerNode(core, mesh, store)
    if restore is not None:
        node.handle(core.restore(journal.lines, store.load_checkpoint()))
    for key, address in addrs.items():
        if key != me.public_key:  # from now on the lower key dials whenever no link is up
            mesh.add_peer(key, address.host, address.port,
                          dial=True if getattr(args, "dial_all", False) else None)
    if lobbyist is not None:
        for peer, data in lobbyist.stash:
            if node.watchers.is_observer(peer):  # an observer following into this game
                if data:
                    node.observer_event(Received(peer, data))
                continue
            node.handle(core.peer_connected(peer) if not data else core.receive(peer, data))
    for key in addrs:
        if key != me.public_key and mesh.connected(key):
            node.connected.add(key)
            node.handle(core.peer_connected(key))
    if not quiet and not args.autoplay:
        from lancards.cli.net_session import NetworkSession
        from lancards.cli.tui.app import STATUS_AGAIN, run_table

        session = NetworkSession([node], 0, table.spec.game, data_home(), bot_delay=0.0,
                                 autoplay=False, record_path=args.record,
                                 bot_levels=_bot_levels(args, store))
        pacer = getattr(args, "bot_pacer", None)
        if pacer is not None:  # a host's --bots: its b key paces them (issue 25, item 13)
            session.pacer = pacer
        session.restored = restore is not None  # "catching up" until current
        if args.evening:  # its first lines and the evening line count the games before
            from lancards.cli.session_series import keep_evening

            keep_evening(session, args.evening)
        gone = getattr(args, "host_gone", None)
        if gone is not None:  # a host's --bots say no with its person (q at the game's end)
            session.said_no = gone.said_no
        args.tell = session.tell  # this machine's news (host.py: its addresses moved) in the log
        if restore is None:  # "root is taken at this table: you play as root 2"
            tell_renamed(args, session)
        try:
            status = await run_table(session)
        finally:
            args.tell = None  # printed again once the screen is gone
        again = session.again
        if status == STATUS_AGAIN and again is not None and again.started() is not None:
            return await play_table(args, me, again.started(), mesh, again.handover(),
                                    store=TableStore(again.next_folder()))  # issue 27
        gone = getattr(args, "host_gone", None)
        if gone is not None and core.has_left(core.seat) and not node.over():
            gone.left = True  # its bots play on (host.play_hosted)
        return status
    cheat = os.environ.get("LANCARDS_TEST_CHEAT", "")
    status = await _drive(node, args, quiet, cheat, restored=restore is not None)
    dump = os.environ.get("LANCARDS_TEST_DUMP_HAND")
    if dump and not quiet and not core.has_left(core.seat):  # a leaver's: at the leave
        _dump_hand(core, Path(dump))
    return status


def table_data(statement: dict[str, Any], me: Identity, listen: tuple[str, int],
               addrs: dict[bytes, PeerAddress], sigs: dict[str, str] | None = None,
               bots: dict[bytes, str] | None = None, seed: str | None = None) -> dict[str, Any]:
    """``table.json`` of a host/join seat: the statement, every start signature (``sigs``;
    left out while this seat has signed but not seen the start), this seat's key and nick,
    where it listens, the seated peers' addresses (``docs/protocol.md``, "Lobby") and, for a
    host with ``--bots``, the level of each of its bot peers (``bot_levels``: key in hex to
    level; only this machine's, for the players panel). ``seed``: a host's bot seat's own
    Ed25519 seed in hex (``seed``), so that ``lancards resume`` of the host brings it back
    inside "play again" (``cli/lobby/resume_again.py``; the file is readable by this user
    only, as ``lancards play`` keeps its bots' seeds)."""
    data: dict[str, Any] = {"mode": "remote", "statement": statement}
    if sigs is not None:
        data["sigs"] = sigs
    data.update({"me": me.public_key.hex(), "nick": me.nick, "listen": list(listen),
                 "peers": {k.hex(): [a.host, a.port] for k, a in addrs.items()}})
    if bots:
        data["bot_levels"] = {k.hex(): level for k, level in bots.items()}
    if seed:
        data["seed"] = seed
    return data


def _bot_levels(args: argparse.Namespace, store: TableStore) -> dict[bytes, str]:
    """The levels of this machine's bot peers at the table (a host's ``--bots``): from the
    arguments, or from ``table.json`` after a resume; empty for a joiner."""
    given = getattr(args, "bot_keys", None)
    if given:
        return dict(given)
    try:
        saved = store.load_table().get("bot_levels", {})
    except (StorageError, JournalDamaged):  # no table file yet: nothing known
        return {}
    return {bytes.fromhex(k): str(v) for k, v in saved.items()}


def mesh_bind(args: argparse.Namespace) -> str:
    """Where this seat listens, as ``table.json`` keeps it: ``args.listen_host``, else the
    first ``--interface``, else every address of both families (``""``, issue 24)."""
    listen = getattr(args, "listen_host", None)
    if listen is not None:
        return str(listen)
    return args.interface[0] if getattr(args, "interface", None) else any_address()


def bot_pace(args: argparse.Namespace, quiet: bool, core: Any) -> Callable[[], float]:
    """Seconds the bot of ``core``'s seat waits before its next move, asked before each one: a
    host's ``--bots`` seat (``quiet``, ``args.bot_pacer``) waits before its turn as the bots
    at ``lancards play`` do (:class:`lancards.cli.pacing.BotPacer`, issue 25, item 13); an
    ``--autoplay`` seat never waits."""
    pacer = (getattr(args, "bot_pacer", None) if quiet else None) or BotPacer(0.0)
    return lambda: pacer.pause(core.state, core.seat)


async def _drive(node: PeerNode, args: argparse.Namespace, quiet: bool, cheat: str, *,
                 restored: bool = False) -> int:
    from lancards.cli.tui.controller import shown_names
    from lancards.cli.tui.results import RoundTracker

    core = node.core
    names = shown_names([m.nick for m in core.players], core.seat)  # "Du" for a German "You"
    tracker = RoundTracker(names)
    cheated = False
    leave_after = int(os.environ.get("LANCARDS_TEST_LEAVE_AFTER", "0") or 0)
    moves = 0

    def act(action: Any) -> None:
        nonlocal cheated, moves
        if (cheat == "swap-claim" and not cheated and type(action).__name__ == "Discard"
                and not core.deck.is_public(action.card.slot)):
            cheated = True  # a card still hidden: its opening will contradict the claim
            node.handle(_forge_swapped_discard(core, action))
            return
        node.submit(action)
        moves += 1
        if moves == leave_after and not quiet:
            node.leave()  # written at this seat's next turn to write (docs/protocol.md 11.8)

    removed = core.has_left(core.seat)  # a resume after it: said already, or never asleep

    def report() -> None:
        nonlocal leave_after, removed
        for line in tracker.observe(core.game.name, core.game.view(core.state, None)):
            print(line.summary, flush=True)
        if not removed and core.has_left(core.seat) and core.was_removed(core.seat):
            removed = True  # caught up after a sleep past the patience (issue 24)
            print(_(REMOVED_WHILE_AWAY) + " " + _("(watching it to the end)"), flush=True)
        dump = os.environ.get("LANCARDS_TEST_DUMP_HAND")
        if leave_after and core.has_left(core.seat):
            leave_after = 0  # the hand it leaves with, before a later round deals new slots
            if dump:
                _dump_hand(core, Path(dump))

    if not quiet:
        node.on_change = report
    node.auto_remove = True  # a bot signs a removal the rules allow (ruling D-5)
    run = asyncio.create_task(node.run(linger=1.5, restored=restored))
    driver = asyncio.create_task(drive_bot(
        node, game_bot(core, getattr(args, "bot_level", DEFAULT_BOT_LEVEL)), act=act,
        delay=bot_pace(args, quiet, core)))
    gone: HostGone | None = getattr(args, "host_gone", None)
    told = asyncio.create_task(_leave_when_told(node, gone)) if gone is not None else None
    alone = asyncio.create_task(_tell_alone(node, names)) if restored and not quiet else None
    try:
        await run  # raises StorageError when a write failed: the seat paused (issue 24)
    finally:
        driver.cancel()
        for task in (told, alone):
            if task is not None:
                task.cancel()
        try:
            if node.fault is None:  # a paused seat writes nothing more; resume writes these
                write_records(node, args.record)
        finally:
            if node.fault is not None or core.game.outcome(core.state) is None or core.halted:
                await node.close()
    status = _report(node, args, quiet, names)
    outcome = core.game.outcome(core.state)
    if gone is not None and gone.left and outcome is not None and not core.halted:
        from lancards.cli.net_session import removed_seats
        from lancards.cli.play_again import evening_of, finished_of
        from lancards.cli.tui.results import final_lines

        done = evening_of(finished_of(core), core.game.name,  # as the game-over panel says
                          before=getattr(args, "evening", ()))
        evening = [done] if done is not None else []  # the result, then the evening
        gone.finished(core.record, outcome_json(outcome),  # the host's folder gets the result
                      final_lines(outcome, names, core.game.name, removed_seats(core)) + evening)
    if node.fault is None and outcome is not None and not core.halted:
        return await _again(node, args, quiet, status)
    return status


async def _tell_alone(node: PeerNode, names: Sequence[str]) -> None:
    """A resumed ``--autoplay`` seat says once when nobody of the table has answered for 10 s
    (the evening trial of 2026-12-06: ``resume --autoplay`` printed its first line, then
    nothing for 45 s); checked every half second while it catches up."""
    from lancards.cli.peer_words import alone_words

    while node.catching_up or not node.connected:
        words = alone_words(node, names, time.monotonic(), 10.0)
        if words is not None:
            pause = _("(Ctrl-C pauses)")
            print(f"{words} {pause}", flush=True)
            return
        await asyncio.sleep(0.5)


async def _leave_when_told(node: PeerNode, gone: HostGone) -> None:
    """A host's bot seat leaves for good once its host's person stopped it (``gone.leave``;
    :func:`lancards.cli.lobby.host.play_hosted`): the leave is written at its next turn to
    write (``docs/protocol.md`` 11.8); once another peer built on it, or a second after it
    ended the game, the seat's folder is marked ``finished`` (nothing to resume) and its node
    stops (:meth:`PeerNode.run` returns)."""
    await gone.leave.wait()
    core = node.core
    if node.over():
        return
    if not core.has_left(core.seat):
        try:
            node.leave()
        except (PeerError, StorageError):
            return  # the game ended or halted meanwhile, or the seat paused on its disk
    if not await node.leave_delivered():
        return  # the game ended before this seat's turn to write came
    if node.store is not None:
        with contextlib.suppress(StorageError):
            node.store.mark("left")
            node.store.mark("finished")  # this seat left for good: nothing to resume
    node.stop()


async def _again(node: PeerNode, args: argparse.Namespace, quiet: bool, status: int) -> int:
    """After a game: a seat with games still to play (``--games``, a host's bot seats) says
    "yes" to playing again (and to going on without those who declined), then plays the next
    game over the same links; any other seat says "no" (issue 27)."""
    from lancards.cli.play_again import series_record, series_words
    from lancards.cli.remote_again import RemoteAgain

    games = int(getattr(args, "games", 1) or 1)
    gone: HostGone | None = getattr(args, "host_gone", None)
    if gone is not None and gone.left:
        games = 1  # a host's bot seat whose person left: no game after this one
    follows = gone if gone is not None and host_bot(args) else None  # its host's "no" too
    again = RemoteAgain(node, bot=games > 1, host_said_no=None if follows is None
                        else lambda: follows.declined)
    if games <= 1 or not again.rematch.possible():
        if gone is not None and follows is None:
            gone.said_no()  # the host's own seat (--autoplay): its bots follow it
        if again.rematch.possible():
            again.answer(False)
            await again.flush()
        await node.close()
        return status
    if follows is not None:
        follows.followers.append(again.follow_host)
    try:
        await again.link.run(float(os.environ.get("LANCARDS_AGAIN_WAIT", "600")))
    finally:
        if follows is not None:
            follows.followers.remove(again.follow_host)
    if again.rematch.failed is not None:  # its last answer reaches the others first: a "no"
        await again.flush()  # or the bot's "yes" that showed the people chose different games
    if not quiet:  # the messages about the next game it refused, in words (h1's trial)
        from lancards.cli.i18n import language

        for said in again.refusal_lines():
            print(*said[language()], sep="\n", flush=True)
    table = again.started()
    if table is None:
        if not quiet:
            from lancards.cli.tui.fit import echo

            echo(_("no next game: {reason}").format(reason=again.no_game_words()))
        await node.close()
        return status
    if not quiet:
        from lancards.cli.play_again import evening_next
        from lancards.cli.tui.fit import echo

        before = evening_next(again.rematch.finished, node.core.game.name,
                              getattr(args, "evening", ()), table.statement)
        for line in series_words(table, node.core.game.name, b"", before):
            echo(line)  # the evening line's no-break spaces as spaces
    number = int(table.statement["follows"]["game"])
    if number == 1:  # another game: a new series; its record after the games played so far
        number = again.rematch.finished.number + 1
    ns = argparse.Namespace(**{**vars(args), "games": games - 1,
                               "record": series_record(args.record, number)})
    return await play_table(ns, node.core.me, table, node.mesh, again.handover(), quiet=quiet,
                            store=TableStore(again.next_folder()))


def host_bot(args: argparse.Namespace) -> bool:
    """Whether ``args`` are a host's ``--bots`` seat's (its key's seed kept in its
    ``table.json``: ``lancards host``, ``lancards resume`` of the host), not the host's own
    seat, which shares their :class:`HostGone`."""
    return getattr(args, "bot_seed", None) is not None


def _report(node: PeerNode, args: argparse.Namespace, quiet: bool,
            names: tuple[str, ...]) -> int:
    """The end of a game in words (an autoplay seat's lines); the exit status."""
    core = node.core
    if quiet:
        return 0
    for notice in node.notices:
        if notice.kind == "cheat":  # words only; the peer layer's sentence: --verbose
            net_log.debug("%s", notice.text)
            print(_("cheat: {reason}").format(reason=notice_words(core, notice, names)),
                  flush=True)
    from lancards.cli.game_titles import game_title
    from lancards.cli.tui.results import result_line

    title = game_title(core.rule_set)  # the result names its game, as play --autoplay's does
    if core.halted:
        print(result_line(_("the table halted: {reason}").format(
            reason=halt_words(core, names)), title))
        return 1
    outcome = core.game.outcome(core.state)
    if outcome is None:
        print(result_line(_("the game stopped without a result"), title))
        return 1
    from lancards.cli.net_session import removed_seats
    from lancards.cli.tui.fit import echo
    from lancards.cli.tui.results import final_lines

    for line in final_lines(outcome, names, core.game.name, removed_seats(core), title=title):
        echo(line)  # a terminal's width, at a space
    if "follows" in core.table.statement or int(getattr(args, "games", 1) or 1) > 1:
        from lancards.cli.play_again import evening_of, finished_of

        evening = evening_of(finished_of(core), core.game.name,  # from game 2 on (issue 27)
                             before=getattr(args, "evening", ()))  # the games before it
        if evening is not None:
            echo(evening)
    if args.record:
        print(_("record: {path}").format(path=args.record))
    return 0


def write_records(node: PeerNode, record: str | None) -> None:
    """The record to the table folder, and to ``record`` (``--record``) once the game ended or
    halted or this seat left (never a paused game's part: ``lancards resume`` writes it at the
    end, :meth:`TableStore.kept_record_path`), then the folder's ``finished`` marker once the
    game has its outcome or halted on a cheat (:func:`~lancards.cli.halted_table.save_halt`
    first; last: a write that fails leaves the table resumable).

    Raises:
        StorageError: a file cannot be written.
    """
    core = node.core
    if not len(core.record):
        return
    if record and (core.game.outcome(core.state) is not None or core.has_left(core.seat)
                   or core.halted):
        write_record(core.record, record)  # never a paused game's part
    if node.store is not None:
        write_record(core.record, node.store.folder / "record.jsonl")
        outcome = core.game.outcome(core.state)
        if outcome is not None:
            node.store.save_outcome(outcome_json(outcome))
        if outcome is not None or core.halted:  # halted: nothing to resume, and who cheated
            save_halt(node.store.folder, core)  # (history, resume)
            node.store.mark("finished")


def _forge_swapped_discard(core: GameCore, action: Any) -> list[Any]:
    """Test hook: discard ``action``'s card but claim another one (the opening will differ)."""
    from lancards.p2p.protocol.core import Send

    slot = action.card.slot
    real = core.game.identity(core.state, slot)
    known = {core.game.identity(core.state, s) for s in core.game.knowledge(core.state)}
    fake = next(c for c in core.faces if getattr(c, "is_number", False) and c != real
                and c not in known)
    opening = core.deck.make_open(slot)
    payload = {"t": "action", "a": f"{core.seat}: discard {fake}#{slot}", "open": [opening]}
    entry = core.record.next_entry(core.me, payload, core.state_hash())
    env = sign_envelope(core.me, "record.entry", core.table_id, core.next_envelope_seq,
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


async def resume_remote(folder: Path, me: Identity, args: argparse.Namespace, *,
                        wait: float = START_WAIT_S) -> int:
    """Continue a host/join table from its journal after a crash: the full-screen table for a
    person (showing "catching up" until current), or a bot with ``--autoplay``.

    The peer listens where it listened before and links to every seated peer again (the lower
    key dials; every peer accepts seated members at any time), then catches up from whichever
    peers answer.

    A seat that signed the start but was killed before the started table reached its disk
    (``table.json`` without ``sigs``) first fetches the start signatures from whichever seated
    peer answers, waiting at most ``wait`` s (:mod:`lancards.p2p.protocol.start_fetch`).

    Raises:
        JournalDamaged: a complete journal line is damaged (names the file and line).
        UsageError: signed but the table never started with this seat (one line).
    """
    store = TableStore(folder)
    data = store.load_table()
    signed_only = "sigs" not in data  # signed, killed before the start reached the disk
    table = None if signed_only else verify_started(data["statement"], data["sigs"],
                                                      "the table file")
    nick = str(data["nick"]) if table is None else next(
        m for m in table.seats if m.public_key == me.public_key).nick
    me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), nick)
    mesh, host, dial_all = await listen_again(data, me)
    if table is None:
        table = await _fetch_start(store, data, me, mesh, wait)
    ns = argparse.Namespace(interface=[host] if host not in ("0.0.0.0", "") else None,
                            record=args.record or store.kept_record_path(),
                            autoplay=bool(args.autoplay),
                            dial_all=dial_all, host_gone=getattr(args, "host_gone", None),
                            bot_pacer=getattr(args, "bot_pacer", None))
    return await play_table(ns, me, table, mesh, None, restore=store)


async def listen_again(data: dict[str, Any], me: Identity) -> tuple[Mesh, str, bool]:
    """A restarted seat's mesh, listening where ``table.json`` says it listened (or, that
    port taken, on a free one: then it dials every peer itself).

    Returns:
        The mesh, the host it listens on, and whether it must dial every peer.
    """
    host, port = data["listen"]
    if host == "0.0.0.0":  # kept by an older version: both families now (issue 24)
        host = any_address()
    mesh = Mesh(me, CONFIG)
    try:
        await mesh.start(str(host), int(port))
    except PeerError:
        # The old port is taken: listen anywhere and dial every peer ourselves (they still
        # know only the old port).
        await mesh.start(str(host), free_port(str(host)))
        print(_("port {port} is taken; listening on {new} and dialling every peer").format(
            port=port, new=mesh.port),
              file=sys.stderr, flush=True)
        return mesh, str(host), True
    return mesh, str(host), False


async def _fetch_start(store: TableStore, data: dict[str, Any], me: Identity, mesh: Mesh,
                       wait: float) -> StartedTable:
    """The started table of the statement this seat signed, from whichever seated peer
    answers (:mod:`lancards.p2p.protocol.start_fetch`); written to ``table.json`` with the
    addresses.

    Raises:
        UsageError: no seated peer answered within ``wait`` s (the folder is marked
            ``not-started``, so a later ``lancards resume`` skips it).
    """
    from lancards.cli.errors import UsageError
    from lancards.p2p.net.addresses import book_addresses
    from lancards.p2p.net.fetch_started import fetch_started
    from lancards.p2p.protocol.start_fetch import StartFetch

    statement = data["statement"]
    known = {bytes.fromhex(k): (str(v[0]), int(v[1])) for k, v in data["peers"].items()}
    fetch = StartFetch(me, statement, store.next_envelope())
    print(_("table {table}: this seat signed the start; asking the seated peers whether it "
            "started").format(table=fetch.table_id), file=sys.stderr, flush=True)
    got = await fetch_started(
        mesh, fetch, known, wait=wait, lease=store.lease_envelopes,
        refused=lambda exc: print(_("ignored: {reason}").format(reason=error_words(exc)),
                                  file=sys.stderr, flush=True))
    if got is None:
        await mesh.close()
        store.mark("not-started")
        raise UsageError(_("table {table_id} did not start with this seat: no seated peer "
                           "answered with its start within {wait:.0f} s (the host may have "
                           "freed the seat); join a table again").format(
            table_id=fetch.table_id, wait=wait))
    table, book = got
    reached = known.get(table.spec.host, next(iter(known.values()), ("", 0)))[0]
    peers = {k: PeerAddress(h, p) for k, (h, p) in
             book_addresses(book, table.spec.host, reached).items()}
    peers.update({k: PeerAddress(h, p) for k, (h, p) in known.items()})
    peers.pop(me.public_key, None)
    listen = (str(data["listen"][0]), int(data["listen"][1]))
    store.save_table(table_data(table.statement, me, listen, peers, table.sigs))
    return table
