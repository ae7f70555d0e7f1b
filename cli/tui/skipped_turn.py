"""A skipped turn passes by itself (Level 8 and Level 8 Master, ruling L8C-1).

When a Skip card lies in front of this seat at the start of its turn, the turn's one move is to
serve the Skip (``ServeSkip``). A new user had to press ``e`` for it and waited for the table
instead; now this client sends that move by itself, :data:`SKIP_PAUSE_S` seconds after the
message line has said why (``"Bram skipped you: your turn passes"``), in ``lancards play`` and
at a networked table alike (the move is the one ``e`` sends). ``e`` or Enter still serve it at
once.

It is sent once per skipped turn (the state's ``(round, actions)`` names the turn: a redraw or a
second look at the same state sends nothing); not while a panel or dialog covers the table
(:attr:`~lancards.cli.tui.controller.BaseController.hold`) or a list of moves is open (``m``):
it waits until the table shows again; never once the game is over or the screen has closed; and
only for this screen's own seat: a bot's seat serves its Skip through its bot, as before.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from lancards.cli.i18n import _
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.narrate import PUT_IN_FRONT_OF_YOU, SPECIAL_WORDS
from lancards.engine.level8.actions import ServeSkip
from lancards.engine.level8.state import Phase

SKIP_PAUSE_S = 1.5
"""Seconds the notice shows before the skipped turn passes (again and again while a panel or
dialog covers the table)."""


def skipper(snap: TableSnapshot) -> str | None:
    """The nickname of the player whose Skip card lies in front of this seat: the one the log
    last told putting a Skip in front of it (``"Bram put SKIP in front of you (Skip!)"``; one
    Skip at most lies in front of a seat), or None when the log does not tell it."""
    said = _(PUT_IN_FRONT_OF_YOU)
    call = _(SPECIAL_WORDS["SKIP"])
    for line in reversed(snap.log):
        if line.chat or line.seat is None or line.seat == snap.seat or \
                not 0 <= line.seat < len(snap.names):
            continue
        name = snap.names[line.seat]
        if line.text == said.format(who=name, card="SKIP", call=call):
            return name
    return None


def skip_notice(snap: TableSnapshot) -> str:
    """Why this seat's turn passes: ``"Bram skipped you: your turn passes"``."""
    name = skipper(snap)
    if name is None:
        return _("a Skip card lies in front of you: your turn passes")
    return _("{name} skipped you: your turn passes").format(name=name)


def serve_due(snap: TableSnapshot) -> ServeSkip | None:
    """This seat's serving of a Skip, when it is its move now and the game goes on."""
    if snap.outcome is not None or snap.to_act != snap.seat or snap.extra.get("watching") \
            or getattr(snap.view, "phase", None) is not Phase.SKIPPED:
        return None
    return next((a for a in snap.legal if isinstance(a, ServeSkip) and a.seat == snap.seat),
                None)


def turn_key(snap: TableSnapshot) -> tuple[int, int]:
    """What names one skipped turn: the round and how many actions led to it."""
    return int(snap.view.round), int(snap.view.actions)


@dataclass
class SkippedTurn:
    """One screen's skipped turns: the notice, then the serving (see the module docstring).

    Attributes:
        done: the turn (:func:`turn_key`) whose Skip was taken care of last.
        timer: the serving waiting for its notice to be read.
    """

    done: tuple[int, int] | None = None
    timer: asyncio.TimerHandle | None = None

    def observe(self, controller: Any, snap: TableSnapshot) -> None:
        """The table changed (``controller``: the seat's
        :class:`~lancards.cli.tui.controller.BaseController`): on a new skipped turn of this
        seat the message line says why and the serving follows. Without a running event loop
        (no screen runs yet) it follows at once."""
        if serve_due(snap) is None or turn_key(snap) == self.done:
            return
        key = self.done = turn_key(snap)
        controller.say(skip_notice(snap))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.serve(controller, key)
            return
        self.close()
        self.timer = loop.call_later(SKIP_PAUSE_S, self.fire, controller, key)

    def fire(self, controller: Any, key: tuple[int, int]) -> None:
        """The notice has shown: serve, or wait again while the table is covered."""
        self.timer = None
        if controller.hold() or controller.picker is not None:  # a panel, a dialog or a list
            self.timer = asyncio.get_running_loop().call_later(
                SKIP_PAUSE_S, self.fire, controller, key)
            return
        self.serve(controller, key)

    def serve(self, controller: Any, key: tuple[int, int]) -> None:
        """Send the serving of the skipped turn ``key``, if it is still due; the message line
        keeps the notice while the next player acts."""
        snap = controller.session.snapshot()
        action = serve_due(snap)
        if action is None or turn_key(snap) != key:
            return  # served by a key meanwhile, the game over, another turn
        text = skip_notice(snap)
        if controller.submit(action):
            controller.say(text)

    def close(self) -> None:
        """Forget the serving waiting (the screen closes, a new skipped turn replaces it)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
