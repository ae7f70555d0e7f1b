"""The keys after ``h`` land on the hinted move (issue 26's new-user trial, ``cli/tui/
hint_follow.py``): the 8's chooser opens on the hint's take or no take, the cards a show
names are marked, the take list opens on the hinted card and ``l`` opens the builder on the
hinted lay-down; each on a built table through its keys, English and German where the words
differ."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.engine.eights import EIGHTS
from lancards.engine.eights.position import read_position
from tests.cli.tui.harness import driven

NAMES4 = ("Tess", "Ada", "Bram", "Cleo")
MINE = ["R1", "R2", "R3", "R4", "Y8", "B1", "B2", "B3", "B4", "B5", "G1", "G2", "G3", "G4", "G5"]


def _eights() -> LocalSession:
    """Round 2 (no Red cards), trick 1: Ada Y10, Bram Y12, Cleo Y3; Tess, with Y8 her only
    Yellow, to play it with take or no take (hard: no take)."""
    led = ["Y10", "Y12", "Y3"]
    rest = [f"{s}{n}" for s in "RBYG" for n in range(1, 16)
            if f"{s}{n}" not in MINE and f"{s}{n}" not in led]
    hands = {0: MINE, **{seat: rest[i * 14:(i + 1) * 14] for i, seat in enumerate((1, 2, 3))}}
    text = "\n".join([
        "lancards-position 1", "game eights", "seats 4", "round 2", "dealer 0",
        "phase tricks", "turn 0", *[f"hand {s}: {' '.join(hands[s])}" for s in range(4)],
        "trick-now: 1 Y10 2 Y12 3 Y3", "result 1: dealer 3 tricks 15 points 0 0 0 0",
        "totals: 0 0 0 0"])
    return LocalSession("eights", names=NAMES4, state=read_position(text, EIGHTS),
                        bot_delay=60)


@pytest.mark.parametrize(("language", "hint", "chooser"), [
    ("en", " hint: play Y8 (no take): about 2 points better for you than Y8 (take)",
     ["   1. take (this 8 wins the trick)",
      " > 2. no take (the highest other card of the suit wins)"]),
    ("de", " Tipp: Y8 spielen (nicht nehmen): etwa 2 Punkte besser für dich als Y8 (nehmen)",
     ["   1. nehmen (diese 8 gewinnt den Stich)",
      " > 2. nicht nehmen (die höchste andere Karte der Farbe gewinnt)"]),
])
def test_enter_enter_after_the_hint_plays_the_8_as_the_hint_said(language, hint,
                                                                  chooser) -> None:
    session = _eights()
    i18n.set_language(language)
    try:
        with driven(session, 100, 30) as d:
            rows = d.press("enter").splitlines()  # no hint: the chooser opens on take
            assert [r for r in rows if "1. " in r][0].startswith(" > 1. ")
            d.press("escape")
            assert hint in d.press("h").splitlines()
            rows = d.press("enter").splitlines()
            assert [r for r in rows if "1. " in r or "2. " in r] == chooser
            d.press("enter")
    finally:
        i18n.set_language("en")
    assert [(a.take, str(a.card)) for a in session.history[:1]] == [(False, "Y8")]
