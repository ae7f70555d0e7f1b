"""An 8s Rule! objectives file's errors (``--option objectives=FILE``) in the player's
language, English unchanged (the trial of 2026-12-06: with ``--lang de`` they answered in
English). One case per code of ``engine/eights/objectives.py``."""

from __future__ import annotations

import pytest

from lancards.cli.main import main
from lancards.cli.objectives_errors import OBJECTIVES_WORDS

R1 = "[[round]]\nnumber = 1\n"
TRICKS = R1 + 'kind = "tricks"\npoints = 1\n'
CARDS = R1 + 'kind = "cards"\n'

CASES = (
    # the trial: the German line ended with the TOML reader's English reason; now our words
    # and where the reader stopped (cli/toml_words.py)
    ("objectives-toml", "x = [\n",
     "objectives file is not valid TOML (at its end)",
     "die Datei der Rundenziele ist kein gültiges TOML (an ihrem Ende)"),
    ("objectives-toml", R1 + 'kind = "tricks\n',
     "objectives file is not valid TOML (line 3, column 15)",
     "die Datei der Rundenziele ist kein gültiges TOML (Zeile 3, Spalte 15)"),
    ("objectives-unknown-keys", "foo = 1\n",
     "objectives file: unknown key(s) 'foo' (allowed: from_publisher, round, source)",
     "Datei der Rundenziele: unbekannte Schlüssel 'foo' (erlaubt: from_publisher, round, "
     "source)"),
    ("objectives-source", 'source = ""\n',
     "objectives file: 'source' must be a non-empty string",
     "Datei der Rundenziele: 'source' muss ein nicht leerer Text sein"),
    ("objectives-from-publisher", "from_publisher = 1\n",
     "objectives file: 'from_publisher' must be true or false",
     "Datei der Rundenziele: 'from_publisher' muss true oder false sein"),
    ("objectives-rounds", 'source = "mine"\n',
     "objectives file: needs [[round]] tables for rounds 1 to 7",
     "Datei der Rundenziele: braucht [[round]]-Tabellen für die Runden 1 bis 7"),
    ("objectives-round-number", "[[round]]\nnumber = 9\n",
     "objectives file: every [[round]] needs 'number' 1..7, got 9",
     "Datei der Rundenziele: jede [[round]] braucht 'number' 1..7, nicht 9"),
    ("objectives-round-twice", TRICKS + TRICKS,
     "objectives file: round 1 is given twice",
     "Datei der Rundenziele: Runde 1 ist zweimal angegeben"),
    ("objectives-rounds-missing", TRICKS,
     "objectives file: round(s) 2, 3, 4, 5, 6, 7 missing; give rounds 1 to 7",
     "Datei der Rundenziele: Runde(n) 2, 3, 4, 5, 6, 7 fehlen; gib die Runden 1 bis 7 an"),
    ("objectives-kind", R1 + 'kind = "most"\n',
     "objectives file, round 1: 'kind' must be one of tricks, cards, last-tricks, got 'most'",
     "Datei der Rundenziele, Runde 1: 'kind' muss eines von tricks, cards, last-tricks sein, "
     "nicht 'most'"),
    ("objectives-title", TRICKS + 'title = " "\n',
     "objectives file, round 1: 'title' must be a non-empty string",
     "Datei der Rundenziele, Runde 1: 'title' muss ein nicht leerer Text sein"),
    ("objectives-unknown-keys", TRICKS + "foo = 1\n",
     "objectives file, round 1: unknown key(s) 'foo' (allowed: kind, number, points, title)",
     "Datei der Rundenziele, Runde 1: unbekannte Schlüssel 'foo' (erlaubt: kind, number, "
     "points, title)"),
    ("objectives-tricks-points", R1 + 'kind = "tricks"\n',
     "objectives file, round 1: kind 'tricks' needs whole-number 'points' per trick",
     "Datei der Rundenziele, Runde 1: die Art 'tricks' braucht ganzzahlige 'points' je Stich"),
    ("objectives-last-tricks-points", R1 + 'kind = "last-tricks"\npoints = []\n',
     "objectives file, round 1: kind 'last-tricks' needs 'points', a list of 1 to 10 whole "
     "numbers (the last trick last)",
     "Datei der Rundenziele, Runde 1: die Art 'last-tricks' braucht 'points', eine Liste von 1 "
     "bis 10 ganzen Zahlen (der letzte Stich zuletzt)"),
    ("objectives-early-end", CARDS + "early_end = 1\n",
     "objectives file, round 1: 'early_end' must be true or false",
     "Datei der Rundenziele, Runde 1: 'early_end' muss true oder false sein"),
    ("objectives-cards", CARDS,
     "objectives file, round 1: kind 'cards' needs 'cards', a non-empty list of entries",
     "Datei der Rundenziele, Runde 1: die Art 'cards' braucht 'cards', eine nicht leere Liste "
     "von Einträgen"),
    ("objectives-entry", CARDS + "cards = [1]\n",
     'objectives file, round 1, cards entry 1: must be a table like { suit = "Red", points = '
     '5 }',
     'Datei der Rundenziele, Runde 1, Karteneintrag 1: muss eine Tabelle wie { suit = "Red", '
     'points = 5 } sein'),
    ("objectives-unknown-keys", CARDS + "cards = [{ points = 1, foo = 1 }]\n",
     "objectives file, round 1, cards entry 1: unknown key(s) 'foo' (allowed: card, number, "
     "points, suit)",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: unbekannte Schlüssel 'foo' (erlaubt: "
     "card, number, points, suit)"),
    ("objectives-entry-points", CARDS + 'cards = [{ card = "R1" }]\n',
     "objectives file, round 1, cards entry 1: needs whole-number 'points'",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: braucht ganzzahlige 'points'"),
    ("objectives-entry-both", CARDS + 'cards = [{ card = "R1", suit = "Red", points = 1 }]\n',
     "objectives file, round 1, cards entry 1: give either 'card' or 'suit'/'number', not both",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: gib entweder 'card' oder "
     "'suit'/'number' an, nicht beides"),
    ("objectives-entry-card", CARDS + 'cards = [{ card = "Z99", points = 1 }]\n',
     "objectives file, round 1, cards entry 1: unknown card 'Z99'; a card is a suit letter R, "
     "B, Y or G and a number 1..15",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: unbekannte Karte 'Z99'; eine Karte ist "
     "ein Farbbuchstabe R, B, Y oder G und eine Zahl 1..15"),
    ("objectives-entry-needs", CARDS + "cards = [{ points = 1 }]\n",
     "objectives file, round 1, cards entry 1: needs 'card', 'suit' or 'number'",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: braucht 'card', 'suit' oder 'number'"),
    ("objectives-entry-suit", CARDS + 'cards = [{ suit = "Purple", points = 1 }]\n',
     "objectives file, round 1, cards entry 1: unknown suit 'Purple'; use Red, Blue, Yellow or "
     "Green",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: unbekannte Farbe 'Purple'; nimm Red, "
     "Blue, Yellow oder Green"),
    ("objectives-entry-number", CARDS + "cards = [{ number = 16, points = 1 }]\n",
     "objectives file, round 1, cards entry 1: 'number' must be 1..15, got 16",
     "Datei der Rundenziele, Runde 1, Karteneintrag 1: 'number' muss 1..15 sein, nicht 16"),
)


def _said(lang: str, text: str, tmp_path, capsys) -> str:
    path = tmp_path / "objectives.toml"
    path.write_text(text, encoding="utf-8")
    status = main(["--lang", lang, "play", "--game", "eights", "--bots", "2", "--option",
                   f"objectives={path}"])
    assert status == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("code", "text", "english", "german_line"), CASES)
def test_an_objectives_file_error_stays_english(capsys, tmp_path, code, text, english,
                                                german_line) -> None:
    assert _said("en", text, tmp_path, capsys) == f"lancards play: error: {english}\n"


@pytest.mark.parametrize(("code", "text", "english", "german_line"), CASES)
def test_an_objectives_file_error_is_german(german, capsys, tmp_path, code, text, english,
                                            german_line) -> None:
    assert _said("de", text, tmp_path, capsys) == f"lancards play: Fehler: {german_line}\n"


def test_every_objectives_code_has_a_case() -> None:
    assert {case[0] for case in CASES} == {*OBJECTIVES_WORDS, "objectives-toml"}


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "lancards play: error: level card file is not valid TOML (line 1, column 13)"),
    ("de", "lancards play: Fehler: die Datei der Stufenkarte ist kein gültiges TOML (Zeile 1, "
           "Spalte 13)"),
])
def test_a_level_card_file_that_is_not_toml_is_said_with_its_place(german, capsys, tmp_path,
                                                                   lang, line) -> None:
    path = tmp_path / "card.toml"
    path.write_text("levels = [1 2]\n", encoding="utf-8")
    assert main(["--lang", lang, "play", "--game", "level8", "--bots", "2", "--option",
                 "sides=back", "--option", f"level_cards={path}"]) == 2
    assert capsys.readouterr().err == line + "\n"


def test_a_toml_error_without_a_place_says_only_that(german) -> None:
    """A reader's message without "(at line L, column C)" or "(at end of document)"."""
    import tomllib

    from lancards.cli.rules_errors import rules_error_words
    from lancards.engine.toml_errors import toml_error

    error = toml_error(tomllib.TOMLDecodeError("Something odd"), "objectives file",
                       "objectives-toml")
    assert str(error) == "objectives file is not valid TOML"
    assert dict(error.params) == {"line": None, "column": None, "end": False,
                                  "reason": "Something odd"}
    assert rules_error_words(error) == "die Datei der Rundenziele ist kein gültiges TOML"
    placed = toml_error(tomllib.TOMLDecodeError("Bad (at line 12, column 4)"), "level card file",
                        "level-card-toml")
    assert (placed.params["line"], placed.params["column"], str(placed)) == (
        12, 4, "level card file is not valid TOML (line 12, column 4)")
    assert rules_error_words(placed) == (
        "die Datei der Stufenkarte ist kein gültiges TOML (Zeile 12, Spalte 4)")
