"""A combination on the table shows its cards by number, as the log tells them: a new-user
trial read a laid-down colour group in the order it was marked (``B6 B12 B11 B1 B14``)."""

from __future__ import annotations

from lancards.cli.tui.level8_view import meld_label
from lancards.engine.level8.builder import build
from lancards.engine.level8.levels import ComponentKind as K

NAMES = ("Ann", "Ben", "Cat")


def _melds() -> list[str]:
    state = build("level8-master", [["R1"], ["Y1"], ["Y2"]],
                  melds=[(1, K.COLOUR_GROUP, ["B6", "B12", "B11", "B1", "B14"]),
                         (2, K.SET, ["P8", "J6-10=8", "R8"])])
    return [meld_label(meld, NAMES) for meld in state.melds]


def test_a_colour_group_shows_its_cards_by_number() -> None:
    assert _melds() == ["1 Ben: colour group B (blue): B1 B6 B11 B12 B14",
                        "2 Cat: set of 8s: P8 J6-10=8 R8"]


def test_a_colour_group_shows_its_cards_by_number_in_german(german: None) -> None:
    assert _melds()[0] == "1 Ben: Karten einer Farbe B (blau): B1 B6 B11 B12 B14"
