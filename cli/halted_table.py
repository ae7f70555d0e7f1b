"""Which seat a table folder's record names a cheater (``lancards history``, ``lancards
resume``): a table halted on a proven cheat is marked ``finished`` (nothing waits), and its
record file holds the evidence line (``docs/protocol.md`` section 7): a signed entry the rules
refuse (``"kind":"cheat"``) or two entries of one author with one number
(``"kind":"equivocation"``). Only those lines are decoded; ``lancards audit`` verifies them."""

from __future__ import annotations

import json
from pathlib import Path

from lancards.cli.i18n import _

EVIDENCE_MARKS = (b'"kind":"cheat"', b'"kind":"equivocation"')


def cheater_seat(folder: Path, keys: list[str]) -> int | None:
    """The seat (index into ``keys``, the seats' keys in hex) that ``folder``'s record file
    names a cheater in its evidence line; None when there is none or it cannot be read."""
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


def caught_words(name: str) -> str:
    """How a table stopped on a proven cheat is said: ``"stopped: Cyd was caught cheating
    (lancards audit shows how)"``."""
    return _("stopped: {name} was caught cheating (lancards audit shows how)").format(
        name=name)


__all__ = ["caught_words", "cheater_seat"]
