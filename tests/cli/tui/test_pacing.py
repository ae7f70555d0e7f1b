"""Bots paced per turn, not per step (issue 25, item 13): one pause before a bot's turn, its
steps at once, steps out of turn never waiting, and the speed key at the table."""

from __future__ import annotations

import asyncio
import time

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.pacing import DEFAULT_DELAY, SPEEDS, BotPacer, next_speed, turn_start
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

pytestmark = pytest.mark.timeout(60)

NAMES = ("Ann", "Ben", "Cat")


def test_a_bot_waits_only_before_the_first_step_of_its_turn():
    pacer = BotPacer(0.5)
    draw = build("level8-master", [["R3"], ["Y1", "Y2"], ["B1"]], turn=1, phase=Phase.DRAW)
    assert turn_start(draw, 1) and pacer.pause(draw, 1) == 0.5
    assert pacer.pause(draw, 2) == 0.0  # not its turn
    assert pacer.pause(draw.evolve(phase=Phase.PLAY), 1) == 0.0  # the rest of the turn
    shows = draw.evolve(phase=Phase.SHOW, show_queue=(2,), shown=((), (), ()))
    assert pacer.pause(shows, 2) == 0.0  # showing for "I'll take that!": out of turn
    assert pacer.pause(draw.evolve(phase=Phase.KEEP), 1) == 0.0
    pacer.delay = 0.0
    assert pacer.pause(draw, 1) == 0.0


def test_the_speed_key_steps_through_the_speeds_and_back():
    assert SPEEDS[0] == DEFAULT_DELAY
    seen, delay = [], DEFAULT_DELAY
    for _ in SPEEDS:
        delay = next_speed(delay)
        seen.append(delay)
    assert seen == [*SPEEDS[1:], SPEEDS[0]]
    assert next_speed(0.7) == 1.0 and next_speed(9.0) == SPEEDS[0]


def test_a_bots_whole_turn_comes_after_one_pause():
    """Ben's turn is two steps (draw, discard): both come 0.4 s after Ann's discard, not 0.4 s
    apart (the old pace waited before every step: 0.8 s for the turn)."""
    state = build("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["B1", "B2"]], turn=0,
                  phase=Phase.PLAY, pile_top=["G9", "G10"])
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=0.4)

    async def play() -> tuple[float, float]:
        runner = asyncio.ensure_future(session.run())
        await asyncio.sleep(0.05)
        start = time.monotonic()
        session.submit(session.game.parse_action(f"0: discard R3#{state.hands[0][0]}"))
        while len(session.history) < 2:
            await asyncio.sleep(0.005)
        drew = time.monotonic() - start
        while session.state.turn == 1:
            await asyncio.sleep(0.005)
        ended = time.monotonic() - start
        await session.close()
        await runner
        return drew, ended

    drew, ended = asyncio.run(asyncio.wait_for(play(), 20))
    assert [type(a).__name__ for a in session.history[:3]] == ["Discard", "Draw", "Discard"]
    assert drew >= 0.38 and ended - drew < 0.2, (drew, ended)


def test_b_changes_the_bots_speed_and_the_help_says_so():
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=DEFAULT_DELAY)
    with driven(session, 80, 24) as d:
        screen = d.press("b")
        assert session.bot_delay == 1.0
        assert " each bot waits 1 s before its turn (b: change)" in screen.splitlines()[-2]
        for _ in range(3):
            screen = d.press("b")
        assert session.bot_delay == 0.0 and " bots play at once (b: slower)" in screen
        assert session.pacer.pause(session.state.evolve(turn=1), 1) == 0.0
        screen = d.press("?", "pgdn", "pgdn")
        assert " b  " in screen and "bot speed: each bot waits" in screen
