"""``lancards node CONFIG``: run one peer of an already started table (scripts and tests).

CONFIG is a JSON file::

    {"statement": {...}, "sigs": {...},          the signed start (p2p.table)
     "seed": "<64 hex>", "nick": "ann",          this peer's Ed25519 seed and nickname
     "listen": ["127.0.0.1", 47001],             where this peer listens
     "peers": {"<key hex>": ["127.0.0.1", 47002], ...},
     "folder": "/path/to/store",                 journal, secret (restored from if present)
     "record": "/path/to/record.jsonl",          written when the game ends (optional)
     "timings": "/path/to/timings.jsonl"}        when each entry was verified here (optional)

A bot plays the seat (:func:`lancards.p2p.net.node.drive_bot`). The peer restores itself from
``folder`` when a journal is there, so a peer killed at any moment is restarted with the same
command. Exit 0 when the game ended, 1 when the table halted on a cheat, 2 on a bad config, a
damaged journal (one line on stderr names the file and line), a folder another process holds,
or a storage fault (one line naming the path and what to do).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.p2p.net.folder_lock import lock_folder
from lancards.p2p.net.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.net.record_file import write_record
from lancards.p2p.net.store import JournalDamaged, TableStore
from lancards.p2p.net.transport import Mesh, TransportConfig
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import verify_started


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "node",
        help=_("run one bot peer of a started table from a config file (scripts, tests)"),
        description=_("Run one peer of an already started table from its JSON config file "
          "(scripts and tests; the format is in docs/protocol.md)."),
    )
    parser.add_argument("config", help=_("the peer's JSON config (see docs/protocol.md)"))
    parser.add_argument("--deadline", type=float, default=600.0,
                        help=_("give up after this many seconds (default 600)"))
    parser.set_defaults(run=run)


async def run_node(config: dict[str, Any], deadline: float) -> int:
    """Run the peer described by ``config`` until the game ends."""
    # the words of its lines: imported here, so `lancards node --help` loads no more (issue 16)
    from lancards.cli.peer_errors import checkpoint_words, error_words
    from lancards.cli.peer_words import notice_words
    from lancards.cli.refusal_words import move_refused

    table = verify_started(config["statement"], config["sigs"], "config")
    me = Identity(bytes.fromhex(config["seed"]), config["nick"])
    lock_folder(config["folder"], "lancards node")  # one process per folder (issue 24)
    store = TableStore(config["folder"])
    try:
        journal = store.read()
    except JournalDamaged as exc:
        print(_("error: {error}").format(error=error_words(exc)), file=sys.stderr)
        return 2
    secret = store.load_secret()
    core = GameCore(me, table, secrets.token_bytes, secret_key=secret,
                    envelope_seq=journal.next_envelope)
    mesh = Mesh(me, TransportConfig(ping_interval=2.0, ping_timeout=6.0, backoff_max=1.0))
    host, port = config["listen"]
    await mesh.start(host, int(port))
    node = PeerNode(core, mesh, store)
    node.auto_remove = True  # a bot signs a removal the rules allow (ruling D-5)
    if config.get("timings"):
        node.timings = open(config["timings"], "a", encoding="utf-8")  # noqa: SIM115
    restored = bool(journal.lines) or secret is not None
    if restored:
        node.handle(core.restore(journal.lines, store.load_checkpoint()))
        restored_line = _("restored {count} entries; {lines} journal lines from a "
                          "checkpoint").format(count=len(core.record), lines=core.checkpoint_lines)
        if core.checkpoint_refused:  # the checkpoint's reason, by its code (issue 28)
            restored_line += _(" (checkpoint refused: {reason})").format(
                reason=checkpoint_words(core.checkpoint_refused))
        print(restored_line, flush=True)
    node.connect({bytes.fromhex(k): PeerAddress(h, int(p))
                  for k, (h, p) in config["peers"].items()})
    driver = asyncio.create_task(drive_bot(node, game_bot(core)))
    try:
        await node.run(restored=restored, linger=2.0, deadline=deadline)
    finally:
        driver.cancel()
        try:
            if config.get("record") and node.fault is None:  # a paused seat writes nothing
                write_record(core.record, config["record"])
        finally:
            await node.close()
    for notice in node.notices:
        if notice.kind == "rejected":
            said = notice.text if notice.error is None else error_words(notice.error,
                                                                        move_refused)
            print(_("rejected: {reason}").format(reason=said), file=sys.stderr)
        elif notice.kind == "cheat":
            said = notice_words(core, notice, [m.nick for m in core.players])
            print(_("cheat: {reason}").format(reason=said), file=sys.stderr)
    return 1 if core.halted else 0


def run(args: argparse.Namespace) -> int:
    try:
        config = json.loads(Path(args.config).read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(_("cannot read the config {config}: {exc}").format(
            config=args.config, exc=exc)) from None
    return asyncio.run(run_node(config, args.deadline))
