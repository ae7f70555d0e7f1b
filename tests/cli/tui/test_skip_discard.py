"""``x`` on a SKIP (issue 26's new-user trial): the log said ``You discarded SKIP`` and nothing
more, and a player who knows the printed rules expects a discarded Skip to skip someone. Under
our rules it has no effect (ruling L8-15, ``docs/rules-level8.md``): the message line says so,
and which key plays it, once the log tells the discard (``cli/tui/skip_discard.py``)."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES = ("Tess", "Ada", "Bram")


def _session() -> LocalSession:
    """Level 8 (Skip cards), Tess to discard after drawing: R3 O3 SKIP."""
    others = [[f"{colour}{n}" for n in (1, 2, 3, 4, 5, 6, 8, 9, 10, 11)] for colour in "PY"]
    state = build("level8", [["R3", "O3", "SKIP"], *others], turn=0, phase=Phase.PLAY)
    return LocalSession("level8", names=NAMES, state=state, bot_delay=60)


@pytest.mark.parametrize(("language", "logged", "line", "plain"), [
    ("en", " You discarded SKIP",
     " SKIP discarded: nobody is skipped (p puts a Skip in front of a player)",
     " You discarded R3"),
    ("de", " Du: SKIP abgelegt", " SKIP abgelegt: niemand setzt aus (p legt SKIP vor einen "
     "Spieler)", " Du: R3 abgelegt"),
])
def test_a_discarded_skip_says_it_skips_nobody(language, logged, line, plain) -> None:
    i18n.set_language(language)
    try:
        with driven(_session(), 80, 24) as d:
            rows = d.press("end", "x").rstrip("\n").splitlines()
        with driven(_session(), 80, 24) as d:  # another card: the log alone says it
            others = d.press("home", "x").rstrip("\n").splitlines()
    finally:
        i18n.set_language("en")
    assert logged in rows and rows[-2] == line
    assert plain in others and others[-2] == ""
