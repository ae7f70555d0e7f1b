"""The hint's Skip (issue 26's new-user trial): ``hint: put SKIP in front of Ada (Skip!):
nobody is closer to going out than Ada`` while all five other seats held 10 cards, none was
down and three were on level 3: the reason says what decided (the highest level, or the tie),
and the picker of ``p`` opens on the hint's seat (it opened on ``> 1. skip Dov``)."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.hint import hint_advice, hint_line, hint_words
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES = ("Tess", "Ada", "Bram", "Cleo", "Dov")


def _ten(colour: str) -> list[str]:
    return [f"{colour}{n}" for n in (1, 2, 3, 4, 5, 6, 8, 9, 10, 11)]


def _session(levels: list[int]) -> LocalSession:
    """Tess to play R3 O3 SKIP; the four others hold 10 cards each, none down."""
    state = build("level8", [["R3", "O3", "SKIP"], _ten("P"), _ten("Y"), _ten("B"), _ten("G")],
                  turn=0, phase=Phase.PLAY, levels=levels)
    return LocalSession("level8", names=NAMES, state=state, bot_delay=60)


def _both(snap: object, columns: int = 79) -> tuple[str, str]:
    """The hint line in English, then in German."""
    line = hint_words(snap, hint_advice(snap), columns)  # type: ignore[arg-type]
    i18n.set_language("de")
    try:
        return line, hint_words(snap, hint_advice(snap), columns)  # type: ignore[arg-type]
    finally:
        i18n.set_language("en")


def test_a_skip_among_equal_hands_says_the_highest_level_decided() -> None:
    """Ada (seat 1) on level 2, Bram and Cleo on 3, Dov on 1: Bram and Cleo share the highest
    level of the others, and Bram plays first of them (the reason said "Bram is on the highest
    level", as if Cleo were not)."""
    snap = _session([1, 2, 3, 3, 1]).snapshot()
    assert _both(snap, 200) == (
        "hint: put SKIP in front of Bram (p): Bram and Cleo share the others' highest "
        "level; Bram plays first",
        "Tipp: SKIP vor Bram legen (p): Bram und Cleo teilen die höchste Stufe der "
        "anderen; Bram ist zuerst dran")
    assert _both(snap) == (  # 80 columns: the first clause, without the key (the key line has it)
        "hint: put SKIP in front of Bram: Bram and Cleo share the others' highest level",
        "Tipp: SKIP vor Bram legen: Bram und Cleo teilen die höchste Stufe der anderen")


def test_a_skip_says_the_others_highest_level_when_the_reader_is_higher() -> None:
    """The new-user trial of issue 26: the reader on level 8, Ada and Bram on 7 (the reason
    said "Ada is on the highest level"); then Ada alone on 7."""
    assert _both(_session([8, 7, 7, 5, 5]).snapshot(), 200) == (
        "hint: put SKIP in front of Ada (p): Ada and Bram share the others' highest "
        "level; Ada plays first",
        "Tipp: SKIP vor Ada legen (p): Ada und Bram teilen die höchste Stufe der "
        "anderen; Ada ist zuerst dran")
    assert _both(_session([8, 7, 5, 5, 5]).snapshot()) == (
        "hint: put SKIP in front of Ada (p): Ada is on the highest level of the others",
        "Tipp: SKIP vor Ada legen (p): Ada ist auf der höchsten Stufe der anderen")


def test_a_skip_among_equal_seats_says_the_tie() -> None:
    assert hint_line(_session([1, 2, 2, 2, 2]).snapshot()) == \
        "hint: put SKIP in front of Ada (p): Ada is as close to going out as anyone"


def test_the_skip_picker_opens_on_the_hints_seat() -> None:
    with driven(_session([1, 2, 3, 3, 1]), 100, 30) as d:
        d.press("end")  # the SKIP card
        assert " > 2. skip Ada" in d.press("p").splitlines()  # no hint: the first seat
        d.press("escape")
        d.press("home")
        d.press("h")  # the cursor goes to the SKIP card
        screen = d.press("p").splitlines()
        assert [row for row in screen if ". skip " in row] == [
            "   2. skip Ada", " > 3. skip Bram", "   4. skip Cleo", "   5. skip Dov"]


@pytest.mark.parametrize(("language", "line", "hand"), [
    ("en", " hint: put SKIP in front of Ada (p): Ada is as close to going out as anyone",
     " your hand (3 cards, by number; s sorts):"),
    ("de", " Tipp: SKIP vor Ada legen (p): Ada ist so nah am Ziel wie jeder andere",
     " deine Hand (3 Karten, nach Zahl; s sortiert):"),
])
def test_the_tie_is_said_at_the_table_by_the_h_key(language: str, line: str, hand: str) -> None:
    """The all-equal Skip hint through the table's own path (the screen, its ``h`` key, the
    controller's kept hint, the hint's own bot): the re-check trial of issue
    26 never met it in a game. A Level 8 table (98 cards, Skip cards) of five, the four others
    on level 2 with 10 cards each, none down; Tess plays R3 O3 SKIP. At 80 columns the line is
    whole (German: without the card's call, which does not fit) and the cursor is on SKIP."""
    i18n.set_language(language)
    try:
        with driven(_session([1, 2, 2, 2, 2]), 80, 24) as d:
            rows = d.press("h").rstrip("\n").splitlines()
    finally:
        i18n.set_language("en")
    assert rows[-2] == line
    at = rows.index(hand)
    assert rows[at + 1:at + 3] == [" R3 O3 SKIP", "       ^"]
