"""A LAN trial's German screen (Level 8 Master, 80x24, five players): from round 2 on the
players panel's requirement column grew wide ("Drilling + 5 Karten einer Farbe") and the own
row lost its "(du)", and the title lost the dealer ("Runde 2   DU BIST DRAN: auslegen, anlegen,
dann ablegen"), where English kept both. A requirement too wide now goes on at the next line
before the mark goes, and the German title keeps the dealer as the English one does."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.requirement_wrap import wrapped
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES = ("ann", "bo", "cy", "bea", "dan")


def _cards(colour: str, count: int) -> list[str]:
    return [f"{colour}{number}" for number in range(1, count + 1)]


def round_two(in_front: list[list[str]] | None = None) -> LocalSession:
    """Round 2, cy deals; bea (seat 4, level 1) has drawn and plays, R11 on her discard pile;
    the others on levels 2, 3, 2 and 4 hold 10 cards each, none down."""
    state = build("level8-master",
                  [_cards("P", 10), _cards("Y", 10), _cards("B", 10), _cards("G", 11),
                   _cards("O", 10)],
                  turn=3, phase=Phase.PLAY, levels=[2, 3, 2, 1, 4], dealer=2, round_no=2,
                  discards=[[], [], [], ["R11"], []], in_front=in_front)
    return LocalSession("level8-master", names=NAMES, seat=3, state=state, bot_delay=60)


def screen(language: str, in_front: list[list[str]] | None = None) -> list[str]:
    i18n.set_language(language)
    try:
        with driven(round_two(in_front), 80, 24) as d:
            return d.text().splitlines()
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "top"), [
    ("en", [
        " Level 8 Master · round 2 · dealer cy   YOUR TURN: lay down, add, then discard",
        "   # player     lvl requirement               down hand discard   kept",
        "   1 ann          2 triplet + run of 4        no     10 -",
        "   2 bo           3 triplet + 4 of one colour no     10 -",
        "   3 cy           2 triplet + run of 4        no     10 -",
        " > 4 bea (you)    1 4 pairs                   no     11 R11(1)",
        "   5 dan          4 triplet + 5 of one colour no     10 -",
        " bots: ann, bo, cy, dan (greedy)"]),
    ("de", [
        " Level 8 Master · Runde 2 · cy gibt   DU BIST DRAN: auslegen, anlegen, ablegen",
        "   # Spieler   St.  Aufgabe                         gelegt Hand Ablage    vorne",
        "   1 ann          2 Drilling + 4er-Folge            nein     10 -",
        "   2 bo           3 Drilling + 4 Karten einer Farbe nein     10 -",
        "   3 cy           2 Drilling + 4er-Folge            nein     10 -",
        " > 4 bea (du)     1 4 Paare                         nein     11 R11(1)",
        "   5 dan          4 Drilling + 5 Karten einer Farbe nein     10 -",
        " Bots: ann, bo, cy, dan (gierig)"]),
])
def test_round_two_keeps_the_own_mark_and_the_dealer(language: str, top: list[str]) -> None:
    """The trial's screen: the column of the cards in front is as wide as its cards (it kept
    room for two), so the German requirements fit beside "bea (du)"."""
    assert screen(language)[:len(top)] == top


@pytest.mark.parametrize(("language", "top"), [
    ("en", [
        "   # player     lvl requirement               down hand discard   kept",
        "   1 ann          2 triplet + run of 4        no     10 -",
        "   2 bo           3 triplet + 4 of one colour no     10 -         KEEP KEEP",
        "   3 cy           2 triplet + run of 4        no     10 -",
        " > 4 bea (you)    1 4 pairs                   no     11 R11(1)",
        "   5 dan          4 triplet + 5 of one colour no     10 -"]),
    ("de", [
        "   # Spieler   St.  Aufgabe              gelegt Hand Ablage    vorne",
        "   1 ann          2 Drilling + 4er-Folge nein     10 -",
        "   2 bo           3 Drilling +           nein     10 -         KEEP KEEP",
        "                    4 Karten einer Farbe",
        "   3 cy           2 Drilling + 4er-Folge nein     10 -",
        " > 4 bea (du)     1 4 Paare              nein     11 R11(1)",
        "   5 dan          4 Drilling +           nein     10 -",
        "                    5 Karten einer Farbe"]),
])
def test_a_requirement_too_wide_goes_on_at_the_next_line_before_the_mark_goes(
        language: str, top: list[str]) -> None:
    """Two cards in front of bo leave no room for "Drilling + 5 Karten einer Farbe" beside
    "bea (du)": the requirement goes on at the next line, the mark stays."""
    assert screen(language, [[], ["KEEP", "KEEP"], [], [], []])[1:1 + len(top)] == top


def test_a_requirement_breaks_between_its_components_only() -> None:
    assert wrapped("Drilling + 5 Karten einer Farbe", 29) == ["Drilling +",
                                                              "5 Karten einer Farbe"]
    assert wrapped("Paar + Drilling + Vierling", 17) == ["Paar + Drilling +", "Vierling"]
    assert wrapped("4 Paare", 12) == ["4 Paare"]
    assert wrapped("Drilling + 5 Karten einer Farbe", 19) is None  # the mark goes instead


@pytest.mark.parametrize(("language", "line"), [
    ("en", " l lay down · a add · x discard · p special · m moves · ? keys · q quit · h hint"),
    ("de", " l/a/x aus-/an-/ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · h Tipp"),
])
def test_the_key_line_after_the_draw_keeps_q_at_80_columns(language: str, line: str) -> None:
    """The trial's German key line after the draw read ``... · m Züge · ? Tasten · h Tipp``:
    no ``q beenden``, the way to leave. German says the three lay-down keys at once now (as
    ``t/n 8 mit/ohne Nehmen``), and ``? Tasten``, ``q beenden`` and ``h Tipp`` all fit."""
    assert screen(language)[-1] == line


def test_q_is_never_left_out_of_the_key_line() -> None:
    """Where ``? keys`` fits and ``q quit`` after it would not, ``q quit`` stays (its room is
    kept first) and ``? keys`` is left out (the ``?`` list has it all)."""
    from lancards.cli.tui.words import key_line

    keys = "k" * 62
    assert key_line(keys, 80, hint=True) == f" {keys} · q quit"
    assert key_line(keys, 90, hint=True) == f" {keys} · ? keys · q quit · h hint"
    assert key_line("s sort", 80, hint=False) == " s sort · ? keys · q quit · o goal"
    # the builder's and a picker's line the same (they kept "? keys" and left q out)
    assert key_line(keys, 80, hint=False) == f" {keys} · q quit"
