"""A host with ``--bots`` that cancels before the start (the waiting screen's ``q``) prints its
one line and nothing else (the new-user trial of 2026-12-06: its bot seats' join tasks ended
with ``HostGone`` and asyncio printed "Task exception was never retrieved" and a traceback).
The host in this process on 127.0.0.1, the mDNS advert and the waiting screen stand-ins."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
from pathlib import Path
from typing import Any

import pytest

from lancards.cli.lobby import host as host_module
from lancards.cli.tui import waiting
from tests.cli.advert_stand_in import advertise

pytestmark = pytest.mark.timeout(60)



class Screen:
    """The waiting screen's part the host uses: what it was told to show."""

    def __init__(self, title: str) -> None:
        self.shown: list[list[str]] = []

    def show(self, lines: list[str]) -> None:
        self.shown.append(lines)


def test_a_host_with_bots_that_cancels_prints_one_line_and_no_task_exception(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    async def wait_on(screen: Screen, work: Any) -> Any:
        """``q`` once the bot sat down: the work cancelled, then :class:`Cancelled`."""
        task = asyncio.ensure_future(work)
        for _ in range(250):
            if task.done():
                return task.result()
            if screen.shown and any(line.startswith("at the table: ") and "Ada (bot" in line
                                    for line in screen.shown[-1]):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError(f"Ada never sat down: {screen.shown[-1:]}")
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        raise waiting.Cancelled

    monkeypatch.setattr(host_module, "_advertise", advertise)
    monkeypatch.setattr(waiting, "WaitingScreen", Screen)
    monkeypatch.setattr(waiting, "wait_on", wait_on)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "ann"))
    unretrieved: list[dict[str, Any]] = []

    async def evening() -> int:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
        args = argparse.Namespace(game="eights", option=[], players=4, bots=1, name="ann",
                                  interface=["127.0.0.1"], port=0, autoplay=False, record=None)
        status = await host_module.play_hosted(args)
        me = asyncio.current_task()
        for _ in range(150):  # every other task ends (the bot's, at the latest on the leave)
            if all(task is me or task.done() for task in asyncio.all_tasks()):
                break
            await asyncio.sleep(0.02)
        gc.collect()  # a finished task whose exception nobody retrieved says so when collected
        await asyncio.sleep(0)
        return status

    assert asyncio.run(evening()) == 0
    assert [str(context.get("exception", context["message"])) for context in unretrieved] == []
    out, err = capsys.readouterr()
    assert out == "you closed your table before it started\n"
    assert "Task exception was never retrieved" not in err and "Traceback" not in err
