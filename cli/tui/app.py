"""The full-screen table: one prompt-toolkit ``Application`` over a
:class:`~lancards.cli.session.Session`.

One asyncio loop runs the screen and ``session.run()``; the session's change callback only
invalidates the screen, and key handlers only call ``submit`` (which returns at once), so nothing
ever waits on the network. Layout, top to bottom: banners (a cheater caught, "waiting for NAME",
the result) and the progress line; the title with whose turn it is; the table; the log of moves
told in words (:mod:`lancards.cli.tui.narrate`) with chat, taking every free row (at the right
of the table from 120 columns); the picker or lay-down builder; the hand; the message and key
hints; the chat input. Every panel wraps its lines and, when taller than its room, scrolls with a
visible "more" mark (:mod:`lancards.cli.tui.fit`). ``?`` (keys), ``o`` (the level card or round
objective in full) and the round results take the whole screen and scroll; ``q`` leaves: once the
game is over at once; while it runs it asks first: pause (``y``/``p``: the game waits for you,
``lancards resume`` brings you back) or leave for good (``l``, confirmed with ``y``: the session's
``leave_for_good``, rulings D-1..D-4; the window closes once the leave is written). Works from
80x24 up; below that the screen says so and only ``q`` acts. prompt-toolkit redraws on resize.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import TextArea

from lancards.cli.i18n import N_, _
from lancards.cli.pacing import next_speed, speed_words
from lancards.cli.peer_errors import error_words
from lancards.cli.session import Session, TableSnapshot
from lancards.cli.tui.continued import redraw_on_continue
from lancards.cli.tui.controller import BaseController
from lancards.cli.tui.eights_screen import EightsController
from lancards.cli.tui.fit import (
    SCROLL_KEYS,
    FitControl,
    Lines,
    echo,
    line_length,
    plain,
    to_lines,
    wrap_all,
    wrap_line,
)
from lancards.cli.tui.leaving import answer_dialog, leaving_words, play_out, yes_keys
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.cli.tui.log_room import log_rows
from lancards.cli.tui.other_game import STATUS_OTHER, pick_other_game
from lancards.cli.tui.overlays import objective_panel, report_lines
from lancards.cli.tui.results import RoundReport, RoundTracker, game_over_lines
from lancards.cli.tui.rules_page import RulesPage, rules_panel
from lancards.cli.tui.style import STYLE
from lancards.cli.tui.words import (
    HAND_KEYS,
    farewell,
    halted_text,
    key_line,
    keys_panel,
    leave_panel,
    log_text,
    progress_words,
    quit_line,
    quit_panel,
    too_small_words,
)

WIDE = 120
"""From this many columns the log stands at the right of the table."""

LOG_WIDTH = 40
"""The least columns of the log when it stands at the right of the table."""

TABLE_WIDTH = 90
"""Columns the table keeps when the log stands at its right; the log takes the rest."""

MIN_COLUMNS, MIN_ROWS = 80, 24
"""The smallest terminal the table is drawn in; below it only the quit keys act."""

STATUS_OK, STATUS_LEFT, STATUS_AGAIN = 0, 1, 10
"""The screen's end: game over and left; left before the end; all play again (issue 27)."""

BANNER_WORDS = {"info": N_("NOTE"), "waiting": N_("WAITING"), "cheat": N_("CHEATER CAUGHT"),
                "error": N_("ERROR"), "result": N_("RESULT"), "again": N_("NOTE")}
"""A banner's mark; ``again`` is hidden over the result panel, which ends with the question."""

_KEY_NAMES = {
    Keys.Left: "left", Keys.Right: "right", Keys.Up: "up", Keys.Down: "down",
    Keys.ControlM: "enter", Keys.Escape: "escape", Keys.ControlI: "tab",
    Keys.BackTab: "s-tab", Keys.ControlH: "backspace", Keys.Backspace: "backspace",
    Keys.PageUp: "pgup", Keys.PageDown: "pgdn", Keys.Home: "home", Keys.End: "end",
}


VOTE_SIGNED = N_("your vote is signed: the others must agree too")
"""The message after ``y`` to "remove NAME?"; it goes once the table waits for nobody."""


class TableScreen:
    """The table screen of one session (see the module docstring).

    Args:
        session: the seat's session.
        input: a prompt-toolkit input (tests pass a pipe input); default the terminal.
        output: a prompt-toolkit output (tests pass a terminal emulator); default the terminal.
        greeting: the message line's first words (e.g. that a paused table waits).
    """

    def __init__(self, session: Session, *, input: Input | None = None,
                 output: Output | None = None, greeting: str = "") -> None:
        self.session = session
        snap = session.snapshot()
        self.game_name: str = snap.game.name
        self.controller: Level8Controller | EightsController = (
            Level8Controller(session) if self.game_name == "level8" else EightsController(session))
        self.controller.greet(greeting)
        self.controller.hold = lambda: self._overlay_open() or self.leaving  # a skip waits
        self.tracker = RoundTracker(snap.names)
        self.reports: list[RoundReport] = []
        self.last_report: RoundReport | None = None
        self.final_shown = False
        self.show_help = self.show_objective = False
        self.rules = RulesPage()  # g: the game's rules in short (the trial of session 28)
        self.confirm_quit = False
        self.confirm_leave = False
        self.leaving = False
        self.chatting = False
        self._seen: tuple[Any, ...] = ()
        self._log_seen = len(snap.log)
        self.log_view = FitControl(self._log_lines, anchor_bottom=True, keys=N_("PgUp/PgDn"),
                                   key=self._log_key)
        self.table_view = FitControl(self._table_lines, keys="< >")
        self.overlay_view = FitControl(self._overlay_lines, keys="Up/Down",
                                       get_sized=self._overlay_lines)  # the title: fits?
        self.panel_view = FitControl(self._panel_lines, keys="Up/Down",
                                     get_sized=self._panel_sized)
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
        new = self.tracker.observe(self.game_name, snap.view)
        self.reports += new
        if new:
            self.last_report = new[-1]
        if snap.outcome is not None and not self.final_shown:
            self.final_shown = True
            lines = game_over_lines(snap)
            final = RoundReport(0, lines[0], (*lines[1:], "", *self.tracker.chart()))
            self.reports.append(final)
            self.last_report = final
        if (snap.extra.get("again") or {}).get("started"):  # every player said yes
            with contextlib.suppress(Exception):
                self.app.exit(result=STATUS_AGAIN)
        if self.leaving and snap.extra.get("left"):
            with contextlib.suppress(Exception):
                self.app.exit(result=STATUS_LEFT)
        own = [line for line in snap.log[self._log_seen:] if line.seat == snap.seat]
        self._log_seen = len(snap.log)
        if own:  # a move (or chat line) of one's own: the log shows its end again
            self.log_view.scroll = 0
        if self.controller.message == _(VOTE_SIGNED) and snap.extra.get("waiting") is None:
            self.controller.say("")  # the table waits for nobody any more: the vote is done
        seen = (snap.to_act, getattr(snap.view, "phase", None), len(snap.legal),
                snap.extra.get("pending"))  # the cards arrived: a hint asked for follows
        if seen != self._seen:
            self._seen = seen
            self.controller.state_changed(snap)

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

        @kb.add(Keys.BracketedPaste, filter=not_chatting, eager=True)
        def _drop_paste(event: KeyPressEvent) -> None:
            """A paste with no chat line open is dropped (issue 25, item 12): the hidden chat
            buffer would keep it for the next chat line, where Enter sends it to everyone."""

        @kb.add(Keys.Escape, filter=Condition(lambda: self.chatting), eager=True)
        def _cancel_chat(event: KeyPressEvent) -> None:
            self._end_chat()

        @kb.add(Keys.ControlC)
        def _interrupt(event: KeyPressEvent) -> None:
            self.app.exit(result=STATUS_LEFT)

        return kb

    def too_small(self) -> bool:
        """Whether the terminal is below :data:`MIN_COLUMNS` x :data:`MIN_ROWS`."""
        columns, rows = self._size()
        return columns < MIN_COLUMNS or rows < MIN_ROWS

    def on_key(self, key: str) -> None:
        """Handle one key name (``"left"``, ``"enter"``, ``"x"``...); never waits. Below the
        minimum size only ``q`` (then ``y`` / ``n``) acts."""
        snap = self.session.snapshot()
        over = snap.outcome is not None
        if answer_dialog(self, key, over, STATUS_LEFT) or (  # q's "pause or leave?" is open,
                self.rules.open and self.rules.handle(key, self.overlay_view, SCROLL_KEYS)):
            return  # or the rules page: it takes every key (a at the game's end played again)
        if key == "q" and (snap.extra.get("removed_me") or snap.extra.get("watching")):
            self.app.exit(result=STATUS_OK)  # voted out while away: nothing waits for this seat
            return
        if self.leaving and key != "q":
            return  # the leave is on its way: no more moves
        offer = snap.extra.get("remove")
        if offer is not None and key in (*yes_keys(), "n", "N") and not self.chatting:
            self._answer_removal(offer, key in yes_keys())  # German: j too, "(j/n)"
            return
        if over and pick_other_game(self, snap, key):  # another game, same players
            return
        again = snap.extra.get("again") or {}  # "a": the same game, when it fits the players
        if over and key in ("a", "A") and again.get("asked") and not again.get("too_few_for"):
            with contextlib.suppress(Exception):  # "play again" (issue 27)
                getattr(self.session, "play_again", print)(True)
            return
        if self.too_small():
            if key == "q":
                if over:
                    self._stop(snap)
                else:
                    self.confirm_quit = True
            return
        if self.show_help or self.show_objective:  # any key closes one that fits
            if key in SCROLL_KEYS and self.overlay_view.hidden:
                self.overlay_view.scroll_by(SCROLL_KEYS[key])
            else:
                self.show_help = self.show_objective = False
                self.overlay_view.scroll = 0
            return
        if self.rules.handle(key, self.overlay_view, SCROLL_KEYS):  # opens, scrolls, closes
            return
        if key == "q":  # on a round's result too: the dialog asks over it, n shows it again
            if over:
                self._stop(snap)
            else:
                self.overlay_view.scroll = 0
                self.confirm_quit = True
            return
        if self.reports:
            if key in SCROLL_KEYS:
                self.overlay_view.scroll_by(SCROLL_KEYS[key])
            elif key in ("enter", "escape", "space"):
                self.reports.pop(0)
                self.overlay_view.scroll = 0
            return
        if key == "?":
            self.show_help = True
        elif key == "o":
            self.show_objective = True
        elif key == "r":  # the last round's result again
            if self.last_report is not None:
                self.reports.append(self.last_report)
            else:  # it did nothing, silently (the trial of 2026-12-05)
                self.controller.say(_("r shows the last round's result: no round has ended yet"))
        elif key in ("pgup", "-"):
            self.log_view.scroll_by(1)
        elif key in ("pgdn", "+"):
            self.log_view.scroll_by(-1)
        elif key in ("<", ">"):
            self.table_view.scroll_by(1 if key == ">" else -1)
        elif key == "b" and hasattr(self.session, "bot_delay"):
            delay = next_speed(float(self.session.bot_delay))
            self.session.bot_delay = delay
            self.controller.say(speed_words(delay))
        elif key == "h":
            self.controller.show_hint(snap)
        elif key == "c":
            self.chatting = True
            self.app.layout.focus(self.chat)
        else:
            if self.controller.error:
                self.controller.say("")
            self.controller.handle(key, snap)

    def _stop(self, snap: TableSnapshot) -> None:
        """``q`` once the game is over: "no" to playing again, then the screen closes."""
        with contextlib.suppress(Exception):
            if snap.extra.get("again"):
                getattr(self.session, "play_again", print)(False)
        self.app.exit(result=STATUS_OK)

    def _answer_removal(self, seat: int, yes: bool) -> None:
        """"remove NAME? (y/n)" (ruling D-5): ``y`` signs the removal vote; ``n`` signs
        nothing (the question stays while the table waits: nobody is removed without everyone)."""
        if not yes:
            with contextlib.suppress(AttributeError):
                self.session.decline_removal(seat)  # type: ignore[attr-defined]
            self.controller.say(_("not removed: the table waits"))
            return
        try:
            self.session.vote_remove(seat)  # type: ignore[attr-defined]
        except Exception as exc:  # answering again, a removal refused meanwhile: say so
            self.controller.say(_("cannot remove: {reason}").format(reason=error_words(exc)),
                                error=True)
        else:
            self.controller.say(_(VOTE_SIGNED))

    def _can_leave(self, over: bool) -> bool:
        return not over and not self.leaving and hasattr(self.session, "leave_for_good")

    def _leave_for_good(self) -> None:
        """Leave for good: the session appends the leave (now, or at this seat's next turn to
        write); the window closes once it is written (``snapshot().extra["left"]``)."""
        self.confirm_leave = False
        try:
            self.session.leave_for_good()  # type: ignore[attr-defined]
        except Exception as exc:  # the game ended meanwhile, the table halted: say so
            self.controller.say(_("cannot leave: {reason}").format(reason=exc), error=True)
            return
        self.leaving, self.reports = True, []  # a round's result open under the dialog closes
        self._observe()

    def _send_chat(self, buffer: Any) -> bool:
        """Enter on the chat line: send it and close it; below the minimum size (the line off
        screen) nothing is sent, the text stays (a trial of 2026-12-05 sent an unread line)."""
        if self.too_small():
            return True  # prompt-toolkit keeps the buffer's text
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

    def _root(self) -> HSplit:
        wide = Condition(lambda: self._width() >= WIDE)
        overlay = Condition(lambda: self._overlay_open())
        small = Condition(lambda: self.too_small())
        hand = FitControl(self._hand_lines, keys=HAND_KEYS)  # it does not scroll
        self._hand_window = Window(hand, dont_extend_height=True,
                                   height=lambda: self._fit_height(self._hand_lines, 2))
        table = Window(self.table_view, height=lambda: self._fit_height(
            self._table_lines, 4, self._table_width()))
        log = Window(self.log_view, style="class:dim",
                     height=lambda: log_rows(self.controller, self._snap()))
        body = HSplit([
            Window(FitControl(self._title_lines), dont_extend_height=True,
                   height=lambda: self._fit_height(self._title_lines, 1)),
            ConditionalContainer(table, filter=~wide),
            ConditionalContainer(VSplit([
                Window(self.table_view),
                Window(width=1, char="│", style="class:dim"),
                Window(self.log_view, width=lambda: self._log_width(), style="class:dim"),
            ], height=Dimension(min=4, preferred=4, max=1000)), filter=wide),
            ConditionalContainer(log, filter=~wide),
            ConditionalContainer(
                Window(self.panel_view, dont_extend_height=True,
                       height=lambda: self._fit_height(self._panel_lines, 3, top=12)),
                filter=Condition(lambda: bool(self.controller.panel(self._snap(), 12)))),
            self._hand_window,
            Window(FitControl(self._status_lines), dont_extend_height=True,
                   height=lambda: self._fit_height(self._status_lines, 2)),
            ConditionalContainer(self.chat, filter=Condition(lambda: self.chatting)),
        ])
        return HSplit([
            ConditionalContainer(
                # a long banner (the vote question) wraps at a space, continued indented,
                # never cut (prompt-toolkit's wrap_lines broke it mid-word at the 80th column)
                Window(FitControl(self._banner_rows), dont_extend_height=True),
                filter=~small & Condition(lambda: bool(self._banner_lines()))),
            ConditionalContainer(Window(FormattedTextControl(self._small_text),
                                        wrap_lines=True), filter=small),
            ConditionalContainer(Window(self.overlay_view), filter=~small & overlay),
            ConditionalContainer(body, filter=~small & ~overlay),
        ])

    def _fit_height(self, lines: Any, least: int, width: int | None = None,
                    top: int | None = None) -> Dimension:
        """Rows for a panel: its wrapped lines (at least ``least``, at most ``top``)."""
        count = len(wrap_all(lines(width or self._width()), width or self._width()))
        count = min(count, top) if top else count
        return Dimension(min=min(least, count), preferred=count, max=count)

    def _overlay_open(self) -> bool:
        return self.show_help or self.show_objective or bool(self.reports) or \
            self.confirm_quit or self.confirm_leave or self.rules.open

    def _size(self) -> tuple[int, int]:
        try:
            size = get_app().output.get_size()
            return int(size.columns), int(size.rows)
        except Exception:
            return 80, 24

    def _width(self) -> int:
        return self._size()[0]

    def _log_width(self) -> int:
        """Columns of the log at the right (from :data:`WIDE`): what the table leaves."""
        return max(LOG_WIDTH, self._width() - TABLE_WIDTH - 1)

    def _table_width(self) -> int:
        return self._width() - (self._log_width() + 1 if self._width() >= WIDE else 0)

    def _snap(self) -> TableSnapshot:
        return self.session.snapshot()

    def _banner_lines(self) -> list[tuple[str, str]]:
        snap = self._snap()
        lines = [(f"class:banner.{b.kind}", " " + _("{kind}: {text}").format(
                  kind=_(BANNER_WORDS[b.kind]) if b.kind in BANNER_WORDS else b.kind.upper(),
                  text=plain(b.text)) + " ") for b in snap.banners
                 if not (b.kind == "again" and self.reports)]
        if snap.progress:
            lines.append(("class:banner.progress", f" {progress_words(snap.progress)} "))
        return lines

    def _banner_rows(self, width: int) -> Lines:
        """The banners wrapped at ``width`` (:func:`wrap_line`), every row in the banner's
        style to the last column."""
        rows: Lines = []
        for style, text in self._banner_lines():
            for piece in wrap_line([(style, text)], width):
                piece = [(f[0] or style, f[1]) for f in piece]
                rows.append([*piece, (style, " " * max(0, width - line_length(piece)))])
        return rows

    def _small_text(self) -> StyleAndTextTuples:
        columns, rows = self._size()
        text = (_("Leave for good? y: leave for good  n: stay") if self.confirm_leave else
                quit_line(halted_text(self._snap())) if self.confirm_quit
                else too_small_words(columns, rows, MIN_COLUMNS, MIN_ROWS))
        return [("class:error", " " + text)]

    def _title_lines(self, width: int) -> Lines:
        return to_lines(self.controller.title(self._snap(), width))

    def _table_lines(self, width: int) -> Lines:
        snap = self._snap()  # a rematch: the game of the evening and the evening so far,
        first = getattr(snap.view, "round", 0) <= 1  # in round 1 only (the log keeps them)
        series: Lines = [[("class:dim", " " + line)] for line in
                         (snap.extra.get("series", ()) if first else ())]
        return series + to_lines(self.controller.table(snap, width))

    def _log_key(self) -> object:
        """What identifies the log's content: its length and its last lines (a networked
        session may complete a line it already showed, e.g. the card of an own draw)."""
        log = self._snap().log
        return (len(log), tuple(line.text for line in list(log)[-8:]))

    def _log_lines(self, width: int) -> Lines:
        snap = self._snap()
        out: Lines = []
        for line in snap.log:
            style = "class:log.chat" if line.chat else "class:log.mark" if \
                getattr(line, "mark", False) else ""
            out.append([(style, " " + log_text(line, snap.names))])
        return out or [[("class:dim", " " + _("(the log of moves and chat)"))]]

    def _panel_lines(self, width: int) -> Lines:
        return self._panel_sized(width, 12)

    def _panel_sized(self, width: int, rows: int) -> Lines:
        panel = self.controller.panel(self._snap(), rows, width)
        return to_lines(panel) if panel else []

    def _hand_lines(self, width: int) -> Lines:
        return to_lines(self.controller.hand_view(self._snap(), width))

    def _status_lines(self, width: int) -> Lines:
        c: BaseController = self.controller
        snap = self._snap()
        text = c.shown_message(snap)
        if self.leaving:  # issue 25, item 9: say whom the leave waits for, if anyone
            text = leaving_words(snap.extra)
        message = ("class:error" if c.error else "class:message", " " + text)
        hint = bool(snap.legal) and c.picker is None  # "h hint" on the own move
        keys = key_line(self.controller.hints(snap), width, hint)
        return [[message], [("class:hints", keys)]]

    def _overlay_lines(self, width: int, rows: int | None = None) -> Lines:
        if self.confirm_leave or self.confirm_quit:
            return leave_panel() if self.confirm_leave else quit_panel(self._can_leave(False),
                                                                   halted_text(self._snap()))
        if self.rules.open:
            return rules_panel(self._snap(), width, rows)
        if self.show_help:
            return keys_panel(self.controller.help(), self.controller.goal_help, width, rows)
        if self.show_objective:
            return objective_panel(self.controller.objective(self._snap()), width, rows)
        return report_lines(self.reports[0], self._snap()) if self.reports else []

    # -- running -----------------------------------------------------------------------------

    async def run(self) -> int:
        """Show the table until the user leaves; returns the exit status (0: game over).

        Raises:
            StorageError: the session stopped on a storage fault (a full disk, issue 24): the
                screen closes at once and the one-line error reaches the command line.
        """
        from lancards.cli.tui.typeahead import flush_typeahead
        from lancards.p2p.net.store import StorageError

        flush_typeahead()  # a key typed on the screen before (the lobby's) never acts here
        task = asyncio.ensure_future(self.session.run())
        fault: list[StorageError] = []
        shown = [True]  # until the screen has closed

        def close_screen() -> None:
            if self.app.is_running:
                self.app.exit(result=STATUS_LEFT)
            elif shown[0]:  # not running yet: the fault came before the first frame
                asyncio.get_running_loop().call_later(0.05, close_screen)

        def ended(done: asyncio.Future[None]) -> None:
            error = None if done.cancelled() else done.exception()
            if isinstance(error, StorageError):
                fault.append(error)
                close_screen()

        task.add_done_callback(ended)
        try:
            with redraw_on_continue(self.app):  # after SIGSTOP and fg: the screen whole
                status = await self.app.run_async()
        finally:
            shown[0] = False
            self.controller.close()  # a skipped turn waiting to pass passes no more
            if self.leaving:  # lancards play: its bots finish the game
                await play_out(self.session, task)
            await self.session.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if fault:
            raise fault[0]
        return int(status if status is not None else STATUS_LEFT)


async def run_table(session: Session, *, input: Input | None = None,
                    output: Output | None = None, greeting: str = "") -> int:
    """Show the table of ``session`` until the game ends and the user leaves, or the user quits
    (``greeting``: the message line's first words, e.g. that a paused table waits).

    Returns:
        0 when the user left after the game ended; 1 when the user left before the end
        (``q`` then ``y``, or Ctrl-C).
    """
    status = await TableScreen(session, input=input, output=output, greeting=greeting).run()
    line = farewell(session, again=status in (STATUS_AGAIN, STATUS_OTHER))  # a table follows
    if line and output is None:  # a test's own output keeps its screen alone
        echo(line)  # wrapped at the terminal's width, at a space
    return status
