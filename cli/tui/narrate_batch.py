"""Moves that reached a networked log together, each told from the view just before it.

A networked log is told when the screen asks (``NetworkSession._update_log``), from the last
view it was told at to the peer's view now; several moves often arrive in between. Told without
the view before each move, :func:`~lancards.cli.tui.narrate.narrate` cannot see a trick taken
("Ada takes trick 3: ..."), a round scored in place, a lead, a Level 8 going out ("Ada went out:
round 2 is over") or the winner: the log of a batch told the plays and lost those lines, which
the local game (``--local``) tells. :class:`Replay` replays the batch's moves with the engine
from the last told view (the engine is pure and takes this seat's knowledge as it is), so each
move has its own view before and after; the last move's after is the peer's view now, as a
batch of one always had.

Chance between two moves (a new round's shuffle and deal, Level 8's reshuffle, L8-9) is replayed
when nobody's secret is needed (``Shuffle(None)``; a card turned face up that the view now
shows). When the replay cannot follow (a cut, an 8s Rule! round-end audit, a removal), the
rest of the batch is told without a view before, as before: the plays, and the rounds scored
since at the end (:func:`~lancards.cli.tui.narrate.scored_lines` from :attr:`Replay.told`).
"""

from __future__ import annotations

from typing import Any

from lancards.engine.core import CHANCE, Leave, Reveal, RevealRequest, Shuffle, ShuffleRequest

__all__ = ["Replay"]


class Replay:
    """The views before and after each move of one batch, in record order.

    Args:
        game: the table's :class:`~lancards.engine.core.Game`.
        last: this seat's view when the log was last told (``None``: unknown).
        now: this seat's view now, after the whole batch.
        moves: how many moves (actions, leaves, removals) the batch holds.
    """

    def __init__(self, game: Any, last: Any, now: Any, moves: int) -> None:
        self.game, self.now, self.left = game, now, moves
        self.state = last
        self.told = last
        """The latest view up to which the moves were told with a view before (8s Rule!'s
        "round N scored" lines with them); the batch's end tells the rounds scored after it."""

    def views(self, action: Any) -> tuple[Any, Any]:
        """``(before, after)`` for the batch's next move ``action``; ``before`` is ``None``
        once the replay could not follow, and the last move's ``after`` is the view now."""
        before = self.state
        self.left -= 1
        after = self.now if self.left <= 0 else self._apply(action)
        self.state = after
        if before is None or after is None:
            self.state = None
            return None, self.now
        if not isinstance(action, Leave):  # a leave is told without its rounds
            self.told = after
        return before, after

    def lost(self) -> None:
        """The batch's next move is one the engine does not replay here (a removal by vote):
        the rest of the batch is told without views."""
        self.left -= 1
        self.state = None

    def _apply(self, action: Any) -> Any:
        game, state = self.game, self.state
        if state is None:
            return None
        try:
            while game.to_act(state) == CHANCE and not isinstance(action, Leave):
                request = game.chance_request(state)
                if isinstance(request, ShuffleRequest):
                    state = game.apply(state, Shuffle(None))
                    continue
                card = game.identity(self.now, request.slot) \
                    if isinstance(request, RevealRequest) else None
                if card is None:
                    return None  # a cut, an audit, a card no longer shown: not replayed
                state = game.apply(state, Reveal(request.slot, card))
            return game.apply(state, action)
        except Exception:  # EngineError, or a view the engine cannot step: told without views
            return None
