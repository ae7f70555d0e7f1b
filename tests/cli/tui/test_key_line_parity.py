"""The key line under the hand says ``o Ziel`` in German wherever it says ``o goal`` in
English at 80 columns (the last session's trials: Level 8's German draw line dropped it where
the English one kept it; ``key_line`` in ``cli/tui/words.py`` keeps ``q`` first, then ``?``,
``h`` and ``o`` where they fit, so the German words of the keys make that room)."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.i18n import _
from lancards.cli.tui.level8_keys import WATCH_HINTS
from lancards.cli.tui.words import key_line

KEYS = [  # every key line of the table's own (not a picker's, the builder's: no o there)
    "s sort · m moves · c chat", "d draw pile · 1-{n} a discard pile · s sort",
    "l lay down · a add · x discard · p special · m moves",
    "Enter choose a shown card · n none · m moves",
    "x put the card on your discard pile (up to 3) · e draw and end",
    "k keep the card under the cursor · e done",
    "your turn is skipped and passes by itself · Enter or e: at once", "m moves",
    "m moves · c chat", "no playable card: p pass",
    "Enter/x play · m moves · p passes only without a playable card",
    "Enter/x play · t/n an 8 with take/no take · m moves", WATCH_HINTS]


def _line(keys: str, language: str, hint: bool) -> str:
    i18n.set_language(language)
    try:
        return key_line(_(keys).format(n=5), 80, hint)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("hint", [True, False])
@pytest.mark.parametrize("keys", KEYS)
def test_german_keeps_o_where_english_does(keys: str, hint: bool) -> None:
    english, german = _line(keys, "en", hint), _line(keys, "de", hint)
    assert english.endswith(" · o goal") == german.endswith(" · o Ziel"), (english, german)
    assert len(german) <= 80


@pytest.mark.parametrize(("keys", "hint", "line"), [
    ("d draw pile · 1-{n} a discard pile · s sort", True,
     " d ziehen · 1-5 Ablage · s sortiert · ? Tasten · q beenden · h Tipp · o Ziel"),
    ("k keep the card under the cursor · e done", True,
     " k Karte am Cursor behalten · e fertig · ? Tasten · q beenden · h Tipp · o Ziel"),
    (WATCH_HINTS, False,
     " Zuschauen: nur offene Karten · Bild↑/↓ Verlauf · ? Tasten · q beenden · o Ziel"),
])
def test_the_german_lines_that_made_room(keys: str, hint: bool, line: str) -> None:
    assert _line(keys, "de", hint) == line
    assert _line(keys, "en", hint).endswith(" · o goal")
