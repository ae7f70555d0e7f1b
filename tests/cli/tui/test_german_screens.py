"""German screens (issue 28): a Level 8 Master table, its lay-down builder, its keys, a round
result and an 8s Rule! table at 80x24 and 100x30, in the same seeded positions as the English
goldens (``test_golden_screens.py``), compared with ``golden/de-*.txt``.

Every screen fits its window and cuts no word: every line is at most the width, no text was
cut with the ellipsis, and every word on the screen (three letters or more) is a whole word of
the German catalog, a nickname or a name of the games (a word cut by a wrap is neither).
Regenerate as the English goldens (``LANCARDS_REGEN_GOLDEN=1``), and read the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from lancards.engine.rulesets import BOT_LEVELS
from tests.cli.tui.harness import Driver, driven
from tests.cli.tui.test_golden_screens import (
    NAMES,
    SIZES,
    check,
    eights_mid_trick,
    level8_can_lay_down,
    level8_mid_round,
    played_until,
    round_end_screen,
    take_phase,
)

PO = Path(__file__).resolve().parents[3] / "cli" / "locale" / "de" / "LC_MESSAGES" / "lancards.po"
GAME_WORDS = {"Level", "Master", "Rule", "TAKE", "SWAP", "KEEP", "SKIP", "Tab", "Esc", "Enter",
              "lancards", "resume", "Joker", *BOT_LEVELS}
"""Words on the screens that are no message of the catalog: the games' names, card names,
key names, the bot levels (``--bot-level`` values)."""


def vocabulary() -> set[str]:
    words = set(GAME_WORDS) | set(NAMES)
    with PO.open("rb") as f:
        for message in read_po(f):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                words.update(re.findall(r"[^\W\d_]+", text))
    return words


WORD = re.compile(r"[^\W\d_]{3,}")
OBJECTIVE_CUT = re.compile(r"[^\W\d_]… · eigene Ziele von lancards · o zeigt sie$")


pytestmark = pytest.mark.usefixtures("german")  # every test here in German (tests/cli/conftest.py)


def fits(screen: str, columns: int, rows: int) -> str:
    """``screen`` after checking it fits ``columns`` x ``rows`` and cuts no word."""
    lines = screen.splitlines()
    assert len(lines) <= rows
    assert all(len(line) <= columns for line in lines), max(lines, key=len)
    # a "…" only where the 8s Rule! objective is cut after a whole word to fit two rows
    assert all(OBJECTIVE_CUT.search(line) for line in lines if "…" in line), \
        [line for line in lines if "…" in line]
    known = vocabulary()
    unknown = {w for w in WORD.findall(screen) if w not in known and not _card(w)}
    assert not unknown, f"words that are no whole word of the catalog (cut?): {unknown}"
    return screen


def _card(word: str) -> bool:
    return word in ("TAKE", "SWAP", "KEEP", "SKIP")


def screen_of(d: Driver, columns: int, rows: int) -> str:
    return fits(d.text(), columns, rows)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_german_level8_master_table(size: tuple[int, int]) -> None:
    session = played_until("level8-master", 5, level8_mid_round)
    with driven(session, *size) as d:
        screen = screen_of(d, *size)
        assert "DU BIST DRAN: eine Karte ziehen" in screen
        assert "Spieler" in screen and "Aufgabe" in screen
        check(f"de-level8-table-{size[0]}x{size[1]}", screen)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_german_level8_master_builder_and_keys(size: tuple[int, int]) -> None:
    session = played_until("level8-master", 5, level8_can_lay_down)
    with driven(session, *size) as d:
        d.press("l")
        screen = fits(d.press("tab"), *size)
        assert "Vorschlag 1 von" in screen and "gültig: Enter legt sie aus" in screen
        check(f"de-level8-builder-{size[0]}x{size[1]}", screen)
        d.press("escape")
        keys = fits(d.press("?"), *size)
        assert "Tasten (Hoch/Runter blättern" in keys
        words = " ".join(" ".join(screen_all(d)).split())
        assert "R rot, O orange, Y gelb, G grün, B blau, P lila" in words


def test_german_builder_opened_shows_the_first_offer() -> None:
    session = played_until("level8-master", 5, level8_can_lay_down)
    with driven(session, 80, 24) as d:
        screen = fits(d.press("l"), 80, 24)
        assert "  Tab lädt Vorschlag 1 von 12: O1 P1 | Y10 G10 | R7 J6-10=7 | R13 J11-15=13" \
            in screen.splitlines()
        check("de-level8-builder-opened-80x24", screen)


def screen_all(d: Driver) -> list[str]:
    """Every page of the open keys panel (Down scrolls a page), for text beyond the first."""
    pages = [d.text()]
    for _page in range(6):
        pages.append(d.press("down"))
    return pages


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_german_level8_round_result(size: tuple[int, int]) -> None:
    screen = round_end_screen("level8-master", 5, lambda s: s.levels != (1, 1, 1, 1),
                              lambda s: s.round >= 2, size, over="Runde 1 vorbei")
    assert "Runde 1 vorbei" in screen and "erreichte Stufen" in screen
    check(f"de-level8-result-{size[0]}x{size[1]}", fits(screen, *size))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_german_eights_table(size: tuple[int, int]) -> None:
    session = played_until("eights", 5, eights_mid_trick)
    with driven(session, *size) as d:
        screen = d.text()
        assert "Runde 2 von 8" in screen and "DU BIST DRAN: eine Karte spielen" in screen
        assert "Stiche" in screen
        check(f"de-eights-table-{size[0]}x{size[1]}", fits(screen, *size))


def test_german_objective_panel_names_the_level_card_in_german() -> None:
    """``o`` (the trial of 2026-12-06): the level card was "Level 8 Master, front (1 star)",
    the engine's name in English; every word of the panel is German now."""
    session = played_until("level8-master", 5, level8_mid_round)
    with driven(session, 80, 24) as d:
        panel = fits(d.press("o"), 80, 24)
        assert " deine Stufenkarte (Level 8 Master, Vorderseite (1 Stern)):" in panel.splitlines()
        assert "front" not in panel and "star" not in panel


@pytest.mark.parametrize("name,seed,top", [
    ("show", 5, " Level 8 Master · Runde 1 · Bram gibt   DU BIST DRAN: 3 Karten für TAKE zeigen"),
    ("take", 4, " Level 8 Master · Runde 1 · Ada gibt   DU BIST DRAN: Karte nehmen oder keine"),
])
def test_german_take_and_show_keep_the_dealer_at_80_columns(name: str, seed: int,
                                                            top: str) -> None:
    """The re-check trial of session 27: at 80x24 the top line of "I'll take that!" (Level 8
    Master) lost the dealer in German: "3 Karten zeigen für „Die nehm’ ich!“" and "eine
    gezeigte Karte nehmen oder keine" left no room for "Bram gibt". The card's name (TAKE)
    says which call it is in fewer columns. Seed 5: Ada played TAKE, Tess shows; seed 4: Tess
    played TAKE and chooses."""
    with driven(take_phase(name, seed), 80, 24) as d:
        screen = screen_of(d, 80, 24)
        assert screen.splitlines()[0] == top
        check(f"de-level8-{name}-80x24", screen)
