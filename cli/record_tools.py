"""``lancards audit FILE`` and ``lancards replay FILE``: check or step through a game record."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from p2p.audit import audit_lines, describe_outcome, report_json


def _read(path: str) -> list[bytes]:
    from cli.main import UsageError

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    if not data.strip():
        raise UsageError(f"{path} is empty: not a game record")
    return data.rstrip(b"\n").split(b"\n")


def add_parser(sub: Any) -> None:
    audit = sub.add_parser(
        "audit",
        help="verify a game record end to end and print a verdict",
        description="Verify a game record: signatures, hash chain, every proof, every move "
        "replayed through the engine, reneges at round ends. Exit 0 when it verifies, 1 when "
        "it does not, 2 when the file cannot be read.",
    )
    audit.add_argument("file", help="the record file (from --record or the table folder)")
    audit.add_argument("--json", action="store_true", help="print the verdict as JSON")
    audit.set_defaults(run=run_audit)
    replay = sub.add_parser(
        "replay",
        help="step through a finished game in public view",
        description="Print every move of a verified game record in public view; with --step, "
        "wait for Enter between moves.",
    )
    replay.add_argument("file", help="the record file")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each move")
    replay.set_defaults(run=run_replay)


def run_audit(args: argparse.Namespace) -> int:
    report = audit_lines(_read(args.file))
    if args.json:
        print(json.dumps(report_json(report)))
    elif report.ok:
        state = "finished" if report.finished else "not finished"
        print(f"OK: {report.game}, {report.entries} entries verified, game {state}; "
              f"{describe_outcome(report)}")
        for breach in report.breaches:
            print(f"rule breach: {breach}")
    else:
        print(f"REJECTED: {report.error}")
    return 0 if report.ok else 1


def run_replay(args: argparse.Namespace) -> int:
    from cli.main import UsageError

    lines = _read(args.file)
    report = audit_lines(lines)
    if not report.ok:
        raise UsageError(f"the record does not verify: {report.error}")
    header = json.loads(lines[0])
    nicks = header.get("nicks", [])
    seats = header.get("seats", [])
    print(f"{report.game}: {', '.join(report.names)}")
    move = 0
    for line in lines[1:]:
        item = json.loads(line)
        if item.get("kind") != "entry":
            continue
        entry = item["entry"]
        payload = entry["payload"]
        author = nicks[seats.index(entry["author"])] if entry["author"] in seats else "?"
        if payload.get("t") == "action":
            move += 1
            print(f"{move:4d}  {author:>10}  {payload['a']}")
        elif payload.get("t") == "shuffle":
            print(f"      {author:>10}  shuffles and proves the shuffle")
        if args.step and payload.get("t") == "action" and sys.stdin.isatty():
            input()
    print(describe_outcome(report))
    return 0
