"""Test helpers over :mod:`lancards.engine.level8.builder` (the shipped position builder).

``build(...)`` and ``act(state, "0: laydown R4 R5 J1-5=6 | ...")`` live in the package; this
module keeps the names the tests import, plus small lookups.
"""

from __future__ import annotations

from lancards.engine.level8.actions import Action
from lancards.engine.level8.builder import G, act, build
from lancards.engine.level8.cards import parse_card
from lancards.engine.level8.state import Level8State

__all__ = ["G", "act", "build", "hand_text", "resolve", "slot_of"]


def resolve(state: Level8State, text: str) -> Action:
    """Parse ``text`` in ``state``, filling in ``#SLOT`` for cards written without one."""
    return G.read_action(state, text)


def slot_of(state: Level8State, face: str, seat: int | None = None) -> int:
    """The lowest slot holding ``face`` (in ``seat``'s hand when given)."""
    card = parse_card(face)
    pool = state.hands[seat] if seat is not None else sorted(state.cards)
    return next(s for s in pool if state.cards.get(s) is card)


def hand_text(state: Level8State, seat: int) -> list[str]:
    """``seat``'s hand as sorted card texts."""
    return sorted(str(state.cards[s]) for s in state.hands[seat])
