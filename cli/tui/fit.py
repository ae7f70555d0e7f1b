"""Panels that never lose text: long lines wrap, and a panel taller than its room scrolls with a
visible "more" mark.

:class:`FitControl` is a prompt-toolkit ``UIControl`` drawn from a function of the width (a list
of formatted lines). It knows the exact room it is given (``create_content(width, height)``), so
it wraps every line at the width (at a space when one is near, continuation lines indented) and,
when the lines are more than the rows, shows a window of them with a mark line saying how many
lines are hidden above or below and which keys scroll. A log anchors at its end (the newest
line shows; scrolling goes back in time); a panel anchors at its top.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from typing import TextIO

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.layout.controls import GetLinePrefixCallable, UIContent, UIControl

from lancards.cli.i18n import NO_BREAK, _
from lancards.cli.tui.width import cut, text_width

Lines = list[StyleAndTextTuples]
INDENT = "   "
"""What a wrapped line's continuation starts with."""


def to_lines(text: StyleAndTextTuples) -> Lines:
    """Formatted text split at its newlines (a trailing newline adds no empty line)."""
    lines = [list(line) for line in split_lines(text)]
    if len(lines) > 1 and not any(t for _style, t, *_rest in lines[-1]):
        lines.pop()
    return lines


def line_length(line: StyleAndTextTuples) -> int:
    """How many columns ``line`` takes as the terminal shows it (a wide character two,
    :func:`lancards.cli.tui.width.text_width`)."""
    return sum(text_width(fragment[1]) for fragment in line)


def _fitting(chars: list[tuple[str, str]], room: int) -> int:
    """How many of ``chars`` fit in ``room`` columns (at least one)."""
    used = 0
    for i, (_style, ch) in enumerate(chars):
        used += text_width(ch)
        if used > room:
            return max(1, i)
    return len(chars)


def _cuttable(chars: list[tuple[str, str]], i: int) -> bool:
    """Whether the wrap may cut at ``chars[i]``: a space, but not the one between a number and
    a one-letter unit (``3 s``: the trial of 2026-12-07 read ``... 3`` then ``   s``), nor a
    :data:`NO_BREAK`."""
    if chars[i][1] != " ":
        return False
    unit = i + 1 < len(chars) and chars[i + 1][1].isalpha() and (
        i + 2 == len(chars) or not chars[i + 2][1].isalnum())
    return not (unit and i > 0 and chars[i - 1][1].isdigit())


def wrap_line(line: StyleAndTextTuples, width: int) -> Lines:
    """``line`` cut into pieces of at most ``width`` columns (as the terminal shows them), at a
    space when one is in the last half of the piece (:func:`_cuttable`: never inside ``3 s``
    nor at a :data:`NO_BREAK`, which shows as a space); continuation pieces start with
    :data:`INDENT`. Nothing is lost."""
    chars = [(fragment[0], ch) for fragment in line for ch in fragment[1]]
    if width <= len(INDENT) + 1 or line_length(line) <= width:
        out: Lines = []
        while chars or not out:
            n = _fitting(chars, max(width, 1)) if chars else 0
            out.append(_join(chars[:n]))
            chars = chars[n:]
        return out
    out = []
    first = True
    while chars:
        room = width if first else width - len(INDENT)
        n = _fitting(chars, room)
        if n == len(chars):
            piece, chars = chars, []
        else:
            cut = next((i for i in range(n, n // 2, -1) if _cuttable(chars, i)), None)
            if cut is None:
                piece, chars = chars[:n], chars[n:]
            else:
                piece, chars = chars[:cut], chars[cut + 1:]
        out.append(_join(piece) if first else [("", INDENT), *_join(piece)])
        first = False
    return out


def _join(chars: list[tuple[str, str]]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for style, ch in chars:
        ch = " " if ch == NO_BREAK else ch
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return out


RULING = re.compile(r" ?\((?:rulings?|Regeln?) [A-Z0-9]+-[0-9]+[^)]*\)"
                    r"|[;,] (?:rulings?|Regeln?) [A-Z0-9]+-[0-9]+(?:\.\.[0-9]+)?"
                    r"(?:, [A-Z0-9]+-[0-9]+)*")
"""A ruling reference in a text (``(ruling E-4)``, ``; ruling E-7``, German ``(Regel E-4)``):
the rulings are for ``docs/``, the table says things in words (issue 25; the German ones
showed until the trial of 2026-12-05). A last guard: no catalogue message names a ruling
(``tests/cli/test_no_ruling_ids.py``), but an engine sentence shown as it is may."""


def wrap_text(text: str, width: int) -> list[str]:
    """Every line of ``text`` wrapped as :func:`wrap_line` wraps it, at ``width`` columns."""
    return ["".join(fragment[1] for fragment in piece)
            for line in text.split("\n") for piece in wrap_line([("", line)], width)]


def wrap_indented(text: str, width: int) -> list[str]:
    """Every line of ``text`` wrapped as :func:`wrap_text` wraps it, each under its own leading
    spaces: a continuation line starts :data:`INDENT` further in than its line (``replay``'s
    ``      round 1 · levels ...`` goes on under ``round``, not under the move numbers)."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        lead = " " * (len(line) - len(body))
        out += [lead + piece for piece in wrap_text(body, max(width - len(lead), 2 * len(INDENT)))]
    return out


def echo(text: str, file: TextIO | None = None) -> None:
    """Print ``text``: to a terminal wrapped at its width, at a space (:func:`wrap_indented`),
    so that a line printed once the full-screen table closed, or by ``audit`` and ``replay``,
    is not cut mid-word at the last column (the new-user trial of 2026-12-06: ``Cleo: 0 wins,
    8`` / ``5 points``; of 2026-12-07: ``Bram [YQI2-TJEK`` / ``-K272-SZPY]``); into a pipe or a
    file as it is. A :data:`NO_BREAK` prints as a space either way (the evening line's
    entries hold them: a wrap cuts between the players' entries only)."""
    out = sys.stdout if file is None else file
    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty():
        text = "\n".join(wrap_indented(text, shutil.get_terminal_size().columns))
    print(text.replace(NO_BREAK, " "), file=out, flush=True)


def plain(text: str) -> str:
    """``text`` without its ruling references (:data:`RULING`)."""
    return RULING.sub("", text) if "ruling" in text or "Regel" in text else text


def wrap_all(lines: Lines, width: int) -> Lines:
    """Every line wrapped at ``width``, its ruling references dropped (:func:`plain`)."""
    lines = [[(f[0], plain(f[1]), *f[2:]) for f in line] for line in lines]
    return [piece for line in lines for piece in wrap_line(line, width)]


def titled_panel(fits: str, scrolls: str, body: Lines, width: int = 0,
                 rows: int | None = None) -> Lines:
    """A whole-screen panel (``?``, ``o``): its title line, then ``body``. The title is
    ``fits`` (``keys (any key closes)``) when the panel fits ``rows`` rows at ``width``
    columns or ``rows`` is not given, else ``scrolls`` (``keys (Up/Down scroll, any other key
    closes)``): a :class:`FitControl` gives the room (``get_sized``) when the panel is taller
    (a new-user trial read "Up/Down scroll" over a list that did not scroll)."""
    short: Lines = [[("class:picker.title", f" {fits} ")], *body]
    if rows is None or len(wrap_all(short, width)) <= rows:
        return short
    return [[("class:picker.title", f" {scrolls} ")], *body]


SCROLL_KEYS = {"up": -1.0, "down": 1.0, "pgup": -1.0, "pgdn": 1.0, "k": -1.0, "j": 1.0}
"""Keys that scroll an open panel (help, objective, a result, the rules page), in pages
(:meth:`FitControl.scroll_by`): a page each, its rows less one (the new-user trial read 7
lines a key of a 24-row help)."""


class FitControl(UIControl):
    """A panel drawn from ``get_lines(width)``; see the module docstring.

    Args:
        get_lines: the panel's lines for a width (before wrapping).
        anchor_bottom: show the end when not scrolled (a log); else the top.
        keys: the scroll keys named in the mark line (``"PgUp/PgDn"``).
        key: what identifies the lines' content (any value compared with ``==``); with it, the
            wrapped lines are reused until it changes.
        get_sized: the lines for the exact room ``(width, rows)`` once it is known (a picker
            keeps its highlighted choice in view); ``get_lines`` still gives the wanted height.
        style: a style for the mark line.

    Attributes:
        scroll: lines scrolled away from the anchor (clamped at every draw).
        page: the rows of text shown at the last draw (a page for the scroll keys).
    """

    def __init__(self, get_lines: Callable[[int], Lines], *, anchor_bottom: bool = False,
                 keys: str = "PgUp/PgDn", style: str = "class:more",
                 key: Callable[[], object] | None = None,
                 get_sized: Callable[[int, int], Lines] | None = None) -> None:
        self.get_lines = get_lines
        self.get_sized = get_sized
        self.key = key
        self._cached: tuple[object, Lines] | None = None
        self.anchor_bottom = anchor_bottom
        self.keys = keys
        self.style = style
        self.scroll = 0
        self.page = 1
        self.hidden = 0
        self._seen = (0, 0)  # (width, line count) at the last draw

    def wrapped(self, width: int) -> Lines:
        """The panel's lines wrapped at ``width`` (kept while ``key()`` and the width stay the
        same, when a ``key`` is given: a long log is wrapped once per change, not per draw)."""
        if self.key is None:
            return wrap_all(self.get_lines(width), width)
        stamp = (self.key(), width)
        if self._cached is None or self._cached[0] != stamp:
            self._cached = (stamp, wrap_all(self.get_lines(width), width))
        return self._cached[1]

    def preferred_height(self, width: int, max_available_height: int, wrap_lines: bool,
                         get_line_prefix: GetLinePrefixCallable | None) -> int | None:
        return len(self.wrapped(width))

    def is_focusable(self) -> bool:
        return False

    def scroll_by(self, pages: float) -> None:
        """Scroll ``pages`` pages away from the anchor (negative: towards it)."""
        self.scroll = max(0, self.scroll + int(pages * max(1, self.page - 1)))

    def create_content(self, width: int, height: int | None) -> UIContent:
        lines = self.wrapped(width)
        rows = height if height is not None else len(lines)
        if self.get_sized is not None and rows < len(lines):
            lines = wrap_all(self.get_sized(width, rows), width)
        shown = self.window(lines, max(1, rows), width)
        return UIContent(get_line=lambda i: shown[i] if i < len(shown) else [],
                         line_count=len(shown), show_cursor=False)

    def window(self, lines: Lines, rows: int, width: int) -> Lines:
        """The lines shown in ``rows`` rows, with the mark line when some are hidden.

        A log scrolled back (``anchor_bottom``, :attr:`scroll` above 0) holds still on the
        lines shown while new lines come (they count in the "more below" mark); scrolled back
        to its end (:attr:`scroll` 0) it follows the new lines again (issue 25, item 6)."""
        seen, self._seen = self._seen, (width, len(lines))
        if self.anchor_bottom and self.scroll > 0 and seen[0] == width and len(lines) > seen[1]:
            self.scroll += len(lines) - seen[1]
        self.hidden = max(0, len(lines) - rows)
        if not self.hidden:
            self.scroll, self.page = 0, rows
            return lines
        text_rows = max(1, rows - 1)
        self.page = text_rows
        extra = len(lines) - text_rows
        self.scroll = min(self.scroll, extra)
        start = extra - self.scroll if self.anchor_bottom else self.scroll
        above, below = start, len(lines) - start - text_rows
        parts = []
        if above:
            parts.append("▲ " + _("{count} more above").format(count=above))
        if below:
            parts.append("▼ " + _("{count} more below").format(count=below))
        mark = f" {' · '.join(parts)} ({_(self.keys)}) "
        mark_line: StyleAndTextTuples = [(self.style, cut(mark, width))]
        body = lines[start:start + text_rows]
        return [mark_line, *body] if self.anchor_bottom else [*body, mark_line]
