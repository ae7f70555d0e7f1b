"""The players' language (issue 28): the catalogs are complete and up to date, placeholders
survive translation, the language comes from the environment or ``--lang``, and an unknown
language falls back to English with one line saying so."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.pacing import speed_words

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "cli" / "locale" / "lancards.pot"
PO = ROOT / "cli" / "locale" / "de" / "LC_MESSAGES" / "lancards.po"
MO = PO.with_suffix(".mo")
UPDATE = "the catalogs' commands in docs/client.md, 'Languages'"

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]")
"""A ``{name}`` / ``{count:+d}`` or ``%(name)s`` / ``%s`` placeholder of a message."""


def _ids(message: object) -> tuple[str, ...]:
    return message if isinstance(message, tuple) else (str(message),)  # type: ignore[return-value]


def test_every_message_of_the_template_has_a_german_translation_with_its_placeholders():
    with POT.open("rb") as f:
        template = read_po(f)
    with PO.open("rb") as f:
        german = read_po(f)
    missing, fuzzy, broken = [], [], []
    for message in template:
        if not message.id:
            continue
        found = german.get(message.id, message.context)
        if found is None or not all(_ids(found.string)):
            missing.append(message.id)
            continue
        if found.fuzzy:
            fuzzy.append(message.id)
        ids, strings = _ids(message.id), _ids(found.string)
        # msgstr[0] against the singular, every other form against the plural
        for index, text in enumerate(strings):
            source = ids[min(index, len(ids) - 1)]
            found_ = set(PLACEHOLDER.findall(text))
            # a singular may drop its count ("Paar" for "pair"); never add or rename one
            singular_ok = len(ids) > 1 and index == 0 and \
                found_ <= set(PLACEHOLDER.findall(ids[1]))
            if found_ != set(PLACEHOLDER.findall(source)) and not singular_ok:
                broken.append((source, text))
    assert not missing, f"{len(missing)} messages without German words: {missing[:5]}"
    assert not fuzzy, f"fuzzy (unchecked) German words: {fuzzy[:5]}"
    assert not broken, f"a translation drops or adds a placeholder: {broken[:5]}"


def test_the_template_holds_exactly_the_messages_of_the_source():
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / "cli"), method_map=[("**.py", "python")]):
        found.add(message)
    with POT.open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert found - template == set(), f"not in the template: run {UPDATE}"
    assert template - found == set(), f"no longer in the source: run {UPDATE}"


def test_the_compiled_catalog_is_the_po_file_compiled():
    with PO.open("rb") as f:
        catalog = read_po(f)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    with MO.open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    compiled = gettext.GNUTranslations(fresh)
    assert shipped._catalog == compiled._catalog, f".mo older than the .po: run {UPDATE}"  # type: ignore[attr-defined]


def test_the_language_comes_from_the_environment_as_gettext_takes_it():
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.from_environment({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "en_GB.UTF-8"}) == "de"
    assert i18n.from_environment({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}) == "de"
    assert i18n.from_environment({"LANG": "fr_FR.UTF-8"}) is None
    assert i18n.from_environment({}) is None


def test_german_words_and_plurals(german):
    assert i18n._("game over") == "Spiel vorbei"
    assert i18n.ngettext("draw pile: {count} card", "draw pile: {count} cards", 1).format(
        count=1) == "Nachziehstapel: 1 Karte"
    assert i18n.ngettext("draw pile: {count} card", "draw pile: {count} cards", 2).format(
        count=2) == "Nachziehstapel: 2 Karten"
    # the trial of 2026-12-05: "aus" (out) headed the laid-down column; "8en" is not German
    assert (i18n._("down"), i18n._("No 8s")) == ("gelegt", "Keine 8er")
    assert i18n._("No 1s and no 15s") == "Keine 1er und keine 15er"
    assert i18n.ngettext("{name}: {won} win", "{name}: {won} wins", 0).format(
        name="Ada", won=0) == "Ada: 0 Siege"
    # a German tester's read-through: the log's leave is a participle like its neighbours
    # ("verlassen" read as an infinitive, a choice); a picker's "its number" whatever its
    # title's gender; a set of 3s is no group of three cards; a Skip is sat out once
    assert i18n._("{who} left the table").format(who="ben") == "ben: vom Tisch gegangen"
    assert i18n._("(its number, or up/down and Enter)") == \
        "(die Nummer oder hoch/runter und Enter)"
    assert i18n._("set of {number}s").format(number=3) == "Gruppe aus 3ern"
    assert i18n._("serve the Skip (your turn is skipped)") == \
        "einmal aussetzen („Aussetzen!“ vor dir)"
    assert i18n._("nothing to serve") == "keine „Aussetzen!“-Karte vor dir"
    # the special cards keep their code (notation), and the keys give their German calls
    special = i18n._("play the special card under the cursor (TAKE, SWAP, KEEP) instead "
                     "of a discard: your turn then ends")  # Level 8 Master's
    assert all(f"{code} „{call}“" in special for code, call in (
        ("TAKE", "Die nehm’ ich!"), ("SWAP", "Die tausch’ ich!"), ("KEEP", "Die behalt’ ich!")))
    assert "SKIP („Aussetzen!“)" in i18n._(  # Level 8's
        "put the SKIP card under the cursor in front of a player instead of a discard: your turn "
        "then ends")
    # a decimal number has a comma
    assert (i18n.number_text(0.5), i18n.number_text(2.0)) == ("0,5", "2")
    assert speed_words(0.5) == "jeder Bot wartet 0,5 s vor seinem Zug (b: ändern)"


def test_german_early_end_says_who_had_gone_in_one_sentence_per_form(german):
    """The tester's "nachdem ben und anna ging(en)": one sentence per number, and for "you"."""
    from lancards.cli.tui.results import final_lines
    from lancards.engine.core import Outcome

    def early(names: tuple[str, ...], left: list[int]) -> str:
        outcome = Outcome((0,), (4, 3, 2), {"rounds": 5, "left": left})
        return final_lines(outcome, names, "level8")[-1]

    assert early(("Tess", "ben", "anna"), [1, 2]) == (
        "das Spiel endete vorzeitig: nachdem ben und anna gegangen waren, waren zu wenige "
        "Spieler übrig")
    assert early(("Tess", "ben", "anna"), [1]) == (
        "das Spiel endete vorzeitig: nachdem ben gegangen war, waren zu wenige Spieler übrig")
    assert early(("Tess", "Du", "anna"), [1]) == (
        "das Spiel endete vorzeitig: nachdem du gegangen warst, waren zu wenige Spieler übrig")


def test_the_result_lines_agree_with_du(german):
    """The trial of 2026-12-06: the person's win read "Ergebnis: Du gewinnen ..." (the plural
    that English "You win" takes); German says "Du gewinnst", "Du bist gegangen"."""
    from lancards.cli.tui.results import eights_round, final_lines
    from lancards.engine.core import Outcome
    from lancards.engine.eights.state import RoundResult

    level8 = Outcome((0,), (9, 3), {"rounds": 5})
    assert final_lines(level8, ("Du", "Ada"), "level8")[0] == \
        "Ergebnis: Du gewinnst nach 5 Runden"
    assert final_lines(Outcome((1,), (9, 3), {"rounds": 1}), ("Du", "Ada"), "level8")[0] == \
        "Ergebnis: Ada gewinnt nach 1 Runde"
    eights = Outcome((0,), (40, 90), {"rounds": 8})
    assert final_lines(eights, ("Du", "Ada"), "eights")[0] == \
        "Ergebnis: Du gewinnst mit der niedrigsten Summe"
    assert final_lines(Outcome((0, 1), (40, 40), {"rounds": 8}), ("Du", "Ada"), "eights")[0] == \
        "Ergebnis: Du und Ada gewinnen mit der niedrigsten Summe"
    result = RoundResult(round=2, dealer=1, points=(10, 20), reneges=(), tricks=3,
                         ended_early=False, went_out=None)
    assert eights_round(result, ("Du", "Ada"), [10, 20], "", (0,)).summary == \
        "Runde 2 – Du bist gegangen, Ada: 20"


def test_an_unknown_language_falls_back_to_english_with_one_line(capsys):
    try:
        with pytest.raises(SystemExit):
            main(["--lang", "xx", "--version"])
        out, err = capsys.readouterr()
        assert out == "lancards 0.1.0\n"
        assert err == ("lancards: no words for the language 'xx'; using English "
                       "(languages: en, de)\n")
        assert i18n.language() == "en"
    finally:
        i18n.set_language("en")


def test_lang_de_gives_german_help_and_errors(capsys):
    try:
        with pytest.raises(SystemExit):
            main(["play", "--lang", "de", "--players-xx"])
        _out, err = capsys.readouterr()
        assert err == ("lancards play: Fehler: unbekannte Argumente: --players-xx "
                       "(siehe „lancards play --help“)\n")
    finally:
        i18n.set_language("en")


def test_argparse_and_usage_errors_speak_german(capsys):
    """argparse's own words come from lancards' catalog (``i18n.translate_argparse``), and so
    do the commands' option help and their usage errors."""
    try:
        with pytest.raises(SystemExit):
            main(["--lang", "de", "play", "--bogus"])
        assert capsys.readouterr().err == \
            "lancards play: Fehler: unbekannte Argumente: --bogus (siehe „lancards play --help“)\n"
        with pytest.raises(SystemExit):
            main(["--lang", "de", "play", "--help"])
        out = capsys.readouterr().out
        assert out.startswith("Aufruf: lancards play [-h]")
        assert "\nOptionen:\n" in out and "diese Hilfe zeigen und beenden" in out
        assert "Bot-Plätze (Standard 3)" in out
        assert "(Standard 0,5; b am Tisch ändert es)" in " ".join(out.split())
        assert main(["--lang", "de", "play", "--bots", "9"]) == 2
        assert capsys.readouterr().err == ("lancards play: Fehler: --bots 9: Level 8 Master ist "
                                           "für 2 bis 6 Spieler, also 1 bis 5 Bots angeben\n")
        i18n.set_language("en")
        with pytest.raises(SystemExit):
            main(["play", "--bogus"])
        assert capsys.readouterr().err == \
            "lancards play: error: unrecognized arguments: --bogus (see 'lancards play --help')\n"
    finally:
        i18n.set_language("en")
