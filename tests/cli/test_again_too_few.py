"""The game-over panel when too few players are left for the game that ended, but another game
fits them (``again_status``'s ``too_few_for``; ``Rematch.games``): at an 8s Rule! table with
2 players left it offers the Level 8 games, without "a: play again" and without the "or" of
"or another game", in English and German."""

from __future__ import annotations

import pytest

from lancards.cli.play_again import again_status, again_words, other_games, others_words
from tests.p2p.test_rematch_fits import _eights_with

NB = "\u00a0"  # the no-break spaces of others_words


def test_two_left_at_8s_rule_read_the_other_games_only() -> None:
    _, (ann, _bob, _gone) = _eights_with(2)
    status = again_status(ann)
    assert (status["asked"], status["too_few_for"]) == (True, "eights")
    assert again_words(status) == \
        "too few players left for 8s Rule!: another game with them? · q: leave"
    assert others_words(other_games("eights", 2), only=True) == (
        f"another game with them: 1:{NB}Level{NB}8{NB}Master{NB}· 2:{NB}Level{NB}8{NB}· "
        f"3:{NB}Level{NB}8{NB}(English)")


def test_three_left_are_asked_to_play_again_as_before() -> None:
    _, (ann, _bob, _cyd) = _eights_with(3)
    status = again_status(ann)
    assert status["too_few_for"] == ""
    assert again_words(status) == "play again with the same players? a: play again · q: leave"


@pytest.mark.usefixtures("german")
def test_in_german() -> None:
    _, (ann, _bob, _gone) = _eights_with(2)
    assert again_words(again_status(ann)) == \
        "zu wenige Spieler für 8s Rule! übrig: ein anderes Spiel mit ihnen? · q: gehen"
    assert others_words(other_games("eights", 2), only=True) == (
        f"ein anderes Spiel mit ihnen: 1:{NB}Level{NB}8{NB}Master{NB}· 2:{NB}Level{NB}8{NB}· "
        f"3:{NB}Level{NB}8{NB}(englisch)")


def test_the_game_over_panel_reads_the_other_games_without_play_again() -> None:
    from types import SimpleNamespace

    from lancards.cli.tui.overlays import report_lines
    from lancards.cli.tui.results import RoundReport

    _, (ann, _bob, _gone) = _eights_with(2)
    status = {**again_status(ann), "others": other_games("eights", 2)}
    panel = report_lines(RoundReport(0, "result: Ann wins with the lowest total", ()),
                         SimpleNamespace(extra={"again": status}))  # type: ignore[arg-type]
    said = ["".join(text for _style, text in line) for line in panel]
    assert said[-2:] == [
        " too few players left for 8s Rule!: another game with them? · q: leave",
        f" another game with them: 1:{NB}Level{NB}8{NB}Master{NB}· 2:{NB}Level{NB}8{NB}· "
        f"3:{NB}Level{NB}8{NB}(English)"]
    assert not any("a: play again" in line for line in said), said
