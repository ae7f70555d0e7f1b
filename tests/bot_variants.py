"""Variants of the Level 8 ``normal`` bot, each one change to one decision, for paired
measurement against ``normal`` (issue 26, eighth round; ``docs/benchmarks.md``, "Level 8
``normal``: one decision changed at a time").

Each is a :class:`PlannerBot` with one method overridden; ``python -m tests.bot_paired --game
level8-master --seats variant:NAME,normal,normal,normal --control normal`` plays it in the
paired games (``variant:NAME`` is resolved by :func:`make`). None is a shipped level: they
measure how much a decision is worth (the ablations ``*never``) and whether a plausible
change to it gains (the rest).

- ``keepnever``, ``swapnever``, ``takenever``: a seat that is not down never plays that
  special card (it discards it as ``normal`` ranks its discards);
- ``keepalways``: plays "I'll keep that!" as soon as it holds one (``normal``: only while it
  lacks two cards or more, or another seat is down, ruling L8-13);
- ``keepothersdown``: plays it only once another seat is down; ``keep3``: only while it lacks
  three cards or more, or another seat is down; ``keephold1``, ``keephold2``: never while it
  lacks at most 1 (or 2) cards, another seat down or not (issue 26: a keep played one card
  short was void when the seat laid down at its next turn); ``keephold1soon``: as
  ``keephold1`` unless a seat that is down holds two cards or fewer;
- ``outsfirst``: discards rank the plan's outs before feeding; ``valuefirst``: the reference
  count before the outs;
- ``drawspecial``: a seat not down draws "I'll swap that!" from a discard pile when two of its
  number cards are spare, "I'll keep that!" when another seat is down and it lacks two cards
  or more, "I'll take that!" when it lacks one or more (``normal`` draws number cards and jokers
  only), and plays it; ``drawswap``, ``drawkeep``: only that card;
- ``deny1``, ``deny9``: while another seat is down, a discard that fits a meld on the table
  counts as 1 (or 9) more cards of distance;
- ``holdswap1``, ``holdswap2``: "I'll swap that!" is held, not played, while the seat lacks at
  most 1 (or 2) cards, to be played once it is down;
- ``laylate1``, ``laylate2``: a seat below level 8 holds a lay-down while no other seat is
  down, unless it would leave at most 1 (or 2) cards that no meld takes (1: it goes out on that
  turn); ``normal`` lays down at once;
- ``showfeed``: a seat not down that shows cards for "I'll take that!" shows, among the cards
  its plan needs least, those that feed the others least (``feeding``: a card that fits a meld
  of a seat that is down last); ``normal`` breaks that tie by the card's value only;
- ``swapsafe``: a seat not down puts no special card in "I'll swap that!", and among its spare
  number cards puts those that feed the others least first;
- ``layouts``: among lay-downs that leave as many cards able to be added, the one whose melds
  take the most unseen cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lancards.engine.core import Rng, Seat
from lancards.engine.level8.actions import (
    Action,
    Discard,
    DrawDiscard,
    LayDown,
    PlaySpecial,
    Show,
    SwapEnd,
    SwapPut,
)
from lancards.engine.level8.cards import Card, Kind
from lancards.engine.level8.planner_bot import (
    PlannerBot,
    _fits,
    feeding,
    melds_after,
    unseen,
)
from lancards.engine.level8.state import Level8State

Need = dict[Card, tuple[int, int, int]]


def _others_down(view: Level8State, seat: Seat) -> bool:
    return any(view.down[s] for s in view.present() if s != seat)


def _special(action: Action, kinds: frozenset[Kind]) -> bool:
    return isinstance(action, PlaySpecial) and action.card.card.kind in kinds


def _never(kind: Kind) -> type[PlannerBot]:
    class Never(PlannerBot):
        def _end_up(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                    hand: list[Card]) -> Action:
            return super()._end_up(view, seat,
                                   [a for a in legal if not _special(a, frozenset({kind}))], hand)
    return Never


def _ranked(key: Callable[[Level8State, Seat, Card, tuple[int, int, int]], tuple[int, ...]]
            ) -> type[PlannerBot]:
    class Ranked(PlannerBot):
        def _rank_up(self, view: Level8State, seat: Seat, discards: list[Discard], need: Need,
                     others_down: bool) -> list[Discard]:
            held = [a for a in discards if not (not others_down and a.card.card.kind is Kind.KEEP)]
            return sorted(held or discards,
                          key=lambda a: key(view, seat, a.card.card, need[a.card.card]))
    return Ranked


def _deny(weight: int) -> type[PlannerBot]:
    def key(view: Level8State, seat: Seat, card: Card,
            need: tuple[int, int, int]) -> tuple[int, ...]:
        dist, outs, value = need
        extra = weight if _others_down(view, seat) and _fits(view.melds, card) else 0
        return (dist + extra, dist, feeding(view, seat, card), outs, value)
    return _ranked(key)


def _keep_when(lacking: int, others: bool, near: int = 0, soon: int = -1) -> type[PlannerBot]:
    """Plays a held "I'll keep that!" when the seat lacks ``lacking`` cards or more, or (when
    ``others``) another seat is down, but never while it lacks ``near`` cards or fewer unless
    a seat that is down holds ``soon`` cards or fewer (the round may end before its next
    turn); else holds it (as ``normal`` does)."""
    class KeepWhen(PlannerBot):
        def _end_up(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                    hand: list[Card]) -> Action:
            keeps = [a for a in legal if _special(a, frozenset({Kind.KEEP}))]
            if not keeps or len(hand) <= 1:
                return super()._end_up(view, seat, legal, hand)
            rest = [a for a in legal if a not in keeps]
            if any(_special(a, frozenset({Kind.TAKE, Kind.SWAP})) for a in rest):
                return super()._end_up(view, seat, rest, hand)
            now = self._dist(view, seat, hand)
            ending = any(view.down[s] and len(view.hands[s]) <= soon
                         for s in view.present() if s != seat)
            if (now > near or ending) and (now >= lacking
                                           or (others and _others_down(view, seat))):
                return keeps[0]
            discards = [a for a in rest if isinstance(a, Discard)
                        and a.card.card.kind is not Kind.KEEP]
            return self._rank_up(view, seat, discards, self._need(view, seat, hand),
                                 _others_down(view, seat))[0]
    return KeepWhen


def _hold_swap(lacking: int) -> type[PlannerBot]:
    class HoldSwap(PlannerBot):
        def _end_up(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                    hand: list[Card]) -> Action:
            swap = frozenset({Kind.SWAP})
            if self._dist(view, seat, hand) > lacking or not any(_special(a, swap)
                                                                 for a in legal):
                return super()._end_up(view, seat, legal, hand)
            kept = [a for a in legal if not _special(a, swap) and not (
                isinstance(a, Discard) and a.card.card.kind is Kind.SWAP)]
            return super()._end_up(view, seat, kept, hand)
    return HoldSwap


def _draw_special(kinds: frozenset[Kind]) -> type[PlannerBot]:
    return type(f"DrawSpecial{len(kinds)}", (DrawSpecial,), {"kinds": kinds})


class DrawSpecial(PlannerBot):
    """``drawspecial`` (module docstring); ``kinds`` the special cards it draws."""

    kinds = frozenset({Kind.SWAP, Kind.KEEP, Kind.TAKE})

    def _draw(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        if not view.down[seat] and len(hand) > 1:
            now = self._dist(view, seat, hand)
            need = self._need(view, seat, hand)
            spare = [c for c in hand if c.is_number and need[c][0] <= now]
            for a in legal:
                if not isinstance(a, DrawDiscard) or a.owner == seat:
                    continue
                card = view.cards[view.discards[a.owner][-1]]
                if card.kind not in self.kinds:
                    continue
                if ((card.kind is Kind.SWAP and len(spare) >= 2 and now >= 1)
                        or (card.kind is Kind.KEEP and _others_down(view, seat) and now >= 2)
                        or (card.kind is Kind.TAKE and now >= 1)):
                    return a
        return super()._draw(view, seat, legal, hand)


class Layouts(PlannerBot):
    """``layouts`` (module docstring)."""

    def _laydown_score(self, view: Level8State, seat: Seat,
                       action: LayDown) -> tuple[int, int, int]:  # type: ignore[override]
        fit, jokers = super()._laydown_score(view, seat, action)
        melds = melds_after(view, seat, action)
        takes = sum(k for c, k in unseen(view).items() if _fits(melds, c))
        return (fit, takes, jokers)


def _lay_late(leftover: int) -> type[PlannerBot]:
    """Holds a lay-down that would leave more than ``leftover`` cards no meld takes, while no
    other seat is down and the seat is below level 8 (laying level 8 wins, ruling L8-11)."""
    class LayLate(PlannerBot):
        def _play(self, view: Level8State, seat: Seat, legal: Sequence[Action],
                  hand: list[Card]) -> Action:
            laydowns = [a for a in legal if isinstance(a, LayDown)]
            if (not laydowns or view.levels[seat] >= 8 or _others_down(view, seat)
                    or self._left_after(view, seat, max(
                        laydowns, key=lambda a: self._laydown_score(view, seat, a))) <= leftover):
                return super()._play(view, seat, legal, hand)
            return super()._play(view, seat, [a for a in legal if a not in laydowns], hand)

        def _left_after(self, view: Level8State, seat: Seat, action: LayDown) -> int:
            fit, _ = PlannerBot._laydown_score(self, view, seat, action)
            used = sum(len(g) for g in action.groups)
            return len([c for c in view.hand_cards(seat) if c[1] is not None]) - used - fit
    return LayLate


class ShowFeed(PlannerBot):
    """``showfeed`` (module docstring)."""

    def _show(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        if view.down[seat]:
            return super()._show(view, seat, legal, hand)
        shows = [a for a in legal if isinstance(a, Show)]
        need = self._need(view, seat, hand)
        now = self._dist(view, seat, hand)

        def worth(c: Card) -> tuple[int, int, int]:
            return (need[c][0] - now, feeding(view, seat, c), need[c][2])

        return min(shows, key=lambda a: sorted((worth(p.card) for p in a.cards), reverse=True))


class SwapSafe(PlannerBot):
    """``swapsafe`` (module docstring)."""

    def _swap(self, view: Level8State, seat: Seat, legal: Sequence[Action],
              hand: list[Card]) -> Action:
        if view.down[seat]:
            return super()._swap(view, seat, legal, hand)
        end = next(a for a in legal if isinstance(a, SwapEnd))
        puts = [a for a in legal if isinstance(a, SwapPut) and a.card.card.is_number]
        if not puts or len(hand) <= 1:
            return end
        need = self._need(view, seat, hand)
        now = self._dist(view, seat, hand)
        spare = [a for a in puts if need[a.card.card][0] <= now]
        if not spare:
            return end
        return min(spare, key=lambda a: (feeding(view, seat, a.card.card),
                                         *need[a.card.card][1:]))


VARIANTS: dict[str, type[PlannerBot]] = {
    "keepnever": _never(Kind.KEEP),
    "swapnever": _never(Kind.SWAP),
    "takenever": _never(Kind.TAKE),
    "keepalways": _keep_when(0, True),
    "keepothersdown": _keep_when(99, True),
    "keep3": _keep_when(3, True),
    "keephold1": _keep_when(2, True, near=1),
    "keephold2": _keep_when(2, True, near=2),
    "keephold1soon": _keep_when(2, True, near=1, soon=2),
    "outsfirst": _ranked(lambda view, seat, card, need: (
        need[0], need[1], feeding(view, seat, card), need[2])),
    "valuefirst": _ranked(lambda view, seat, card, need: (
        need[0], feeding(view, seat, card), need[2], need[1])),
    "drawspecial": DrawSpecial,
    "drawswap": _draw_special(frozenset({Kind.SWAP})),
    "drawkeep": _draw_special(frozenset({Kind.KEEP})),
    "deny1": _deny(1),
    "deny9": _deny(9),
    "holdswap1": _hold_swap(1),
    "holdswap2": _hold_swap(2),
    "layouts": Layouts,
    "laylate1": _lay_late(1),
    "laylate2": _lay_late(2),
    "showfeed": ShowFeed,
    "swapsafe": SwapSafe,
}
"""The variants by name (module docstring)."""


def make(name: str, rng: Rng) -> PlannerBot:
    """The variant ``name`` (``variant:NAME`` in ``bot_paired --seats``) with its own ``rng``.

    Raises:
        KeyError: no such variant (the message lists the names).
    """
    if name not in VARIANTS:
        raise KeyError(f"no variant {name!r}; choose one of {', '.join(VARIANTS)}")
    return VARIANTS[name](rng)
