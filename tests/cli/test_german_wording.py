"""German wording of a new user's trial (2026-12-06): the host's waiting screen says who waits
impersonally, an 8 is played "mit Nehmen" / "ohne Nehmen", going out is "alle Karten los", the
footer's q is "beenden" (the End key is "Ende"), commands in German quotes „…“, and the help of
``bench``, ``--local``, ``resume`` and ``node`` in German. Exact words."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from lancards.cli.i18n import _, ngettext


def test_the_host_waits_impersonally(german) -> None:
    assert _("lancards · your table, waiting for players") == (
        "lancards · dein Tisch, wartet auf Spieler")  # was "warte auf": who waits?
    assert ngettext("waiting for {count} player", "waiting for {count} players", 1).format(
        count=1) == "wartet auf 1 Spieler"
    assert _("play again: waiting for {names} to answer").format(names="ann") == (
        "noch einmal: wartet auf die Antwort von ann")


def test_an_8_is_played_mit_or_ohne_nehmen(german) -> None:
    """"eine 8 mit nehmen/nicht nehmen" read as a verb after "mit"; the declarations themselves
    stay „nehmen“ / „nicht nehmen“ (the trick line's "hana B8 nehmen")."""
    assert _("Enter/x play · t/n an 8 with take/no take · m moves") == (
        "Enter/x legen · t/n 8 mit/ohne Nehmen · m Züge")  # short: "h Tipp" fits at 80
    assert _("play the 8 of the led suit (any 8 when you lead) with take: it takes the trick / "
             "no take: any other card of its suit beats it") == (
        "die 8 der ausgespielten Farbe spielen (beim Ausspielen jede 8), mit Nehmen: sie nimmt "
        "den Stich / ohne Nehmen: jede andere Karte ihrer Farbe schlägt sie")
    assert _("take") == "nehmen" and _("no take") == "nicht nehmen"
    assert _("you may lead any of your 8s: move onto one and press n to lead it with no take") == (
        "du darfst jede deiner 8er ausspielen: geh auf eine und drücke n, um sie ohne Nehmen "
        "auszuspielen")


def test_every_german_key_line_keeps_q_at_80_columns(german) -> None:
    """The new-user trial of 2026-12-06: at 80 columns the German 8s Rule! key line dropped
    "q beenden" (the line the table shows under the hand: the keys, then "? Tasten" and
    "q beenden" where they fit, ``TableScreen._status_lines``)."""
    from lancards.cli.tui.width import text_width

    for keys in ("Enter/x play · t/n an 8 with take/no take · m moves",
                 "s sort · m moves · c chat"):
        line = " " + _(keys) + _(" · ? keys") + _(" · q quit")
        assert text_width(line) <= 80, line


def test_the_german_key_lines_of_the_own_move_name_the_hint_at_80_columns(german) -> None:
    """A new-user trial: at 80 columns the German key line never showed "h Tipp" (it comes
    after "? Tasten" and "q beenden", where the line has room): the 8s Rule! line and Level 8's
    draw line are short enough (``TableScreen._status_lines``)."""
    from lancards.cli.tui.width import text_width

    eights = _("Enter/x play · t/n an 8 with take/no take · m moves")
    draw = _("d draw pile · 1-{n} a discard pile · s sort").format(n=6)
    assert (eights, draw) == ("Enter/x legen · t/n 8 mit/ohne Nehmen · m Züge",
                              "d ziehen · 1-6 Ablage · s sortiert")
    for keys in (eights, draw):
        line = " " + keys + _(" · ? keys") + _(" · q quit") + _(" · h hint") + \
            (_(" · o goal") if keys == draw else "")  # as the English line keeps it
        assert text_width(line) <= 80, line


def test_going_out_is_alle_karten_los(german) -> None:
    """"-25 fürs Fertigwerden" and a round's "(fertig)" did not say what was done: the round
    results, the objective and the hint say "alle Karten los" (the seed: "seine letzte
    Handkarte ablegt")."""
    from types import SimpleNamespace

    from lancards.cli.tui.results import eights_round, level8_round

    report = level8_round(2, ["Du", "Bram"], [1, 1], [2, 3])
    assert report.lines == ("Du: Stufe 1 -> Stufe 2 (ausgelegt)",
                            "Bram: Stufe 1 -> Stufe 3 (alle Karten los)")
    # A player who left for good is said to have left, not "(bleibt)" (a LAN trial).
    gone = level8_round(1, ["eve", "bob", "ann"], [1, 1, 1], [1, 1, 1], left=(1, 2))
    assert gone.lines == ("eve: Stufe 1 -> Stufe 1 (bleibt)", "bob: Stufe 1 (vom Tisch "
                          "gegangen)", "ann: Stufe 1 (vom Tisch gegangen)")
    assert gone.summary == "Runde 1 – eve: Stufe 1, bob ist gegangen, ann ist gegangen"
    result = SimpleNamespace(points=(-25, 30), penalties=(0, 0), went_out=0, reneges=(),
                             round=8, ended_early=False)
    assert eights_round(result, ["Du", "Bram"], (40, 90), "").lines[0] == (
        "Du: -25 (alle Karten los), Summe 40")
    assert _("round 8: the layout: +10 per card left, -25 for going out") == (
        "Runde 8: die Auslage: +10 je übrige Karte, -25 fürs Loswerden aller Karten")


def test_q_is_beenden_not_the_end_key(german) -> None:
    """The footer's "q Ende" read as the End key, which the ``?`` keys call "Ende"."""
    assert _(" · q quit") == " · q beenden" and _("quit") == "beenden"
    assert _("Home / End") == "Pos1 / Ende"


def test_commands_stand_in_german_quotes(german) -> None:
    """'lancards resume' in ASCII quotes in German sentences: „lancards resume“, as everywhere."""
    assert ngettext("a paused table waits for you: 'lancards resume' goes on with it",
                    "{count} paused tables wait for you: 'lancards resume' goes on with the "
                    "latest", 2).format(count=2) == (
        "2 pausierte Tische warten auf dich: „lancards resume“ spielt den letzten weiter")
    assert _("a rule option (repeatable); options of kind 'file' take a path") == (
        "eine Regeloption (wiederholbar); Optionen der Art „file“ nehmen einen Pfad")


def test_audit_help_says_exit_status_and_the_farewell_has_no_space_before_dots(
        german, capsys) -> None:
    import pytest

    from lancards.cli.main import main

    with pytest.raises(SystemExit):
        main(["--lang", "de", "audit", "--help"])
    assert "Rundenende. Exit-Status 0, wenn alles stimmt, 1, wenn nicht (ABGELEHNT:" in " ".join(
        capsys.readouterr().out.split())  # was "Ende mit 0, wenn es stimmt"
    assert _("you left the table for good; the bots play the game to its end...") == (
        "du hast den Tisch endgültig verlassen; die Bots spielen das Spiel zu Ende...")


def test_the_help_says_teilnehmer_not_peer(german, capsys) -> None:
    """``bench --help`` listed its targets in English; the help of ``--local``, ``resume`` and
    ``node`` said "Peer" (docs/glossary-de.md: Teilnehmer; Peer only in "Peer-Schicht")."""
    import pytest

    from lancards.cli.main import main

    with pytest.raises(SystemExit):
        main(["--lang", "de", "bench", "--help"])
    out = capsys.readouterr().out
    assert "    net        Teilnehmer als Prozesse auf 127.0.0.1: Zeit des Gebens, Latenz\n" \
           "               eines geprüften Zugs, gesendete Bytes\n" in out
    assert "    engine     Partien gegen sich selbst pro Sekunde und die Zeit von\n" in out
    assert _("engine and bots in this process: no peers, no mental poker") == (
        "Spielregeln und Bots in diesem Prozess: keine Teilnehmer im Netz, kein Mental Poker")
    assert _("Restart every peer of a table this machine played (the player and its bots) from "
             "their journals, verifying everything again, and continue the game.") == (
        "Jeden Teilnehmer eines Tisches, an dem dieser Rechner spielte (den Spieler und seine "
        "Bots), aus seinen Journalen neu starten, alles erneut prüfen und das Spiel fortsetzen.")
    assert _("Run one peer of an already started table from its JSON config file (scripts and "
             "tests; the format is in docs/protocol.md).").startswith(
        "Einen Teilnehmer eines schon begonnenen Tisches aus seiner JSON-Konfigurationsdatei ")


PO = Path(__file__).resolve().parents[2] / "cli" / "locale" / "de" / "LC_MESSAGES" / "lancards.po"
QUOTED = re.compile(r"„[^“]*“")
"""A German quotation: the special cards' calls („Die nehm’ ich!“) are names, not the program."""
FIRST_PERSON = re.compile(r"\b(?:ich|mich|mir|mein|meine[mnrs]?)\b", re.IGNORECASE)
PROGRESSIVE = {"listening": "höre", "dialling": "rufe", "calling": "rufe", "asking": "frage",
               "looking": "suche", "searching": "suche", "waiting": "warte", "sending": "sende",
               "loading": "lade", "connecting": "verbinde", "writing": "schreibe",
               "checking": "prüfe", "trying": "versuche", "starting": "starte"}
"""An English status line's "-ing" and the German first person it must not become ("listening
on ..." is not "höre auf ..."); the same word as the du imperative ("prüfe die Platte" for
"check the disk") is right where the English is an imperative too."""


def _first_person(message_id: str, text: str) -> list[str]:
    text = QUOTED.sub("", text)
    found = FIRST_PERSON.findall(text)
    for english, german in PROGRESSIVE.items():
        # lower case, or a line's first word: "die Suche läuft" is a noun
        if re.search(rf"\b{english}\b", message_id) and re.search(
                rf"(?:^{german.capitalize()}|(?<![\w-]){german})\b", text):
            found.append(german)
    return found


def test_no_german_line_speaks_in_the_first_person() -> None:
    """The program does not say "ich": "Port 48100 ist belegt; höre auf 48101 und rufe jeden
    Teilnehmer an" read as the program speaking. A status line is impersonal ("es wird ...
    gelauscht", "wartet auf ...", "die Suche läuft"); the player is "du" (docs/glossary-de.md)."""
    with PO.open("rb") as f:
        catalog = read_po(f)
    speaking = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        speaking += [(text, words) for text in texts
                     if (words := _first_person(" ".join(ids), text))]
    assert speaking == []
    # the check itself: it sees the old lines, and passes the calls and the imperatives
    assert _first_person("port {port} is taken; listening on {new} and dialling every peer",
                         "Port {port} ist belegt; höre auf {new} und rufe jeden Teilnehmer "
                         "an") == ["höre", "rufe"]
    assert _first_person("waiting for the table to fill", "warte, bis der Tisch voll ist") == [
        "warte"]
    assert _first_person("x", "ich bin hier; mein Tisch") == ["ich", "mein"]
    assert _first_person("looking...", "Suche...") == ["suche"]
    assert _first_person("looking...", "die Suche läuft...") == []
    assert _first_person("I'll take that!", "„Die nehm’ ich!“") == []
    assert _first_person("check the disk", "prüfe die Platte") == []


def test_status_lines_are_impersonal(german) -> None:
    assert _("port {port} is taken; listening on {new} and dialling every peer").format(
        port=48100, new=48101) == (
        "Port 48100 ist belegt; stattdessen wird auf 48101 gelauscht und jeder Teilnehmer "
        "angerufen")
    assert _("no tables found yet on this network (looking...)") == (
        "noch keine Tische in diesem Netzwerk gefunden (die Suche läuft...)")
    assert _("asking the table of {host} at {where} for a seat...").format(
        host="ann", where="192.0.2.7:48100") == (
        "der Tisch von ann unter 192.0.2.7:48100 wird nach einem Platz gefragt...")
    assert _("waiting for the table to fill") == "wartet, bis der Tisch voll ist"


def test_a_bench_targets_description_is_german(german, capsys, monkeypatch) -> None:
    """``bench net --help`` gave its module's English docstring as the description, markup and
    all; under ``--lang de`` or ``LANG=de_DE.UTF-8`` it is the German paragraph."""
    import pytest

    from lancards.cli.main import main

    with pytest.raises(SystemExit):
        main(["--lang", "de", "bench", "net", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert ("Jeder Teilnehmer in einem eigenen Prozess auf 127.0.0.1, ganze Partien mit Bots: die "
            "Zeit des Gebens (deal_s), die Zeit von einem Zug, bis jeder Teilnehmer ihn geprüft "
            "hat (move_median_ms, move_p95_ms), und die Bytes, die jeder Teilnehmer seinen "
            "Verbindungen übergibt (wire_bytes, je Protokolleintrag und je Zug). Mit --observers "
            "schauen zusätzlich Zuschauer dem Spiel zu. Eine JSON-Zeile je Teilnehmerzahl.") in out
    assert "peers in separate processes" not in out
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with pytest.raises(SystemExit):
        main(["bench", "deck", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert ("Der Anteil jedes Teilnehmers am Mental-Poker-Deck, N Teilnehmer in diesem einen "
            "Prozess, als Prozessorzeit: ein Mischen mit seinem Beweis (prove_ms),") in out
    assert "--config PEERSxCARDS eine Konfiguration wie 4x98 (wiederholbar; Standard 3x60 und " \
           "6x108)" in out  # was "3x60 and 6x108"


def _round_lines() -> tuple[str, str, str]:
    from types import SimpleNamespace

    from lancards.cli.tui.results import eights_round, level8_round

    result = SimpleNamespace(points=(-25, 30), penalties=(0, 0), went_out=0, reneges=(),
                             round=8, ended_early=False)
    return (level8_round(1, ["Tess", "Du"], [1, 1], [2, 9]).summary,
            level8_round(1, ["Tess", "You"], [1, 1], [2, 9]).summary,
            eights_round(result, ["Du", "Bram"], (40, 90), "").summary)


def test_round_lines_put_a_colon_after_each_name_and_a_dash_after_the_round(german) -> None:
    """The round lines said "Runde 1: Tess Stufe 2, Du Sieg" where the history says "Du: Sieg";
    now "Runde 1 – Tess: Stufe 2, Du: Sieg" (docs/glossary-de.md, "The log's style")."""
    assert _round_lines() == ("Runde 1 – Tess: Stufe 2, Du: Sieg",
                              "Runde 1 – Tess: Stufe 2, You: Sieg", "Runde 8 – Du: 40, Bram: 90")


def test_the_english_round_lines_stay() -> None:
    assert _round_lines() == ("round 1: Tess level 2, Du WIN", "round 1: Tess level 2, You WIN",
                              "round 8: Du 40, Bram 90")
