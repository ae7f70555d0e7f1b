"""Smaller things of the table (issue 25, item 14): after a draw the cursor is on the drawn
card, Home / End move it to the ends of the hand, and the help says a special card ends the
turn."""

from __future__ import annotations

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.eights.helpers import deal
from tests.level8.scenario import build

pytestmark = pytest.mark.timeout(60)

NAMES = ("Ann", "Ben", "Cat")


def marker_under(screen: str, card: str) -> bool:
    """Whether the ``^`` marker stands under the first character of ``card`` in the hand row
    (the LAN trial read it a column left of its card)."""
    lines = screen.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith(" your hand")) + 1
    at = lines[row].index(f" {card}") + 1
    return lines[row + 1][at:at + 1] == "^"


def test_after_a_draw_the_cursor_is_on_the_drawn_card_and_home_end_move_it():
    state = build("level8-master", [["R3", "O7", "B12"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.DRAW, pile_top=["G9"])
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        screen = d.press("right", "right", "right")  # on B12, the last card
        assert marker_under(screen, "B12")
        screen = d.press("d")  # R3 O7 G9 B12: the old index would land on B12
        assert "R3 O7 G9 B12" in screen and marker_under(screen, "G9"), screen
        assert marker_under(d.press("home"), "R3")
        assert marker_under(d.press("end"), "B12")
        help_text = " ".join(d.press("?").split())
        assert "instead of a discard: your turn then ends" in help_text
        assert "Home / End the cursor to the first / last card" in help_text
        assert "in brackets, how many cards the pile holds (R7(3))" in help_text


def test_home_and_end_in_eights():
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2, round_number=2)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        from lancards.cli.tui.eights_screen import flat_hand

        d.press("end")
        assert d.screen.controller.cursor == len(flat_hand(session.state, 0)) - 1 > 0
        d.press("home")
        assert d.screen.controller.cursor == 0


def test_in_eights_the_cursor_starts_on_a_playable_card():
    from lancards.cli.tui.eights_screen import flat_hand
    from lancards.engine.eights import Play

    state = deal(3, {0: "R1 R2 G5", 1: "G1 B3", 2: "G2 B4"}, dealer=0, round_number=2)
    session = LocalSession("eights", names=("Ann", "Ben", "Cat"), state=state, bot_delay=0)
    session.advance()  # Ben leads, Cat follows: Ann is to follow suit
    legal = {a.slot for a in session.game.legal_actions(session.game.view(session.state, 0), 0)
             if isinstance(a, Play)}
    flat = flat_hand(session.state, 0)
    assert flat[0][0] not in legal  # the first card of the hand cannot be played
    with driven(session, 80, 24) as d:
        assert flat[d.screen.controller.cursor][0] in legal


def test_s_keeps_the_cursor_on_the_same_card() -> None:
    """The trial: sorted by colour, the cursor on the drawn Y10; ``s`` sorted by number and
    left the cursor at the same index, now on G6."""
    from lancards.cli.tui.level8_keys import Level8Controller

    state = build("level8-master", [["G6", "Y10", "R3", "B12"], ["Y1", "G4"], ["Y2", "B6"]],
                  phase=Phase.PLAY, pile_top=["P9", "B2", "G5"])
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
    controller = Level8Controller(session, by_colour=True)
    snap = session.snapshot()
    hand = [str(card) for _slot, card in controller.hand(snap)]
    assert hand == ["R3", "Y10", "G6", "B12"]
    controller.cursor = 1  # Y10
    controller.handle("s", snap)
    sorted_hand = [str(card) for _slot, card in controller.hand(snap)]
    assert sorted_hand == ["R3", "G6", "Y10", "B12"]
    assert sorted_hand[controller.cursor] == "Y10"
    controller.handle("s", snap)
    assert (controller.cursor, str(controller.hand(snap)[controller.cursor][1])) == (1, "Y10")
