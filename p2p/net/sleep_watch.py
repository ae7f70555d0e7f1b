"""Noticing that this process was stopped or its machine slept (issue 24, lids that close).

A peer's event loop waits at most a fraction of a second for the next event; when two waits
lie much further apart than that, the process did not run in between: SIGSTOP and SIGCONT, or a
laptop suspended and woken. On Linux the monotonic clock stands still while the machine is
suspended (only ``CLOCK_BOOTTIME`` and the wall clock go on), so both the monotonic and the wall
clock are read and the larger step counts. A wall clock set forward by hand or by NTP looks like
a sleep too; what follows a sleep (one round of ``record.sync``) is harmless then.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

SLEEP_GAP_S = 5.0
"""A gap between two waits for an event this long (seconds) counts as a sleep."""


class SleepWatch:
    """Call :meth:`woke` after every wait for an event.

    Args:
        clock: the monotonic clock (seconds).
        wall: the wall clock (seconds since the epoch).
        gap: the step of either clock, in seconds, that counts as a sleep.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, gap: float = SLEEP_GAP_S) -> None:
        self._clock, self._wall, self.gap = clock, wall, gap
        self._last = (clock(), wall())

    def woke(self) -> bool:
        """Whether either clock stepped by :attr:`gap` or more since the last call (or since
        this watch was made)."""
        now = (self._clock(), self._wall())
        step = max(now[0] - self._last[0], now[1] - self._last[1])
        self._last = now
        return step >= self.gap


def only_the_gone_unanswered(core: Any, connected: Collection[bytes],
                             down_since: Mapping[bytes, float], held: float) -> bool:
    """Whether a hold after a sleep or a restore (``GameCore.hold_until_synced``) may end
    early: some other seat answered its ``record.sync`` (and the record is as long as it
    said), while every seat still unanswered has had no link since before the hold began
    (``held``, on the clock of ``down_since``). A resume while another peer is down need not
    wait the whole bound for it; a sleeper's own links still count as up when it wakes, so it
    waits for them to come back.

    Args:
        core: the peer's ``GameCore``.
        connected: the keys whose link is up.
        down_since: per key, since when its link is down.
        held: when the hold began.
    """
    unanswered = core.unanswered
    others = [s for s in core.deck.present if s != core.seat]
    if len(unanswered) == len(others) or max(
            (core.peer_has.get(s, 0) for s in others), default=0) > len(core.record):
        return False
    keys = [core.players[s].public_key for s in unanswered]
    return all(k not in connected and down_since.get(k, held) < held for k in keys)
