"""After a person left for good at ``lancards play``, where every other seat is a bot of the
same process: the bots play the game to its end once the window closed, so that its record is
whole and ``lancards history`` and ``lancards audit`` tell its result (before, the process
stopped them and the record stayed short of the end: the new-user trial of 2026-12-05).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from lancards.cli.i18n import _, language
from lancards.cli.tui.words import halted_text
from lancards.engine.core import EngineError

PLAY_OUT_S = 300.0
"""How long the bots may take to finish the game (s): an 8s Rule! game of ``hard`` seats takes
about 20 s of a core; then the table stays as it is."""

PROGRESS_S = 3.0
"""After this long (s) of the bots' play-out, the round they play is said, then each new one:
without their pauses a round still takes seconds (each is shuffled and dealt among the bots'
own peers and every move checked: 7 to 11 s a round of 8s Rule! on the shared machine of
issue 26's new-user trial, which read nothing for about a minute)."""

PROGRESS_POLL_S = 0.5
"""How often (s) the play-out looks at the round."""


def plays_out(session: Any) -> bool:
    """Whether ``session``'s seat left for good while the game goes on at a table whose every
    other seat is this process's own bot (a ``NetworkSession`` of ``lancards play``)."""
    core, nodes = getattr(session, "core", None), getattr(session, "nodes", None)
    if core is None or nodes is None:
        return False
    return (core.has_left(session.seat) and not session.node.over()
            and not any(node.fault for node in nodes) and len(nodes) == len(core.players))


def plays_out_here(session: Any) -> bool:
    """Whether ``session`` is a table of this process alone (``lancards play --local``: a
    :class:`~lancards.cli.local_session.LocalSession`, no peers) whose seat left for good while
    the game goes on: its bots are played to the end at once (``step`` by ``step``, each round
    said from the one being played on: hard bots take about 10 s for Level 8 Master), in the
    engine only. Before, the window said "the game goes on without you" and the process ended with
    the game unplayed and unkept (a LAN trial's ``q`` ``l`` ``y`` at ``lancards play
    --local``)."""
    step = getattr(session, "step", None)
    if not callable(step) or getattr(session, "nodes", None) is not None:
        return False
    extra = session.snapshot().extra
    return bool(extra.get("left")) and not getattr(session, "over", True)


def progress_words(game: str, number: int) -> str:
    """The play-out's progress: ``round 5 of 8...`` (8s Rule!, ruling E-6), ``round 5...``
    (Level 8, whose rounds are not counted in advance)."""
    if game == "eights":
        return _("round {number} of 8...").format(number=number)
    return _("round {number}...").format(number=number)


async def play_out(session: Any, running: asyncio.Future[Any]) -> None:
    """Let the bots of ``session`` (its ``run()`` is ``running``) finish the game at once (no
    pause before their turns: ``bot_delay`` 0), at most :data:`PLAY_OUT_S` s; one line says so
    first (the window is closed by then), and from :data:`PROGRESS_S` s on a line says each
    round they play (:func:`progress_words`); at a table of this process alone (``lancards
    play --local``, :func:`plays_out_here`), whose rounds take a second or less, each round
    from the one being played, at once."""
    from lancards.cli.tui.fit import echo

    if plays_out_here(session):  # lancards play --local: the bots are this very session's
        echo(_("you left the table for good; the bots play the game to its end..."))
        said = None  # each round said from the one being played, at once: a round of the
        with contextlib.suppress(EngineError):  # engine alone takes a second or less, and
            # after PROGRESS_S the lines began mid-game ("round 5...": the last trials)
            for _step in range(100_001):  # as LocalSession.advance, saying each round
                number = getattr(session.state, "round", 0)
                if number != said and number > 0:
                    echo(progress_words(session.game.name, number))
                    said = number
                if not session.step():
                    break
        return
    if running.done() or not plays_out(session):
        return

    echo(_("you left the table for good; the bots play the game to its end..."))
    session.bot_delay = 0.0
    loop = asyncio.get_running_loop()
    start, said = loop.time(), None
    shielded = asyncio.shield(running)
    while not running.done():
        left = PLAY_OUT_S - (loop.time() - start)
        if left <= 0:
            return
        await asyncio.wait({shielded}, timeout=min(PROGRESS_POLL_S, left))
        number = getattr(session.core.state, "round", 0)
        if not running.done() and loop.time() - start >= PROGRESS_S and number != said \
                and number > 0:
            echo(progress_words(session.game.name, number))
            said = number
    if shielded.done() and not shielded.cancelled():
        shielded.exception()  # retrieved: the table's own close says what went wrong


def yes_keys() -> tuple[str, ...]:
    """The keys that answer yes at the table (the dialogs, "remove NAME?"): ``y``, and on a
    German table ``j`` (ja) too, as its questions say ``j:`` and ``(j/n)``."""
    return ("y", "Y", "j", "J") if language() == "de" else ("y", "Y")


def answer_dialog(screen: Any, key: str, over: bool, left: int) -> bool:
    """A key while ``q``'s dialog (pause or leave for good) or the leave's own dialog is open
    on the table ``screen`` (a ``TableScreen``); whether the dialog took it. Yes is
    :func:`yes_keys`; ``left``: the exit status of a pause."""
    yes = yes_keys()
    if screen.confirm_leave:
        if key in yes:
            screen._leave_for_good()
        elif key in ("n", "N", "escape"):
            screen.confirm_leave = False
        return True
    if screen.confirm_quit:
        if key in (*yes, "p", "P"):
            screen.app.exit(result=left)
        elif key in ("l", "L") and screen._can_leave(over) and \
                halted_text(screen.session.snapshot()) is None:  # a halted table: close only
            screen.confirm_quit, screen.confirm_leave = False, True
        elif key in ("n", "N", "escape"):
            screen.confirm_quit = False
        return True
    return False


__all__ = ["PLAY_OUT_S", "PROGRESS_POLL_S", "PROGRESS_S", "answer_dialog", "play_out",
           "plays_out", "plays_out_here", "progress_words", "yes_keys"]


def leaving_words(extra: dict[str, Any]) -> str:
    """The message line while this seat leaves for good (``extra``: the snapshot's): written
    already (``left_written``: the window waits for the others to build on it), or whom the
    leave waits for (issue 25, item 9). The trial of 2026-12-06 read "once the table comes to
    you (waiting for anna)" under "You left the table" in the log."""
    if extra.get("left_written"):
        return _("You left the table for good: this window closes once the others have your "
                 "leave")
    waits = extra.get("waiting")
    if waits:
        return _("Leaving for good once the table comes to you ({reason}); q pauses "
                 "instead").format(reason=waits)
    return _("Leaving for good: your leave is written at your next turn to write, then this "
             "window closes")
