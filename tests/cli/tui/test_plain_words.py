"""Players read words (issue 25, item 14): no ruling id reaches the table (its messages, help,
log, banners, objective); the rulings stay in docs/."""

from __future__ import annotations

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.fit import plain
from tests.cli.tui.harness import driven
from tests.eights.helpers import deal

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("text,words", [
    ("play B8: the 8 of the led suit (ruling E-4)", "play B8: the 8 of the led suit"),
    ("pass (round 8, only without a playable card; ruling E-7)",
     "pass (round 8, only without a playable card)"),
    ("Ben played R3 on a Blue lead while holding B9 (+50, ruling E-8)",
     "Ben played R3 on a Blue lead while holding B9 (+50)"),
    ("lancards defaults (ruling E-6), not from the publisher",
     "lancards defaults, not from the publisher"),
    ("Ada: nice one", "Ada: nice one"),
    # German (the trial of 2026-12-05 read "(Regel E-7)" on the table and in the help)
    ("{card} spielen: die 8 der ausgespielten Farbe (Regel E-4)",
     "{card} spielen: die 8 der ausgespielten Farbe"),
    ("passen (Runde 8, nur ohne spielbare Karte; Regel E-7)",
     "passen (Runde 8, nur ohne spielbare Karte)"),
    ("Ben spielte R3 (+50, Regel E-8)", "Ben spielte R3 (+50)"),
    ("Vorgaben von lancards (Regel E-6), nicht vom Verlag",
     "Vorgaben von lancards, nicht vom Verlag"),
    ("Regeln sind Regeln", "Regeln sind Regeln"),
])
def test_plain_drops_ruling_ids(text: str, words: str) -> None:
    assert plain(text) == words


def test_the_eights_table_help_and_refusals_name_no_ruling() -> None:
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2, round_number=2)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        screens = [d.text(), d.press("p"), d.press("?"), d.press("pgdn"), d.press("escape"),
                   d.press("o")]
    assert "you may pass only in round 8 without a playable card" in screens[1]
    assert "play the 8 of the led suit (any 8 when you lead) with take: it\n   takes the " \
        "trick / no take: any other card of its suit beats it" in screens[2]
    for screen in screens:
        assert "ruling" not in screen, screen


def test_the_german_eights_table_help_and_objective_name_no_ruling() -> None:
    from lancards.cli import i18n

    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2, round_number=2)
    i18n.set_language("de")
    try:
        session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state,
                               bot_delay=60)
        with driven(session, 80, 24) as d:
            screens = [d.text(), d.press("p"), d.press("?"), d.press("pgdn"),
                       d.press("escape"), d.press("o")]
    finally:
        i18n.set_language("en")
    assert "mit Nehmen: sie" in screens[2] and "nimmt den Stich" in screens[2], screens[2]
    for screen in screens:
        assert "Regel " not in screen and "ruling" not in screen, screen


def test_the_deck_progress_is_said_in_words() -> None:
    from lancards.cli.tui.words import progress_words

    assert progress_words("shuffle 1 of 4, waiting") == \
        "shuffling the deck: every player shuffles it in turn (0 of 4 done)"
    assert progress_words("shuffle 2 of 4, proving") == \
        "shuffling the deck: your shuffle (2 of 4) and its proof"
    assert progress_words("shuffle 3 of 4, verified") == \
        "shuffling the deck: 3 of 4 shuffles done and checked"


def test_a_round_that_ends_early_says_so_without_its_ruling() -> None:
    # round 5, "No Red 15": the one trick holding R15 ends the round (ruling E-5); the round
    # panel's lines are styled card by card, and the ruling id used to survive that split
    state = deal(3, {0: "R15"}, void={0: "R"}, dealer=2, round_number=5)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=0)
    with driven(session, 80, 24) as d:
        screen = d.press("enter", until=lambda: "round 5 over" in d.text())
    assert "round 5 over" in screen, screen
    assert "the round ended early after 1 trick\n" in screen, screen
    assert "ruling" not in screen, screen
