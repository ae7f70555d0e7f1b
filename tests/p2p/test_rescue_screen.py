"""The full-screen table's "remove NAME? (y/n)" (ruling D-5; cli/tui/app.py), on a
LocalSession that asks it, driven through the pyte harness."""

from __future__ import annotations

import dataclasses

from lancards.cli.local_session import LocalSession
from lancards.cli.session import REMOVED_BANNER, Banner, TableSnapshot
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build


class AskingSession(LocalSession):
    """A table whose node offers to remove seat 2 (as :meth:`NetworkSession.snapshot` does
    when :meth:`PeerNode.removal_offer` names a seat); records the answers."""

    offer: int | None = 2
    votes: list[int]
    declined: list[int]

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        if self.offer is None:
            return snap
        name = self.names[self.offer]
        return dataclasses.replace(
            snap, banners=(*snap.banners, Banner("waiting", f"remove {name}? (y/n)")),
            extra={**snap.extra, "remove": self.offer})

    def vote_remove(self, seat: int) -> None:
        self.votes.append(seat)
        self.offer = None

    def decline_removal(self, seat: int) -> None:
        self.declined.append(seat)
        self.offer = None


def _session() -> AskingSession:
    state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=0,
                  phase=Phase.DRAW)
    session = AskingSession("level8-master", names=("Ann", "Ben", "Cyd"), state=state,
                            bot_delay=60)
    session.votes, session.declined = [], []
    return session


def test_the_table_asks_remove_name_and_y_signs_n_declines() -> None:
    session = _session()
    with driven(session) as d:
        screen = d.text()
        assert "WAITING: remove Cyd? (y/n)" in screen
        screen = d.press("n")
        assert session.declined == [2] and session.votes == []
        assert "not removed: the table waits" in screen
        assert "remove Cyd?" not in screen
        session.offer = 2
        session._cached = None
        screen = d.press("y")
        assert session.votes == [2]
        assert "your vote is signed: the others must agree too" in screen
        d.press("q")
        d.press("p")
        d.settle(lambda: d.done)


class RemovedSession(LocalSession):
    """A seat that came back from a sleep to find itself voted out (issue 24): its
    :meth:`NetworkSession.snapshot` carries the banner and ``extra["removed_me"]``."""

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        return dataclasses.replace(
            snap, banners=(*snap.banners, Banner("info", REMOVED_BANNER)),
            extra={**snap.extra, "removed_me": True})


def test_a_seat_voted_out_while_away_reads_it_in_one_line_and_q_quits_at_once() -> None:
    state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=1,
                  phase=Phase.DRAW)
    session = RemovedSession("level8-master", names=("Ann", "Ben", "Cyd"), state=state,
                             bot_delay=60)
    with driven(session, columns=80, lines=24) as d:
        screen = d.text()
        assert " NOTE: you were voted out while away; watch the rest, or q to quit\n" in screen
        d.press("q")
        d.settle(lambda: d.done)
        assert d.finish() == 0  # no pause dialog: nothing waits for this seat


def test_a_seat_voted_out_watches_without_moves_and_without_empty_hand_rows() -> None:
    """The LAN trial: bob, voted out, watched on; his key line still said ``m moves · c chat``
    and under ``your hand (0 cards):`` four empty colour rows. A seat voted out is offered what
    a watcher is, and sees a watcher's heading where its hand was."""
    from lancards.cli.tui.eights_screen import EightsController
    from lancards.cli.tui.level8_keys import Level8Controller

    session = LocalSession("eights", seed=3, bot_delay=60)
    while session.state.round < 1 and session.step():
        pass
    snap = session.snapshot()
    view = dataclasses.replace(snap.view, hands=tuple(
        () if seat == snap.seat else hand for seat, hand in enumerate(snap.view.hands)))
    snap = dataclasses.replace(snap, view=view, legal=(), to_act=(snap.seat + 1) % 3,
                               extra={**snap.extra, "removed_me": True})
    eights = EightsController(session)
    assert "".join(t for _s, t in eights.hand_view(snap, 80)) == \
        " watching: no seat, the public cards only\n  Ada to move; q quits\n"  # no hand
    assert eights.hints(snap) == "watching: public cards only · PgUp/PgDn the log"
    level8 = Level8Controller(session=None)  # type: ignore[arg-type]
    assert level8.hints(snap) == "watching: public cards only · PgUp/PgDn the log"
