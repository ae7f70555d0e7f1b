"""How the bots at a person's table are paced: per turn, not per step (issue 25, item 13).

A bot waits once, before the first move of its turn; the rest of its turn (what it drew, laid
down, added, discarded) follows at once, so the whole turn reaches the screen as one step, and
the trivial steps out of turn (showing cards for "I'll take that!", keeping at round end) never
wait. So in a 4-player game a person waits for three pauses between two of their own turns,
however many steps the bots' turns have: 1.5 s at the default :data:`DEFAULT_DELAY`, plus the
bots' own time (``lancards bench play --waits``, ``docs/benchmarks.md``).

No asyncio here: :class:`BotPacer` answers "how long now", and the bot driver
(:func:`lancards.p2p.net.node.drive_bot`) sleeps.
"""

from __future__ import annotations

from typing import Any

from lancards.cli.i18n import _, number_text
from lancards.engine.core import Seat

DEFAULT_DELAY = 0.5
"""Seconds a bot waits before its turn at ``lancards play`` (``--bot-delay``)."""

SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 0.2, 0.0)
"""The delays the speed key (``b``) steps through, from the default: normal, slow, slower,
fast, at once."""

TURN_PHASES = frozenset({"DRAW", "SKIPPED", "TRICKS", "LAYOUT"})
"""The phases in which a seat's own turn starts: Level 8's draw and a skipped turn
(rulings L8-3, L8C-1), 8s Rule!'s trick play and round 8's layout (rulings E-3, E-7)."""


def delay_seconds(text: str | float) -> float:
    """``--bot-delay``'s value checked: a number of seconds, 0 to 10. argparse keeps the text as
    typed (no ``type=``), and ``play``, ``resume`` and ``host`` check it here among their other
    values, so a refusal reads as theirs do (``--bots 9: ...``): the new-user trial of issue 26
    read argparse's ``invalid float value: 'abc'``, then ``argument --bot-delay: 'abc' is ...``.

    Raises:
        UsageError: not a number (``nan`` neither), or out of range, in plain words.
    """
    import math

    from lancards.cli.errors import UsageError

    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if math.isnan(seconds):
        raise UsageError(_("--bot-delay {text!r}: not a number of seconds; use 0 to 10, "
                           "e.g. 0.5").format(text=text))
    if not 0 <= seconds <= 10:
        raise UsageError(_("--bot-delay {text}: use 0 to 10 seconds").format(text=text))
    return seconds


def turn_start(view: Any, seat: Seat) -> bool:
    """Whether ``seat``'s next move in ``view`` (a Level 8 or 8s Rule! state) starts its turn:
    it holds the turn (``view.turn``) in a phase where a turn starts (:data:`TURN_PHASES`)."""
    phase = getattr(getattr(view, "phase", None), "name", "")
    return getattr(view, "turn", None) == seat and phase in TURN_PHASES


def next_speed(delay: float) -> float:
    """The delay after ``delay`` in :data:`SPEEDS` (seconds); a delay not in the list goes to
    the first one above it, or back to the first."""
    for i, speed in enumerate(SPEEDS):
        if abs(speed - delay) < 1e-9:
            return SPEEDS[(i + 1) % len(SPEEDS)]
    above = [s for s in SPEEDS if s > delay]
    return min(above) if above else SPEEDS[0]


def speed_words(delay: float) -> str:
    """The bots' pace in words, for the message line."""
    if delay <= 0:
        return _("bots play at once (b: slower)")
    return _("each bot waits {seconds} s before its turn (b: change)").format(
        seconds=number_text(delay))


class BotPacer:
    """The pauses of the bot seats of one table.

    Args:
        delay: seconds a bot waits before its turn (0: never wait); :attr:`delay` may be
            changed while the table runs (the speed key).
    """

    def __init__(self, delay: float) -> None:
        self.delay = max(0.0, delay)

    def pause(self, view: Any, seat: Seat) -> float:
        """Seconds bot ``seat`` waits before its next move in ``view``: :attr:`delay` when
        the move starts the seat's turn (:func:`turn_start`), else 0."""
        return self.delay if self.delay > 0 and turn_start(view, seat) else 0.0
