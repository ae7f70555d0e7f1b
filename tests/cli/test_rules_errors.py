"""The rule-option errors in the player's language (the trial of 2026-12-06: with ``--lang de``,
``lancards play --option x=y`` and three more answered in English), and ``bench --help``
without the internal ``GameCore(pipeline=...)``."""

from __future__ import annotations

from pathlib import Path

import pytest

from lancards.cli.main import main
from lancards.engine.core import RulesError
from lancards.engine.options import parse_option_args
from lancards.engine.rulesets import rule_set

CASES = (
    (["--option", "x=y"],
     "lancards play: Fehler: Regelwerk 'level8-master' hat keine Option 'x' (Optionen: "
     "reshuffle, level8_win, specials_drawable, sides, level_cards)",
     "lancards play: error: rule set 'level8-master' has no option 'x' (options: "
     "reshuffle, level8_win, specials_drawable, sides, level_cards)"),
    (["--option", "reshuffle=foo"],
     "lancards play: Fehler: Option 'reshuffle': ungültiger Wert 'foo'; eines von eager, lazy "
     "wählen",
     "lancards play: error: option 'reshuffle': invalid value 'foo'; choose one of eager, lazy"),
    (["--option", "level_cards={missing}"],  # the reason in words too (trial of 2026-12-07)
     "lancards play: Fehler: Option 'level_cards': '{missing}' ist nicht lesbar: keine solche "
     "Datei",
     "lancards play: error: option 'level_cards': cannot read '{missing}': no such file"),
    (["--option", "level_cards={folder}"],
     "lancards play: Fehler: Option 'level_cards': '{folder}' ist nicht lesbar: es ist ein "
     "Ordner",
     "lancards play: error: option 'level_cards': cannot read '{folder}': it is a folder"),
    (["--option", "sides=back"],  # German, and the seat counted from 1 (the trial of
     # 2026-12-08 read "lancards play: Fehler: seat 0 plays ..." in English)
     "lancards play: Fehler: Platz 1 spielt die Rückseite, aber keine Stufenkarten-Datei wurde "
     "angegeben (Option 'level_cards'); die Rückseiten stehen in keinem Regelheft",
     "lancards play: error: seat 1 plays the back side, but no level-card file was given "
     "(option 'level_cards'); the back sides are not in the rulebooks"),
    (["--option", "sides=left"],
     "lancards play: Fehler: Option 'sides': unbekannte Seite 'left'; front oder back angeben",
     "lancards play: error: option 'sides': unknown side 'left'; use front or back"),
    (["--game", "eights", "--option", "partners=true", "--bots", "2"],
     "lancards play: Fehler: Option 'partners' braucht 4 oder 6 Spieler, nicht 3",
     "lancards play: error: option 'partners' needs 4 or 6 players, not 3"),
)


def _said(args: list[str], lang: str, missing: Path, capsys: pytest.CaptureFixture[str]) -> str:
    words = [a.format(missing=missing, folder=missing.parent) for a in args]
    assert main(["--lang", lang, "play", *words]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(("args", "german_line", "english_line"), CASES)
def test_a_rule_option_error_is_german(german, capsys, tmp_path, args, german_line,
                                       english_line) -> None:
    missing = tmp_path / "nonexist"
    assert _said(args, "de", missing, capsys) == german_line.format(
        missing=missing, folder=missing.parent) + "\n"


@pytest.mark.parametrize(("args", "german_line", "english_line"), CASES)
def test_a_rule_option_error_stays_english(german, capsys, tmp_path, args, german_line,
                                           english_line) -> None:
    missing = tmp_path / "nonexist"
    assert _said(args, "en", missing, capsys) == english_line.format(
        missing=missing, folder=missing.parent) + "\n"


def test_the_engine_says_its_option_errors_with_a_code_and_values() -> None:
    """The engine stays English and language-free; the code and values are for the words."""
    spec = rule_set("level8-master")
    with pytest.raises(RulesError) as unknown:
        spec.make_rules({"x": "y"})
    assert (unknown.value.code, dict(unknown.value.params)) == ("unknown-option", {
        "rule_set": "level8-master", "option": "x",
        "options": ("reshuffle", "level8_win", "specials_drawable", "sides", "level_cards")})
    with pytest.raises(RulesError) as choice:
        spec.make_rules({"reshuffle": "foo"})
    assert str(choice.value).startswith(
        "option 'reshuffle': invalid value 'foo'; choose one of eager, lazy (ruling ")
    assert (choice.value.code, dict(choice.value.params)) == ("invalid-choice", {
        "option": "reshuffle", "value": "foo", "choices": ("eager", "lazy")})
    with pytest.raises(RulesError) as form:
        parse_option_args(["novalue"])
    assert (form.value.code, dict(form.value.params)) == ("not-key-value", {"item": "novalue"})
    eights = rule_set("eights")
    with pytest.raises(RulesError) as partners:
        eights.game.new_game(eights.make_rules({"partners": "true"}), 3)
    assert (partners.value.code, dict(partners.value.params)) == (
        "partners-seats", {"players": 3})


@pytest.mark.parametrize(("lang", "expected"), (
    ("en", "instead of whole games: REPEATS tables stopped once every hand is dealt, taking "
           "turns: the peers prepare the shuffles ahead, then check every proof of shuffle on "
           "arrival; medians of deal_s"),
    ("de", "statt ganzer Spiele: REPEATS Tische, angehalten sobald jede Hand ausgeteilt ist, "
           "abwechselnd: die Teilnehmer bereiten das Mischen vor, dann prüfen sie jeden "
           "Mischbeweis bei Ankunft; Mediane von deal_s"),
))
def test_bench_net_help_names_no_internal_class(german, capsys, lang, expected) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", lang, "bench", "net", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert expected in out
    assert "GameCore" not in out
    with pytest.raises(SystemExit):
        main(["--lang", lang, "bench", "play", "--help"])
    assert "GameCore" not in capsys.readouterr().out


TABLE_CASES = (
    (["--option", "rescue=maybe"],
     "Option rescue muss on oder off sein, nicht 'maybe'",
     "option rescue must be on or off, not 'maybe'"),
    (["--option", "rescue=on", "--option", "patience=abc"],
     "Option patience muss 10 bis 3600 Sekunden sein, nicht 'abc'",
     "option patience must be 10 to 3600 seconds, not 'abc'"),
    # the trial: "dealer=1" was refused as text ("not '1'"); a value is of its option's type
    # (cli/option_values.py) and a seat of the table's --players
    (["--option", "dealer=5"],
     "Option dealer muss an einem Tisch mit 3 Plätzen ein Platz 0 bis 2 sein, nicht 5",
     "option dealer must be a seat 0 to 2 at a table of 3 seats, not 5"),
    (["--option", "dealer=x"],
     "Option dealer muss an einem Tisch mit 3 Plätzen ein Platz 0 bis 2 sein, nicht 'x'",
     "option dealer must be a seat 0 to 2 at a table of 3 seats, not 'x'"),
    (["--option", "dealer=-1"],
     "Option dealer muss an einem Tisch mit 3 Plätzen ein Platz 0 bis 2 sein, nicht -1",
     "option dealer must be a seat 0 to 2 at a table of 3 seats, not -1"),
    (["--game", "eights", "--option", "dealer=1"],
     # the game's name, never its id (--game eights: 8s Rule!)
     "8s Rule! bestimmt, wer zuerst gibt, mit der Option first_dealer, nicht dealer",
     "8s Rule! names its first dealer with the option first_dealer, not dealer"),
)
"""The table's own options (``p2p/protocol/statement.py``), refused by ``lancards host``."""


@pytest.mark.parametrize(("lang", "index", "start"), (("de", 1, "Fehler"), ("en", 2, "error")))
@pytest.mark.parametrize("case", TABLE_CASES)
def test_a_table_option_error_is_in_the_language(german, capsys, tmp_path, monkeypatch, case,
                                                 lang, index, start) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["--lang", lang, "host", "--autoplay", "--interface", "127.0.0.1",
                 "--players", "3", *case[0]]) == 2
    assert capsys.readouterr().err == f"lancards host: {start}: {case[index]}\n"


def test_first_dealer_not_dealer_is_german(german) -> None:
    """A rule set with its own first_dealer refuses the table option dealer: the check's code
    and values (the command line's words: :data:`TABLE_CASES`)."""
    from lancards.cli.rules_errors import rules_error_words
    from lancards.p2p.protocol.statement import registry_rules_check

    with pytest.raises(RulesError) as refused:
        registry_rules_check("eights", {"dealer": 1})
    assert str(refused.value) == ("eights names its first dealer with the option first_dealer, "
                                  "not dealer")
    assert (refused.value.code, dict(refused.value.params)) == (
        "first-dealer-not-dealer", {"game": "eights"})
    assert rules_error_words(refused.value) == (
        "8s Rule! bestimmt, wer zuerst gibt, mit der Option first_dealer, nicht dealer")
