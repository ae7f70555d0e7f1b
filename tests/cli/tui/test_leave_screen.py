"""The table's ``q``: pause or leave for good (rulings D-1..D-4), and a leaver seen by the
others, on a LocalSession driven through the pyte harness."""

from __future__ import annotations

import asyncio
import contextlib
import io
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.net_session import NetworkSession
from lancards.cli.tui.leaving import leaving_words
from lancards.engine.core import Leave
from lancards.engine.level8.state import Phase
from lancards.p2p.net.waiting import Waiting
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import close_session, driven
from tests.level8.scenario import build

NAMES = ("Ann", "Ben", "Cyd")


def _session() -> LocalSession:
    state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=0,
                  phase=Phase.DRAW)
    return LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)


def test_q_offers_pause_or_leave_for_good_and_leaving_closes_the_window() -> None:
    session = _session()
    with driven(session) as d:
        screen = d.press("q")
        assert "Leave the table?" in screen
        assert "y or p: pause: the game waits for you (lancards resume brings you back)" \
            in screen
        assert "l: leave for good: the game goes on without you" in screen
        screen = d.press("l")
        assert "Leave for good? You cannot come back: your hand goes out of play face" in screen
        assert "y: leave for good   n: stay" in screen
        screen = d.press("n")  # stay: nothing happened
        assert "Leave for good?" not in screen and "Leave the table?" not in screen
        assert session.game.left_seats(session.state) == ()
        d.press("q")
        d.press("l")
        d.press("y")
        d.settle(lambda: d.done)
        assert d.done
    assert d.task is not None and d.task.result() == 1
    assert session.game.left_seats(session.state) == (0,)
    assert session.snapshot().extra["left"] is True
    lines = [line.text for line in session.snapshot().log]
    # play passed to the next seat (D-1), and the bots played the game to its end at once
    # (a table of this process alone: nothing else would go on with it)
    assert lines[lines.index("You left the table") + 1].startswith("Ben "), lines
    assert session.over


def test_a_leave_at_a_local_table_has_the_bots_play_the_game_to_its_end(capsys) -> None:
    """``lancards play --local``, ``q`` ``l`` ``y``: the window said "the game goes on without
    you" and the process ended with the game unplayed (a table of this process alone is not
    kept, so nothing ever went on). Now its bots play the game to its end at once and the
    result is printed, as at a networked ``lancards play``."""
    from lancards.cli.tui.words import farewell

    session = LocalSession("level8", names=NAMES, seed=5, bot_delay=60)
    with driven(session) as d:
        d.settle(lambda: bool(session.snapshot().legal))
        d.press("q")
        d.press("l")
        d.press("y")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == 1
    assert "the bots play the game to its end..." in capsys.readouterr().out
    assert session.over
    said = farewell(session).split("\n")
    assert said[0] == "the game went on without you:", said
    assert said[1].startswith("Level 8: "), said  # the printed result names its game
    assert "Ann: level 1 (left the table)" in said, said


def test_pause_keeps_the_seat() -> None:
    session = _session()
    with driven(session) as d:
        d.press("q")
        d.press("p")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == 1
    assert session.game.left_seats(session.state) == ()


def test_another_player_leaving_is_told_and_the_game_goes_on() -> None:
    session = _session()
    with driven(session) as d:
        session._apply(Leave(2))  # what the peer layer applies when Cyd's leave arrives
        d.settle(lambda: "Cyd left the table" in d.text())
        screen = d.text()
        assert "Cyd left the table" in screen
        assert "YOUR TURN: draw a card" in screen.splitlines()[0]
        row = next(line for line in screen.splitlines() if line.startswith("   3 Cyd"))
        assert row.split()[3:6] == ["left", "the", "table"], row  # in the players panel
        d.press("q")
        d.press("p")
        d.settle(lambda: d.done)


@pytest.mark.timeout(120)
async def bounded(condition: Any, what: str, limit: float = 30.0) -> None:
    """Wait until ``condition()``, polling every 50 ms.

    Raises:
        AssertionError: not within ``limit`` s, naming ``what``.
    """
    for _ in range(int(limit / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_network_session_leaves_for_good_and_the_table_sees_it(tmp_path: Any) -> None:
    """Peers on 127.0.0.1 (``lancards play``'s table): the player leaves at its first move;
    8s Rule! needs 3 players (ruling D-3), so the game ends and both bots rank above it."""

    async def play() -> None:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 2, home=tmp_path, bot_delay=0,
                                              seed=7)
        task = asyncio.create_task(session.run())
        try:
            await bounded(lambda: session.core.legal_actions(), "the player's first move")
            session.leave_for_good()
            # written at once (its move): the window says so while it waits for the others to
            # build on it, not "once the table comes to you" (the trial of 2026-12-06)
            extra = session.snapshot().extra
            assert extra["left_written"] and leaving_words(extra) == (
                "You left the table for good: this window closes once the others have your "
                "leave")
            await bounded(lambda: session.snapshot().extra["left"], "the leave delivered")
            assert session.node.store is not None
            assert (session.node.store.folder / "finished").exists()  # nothing to resume
            for node in session.nodes:
                await bounded(lambda n=node: n.core.has_left(session.seat), "the leave")
                outcome = node.core.game.outcome(node.core.state)
                assert outcome is not None and outcome.detail["left"] == [session.seat]
                assert outcome.detail["places"][session.seat] == 3
            bot = next(n for n in session.nodes if n is not session.node)
            entries = [e.to_dict() for e in session.core.record.entries]
            assert [e.to_dict() for e in bot.core.record.entries] == entries
            assert entries[-1]["payload"]["t"] == "leave"
            with pytest.raises(LocalProtocolError):
                session.leave_for_good()
            # the leave ended the game (too few left): not "the game went on without you"
            # (the trial of 2026-12-07 read that under "the game ended early")
            from lancards.cli.tui.words import farewell

            said = farewell(session).split("\n")
            assert said[0] == "the game ended with your leave:"
            assert said[-1] == ("the game ended early: after Ann went, too few players were "
                                "left to play on")
        finally:
            await close_session(session, task)

    asyncio.run(play())


def test_a_leaver_s_window_closes_once_the_others_acknowledge_not_at_the_next_move(
        tmp_path: Any) -> None:
    """The trial of 2026-12-07: a leaver's window waited for the next player's move ("closes
    once the others have your leave"), so a leaver whose next player was away kept it open.
    Level 8 Master, 3 seats, bots that wait 60 s before a turn: the leave is delivered (the
    window may close) within seconds, before the next seat moved, by the others' acks."""

    async def play() -> None:
        me = Identity(b"\x0a" * 32, "Ann")
        session = await NetworkSession.create("level8-master", {}, me, 2, home=tmp_path,
                                              bot_delay=60, seed=11)
        task = asyncio.create_task(session.run())
        try:
            await bounded(lambda: session.core.legal_actions(), "the player's first move")
            length = len(session.core.record)
            session.leave_for_good()
            assert session.core.has_left(session.seat)
            assert len(session.core.record) == length + 1  # the leave, nothing after it
            await bounded(lambda: session.snapshot().extra["left"], "the leave delivered",
                          limit=10.0)
            assert len(session.core.record) == length + 1  # nobody built on it: the acks did
            assert session.core.leave_heard()
            for node in session.nodes:
                assert node.core.has_left(session.seat)
        finally:
            await close_session(session, task)

    asyncio.run(play())


def test_the_line_printed_once_the_window_closes_says_how_to_come_back() -> None:
    """Issue 25, item 9: pausing or leaving printed nothing once the screen closed."""
    from lancards.cli.tui.words import farewell

    session = _session()
    assert farewell(session) == "the game stopped (a table of this machine alone is not kept)"
    session.resumable = True  # type: ignore[attr-defined]  # as NetworkSession
    assert farewell(session) == "paused: the game waits for you; lancards resume brings you back"


class _LeaveWaitsForPausedCyd(LocalSession):
    """A networked seat's leave that waits (issue 25, item 9): the leave is written at this
    seat's next turn to write, and the table waits for Cyd, who paused, so it never comes.
    As :class:`NetworkSession`: ``leave_for_good`` only asks, ``extra["waiting"]`` says whom
    the table waits for, and the seat is resumable."""

    resumable = True

    def __init__(self) -> None:
        state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]], turn=2,
                      phase=Phase.DRAW)
        super().__init__("level8-master", names=NAMES, state=state, bot_delay=60)
        self.leave_asked = 0

    def leave_for_good(self) -> None:
        self.leave_asked += 1  # pending: Cyd's move comes first

    def snapshot(self) -> Any:
        snap = super().snapshot()
        snap.extra["waiting"] = Waiting(2, "Cyd", "their move", 40, False, True).text()
        return snap


def test_a_leave_waiting_on_a_paused_player_says_so_and_q_y_still_pauses() -> None:
    """Issue 25, item 9: a leaver whose next player paused stayed on "Leaving for good..." for
    good; the line names whom it waits for, and q then y pauses and closes the window with the
    paused farewell (the leave was never written: resume brings the seat back)."""
    from lancards.cli.tui.words import farewell

    session = _LeaveWaitsForPausedCyd()
    with driven(session, 80, 24) as d:
        d.press("q", "l", "y")
        assert session.leave_asked == 1 and not d.done
        rows = d.text().splitlines()
        at = next(i for i, x in enumerate(rows) if "Leaving for good" in x)
        assert rows[at:at + 2] == [  # wrapped at 80 columns at a space
            " Leaving for good once the table comes to you (waiting for Cyd, who paused",
            "   (their move), 40 s); q pauses instead"]
        screen = d.press("q")
        assert "Leave the table?" in screen
        assert "l: leave for good" not in screen  # asked already
        d.press("y")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == 1
    assert session.leave_asked == 1 and session.game.left_seats(session.state) == ()
    assert farewell(session) == "paused: the game waits for you; lancards resume brings you back"


@pytest.mark.parametrize(("language", "keys", "leave", "again"), [
    ("en", " Enter: continue · q quit", "Leave the table?", "round 1 over"),
    ("de", " Enter: weiter · q beenden", "Den Tisch verlassen?", "Runde 1 vorbei")])
def test_q_on_a_round_s_result_asks_to_leave_and_n_shows_the_result_again(
        language: str, keys: str, leave: str, again: str) -> None:
    """The new-user trial of 2026-12-05: ``q`` on the round-result panel did nothing; that of
    2026-12-08: its key line said only ``Enter: continue``, and ``n`` (stay) to the dialog also
    closed the round's result. At 80x24, in English and German."""
    from tests.cli.tui.test_golden_screens import NAMES as GOLDEN_NAMES

    probe = LocalSession("eights", names=GOLDEN_NAMES, seed=5, bot_delay=60, autoplay=True)
    steps = 0
    while not probe.state.results:
        assert probe.step()
        steps += 1
    session = LocalSession("eights", names=GOLDEN_NAMES, seed=5, bot_delay=60, autoplay=True)
    for _ in range(steps - 6):
        session.step()
    i18n.set_language(language)
    try:
        with driven(session, 80, 24) as d:
            while not session.state.results:
                session.step()
            d.settle(lambda: again in d.text())
            assert keys in d.text().splitlines()
            screen = d.press("q")
            assert again not in screen and leave in screen
            screen = d.press("n")
            assert leave not in screen and again in screen and keys in screen.splitlines()
            assert not d.done  # stayed at the table
            screen = d.press("enter")  # Enter closes the result as before
            assert again not in screen
            screen = d.press("r")  # the last round's result, again
            assert again in screen
    finally:
        i18n.set_language("en")


@pytest.mark.timeout(120)
def test_an_eights_round_dealt_again_after_a_leave_is_in_the_others_log(tmp_path: Any) -> None:
    """Peers on 127.0.0.1, 8s Rule! for 4: a bot leaves mid-round; the player's log says the
    round is dealt again without it and marks the round with its (new) dealer (the trial of
    2026-12-05 saw only "NAME left the table", then a hand of 20 cards); so does ``lancards
    replay`` of the record."""
    said: list[tuple[str, str]] = []

    async def play() -> None:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 3, home=tmp_path, bot_delay=0,
                                              seed=7, autoplay=True,
                                              record_path=str(tmp_path / "game.jsonl"))
        task = asyncio.create_task(session.run())
        try:
            for _ in range(600):  # a few tricks into round 1
                if len(getattr(session.core.state, "trick_winners", ())) >= 2:
                    break
                await asyncio.sleep(0.05)
            leaver = next(n for n in session.nodes if n is not session.node)
            dealer = session.names[session.core.state.dealer]  # the leaver is not (seed 7)
            assert dealer != leaver.core.me.nick
            leaver.leave()
            name = leaver.core.me.nick
            for _ in range(600):
                texts = [line.text for line in session.snapshot().log]
                if f"{name} left the table" in texts:
                    break
                await asyncio.sleep(0.05)
            at = texts.index(f"{name} left the table")
            assert texts[at + 1:at + 3] == [
                f"round 1 is dealt again without {name}; nobody scores the cards played",
                f"── round 1 · dealer {dealer} ──"]
            await asyncio.wait_for(task, 100)  # the three left play it to its end
            said.append((name, dealer))
        finally:
            await close_session(session, task)

    asyncio.run(play())
    [(name, dealer)] = said
    from lancards.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(tmp_path / "game.jsonl")]) == 0
    lines = [line.strip() for line in out.getvalue().splitlines()]
    at = lines.index(f"{name} leaves the table (for good; the hand goes out of play unopened)")
    assert lines[at + 1:at + 3] == [
        f"round 1 is dealt again without {name}; nobody scores the cards played",
        f"── round 1 · dealer {dealer} ──"]


def test_r_before_any_round_ended_says_so() -> None:
    """The trial of 2026-12-05: ``r`` before the first round's end did nothing, silently."""
    session = _session()
    with driven(session) as d:
        screen = d.press("r")
        assert "r shows the last round's result: no round has ended yet" in screen
        d.press("q")
        d.press("p")
        d.settle(lambda: d.done)


def test_a_german_table_asks_j_for_yes_and_takes_it() -> None:
    """The trial of 2026-12-05: the German dialog asked ``y`` (English "yes"); German says
    ``j`` (ja). Both keys answer there; English keeps ``y`` only."""
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        session = _session()
        with driven(session) as d:
            screen = d.press("q")
            assert "j oder p: Pause: das Spiel wartet auf dich" in screen
            d.press("j")
            d.settle(lambda: d.done)
        assert d.task is not None and d.task.result() == 1  # paused
    finally:
        i18n.set_language("en")
    session = _session()
    with driven(session) as d:
        d.press("q")
        screen = d.press("j")  # not an answer in English: the dialog stays
        assert "Leave the table?" in screen and not d.done
        d.press("y")
        d.settle(lambda: d.done)


def test_a_watchers_farewell_is_said_in_the_players_language() -> None:
    """It was the one farewell without words in the catalog (English on a German terminal)."""
    from types import SimpleNamespace

    from lancards.cli import i18n
    from lancards.cli.tui.words import farewell

    watcher = SimpleNamespace(snapshot=lambda: SimpleNamespace(outcome=None,
                                                               extra={"watching": True}))
    assert farewell(watcher) == "you stopped watching the table"  # type: ignore[arg-type]
    i18n.set_language("de")
    try:
        assert farewell(watcher) == "du schaust dem Tisch nicht mehr zu"  # type: ignore[arg-type]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("language", "head", "round_word"), [
    ("en", "you left the table for good; the bots play the game to its end...", "round"),
    ("de", "du hast den Tisch endgültig verlassen; die Bots spielen das Spiel zu Ende...",
     "Runde"),
])
def test_a_leave_at_a_local_table_says_at_once_what_happens_then_every_round(
        capsys: Any, language: str, head: str, round_word: str) -> None:
    """``lancards play --local``, ``q`` ``l`` ``y``: the last session's trials read the first
    line, then nothing for 3 s (``PROGRESS_S``), then ``round 5...``: the rounds the bots
    played meanwhile were never said. At a table of this process alone each round is said
    from the one being played, at once (the engine plays a round in a second or less), with
    no wait (``PROGRESS_S`` as it is)."""
    from lancards.cli.tui import leaving

    assert leaving.PROGRESS_S == 3.0
    # four seats: three play on (with two, the game would end at the leave: ruling D-3)
    session = LocalSession("eights", names=(*NAMES, "Dee"), seed=5, bot_delay=60)
    i18n.set_language(language)
    try:
        with driven(session) as d:
            d.settle(lambda: bool(session.snapshot().legal))
            capsys.readouterr()
            d.press("q")
            d.press("l")
            d.press("y")
            d.settle(lambda: d.done)
    finally:
        i18n.set_language("en")
    assert session.over
    printed = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    of = "of" if language == "en" else "von"
    assert printed[-9:] == [head, *(f"{round_word} {n} {of} 8..." for n in range(1, 9))]


def test_the_result_after_leaving_ranks_the_winner_first_and_says_no_evening_of_one_game(
        tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """``lancards play`` of 8s Rule!, the person at seat 0 leaves for good (``q`` ``l`` ``y``)
    at its first move and the bots play the game to its end (``leaving.play_out``): the lines
    printed then are the game-over panel's, the winner (the lowest total) first, the leaver
    last and marked. The person read ``You: 0 points (left the table)`` first, under the
    result line; the new-user trial then read the evening of this one game under it.

    The bots play without their pauses once the person left (the table's delay of 0.5 s is
    0), and each round is said as they play it (issue 26's new-user trial read nothing for
    about a minute: the rounds' shuffles and checked moves, not a pause); here from the start
    (``PROGRESS_S`` 0)."""
    from lancards.cli.tui import leaving
    from lancards.cli.tui.leaving import play_out

    monkeypatch.setattr(leaving, "PROGRESS_S", 0.0)
    monkeypatch.setattr(leaving, "PROGRESS_POLL_S", 0.02)
    from lancards.cli.tui.words import farewell

    async def play() -> NetworkSession:
        me = Identity(b"\x04" * 32, "You")
        session = await NetworkSession.create("eights", {}, me, 3, home=tmp_path,
                                              bot_delay=0.5, seed=3)
        task = asyncio.create_task(session.run())
        try:
            assert session.seat == 0
            await bounded(lambda: session.core.legal_actions(), "the player's first move", 60)
            session.leave_for_good()
            await bounded(lambda: session.snapshot().extra["left"], "the leave delivered", 60)
            await play_out(session, task)
            assert session.snapshot().outcome is not None
            assert session.bot_delay == 0.0
            assert session.pacer.pause(session.core.state, 1) == 0.0
        finally:
            await close_session(session, task)
        return session

    session = asyncio.run(play())
    assert capsys.readouterr().out.splitlines() == [
        "you left the table for good; the bots play the game to its end...",
        *(f"round {n} of 8..." for n in range(1, 9))]
    assert farewell(session).split("\n") == [
        "the game went on without you:",
        "8s Rule!: Ada wins with the lowest total",  # the game named, as printed
        "Ada: 150 points",
        "Bram: 170 points",  # level with Cleo, ahead on the round-7 totals (ruling E-9)
        "Cleo: 170 points",
        "You: left the table",  # last (ruling D-2), not first by its seat; no total
    ]  # no "evening so far: You: 0 wins, 0 points ...": one game is no evening (the trial)
    outcome = session.snapshot().outcome
    assert outcome is not None and outcome.detail["places"] == [4, 3, 1, 2]


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["round 5 of 8...", "round 5..."]),
    ("de", ["Runde 5 von 8...", "Runde 5..."]),
])
def test_the_play_out_says_the_round_of_8s_rule_of_8_and_of_level_8_alone(
        language: str, words: list[str]) -> None:
    """The play-out's progress (issue 26): 8s Rule! has 8 rounds; Level 8's are not counted in
    advance."""
    from lancards.cli.tui.leaving import progress_words

    i18n.set_language(language)
    try:
        assert [progress_words("eights", 5), progress_words("level8", 5)] == words
    finally:
        i18n.set_language("en")


def test_sigcont_draws_the_table_whole_again() -> None:
    """A LAN trial stopped a player's lancards (kill -STOP, a lid closed) in a terminal's
    shell, which printed its prompt on the table; after kill -CONT and fg the table was drawn
    by differences only over the shell's lines ("draw pile: 77dcards"). SIGCONT clears the
    screen and draws it whole."""
    import os
    import signal

    session = _session()
    with driven(session, 80, 24) as d:
        clean = d.text()
        d.term.stream.feed("\x1b[6;2H[1]+  Stopped   lancards join\r\nbash-5.2# fg\r\n")
        assert "Stopped" in d.text()
        os.kill(os.getpid(), signal.SIGCONT)
        d.settle(lambda: "Stopped" not in d.text(), limit=2.0)
        assert d.text() == clean
