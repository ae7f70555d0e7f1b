"""What every screen a person reads must be at 80x24 (the persona suite,
``tests/e2e/test_persona.py``, and the tmux tests of ``lancards play``): :func:`check_fits`."""

from __future__ import annotations

import re

from lancards.cli.tui.width import text_width

COLUMNS, ROWS = 80, 24

WORD = re.compile(r"[\w\])]")
"""A character a word or a bracketed name ends with."""

KEY_LINE_END = re.compile(r" · [?qho] \w+$")
"""How the key line ends when ``cli.tui.words.key_line`` fills it to the 80th column: one of its
extras whole (`` · ? keys``, `` · q quit``, `` · h hint``, `` · o goal``; German `` · q
beenden``, `` · h Tipp``...), never a word cut at the edge."""


def check_fits(screen: str, where: str = "") -> None:
    """No line of ``screen`` is cut or wrapped at 80 columns, and it has 24 rows at most.

    A line that fills the 80th column ending in a letter or digit, with the next line going on
    at column 1 or 2 (no continuation indent), is text the terminal wrapped or that was cut
    at the edge: the screens wrap their own long lines at a space, with the continuation
    indented (:func:`lancards.cli.tui.fit.wrap_line`), so their lines end before column 80 or
    at a word's end followed by an indented line. The screen's last line may fill the 80th
    column when it is the key line ending in one of its extras whole (:data:`KEY_LINE_END`):
    ``cli.tui.words.key_line`` fills it so by design, and nothing follows it to show a wrap.

    Raises:
        AssertionError: naming the line and the screen.
    """
    lines = screen.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    assert len(lines) <= ROWS, f"{where}: {len(lines)} rows\n{screen}"
    for i, line in enumerate(lines):
        width = text_width(line.rstrip())
        assert width <= COLUMNS, f"{where}: line {i + 1} is {width} columns\n{screen}"
        if width < COLUMNS or not WORD.match(line.rstrip()[-1]) or (
                i + 1 == len(lines) and KEY_LINE_END.search(line.rstrip())):
            continue  # the key line, made to fit by key_line, ends in one of its extras
        after = lines[i + 1] if i + 1 < len(lines) else ""
        indented = after.startswith("   ") and after.strip()
        assert indented, (f"{where}: line {i + 1} fills the 80 columns and goes on unindented "
                          f"(cut or wrapped mid-word)\n{line!r}\n{after!r}\n{screen}")
