"""Auditing a game record file end to end, as a spectator who was not at the table.

:func:`audit_bytes` reads the file's bytes exactly (every line ends with one newline, no empty
line, nothing after the closing line), checks the header's start statement and every seat's
signature of it, every entry's signature, number and hash chain
(:func:`lancards.p2p.protocol.record.verify_lines`), and replays every entry through the engine and
the mental-poker deck as an observer: every proof of shuffle, every decryption share and every card
opening is verified, every move is checked against the rules, every state hash is compared. The
closing line, signed by a seated peer, binds the number of entries and every evidence line. Breaches
found by the rules themselves (reneges in 8s Rule!, ruling E-8) are listed from the outcome, and
equivocation evidence is listed with the seat it names, and so is a signed entry the rules refuse
(the ``cheat`` line, :mod:`lancards.p2p.protocol.cheat_evidence`) with its author's seat.

The verdict (:attr:`AuditReport.status`): ``ok`` (everything verifies and the game reached its
end), ``unfinished`` (everything present verifies, but the game did not reach its end: halted on
a cheat, abandoned, or the file stops before its closing line), ``rejected`` (some byte does not
verify: the first bad line is named).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lancards.engine.core import Outcome
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import PeerError, RecordFileError
from lancards.p2p.protocol.record import MAX_LINE_BYTES, split_lines, verify_lines
from lancards.p2p.protocol.schemas import GenesisSchema, HeaderLine, conform
from lancards.p2p.protocol.table import StartedTable, check_record_genesis, verify_started
from lancards.p2p.protocol.wire import canonical, parse_json

Status = Literal["ok", "unfinished", "rejected"]


@dataclass
class AuditReport:
    """The verdict on one record.

    Attributes:
        ok: every check passed (the game may be unfinished: see ``status``).
        game: the rule set's name ("" when the header is unreadable).
        entries: entries verified.
        moves: the moves among them (``action`` entries: what a player played; the
            command line counts these, as ``lancards resume`` does).
        finished: the game reached its end.
        outcome: the outcome when finished.
        error: the first failure, naming the line and entry (``None`` when ``ok``), in English.
        problem: the same failure as a :class:`RecordFileError` (its ``line``, ``entry``,
            ``code`` and ``cause``: for words in the player's language), ``None`` when ``ok``.
        breaches: rule breaches the rules penalise rather than forbid (reneges), and
            equivocation evidence kept in the file.
        names: the players' names in seat order.
    """

    ok: bool
    game: str = ""
    entries: int = 0
    moves: int = 0
    finished: bool = False
    outcome: Outcome | None = None
    error: str | None = None
    problem: RecordFileError | None = None
    breaches: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    cheats: list[dict[str, Any]] = field(default_factory=list)
    """The cheat that halted the table, proven by a signed entry the rules refuse (the
    record's ``cheat`` line): ``seat``, ``entry`` (its number), ``reason`` (``"illegal"``),
    ``detail`` (the refusal in English, the move and the engine's sentence)."""
    forks: list[dict[str, Any]] = field(default_factory=list)
    """Each equivocation kept in the file (a seat signed two different entries with one
    number): ``seat``, ``entry`` (the number), ``first`` and ``second`` (the two entries as
    dicts, the one the record holds first: the command line says both moves), ``before`` (the
    public view just before that entry when it is the last verified one, else None: the
    command line names the top card of a discard pile a move draws from); not in
    :func:`report_json`, whose ``breaches`` list them in a sentence."""
    cheat_causes: list[BaseException | None] = field(default_factory=list)
    """What refused each of :attr:`cheats` (the engine's error, with its ``code`` and ``params``:
    the command line says it in words; an out-of-turn refusal itself, naming the seat that was
    due), or ``None``; not in :func:`report_json`."""
    cheat_entries: list[dict[str, Any]] = field(default_factory=list)
    """The signed entry of each of :attr:`cheats`, as a dict (the command line says its move);
    not in :func:`report_json`."""
    view: Any = None
    """The game's public view after the last verified entry (the command line names the cards
    a move gives by slot only, such as the one an "I'll take that!" choice takes), or None;
    not in :func:`report_json`."""
    status: Status = "rejected"
    """``ok``, ``unfinished`` or ``rejected`` (see the module docstring)."""
    unfinished: str | None = None
    follows: dict[str, Any] | None = None
    """A rematch's ``follows``: the game it follows (``tbl``, ``head``), ``series``, ``game``
    (its number in the series); every seat's signed "yes" to it verified with the start."""
    """Why an ``unfinished`` record is so, in one sentence."""
    closed_by: str | None = None
    """The seated peer that signed the closing line, when there is one."""
    halted: list[bytes] | None = None
    """The lines read, when a record closed after a halt on a bad proof of shuffle taken
    before its check is read as halted on that cheat (:func:`halted_lines`): a replay plays
    these; not in :func:`report_json`."""


def header_table(line: bytes) -> StartedTable:
    """The started table of a record file's header line (schema-checked, signatures verified).

    Raises:
        PeerError: the header or its start statement does not verify.
    """
    header = conform(parse_json(line, "record file", max_size=MAX_LINE_BYTES), HeaderLine,
                     "record file", "header")
    genesis = conform(header.genesis, GenesisSchema, "record file", "genesis")
    return verify_started(genesis.statement, genesis.sigs, "record file")


def audit_bytes(data: bytes) -> AuditReport:
    """Audit a record file's bytes exactly (see the module docstring). Never raises for bad
    input: any changed, added or removed byte is a ``rejected`` report naming the line, except
    a file cut short in the middle of a line (its last line has no newline) whose whole lines
    verify and hold no closing line: that is ``unfinished`` (the bytes that are there are
    the table's; what is missing cannot be judged), as a file cut at a line's end is."""
    try:
        lines = split_lines(data)
    except RecordFileError as exc:
        if exc.code != "no-newline" or b"\n" not in data:
            return AuditReport(False, error=str(exc), problem=exc)
        report = audit_lines(split_lines(data[:data.rindex(b"\n") + 1]))
        if report.status != "unfinished" or report.closed_by is not None:
            # bytes after a closing line, or whole lines that do not verify
            return report if report.status == "rejected" else \
                AuditReport(False, error=str(exc), problem=exc)
        report.unfinished = (f"the record is cut in the middle of line {exc.line} (the "
                             f"{exc.line - 1} lines before it verify)")
        return report
    return audit_lines(lines)


def audit_lines(lines: Sequence[bytes]) -> AuditReport:
    """Audit the lines of a record file (without newlines). Never raises for bad input."""
    try:
        if not lines:
            raise RecordFileError(1, None, "the file is empty").with_code("empty")
        table = header_table(lines[0])
    except PeerError as exc:
        return AuditReport(False, error="record file line 1: not a lancards game record (its "
                           f"first line must be the signed start of a table): {exc}",
                           problem=RecordFileError(1, None, str(exc), exc).with_code("header"))
    report = AuditReport(False, game=table.spec.game, names=[str(m) for m in table.seats])
    follows = table.statement.get("follows")
    if follows:  # a rematch: the game it follows (issue 27)
        report.follows = {k: follows[k] for k in ("tbl", "head", "series", "game")}
    try:
        observer = GameCore.observer(table)
        record = verify_lines(lines, observer.validator("record file"), check_record_genesis)
    except RecordFileError as exc:
        report.error = str(exc)
        report.problem = exc
        return _halted_on_pipelined_cheat(lines, report) or report
    report.entries = len(record)
    report.moves = sum(1 for e in record.entries if e.payload.get("t") == "action")
    report.ok = True
    outcome = observer.game.outcome(observer.state)
    report.finished = outcome is not None
    report.outcome = outcome
    for evidence in record.evidence:
        report.breaches.append(
            f"equivocation: {record.name(evidence.first.author)} signed two different entries "
            f"numbered {evidence.first.seq + 1}"  # counted from 1 (its seq: ``forks``)
        )
        seq = evidence.first.seq  # the record's own entry first, when it holds one of them
        held = seq < len(record) and record.entries[seq] == evidence.second
        first, second = (evidence.second, evidence.first) if held else \
            (evidence.first, evidence.second)
        report.forks.append({"seat": record.seat_of(first.author), "entry": seq,
                             "first": first.to_dict(), "second": second.to_dict(),
                             "before": observer.state_before(seq)})
    for cheat in record.cheats:
        seat = record.seat_of(cheat.entry.author)
        report.cheats.append({"seat": seat, "entry": cheat.entry.seq, "reason": cheat.reason,
                              "detail": cheat.detail})
        report.cheat_causes.append(cheat.cause)
        report.cheat_entries.append(cheat.entry.to_dict())
    report.view = observer.game.view(observer.state, None)
    if outcome is not None:
        report.breaches += [str(r) for r in outcome.detail.get("reneges", [])]
    if record.closed_by is not None:
        report.closed_by = record.name(record.closed_by)
    if record.closed_by is None:
        report.status = "unfinished"
        report.unfinished = (f"the record stops after line {len(lines)} without its signed "
                             "closing line (cut short, or still being played)")
    elif outcome is None:
        report.status = "unfinished"
        halted = bool(record.evidence or record.cheats)
        report.unfinished = ("the table halted on a cheat" if halted else
                             "the game stopped before its end")
    else:
        report.status = "ok"
    return report


def _halted_on_pipelined_cheat(lines: Sequence[bytes], report: AuditReport
                               ) -> AuditReport | None:
    """A record a seat closed after halting on a bad proof of shuffle it had taken before
    checking it (pipelining, ``docs/protocol.md`` 11.2): the signed entry is an ``entry`` line
    and the closing line counts it. Read as the table halted on that cheat (``unfinished``, the
    cheater in :attr:`AuditReport.cheats`) when every line but that entry's verifies with the
    rules, the entry is a cheat line's evidence (:func:`halted_lines`), and a signed closing
    line binds it and the entries taken after it unchecked (the epoch's later shuffles: their
    signatures and chain verify, the rules are not replayed past the cheat). Before,
    ``lancards audit`` said ``REJECTED`` (exit 1) of such an honest record, naming the cheater
    only inside the peer layer's sentence (``proof of shuffle by seat 2 in epoch 2
    rejected``: the LAN trial of 2026-12-08 with a seated attacker, h1). None otherwise."""
    halted = halted_lines(lines, report)
    if halted is None:
        return None
    cheat = parse_json(halted[-1], "record file", max_size=MAX_LINE_BYTES)
    if not isinstance(cheat, dict) or cheat["entry"].get("payload", {}).get("t") != "shuffle":
        return None  # only a proof of shuffle is taken before its check
    try:
        closed = verify_lines(lines, None, check_record_genesis)  # signatures, chain, close
    except PeerError:
        return None
    if closed.closed_by is None:
        return None
    again = audit_lines(halted)
    again.closed_by = closed.name(closed.closed_by)
    again.unfinished = "the table halted on a cheat"
    again.halted = list(halted)
    return again


def halted_lines(lines: Sequence[bytes], report: AuditReport) -> list[bytes] | None:
    """The lines of a record ``report`` rejects on a signed entry the rules refuse, read as a
    table halted on that cheat: the lines before it, then the entry as a ``cheat`` line
    (:mod:`~lancards.p2p.protocol.cheat_evidence`), which :func:`audit_lines` takes as
    ``unfinished`` with the cheater in :attr:`AuditReport.cheats`. A peer that takes a proof
    of shuffle into its record before checking it (pipelining, ``docs/protocol.md``) halts
    on a bad one with the entry already an ``entry`` line: ``lancards replay`` plays such a
    record up to it. None when the rejected line is not such an entry (a changed byte, a
    broken chain, a bad signature: the audit of the new lines would not verify)."""
    problem = report.problem
    if report.ok or problem is None or problem.entry is None or \
            not 1 < problem.line <= len(lines):
        return None
    try:
        data = parse_json(lines[problem.line - 1], "record file", max_size=MAX_LINE_BYTES)
    except PeerError:
        return None
    if not isinstance(data, dict) or data.get("kind") != "entry":
        return None
    halted = [*lines[:problem.line - 1], canonical({"entry": data.get("entry"), "kind": "cheat"})]
    again = audit_lines(halted)
    return halted if again.ok and again.cheats else None


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
        "status": report.status,
        "unfinished": report.unfinished,
        "closed_by": report.closed_by,
        "game": report.game,
        "entries": report.entries,
        "moves": report.moves,
        "finished": report.finished,
        "winners": None if report.outcome is None else list(report.outcome.winners),
        "scores": None if report.outcome is None else list(report.outcome.scores),
        "error": report.error,
        "breaches": report.breaches,
        "cheats": report.cheats,
        "follows": report.follows,
    }
