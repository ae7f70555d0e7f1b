"""Following a started table as an observer (``lancards watch``, and ``w`` in the lobby): one
link to a seated peer, the :class:`~lancards.p2p.protocol.watching.Watching` it feeds, and the
line-per-event output. The command is :mod:`lancards.cli.watch`."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import N_, _, ngettext
from lancards.cli.lobby.watch_refusals import WatchRefusals
from lancards.cli.peer_errors import cheat_error_words
from lancards.p2p.net.transport import (
    DROP_CODE,
    Connected,
    Disconnected,
    Mesh,
    Received,
    TransportConfig,
)
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.watching import Event, Watching

CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=2.0,
                         fallback_after=None)
"""The watcher's one link (it listens nowhere: it always dials)."""

DROPPED_WORDS = {
    "full": N_("that player's peer has as many watchers as it takes; watch through another "
               "player"),
    "not-seated": N_("this watcher sent what only a player may send"),
    "flood": N_("this watcher asked too often"),
    "slow": N_("this watcher could not keep up with the table"),
    "wrong-table": N_("that peer plays another table"),
}
"""What the watcher's screen says when the peer drops it, by the peer's reason word."""

NEXT_WAIT_S = 660.0
"""How long a watcher waits after the game's end for the table to play again (seconds; the
players' own agreement waits 600 s; the watch ends at once when the peer's program ends)."""



async def watch_at(table_id: str, key: bytes, host: str, port: int, *, record: str | None = None,
                   wait: float = 10.0, screen: bool = False) -> int:
    """Follow table ``table_id`` through the seated peer ``key`` at ``host:port``: with
    ``screen`` on the full-screen table in its watch mode (:class:`WatchSession`, q quits),
    else one line per move and round on standard output; then the result. ``record``: write
    the verified record there. Returns 0 when the game ended verified, else 1.

    Raises:
        StorageError: ``record`` cannot be written.
    """
    from lancards.cli.play_again import series_record

    echo(_("watching table {table} through {peer} at {address}").format(
        table=table_id, peer=describe(key), address=f"{host}:{port}"))
    watcher = TableWatcher(table_id, key, host, port)
    try:
        number = 1
        while True:
            if screen:
                status = await WatchSession(watcher).show(wait)
            else:
                plain = PlainTeller(watcher.watching, echo)
                status = await watcher.run(plain.tell, wait=wait)
                plain.finish(watcher)
            path = series_record(record, number)
            if path and watcher.watching.core is not None:
                from lancards.p2p.net.record_file import write_record

                write_record(watcher.watching.core.record, path)
                echo(_("record: {file}").format(file=path))
            if status != 0 or not await watcher.next_game():
                return status
            nxt = watcher.watching.next
            assert nxt is not None
            number = int(nxt.statement["follows"]["game"])
            if screen:  # the full screen ended with the game: say how to watch the next
                echo(_("the table plays again: watch the next game with lancards watch "
                       "{target}").format(target=f"{nxt.spec.table}@{_address(host, port)}"))
                return status
            echo(_("the table plays again: game {number} of the evening, table {table}").format(
                number=number, table=nxt.spec.table))
            watcher.follow()
    finally:
        await watcher.close()


def echo(line: str) -> None:
    """Print a line of the watch wrapped at a space at the terminal's width
    (:func:`lancards.cli.tui.fit.echo`): at 80 columns a trial read ``...:599`` / ``97`` and
    ``another tabl`` / ``e``."""
    from lancards.cli.tui.fit import echo as fit_echo

    fit_echo(line)


def _address(host: str, port: int) -> str:
    """``HOST:PORT`` as ``lancards watch`` takes it (an IPv6 host in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class TableWatcher:
    """One watch: a fresh key, one link to a seated peer, the :class:`Watching` it feeds.

    Args:
        table_id: the table (16 hex digits).
        key: the seated peer's key; ``host``, ``port``: where it listens.
    """

    def __init__(self, table_id: str, key: bytes, host: str, port: int) -> None:
        self.me = Identity.generate("watcher")
        self.key, self.host, self.port = key, host, port
        self.watching = Watching(self.me, table_id, key)
        self.dropped: str | None = None
        """The peer's reason word when it dropped this watcher."""
        self.lost: str | None = None
        """Why the watch ended early in words (no answer, dropped), else ``None``."""
        self._stop = asyncio.Event()
        self._mesh: Mesh | None = None
        self._refusals = WatchRefusals()  # told as a seated table tells them, as rarely

    def stop(self) -> None:
        """End :meth:`run` (a key press)."""
        self._stop.set()

    async def run(self, on_event: Callable[[Event], None], *, wait: float = 10.0) -> int:
        """Follow the table until the game ends (0), the peer drops this watcher (1) or
        :meth:`stop`; ``wait``: seconds for the first answer. After the game's end the link
        stays up (the table may play again: :meth:`next_game`) until :meth:`close`; else it
        is closed."""
        status = 1
        try:
            status = await self._follow(on_event, wait)
        finally:
            if status != 0 or self._stop.is_set():
                await self.close()
        return status

    async def _follow(self, on_event: Callable[[Event], None], wait: float) -> int:
        mesh = self._link()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while not self._stop.is_set() and not self.watching.over():
            if self.watching.core is None and loop.time() > deadline:
                self.lost = _("no answer from {peer} within {seconds} s").format(
                    peer=describe(self.key), seconds=f"{wait:.0f}")
                return 1
            try:
                event = await mesh.next_event(0.2)
            except PeerError:
                continue
            if isinstance(event, Connected) and event.peer == self.key:
                mesh.send(self.key, self.watching.ask())
            elif isinstance(event, Received) and event.peer == self.key:
                on_event(self.watching.receive(event.data))
            elif isinstance(event, Disconnected) and event.peer == self.key:
                prefix = f"closed {DROP_CODE}: "
                if event.reason.startswith(prefix):
                    self.dropped = event.reason[len(prefix):]
                    why = self.dropped
                    if why in DROPPED_WORDS:
                        why = _(DROPPED_WORDS[why])
                    self.lost = _("{peer} stopped serving this watcher: {why}").format(
                        peer=describe(self.key), why=why)
                    return 1
        return 0 if self.watching.over() else 1

    async def next_game(self, limit: float = NEXT_WAIT_S) -> bool:
        """After the game's end: wait (at most ``limit`` s, or until the peer's link goes
        down: its program ended without a next game) for the peer's ``watch.next``; whether
        the table plays again (:attr:`Watching.next` taken). Refused notices are told on
        standard error."""
        if self.watching.cheat is not None or self._mesh is None:
            return False
        mesh = self._mesh
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        while not self._stop.is_set() and self.watching.next is None and loop.time() < end:
            try:
                event = await mesh.next_event(0.2)
            except PeerError:
                continue
            if isinstance(event, Disconnected) and event.peer == self.key:
                return False
            if isinstance(event, Received) and event.peer == self.key:
                told = self.watching.receive(event.data)
                said = self._refusals.words(told) if told.kind == "rejected" else None
                if said is not None:
                    print(_("refused: {reason}").format(reason=said), file=sys.stderr,
                          flush=True)
        return self.watching.next is not None

    def follow(self) -> None:
        """Watch the next game (after :meth:`next_game`) on the same link: its ask leaves
        now."""
        self.watching = self.watching.following()
        if self._mesh is not None:
            with contextlib.suppress(PeerError):
                self._mesh.send(self.key, self.watching.ask())

    async def close(self) -> None:
        """Close the link."""
        if self._mesh is not None:
            await self._mesh.close()
            self._mesh = None

    def _link(self) -> Mesh:
        if self._mesh is None:
            self._mesh = Mesh(self.me, CONFIG)
            self._mesh.add_peer(self.key, self.host, self.port, dial=True)
        return self._mesh


def watch_cheat_words(core: Any, error: PeerError | None, english: str,
                      entry: Any = None) -> str:
    """The cheat that stopped a watch, in words, as a seated screen says it: a fork with both
    entries its author signed (:func:`~lancards.cli.fork_words.error_fork`); the refused signed
    ``entry``'s author by nickname with its move and why
    (:func:`~lancards.cli.peer_words.cheat_notice_words`: ``eve signed a move out of turn: draw
    from the draw pile, while it was ann's move``); else
    :func:`~lancards.cli.peer_errors.cheat_error_words` (the LAN trial's watcher read ``eve
    [FP] (seat 1) hat einen Zug signiert, den die Regeln nicht erlauben``: a fingerprint and
    English inside a German line, no move)."""
    from lancards.cli.fork_words import core_view, error_fork, signed_move
    from lancards.cli.peer_words import cheat_notice_words
    from lancards.p2p.protocol.cheat_evidence import refused_by
    from lancards.p2p.protocol.errors import RecordError

    fork = error_fork(core, error)
    if fork:
        return fork
    author = entry.get("author") if isinstance(entry, dict) else None
    if core is not None and isinstance(error, RecordError) and isinstance(author, str):
        try:
            seat = core.seat_of(bytes.fromhex(author))
        except ValueError:
            seat = None
        if seat is not None:
            names = [m.nick for m in core.players]
            kind = error.reason.value
            move = signed_move(core.game, entry, names, core_view(core)) \
                if kind == "out-of-turn" else None
            return cheat_notice_words(kind, seat, names, english, refused_by(error), move)
    return cheat_error_words(error, english)


class PlainTeller:
    """The line-per-event output: each move in words as a spectator sees it, each round's
    summary, the result."""

    def __init__(self, watching: Watching, say: Callable[[str], None], *,
                 rounds: bool = True, marked: bool = False) -> None:
        self.watching, self.say, self.rounds = watching, say, rounds
        self.marked = marked
        """A refusal as the seated table's log says it, ``"! ..."`` (the full screen); else
        ``"refused: ..."`` (printed lines)."""
        self._refusals = WatchRefusals()
        self._before: Any = None
        self._tracker: Any = None

    def tell(self, event: Event) -> None:
        from lancards.cli.tui.narrate import narrate
        from lancards.cli.tui.results import RoundTracker

        core = self.watching.core
        if event.kind in ("rejected", "cheat"):
            if event.kind == "cheat":
                self.say(_("cheating caught: {reason}").format(
                    reason=watch_cheat_words(core, event.error, event.text,
                                             self.watching.cheat_entry)))
            elif (said := self._refusals.words(event)) is not None:
                self.say(f"! {said}" if self.marked else
                         _("refused: {reason}").format(reason=said))
            return
        if core is None:
            return
        names = tuple(m.nick for m in core.players)
        if event.kind == "table":
            if self._tracker is None:
                self._tracker = RoundTracker(names)
                self.say(_("{game} · players {names}").format(game=game_title(core.rule_set),
                                                               names=", ".join(names)))
            return
        entry = core.record.entries[event.seq]
        kind, seat = entry.payload.get("t"), core.seat_of(entry.author)
        after = core.state
        if kind == "leave" and seat is not None:
            self.say(_("{name} left the table").format(name=names[seat]))
        elif kind == "rescue" and entry.payload.get("votes"):
            self.say(_("{name} was removed by the others' votes").format(
                name=names[int(entry.payload["seat"])]))
        elif kind == "action":
            try:
                action = core.game.parse_action(str(entry.payload["a"]))
                lines = narrate(core.game.name, self._before, action, after, names, -1)
            except Exception:  # never lose a move to a wording problem
                lines = [str(entry.payload["a"])]
            for line in lines:
                self.say(line)
        self._before = after
        for report in self._tracker.observe(core.game.name, after) if self.rounds else ():
            self.say(report.summary)

    def finish(self, watcher: TableWatcher) -> None:
        """The last lines: the result, or why the watch ended."""
        from lancards.cli.tui.results import final_lines, result_line

        core = self.watching.core
        if watcher.lost:
            self.say(watcher.lost)
        title = "" if core is None else game_title(core.rule_set)  # as play --autoplay's
        if self.watching.cheat:
            self.say(result_line(_("the table halted: {reason}").format(
                reason=watch_cheat_words(core, self.watching.cheat_error, self.watching.cheat,
                                         self.watching.cheat_entry)), title))
            return
        outcome = None if core is None else core.game.outcome(core.state)
        if core is None or outcome is None:
            if not watcher.lost:
                self.say(_("the watch ended before the game did"))
            return
        names = tuple(m.nick for m in core.players)
        left_by_self = {core.seat_of(e.author) for e in core.record.entries
                        if e.payload.get("t") == "leave"}
        removed = [s for s in core.left_seats() if s not in left_by_self]
        for line in final_lines(outcome, names, core.game.name, removed, title):
            self.say(line)
        from lancards.cli.opening_words import record_moves

        moves = record_moves(core.record)  # counted as the audit and a resume count them
        self.say(ngettext("{count} move verified", "{count} moves verified", moves).format(
            count=moves))


class WatchSession:
    """The full-screen table's :class:`~lancards.cli.session.Session` of a watcher: the seat
    is ``-1`` (a spectator, as :func:`~lancards.cli.tui.narrate.narrate` reads it), the view
    the public one, no legal move ever, ``snapshot().extra["watching"]`` set (the screens show
    no hand, the hints say so, ``q`` quits at once), the log the moves in a spectator's words.
    """

    resumable = False

    def __init__(self, watcher: TableWatcher) -> None:
        self.watcher = watcher
        self._callbacks: list[Callable[[], None]] = []
        self._log: list[Any] = []
        self._teller = PlainTeller(watcher.watching, self._line, rounds=False, marked=True)
        self._task: asyncio.Task[int] | None = None

    def _line(self, text: str) -> None:
        from lancards.cli.session import LogLine
        from lancards.cli.tui.narrate import ROUND_MARK

        self._log.append(LogLine(text, None, mark=text.startswith(ROUND_MARK),
                                 index=len(self._log) + 1))

    def tell(self, event: Event) -> None:
        """One event of the watch: told in the log, the screen redrawn."""
        self._teller.tell(event)
        for callback in self._callbacks:
            callback()

    async def show(self, wait: float) -> int:
        """Follow the table on the full-screen table until the person quits (0: the game
        ended, verified; 1 otherwise)."""
        from lancards.cli.tui.app import run_table

        self._task = asyncio.ensure_future(self.watcher.run(self.tell, wait=wait))
        while self.watcher.watching.core is None and not self._task.done():
            await asyncio.sleep(0.05)
        if self.watcher.watching.core is None:  # no table came: say why, on the terminal
            status = await self._task
            PlainTeller(self.watcher.watching, echo).finish(self.watcher)
            return status
        await run_table(self)
        return 0 if self.watcher.watching.over() and not self.watcher.watching.cheat else 1

    def snapshot(self) -> Any:
        from lancards.cli.session import Banner, TableSnapshot

        core = self.watcher.watching.core
        assert core is not None
        banners = []
        watching = self.watcher.watching
        if watching.cheat:
            banners.append(Banner("cheat", watch_cheat_words(  # its mark says "caught"
                core, watching.cheat_error, watching.cheat, watching.cheat_entry)))
        if self.watcher.lost:
            banners.append(Banner("error", self.watcher.lost))
        to_act = None if watching.cheat else core.to_act()  # halted: nobody moves again
        return TableSnapshot(
            game=core.game, rule_set=core.rule_set, seat=-1,
            names=tuple(m.nick for m in core.players), view=core.state, to_act=to_act,
            legal=[], log=tuple(self._log[-2000:]), banners=tuple(banners),
            progress=core.progress if to_act == -1 else "",
            outcome=core.game.outcome(core.state),
            extra={"watching": True, "table": core.table_id,
                   "bots": {seat: m.bot for seat, m in enumerate(core.players) if m.bot}})

    def submit(self, action: Any) -> None:
        """A watcher plays nothing.

        Raises:
            LocalProtocolError: always.
        """
        from lancards.p2p.protocol.errors import LocalProtocolError

        raise LocalProtocolError("you are watching: no moves here").with_code("watching")

    def send_chat(self, text: str) -> None:
        """A watcher's chat goes nowhere (the players hear no observer): said in the log."""
        self._line(_("(you are watching: the players do not hear a watcher's chat)"))
        for callback in self._callbacks:
            callback()

    def subscribe(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    async def run(self) -> None:
        """Until the watch ends (the game's end, a drop) or :meth:`close`."""
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        for callback in self._callbacks:
            callback()

    async def close(self) -> None:
        self.watcher.stop()


__all__ = ["CONFIG", "DROPPED_WORDS", "PlainTeller", "TableWatcher", "WatchSession", "watch_at",
           "watch_cheat_words"]
