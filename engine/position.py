"""Positions as text: one line-based notation for a whole game position, for every rule set.

As FEN is for chess and PBN for bridge deals, a *position* is a complete, readable text of a
state: the rule set and its options, the seats, whose turn and which phase, every card place
with its cards (or ``?`` for a card this state does not know), and who knows which card. A bug
report can be a position; a test can start from one. The notation of each game is documented in
``docs/engine.md``; the line grammar they share is :mod:`lancards.engine.position_text`. This
module sits above the games (it looks the rule set up in :mod:`lancards.engine.rulesets`) and
holds the two entry points, :func:`read_position` and :func:`write_position`.
"""

from __future__ import annotations

from typing import Any

from lancards.engine.core import Game, RulesError
from lancards.engine.position_text import HEADER, PositionError, game_name
from lancards.engine.rulesets import rule_set

__all__ = ["HEADER", "PositionError", "read_position", "write_position"]


def read_position(text: str) -> tuple[Game[Any, Any], Any]:
    """The engine and the state of a position text.

    Raises:
        PositionError: anything wrong with the text (the message names the line); an unknown
            rule set, option or option value is reported as a PositionError too.
    """
    name = game_name(text)
    try:
        spec = rule_set(name)
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None
    return spec.game, spec.game.read_position(text)


def write_position(game: Game[Any, Any], state: Any) -> str:
    """The position text of ``state`` (see the module docstring and ``docs/engine.md``)."""
    return game.write_position(state)
