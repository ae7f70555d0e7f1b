"""The message line does not repeat the log (issue 26, the re-check trial at the host's table:
"You drew J6-10 from the draw pile" in the log and again on the message line below the hand).
An own move is said by the log, which an own move brings to its end; the message line says
``sent: ...`` only until the move is logged (a networked table), then nothing."""

from __future__ import annotations

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.actions import Discard
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.cli.tui.test_message_turns import Later
from tests.level8.scenario import build

pytestmark = pytest.mark.timeout(60)

NAMES = ("Ann", "Ben", "Cat")


def table() -> LocalSession:
    state = build("level8-master", [["R3", "O7"], ["Y1", "G4"], ["Y2", "B6"]], turn=0,
                  phase=Phase.DRAW, pile_top=["P9", "B2", "G5"])
    return LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)


def rows(screen: str) -> tuple[str, str, str]:
    """The log's last row (above the hand), the message line and the key line."""
    lines = screen.splitlines()
    hand = next(i for i, line in enumerate(lines) if line.startswith(" your hand")
                or line.startswith(" deine Hand"))
    log = next(line for line in reversed(lines[:hand]) if line.strip())
    return log, lines[-2], lines[-1]


def test_an_own_draw_is_said_by_the_log_once_at_80x24() -> None:
    with driven(table(), 80, 24) as d:
        screen = d.press("d")
    log, message, keys = rows(screen)
    assert (log, message) == (" You drew P9 from the draw pile", "")
    assert screen.count("You drew P9 from the draw pile") == 1, screen
    assert keys.startswith(" l lay down · a add · x discard")


def test_an_own_draw_in_german(german) -> None:
    with driven(table(), 80, 24) as d:
        screen = d.press("d")
    log, message, _keys = rows(screen)
    assert (log, message) == (" Du: P9 vom Nachziehstapel gezogen", "")
    assert screen.count("P9 vom Nachziehstapel") == 1, screen


def test_a_networked_move_says_sent_until_logged_then_nothing() -> None:
    session = Later(table())
    session.inner._apply(next(iter(session.snapshot().legal)))  # Ann draws P9
    with driven(session, 80, 24) as d:  # type: ignore[arg-type]
        discard = next(a for a in session.snapshot().legal
                       if isinstance(a, Discard) and str(a.card.card) == "R3")
        d.screen.controller.submit(discard)
        d.screen.app.invalidate()
        d.settle()
        assert rows(d.text())[1] == " sent: discard R3"
        session.deliver()  # every peer has it: the log tells it
        session._changed()
        d.settle()
        screen = d.text()
    assert rows(screen)[:2] == (" You discarded R3", "")
    assert screen.count("You discarded R3") == 1, screen
