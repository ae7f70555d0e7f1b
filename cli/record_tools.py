"""``lancards audit FILE`` and ``lancards replay FILE``: check or step through a game record."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.history import record_path
from lancards.cli.i18n import _
from lancards.p2p.protocol.audit import (
    audit_bytes,
    audit_lines,
    describe_outcome,
    header_table,
    report_json,
)

EXIT_OK, EXIT_REJECTED, EXIT_UNREADABLE, EXIT_UNFINISHED = 0, 1, 2, 3
"""``lancards audit`` exit statuses."""


def _read_bytes(path: str) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {strerror}").format(
            path=path, strerror=exc.strerror)) from None
    if not data:
        raise UsageError(_("{path} is empty: not a game record").format(path=path))
    return data


def _read(path: str) -> list[bytes]:
    return _read_bytes(path).rstrip(b"\n").split(b"\n")


def add_parser(sub: Any) -> None:
    audit = sub.add_parser(
        "audit",
        help=_("verify a game record end to end and print a verdict"),
        description=_("Verify a game record: signatures, hash chain, every proof, every move "
          "replayed through the engine, reneges at round ends. Exit 0 when it verifies, 1 when "
          "it does not (REJECTED: some byte does not verify), 2 when the file cannot be read, 3 "
          "when everything verifies but the game is unfinished (halted on a cheat, abandoned, or "
          "the file stops before its signed closing line)."),
    )
    audit.add_argument("file", help=_("the record file (from --record or the table folder), or "
                         "a game of lancards history: its number (1 = newest) or table id"))
    audit.add_argument("--json", action="store_true", help=_("print the verdict as JSON"))
    audit.set_defaults(run=run_audit)
    replay = sub.add_parser(
        "replay",
        help=_("step through a finished game in public view"),
        description=_("Print every move of a verified game record in public view; with --step, "
          "wait for Enter between moves; with --positions, the position text after each move."),
    )
    replay.add_argument("file", help=_("the record file, or a game of lancards history: its "
                          "number (1 = newest) or table id"))
    replay.add_argument("--step", action="store_true", help=_("wait for Enter after each move"))
    replay.add_argument("--positions", action="store_true",
                        help=_("print the whole public position (docs/engine.md) after every move"))
    replay.set_defaults(run=run_replay)


def run_audit(args: argparse.Namespace) -> int:
    report = audit_bytes(_read_bytes(record_path(args.file)))
    if args.json:
        print(json.dumps(report_json(report)))
    elif report.status == "ok":
        print(f"OK: {report.game}, {report.entries} entries verified, game finished; "
              f"{describe_outcome(report)}")
    elif report.status == "unfinished":
        print(f"UNFINISHED: {report.game}, {report.entries} entries verified; "
              f"{report.unfinished}")
    else:
        print(f"REJECTED: {report.error}")
    if report.ok and not args.json:
        for breach in report.breaches:
            print(f"rule breach: {breach}")
    return {"ok": EXIT_OK, "unfinished": EXIT_UNFINISHED}.get(report.status, EXIT_REJECTED)


def public_summary(state: Any) -> str:
    """One line of what everyone sees: hand sizes, and the round's public situation."""
    hands = "/".join(str(len(h)) for h in state.hands)
    if hasattr(state, "melds"):  # Level 8
        tops = " ".join(str(state.cards.get(d[-1], "?")) if d else "-" for d in state.discards)
        levels = "/".join(str(level) if level < 9 else "WIN" for level in state.levels)
        return (f"round {state.round} · levels {levels} · hands {hands} · draw pile "
                f"{len(state.pile)} · discard tops {tops} · melds {len(state.melds)}")
    totals = "/".join(str(t) for t in state.totals())
    return f"round {state.round} · hands {hands} · tricks {len(state.trick_winners)} · " \
        f"totals {totals}"


def _told(observer: Any, before: Any, notation: str, names: list[str]) -> list[str]:
    """A move of the record in words, cards by name as a spectator sees them
    (:func:`lancards.cli.tui.narrate.narrate`); the record's notation if it cannot be told."""
    from lancards.cli.tui.narrate import narrate
    from lancards.engine.core import EngineError

    game = observer.game
    try:
        action = game.parse_action(notation)
        return narrate(game.name, before, action, observer.state, names, -1) or [notation]
    except (EngineError, LookupError, TypeError, ValueError):
        return [notation]


def run_replay(args: argparse.Namespace) -> int:
    from lancards.engine.position import write_position
    from lancards.p2p.protocol.core import GameCore
    from lancards.p2p.protocol.record import Entry

    lines = _read(record_path(args.file))
    report = audit_lines(lines)
    if not report.ok:
        raise UsageError(_("the record does not verify: {error}").format(error=report.error))
    table = header_table(lines[0])
    observer = GameCore.observer(table)
    record = table.new_record()
    names = [m.nick for m in table.seats]
    print(f"{report.game}: {', '.join(report.names)}")
    move = 0
    for line in lines[1:]:
        item = json.loads(line)
        if item.get("kind") != "entry":
            continue
        entry = Entry.from_dict(item["entry"], "record file")
        before = observer.state
        record.append(entry, observer.validator("record file"))
        payload = entry.payload
        author = names[record.seat_of(entry.author) or 0]
        if payload.get("t") == "action":
            move += 1
            for sentence in _told(observer, before, str(payload["a"]), names):
                print(f"{move:4d}  {sentence}")
            print(f"      {public_summary(observer.state)}")
            if args.positions:
                print(write_position(observer.game, observer.state))
            if args.step and sys.stdin.isatty():
                input()
        elif payload.get("t") == "shuffle":
            print(f"      {author:>10}  shuffles and proves the shuffle")
        elif payload.get("t") == "leave":
            print(f"      {author} leaves the table (for good; the hand goes out of play "
                  "unopened)")
            print(f"      {public_summary(observer.state)}")
        elif payload.get("t") == "rescue":  # ruling D-5 (docs/protocol.md 11.10)
            gone = names[int(payload["seat"])]
            if payload.get("votes"):
                signers = [names[record.seat_of(bytes.fromhex(v["by"])) or 0]
                           for v in payload["votes"]]
                print(f"      {', '.join(signers)} signed the removal of {gone}, who vanished")
            print(f"      {author:>10}  publishes its rescue shares for {gone}")
            if observer.has_left(int(payload["seat"])):
                print(f"      {gone} is removed from the table (the hand goes out of play "
                      "unopened)")
                print(f"      {public_summary(observer.state)}")
    print(describe_outcome(report))
    return 0
