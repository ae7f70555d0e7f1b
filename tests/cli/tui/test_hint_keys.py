"""The key line names ``h hint`` in the show and keep phases at 80 columns (issue 26's
new-user trial read ``Space marks 3 cards (0 marked) · Enter shows them · m moves · ? keys · q
quit`` while ``h`` worked there), in English and German."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Level8State, Phase
from tests.cli.tui.harness import driven

NAMES = ("Tess", "Ada", "Bram")


def _key_line(state: Level8State) -> str:
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        return d.text().rstrip("\n").splitlines()[-1]


def _showing() -> Level8State:
    state = build("level8-master", [["R1", "O2", "Y3", "G4"], ["TAKE", "O1"], ["Y1"]], turn=1,
                  dealer=0)
    return state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))


def _keeping() -> Level8State:
    state = build("level8-master", [["R1", "R2", "R5", "B7", "G9"], ["O1"], ["Y1"]],
                  levels=(5, 3, 3), turn=1)
    return state.evolve(phase=Phase.KEEP, keep_queue=(0,), kept=((), (), ()))


@pytest.mark.parametrize(("language", "state", "line"), [
    ("en", _showing,
     " Space marks 3 cards (0 marked) · Enter shows them · ? keys · q quit · h hint"),
    ("de", _showing,
     # q is never left out (a LAN trial): German gives "? Tasten" up here
     " Leertaste markiert 3 Karten (0 markiert) · Enter zeigt sie · q beenden · h Tipp"),
    ("en", _keeping,
     " k keep the card under the cursor · e done · ? keys · q quit · h hint · o goal"),
    ("de", _keeping,
     " k Karte am Cursor behalten · e fertig · ? Tasten · q beenden · h Tipp · o Ziel"),
])
def test_the_key_line_names_the_hint_key_when_showing_and_keeping(language, state, line) -> None:
    i18n.set_language(language)
    try:
        assert _key_line(state()).rstrip() == line
    finally:
        i18n.set_language("en")



@pytest.mark.parametrize(("language", "keys", "rows"), [
    ("en", ("h",), [" your hand (3 cards, by number; s sorts):", " O3 P3 B7", " ^* *  *",
                    " hint: show O3 P3 B7: it is your only move"]),
    ("en", ("s", "h"), [" your hand (3 cards, by colour; s sorts):", " O3 B7 P3", " ^* *  *",
                        " hint: show O3 B7 P3: it is your only move"]),
    ("de", ("h",), [" deine Hand (3 Karten, nach Zahl; s sortiert):", " O3 P3 B7", " ^* *  *",
                    " Tipp: O3 P3 B7 zeigen: es ist dein einziger Zug"]),
])
def test_the_show_hint_names_the_cards_in_the_hands_order(language, keys, rows) -> None:
    """The re-check trial of 2026-12-07 read ``hint: show O3 B7 P3: it is your only move``
    beside a hand of ``O3 P3 B7`` (the move's own order of the cards); sorted by colour
    (``s``), the hint follows the hand too. The cards it shows are marked (``*``), the cursor
    (``^``) on the first: Enter shows them (``test_hint_follow.py``)."""
    state = build("level8-master", [["P3", "O3", "B7"], ["TAKE", "O1"], ["Y1"]], turn=1,
                  dealer=0)
    state = state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))
    i18n.set_language(language)
    try:
        session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
        with driven(session, 80, 24) as d:
            screen = d.press(*keys)
            assert [row.rstrip() for row in screen.rstrip("\n").splitlines()[-5:-1]] == rows
    finally:
        i18n.set_language("en")
