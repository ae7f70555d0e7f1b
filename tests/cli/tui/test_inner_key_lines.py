"""The key line of the lay-down builder and of the pickers (the "I'll take that!" chooser, the
Skip target picker, the list of every move, the 8s Rule! chooser of an 8; and SWAP's phase, on
the table's own line) keeps ``q quit`` whole at 80x24, in English and German, as the table's
own key line does
(``cli.tui.words.key_line``). They dropped it: the German picker's line read ``... · Esc bricht
ab · ? Tasten · o Ziel``, the builder's ``... · Enter auslegen · Esc`` and nothing after."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.engine.level8.state import Phase
from tests.cli.tui.fits import check_fits
from tests.cli.tui.harness import Driver, driven
from tests.cli.tui.test_german_screens import fits
from tests.cli.tui.test_golden_screens import NAMES as GOLDEN_NAMES
from tests.cli.tui.test_golden_screens import level8_can_lay_down, played_until, take_phase
from tests.eights.helpers import deal, play_all
from tests.level8.scenario import build

NAMES = GOLDEN_NAMES[:3]  # names the German check knows

LINES = {
    "builder": {"en": " 1-9 assign · 0 unassign · j/v joker · Enter lay down · Esc · ? keys · "
                      "q quit",
                "de": " 1-9 zuordnen · 0 lösen · j/v Joker · Enter auslegen · Esc · q beenden · "
                      "h Tipp"},
    "picker": {"en": " a choice's number, or up/down and Enter · Esc cancels · ? keys · q quit",
               "de": " Nummer der Wahl, oder hoch/runter und Enter · Esc bricht ab · q beenden"},
    "swap": {"en": " x put the card on your discard pile (up to 3) · e draw and end · q quit",
             "de": " x Karte auf deinen Ablagestapel (bis zu 3) · e ziehen und Ende · q beenden"},
}

WHOLE = {
    ("skip", "en"): [" put the Skip card in front of   (its number, or up/down and Enter; Esc "
                     "cancels)"],
    ("builder", "de"): ["   # Spieler    St.  Aufgabe                         gelegt Hand Ablage"
                        "    vorne"],
}
"""The lines of these screens that fill the 80 columns whole (:func:`check_fits`)."""


def builder(d: Driver, session: Any) -> str:
    return d.press("l")


def take_chooser(d: Driver, session: Any) -> str:
    return d.press("enter")


def skip_picker(d: Driver, session: Any) -> str:
    return d.press("right", "p")


def moves_list(d: Driver, session: Any) -> str:
    return d.press("m")


def eight_chooser(d: Driver, session: Any) -> str:
    return d.press("enter")  # the cursor on G8, the first card: take or no take


def swap_phase(d: Driver, session: Any) -> str:
    return d.press("right", "right", "right", "right", "p")  # SWAP, the last card


def swap_table() -> LocalSession:
    state = build("level8-master", [["SWAP", "R1", "R2", "R3", "R4"], ["O1"], ["Y1"]],
                  turn=0, pile_top=["P9", "P10", "P11"])
    return LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)


def skip_table() -> LocalSession:
    state = build("level8", [["SKIP", "R1"], ["O1"], ["Y1"]], turn=0)
    return LocalSession("level8", names=NAMES, state=state, bot_delay=60)


def eights_table() -> LocalSession:
    # dealer Tess (seat 0): Ada leads G9, Bram follows with G2; Tess holds G8 and G15, and G8
    # asks take or no take
    state = play_all(deal(3, {0: "G8 G15 R1", 1: "G9", 2: "G2"}, dealer=0), ["G9", "G2"])
    return LocalSession("eights", names=NAMES, state=state, bot_delay=60)


SCREENS: dict[str, tuple[Callable[[], Any], Callable[[Driver, Any], str], str, str]] = {
    "builder": (lambda: played_until("level8-master", 5, level8_can_lay_down), builder,
                "builder", "Tab"),
    "take": (lambda: take_phase("take", 4), take_chooser, "picker", "TAKE"),
    "swap": (swap_table, swap_phase, "swap", "SWAP"),  # no list: the table's own key line
    "skip": (skip_table, skip_picker, "picker", "SKIP"),
    "moves": (skip_table, moves_list, "picker", "SKIP"),
    "eight": (eights_table, eight_chooser, "picker", "G8"),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("name", list(SCREENS))
def test_the_builders_and_the_pickers_key_line_keeps_q_at_80x24(german, name: str,
                                                                language: str) -> None:
    i18n.set_language(language)
    make, open_it, kind, seen = SCREENS[name]
    session = make()
    with driven(session, 80, 24) as d:
        screen = open_it(d, session)
        assert seen in screen
        if name == "swap":
            assert session.state.phase is Phase.SWAP
        lines = screen.rstrip("\n").splitlines()
        check_fits(screen, f"{name} ({language})", WHOLE.get((name, language), ()))
        if language == "de":
            fits(screen, 80, 24)  # and no word cut
        assert lines[-1] == LINES[kind][language], screen
