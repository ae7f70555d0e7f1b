"""Text widths as the terminal shows them (issue 25, item 11).

A CJK character or an emoji takes two columns, a combining mark none: prompt-toolkit measures
with ``wcwidth`` (:func:`prompt_toolkit.utils.get_cwidth`), and so does every column, padding
and cut of the screens, so that a nickname like 山田太郎 keeps the players panel aligned.
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

NAME_COLUMNS = 32
"""The columns a nickname column gives a name: 16 wide characters (``lancards play`` takes
nicknames of up to 16 characters); a wider name is cut with :data:`ELLIPSIS`."""

ELLIPSIS = "…"
"""The sign that a text was cut to fit its column."""


def text_width(text: str) -> int:
    """The columns ``text`` takes on a terminal (a control character counts 0)."""
    return sum(max(0, get_cwidth(ch)) for ch in text)


def cut(text: str, columns: int) -> str:
    """The longest start of ``text`` that fits in ``columns`` columns; when something was cut,
    its last column is :data:`ELLIPSIS` (so nothing is cut without a sign)."""
    if text_width(text) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        w = max(0, get_cwidth(ch))
        if used + w > columns - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + ELLIPSIS if columns >= 1 else ""


def pad(text: str, columns: int) -> str:
    """``text`` cut to ``columns`` columns (:func:`cut`) and filled with spaces to exactly
    ``columns`` columns (a left-aligned column)."""
    text = cut(text, columns)
    return text + " " * (columns - text_width(text))


def pad_left(text: str, columns: int) -> str:
    """``text`` right-aligned in ``columns`` columns (not cut)."""
    return " " * max(0, columns - text_width(text)) + text
