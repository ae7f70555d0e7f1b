"""The players panel's requirement column on more than one line, so that the own row keeps its
"(you)" (a LAN trial: from round 2 on the German "Drilling + 5 Karten einer Farbe" left no room
for "bea (du)" at 80 columns, and the mark went first). A requirement too wide for its column
goes on at the next line, between its components (``" + "`` ends the first line); the mark is
left out only where a single component is wider than the column."""

from __future__ import annotations

from collections.abc import Sequence

from lancards.cli.tui.width import text_width

JOIN = " + "
"""How :func:`lancards.cli.tui.narrate.requirement` joins a level's components."""


def wrapped(text: str, columns: int) -> list[str] | None:
    """``text`` on lines of at most ``columns`` columns, broken after a ``" +"`` only (as many
    components on a line as fit), or None where one component alone is wider."""
    if text_width(text) <= columns:
        return [text]
    parts = text.split(JOIN)
    lines = [parts[0]]
    for part in parts[1:]:
        if text_width(lines[-1] + JOIN + part) <= columns:
            lines[-1] += JOIN + part
        else:
            lines[-1] += JOIN.rstrip()
            lines.append(part)
    return lines if all(text_width(line) <= columns for line in lines) else None


def wrapped_all(texts: Sequence[str], columns: int) -> list[list[str]] | None:
    """Every one of ``texts`` :func:`wrapped` in ``columns``, or None where one does not fit."""
    out = [wrapped(text, columns) for text in texts]
    return None if any(lines is None for lines in out) else [lines or [] for lines in out]


__all__ = ["wrapped", "wrapped_all"]
