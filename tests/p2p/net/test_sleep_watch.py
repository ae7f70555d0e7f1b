"""p2p/net/sleep_watch.py: a sleep is a step of either clock (issue 24, lids that close)."""

from __future__ import annotations

from lancards.p2p.net.sleep_watch import SLEEP_GAP_S, SleepWatch


def test_a_step_of_either_clock_is_a_sleep_and_small_steps_are_not() -> None:
    mono, wall = [100.0], [1_700_000_000.0]
    watch = SleepWatch(lambda: mono[0], lambda: wall[0])
    seen = []
    for dm, dw in [(0.2, 0.2), (0.0, 0.0), (4.9, 4.9),  # waits and a slow handler
                   (0.1, 3600.0),  # suspended: CLOCK_MONOTONIC stood still (Linux)
                   (40.0, 40.0),  # SIGSTOP for 40 s, then SIGCONT
                   (0.2, 0.2)]:
        mono[0] += dm
        wall[0] += dw
        seen.append(watch.woke())
    assert seen == [False, False, False, True, True, False]
    assert SLEEP_GAP_S == 5.0
