"""What every screen a person reads must be at 80x24 (the persona suite,
``tests/e2e/test_persona.py``, and the tmux tests of ``lancards play``): :func:`check_fits`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lancards.cli.tui.width import text_width

COLUMNS, ROWS = 80, 24

WORD = re.compile(r"[\w\])]")
"""A character a word or a bracketed name ends with."""

KEY_LINE_END = re.compile(r" · [?qho] \w+$")
"""How the key line ends when ``cli.tui.words.key_line`` fills it to the 80th column: one of its
extras whole (`` · ? keys``, `` · q quit``, `` · h hint``, `` · o goal``; German `` · q
beenden``, `` · h Tipp``...), never a word cut at the edge."""


def check_fits(screen: str, where: str = "", whole: Iterable[str] = ()) -> None:
    """No line of ``screen`` is cut or wrapped at 80 columns, and it has 24 rows at most.

    A line that fills the 80th column ending in a letter, a digit or a closing bracket is text
    the terminal wrapped, or text cut at the edge, unless it is known whole:

    - the next line goes on at column 1 (no space before it): the terminal wrapped the line
      mid-word (the screens start every line with a space), whatever else is known;
    - the next line is indented (three spaces or more): the screen wrapped its own long line at
      a space (:func:`lancards.cli.tui.fit.wrap_line`), so the full line ends at a word's end;
    - the line is one of ``whole`` (the caller's expected text of a line that fills the width:
      the German leave dialog's pause line ``j oder p: Pause: ... bringt dich zurück)``, the
      Skip target picker's title), compared without trailing spaces: a line cut at the edge
      differs from its expected text, and one the terminal wrapped has a next line at column 1;
    - the screen's last line is the key line ending in one of its extras whole
      (:data:`KEY_LINE_END`): ``cli.tui.words.key_line`` fills it so by design.

    Raises:
        AssertionError: naming the line and the screen.
    """
    known = {line.rstrip() for line in whole}
    lines = screen.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    assert len(lines) <= ROWS, f"{where}: {len(lines)} rows\n{screen}"
    for i, line in enumerate(lines):
        width = text_width(line.rstrip())
        assert width <= COLUMNS, f"{where}: line {i + 1} is {width} columns\n{screen}"
        if width < COLUMNS or not WORD.match(line.rstrip()[-1]):
            continue
        after = lines[i + 1] if i + 1 < len(lines) else ""
        assert not after[:1].strip(), (
            f"{where}: line {i + 1} fills the 80 columns and the next goes on at column 1 "
            f"(wrapped mid-word)\n{line!r}\n{after!r}\n{screen}")
        if line.rstrip() in known or (i + 1 == len(lines) and KEY_LINE_END.search(line.rstrip())):
            continue  # a whole line the caller expects, or the key line made to fit by key_line
        indented = after.startswith("   ") and after.strip()
        assert indented, (f"{where}: line {i + 1} fills the 80 columns and goes on unindented "
                          f"(cut or wrapped mid-word)\n{line!r}\n{after!r}\n{screen}")
