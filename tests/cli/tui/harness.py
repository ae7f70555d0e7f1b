"""Drive the table screen headless: prompt-toolkit pipe input, output into a pyte terminal.

``Driver`` runs ``run_table`` in an asyncio loop; ``press`` sends keys and waits until the
application has handled each of them (its key processor's ``after_key_press`` event) and has
redrawn (no redraw pending), polling in small slices with a time limit, never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pyte
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.app import TableScreen

KEYS = {
    "left": "\x1b[D", "right": "\x1b[C", "up": "\x1b[A", "down": "\x1b[B",
    "enter": "\r", "escape": "\x1b", "tab": "\t", "s-tab": "\x1b[Z", "space": " ",
    "backspace": "\x7f", "pgup": "\x1b[5~", "pgdn": "\x1b[6~", "home": "\x1b[H",
    "end": "\x1b[F",
}


class PyteTerminal:
    """A text stream that feeds a pyte screen (what a person would see)."""

    encoding = "utf-8"

    def __init__(self, columns: int, lines: int) -> None:
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.Stream(self.screen)

    def write(self, data: str) -> int:
        self.stream.feed(data)
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)


class Driver:
    """A table screen on a LocalSession, with keys in and the screen text out."""

    def __init__(self, session: LocalSession, pipe: Any, columns: int, lines: int,
                 greeting: str = "") -> None:
        self.session = session
        self.pipe = pipe
        self.term = PyteTerminal(columns, lines)
        output = Vt100_Output(self.term, lambda: Size(rows=lines, columns=columns),  # type: ignore[arg-type]
                              term="xterm-256color", enable_cpr=False)
        self.screen = TableScreen(session, input=pipe, output=output, greeting=greeting)
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Task[int] | None = None
        self.keys_handled = 0

        def count(_: object) -> None:
            self.keys_handled += 1

        self.screen.app.key_processor.after_key_press += count

    def start(self) -> None:
        self.task = self.loop.create_task(self.screen.run())
        self.settle(lambda: self.screen.app.render_counter > 0)

    def redrawn(self) -> bool:
        """Whether the screen shows the latest state (drawn once, no redraw pending)."""
        app = self.screen.app
        return app.render_counter > 0 and not app.invalidated

    def settle(self, until: Callable[[], bool] = lambda: True, limit: float = 5.0) -> None:
        """Run the loop until ``until()`` holds and the screen is redrawn (or ``limit`` s)."""
        deadline = time.monotonic() + limit
        while True:
            self.loop.run_until_complete(asyncio.sleep(0.005))
            if (until() and self.redrawn()) or time.monotonic() > deadline or self.done:
                return

    @property
    def done(self) -> bool:
        """Whether the screen has closed."""
        return self.task is not None and self.task.done()

    def press(self, *keys: str, until: Callable[[], bool] = lambda: True) -> str:
        """Send keys (names from KEYS or literal text), one at a time; return the screen."""
        for key in keys:
            handled = self.keys_handled
            self.pipe.send_text(KEYS.get(key, key))
            self.settle(lambda handled=handled: self.keys_handled > handled)
        self.settle(until)
        return self.text()

    def text(self) -> str:
        return self.term.text()

    def finish(self) -> int | None:
        if self.task is not None and not self.task.done():
            # A key may have made the app exit already (result set, task not finished yet):
            # then this exit is refused, harmlessly, and the task ends on its own.
            with contextlib.suppress(Exception):
                self.screen.app.exit(result=1)
            self.loop.run_until_complete(asyncio.wait_for(self.task, 5))
        result = self.task.result() if self.task is not None else None
        self.loop.close()
        return result


@contextmanager
def driven(session: LocalSession, columns: int = 100, lines: int = 30,
           greeting: str = "") -> Iterator[Driver]:
    """A started Driver (``greeting``: the message line's first words); the application is
    closed afterwards."""
    with create_pipe_input() as pipe:
        driver = Driver(session, pipe, columns, lines, greeting)
        driver.start()
        try:
            yield driver
        finally:
            driver.finish()


async def close_session(session: Any, *tasks: asyncio.Task[Any]) -> None:
    """Close a networked ``session`` (its nodes and links), then cancel and await ``tasks``
    (the runners a test started beside it), whatever they raise on the way out."""
    await session.close()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
