"""Which seat a table halted on as a cheater (``lancards history``, ``lancards resume``): a
table halted on a proven cheat is marked ``finished`` (nothing waits). The halting peer writes
:data:`HALTED` into the table folder first (:func:`save_halt`: the cheater's seat and key and
the halt's kind, atomically), for every kind of halt: a bad proof of shuffle or decryption
share, or a withdrawn vote then begun, leave no evidence line in the record file (the LAN trial
of 2026-12-08 found them listed as ``finished (lancards audit tells the result)``). A folder
without it (written before it existed) is read for the record file's evidence line
(``docs/protocol.md`` section 7): a signed entry the rules refuse (``"kind":"cheat"``) or two
entries of one author with one number (``"kind":"equivocation"``). Only those lines are
decoded; ``lancards audit`` verifies them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lancards.cli.i18n import _
from lancards.p2p.net.storage_faults import storage_error
from lancards.p2p.net.store import replace_file

EVIDENCE_MARKS = (b'"kind":"cheat"', b'"kind":"equivocation"')

HALTED = "halted.json"
"""The file of a table folder that says the table halted on a cheat: ``{"seat": 2, "key":
"<the cheater's Ed25519 key in hex>", "kind": "proof"}`` (``kind``: ``GameCore.halt_kind``)."""


def halt_seat(core: Any) -> int | None:
    """The seat whose cheat halted ``core`` (the cheater of ``core.cheaters`` whose reason is
    the halt's), or None (not halted, or halted naming nobody)."""
    reason = core.halted
    if reason is None:
        return None
    return next((s for s, text in core.cheaters.items() if text == reason), None)


def save_halt(folder: Path, core: Any) -> None:
    """Write :data:`HALTED` into ``folder`` when ``core`` halted naming a cheater (through a
    temporary file, ``fsync``, rename: a crash leaves the file whole or none); nothing
    otherwise. Written before the folder's ``finished`` marker.

    Raises:
        StorageError: it cannot be written.
    """
    seat = halt_seat(core)
    if seat is None:
        return
    data = {"seat": seat, "key": core.players[seat].public_key.hex(), "kind": core.halt_kind}
    path = folder / HALTED
    try:
        replace_file(path, json.dumps(data, sort_keys=True).encode(), 0o600)
    except OSError as exc:
        raise storage_error(exc, path) from None


def cheater_seat(folder: Path, keys: list[str]) -> int | None:
    """The seat (index into ``keys``, the seats' keys in hex) that ``folder``'s table halted on
    as a cheater: :data:`HALTED`'s, else the one its record file's evidence line names; None
    when there is none or it cannot be read."""
    try:
        halted = json.loads((folder / HALTED).read_text("utf-8"))
        if isinstance(halted, dict) and halted.get("key") in keys:
            return keys.index(halted["key"])
    except (OSError, ValueError):
        pass
    try:
        raw = (folder / "record.jsonl").read_bytes()
    except OSError:
        return None
    for row in raw.split(b"\n"):
        if not any(mark in row for mark in EVIDENCE_MARKS):
            continue
        try:
            line = json.loads(row)
            author = (line.get("entry") or line.get("first"))["author"]
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if author in keys:
            return keys.index(author)
    return None


def fork_evidence(folder: Path, key: str) -> dict[str, Any] | None:
    """The fork ``folder``'s record file proves of the seat whose key (hex) is ``key``: its
    evidence line (``{"first": ..., "second": ...}``, two entries the seat signed with one
    number), the entry the file's record holds first, as ``lancards audit`` orders them; None
    when the file holds no such line or cannot be read. Only decoded: the audit verifies."""
    try:
        raw = (folder / "record.jsonl").read_bytes()
    except OSError:
        return None
    held: dict[object, object] = {}
    found = None
    for row in raw.split(b"\n"):
        try:
            if b'"kind":"entry"' in row:
                entry = json.loads(row)["entry"]
                held[entry["seq"]] = entry
            elif found is None and b'"kind":"equivocation"' in row:
                line = json.loads(row)
                if line["first"]["author"] == key and isinstance(line["second"], dict):
                    found = line
        except (ValueError, KeyError, TypeError):
            continue
    if found is None:
        return None
    first, second = found["first"], found["second"]
    if held.get(second.get("seq")) == second:  # the record's own entry first
        first, second = second, first
    return {"first": first, "second": second}


def caught_fork_words(game: str, evidence: dict[str, Any], seat: int, names: Sequence[str],
                      view: Any = None) -> str | None:
    """How a table stopped on a fork is said when its record holds the evidence (the words of
    ``lancards audit``'s cheat line, :func:`~lancards.cli.fork_words.fork_words`, the cards of
    ``view`` named): ``"stopped: eve signed two different moves for the same turn: play R6 and
    play R2"``; None when the evidence holds no two entries."""
    from lancards.cli.fork_words import fork_words, rules_named

    said = fork_words(rules_named(game), evidence, seat, names, view)
    return None if said is None else _("stopped: {cheat}").format(cheat=said)


def caught_words(name: str) -> str:
    """How a table stopped on a proven cheat is said: ``"stopped: Cyd was caught cheating
    (lancards audit shows how)"``."""
    return _("stopped: {name} was caught cheating (lancards audit shows how)").format(
        name=name)


__all__ = ["EVIDENCE_MARKS", "HALTED", "caught_fork_words", "caught_words", "cheater_seat",
           "fork_evidence", "halt_seat", "save_halt"]
