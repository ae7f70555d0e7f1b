"""The greedy Level 8 bot: lays down as soon as it can, adds what fits, discards the least
useful card, and plays special cards where they help. It sees only its own view and chooses
only among the legal actions it is given; it is deterministic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lancards.engine.core import Seat
from lancards.engine.level8.actions import (
    Action,
    Add,
    Choose,
    Discard,
    DrawDiscard,
    Keep,
    LayDown,
    PlaySpecial,
    Show,
    SwapPut,
)
from lancards.engine.level8.cards import Card, Kind
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.melds import add_options
from lancards.engine.level8.state import Level8State, Phase


class HandStats:
    """Counts of a hand's number cards, computed once per decision."""

    def __init__(self, hand: Sequence[Card]) -> None:
        numbers = [c for c in hand if c.is_number]
        self.by_number = Counter(c.number for c in numbers)
        self.by_colour = Counter(c.colour for c in numbers)
        self.pairs = Counter((c.colour, c.number) for c in numbers)


def card_value(view: Level8State, seat: Seat, card: Card, stats: HandStats,
               in_hand: bool = True) -> int:
    """How much ``card`` helps ``seat`` now (higher = keep it). Jokers are worth most.

    ``stats`` describe the hand; ``in_hand`` says whether ``card`` is counted in them.
    """
    if card.is_joker:
        return 20
    if card.is_special:
        return 1 if view.down[seat] else 4
    if view.down[seat]:
        fits = any(add_options(m, -1, card) for m in view.melds)
        return 8 if fits else 0
    own = 1 if in_hand else 0
    best = 0
    for component in view.level(seat):
        kind = component.kind
        if kind is ComponentKind.SET:
            same = stats.by_number[card.number] - own
            score = 3 * min(same, component.size - 1) + 1
        elif kind is ComponentKind.COLOUR_GROUP:
            score = 2 * (stats.by_colour[card.colour] - own)
        else:
            n = card.number
            if kind is ComponentKind.RUN:
                near = sum(1 for d in (-2, -1, 1, 2) if stats.by_number[n + d])
            else:
                near = sum(1 for d in (-2, -1, 1, 2) if stats.pairs[(card.colour, n + d)])
            score = 2 * near + 1
        best = max(best, score)
    return best


class GreedyBot:
    """A deterministic greedy strategy for both Level 8 editions."""

    def choose(self, view: Level8State, seat: Seat, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty)."""
        if len(legal) == 1:
            return legal[0]
        hand = [c for _, c in view.hand_cards(seat) if c is not None]
        stats = HandStats(hand)
        value = {c: card_value(view, seat, c, stats) for c in set(hand)}
        phase = view.phase
        if phase is Phase.DRAW:
            return self._draw(view, seat, legal, value, stats)
        if phase is Phase.PLAY:
            return self._play(view, seat, legal, value)
        if phase is Phase.SHOW:
            shows = [a for a in legal if isinstance(a, Show)]
            return min(shows, key=lambda a: sum(value.get(p.card, 0) for p in a.cards))
        if phase is Phase.CHOOSE:
            picks = [a for a in legal if isinstance(a, Choose) and a.slot is not None]
            if picks:
                def worth(a: Choose) -> int:
                    card = view.cards.get(a.slot) if a.slot is not None else None
                    return card_value(view, seat, card, stats, False) if card else -1
                best = max(picks, key=worth)
                if worth(best) > 0:
                    return best
            return next(a for a in legal if isinstance(a, Choose) and a.slot is None)
        if phase is Phase.SWAP:
            puts = [a for a in legal if isinstance(a, SwapPut)]
            if puts and len(hand) > 1:
                worst = min(puts, key=lambda a: (value.get(a.card.card, 0), -a.card.card.number))
                if value.get(worst.card.card, 0) <= 2:
                    return worst
            return legal[-1]
        if phase is Phase.KEEP:
            keeps = [a for a in legal if isinstance(a, Keep)]
            if keeps:
                return max(keeps, key=lambda a: value.get(view.cards[a.slot], 0))
            return legal[-1]
        return legal[0]

    def _draw(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              value: dict[Card, int], stats: HandStats) -> Action:
        best: Action = legal[0]
        worst_in_hand = min(value.values(), default=0)
        best_value = max(5, worst_in_hand + 2)
        for action in legal:
            if isinstance(action, DrawDiscard) and action.owner != seat:
                top = view.cards[view.discards[action.owner][-1]]
                if top.is_special:
                    continue
                v = card_value(view, seat, top, stats, False)
                if v > best_value:
                    best, best_value = action, v
        return best

    def _play(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              value: dict[Card, int]) -> Action:
        laydowns = [a for a in legal if isinstance(a, LayDown)]
        if laydowns:
            return laydowns[0]
        adds = [a for a in legal if isinstance(a, Add)]
        if adds:
            return min(adds, key=lambda a: a.card.card.is_joker)
        hand_size = len(view.hands[seat])
        specials = [a for a in legal if isinstance(a, PlaySpecial)]
        if hand_size > 1 and not view.down[seat]:
            for kind in (Kind.TAKE, Kind.KEEP, Kind.SWAP):
                for a in specials:
                    if a.card.card.kind is kind:
                        return a
        skips = [a for a in specials if a.card.card.kind is Kind.SKIP]
        if skips and hand_size > 1:
            return max(skips, key=lambda a: (view.levels[a.target or 0], view.down[a.target or 0]))
        discards = [a for a in legal if isinstance(a, Discard)]
        return min(discards, key=lambda a: (value.get(a.card.card, 0), -a.card.card.number))
