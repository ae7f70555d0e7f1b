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
or the agreement ends without a next game, it says so in one line.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.cli.play_again import pending_again
from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.start_fetch import START_WAIT_S
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


async def resume_again(folder: Path, me: Identity, args: argparse.Namespace, *,
                       alone: float = START_WAIT_S) -> int:
    """Continue the agreement of the finished table in ``folder``, then play the next game
    (the full-screen table, or a bot with ``--autoplay``).

    Raises:
        JournalDamaged: a complete journal line is damaged (names the file and line).
        UsageError: no next game with this seat (one line: why), or a person's answer is
            still owed and there is no screen for it (``--autoplay`` answers yes).
    """
    from lancards.cli.lobby.started_table import listen_again, play_table
    from lancards.cli.play_again import series_words
    from lancards.cli.remote_again import AGREE_WAIT_S, RemoteAgain

    store = TableStore(folder)
    data = store.load_table()
    table = verify_started(data["statement"], data["sigs"], "the table file")
    nick = next(m for m in table.seats if m.public_key == me.public_key).nick
    me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), nick)
    mesh, host, dial_all = await listen_again(data, me)
    journal = store.read()
    core = GameCore(me, table, secrets.token_bytes, secret_key=store.load_secret(),
                    envelope_seq=journal.next_envelope)
    node = PeerNode(core, mesh, store)
    node.handle(core.restore(journal.lines, store.load_checkpoint()))
    for key, (peer_host, port) in data["peers"].items():
        if bytes.fromhex(key) != me.public_key:
            mesh.add_peer(bytes.fromhex(key), str(peer_host), int(port),
                          dial=True if dial_all else None)
    lines: list[dict[str, Any]] = [line for kind, line in journal.lines if kind == "rematch"]
    print(_("table {table}: resuming the agreement to play again").format(
        table=table.spec.table), file=sys.stderr, flush=True)
    again = RemoteAgain(node, bot=bool(args.autoplay), restore=lines)
    if again.status().get("asked") and not args.autoplay:
        await node.close()
        raise UsageError(_("table {table} ended before you answered whether to play again; "
                           "`lancards resume --autoplay` answers yes").format(
            table=table.spec.table))
    alone = float(os.environ.get("LANCARDS_AGAIN_ALONE", alone))  # tests: a shorter bound
    await again.link.run(float(os.environ.get("LANCARDS_AGAIN_WAIT", AGREE_WAIT_S)),
                         alone=alone)
    started = again.started()
    if started is None:
        await node.close()
        if again.rematch.failed is not None:
            raise UsageError(_("no next game: {reason}").format(reason=again.rematch.failed))
        if not again.link.linked:
            raise UsageError(_("no next game: no player of table {table} answered within "
                               "{wait:.0f} s (they stopped, or went on without you)").format(
                table=table.spec.table, wait=alone))
        raise UsageError(_("no next game: {reason}").format(
            reason=_("the others did not answer")))
    for line in series_words(started, core.game.name, b""):
        print(line, flush=True)
    ns = argparse.Namespace(interface=[host] if host not in ("0.0.0.0", "") else None,
                            record=args.record, autoplay=bool(args.autoplay),
                            dial_all=dial_all, games=1)
    return await play_table(ns, me, started, mesh, again.handover(),
                            store=TableStore(again.next_folder()))


__all__ = ["agreement_folder", "resume_again"]
