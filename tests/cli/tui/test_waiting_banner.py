"""The WAITING banner of a networked table says "waiting" once (the new-user trial read
"WAITING: waiting for jo (their move), 21 s"): the banner's words leave out "waiting for" under
their mark, in English and German; the message line and the leave's words, which show the
words alone, keep it."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from lancards.cli.net_session import NetworkSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.app import TableScreen
from lancards.cli.tui.controller import not_now
from lancards.p2p.net.waiting import Waiting
from lancards.p2p.protocol.identity import Identity

pytestmark = pytest.mark.timeout(60)

JO = Waiting(1, "jo", "their move", 71.2, True, kind="action")
"""A connected seat silent over its own move past the minute (a banner, not thinking)."""


def _snapshots(home: Path, waits: list[Waiting]) -> list[TableSnapshot]:
    """A 3-seat networked table (Ann and two bots) whose node waits for each of ``waits``."""

    async def run() -> list[TableSnapshot]:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 3, home=home, bot_delay=60,
                                              seed=7)
        try:
            snaps = []
            for wait in waits:
                session.node.waiting = lambda w=wait: w  # type: ignore[method-assign]
                snaps.append(session.snapshot())
            return snaps
        finally:
            await session.close()

    return asyncio.run(run())


def _banner(snap: TableSnapshot) -> list[str]:
    screen = SimpleNamespace(_snap=lambda: snap, reports=[])
    return [text for _, text in TableScreen._banner_lines(screen)]  # type: ignore[arg-type]


def test_the_waiting_banner_says_waiting_once(tmp_path: Path) -> None:
    cut = replace(JO, connected=False, seconds=21.2)
    stuck = replace(JO, nick="cyd", unreached=("bot1",), seconds=12.4)
    snaps = _snapshots(tmp_path, [JO, cut, stuck])
    assert [_banner(s) for s in snaps] == [
        [" WAITING: jo (their move), 71 s "],
        [" WAITING: jo, no connection (their move), 21 s "],
        [" WAITING: cyd (their move), 12 s: cyd has no connection to bot1 "]]
    # the message line shows the words alone: "waiting for" stays there
    assert [s.extra["waiting"] for s in snaps] == [
        "waiting for jo (their move), 71 s",
        "waiting for jo, no connection (their move), 21 s",
        "waiting for cyd (their move), 12 s: cyd has no connection to bot1"]
    assert not_now(snaps[0]) == "not your move: waiting for jo (their move), 71 s"


def test_the_waiting_banner_in_german(tmp_path: Path, german: None) -> None:
    paused = replace(JO, connected=False, paused=True, seconds=8.0)
    snaps = _snapshots(tmp_path, [JO, paused])
    assert [_banner(s) for s in snaps] == [[" WARTEN: jo (Zug), 71 s "],
                                           [" WARTEN: jo, pausiert (Zug), 8 s "]]
    assert snaps[1].extra["waiting"] == "wartet auf jo, pausiert (Zug), 8 s"
