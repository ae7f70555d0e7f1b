"""A host's ``--bots`` seats after its person left for good (issue 26, the new-user trial of
2026-12-05): the bot seats live in the host's process, so it stays until they finished the game,
or makes them leave the table too when stopped. Shared by ``lancards host``
(:mod:`lancards.cli.lobby.host`) and ``lancards resume`` of a host
(:mod:`lancards.cli.lobby.resume_again`); a bot seat acts on it in
:func:`lancards.cli.lobby.started_table.play_table`.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lancards.cli.i18n import _, ngettext
from lancards.cli.tui.fit import echo
from lancards.p2p.net.record_file import write_record
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.record import Record

BOT_LEAVE_S = 30.0
"""How long a host whose person left waits, once stopped, for its ``--bots`` seats' leaves to
reach the table (s): a leave is written at the seat's next turn to write, which may wait for a
person's move (``docs/protocol.md`` 11.8)."""
BOT_END_S = 3.0
"""How long a host (or a resumed one) waits after its game for its ``--bots`` seats' last
messages, all of them together (s; their answers to "play again" left at the game's end), before
it stops them: the LAN trial of 2026-12-07 sat silent about 20 s after ``q`` at the game's end
(ten seconds for each of two bots, one after the other)."""
BOT_PAUSE_S = 1.0
"""How long after a pause (or a stop before the end): the table cannot go on without the host's
key shares, so its bots stop (the trial of 2026-12-05 met "in use by process" from a resume
started at once, while the bots lingered ten seconds)."""
_wait = asyncio.wait  # the one bounded wait of end_bots (tests: the bound it is given)


class HostGone:
    """What a host's ``--bots`` seats share with the host's own seat after its person left for
    good (issue 26, the new-user trial: the bots went with the host's process and the others
    waited for them for ever): :attr:`left`, the bots play this game to its end and say no to
    playing again; :attr:`leave` set, they leave the table too (the person stopped them);
    :attr:`declined`, the person said no to playing again, and so do the bots."""

    def __init__(self, names: list[str] | None = None) -> None:
        self.left = False
        self.leave = asyncio.Event()
        self.declined = False
        """The host's person said no to playing again (``q`` at the game's end): its bots say
        no too, and never yes after it (:meth:`said_no`)."""
        self.followers: list[Callable[[], None]] = []
        """What each bot seat's "play again" does once the host's person said no
        (:meth:`lancards.cli.remote_again.RemoteAgain.follow_host`)."""
        self.names: list[str] = list(names or [])
        """The nicknames of the host's bot seats, in the order they joined."""
        self.record: Record | None = None
        """The whole game's record, as the first bot seat that finished the game holds it
        (every seat's record is the same)."""
        self.outcome: dict[str, Any] | None = None
        """Its result (``outcome.json``'s content)."""
        self.lines: list[str] = []
        """Its result in words, as the game-over panel says it (``result: Ada wins...``, a
        line per seat, the winner first, then ``evening so far: ...``)."""

    def said_no(self) -> None:
        """The host's person said no to playing again: the bot seats, which live in the host's
        process and close with it, say no at once, before the host's "no" reaches them (a
        LAN trial read that the host's bots wanted another game while the table was closing:
        each had said yes, and yes again to going on without the host)."""
        self.declined = True
        for follow in list(self.followers):
            follow()

    def finished(self, record: Record, outcome: dict[str, Any],
                 lines: Sequence[str] = ()) -> None:
        """A bot seat played the game to its end after the host's person left (``lines``: the
        result in words)."""
        if self.record is None:
            self.record, self.outcome, self.lines = record, outcome, list(lines)

    def keep_result(self, folder: Path, record_path: str | None) -> None:
        """Write the finished game's record and result into the host's own table ``folder``
        (its journal ends at its leave) and to its ``--record`` file, so that ``lancards
        history`` and ``lancards audit`` tell the result on the host's machine too (the trial
        of 2026-12-05 read "finished" in history and "UNFINISHED" from audit). Nothing when
        no bot seat finished the game.

        Raises:
            StorageError: a file cannot be written (one line naming it).
        """
        if self.record is None or self.outcome is None:
            return
        write_record(self.record, folder / "record.jsonl")
        if record_path:
            write_record(self.record, record_path)
        store = TableStore(folder)
        store.save_outcome(self.outcome)
        store.mark("left")
        store.mark("finished")


async def _until(tasks: list[Any], signalled: asyncio.Event, timeout: float | None) -> bool:
    """Wait until every task is done, ``signalled`` is set or ``timeout`` s passed (``None``:
    no bound); whether ``signalled`` is set."""
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    waiter = asyncio.ensure_future(signalled.wait())
    try:
        pending = [task for task in tasks if not task.done()]
        while pending and not signalled.is_set():
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                break
            await asyncio.wait([*pending, waiter], timeout=left,
                               return_when=asyncio.FIRST_COMPLETED)
            pending = [task for task in pending if not task.done()]
        return signalled.is_set()
    finally:
        waiter.cancel()


async def bots_play_on(gone: HostGone, bots: list[Any], signals: Sequence[str]) -> int | None:
    """The host's person left for good while the game goes on: its ``--bots`` seats live in
    this process, so it stays until they finished the game (one line says so; the others would
    otherwise wait for them for ever: a seat that goes needs a leave, rulings D-1..D-4). A
    signal (Ctrl-C, SIGTERM, SIGHUP: the terminal closed) makes them leave the table too, each
    at its next turn to write, waiting at most :data:`BOT_LEAVE_S` s for that; a second signal
    stops at once (the others then wait for them, or remove them where ``rescue`` is on).

    Returns:
        ``None`` when the bots finished the game; else the number of the signal that stopped
        them (the command's exit status is 128 + it).
    """
    playing = [task for task in bots if not task.done()]
    if not playing:
        return None
    names = ", ".join(gone.names)
    echo(ngettext("{bots} plays on until the game ends: keep this terminal open "
                  "(Ctrl-C: {bots} leaves the table too)",
                  "{bots} play on until the game ends: keep this terminal open "
                  "(Ctrl-C: they leave the table too)", len(gone.names)).format(bots=names))
    loop = asyncio.get_running_loop()
    caught: list[int] = []
    signalled = asyncio.Event()

    def stop(signum: int) -> None:
        caught.append(signum)
        signalled.set()

    installed = []  # the table's screen took SIGINT from the loop: these signals are ours now
    for name in signals:
        sig = getattr(signal, name, None)
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, TypeError):
            if sig is not None:
                loop.add_signal_handler(sig, stop, int(sig))
                installed.append(sig)
    try:
        if not await _until(playing, signalled, None):
            echo(_("the game is over"))
            for line in gone.lines:  # who won (the trial of 2026-12-06: only "the game is over")
                echo(line)  # wrapped at the terminal's width, at a space
            return None
        echo(ngettext("{bots} leaves the table at its next turn (Ctrl-C again: stop at once; "
                      "the others then wait for it)",
                      "{bots} leave the table at their next turn (Ctrl-C again: stop at once; "
                      "the others then wait for them)", len(gone.names)).format(bots=names))
        gone.leave.set()
        signalled.clear()
        await _until(playing, signalled, BOT_LEAVE_S)
        return caught[0]
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


async def end_bots(bots: Sequence[asyncio.Future[Any]], bound: float, say: bool) -> None:
    """The host's process ends: its ``--bots`` seats get ``bound`` s together to end (their last
    messages), then the rest are cancelled, and what ended each is retrieved (never printed by
    asyncio). With ``say`` (a terminal whose table screen has closed), one line first says what
    the process does while one still runs: ``closing the table…``."""
    running = [task for task in bots if not task.done()]
    if running:
        if say:
            echo(_("closing the table…"))
        await _wait(running, timeout=bound)
    for task in bots:
        task.cancel()
    await asyncio.gather(*bots, return_exceptions=True)


async def stop_bots(bots: Sequence[asyncio.Future[Any]]) -> None:
    """The host's table ended before the start (cancelled, or failed): its ``--bots`` seats'
    join tasks are cancelled and awaited, so that what ended them (the host's close, heard as
    ``HostGone``) is retrieved here, never printed by asyncio as "Task exception was never
    retrieved" with a traceback (the new-user trial of 2026-12-06)."""
    for task in bots:
        task.cancel()
    await asyncio.gather(*bots, return_exceptions=True)


__all__ = ["BOT_END_S", "BOT_LEAVE_S", "BOT_PAUSE_S", "HostGone", "bots_play_on", "end_bots",
           "stop_bots"]
