"""The banner that says another seat left the table for good ("NOTE: bob left the table") or
was voted out, for a while only.

The seat's leave stays in the record, so a banner made from "the seats that have left" stayed up
for the rest of the game (the new-user trial read it long after, with nobody moving). It now
shows for :data:`SHOWN_S` seconds from the moment this screen first saw the seat gone (the
table's screen redraws every second, so it goes on its own); the log keeps the line
("bob left the table"), the players panel and the result mark the seat.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Sequence

from lancards.cli.i18n import _
from lancards.cli.session import Banner

SHOWN_S = 10.0
"""How long the banner of a seat that left (or was voted out) shows, in seconds."""


class DepartureBanners:
    """The banners of the seats that left, each for :data:`SHOWN_S` s after it was first seen.

    Args:
        clock: seconds, monotonic (tests pass a fake one).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.seen: dict[int, float] = {}
        """When each seat was first seen gone (the clock's seconds)."""

    def banners(self, left: Iterable[int], removed: Collection[int], names: Sequence[str],
                own: int) -> list[Banner]:
        """The banners now of the seats in ``left`` other than ``own`` (``removed``: those
        voted out, ruling D-5), in the order they left, the ones seen over :data:`SHOWN_S`
        ago left out."""
        now = self.clock()
        out = []
        for seat in left:
            if seat == own:
                continue
            if now - self.seen.setdefault(seat, now) >= SHOWN_S:
                continue
            text = _("{name} was removed from the table by the others' votes") \
                if seat in removed else _("{name} left the table")
            out.append(Banner("info", text.format(name=names[seat])))
        return out


__all__ = ["SHOWN_S", "DepartureBanners"]
