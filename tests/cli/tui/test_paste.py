"""A bracketed paste at the table with no chat open is dropped (issue 25, item 12): it is never
kept for the next chat line, where Enter would send it to everyone."""

from __future__ import annotations

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

pytestmark = pytest.mark.timeout(60)

PASTE = "\x1b[200~secret plans for everyone\x1b[201~"


def test_a_paste_without_chat_is_dropped_and_never_reaches_a_chat_line():
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    with driven(session, 80, 24) as d:
        d.press(PASTE)
        assert session.history == []  # no letter of it acted as a key (d, x, ...)
        screen = d.press("c")
        assert d.screen.chatting and d.screen.chat.text == ""
        assert "secret plans" not in screen
        d.press("enter")
        assert [line.text for line in session.snapshot().log if line.chat] == []
        # inside an open chat line a paste is typed as usual
        d.press("c", PASTE)
        assert d.screen.chat.text == "secret plans for everyone"


def test_enter_on_a_chat_line_below_the_minimum_size_sends_nothing_and_keeps_the_text():
    """The trial of 2026-12-05: shrunk below 80x24 the chat line is off screen (the table says
    the window is too small), yet Enter sent what was typed there to everyone."""
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    with driven(session, 80, 24) as d:
        d.press("c", "h", "i")
        real_size = d.screen._size
        d.screen._size = lambda: (60, 20)  # the window shrinks
        d.screen.app.invalidate()
        screen = d.press("enter")
        assert "chat>" not in screen and "hi" not in screen
        assert [line.text for line in session.snapshot().log if line.chat] == []
        assert d.screen.chatting and d.screen.chat.text == "hi"
        d.screen._size = real_size  # back to 80x24: the line is there, and Enter sends it
        d.screen.app.invalidate()
        assert "chat> hi" in d.press("!")
        d.press("enter")
        assert [line.text for line in session.snapshot().log if line.chat] == ["Ann: hi!"]
        assert not d.screen.chatting
