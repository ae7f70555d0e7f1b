"""Playing a started host/join table: this seat's peer over the mesh, its journal, the
full-screen table or the autoplay bot, and resuming it after a crash (``lancards resume``).

The lobby before the start is in :mod:`lancards.cli.lobby_host` and :mod:`lancards.cli.lobby_join`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lancards.p2p.core import GameCore
from lancards.p2p.errors import PeerError
from lancards.p2p.identity import Identity
from lancards.p2p.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.store import TableStore, data_home
from lancards.p2p.table import StartedTable, verify_started
from lancards.p2p.transport import Mesh, TransportConfig
from lancards.p2p.wire import sign_envelope

if TYPE_CHECKING:
    from lancards.cli.lobby_common import Lobbyist

CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=2.0)
"""The links of a host/join table (seconds)."""


async def play_table(args: argparse.Namespace, me: Identity, table: StartedTable, mesh: Mesh,
                     lobbyist: Lobbyist | None, *, quiet: bool = False,
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
    journal = store.read()  # raises JournalDamaged (one line naming file and line)
    core = GameCore(me, table, secrets.token_bytes, secret_key=secret,
                    envelope_seq=journal.next_envelope)
    node = PeerNode(core, mesh, store)
    if restore is not None:
        node.handle(core.restore(journal.lines))
    for key, address in addrs.items():
        if key != me.public_key:  # from now on the lower key dials whenever no link is up
            mesh.add_peer(key, address.host, address.port,
                          dial=True if getattr(args, "dial_all", False) else None)
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
        session.restored = restore is not None  # "catching up" until current
        return await run_table(session)
    cheat = os.environ.get("LANCARDS_TEST_CHEAT", "")
    status = await _drive(node, args, quiet, cheat, restored=restore is not None)
    dump = os.environ.get("LANCARDS_TEST_DUMP_HAND")
    if dump and not quiet and not core.has_left(core.seat):  # a leaver's: at the leave
        _dump_hand(core, Path(dump))
    return status


def mesh_bind(args: argparse.Namespace) -> str:
    listen = getattr(args, "listen_host", None)
    if listen is not None:
        return str(listen)
    return args.interface[0] if getattr(args, "interface", None) else "0.0.0.0"


async def _drive(node: PeerNode, args: argparse.Namespace, quiet: bool, cheat: str, *,
                 restored: bool = False) -> int:
    from lancards.cli.tui.results import RoundTracker, final_lines

    core = node.core
    names = tuple(m.nick for m in core.players)
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

    def report() -> None:
        nonlocal leave_after
        for line in tracker.observe(core.game.name, core.game.view(core.state, None)):
            print(line.summary, flush=True)
        dump = os.environ.get("LANCARDS_TEST_DUMP_HAND")
        if leave_after and core.has_left(core.seat):
            leave_after = 0  # the hand it leaves with, before a later round deals new slots
            if dump:
                _dump_hand(core, Path(dump))

    if not quiet:
        node.on_change = report
    node.auto_remove = True  # a bot signs a removal the rules allow (ruling D-5)
    run = asyncio.create_task(node.run(linger=1.5, restored=restored))
    driver = asyncio.create_task(
        drive_bot(node, game_bot(core), act=act))
    try:
        await run
    finally:
        driver.cancel()
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


async def resume_remote(folder: Path, me: Identity, args: argparse.Namespace) -> int:
    """Continue a host/join table from its journal after a crash: the full-screen table for a
    person (showing "catching up" until current), or a bot with ``--autoplay``.

    The peer listens where it listened before and links to every seated peer again (the lower
    key dials; every peer accepts seated members at any time), then catches up from whichever
    peers answer.

    Raises:
        JournalDamaged: a complete journal line is damaged (names the file and line).
    """
    store = TableStore(folder)
    data = store.load_table()
    table = verify_started(data["statement"], data["sigs"], "the table file")
    host, port = data["listen"]
    member = next(m for m in table.seats if m.public_key == me.public_key)
    me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), member.nick)
    mesh = Mesh(me, CONFIG)
    dial_all = False
    try:
        await mesh.start(str(host), int(port))
    except PeerError:
        # The old port is taken: listen anywhere and dial every peer ourselves (they still
        # know only the old port).
        await mesh.start(str(host), 0)
        dial_all = True
        print(f"port {port} is taken; listening on {mesh.port} and dialling every peer",
              file=sys.stderr, flush=True)
    ns = argparse.Namespace(interface=[host] if host != "0.0.0.0" else None,
                            record=args.record, autoplay=bool(args.autoplay),
                            dial_all=dial_all)
    return await play_table(ns, me, table, mesh, None, restore=store)
