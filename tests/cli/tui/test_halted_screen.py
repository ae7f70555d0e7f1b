"""``q`` at a table halted on a proven cheat (the LAN trial of 2026-12-08, finding 1b):
nothing waits there, so the dialog offers only to close the window and says why, and the line
printed after it says the game was stopped, not paused."""

from __future__ import annotations

from typing import Any

from lancards.cli.local_session import LocalSession
from lancards.cli.session import Banner
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
