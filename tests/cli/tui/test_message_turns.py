"""The message line goes once the game moves on to another seat's turn (the new-user trial: it
still said what the person had done two turns ago): said on the person's own turn it stays for
that turn, an own move is said by the log only (its ``sent: ...`` goes once logged), an error
stays until the next key or until another seat is to act, the greeting stays until the first
move."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lancards.cli.local_session import LocalSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.engine.level8.actions import Discard
from lancards.engine.level8.state import Phase
from tests.level8.scenario import build

NAMES = ("Ann", "Ben", "Cat")


def table(turn: int = 0) -> LocalSession:
    state = build("level8-master", [["R3", "O7"], ["Y1", "G4"], ["Y2", "B6"]], turn=turn,
                  phase=Phase.DRAW, pile_top=["P9", "B2", "G5"])
    return LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)


def watched(session: Any) -> Level8Controller:
    """A controller told of every change, as the table screen tells it."""
    controller = Level8Controller(session)
    session.subscribe(lambda: controller.state_changed(session.snapshot()))
    return controller


def moved(snap: TableSnapshot, to_act: int) -> TableSnapshot:
    """``snap`` with ``to_act`` to act, in the play phase (a new state of the same round)."""
    return replace(snap, to_act=to_act, view=snap.view.evolve(phase=Phase.PLAY))


def discard_r3(snap: TableSnapshot) -> Discard:
    return next(a for a in snap.legal if isinstance(a, Discard) and str(a.card.card) == "R3")


def test_an_own_move_is_told_by_the_log_not_again_on_the_message_line() -> None:
    session = table()
    controller = watched(session)
    controller.handle("d", session.snapshot())
    snap = session.snapshot()
    assert (snap.log[-1].text, controller.shown_message(snap)) == (
        "You drew P9 from the draw pile", "")
    controller.submit(discard_r3(session.snapshot()))
    snap = session.snapshot()
    assert (snap.log[-1].text, controller.shown_message(snap)) == ("You discarded R3", "")


class Later:
    """A session whose moves are told later, as a networked table's (``deliver``)."""

    def __init__(self, session: LocalSession) -> None:
        self.inner = session
        self.sent: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def submit(self, action: Any) -> None:
        self.inner.game.check(self.inner.state, action)
        self.sent.append(action)

    def deliver(self) -> None:
        self.inner._apply(self.sent.pop(0))


def test_a_networked_move_says_sent_until_logged_then_nothing() -> None:
    session = Later(table())
    controller = watched(session)
    session.inner._apply(next(iter(session.snapshot().legal)))  # Ann draws P9
    controller.submit(discard_r3(session.snapshot()))
    assert controller.shown_message(session.snapshot()) == "sent: discard R3"
    session.deliver()  # told now: the log says it, Ben is to act
    snap = session.snapshot()
    assert (snap.log[-1].text, controller.message, controller.shown_message(snap)) == (
        "You discarded R3", "", "")


def test_a_message_said_on_another_seat_s_turn_goes_when_the_next_seat_is_to_act() -> None:
    session = table(turn=1)  # Ben's turn
    controller = Level8Controller(session)
    controller.handle("s", session.snapshot())
    snap = session.snapshot()
    assert controller.shown_message(snap) == "hand sorted by colour"
    controller.state_changed(moved(snap, 1))  # Ben drew
    assert controller.shown_message(snap) == "hand sorted by colour"
    controller.state_changed(moved(snap, 2))
    assert (controller.message, controller.shown_message(snap)) == ("", "")


def test_a_message_said_on_the_own_turn_stays_for_that_turn() -> None:
    session = table()
    controller = Level8Controller(session)
    controller.handle("s", session.snapshot())
    snap = session.snapshot()
    controller.state_changed(moved(snap, 0))
    assert controller.shown_message(snap) == "hand sorted by colour"
    controller.state_changed(moved(snap, 1))
    assert controller.shown_message(snap) == ""


def test_an_error_stays_until_the_next_key_or_another_seat_s_turn() -> None:
    session = table()
    controller = Level8Controller(session)
    controller.handle("x", session.snapshot())
    snap = session.snapshot()
    assert (controller.shown_message(snap), controller.error) == ("you cannot discard now", True)
    controller.state_changed(moved(snap, 0))  # a new state, the same seat to act
    assert controller.shown_message(snap) == "you cannot discard now"
    controller.state_changed(moved(snap, 2))
    assert (controller.shown_message(snap), controller.error) == ("", False)


def test_the_greeting_stays_whoever_is_to_act() -> None:
    session = table()
    controller = Level8Controller(session)
    words = "a paused table waits for you: 'lancards resume' goes on with it"
    controller.greet(words)
    snap = session.snapshot()
    for seat in (1, 2, 0):
        controller.state_changed(moved(snap, seat))
        assert controller.shown_message(snap) == words


def test_an_own_move_that_takes_the_trick_goes_when_the_own_lead_begins() -> None:
    """8s Rule!, networked: Ann's card took the trick and the turn came straight back (the
    new-user trial read "You played G11" under "YOUR TURN" and "trick 6: You lead")."""
    from lancards.cli.tui.eights_screen import EightsController
    from lancards.engine.eights import Play
    from tests.eights.helpers import deal, play_all

    state = play_all(deal(3, {0: "G11 R3", 1: "G4", 2: "G2"}, dealer=0), ["G4", "G2"])
    session = Later(LocalSession("eights", names=NAMES, state=state, bot_delay=60))
    controller = EightsController(session)
    session.subscribe(lambda: controller.state_changed(session.snapshot()))
    snap = session.snapshot()
    assert snap.to_act == 0
    controller.submit(next(a for a in snap.legal
                           if isinstance(a, Play) and str(a.card) == "G11"))
    assert controller.shown_message(session.snapshot()) == "sent: G11"
    session.deliver()  # told: Ann took the trick and leads trick 2
    snap = session.snapshot()
    assert (snap.to_act, [line.text for line in snap.log[-2:]]) == (
        0, ["You played G11", "You take trick 1: G4 G2 G11"])
    assert (controller.message, controller.shown_message(snap)) == ("", "")


def test_an_own_draw_told_late_goes_from_the_message_line_as_the_log_tells_it() -> None:
    """Level 8: after the draw the same seat plays on in the same turn; the log says the draw."""
    session = Later(table())
    controller = watched(session)
    controller.submit(next(iter(session.snapshot().legal)))  # Ann draws P9
    assert controller.shown_message(session.snapshot()) == "sent: draw"
    session.deliver()
    snap = session.snapshot()
    assert (snap.to_act, snap.view.phase) == (0, Phase.PLAY)
    assert (snap.log[-1].text, controller.shown_message(snap)) == (
        "You drew P9 from the draw pile", "")
