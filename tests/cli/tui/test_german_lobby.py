"""German lobby and waiting screens (issue 28), rendered fast (the screens' own fragments,
wrapped as their windows wrap them, no terminal): exact lines at 80 columns, every line
fitting and no word cut (every word a whole word of the German catalog, a nickname or a
game's name, as ``test_german_screens.fits`` checks)."""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lancards.cli import i18n
from lancards.cli.lobby.common import guest_lines, refusal_text
from lancards.cli.lobby.join import _free_seats
from lancards.cli.tui.fit import FitControl, to_lines
from lancards.cli.tui.lobby import LobbyScreen, TableEntry, entry_from
from lancards.cli.tui.waiting import WaitingScreen
from lancards.p2p.net.discovery import TableAdvert
from lancards.p2p.protocol.identity import fingerprint
from tests.cli.tui.test_german_screens import GAME_WORDS, WORD, vocabulary

ANN, CAT = bytes(range(32)), bytes(range(1, 33))
NICKS = {"Ann", "Ben", "Cat", "Dov", "Eli", "Zoe", "ann", "bob"}
TABLES = [
    entry_from(TableAdvert("00112233aabbccdd", "level8-master", 2, "Ann", ANN, 48100,
                           ("192.0.2.7",), 4, ("Ann", "Ben")), "192.0.2.7"),
    replace(entry_from(TableAdvert("0011223344556677", "eights", 0, "Cat", CAT, 48100,
                                   ("192.0.2.8",), 3, ("Cat", "Dov", "Eli")), "192.0.2.8"),
            started=True),
]


pytestmark = pytest.mark.usefixtures("german")  # every test here in German (tests/cli/conftest.py)


def fits(lines: list[str], columns: int = 80, rows: int = 24) -> list[str]:
    assert len(lines) <= rows and all(len(line) <= columns for line in lines), lines
    known = vocabulary() | NICKS | GAME_WORDS | {"lobby", "eights", "level8", "English"}
    text = "\n".join(lines)
    # fingerprints (MMG4-2KLG-...) and table ids are no words
    words = re.sub(r"\b[A-Z0-9]{4}(-[A-Z0-9]{4})*\b|\b[0-9a-f]{16}\b", " ", text)
    unknown = {w for w in WORD.findall(words) if w not in known}
    assert not unknown and "…" not in text, unknown
    return lines


def lobby_lines(keys: str = "", tables: list[TableEntry] = TABLES) -> list[str]:
    with create_pipe_input() as pipe:
        lobby = LobbyScreen(tables, "Zoe [0BAD-F00D]", print, print, print, input=pipe,
                            output=DummyOutput())  # 80 columns
        for key in keys:
            lobby._answer(key) if lobby.asking else None
            if key == "n":
                lobby.asking = True
        wrapped = FitControl(lambda width: to_lines(lobby._render())).wrapped(80)
    return fits(["".join(f[1] for f in line).rstrip() for line in wrapped])


def test_the_german_lobby_at_80_columns():
    lines = lobby_lines()
    assert lines[0] == " lancards-Lobby   du bist Zoe [0BAD-F00D]"
    assert lines[2] == "   Spiel           Gastgeber          Plätze    Spieler"
    ann, cat = fingerprint(ANN)[:4], fingerprint(CAT)[:4]
    assert lines[3] == f" > Level 8 Master  Ann {ann}           2/4       Ann, Ben"
    assert lines[4] == f"   8s Rule!        Cat {cat}           zuschauen Cat, Dov, Eli"
    assert lines[6] == \
        f" Gastgeber Ann [{fingerprint(ANN)}], Tisch 00112233aabbccdd, 192.0.2.7:48100"
    assert lines[-1] == \
        " Hoch/Runter · Enter beitreten · n neuer Tisch · a Adresse eingeben · q beenden"
    asking = lobby_lines("n")
    assert asking[-3:] == [  # wrapped between games, continued indented; no English words
        " Tisch anlegen: welches Spiel? 1 Level 8 Master · 2 Level 8 ·",
        "   3 Level 8 (englisch) · 4 8s Rule!",
        " die Zahl · Esc zurück"]
    seats = lobby_lines("n1")
    assert seats[-2] == \
        " Tisch Level 8 Master anlegen: wie viele Plätze, deiner mitgezählt? 2 bis 6"


def test_the_german_rescue_line_names_the_option_as_typed_and_the_end_at_three():
    """The LAN trial read "rescue on: wer verschwindet, ..." with its label in English; and a
    removal at the 3-seat 8s Rule! table ended the game unwarned."""
    three = entry_from(TableAdvert("00112233aabbccdd", "eights", 2, "Ann", ANN, 48100,
                                   ("192.0.2.7",), 3, ("Ann",), rescue=True), "192.0.2.7")
    lines = lobby_lines(tables=[three])
    at = next(i for i, line in enumerate(lines) if "rescue" in line)
    assert lines[at:] == [  # filled at 76 columns, as the lobby fills it
        " Rettung an (rescue=on): wer verschwindet, kann von allen anderen",
        " hinausgestimmt werden, aber alle anderen zusammen könnten die Hand eines",
        " Spielers öffnen",
        " an diesem Tisch endet das Spiel sofort, wenn jemand entfernt wird: dann sind",
        " zu wenige Spieler übrig, um weiterzuspielen",
        " Hoch/Runter · Enter beitreten · n neuer Tisch · a Adresse eingeben · q beenden"]


def waiting_lines(screen: WaitingScreen, columns: int = 80) -> list[str]:
    wrapped = FitControl(lambda width: to_lines(screen._render())).wrapped(columns)
    return fits(["".join(f[1] for f in line).rstrip() for line in wrapped], columns)


def _lobby(members: int, me: bytes) -> SimpleNamespace:
    people = [SimpleNamespace(nick=n, public_key=k) for n, k in
              [("ann", ANN), ("bob", CAT)][:members]]
    return SimpleNamespace(roster_version=1, members=people, spec=SimpleNamespace(host=ANN),
                           signed_statement=None, proposed=False)


def test_the_german_waiting_screen_of_a_joiner():
    with create_pipe_input() as pipe:
        screen = WaitingScreen(i18n._("lancards · joining a table"), input=pipe,
                               output=DummyOutput())
        me = SimpleNamespace(public_key=CAT, nick="bob")
        screen.show(guest_lines(_lobby(2, CAT), me, "ann", "192.0.2.7:48100", 4))  # type: ignore[arg-type]
        assert waiting_lines(screen) == [
            " lancards · Beitritt zu einem Tisch", "",
            " du bist dem Tisch von ann unter 192.0.2.7:48100 beigetreten",
            " am Tisch: ann (Gastgeber), bob (du)",
            " wartet auf 2 weitere Spieler (2 von 4 Plätzen besetzt)", "",
            " q, Esc oder Strg-C: abbrechen"]
        screen.show(guest_lines(_lobby(2, CAT), me, "ann", "192.0.2.7:48100", 3))  # type: ignore[arg-type]
        assert waiting_lines(screen)[4] == \
            " wartet auf 1 weiteren Spieler (2 von 3 Plätzen besetzt)"
        screen.question = refusal_text("wrong-game", "eights", "level8", "ann [WYXI]")
        screen.choices = {"r": i18n._("rejoin (choose a table again)"), "q": i18n._("quit")}
        lines = waiting_lines(screen)
        assert lines[-4:] == [
            " der Gastgeber ann [WYXI] hat diesen Beitritt abgewiesen: sein Tisch spielt 8s",
            "   Rule!, nicht Level 8 (lancards join --game eights tritt ihm bei)", "",
            " r neu beitreten (Tisch erneut wählen) · q beenden"]
    assert _free_seats(0) == "kein freier Platz" and _free_seats(1) == "1 freier Platz"
    assert _free_seats(3) == "3 freie Plätze"
