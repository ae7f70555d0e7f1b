"""The rules page (``g``, ``cli/tui/rules_page.py``): a player who forgot a rule had to leave the
table to read it (the new-user trial of session 28). ``g`` opens the current game's rules in
short, in words, for Level 8 Master, Level 8 and 8s Rule!, in English and German; Up/Down
scroll it, Esc, ``q`` and ``g`` close it (``q`` does not ask to leave meanwhile), another key
does nothing, neither on the page nor on the table or a panel beneath it (the game-over panel's
``a`` played again under the page); at 80x24 every line fits and no word is cut, and no line
starts with a number (``Stufe`` / ``7``); the ``?`` list names it."""

from __future__ import annotations

import dataclasses
import itertools
import re
from types import SimpleNamespace
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.fit import RULING, wrap_all
from lancards.cli.tui.rules_page import eights_rules, level8_rules, rules_panel
from lancards.cli.tui.width import text_width
from tests.cli.tui.harness import driven
from tests.cli.tui.test_inner_key_lines import SCREENS
from tests.cli.tui.test_play_again_screen import _over

NAMES = ("Tess", "Ada", "Bram", "Cleo")


@pytest.fixture(autouse=True)
def english() -> Any:
    i18n.set_language("en")
    yield None
    i18n.set_language("en")


def _session(game: str) -> LocalSession:
    return LocalSession(game, names=NAMES, seed=3, bot_delay=60)


def test_g_opens_the_rules_scrolls_them_and_q_closes_them_without_asking_to_leave() -> None:
    with driven(_session("level8-master"), 80, 24) as d:
        table = d.text()
        lines = d.press("g").splitlines()
        assert lines[:4] == [
            " rules of Level 8 Master (Up/Down scroll; Esc, q or g closes)",
            " Objective: be the first to climb the eight levels of your level card (o shows",
            " it). Each level asks for combinations, which you lay down all at once: never",
            " part of a level, and nothing more than it asks."]
        assert lines[-1].startswith(" ▼ ") and lines[-1].endswith(" more below (Up/Down)")
        assert d.press("x").splitlines() == lines  # another key does nothing
        scrolled = d.press("down").splitlines()
        assert scrolled[-3:] == [  # the end, and the mark of what is above
            " level 7 (2 levels up, past level 8). There are no points: the others are",
            " placed by their levels.", " ▲ 19 more above (Up/Down)"]
        closed = d.press("q")
        assert "Leave the table?" not in closed
        assert closed.splitlines()[0] == table.splitlines()[0]
        assert d.press("g").splitlines()[0].startswith(" rules of Level 8 Master")
        assert d.press("escape").splitlines()[0] == table.splitlines()[0]
        d.press("g")
        assert d.press("g").splitlines()[0] == table.splitlines()[0]


def test_the_keys_list_names_the_rules_page() -> None:
    with driven(_session("eights"), 100, 30) as d:
        shown = d.press("?").splitlines()
        at = shown.index(" g            the rules of this game in short: the objective, a turn, "
                         "the special cards, how a round")
        assert shown[at + 1] == "   and the game end (Esc, q or g closes)"
    i18n.set_language("de")
    with driven(_session("eights"), 80, 24) as d:
        shown = d.press("?").splitlines()
        at = shown.index(" g              die Regeln dieses Spiels in Kürze: das Ziel, ein Zug, "
                         "die")
        assert shown[at + 1] == ("   Sonderkarten, wie eine Runde und das Spiel enden (Esc, q "
                                 "oder g schließt)")


def _snap(game: str, **rules: Any) -> Any:
    return SimpleNamespace(rule_set=game, view=SimpleNamespace(rules=SimpleNamespace(
        is_master=game == "level8-master", **rules)))


PAGES = [("level8-master", {}), ("level8", {}), ("level8-en", {}), ("eights", {}),
         ("level8", {"level8_win": "on_going_out"}), ("eights", {"partners": True})]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("game", "rules"), PAGES)
def test_every_page_fits_80_columns_whole_words_and_no_ruling_ids(
        language: str, game: str, rules: dict[str, Any]) -> None:
    i18n.set_language(language)
    snap = _snap(game, **rules)
    panel = rules_panel(snap, 80, 23)
    texts = ["".join(f[1] for f in line) for line in panel]
    assert wrap_all(panel, 80) == panel  # nothing left for the screen to cut
    assert all(text_width(t) <= 80 for t in texts)
    body = " ".join(t.strip() for t in texts[1:])
    paragraphs = level8_rules(snap.view.rules) if game != "eights" else \
        eights_rules(snap.view.rules)
    assert body == " ".join(text for _indent, text in paragraphs)  # every word, whole
    for before, line in itertools.pairwise(texts[1:]):  # a number stays with its word
        assert not re.match(r" *[(\u2212-]?[0-9]", line), (before, line)
        assert not (before.endswith(" 8s") and line.lstrip().startswith("Rule!")), line
    assert not RULING.search(body) and not re.search(r"\b[A-Z]+\d?-\d+\b", body.replace(
        "J1-5", "").replace("J6-10", "").replace("J11-15", ""))


@pytest.mark.parametrize(("language", "game", "line"), [
    ("de", "level8",
     " Stufe 7 alle Karten los wirst (2 Stufen vor, über Stufe 8 hinaus). Punkte gibt"),
    ("en", "eights",
     " an 8, which opens its suit, or in an opened suit the next card down (7 to 1)"),
])
def test_a_word_and_its_number_share_a_line(language: str, game: str, line: str) -> None:
    """The German page read ``... wenn du in Stufe`` then ``7 alle Karten los wirst`` at 80
    columns, the English 8s Rule! page ``... lay one card: an`` then ``8, which opens``."""
    i18n.set_language(language)
    texts = ["".join(f[1] for f in row) for row in rules_panel(_snap(game), 80, 23)]
    assert line in texts, texts


def test_each_game_says_its_own_special_cards_and_end() -> None:
    def page(game: str, **rules: Any) -> str:
        return " ".join(text for _indent, text in (
            eights_rules if game == "eights" else level8_rules)(_snap(game, **rules).view.rules))

    master, level8 = page("level8-master"), page("level8")
    assert "TAKE (I'll take that!)" in master and "SKIP" not in master
    # where a played TAKE or SWAP goes: the table shows "face up under it: SWAP TAKE" beside
    # the draw pile, and the page never said it (the new-user trial of 2026-12-08)
    assert "A played TAKE or SWAP goes face up under the draw pile, where the table shows " \
        "it; when the draw pile runs out, it is shuffled into the new one with the discard " \
        "piles." in master and "A played" not in level8
    assert "SKIP (Skip!): lay it in front of another player who has none in front of them" \
        in level8 and "TAKE" not in level8
    assert "Keeping cards: on the back side of the level card (2 stars)" in level8
    assert "Keeping cards: whoever has not laid down on level 5 to 8" in master
    assert "you win the moment you lay down level 8" in master
    assert "laying down level 8 is not enough" in page("level8", level8_win="on_going_out")
    eights = page("eights")
    assert "Partners" not in eights and "Partners: partners sit opposite" in page(
        "eights", partners=True)
    assert "The first player out scores -25 and ends the game" in eights
    i18n.set_language("de")
    assert "SKIP („Aussetzen!“): leg sie vor einen Mitspieler" in page("level8")
    assert "KEEP („Die behalt’ ich!“): sie liegt bis zum Rundenende vor dir" in \
        page("level8-master")
    assert "Eine gespielte TAKE oder SWAP kommt offen unter den Nachziehstapel, wo der Tisch " \
        "sie zeigt; ist der Nachziehstapel leer, wird sie mit den Ablagestapeln in den neuen " \
        "gemischt." in page("level8-master")
    assert "Ohne Nehmen schlägt jede andere Karte ihrer Farbe die 8" in page("eights")


# keys a table, a panel or a chooser beneath the page would take (not the page's own)
BENEATH = ("a", "A", "1", "3", "y", "J", "n", "l", "enter", "space", "t", "x", "e", "p", "0",
           "m", "h", "r", "o", "?", "c", "left", "tab")


def test_at_the_game_over_panel_the_open_page_takes_a_and_the_other_games_keys() -> None:
    """``a`` under the page said "play again" (and a digit picked another game, closing the
    screen): while the page is open only its keys act; once it is closed, ``a`` answers."""
    session = _over()
    session.again = {**session.again, "others": {"1": "level8", "3": "eights"}}
    with driven(session, 80, 24) as d:
        over = d.text()
        assert over.rstrip().splitlines()[-1].startswith(" or another game with them: 1: ")
        page = d.press("g")
        assert page.splitlines()[0] == (
            " rules of Level 8 Master (Up/Down scroll; Esc, q or g closes)")
        for key in BENEATH:
            assert d.press(key) == page, key
        assert session.answers == [] and not d.done
        assert d.press("q") == over  # q closes the page, it does not say no and leave
        assert session.answers == [] and not d.done
        d.press("g", "escape", "a")
        assert session.answers == [True]


class Offered(LocalSession):
    """A table asking "remove Ada? (y/n)", the votes recorded."""

    votes: list[tuple[str, int]]

    def snapshot(self) -> Any:
        snap = super().snapshot()
        return dataclasses.replace(snap, extra={**snap.extra, "remove": 1})

    def vote_remove(self, seat: int) -> None:
        self.votes.append(("yes", seat))

    def decline_removal(self, seat: int) -> None:
        self.votes.append(("no", seat))


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_removal_question_is_not_answered_under_the_open_page(language: str) -> None:
    i18n.set_language(language)
    session = Offered("level8-master", names=NAMES, seed=3, bot_delay=60)
    session.votes = []
    with driven(session, 80, 24) as d:
        page = d.press("g")
        assert d.press("y", "J", "n", "N") == page  # j scrolls the page
        assert session.votes == []
        d.press("q", "n")
        assert session.votes == [("no", 1)]


@pytest.mark.parametrize("name", list(SCREENS))
def test_a_chooser_beneath_the_open_page_takes_none_of_its_keys(name: str) -> None:
    make, open_it, _kind, seen = SCREENS[name]
    session = make()
    with driven(session, 80, 24) as d:
        chooser = open_it(d, session)
        state = session.state
        assert seen in chooser
        page = d.press("g")
        assert page.splitlines()[0].startswith(" rules of ")
        for key in BENEATH:
            assert d.press(key) == page, key
        assert d.press("g") == chooser and session.state is state and not d.done


def test_the_leave_dialog_keeps_its_keys_and_g_does_not_open_the_page_over_it() -> None:
    with driven(_session("eights"), 80, 24) as d:
        dialog = d.press("q")
        assert "Leave the table?" in dialog
        assert d.press("g") == dialog
        table = d.press("n")
        assert "Leave the table?" not in table and not d.done
        assert d.press("g").splitlines()[0].startswith(" rules of 8s Rule!")
