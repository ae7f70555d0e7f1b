"""Auditing a game record file end to end, as a spectator who was not at the table.

:func:`audit_lines` checks the header's start statement and every seat's signature of it, every
entry's signature, number and hash chain (:func:`p2p.record.verify_lines`), and replays every
entry through the engine and the mental-poker deck as an observer: every proof of shuffle, every
decryption share and every card opening is verified, every move is checked against the rules,
every state hash is compared. Breaches found by the rules themselves (reneges in 8s Rule!,
ruling E-8) are listed from the outcome.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lancards.engine.core import Outcome
from lancards.p2p.core import GameCore
from lancards.p2p.errors import PeerError, RecordFileError
from lancards.p2p.record import verify_lines
from lancards.p2p.table import check_record_genesis, verify_started


@dataclass
class AuditReport:
    """The verdict on one record.

    Attributes:
        ok: every check passed.
        game: the rule set's name ("" when the header is unreadable).
        entries: entries verified.
        finished: the game reached its end.
        outcome: the outcome when finished.
        error: the first failure, naming the line and entry (``None`` when ``ok``).
        breaches: rule breaches the rules penalise rather than forbid (reneges), and
            equivocation evidence kept in the file.
        names: the players' names in seat order.
    """

    ok: bool
    game: str = ""
    entries: int = 0
    finished: bool = False
    outcome: Outcome | None = None
    error: str | None = None
    breaches: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def _zero(count: int) -> bytes:
    return bytes(count)


def audit_lines(lines: Sequence[bytes]) -> AuditReport:
    """Audit the lines of a record file (without newlines). Never raises for bad input."""
    try:
        header = json.loads(lines[0]) if lines else None
        if not isinstance(header, dict) or not isinstance(header.get("genesis"), dict):
            raise ValueError("no genesis in the header")
        genesis = header["genesis"]
        table = verify_started(genesis["statement"], genesis["sigs"], "record file")
    except (ValueError, KeyError, TypeError, IndexError, PeerError) as exc:
        return AuditReport(False, error=f"line 1: the header's start statement does not verify: "
                           f"{exc}")
    report = AuditReport(False, game=table.spec.game, names=[str(m) for m in table.seats])
    try:
        observer = GameCore(None, table, _zero)
        record = verify_lines(lines, observer.validator("record file"), check_record_genesis)
    except RecordFileError as exc:
        report.error = str(exc)
        return report
    except PeerError as exc:  # pragma: no cover - verify_lines wraps peer errors
        report.error = str(exc)
        return report
    report.entries = len(record)
    report.ok = True
    outcome = observer.game.outcome(observer.state)
    report.finished = outcome is not None
    report.outcome = outcome
    for evidence in record.evidence:
        report.breaches.append(
            f"equivocation: {record.name(evidence.first.author)} signed two different entries "
            f"numbered {evidence.first.seq}"
        )
    if outcome is not None:
        report.breaches += [str(r) for r in outcome.detail.get("reneges", [])]
    return report


def describe_outcome(report: AuditReport) -> str:
    """One line naming the winners and their final figures."""
    outcome = report.outcome
    if outcome is None:
        return "the game is not finished"
    winners = ", ".join(report.names[s] for s in outcome.winners)
    return f"winner{'s' if len(outcome.winners) > 1 else ''}: {winners}; " \
        f"scores {list(outcome.scores)}"


def report_json(report: AuditReport) -> dict[str, Any]:
    """A JSON-serialisable summary."""
    return {
        "ok": report.ok,
        "game": report.game,
        "entries": report.entries,
        "finished": report.finished,
        "winners": None if report.outcome is None else list(report.outcome.winners),
        "scores": None if report.outcome is None else list(report.outcome.scores),
        "error": report.error,
        "breaches": report.breaches,
    }
