"""Bots at a peer's seat: the one bot driver (:func:`drive_bot`, asyncio, woken by the
table's own changes) and its in-memory form (:func:`bot_moves`), the seat's bot
(:func:`game_bot`) and when it is to move (:func:`my_turn`). Moved out of
:mod:`lancards.p2p.net.node`, which re-exports them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from lancards.engine.core import EngineError
from lancards.engine.rulesets import REFERENCE_BOT_LEVEL, make_bot
from lancards.p2p.net.store import StorageError
from lancards.p2p.protocol.core import GameCore, Output
from lancards.p2p.protocol.errors import LocalProtocolError

Chooser = Callable[[Sequence[Any]], Any]
"""A bot's decision: one of the legal actions it is given (never an empty list)."""


def my_turn(core: GameCore) -> Sequence[Any]:
    """``core``'s seat's legal actions when it is to move, knows its hand, has no move of its
    own still in flight (:attr:`GameCore.pending_action`) and is not catching up after a sleep
    (:attr:`GameCore.syncing`); else an empty list."""
    if core.pending_action is not None or core.syncing:
        return []
    return core.legal_actions()


def game_bot(core: GameCore, level: str = REFERENCE_BOT_LEVEL) -> Chooser:
    """A bot of ``level`` (``docs/bots.md``; default the deterministic reference ``greedy``,
    which the pinned seeded records are played by) choosing for ``core``'s seat from the seat's
    own view (:attr:`GameCore.state`, this peer's engine: it knows nothing another seat hides).
    Its randomness is its own ``random.Random``, seeded from the seat's public key and the table
    id (never the deck's).

    Raises:
        RulesError: the game offers no such level.
    """
    rng = random.Random(bytes(core.me.public_key) + core.table_id.encode())
    bot = make_bot(core.game, level, rng)
    return lambda legal: bot.choose(core.state, core.seat, legal)


def bot_moves(core: GameCore, choose: Chooser) -> list[Output]:
    """The turns of :func:`drive_bot` without asyncio, for tables simulated in memory: while
    ``core``'s seat is to move (:func:`my_turn`), play ``choose(legal)``. Returns the core's
    outputs in order (empty when it is not this seat's move).

    Raises:
        EngineError, LocalProtocolError: ``choose`` returned an action the core refuses.
    """
    outputs: list[Output] = []
    while legal := my_turn(core):
        outputs += core.submit(choose(legal))
    return outputs


class Turns(Protocol):
    """A seat :func:`drive_bot` can play: :class:`PeerNode`, or a bot seat of a local table."""

    def turn(self) -> Sequence[Any]:
        """The seat's legal actions if it is to move now, else an empty list (never waits)."""

    async def next_turn(self) -> Sequence[Any]:
        """Wait until the seat is to move and return its legal actions; an empty list once
        the game is over or the table stopped."""

    async def next_change(self) -> None:
        """Wait for the table's next change."""

    def submit(self, action: Any) -> None:
        """Play ``action`` for the seat (raises ``EngineError`` or ``LocalProtocolError``)."""


async def drive_bot(
    seat: Turns,
    choose: Chooser,
    *,
    delay: float | Callable[[], float] = 0.0,
    act: Callable[[Any], None] | None = None,
) -> None:
    """Play ``seat`` (a :class:`PeerNode`, or any :class:`Turns`) with a bot until the game
    ends or the table stops: at each move to make (:meth:`Turns.next_turn`) wait ``delay``
    seconds (a person's pace at their table; 0 for none; a callable is asked before each move,
    so a table can pace per turn, :mod:`lancards.cli.pacing`), ask ``choose(legal)`` for a move
    and play it with ``act`` (default :meth:`Turns.submit`). A move refused (the state moved on
    meanwhile) is dropped; the next turn asks again. A seat paused by a storage fault ends the
    bot (the node's :meth:`PeerNode.run` raises the fault)."""
    play = seat.submit if act is None else act
    while True:
        legal = await seat.next_turn()
        if not legal:
            return
        wait = delay() if callable(delay) else delay
        if wait > 0:
            await asyncio.sleep(wait)
            legal = seat.turn()
            if not legal:
                continue
        try:
            play(choose(legal))
        except StorageError:
            return
        except (EngineError, LocalProtocolError):
            await seat.next_change()  # refused: wait for the state to move before asking again


__all__ = ["Chooser", "Turns", "bot_moves", "drive_bot", "game_bot", "my_turn"]
