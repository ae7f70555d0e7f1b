"""What a person reads when round 8 of 8s Rule! ends on a full turn of passes (a dead layout,
``docs/rules-eights.md``, reading 5): the move list says why the round ended, and the round's
report says that nobody went out; in English and in German, with no ruling id."""

from __future__ import annotations

from lancards.cli import i18n
from lancards.cli.tui.narrate import narrate
from lancards.cli.tui.results import eights_round
from lancards.engine.eights import Pass
from tests.eights.helpers import GAME, reveal_all
from tests.eights.test_round8 import round8

NAMES = ["Ada", "Bram", "Cleo", "Dov", "Eli", "Fay"]


def _dead() -> tuple[object, object]:
    state = round8()  # seat 1 holds all four 8s and passes; nobody else can play
    for seat in (1, 2, 3, 4, 5):
        state = GAME.apply(state, Pass(seat))
    return state, GAME.apply(state, Pass(0))


def test_the_last_pass_tells_why_round_8_ends() -> None:
    before, after = _dead()
    lines = narrate("eights", GAME.view(before, 0), Pass(0), GAME.view(after, 0), NAMES, 0)
    assert lines == ["You passed", "Everyone passed in turn, so someone held back a card that "
                     "fits: round 8 ends with nobody out, and the open hands show who"]
    # a pass that does not end the round says only that
    state = round8()
    after_one = GAME.apply(state, Pass(1))
    assert narrate("eights", GAME.view(state, 0), Pass(1), GAME.view(after_one, 0), NAMES,
                   0) == ["Bram passed"]


def test_the_round_report_says_nobody_went_out_and_names_the_passer() -> None:
    _, after = _dead()
    final = reveal_all(after)
    result = final.results[-1]
    report = eights_round(result, NAMES, result.totals, "")
    assert "Bram: +100, renege +50, total 150" in report.lines
    assert "nobody went out: everyone passed in turn while a card that fits was held back, so " \
           "the round ended there" in report.lines
    assert not any("(went out)" in line for line in report.lines)
    i18n.set_language("de")
    try:
        german = eights_round(result, NAMES, result.totals, "")
        assert ("niemand ist alle Karten losgeworden: alle haben der Reihe nach gepasst, "
                "während eine passende Karte zurückgehalten wurde, also endete die Runde "
                "dort") in german.lines
        before, after = _dead()
        told = narrate("eights", GAME.view(before, 0), Pass(0), GAME.view(after, 0), NAMES, 0)
        assert told[1].startswith("Alle haben der Reihe nach gepasst")
    finally:
        i18n.set_language("en")


def test_a_seat_that_left_is_said_to_have_left_not_shown_with_its_frozen_total() -> None:
    """The trial of 2026-12-05: ``Emil 0`` on every round line after Emil left read like the
    leader of a game the lowest total wins."""
    _, after = _dead()
    result = reveal_all(after).results[-1]
    report = eights_round(result, NAMES, result.totals, "", left=(4,))
    assert "Eli: left the table" in report.lines
    assert not any(line.startswith("Eli: +") for line in report.lines)
    assert report.summary.startswith("round 8: ") and ", Eli left, " in report.summary
    assert report.summary.count(" left") == 1
