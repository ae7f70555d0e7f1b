"""``q`` at a table halted on a proven cheat (the LAN trial of 2026-12-08, finding 1b):
nothing waits there, so the dialog offers only to close the window and says why, and the line
printed after it says the game was stopped, not paused."""

from __future__ import annotations

from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.session import Banner
from lancards.cli.tui.eights_screen import EightsController
from lancards.cli.tui.level8_view import turn_fragment
from lancards.cli.tui.words import farewell
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

CAUGHT = "Cyd signed a move the rules do not allow: discard R5 (Cyd must " \
    "draw first)"


class _Halted(LocalSession):
    """A networked seat whose table halted on Cyd's cheat (as :class:`NetworkSession` says it:
    a ``cheat`` banner; the seat is resumable, it could leave for good)."""

    resumable = True

    def __init__(self) -> None:
        state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=2,
                      phase=Phase.DRAW)
        super().__init__("level8-master", names=("Ann", "Ben", "Cyd"), state=state,
                         bot_delay=60)
        self.leave_asked = 0

    def leave_for_good(self) -> None:
        self.leave_asked += 1

    def snapshot(self) -> Any:
        snap = super().snapshot()
        return snap.__class__(**{**{f: getattr(snap, f) for f in snap.__dataclass_fields__},
                                 "banners": (Banner("cheat", CAUGHT),)})


def test_q_at_a_halted_table_offers_only_to_close_the_window_and_says_why() -> None:
    session = _Halted()
    with driven(session, 160, 40) as d:
        screen = d.press("q")
        assert "The game was stopped (" + CAUGHT + "): it cannot go on, and nothing waits " \
            "for you." in screen
        assert "y: close the window   n: stay" in screen
        assert "pause" not in screen and "leave for good" not in screen
        d.press("l")  # no leave at a halted table
        assert session.leave_asked == 0 and not d.done
        d.press("y")
        d.settle(lambda: d.done)
    assert farewell(session) == "the game was stopped (" + CAUGHT + "); it cannot go on"


def test_the_small_window_asks_the_same() -> None:
    session = _Halted()
    with driven(session, 40, 10) as d:
        screen = d.press("q")
        assert screen.splitlines()[:2] == [" The game was stopped. y: close the wind",
                                           "ow  n: stay"]


def _stopped(snap: Any) -> Any:
    """``snap`` as a halted table gives it: the cheat banner, and nobody to act."""
    fields = {f: getattr(snap, f) for f in snap.__dataclass_fields__}
    return snap.__class__(**{**fields, "banners": (Banner("cheat", CAUGHT),), "to_act": None})


class _StoppedSession(_Halted):
    """The halted table as it shows: the cheat banner, and nobody to act."""

    def snapshot(self) -> Any:
        return _stopped(super().snapshot())


def test_the_title_of_a_halted_table_says_stopped_not_game_over() -> None:
    """The LAN trial with a seated attacker read 'Level 8 · round 1 · dealer bob   game over'
    on a table halted on cyd's cheat, whose banner and q dialog said it was stopped."""
    snap = _stopped(_Halted().snapshot())
    assert turn_fragment(snap) == ("class:result", "game stopped")
    session = LocalSession("eights", seed=3, bot_delay=60)
    eights = EightsController(session)
    assert eights.title(_stopped(session.snapshot()))[-1] == ("class:result", "game stopped")
    over = session.snapshot()
    over = over.__class__(**{**{f: getattr(over, f) for f in over.__dataclass_fields__},
                             "to_act": None})
    assert eights.title(over)[-1] == ("class:result", "game over")


@pytest.mark.usefixtures("german")
def test_the_title_of_a_halted_table_says_stopped_in_german() -> None:
    snap = _stopped(_Halted().snapshot())
    assert turn_fragment(snap) == ("class:result", "Spiel angehalten")
    with driven(_StoppedSession(), 100, 30) as d:
        assert " Level 8 Master · Runde 1 · " in d.text() and "Spiel vorbei" not in d.text()
        assert [line for line in d.text().splitlines() if "Spiel angehalten" in line]


def test_ctrl_c_at_a_halted_table_closes_it_saying_the_game_was_stopped() -> None:
    """Ctrl-C closes the window at once, as ``q`` ``y`` does; nothing is left for good and the
    line printed after it says the game was stopped."""
    session = _Halted()
    with driven(session, 160, 40) as d:
        d.press("\x03", until=lambda: d.done)
    assert session.leave_asked == 0
    assert farewell(session) == "the game was stopped (" + CAUGHT + "); it cannot go on"
