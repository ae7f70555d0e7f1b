"""The waiting screen: a table's lobby between the choice of a table and its start.

A host sees how others join its table (the ``lancards join`` line to give them) and who is in;
a guest sees whom it joined, who is in and how many seats are left. ``q``, Esc, Ctrl-C and
Ctrl-D cancel at any time; when the flow asks a question (the host is gone: wait, rejoin or
quit), the keys it offers answer it. The screen never waits on the network: the lobby runs
beside it (:func:`wait_on`) and feeds it with :meth:`WaitingScreen.show`.

Keys typed on an earlier screen never act here, nor keys typed here on the next screen:
:func:`flush_typeahead` drops what the terminal holds unread when a screen changes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.output import Output

from lancards.cli.i18n import N_, _
from lancards.cli.tui.fit import FitControl, to_lines
from lancards.cli.tui.style import STYLE
from lancards.cli.tui.typeahead import flush_typeahead

T = TypeVar("T")

CANCEL_HINT = N_("q, Esc or Ctrl-C: cancel")
"""The bottom line of the waiting screen while nothing is asked."""


class Cancelled(Exception):
    """The person cancelled a waiting screen (``q``, Esc, Ctrl-C or Ctrl-D)."""


class WaitingScreen:
    """The waiting screen (see the module docstring).

    Args:
        title: the top line (``table 0011... · level8 · 4 seats``).
        input: a prompt-toolkit input (tests); default the terminal.
        output: a prompt-toolkit output (tests); default the terminal.
    """

    def __init__(self, title: str, *, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.title = title
        self.lines: list[str] = []
        self.question = ""
        self.choices: dict[str, str] = {}
        self._answer: asyncio.Future[str] | None = None
        self.app: Application[str] = Application(
            # long lines wrap at a space, continued indented (the rescue trade-off line is 87
            # columns: the terminal's own wrapping cut it mid-word at 80)
            layout=Layout(Window(FitControl(lambda width: to_lines(self._render())))),
            key_bindings=self._bindings(), style=STYLE, full_screen=True,
            input=input, output=output, refresh_interval=1.0)
        self.app.ttimeoutlen = 0.05

    def show(self, lines: Sequence[str]) -> None:
        """Replace the body (what the lobby says now) and redraw."""
        self.lines = list(lines)
        with contextlib.suppress(Exception):
            self.app.invalidate()

    async def ask(self, question: str, choices: Mapping[str, str]) -> str:
        """Show ``question`` with ``choices`` (key -> what it does, in order) and return the
        key pressed (``q``, Esc, Ctrl-C and Ctrl-D give ``"q"``)."""
        self.question, self.choices = question, dict(choices)
        self._answer = asyncio.get_running_loop().create_future()
        with contextlib.suppress(Exception):
            self.app.invalidate()
        try:
            return await self._answer
        finally:
            self.question, self.choices, self._answer = "", {}, None
            with contextlib.suppress(Exception):
                self.app.invalidate()

    def _render(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:title", f" {self.title} "), ("", "\n\n")]
        out += [("", f" {line}\n") for line in self.lines]
        if self.question:
            out.append(("", "\n"))
            out.append(("class:error", f" {self.question}\n"))
            hint = " · ".join(f"{key} {what}" for key, what in self.choices.items())
        else:
            hint = _(CANCEL_HINT)
        out.append(("", "\n"))
        out.append(("class:hints", f" {hint}"))
        return out

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        def cancel(event: KeyPressEvent) -> None:
            if self._answer is not None and not self._answer.done():
                self._answer.set_result("q")
            elif self.app.is_running:
                self.app.exit(result="cancel")

        for key in ("q", Keys.Escape, Keys.ControlC, Keys.ControlD):
            kb.add(key, eager=True)(cancel)

        @kb.add(Keys.Any)
        def _any(event: KeyPressEvent) -> None:
            data = event.data
            if (self._answer is not None and not self._answer.done()
                    and data in self.choices):
                self._answer.set_result(data)

        return kb


async def wait_on(screen: WaitingScreen, work: Awaitable[T]) -> T:
    """Run ``work`` with ``screen`` shown; the screen closes when ``work`` ends.

    Raises:
        Cancelled: the person cancelled first (``work`` is cancelled, its ``finally`` run).
        Exception: what ``work`` raised.
    """
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    shown = [True]

    def close(_: Any = None) -> None:
        if screen.app.is_running:
            screen.app.exit(result="done")
        elif shown[0]:  # not running yet: the work ended before the first frame
            asyncio.get_running_loop().call_later(0.05, close)

    task.add_done_callback(close)
    flush_typeahead()
    try:
        # handle_sigint=False: prompt-toolkit would take SIGINT from the event loop and, on
        # exit, remove the handler of lancards.cli.lobby.common.run_lobby with its own (a
        # SIGINT then did nothing at all). Ctrl-C is a key here (raw mode).
        result = await screen.app.run_async(handle_sigint=False)
    finally:
        shown[0] = False
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Cancelled):
                await task
    flush_typeahead()
    if result == "cancel" and not (task.done() and not task.cancelled()):
        raise Cancelled()
    if task.cancelled():
        raise Cancelled()
    return task.result()


__all__ = ["CANCEL_HINT", "Cancelled", "WaitingScreen", "wait_on"]
