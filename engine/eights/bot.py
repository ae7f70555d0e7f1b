"""The standard 8s Rule! bot: a deterministic heuristic that sees only its seat's view.

Per round it picks a plan from the objective (ruling E-6):

- *duck* (avoid tricks, or avoid cards worth points, or the last tricks of a "last-tricks"
  round): lead low; follow with the highest card that does not win; declare "no take" with the
  8 of the led suit (a "no take" 8 never wins when it follows, ruling E-4); when void, throw away
  the card worth most points, else the highest card.
- *win* (tricks or cards wanted): lead an 8 with "take" (it always wins, ruling E-4), else the
  highest card; follow with the 8 and "take", else the cheapest winning card when last.
- *shed* (early tricks of a "last-tricks" round): play high cards while tricks are harmless.
- round 8 (ruling E-7): play the card that frees most of its own cards behind it; when none
  does, the card that opens least for the others (1s and 15s first, 8s last).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from lancards.engine.core import Seat

from .actions import EightsAction, Play, format_action, parse_action
from .cards import DECK_SIZE, EIGHT, NUMBERS
from .objectives import ObjectiveKind
from .play import TrickPlay, trick_winner
from .state import EightsState, Phase

Plan = Literal["duck", "win", "shed"]


class EightsBot:
    """Chooses among the legal actions from its view only (never the other hands)."""

    def choose(self, view: EightsState, seat: Seat, legal: Sequence[EightsAction]) -> EightsAction:
        """One of ``legal`` (never empty) for ``seat`` in ``view``."""
        if len(legal) == 1:
            return legal[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        if view.phase is Phase.LAYOUT:
            return _choose_layout(view, seat, plays)
        return _choose_trick(view, seat, plays)

    def parse_action(self, text: str) -> EightsAction:
        """Parse action notation. Raises ``InvalidActionError``."""
        return parse_action(text)

    def format_action(self, action: EightsAction) -> str:
        """Format an action as notation."""
        return format_action(action)


def _plan(view: EightsState) -> tuple[Plan, list[int]]:
    """The plan for this trick and the points each card index is worth to the taker."""
    objective = view.rules.objectives.rounds[view.round - 1]
    values = list(objective.card_points) or [0] * DECK_SIZE
    if objective.kind is ObjectiveKind.TRICKS:
        per_trick = objective.per_trick
        return ("duck" if per_trick > 0 else "win" if per_trick < 0 else "shed"), values
    if objective.kind is ObjectiveKind.CARDS:
        return ("win" if sum(values) < 0 else "duck"), values
    total = DECK_SIZE // (view.n - len(view.left))
    trick_number = len(view.trick_winners) + 1
    late = trick_number > total - len(objective.last_tricks)
    return ("duck" if late else "shed"), values


def _rank(play: Play) -> int:
    return play.card.number


def _choose_trick(view: EightsState, seat: Seat, plays: list[Play]) -> Play:
    plan, values = _plan(view)
    trick = view.trick

    def wins(play: Play) -> bool:
        after = (*trick, TrickPlay(seat, play.slot, play.card.index, play.take))
        return trick_winner(after) == seat

    if not trick:
        return _lead(view, plan, values, plays)
    led = trick[0].card // NUMBERS
    following = plays[0].card.suit == led
    last = len(trick) == view.n - len(view.left) - 1
    at_stake = sum(values[p.card] for p in trick)
    if not following:  # void: discard
        if plan == "win":
            return min(plays, key=lambda p: (values[p.card.index], p.card.number))
        return max(plays, key=lambda p: (values[p.card.index], p.card.number))
    if plan == "win":
        takers = [p for p in plays if p.take]
        if takers:
            return takers[0]
        winning = [p for p in plays if wins(p)]
        if winning:
            return min(winning, key=_rank) if last else max(winning, key=_rank)
        return min(plays, key=_rank)
    if plan == "shed":
        ordinary = [p for p in plays if p.take is None]
        return max(ordinary, key=_rank) if ordinary else plays[0]
    # duck
    if last and at_stake <= 0 and _round_kind(view) is ObjectiveKind.CARDS:
        # Last to play and nothing worth points in the trick: win it with a high card.
        harmless = [p for p in plays if p.take is not False and values[p.card.index] <= 0]
        if harmless:
            return max(harmless, key=_rank)
    losing = [p for p in plays if p.take is not True and not wins(p)]
    ordinary_losing = [p for p in losing if p.take is None]
    if ordinary_losing:
        return max(ordinary_losing, key=_rank)
    if losing:
        return losing[0]  # the 8 with "no take"
    return max(plays, key=_rank) if last else min(plays, key=_rank)


def _round_kind(view: EightsState) -> ObjectiveKind:
    return view.rules.objectives.rounds[view.round - 1].kind


def _lead(view: EightsState, plan: Plan, values: list[int], plays: list[Play]) -> Play:
    if plan == "win":
        takers = [p for p in plays if p.take]
        if takers:
            return takers[0]
        return max(plays, key=lambda p: (p.card.number, -values[p.card.index]))
    if plan == "shed":
        ordinary = [p for p in plays if p.take is None]
        return max(ordinary or plays, key=_rank)
    unseen = _unseen_by_suit(view)
    ordinary = [p for p in plays if p.take is None] or [p for p in plays if p.take is False]
    return min(
        ordinary,
        key=lambda p: (values[p.card.index] > 0, p.card.number, -unseen[p.card.suit]),
    )


def _unseen_by_suit(view: EightsState) -> list[int]:
    """Per suit, how many cards are neither in this seat's hand nor played this round."""
    seen = [0, 0, 0, 0]
    for card in view.ident:  # the view knows only its own hand and the public cards
        if card >= 0:
            seen[card // NUMBERS] += 1
    return [NUMBERS - count for count in seen]


def _choose_layout(view: EightsState, seat: Seat, plays: list[Play]) -> Play:
    base, ident = view.base, view.ident
    own = [ident[slot - base] for slot in view.hands[seat] if ident[slot - base] >= 0]

    def key(play: Play) -> tuple[int, int, int]:
        suit, number = play.card.suit, play.card.number
        mine = [c % NUMBERS + 1 for c in own if c // NUMBERS == suit]
        if number == EIGHT:
            behind = sum(1 for m in mine if m != EIGHT)
            opens = 2
        elif number > EIGHT:
            behind = sum(1 for m in mine if m > number)
            opens = 0 if number == NUMBERS else 1
        else:
            behind = sum(1 for m in mine if m < number)
            opens = 0 if number == 1 else 1
        return (behind, -opens, -play.card.index)

    return max(plays, key=key)
