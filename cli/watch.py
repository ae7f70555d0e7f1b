"""``lancards watch``: follow a started table as an observer, without a seat.

The watcher links to one seated peer (``TABLE-ID@HOST:PORT``, or a started table found by mDNS),
asks it for the record (``watch.ask``), and verifies every entry as it arrives like a player
does: signatures, the hash chain, whose turn, every proof of shuffle, decryption share and
opening, every move against the rules, the state hash (:mod:`lancards.p2p.protocol.watching`).
It sees the public cards only: no seat sends it a private share. The players never wait for it.

The watcher's key is made afresh for each watch (it is never seated), so a player who left the
table or was removed can watch the rest of it too. Output: one line per move and round, then the
result (``--record FILE`` writes the verified entries; the file has no closing line, since only
a seat signs one, so ``lancards audit`` calls it unfinished). A peer that drops the watcher
says why in one word (``full``: it has as many watchers as it serves); the line says it in words.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.cli.lobby.watch_table import watch_at
from lancards.cli.peer_errors import error_words
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.identity import Identity


def add_parser(sub: Any) -> None:
    watch = sub.add_parser(
        "watch", help=_("follow a started table as an observer, without a seat"),
        description=_("Follow a started table live: every move is verified as a player "
                      "verifies it, only public cards are seen, and the players never wait for "
                      "you. TABLE is a table id seen on the network (a started table advertised "
                      "by mDNS) or TABLE-ID@HOST:PORT of any seated player."))
    watch.add_argument("table", nargs="?", default=None,
                       help=_("TABLE-ID (a started table on the network) or TABLE-ID@HOST:PORT"))
    watch.add_argument("--plain", action="store_true",
                       help=_("one line per event instead of the full-screen table (the "
                              "default without a terminal)"))
    watch.add_argument("--record", metavar="FILE", default=None,
                       help=_("write the verified record to FILE when the game ends"))
    watch.add_argument("--wait", type=float, default=10.0,
                       help=_("seconds to look for the table and for its first answer"))
    watch.add_argument("--interface", action="append", default=None, metavar="NAME|IP",
                       help=_("look for tables by mDNS on this interface only (repeatable)"))
    watch.set_defaults(run=run_watch)


def run_watch(args: argparse.Namespace) -> int:
    if args.record and Path(args.record).exists():
        raise UsageError(_("--record {file}: the file exists; nothing is written over").format(
            file=args.record))
    return asyncio.run(watch_command(args))


async def watch_command(args: argparse.Namespace) -> int:
    """Find the table, then follow it; the exit status (0: the game ended, verified)."""
    table_id, key, host, port = await find_started(args)
    screen = not args.plain and sys.stdin.isatty() and sys.stdout.isatty()
    return await watch_at(table_id, key, host, port, record=args.record, wait=args.wait,
                          screen=screen)


async def find_started(args: argparse.Namespace) -> tuple[str, bytes, str, int]:
    """(table id, a seated peer's key, its host, port) from ``TABLE-ID@HOST:PORT`` (the key is
    the one that answers the hello there) or a started table found by mDNS.

    Raises:
        UsageError: a bad argument, nothing answers, or no started table is found.
    """
    from lancards.p2p.net.probe import probe_key

    target = args.table
    if target and "@" in target:
        table_id, _at, address = target.rpartition("@")  # not `_`: the translation
        host, _colon, port_text = address.rpartition(":")
        if len(table_id) != 16 or not port_text.isdigit() or not host:
            raise UsageError(_("{target} is not TABLE-ID@HOST:PORT (a player's address)").format(
                target=repr(target)))
        host = host.strip("[]")
        try:
            key = await probe_key(host, int(port_text), Identity.generate("watcher"))
        except PeerError as exc:
            raise UsageError(error_words(exc)) from None
        return table_id, key, host, int(port_text)
    from lancards.cli.lobby.join import find_started_advert

    return await find_started_advert(args, target)


__all__ = ["add_parser", "find_started", "run_watch", "watch_command"]
