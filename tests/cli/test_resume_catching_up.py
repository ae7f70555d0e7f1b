"""A resumed table says "catching up" from its screen's first frame until it is current
(``NetworkSession.restored``): the persona walk read its first frame bare, then the note a
moment later, once the peers ran; under load its ``q`` (or ``g``) came in between and found the
note over the dialog it expected alone. A ``q`` while catching up opens the leave dialog, whole,
under the note."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Any

from lancards.cli.local_session import LocalSession
from lancards.cli.net_session import NetworkSession
from lancards.cli.session import Banner
from lancards.cli.tui.app import STATUS_LEFT
from tests.cli.test_resume_log import ME, played
from tests.cli.tui.harness import driven


def test_a_resumed_table_says_catching_up_before_its_peers_run_and_not_once_current(
        tmp_path: Path) -> None:
    folder, _log = asyncio.run(played(tmp_path, "level8-master", 3))

    async def resumed() -> tuple[tuple[Banner, ...], int, bool, tuple[Banner, ...]]:
        session = await NetworkSession.resume(folder, ME, bot_delay=0)
        first = session.snapshot().banners  # the screen's first frame: no peer ran yet
        moves = sum(1 for e in session.core.record.entries if e.payload["t"] == "action")
        runner = asyncio.create_task(session.run())
        try:
            deadline = time.monotonic() + 60
            while session.node.catching_up and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            return first, moves, session.node.catching_up, session.snapshot().banners
        finally:
            await session.close()
            runner.cancel()
            with contextlib.suppress(BaseException):
                await runner

    first, moves, still, current = asyncio.run(resumed())
    assert moves > 3  # moves, as the resume's checking line counts them, not entries
    assert first[:1] == (Banner("info", f"catching up: {moves} moves verified so far"),)
    assert not still and not any(b.text.startswith("catching up") for b in current), current


NOTE = ("catching up: 19 moves verified so far; nobody at this table answers yet (Ada, "
        "Bram, Cleo): the game goes on when one of them is back · q pauses")


class CatchingUp(LocalSession):
    """A table whose snapshot carries the catching-up note (the longest: nobody answers)."""

    def snapshot(self) -> Any:
        snap = super().snapshot()
        return dataclasses.replace(snap, banners=(Banner("info", NOTE), *snap.banners))


def test_q_while_catching_up_opens_the_whole_leave_dialog_under_the_note() -> None:
    session = CatchingUp("level8-master", names=("Tess", "Ada", "Bram", "Cleo"), seed=3,
                         bot_delay=60)
    with driven(session, 80, 24) as d:
        assert d.text().splitlines()[0] == (
            " NOTE: catching up: 19 moves verified so far; nobody at this table answers yet")
        lines = [line.rstrip() for line in d.press("q").splitlines()]
        at = lines.index(" quit")
        assert lines[:at] == [
            " NOTE: catching up: 19 moves verified so far; nobody at this table answers yet",
            "   (Ada, Bram, Cleo): the game goes on when one of them is back · q pauses"]
        assert lines[at:at + 5] == [
            " quit", " Leave the table?",
            " y or p: pause: the game waits for you (lancards resume brings you back)",
            " l: leave for good: the game goes on without you", " n: stay"]
        d.press("y")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == STATUS_LEFT


def test_while_catching_up_a_seat_is_connecting_until_its_link_had_a_chance(
        tmp_path: Path) -> None:
    """A resumed table's first frames read ``WAITING: Ada, no connection (their move), 0 s``
    under the "catching up" note, before any link could be up. While catching up, a seat whose
    link has not come up is "connecting" for :data:`CONNECT_CHANCE_S` seconds from the start;
    then, or at once for a link that came up and dropped since, it has no connection."""
    from lancards.cli import i18n
    from lancards.p2p.net.waiting import CONNECT_CHANCE_S

    folder, _log = asyncio.run(played(tmp_path, "level8-master", 3))

    async def frames() -> dict[str, list[tuple[str, str | None]]]:
        session = await NetworkSession.resume(folder, ME, bot_delay=0)
        node = session.node
        began = node._progress_at  # when the node was made: no entry came since
        at = [0.0]
        node._clock = lambda: began + at[0]  # the peers never run: no link comes up
        seen: dict[str, list[tuple[str, str | None]]] = {}
        try:
            for language in ("en", "de"):
                i18n.set_language(language)
                seen[language] = []
                for offset in (0.0, CONNECT_CHANCE_S - 0.5, CONNECT_CHANCE_S):
                    at[0] = offset
                    snap = session.snapshot()
                    [waiting] = [b.text for b in snap.banners if b.kind == "waiting"]
                    seen[language].append((waiting, snap.extra.get("waiting")))
                at[0] = 1.0  # the waited-for seat's link came up and dropped since the start
                ada = next(p.public_key for p in session.core.players
                           if seen[language][0][0].startswith(f"{p.nick},"))
                before, node.down_since[ada] = node.down_since[ada], began + 0.5
                snap = session.snapshot()
                [waiting] = [b.text for b in snap.banners if b.kind == "waiting"]
                seen[language].append((waiting, snap.extra.get("waiting")))
                node.down_since[ada] = before
        finally:
            i18n.set_language("en")
            await session.close()
        assert node.catching_up
        return seen

    seen = asyncio.run(frames())
    # who the table waits for depends on where the played game was stopped: Ada, Bram or Cleo
    name = seen["en"][0][0].split(",")[0]
    assert name in ("Ada", "Bram", "Cleo"), seen
    seen = {language: [tuple(None if text is None else text.replace(name, "Ada")
                             for text in frame) for frame in frames_seen]
            for language, frames_seen in seen.items()}
    assert seen["en"] == [
        ("Ada, connecting (their move), 0 s", "waiting for Ada, connecting (their move), 0 s"),
        ("Ada, connecting (their move), 2 s", "waiting for Ada, connecting (their move), 2 s"),
        ("Ada, no connection (their move), 3 s",
         "waiting for Ada, no connection (their move), 3 s"),
        ("Ada, no connection (their move), 1 s",
         "waiting for Ada, no connection (their move), 1 s")]
    assert seen["de"] == [
        ("Ada, Verbindung wird aufgebaut (Zug), 0 s",
         "wartet auf Ada, Verbindung wird aufgebaut (Zug), 0 s"),
        ("Ada, Verbindung wird aufgebaut (Zug), 2 s",
         "wartet auf Ada, Verbindung wird aufgebaut (Zug), 2 s"),
        ("Ada, keine Verbindung (Zug), 3 s", "wartet auf Ada, keine Verbindung (Zug), 3 s"),
        ("Ada, keine Verbindung (Zug), 1 s", "wartet auf Ada, keine Verbindung (Zug), 1 s")]
