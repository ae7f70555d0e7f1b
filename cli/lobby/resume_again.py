"""``lancards resume`` of a host/join seat killed inside "play again" (issue 27): after its game
ended and before it held the next game's start, so that it still joins the next game.

The finished table's folder then holds the ``again`` marker and the agreement's journal lines
(kind ``rematch``, ``docs/protocol.md`` 6.1, "Journal"); no ``again-over`` marker. The seat
replays the finished game's journal (its result, checked again), then the agreement's lines,
listens where it listened, links to the finished game's seats, sends its answer and signature
again to each as its link comes up, and asks each linked peer whether the next game started
(its signature may have reached every seat before it died). Once it holds the next game's start
it plays it on the same links. When no seat of the finished game links within
:data:`~lancards.p2p.protocol.start_fetch.START_WAIT_S` s (they stopped, or gave up waiting),
or the agreement ends without a next game, it says so in one line (on the full screen: its
banner). Without ``--autoplay`` the person answers on the game-over panel, as after any game.
A host's ``--bots`` seats still inside the agreement come back with it, as bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import NO_BREAK, _
from lancards.cli.lobby.host_bots import BOT_END_S, end_bots
from lancards.cli.play_again import pending_again
from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.store import TableStore, data_home
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import verify_started


def agreement_folder(folder: Path) -> Path:
    """The folder ``lancards resume`` continues for ``folder``: the finished table it follows
    when ``folder`` is a next game this seat signed but never saw start (``table.json``
    without ``sigs``) and that table's agreement is still pending; else ``folder``."""
    try:
        data = json.loads((folder / "table.json").read_text("utf-8"))
    except (OSError, ValueError):
        return folder
    follows = data.get("statement", {}).get("follows") if isinstance(data, dict) else None
    if "sigs" in data or not isinstance(follows, dict):
        return folder
    before = folder.parent / str(follows.get("tbl", ""))
    return before if pending_again(before) else folder


async def resume_again(folder: Path, me: Identity, args: argparse.Namespace) -> int:
    """Continue the agreement of the finished table in ``folder``, then play the next game:
    the full-screen table (the game-over panel asks again when this seat's answer was not
    durable; ``a`` signs it), or a bot with ``--autoplay``. A host's ``--bots`` seats in the
    folder's ``bots/`` still inside the agreement come back too, as bots (:func:`bot_seats`).

    Raises:
        JournalDamaged: a complete journal line is damaged (names the file and line).
        UsageError: no next game with this seat (``--autoplay``; one line: why).
    """
    from lancards.cli.lobby.started_table import play_table

    store = TableStore(folder)
    data = store.load_table()
    table = verify_started(data["statement"], data["sigs"], "the table file")
    print(_("table {table}: resuming the agreement to play again").format(
        table=table.spec.table), file=sys.stderr, flush=True)
    seats = bot_seats(folder)
    if seats:  # one pace for them all, as the host gave them (--autoplay: none)
        from lancards.cli.lobby.host_bots import HostGone
        from lancards.cli.pacing import BotPacer

        args.bot_pacer = BotPacer(0.0 if args.autoplay else float(args.bot_delay))
        args.host_gone = HostGone()  # its bots say no with its person
    bots = [asyncio.ensure_future(_bot_seat(sub, args)) for sub in seats]
    try:
        if args.autoplay:
            return await _agree_then_play(store, data, me, args)
        node, lines, ns = await _restored(store, data, me, args)
        from lancards.cli.lobby.started_table import _bot_levels
        from lancards.cli.net_session import NetworkSession
        from lancards.cli.tui.app import STATUS_AGAIN, run_table

        session = NetworkSession([node], 0, table.spec.game, data_home(), bot_delay=0.0,
                                 autoplay=False, record_path=args.record,
                                 bot_levels=_bot_levels(args, store))
        if seats:  # the host's b key paces its bot seats, as before the crash
            session.pacer = args.bot_pacer
            session.said_no = args.host_gone.said_no  # and they say no with its person
        session.restored = True
        session.again_lines = {node.core.me.public_key: lines}  # the panel asks again
        status = await run_table(session)
        again = session.again
        if status == STATUS_AGAIN and again is not None and again.started() is not None:
            return await play_table(ns, node.core.me, again.started(), node.mesh,
                                    again.handover(), store=TableStore(again.next_folder()))
        return status
    finally:
        await end_bots(bots, BOT_END_S, say=not args.autoplay)


def bot_seats(folder: Path) -> list[Path]:
    """The folders of a host's ``--bots`` seats at the finished table in ``folder`` whose
    "play again" has not ended (no ``again-over``; their Ed25519 seed in ``table.json``):
    ``lancards resume`` of the host brings them back with its own seat. A seat killed in the
    last second of its game (no ``finished`` yet, or its journal short of the last entries)
    is one of them: it catches up first (:func:`_bot_seat`)."""
    found = []
    for sub in sorted((folder / "bots").glob("*/table.json")):
        try:
            seeded = "seed" in json.loads(sub.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if seeded and not (sub.parent / "again-over").exists():
            found.append(sub.parent)
    return found


async def _restored(store: TableStore, data: dict[str, Any], me: Identity,
                    args: argparse.Namespace) -> tuple[PeerNode, list[dict[str, Any]],
                                                       argparse.Namespace]:
    """This seat's finished game replayed from its journal on a mesh listening where it
    listened, linked to the finished game's seats; its journaled agreement lines; the
    arguments of its next game."""
    from lancards.cli.lobby.started_table import listen_again

    table = verify_started(data["statement"], data["sigs"], "the table file")
    nick = next(m for m in table.seats if m.public_key == me.public_key).nick
    me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), nick)
    mesh, host, dial_all = await listen_again(data, me)
    journal = store.read()
    core = GameCore(me, table, secrets.token_bytes, secret_key=store.load_secret(),
                    envelope_seq=journal.next_envelope)
    node = PeerNode(core, mesh, store)
    node.handle(core.restore(journal.lines, store.load_checkpoint()))
    if not (store.folder / "finished").exists():  # killed before its record was written
        from lancards.cli.lobby.started_table import write_records

        write_records(node, None)
    for key, (peer_host, port) in data["peers"].items():
        if bytes.fromhex(key) != me.public_key:
            mesh.add_peer(bytes.fromhex(key), str(peer_host), int(port),
                          dial=True if dial_all else None)
    lines: list[dict[str, Any]] = [line for kind, line in journal.lines if kind == "rematch"]
    ns = argparse.Namespace(**{**vars(args), "games": getattr(args, "games", 1),
                               "interface": [host] if host not in ("0.0.0.0", "") else None,
                               "autoplay": bool(args.autoplay), "dial_all": dial_all})
    return node, lines, ns


async def _agree_then_play(store: TableStore, data: dict[str, Any], me: Identity,
                           args: argparse.Namespace, quiet: bool = False) -> int:
    """The agreement answered by a bot (yes), then the next game played by a bot (``quiet``:
    a host's bot seat, which prints nothing).

    Raises:
        UsageError: no next game with this seat (one line: why).
    """
    from lancards.cli.lobby.started_table import play_table
    from lancards.cli.play_again import series_words
    from lancards.cli.remote_again import AGREE_WAIT_S, RemoteAgain

    node, lines, ns = await _restored(store, data, me, args)
    gone = getattr(args, "host_gone", None) if quiet else None  # a host's bot seat
    again = RemoteAgain(node, bot=True, restore=lines,
                        host_said_no=None if gone is None else lambda: gone.declined)
    if gone is not None:
        gone.followers.append(again.follow_host)
    try:
        await again.run(float(os.environ.get("LANCARDS_AGAIN_WAIT", AGREE_WAIT_S)))
    finally:
        if gone is not None:
            gone.followers.remove(again.follow_host)
    started = again.started()
    if started is None:
        await node.close()
        raise UsageError(_("no next game: {reason}").format(
            reason=again.no_game_words()).replace(NO_BREAK, " "))
    if not quiet:
        from lancards.cli.play_again import evening_next
        from lancards.cli.tui.fit import echo

        before = evening_next(again.rematch.finished, node.core.game.name,  # not signed
                              again.old.get("evening", ()), started.statement)
        for line in series_words(started, node.core.game.name, b"", before):
            echo(line)  # the evening line's no-break spaces as spaces
    return await play_table(ns, node.core.me, started, node.mesh, again.handover(),
                            quiet=quiet, store=TableStore(again.next_folder()))


def _bot_level(folder: Path, me: Identity) -> str:
    """The level the host gave the bot seat in ``folder`` (``tables/T/bots/B``): from the
    host's ``table.json`` (``bot_levels``); the default level when it is not there."""
    from lancards.engine.rulesets import DEFAULT_BOT_LEVEL

    try:
        host = json.loads((folder.parent.parent / "table.json").read_text("utf-8"))
        level = host.get("bot_levels", {}).get(me.public_key.hex(), DEFAULT_BOT_LEVEL)
    except (OSError, ValueError, AttributeError):
        return DEFAULT_BOT_LEVEL
    return str(level)


async def resume_host(folder: Path, me: Identity, args: argparse.Namespace) -> int:
    """``lancards resume`` of a host/join seat in the middle of its game
    (:func:`lancards.cli.lobby.started_table.resume_remote`); a host's ``--bots`` seats that
    had not left (their folders in ``bots/`` without ``finished``) come back with it, as
    bots at the levels the host gave them, each from its own journal. Before (the new-user
    trial of 2026-12-05), a host that paused or crashed came back alone and the table waited
    for its bots for ever. A host whose person then leaves for good stays for its bots as
    ``lancards host`` does (:func:`lancards.cli.lobby.host_bots.bots_play_on`)."""
    from lancards.cli.lobby.common import EXIT_SIGNALS
    from lancards.cli.lobby.host_bots import HostGone, bots_play_on
    from lancards.cli.lobby.started_table import resume_remote
    from lancards.cli.pacing import BotPacer

    seats, names = [], []
    for sub in bot_seats(folder):
        try:
            data = json.loads((sub / "table.json").read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if not (sub / "finished").exists() and isinstance(data, dict) and "sigs" in data:
            seats.append(sub)  # started and not left: it comes back
            names.append(str(data.get("nick", "")))
    if not seats:
        return await resume_remote(folder, me, args)
    args.bot_pacer = BotPacer(0.0 if args.autoplay else float(args.bot_delay))
    gone = args.host_gone = HostGone(names)
    bots = [asyncio.ensure_future(_bot_seat(sub, args)) for sub in seats]
    try:
        status = await resume_remote(folder, me, args)
        if gone.left:
            signum = await bots_play_on(gone, bots, EXIT_SIGNALS)
            gone.keep_result(folder, args.record)
            return status if signum is None else 128 + signum
        return status
    finally:
        await end_bots(bots, BOT_END_S, say=not args.autoplay)


async def _bot_seat(folder: Path, args: argparse.Namespace) -> int:
    """A host's bot seat brought back inside the agreement (its seed in its ``table.json``):
    it answers yes, then plays the next game and the ones after as a host's bot does. One
    whose agreement had not begun (no ``again``: killed before its record was written, maybe
    before the game's last entries reached it) resumes its game first, catching up from the
    others (who serve the finished game during the agreement), then plays again."""
    from lancards.cli.lobby.started_table import BOT_GAMES, listen_again, play_table

    store = TableStore(folder)
    data = store.load_table()
    me = Identity(bytes.fromhex(str(data["seed"])), str(data.get("nick", "")))
    bot_args = argparse.Namespace(record=None, autoplay=True, games=BOT_GAMES,
                                  bot_pacer=args.bot_pacer, bot_seed=data["seed"],
                                  bot_level=_bot_level(folder, me),
                                  host_gone=getattr(args, "host_gone", None))
    try:
        if pending_again(folder):
            return await _agree_then_play(store, data, me, bot_args, quiet=True)
        table = verify_started(data["statement"], data["sigs"], "the table file")
        mesh, host, dial_all = await listen_again(data, me)
        ns = argparse.Namespace(**vars(bot_args), dial_all=dial_all,
                                interface=[host] if host not in ("0.0.0.0", "") else None)
        return await play_table(ns, me, table, mesh, None, quiet=True, restore=store)
    except UsageError:
        return 1  # no next game: the host's own seat says why


__all__ = ["agreement_folder", "bot_seats", "resume_again", "resume_host"]
