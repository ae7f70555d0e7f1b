"""Issue 15 on the screen (pyte, headless): messages that match the state, plurals, one
numbering, the log's scroll-back, the objective panel, and keys that do nothing below 80x24."""

from __future__ import annotations

import re

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.eights.helpers import deal
from tests.level8.scenario import build

NAMES = ("Ann", "Ben", "Cat")


def level8_at(state, **kw) -> LocalSession:
    return LocalSession("level8-master", names=NAMES[: state.n], state=state, bot_delay=60, **kw)


def test_below_80x24_keys_do_nothing_but_quit():
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = level8_at(state)
    with driven(session, 70, 20) as d:
        assert "The window is 70x20; the table needs 80x24." in d.text()
        for key in ("d", "right", "enter", "x", "m", "1", "?", "o"):
            d.press(key)
        assert session.history == []
        assert "The window is 70x20" in d.text()
        d.press("q")
        assert "Leave the table?" in d.text()
        d.press("y")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == 1


def test_an_error_goes_once_it_is_stale_and_a_draw_names_its_card():
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  pile_top=["P9"])
    session = level8_at(state)
    with driven(session, 80, 24) as d:
        assert "you cannot discard now" in d.press("x")
        screen = d.press("d")
        assert "you cannot discard now" not in screen
        # the draw names its card in the log; the message line does not repeat it (issue 26)
        assert screen.count("You drew P9 from the draw pile") == 1
        assert screen.splitlines()[-2] == ""


def test_the_hand_counts_one_card_in_the_singular_and_seats_count_from_1():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  discards=[[], ["B5"], []])
    with driven(level8_at(state), 80, 24) as d:
        screen = d.text()
        assert "your hand (1 card, by number" in screen
        assert " > 1 Ann" in screen and "   2 Ben" in screen and "   3 Cat" in screen
        assert "d draw pile · 1-3 a discard pile" in screen
        assert "there is no player 9: the players are 1 to 3" in d.press("9")


def test_the_log_scrolls_back_through_the_whole_game_with_a_more_mark():
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat", "Dov"), seed=5,
                           bot_delay=60, autoplay=True)
    for _ in range(400):
        session.step()
    del session.bots[0]
    session.advance()
    first = session.snapshot().log[0].text
    with driven(session, 80, 24) as d:
        screen = d.text()
        assert "more above (PgUp/PgDn)" in screen and first not in screen
        for _ in range(200):
            if first in d.text():
                break
            d.press("pgup")
        screen = d.text()
        assert first in screen and "more below" in screen
        assert first == "── round 1 · dealer Cat ──"


def test_o_shows_the_level_card_in_full():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], levels=(3, 1, 2), turn=0,
                  phase=Phase.DRAW)
    with driven(level8_at(state), 80, 24) as d:
        screen = d.press("o")
        assert "1 Ann (you): level 3: triplet + 4 of one colour" in screen
        assert "3 Cat: level 2: triplet + run of 4" in screen
        assert " > level 3: triplet + 4 of one colour" in screen
        assert "level 8: triplet + quintuplet" in screen
        assert "objective (any key closes)" in screen and "objective (" not in d.press("x")


def test_eights_says_you_lead_and_its_objective_is_whole_under_o_at_80_columns():
    """The table's objective takes two rows at most (cut after a word, the new-user trial);
    ``o`` shows it whole."""
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2, round_number=2)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        screen = d.text()
        assert "trick 1: You lead" in screen and "You leads" not in screen
        words = " ".join(screen.split())
        assert "No Red cards: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 +5 each; R15 +15; " \
               "the round ends when… · lancards' own objectives · o lists them" in words
        words = " ".join(d.press("o").split())
        assert "objective: No Red cards: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 +5 " \
               "each; R15 +15; the round ends when none is left to take round 1: " in words


def test_an_engine_refusal_reads_without_slot_ids_or_ruling_ids():
    from lancards.cli.tui.controller import short_error

    text = ("seat 0: illegal '0: laydown R9#8 O9#23 G12#56 | B2#61': group 1 is not a "
            "triplet: numbers 9 12 are not all the same (ruling L8-4) (ruling L8-5)")
    assert short_error(text) == "component 1 is not a triplet: numbers 9 12 are not all the same"
    assert short_error("R7#44 cannot be added (ruling L8-7)") == "R7 cannot be added"


def test_the_round_panel_shows_progress_and_r_shows_it_again():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, down=(True, False, False),
                  levels=(1, 2, 1))
    session = level8_at(state)
    with driven(session, 80, 24) as d:
        screen = d.press("x", until=lambda: "round 1 over" in d.text())
        assert "levels climbed (# climbed, . to go; then the level after each round):" in screen
        assert " Ann  ##......  level 3  (1 3)" in screen
        assert " Ben  #.......  level 2  (2 2)" in screen  # Ben sat down on level 2
        assert "round 1 over" not in d.press("enter")
        assert " Ann  ##......  level 3  (1 3)" in d.press("r")
        assert "round 1 over" not in d.press("escape")


def test_a_long_picker_keeps_its_highlight_in_view_at_80x24():
    hand = ["R1", "O2", "Y3", "G4", "B5", "P6", "R7", "O8", "Y9", "G10", "B11"]
    state = build("level8-master", [hand, ["Y1"], ["Y2"]], turn=0, phase=Phase.PLAY)
    with driven(level8_at(state), 80, 24) as d:
        screen = d.press("m")
        assert "every legal move" in screen
        assert re.search(r"^ >  1\. discard", screen, re.MULTILINE), screen
        screen = d.press(*["down"] * 9)
        highlighted = [line for line in screen.splitlines()
                       if line.startswith(" > ") and "discard" in line]
        assert len(highlighted) == 1 and highlighted[0].startswith(" > 10. discard"), screen
        assert re.search(r"11 choices, \d+-\d+ shown: up/down for the others", screen)
        assert all(len(line) <= 80 for line in screen.splitlines())


def test_showing_says_how_many_cards_when_fewer_than_three():
    state = build("level8-master", [["R1"], ["TAKE", "O1"], ["Y1"]], turn=1, dealer=0)
    state = state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))
    with driven(level8_at(state), 80, 24) as d:
        screen = d.text()
        assert "YOUR TURN: show 1 card for TAKE" in " ".join(screen.split())
        assert "Space marks 1 card (0 marked) · Enter shows them" in screen
        assert "3 cards" not in screen
        assert "Space marks 1 card (1 marked)" in d.press("space")


def test_a_panel_that_fits_names_no_scroll_keys_and_any_key_closes_it(german: None):
    """A new-user trial read ``keys (Up/Down scroll, any other key closes)`` over a list that
    did not scroll, and Down did nothing: a panel that fits says ``any key closes``, and
    does; one taller than its window names the scroll keys (German too)."""
    from lancards.cli.tui.words import keys_panel

    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    with driven(level8_at(state), 100, 60) as d:
        rows = d.press("?").splitlines()
        assert rows[0] == " Tasten (jede Taste schließt)"
        assert not any("weitere" in row for row in rows)  # no "more below" mark
        assert "Tasten (" not in d.press("down")
    own = (("d", "draw"), ("x", "discard"))
    assert keys_panel(own, "goal", 80)[0] == [("class:picker.title",
                                               " Tasten (jede Taste schließt) ")]
    assert keys_panel(own, "goal", 80, 60)[0][0][1] == " Tasten (jede Taste schließt) "
    assert keys_panel(own, "goal", 80, 12)[0][0][1] == \
        " Tasten (Hoch/Runter blättern, jede andere Taste schließt) "


def test_up_and_down_page_the_help_and_the_objective_panels_by_their_rows_less_one():
    """The new-user trial: ``?`` at 80x24 moved 7 lines a key. Up/Down (the keys its mark line
    names), PgUp/PgDn and j/k move a page, the panel's rows less one: the last row read
    stays at the top."""
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    with driven(level8_at(state), 80, 24) as d:
        rows = d.press("?").splitlines()
        assert rows[0] == " keys (Up/Down scroll, any other key closes)"
        assert rows[23] == " ▼ 25 more below (Up/Down)"  # g (the rules page) adds 2, only SKIP
        after = d.press("down").splitlines()
        assert after[0] == rows[22]  # 22 rows on, one kept
        assert after[23] == " ▲ 22 more above · ▼ 3 more below (Up/Down)"
        assert d.press("pgdn").splitlines()[23] == " ▲ 25 more above (Up/Down)"
        assert d.press("k", "up").splitlines() == rows
        assert d.press("j").splitlines() == after
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2, round_number=2)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session, 80, 24) as d:  # it fits: no scroll keys named, and Down closes it
        rows = d.press("o").splitlines()
        assert rows[0] == " objective (any key closes)"
        assert "objective (" not in d.press("down")
