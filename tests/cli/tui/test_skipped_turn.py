"""A skipped turn passes by itself (cli/tui/skipped_turn.py): the new-user trial had to press
``e`` to "serve the Skip" before the table went on. The message line says why first; the move
sent is the one ``e`` sends, once, and not while a panel covers the table or once it is over."""

from __future__ import annotations

from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.tui import skipped_turn
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.engine.level8.actions import PlaySpecial, ServeSkip
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.cli.tui.test_level8_screen import message_line
from tests.level8.scenario import build

NAMES = ("Ann", "Ben")


def ben_skips_ann() -> LocalSession:
    """Ben (a bot) is to play SKIP in front of Ann, the person, at once."""
    state = build("level8", [["R1", "O5"], ["SKIP", "O1", "O2"]], turn=1)
    return LocalSession("level8", names=NAMES, state=state, bot_delay=0)


def skipped(session: LocalSession) -> bool:
    return session.state.turn == 0 and session.state.phase is Phase.SKIPPED


def texts(session: LocalSession) -> list[str]:
    return [line.text for line in session.snapshot().log]


def test_the_skipped_turn_passes_by_itself_after_the_notice(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(skipped_turn, "SKIP_PAUSE_S", 60.0)
    session = ben_skips_ann()
    with driven(session, 80, 24) as d:
        d.settle(lambda: skipped(session))
        session.bot_delay = 60  # Ben's next turn waits: the state after the serve stays
        screen = d.text()
        assert message_line(screen) == " Ben skipped you: your turn passes"
        assert "YOUR TURN: you are skipped" in screen
        assert "your turn is skipped and passes by itself · Enter or e: at once" in screen
        controller = d.screen.controller
        assert isinstance(controller, Level8Controller)
        assert controller.skipped.timer is not None  # the notice shows; nothing is sent yet
        assert session.history[-1] == PlaySpecial(1, session.history[-1].card, 0)
        controller.skipped.close()  # the 60 s are over:
        d.loop.call_soon(controller.skipped.fire, controller,
                         (session.state.round, session.state.actions))
        screen = d.press(until=lambda: not skipped(session))
        assert session.history[-1] == ServeSkip(0)
        assert texts(session) == ["Ben put SKIP in front of you (Skip!)",
                                  "Your turn was skipped (Skip!)"]
        assert message_line(screen) == " Ben skipped you: your turn passes"
        assert session.state.turn == 1 and session.state.phase is Phase.DRAW


def test_the_timer_serves_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skipped_turn, "SKIP_PAUSE_S", 0.05)
    session = ben_skips_ann()
    with driven(session, 80, 24) as d:
        d.settle(lambda: len(session.history) >= 2)
        assert session.history[1] == ServeSkip(0)
        assert texts(session)[:2] == ["Ben put SKIP in front of you (Skip!)",
                                      "Your turn was skipped (Skip!)"]
        assert sum(isinstance(a, ServeSkip) for a in session.history) == 1


def noticed(d: Any, session: LocalSession) -> tuple[Level8Controller, Any]:
    """Once ``session``'s person is skipped and told so on driver ``d``'s screen (the bots held
    for 60 s): the table's controller and the skipped turn's key its timer fires for."""
    d.settle(lambda: skipped(session))
    session.bot_delay = 60
    controller = d.screen.controller
    assert isinstance(controller, Level8Controller)
    key = controller.skipped.done
    assert key is not None
    return controller, key


def test_e_during_the_notice_serves_once_and_the_timer_sends_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skipped_turn, "SKIP_PAUSE_S", 60.0)
    session = ben_skips_ann()
    sent: list[Any] = []
    submit = session.submit
    monkeypatch.setattr(session, "submit", lambda a: (sent.append(a), submit(a))[1])
    with driven(session, 80, 24) as d:
        controller, key = noticed(d, session)
        d.press("e", until=lambda: not skipped(session))
        d.loop.call_soon(controller.skipped.fire, controller, key)  # the timer after the key
        d.loop.call_soon(d.screen._changed)  # and a redraw after it
        d.settle()
        assert sent == [ServeSkip(0)]


def test_the_skip_waits_while_a_panel_covers_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(skipped_turn, "SKIP_PAUSE_S", 60.0)
    session = ben_skips_ann()
    with driven(session, 80, 24) as d:
        controller, key = noticed(d, session)
        d.press("?")  # the keys panel covers the table
        controller.skipped.close()
        d.loop.call_soon(controller.skipped.fire, controller, key)
        d.settle()
        assert skipped(session) and controller.skipped.timer is not None  # waits again
        d.press("space")  # the panel closes
        controller.skipped.close()
        d.loop.call_soon(controller.skipped.fire, controller, key)
        d.settle(lambda: not skipped(session))
        assert session.history[-1] == ServeSkip(0)


def test_a_table_opened_on_a_skipped_turn_serves_it_once() -> None:
    """A resumed table (here: a screen drawn before any loop runs, the controller's own path)
    serves at once; the log names no skipper, so the words name the card."""
    state = build("level8", [["R1", "O5"], ["O1", "O2"]], turn=0, phase=Phase.SKIPPED,
                  in_front=[["SKIP"], []])
    session = LocalSession("level8", names=NAMES, state=state, bot_delay=60)
    controller = Level8Controller(session)
    controller.state_changed(session.snapshot())
    assert session.history == [ServeSkip(0)]
    assert texts(session) == ["Your turn was skipped (Skip!)"]
    assert controller.message == "a Skip card lies in front of you: your turn passes"
    controller.state_changed(session.snapshot())  # a second look: nothing more
    assert session.history == [ServeSkip(0)]


def test_nothing_is_served_for_another_seat_or_once_the_game_is_over() -> None:
    state = build("level8", [["R1", "O5"], ["O1", "O2"]], turn=1, phase=Phase.SKIPPED,
                  in_front=[[], ["SKIP"]])
    session = LocalSession("level8", names=NAMES, state=state, bot_delay=60)
    snap = session.snapshot()
    assert skipped_turn.serve_due(snap) is None  # Ben's bot serves Ben's Skip, as before
    mine = build("level8", [["R1", "O5"], ["O1", "O2"]], turn=0, phase=Phase.SKIPPED,
                  in_front=[["SKIP"], []])
    snap = LocalSession("level8", names=NAMES, state=mine, bot_delay=60).snapshot()
    assert skipped_turn.serve_due(snap) == ServeSkip(0)
    over = type(snap)(**{**{f: getattr(snap, f) for f in snap.__dataclass_fields__},
                         "outcome": object()})
    assert skipped_turn.serve_due(over) is None


def test_german_notice() -> None:
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        session = ben_skips_ann()
        session.advance()
        assert [line.text for line in session.snapshot().log] == \
            ["Ben: SKIP vor dich gelegt („Aussetzen!“)"]
        assert skipped_turn.skipper(session.snapshot()) == "Ben"
        assert skipped_turn.skip_notice(session.snapshot()) == \
            "Ben lässt dich aussetzen: dein Zug entfällt"
    finally:
        i18n.set_language("en")
