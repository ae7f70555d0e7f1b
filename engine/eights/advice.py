"""Why an 8s Rule! play is good, in the terms of the bots' own counting (the hint).

:func:`explain` takes a play a bot chose from a seat's view (``docs/bots.md``) and returns a
:class:`Reason`: what kind of play it is and the numbers behind it, from the card counting of
:mod:`lancards.engine.eights.planner_bot` (the chance that the card takes the current trick
when the others duck, rulings E-3 and E-4; the round's objective, E-6; the layout, E-7) and,
when ``hard``'s search left ``normal``'s choice, the search's own result
(:class:`lancards.engine.eights.search_bot.SearchNote`). No words: the terminal client says a
reason in plain words (``cli/tui/hint.py``).

Pure: it reads only the view it is given (the seat's own), never another seat's hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from lancards.engine.core import Seat

from .actions import EightsAction, Play
from .cards import EIGHT, NUMBERS
from .objectives import Objective, ObjectiveKind
from .planner_bot import count_cards, wants_tricks, win_chance
from .search_bot import SearchNote
from .state import EightsState, Phase


class Why(Enum):
    """The kind of reason a play has."""

    ONLY = "only"
    """The only legal move (a pass in round 8 included)."""
    CANNOT_WIN = "cannot-win"
    """Tricks to avoid: the card cannot take this trick."""
    UNLIKELY = "unlikely"
    """Tricks to avoid: the card takes this trick only with the chance ``win``."""
    FORCED = "forced"
    """Tricks to avoid: every card that may be played takes this trick."""
    TAKE_CHEAP = "take-cheap"
    """Tricks to avoid: taking this trick costs less than keeping the card for later."""
    SURE = "sure"
    """Tricks wanted: the card surely takes this trick."""
    MAY_WIN = "may-win"
    """Tricks wanted: the card may take this trick (chance ``win``)."""
    SAVE = "save"
    """Tricks wanted: no card can take this trick; this one is least likely to win later."""
    LAYOUT = "layout"
    """Round 8: the card frees ``frees`` of the seat's own cards."""
    SEARCH = "search"
    """``hard``'s search: in ``deals`` imagined deals the card did ``gain`` points better
    than ``instead`` (``normal``'s choice)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an 8s Rule! play, from the bots' counting.

    Attributes:
        why: the kind of reason.
        win: the chance, 0..1, that the card takes the current trick if the others duck.
        points: the card's points in this round's objective (its own, not the trick's).
        frees: round 8: own cards the card lets be laid later.
        deals: the search's imagined deals (:attr:`Why.SEARCH`), else 0.
        gain: the search's mean gain in points over ``instead`` (:attr:`Why.SEARCH`).
        instead: the card ``normal`` would have played (:attr:`Why.SEARCH`), else None.
        stake: the points the current trick gives its taker by the round's objective once the
            card is in it (the cards in it so far and this one, or the trick's own points; 0
            in the layout): positive costs, negative is wanted.
    """

    why: Why
    win: float = 0.0
    points: int = 0
    frees: int = 0
    deals: int = 0
    gain: float = 0.0
    instead: Play | None = None
    stake: int = 0


def trick_stake(objective: Objective, trick: Sequence[int], card: int, hand: int) -> int:
    """The points a trick holding the cards ``trick`` and ``card`` gives its taker by
    ``objective`` (ruling E-6), ``hand`` the cards the player holds before playing (the trick
    is the ``hand``-th from the round's end)."""
    if objective.kind is ObjectiveKind.TRICKS:
        return objective.per_trick
    if objective.kind is ObjectiveKind.LAST_TRICKS:
        last = objective.last_tricks
        return last[-hand] if 0 < hand <= len(last) else 0
    values = objective.card_points or (0,) * (4 * NUMBERS)
    return sum(values[c] for c in (*trick, card))


def explain(view: EightsState, seat: Seat, legal: Sequence[EightsAction],
            action: EightsAction, note: Any = None) -> Reason:
    """The :class:`Reason` for ``action`` (one of ``legal``) of ``seat`` in ``view`` (the
    seat's view); ``note`` is the :class:`SearchNote` of ``hard``'s decision, if any."""
    plays = [a for a in legal if isinstance(a, Play)]
    if len(legal) == 1 or not isinstance(action, Play):
        return Reason(Why.ONLY)
    counts = count_cards(view, seat)
    card = action.card.index
    if view.phase is Phase.LAYOUT:
        suit, number = divmod(card, NUMBERS)
        own = [c % NUMBERS + 1 for c in counts.hand if c // NUMBERS == suit and c != card]
        number += 1
        if number == EIGHT:
            frees = len(own)
        elif number > EIGHT:
            frees = sum(1 for m in own if m > number)
        else:
            frees = sum(1 for m in own if m < number)
        return Reason(Why.LAYOUT, frees=frees)
    objective = view.rules.objectives.rounds[view.round - 1]
    values = objective.card_points or (0,) * (4 * NUMBERS)
    win = win_chance(view, seat, counts, action)
    points = values[card]
    stake = trick_stake(objective, [t.card for t in view.trick], card, len(counts.hand))
    if isinstance(note, SearchNote) and note.gain > 0:
        return Reason(Why.SEARCH, win, points, deals=note.deals, gain=note.gain,
                      instead=note.instead, stake=stake)
    if wants_tricks(objective):
        why = Why.SURE if win >= 1.0 else Why.MAY_WIN if win > 0.0 else Why.SAVE
    elif win <= 0.0:
        why = Why.CANNOT_WIN
    elif win < 1.0:
        why = Why.UNLIKELY
    elif all(win_chance(view, seat, counts, p) >= 1.0 for p in plays):
        why = Why.FORCED
    else:
        why = Why.TAKE_CHEAP
    return Reason(why, win, points, stake=stake)


__all__ = ["Reason", "Why", "explain", "trick_stake"]
