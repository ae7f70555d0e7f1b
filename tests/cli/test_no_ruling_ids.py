"""Players read words: no catalogue message carries a ruling id (``(ruling E-3)``, ``rulings
L8-4, L8-10``, ``L8M-1``, ``D-5``). The ids stay in the code's comments and docstrings, in
``docs/`` and in the engine's own sentences (``--verbose``, ``lancards audit``); the table, the
log, the panels, the ``?`` help and the command lines say the rule in words."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from lancards.cli.i18n import _
from lancards.cli.tui.reasons import reason_words

CATALOGUE = Path(__file__).resolve().parents[2] / "cli" / "locale" / "lancards.pot"
RULING_ID = re.compile(r"\b(ruling|rulings)\b|L8M?-\d|\bE-\d|\bD-\d")

ALLOWED: frozenset[str] = frozenset()
"""Messages that may carry a ruling id: only one shown with ``--verbose`` alone (or in
``lancards audit``'s detail), each with the reason in a comment. None today: ``--verbose``
and the audit show the engine's own English sentence, ruling id and all, not a catalogue
message (``(ruling {id})`` and ``(rulings {ids})``, said after a German reason, went: the
message line wraps off ruling ids, so no one read them)."""


def _msgids() -> list[str]:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f)
    return [text for message in catalogue if message.id
            for text in (message.id if isinstance(message.id, tuple) else (message.id,))]


def test_no_catalogue_message_carries_a_ruling_id() -> None:
    assert [m for m in _msgids() if RULING_ID.search(m) and m not in ALLOWED] == []


def test_the_allowlist_is_still_in_the_catalogue() -> None:
    assert set(_msgids()) >= ALLOWED


def test_the_german_words_carry_no_ruling_id(german) -> None:
    assert _("follow suit: {suit} was led") == "Farbe bedienen: {suit} wurde ausgespielt"
    assert _("pass (round 8, only without a playable card)") == (
        "passen (Runde 8, nur ohne spielbare Karte)")
    assert _("the discard piles were shuffled into the draw pile") == (
        "die Ablagestapel wurden zum neuen Nachziehstapel gemischt")


def test_a_reason_is_said_without_its_ruling(german) -> None:
    assert reason_words("numbers 7 9 are not consecutive (ruling L8-4)") == (
        "die Zahlen 7 9 folgen nicht aufeinander")
    assert reason_words("numbers 7 9 are not consecutive (rulings L8-4, L8-5)") == (
        "die Zahlen 7 9 folgen nicht aufeinander")


def test_an_english_reason_is_said_without_its_ruling() -> None:
    assert reason_words("numbers 7 9 are not consecutive (ruling L8-4)") == (
        "numbers 7 9 are not consecutive")
    assert reason_words("something new (ruling L8-99)") == "something new"


def test_a_renege_is_said_with_its_penalty_and_no_ruling() -> None:
    """The results panel's and ``lancards audit``'s renege line (was ``(+50, ruling E-8)``:
    the audit and the printed results are not wrapped by the table, so the id showed)."""
    from lancards.cli import i18n
    from lancards.cli.tui.results import renege_text
    from lancards.engine.eights import Renege, Suit, parse_card

    played = Renege(round=2, seat=1, number=3, played=parse_card("R3"), held=parse_card("B9"),
                    led=Suit.BLUE)
    passed = Renege(round=8, seat=0, number=5, played=None, held=parse_card("Y7"), led=None)
    names = ["Ada", "Ben"]
    assert [renege_text(played, names), renege_text(passed, names)] == [
        "round 2, trick 3: Ben played R3 on a Blue lead while holding B9 (+50)",
        "round 8, turn 5: Ada passed while holding the playable Y7 (+50)"]
    i18n.set_language("de")
    try:
        assert [renege_text(played, names), renege_text(passed, names)] == [
            "Runde 2, Stich 3: Ben spielte R3 auf Blau, obwohl B9 auf der Hand war (+50)",
            "Runde 8, Zug 5: Ada passte mit der spielbaren Y7 auf der Hand (+50)"]
    finally:
        i18n.set_language("en")
