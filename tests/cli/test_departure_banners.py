"""The banner of a seat that left the table for good ("NOTE: bob left the table") shows for a
while, not for the rest of the game (a new-user trial read it long after, nobody moving):
:data:`SHOWN_S` seconds from when it was first seen, by a fake clock; English and German."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lancards.cli.departure_banners import SHOWN_S, DepartureBanners
from lancards.cli.net_session import NetworkSession
from lancards.cli.session import Banner
from lancards.p2p.protocol.identity import Identity

pytestmark = pytest.mark.timeout(60)

NAMES = ("ann", "bob", "cyd")


class Clock:
    """A fake monotonic clock: seconds set by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_leave_shows_for_ten_seconds_from_when_it_was_first_seen() -> None:
    clock = Clock()
    shown = DepartureBanners(clock)
    assert SHOWN_S == 10.0
    assert shown.banners((1,), (), NAMES, 0) == [Banner("info", "bob left the table")]
    clock.now += 9.9
    assert shown.banners((1, 2), (2,), NAMES, 0) == [
        Banner("info", "bob left the table"),
        Banner("info", "cyd was removed from the table by the others' votes")]
    clock.now += 0.1  # bob's 10 s are over; cyd's began at the last call
    assert shown.banners((1, 2), (2,), NAMES, 0) == [
        Banner("info", "cyd was removed from the table by the others' votes")]
    clock.now += 10.0
    assert shown.banners((1, 2), (2,), NAMES, 0) == []
    assert shown.banners((0,), (), NAMES, 0) == []  # the own seat: the session says its own


def test_the_leave_banner_in_german(german: None) -> None:
    shown = DepartureBanners(Clock())
    assert shown.banners((1, 2), (2,), NAMES, 0) == [
        Banner("info", "bob hat den Tisch verlassen"),
        Banner("info", "cyd wurde von den anderen per Abstimmung vom Tisch entfernt")]


def test_a_networked_table_drops_the_leave_banner_after_ten_seconds(tmp_path: Path) -> None:
    """The session's snapshot: the banner, then none 10 s later (the log keeps the line)."""

    async def run() -> tuple[str, list[list[str]]]:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 3, home=tmp_path,
                                              bot_delay=60, seed=7)
        try:
            clock = Clock()
            session.departures.clock = clock
            session.core.left_seats = lambda: (1,)  # type: ignore[method-assign]
            session.node.waiting = lambda: None  # type: ignore[method-assign]
            texts = [[b.text for b in session.snapshot().banners]]
            clock.now += SHOWN_S
            texts.append([b.text for b in session.snapshot().banners])
            return session.names[1], texts
        finally:
            await session.close()

    name, (first, later) = asyncio.run(run())
    assert first == [f"{name} left the table"]
    assert later == []
