"""The full-screen table: one prompt-toolkit ``Application`` over a
:class:`~lancards.cli.session.Session`.

One asyncio loop runs the screen and ``session.run()``; the session's change callback only
invalidates the screen, and key handlers only call ``submit`` (which returns at once), so nothing
ever waits on the network. Layout, top to bottom: banners (a cheater caught, "waiting for NAME",
the result) and the progress line; the title with whose turn it is; the table (with the log and
chat at the right from 100 columns, below it when narrower); the picker or lay-down builder; the
hand; the message and key hints; the chat input. ``?`` shows every key; ``q`` leaves (with a
confirmation while the game runs). Works from 80x24 up; prompt-toolkit redraws on resize.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame, TextArea

from lancards.cli.session import Session, TableSnapshot
from lancards.cli.tui.cards import strip_slots
from lancards.cli.tui.controller import BaseController, KeyHelp, styled_cards
from lancards.cli.tui.eights_screen import EightsController
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.cli.tui.results import RoundReport, RoundTracker, final_lines

WIDE = 120
"""From this many columns the log stands at the right of the table."""

LOG_WIDTH = 40

STATUS_OK, STATUS_LEFT = 0, 1
"""``run_table`` exit statuses: the game ended; the player left before the end."""

GLOBAL_HELP: tuple[KeyHelp, ...] = (
    ("?", "show or hide this list of keys"),
    ("c", "chat: type a line, Enter sends, Esc cancels"),
    ("q", "leave the table (asks first while the game runs)"),
    ("Enter / Esc", "close a result panel"),
)

STYLE = Style.from_dict({
    "title": "bold reverse",
    "yourturn": "bold fg:#000000 bg:#5fd75f",
    "turn": "bold",
    "result": "bold fg:#5fd75f",
    "header": "underline",
    "me": "bold",
    "dim": "fg:#8a8a8a",
    "marks": "bold",
    "error": "fg:#ff5f5f bold",
    "ok": "fg:#5fd75f bold",
    "message": "",
    "hints": "fg:#8a8a8a",
    "objective": "italic",
    "declare": "bold underline",
    "picker.title": "bold reverse",
    "picker.selected": "reverse",
    "log.chat": "fg:#87d7ff",
    "banner.info": "bold fg:#ffffff bg:#005f87",
    "banner.waiting": "bold fg:#000000 bg:#ffd700",
    "banner.cheat": "bold fg:#ffffff bg:#af0000",
    "banner.error": "bold fg:#ffffff bg:#af0000",
    "banner.result": "bold fg:#000000 bg:#5fd75f",
    "banner.progress": "fg:#000000 bg:#d0d0d0",
})

BANNER_WORDS = {"info": "NOTE", "waiting": "WAITING", "cheat": "CHEATER CAUGHT",
                "error": "ERROR", "result": "RESULT"}

_KEY_NAMES = {
    Keys.Left: "left", Keys.Right: "right", Keys.Up: "up", Keys.Down: "down",
    Keys.ControlM: "enter", Keys.Escape: "escape", Keys.ControlI: "tab",
    Keys.BackTab: "s-tab", Keys.ControlH: "backspace", Keys.Backspace: "backspace",
}


def log_text(line: Any, names: tuple[str, ...]) -> str:
    """A log line for the screen: the seat number replaced by the name, slots removed."""
    if line.chat:
        return str(line.text)
    text = strip_slots(str(line.text))
    head, sep, rest = text.partition(": ")
    if sep and head.isdigit() and int(head) < len(names):
        return f"{names[int(head)]}: {rest}"
    if sep and head == "*":
        return f"* {rest.replace(' ?', '')}"
    return text


class TableScreen:
    """The table screen of one session (see the module docstring).

    Args:
        session: the seat's session.
        input: a prompt-toolkit input (tests pass a pipe input); default the terminal.
        output: a prompt-toolkit output (tests pass a terminal emulator); default the terminal.
    """

    def __init__(self, session: Session, *, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.session = session
        snap = session.snapshot()
        self.game_name: str = snap.game.name
        self.controller: Level8Controller | EightsController = (
            Level8Controller(session) if self.game_name == "level8" else EightsController(session))
        self.tracker = RoundTracker(snap.names)
        self.reports: list[RoundReport] = []
        self.final_shown = False
        self.show_help = False
        self.confirm_quit = False
        self.chatting = False
        self.chat = TextArea(height=1, prompt="chat> ", multiline=False,
                             accept_handler=self._send_chat)
        self.app: Application[int] = Application(
            layout=Layout(self._root()), key_bindings=self._bindings(), style=STYLE,
            full_screen=True, input=input, output=output, mouse_support=False,
            refresh_interval=1.0)  # the "waiting for NAME ..., N s" banner counts seconds
        self.app.ttimeoutlen = 0.05
        self.tracker.observe(self.game_name, snap.view)  # rounds before we sat down: no panel
        self._observe()
        session.subscribe(self._changed)

    # -- session events ----------------------------------------------------------------------

    def _changed(self) -> None:
        self._observe()
        with contextlib.suppress(Exception):
            self.app.invalidate()

    def _observe(self) -> None:
        snap = self.session.snapshot()
        self.reports += self.tracker.observe(self.game_name, snap.view)
        if snap.outcome is not None and not self.final_shown:
            self.final_shown = True
            lines = final_lines(snap.outcome, snap.names, self.game_name)
            self.reports.append(RoundReport(0, lines[0], tuple(lines[1:])))

    # -- keys --------------------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        not_chatting = Condition(lambda: not self.chatting)

        def named(name: str) -> Any:
            def handler(event: KeyPressEvent) -> None:
                self.on_key(name)
            return handler

        for key, name in _KEY_NAMES.items():
            kb.add(key, filter=not_chatting, eager=True)(named(name))

        @kb.add(Keys.Any, filter=not_chatting)
        def _any(event: KeyPressEvent) -> None:
            data = event.data
            if len(data) == 1 and data.isprintable():
                self.on_key("space" if data == " " else data)

        @kb.add(Keys.Escape, filter=Condition(lambda: self.chatting), eager=True)
        def _cancel_chat(event: KeyPressEvent) -> None:
            self._end_chat()

        @kb.add(Keys.ControlC)
        def _interrupt(event: KeyPressEvent) -> None:
            self.app.exit(result=STATUS_LEFT)

        return kb

    def on_key(self, key: str) -> None:
        """Handle one key name (``"left"``, ``"enter"``, ``"x"``...); never waits."""
        snap = self.session.snapshot()
        over = snap.outcome is not None
        if self.confirm_quit:
            if key in ("y", "Y"):
                self.app.exit(result=STATUS_LEFT)
            elif key in ("n", "N", "escape"):
                self.confirm_quit = False
            return
        if self.show_help:
            self.show_help = False
            return
        if key == "q" and (over or not self.reports):
            if over:
                self.app.exit(result=STATUS_OK)
            else:
                self.confirm_quit = True
            return
        if self.reports:
            if key in ("enter", "escape", "space"):
                self.reports.pop(0)
            return
        if key == "?":
            self.show_help = True
        elif key == "c":
            self.chatting = True
            self.app.layout.focus(self.chat)
        else:
            self.controller.handle(key, snap)

    def _send_chat(self, buffer: Any) -> bool:
        text = buffer.text.strip()
        if text:
            self.session.send_chat(text)
        self._end_chat()
        return False

    def _end_chat(self) -> None:
        self.chat.text = ""
        self.chatting = False
        with contextlib.suppress(ValueError):
            self.app.layout.focus(self._hand_window)

    # -- layout ------------------------------------------------------------------------------

    def _root(self) -> FloatContainer:
        wide = Condition(lambda: self._width() >= WIDE)
        log_lines = lambda: self._log_lines()  # noqa: E731
        self._hand_window = Window(FormattedTextControl(self._hand, focusable=True),
                                   dont_extend_height=True, wrap_lines=False)
        body = HSplit([
            ConditionalContainer(
                Window(FormattedTextControl(self._banners), dont_extend_height=True),
                filter=Condition(lambda: bool(self._banner_lines()))),
            Window(FormattedTextControl(self._title), height=1),
            VSplit([
                Window(FormattedTextControl(self._table), wrap_lines=False),
                ConditionalContainer(VSplit([
                    Window(width=1, char="│", style="class:dim"),
                    Window(FormattedTextControl(
                        log_lines, get_cursor_position=self._log_end), width=LOG_WIDTH),
                ]), filter=wide),
            ]),
            ConditionalContainer(
                Window(FormattedTextControl(log_lines, get_cursor_position=self._log_end),
                       height=3, style="class:dim"),
                filter=~wide),
            ConditionalContainer(
                Window(FormattedTextControl(self._panel), height=Dimension(max=10),
                       dont_extend_height=True, wrap_lines=True),
                filter=Condition(lambda: self._panel() != [])),
            self._hand_window,
            Window(FormattedTextControl(self._status), height=2),
            ConditionalContainer(self.chat, filter=Condition(lambda: self.chatting)),
        ])
        floats = [
            Float(ConditionalContainer(
                Frame(Window(FormattedTextControl(self._help_text), dont_extend_width=True,
                             dont_extend_height=True), title="keys (any key closes)"),
                filter=Condition(lambda: self.show_help))),
            Float(ConditionalContainer(
                Frame(Window(FormattedTextControl(self._report_text), dont_extend_width=True,
                             dont_extend_height=True), title=lambda: self._report_title()),
                filter=Condition(lambda: bool(self.reports) and not self.show_help))),
            Float(ConditionalContainer(
                Frame(Window(FormattedTextControl(
                    " Leave the table? The game goes on without you.\n y: leave   n: stay "),
                    dont_extend_width=True, dont_extend_height=True), title="quit"),
                filter=Condition(lambda: self.confirm_quit))),
        ]
        return FloatContainer(body, floats)

    def _width(self) -> int:
        try:
            return int(get_app().output.get_size().columns)
        except Exception:
            return 80

    def _snap(self) -> TableSnapshot:
        return self.session.snapshot()

    def _banner_lines(self) -> list[tuple[str, str]]:
        snap = self._snap()
        lines = [(f"class:banner.{b.kind}", f" {BANNER_WORDS.get(b.kind, b.kind.upper())}: "
                  f"{b.text} ") for b in snap.banners]
        if snap.progress:
            lines.append(("class:banner.progress", f" {snap.progress} "))
        return lines

    def _banners(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for style, text in self._banner_lines():
            out += [(style, text.ljust(self._width())), ("", "\n")]
        return out[:-1]

    def _title(self) -> StyleAndTextTuples:
        return self.controller.title(self._snap())

    def _table(self) -> StyleAndTextTuples:
        width = self._width() - (LOG_WIDTH + 1 if self._width() >= WIDE else 0)
        return self.controller.table(self._snap(), width)

    def _log_lines(self) -> StyleAndTextTuples:
        snap = self._snap()
        out: StyleAndTextTuples = []
        limit = LOG_WIDTH - 1 if self._width() >= WIDE else self._width() - 1
        for line in list(snap.log)[-60:]:
            style = "class:log.chat" if line.chat else ""
            out += [(style, " " + log_text(line, snap.names)[:limit - 1]), ("", "\n")]
        return out[:-1] or [("class:dim", " (log and chat)")]

    def _log_end(self) -> Point:
        return Point(0, max(0, min(60, len(self._snap().log)) - 1))

    def _panel(self) -> StyleAndTextTuples:
        return self.controller.panel(self._snap(), 10) or []

    def _hand(self) -> StyleAndTextTuples:
        return self.controller.hand_view(self._snap(), self._width())

    def _status(self) -> StyleAndTextTuples:
        c: BaseController = self.controller
        message = ("class:error" if c.error else "class:message", " " + c.message)
        hints = ("class:hints", " " + self.controller.hints(self._snap()) + " · ? keys · q quit")
        return [message, ("", "\n"), hints]

    def _help_text(self) -> StyleAndTextTuples:
        rows = (*self.controller.help(), *GLOBAL_HELP)
        width = max(len(k) for k, _ in rows)
        return [("", "".join(f" {k:<{width}}  {v} \n" for k, v in rows).rstrip("\n"))]

    def _report_title(self) -> str:
        if not self.reports:
            return ""
        report = self.reports[0]
        return "game over" if report.round == 0 else f"round {report.round} over"

    def _report_text(self) -> StyleAndTextTuples:
        if not self.reports:
            return []
        report = self.reports[0]
        out: StyleAndTextTuples = []
        if report.round == 0:
            out.append(("class:result", f" {report.summary} \n"))
        for line in report.lines:
            out += [("", " "), *styled_cards(line), ("", " \n")]
        more = "q: leave" if report.round == 0 else "Enter: continue"
        out.append(("class:hints", f" {more} "))
        return out

    # -- running -----------------------------------------------------------------------------

    async def run(self) -> int:
        """Show the table until the user leaves; returns the exit status (0: game over)."""
        task = asyncio.ensure_future(self.session.run())
        try:
            status = await self.app.run_async()
        finally:
            await self.session.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        return int(status if status is not None else STATUS_LEFT)


async def run_table(session: Session, *, input: Input | None = None,
                    output: Output | None = None) -> int:
    """Show the table of ``session`` until the game ends and the user leaves, or the user quits.

    Returns:
        0 when the user left after the game ended; 1 when the user left before the end
        (``q`` then ``y``, or Ctrl-C).
    """
    return await TableScreen(session, input=input, output=output).run()
