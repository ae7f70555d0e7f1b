"""The audit's verdict marks a seat that left the table for good as ``lancards history`` does
(the new-user trial of 2026-12-08 read ``scores: Bram 230, Cleo 75, You 0, Ada 205`` for an
8s Rule! game the person left: in 8s Rule! the lowest total wins, so 0 read as the best)."""

from __future__ import annotations

from types import SimpleNamespace

from lancards.cli.record_tools import verdict_lines
from lancards.engine.core import Outcome
from lancards.p2p.protocol.audit import AuditReport

NAMES = ["Bram [1a2b 3c4d]", "Cleo [5e6f 7a8b]", "You [9c0d 1e2f]", "Ada [3a4b 5c6d]"]


def _report(game: str, scores: tuple[int, ...], winner: int) -> AuditReport:
    """A finished game of four whose third seat (You) left the table for good."""
    return AuditReport(ok=True, game=game, entries=412, moves=301, finished=True, status="ok",
                       outcome=Outcome((winner,), scores, {}), names=NAMES,
                       view=SimpleNamespace(left=(2,)))


def test_an_eights_seat_that_left_has_no_total_and_is_marked():
    assert verdict_lines(_report("eights", (230, 75, 0, 205), 1)) == [
        "OK: 8s Rule!, 301 moves verified, game finished; winner: Cleo [5e6f 7a8b]; "
        "scores: Bram 230, Cleo 75, Ada 205, You (left the table)"]


def test_a_seat_removed_by_vote_is_said_so():
    assert verdict_lines(_report("eights", (230, 75, 0, 205), 1), gone={2: "removed"}) == [
        "OK: 8s Rule!, 301 moves verified, game finished; winner: Cleo [5e6f 7a8b]; "
        "scores: Bram 230, Cleo 75, Ada 205, You (removed by vote)"]


def test_a_level8_seat_that_left_keeps_its_level_marked():
    assert verdict_lines(_report("level8", (5, 9, 3, 7), 1)) == [
        "OK: Level 8, 301 moves verified, game finished; winner: Cleo [5e6f 7a8b]; "
        "scores: Bram level 5, Cleo WIN, You (left the table) level 3, Ada level 7"]


def test_in_german(german):
    assert verdict_lines(_report("eights", (230, 75, 0, 205), 1)) == [
        "OK: 8s Rule!, 301 Züge geprüft, Spiel beendet; Sieger: Cleo [5e6f 7a8b]; "
        "Endstand – Bram: 230, Cleo: 75, Ada: 205, Du (vom Tisch gegangen)"]
    assert verdict_lines(_report("level8", (5, 9, 3, 7), 1)) == [
        "OK: Level 8, 301 Züge geprüft, Spiel beendet; Sieger: Cleo [5e6f 7a8b]; "
        "Endstand – Bram: Stufe 5, Cleo: Sieg, Du (vom Tisch gegangen): Stufe 3, Ada: Stufe 7"]


def test_a_record_without_a_move_says_the_deal_was_verified(german):
    """Moves are counted as ``lancards resume`` counts them ("checking the deal…" before the
    first): a table halted on a cheat at the first move says no move was played, not "0 moves"."""
    from lancards.cli import i18n

    report = AuditReport(ok=True, game="level8", entries=12, moves=0, status="unfinished",
                         unfinished="the table halted on a cheat", names=NAMES)
    assert verdict_lines(report) == [
        "NICHT BEENDET: Level 8, geprüft, kein Zug gespielt; der Tisch wurde wegen "
        "Betrugs angehalten"]
    i18n.set_language("en")
    assert verdict_lines(report) == [
        "UNFINISHED: Level 8, verified, no move played; the table halted on a cheat"]
    report.moves = 1
    assert verdict_lines(report) == [
        "UNFINISHED: Level 8, 1 move verified; the table halted on a cheat"]
