"""The hint follows the hand re-sorted before anything moved (the re-check trial of issue 26:
``h``, then ``s``, then ``h`` again repeated the old order, the hint being kept per view). The
move is not asked of the bot again: only its words are said anew."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui import hint
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES = ("Tess", "Ada", "Bram")


@pytest.mark.parametrize(("language", "rows"), [
    ("en", [" your hand (3 cards, by colour; s sorts):", " O3 B7 P3", " ^* *  *",
            " hint: show O3 B7 P3: it is your only move"]),
    ("de", [" deine Hand (3 Karten, nach Farbe; s sortiert):", " O3 B7 P3", " ^* *  *",
            " Tipp: O3 B7 P3 zeigen: es ist dein einziger Zug"]),
])
def test_h_after_resorting_names_the_cards_in_the_new_order(language, rows, monkeypatch) -> None:
    state = build("level8-master", [["P3", "O3", "B7"], ["TAKE", "O1"], ["Y1"]], turn=1,
                  dealer=0)
    state = state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))
    asked: list[int] = []
    real = hint.hint_advice
    monkeypatch.setattr(hint, "hint_advice", lambda snap: asked.append(1) or real(snap))
    i18n.set_language(language)
    try:
        session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
        with driven(session, 80, 24) as d:
            first = d.press("h").rstrip("\n").splitlines()[-2].rstrip()
            screen = d.press("s", "h")
            assert [row.rstrip() for row in screen.rstrip("\n").splitlines()[-5:-1]] == rows
    finally:
        i18n.set_language("en")
    assert first == {"en": " hint: show O3 P3 B7: it is your only move",
                     "de": " Tipp: O3 P3 B7 zeigen: es ist dein einziger Zug"}[language]
    assert asked == [1]  # the move asked of the bot once; its words said twice
