"""8s Rule!, the lowest total wins: a seat gone for good keeps the total it had when it left,
which read like the lowest (the new-user trial of 2026-12-06: ``You: 0 points (left the
table)`` in the result, ``You 0`` in ``lancards history``, ``bob  0`` in the round chart,
``bob +0`` in the log's round line). Each now says that the seat left instead."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from lancards.cli.history import PlayedGame, score_words
from lancards.cli.tui.narrate import scored_lines
from lancards.cli.tui.results import eights_chart


def test_the_round_chart_says_a_seat_left_instead_of_its_frozen_total() -> None:
    history = [(1, (40, 0, 25)), (2, (65, 0, 50))]
    assert eights_chart(("ann", "bob", "cyd"), history, {1}) == (
        "totals by round (lowest wins):",
        "round      1     2",
        "ann       40    65  ++++++++++",
        "bob   left the table",
        "cyd       25    50  ++++++++")
    assert eights_chart(("ann", "bob", "cyd"), history)[3] == "bob        0     0  "


def test_the_logs_round_line_leaves_out_a_seat_that_left() -> None:
    told = SimpleNamespace(results=())
    after = SimpleNamespace(results=(SimpleNamespace(round=1, totals=(40, 0, 25)),), left=(1,))
    assert scored_lines("eights", told, after, ("ann", "bob", "cyd"), 0) == [
        "round 1 scored: ann +40, cyd +25"]
    after.left = ()
    assert scored_lines("eights", told, after, ("ann", "bob", "cyd"), 0) == [
        "round 1 scored: ann +40, bob +0, cyd +25"]


def test_history_gives_no_total_to_a_seat_that_left() -> None:
    game = PlayedGame(Path("/nowhere"), "ab" * 8, game="eights", nicks=["Ann", "Bram", "Cleo"],
                      me=0, status="finished",
                      outcome={"winners": [2], "scores": [0, 170, 65]})
    assert score_words(game) == "Ann 0, Bram 170, Cleo 65 points"
    game.gone = {1: "left"}  # the unit after the totals, never after a mark
    assert score_words(game) == "Ann 0, Cleo 65 points, Bram (left the table)"
    game.left, game.gone = True, {}
    assert score_words(game) == "Bram 170, Cleo 65 points, Ann (left the table)"
    level8 = PlayedGame(Path("/nowhere"), "ab" * 8, game="level8-master", me=0,
                        nicks=["Ann", "Bram"], status="finished",
                        outcome={"winners": [1], "scores": [3, 9]}, gone={0: "left"})
    assert score_words(level8) == "Ann (left the table) level 3, Bram WIN"  # levels read right


def test_history_says_the_unit_after_the_totals_not_after_your_leave(german: None) -> None:
    """The new-user trial of 2026-12-07 read ``Cleo 205, Bram 40, Ada 135, You (left the
    table) points`` (German ``Du (vom Tisch gegangen) Punkte``) for a game it had left: the
    unit landed after the mark."""
    from lancards.cli import i18n

    game = PlayedGame(Path("/nowhere"), "ab" * 8, game="eights",
                      nicks=["Cleo", "Bram", "Ada", "You"], me=3, status="finished",
                      outcome={"winners": [1], "scores": [205, 40, 135, 90]}, left=True)
    assert score_words(game) == "Cleo: 205, Bram: 40, Ada: 135 Punkte, Du (vom Tisch gegangen)"
    i18n.set_language("en")
    assert score_words(game) == "Cleo 205, Bram 40, Ada 135 points, You (left the table)"
