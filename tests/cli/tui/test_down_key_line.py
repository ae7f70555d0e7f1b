"""Level 8's key line after the seat has laid down: the level goes down once per round, after
that the move is adding (ruling L8-7), so ``l lay down`` is not offered any more (a new-user
trial read it, pressed ``l`` and was refused); the title's ``YOUR TURN`` says the same."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.engine.level8.builder import build
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES3 = ("Tess", "Ada", "Bram")
OTHERS = (["P1", "P2", "P3", "P4", "P5", "P6", "P8", "P9", "P10", "P11"],
          ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9", "Y10", "Y11"])


def _session(down: bool) -> LocalSession:
    melds = [(0, ComponentKind.SET, ["R3", "O3"]), (0, ComponentKind.SET, ["B5", "G5"]),
             (0, ComponentKind.SET, ["Y7", "P7"]), (0, ComponentKind.SET, ["R9", "B9"])]
    state = build("level8-master", [["R12", "B14", "O9", "G3"], *OTHERS], turn=0,
                  phase=Phase.PLAY, down=[down, False, False], melds=melds if down else [])
    return LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)


@pytest.mark.parametrize(("language", "before", "after", "title", "refusal"), [
    ("en", " l lay down · a add · x discard · p special · m moves · ? keys · q quit · h hint",
     " a add · x discard · p special · m moves · ? keys · q quit · h hint · o goal",
     " Level 8 Master · round 1 · you deal   YOUR TURN: add, then discard",
     " you have laid down this round: a adds cards to the combinations"),
    ("de", " l/a/x aus-/an-/ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · h Tipp",
     " a/x an-/ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · h Tipp",
     " Level 8 Master · Runde 1 · du gibst   DU BIST DRAN: anlegen, ablegen",
     " du hast in dieser Runde schon ausgelegt: a legt Karten an die Kombinationen an"),
])
def test_the_key_line_drops_l_once_the_level_is_down(language: str, before: str, after: str,
                                                     title: str, refusal: str) -> None:
    i18n.set_language(language)
    try:
        with driven(_session(False), 80, 30) as d:
            assert before in d.text().splitlines()
        with driven(_session(True), 80, 30) as d:
            rows = d.text().splitlines()
            assert after in rows
            assert rows[0] == title  # it said "lay down, add, then discard"
            assert not [r for r in rows if "l lay down" in r or "aus-/" in r]
            assert refusal in d.press("l").splitlines()  # still told why, if pressed
    finally:
        i18n.set_language("en")
