"""Why a Level 8 move is good, in the terms of the ``normal`` bot's own measure (the hint).

:func:`explain` takes a move a bot chose from a seat's view (``docs/bots.md``) and returns a
:class:`Reason`: what kind of move it is and the numbers behind it, from the planning measure
of :mod:`lancards.engine.level8.plan` (how many cards the hand still lacks to lay its whole
level down, rulings L8-4 to L8-6, and which cards its best plan lacks) and
:func:`lancards.engine.level8.planner_bot.feeding` (how much a discard helps the other seats).
No words: the terminal client says a reason in plain words (``cli/tui/hint.py``).

Pure: it reads only the view it is given (the seat's own), never another seat's hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from lancards.engine.core import Seat
from lancards.engine.level8.actions import (
    Action,
    Add,
    Choose,
    Discard,
    Draw,
    DrawDiscard,
    Keep,
    LayDown,
    PlaySpecial,
    Show,
    SwapPut,
)
from lancards.engine.level8.cards import Card, Kind
from lancards.engine.level8.levels import Level
from lancards.engine.level8.melds import add_options
from lancards.engine.level8.plan import Hole, outs, plan
from lancards.engine.level8.planner_bot import feeding
from lancards.engine.level8.state import Level8State


class Why(Enum):
    """The kind of reason a move has."""

    ONLY = "only"
    """The only legal move."""
    DRAW_PILE = "draw-pile"
    """No discard-pile top brings the level closer (or, once down, fits a combination)."""
    TAKE_TOP = "take-top"
    """A discard-pile top that brings the level closer (``lacks_before`` > ``lacks``)."""
    TOP_FITS = "top-fits"
    """Down already: a discard-pile top that fits a combination on the table."""
    LAY_DOWN = "lay-down"
    """The whole level can be laid down now (ruling L8-7)."""
    ADD = "add"
    """Down already: a card that fits combination ``meld``."""
    DISCARD_SPARE = "discard-spare"
    """Not down: the best plan does not use the card (``lacks`` = ``lacks_before``)."""
    DISCARD_LEAST = "discard-least"
    """Not down: every card serves the plan; this one least (``lacks`` > ``lacks_before``)."""
    DISCARD_DEAD = "discard-dead"
    """Down already: the card fits no combination on the table."""
    DISCARD_DOWN = "discard-down"
    """Down already: every card fits somewhere; this one feeds the others least."""
    PLAY_TAKE = "play-take"
    """Play "I'll take that!" (ruling L8M-1): the others show cards, one may fill the plan."""
    PLAY_SWAP = "play-swap"
    """Play "I'll swap that!" (L8M-2): swap cards the plan does not use."""
    PLAY_KEEP = "play-keep"
    """Play "I'll keep that!" (L8M-3, L8-13): the round may end before this seat lays down."""
    PLAY_SKIP = "play-skip"
    """Skip ``target`` (L8C-1): the seat closest to going out."""
    SHOW = "show"
    """Show the cards the plan needs least (L8M-1)."""
    CHOOSE = "choose"
    """Take a shown card that brings the level closer (or fits a combination)."""
    CHOOSE_NONE = "choose-none"
    """No shown card helps."""
    SWAP_PUT = "swap-put"
    """Put down a card the plan does not use (L8M-2)."""
    KEEP = "keep"
    """Keep a card of the best plan for the next round (L8-13)."""
    END = "end"
    """End the swap, the keeping, a skipped or an empty-handed turn."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a Level 8 move, from the ``normal`` bot's measure.

    Attributes:
        why: the kind of reason.
        card: the card the move is about (discarded, drawn, added, played, kept), if any.
        lacks_before: cards the hand lacks to lay its level down before the move (-1: down).
        lacks: the same after the move (-1: down, or not measured).
        needs: the cards the best plan still lacks after the move, ``(hole, count)`` pairs
            (:data:`lancards.engine.level8.plan.Hole`: colour index or -1, number or 0).
        feeds: how much a discarded card may help the others (:func:`feeding`; 0: nobody).
        meld: the combination the card fits (the engine's meld id), if any.
        target: the seat skipped, or whose shown card is taken, if any.
        outs: see the attribute.
    """

    why: Why
    card: Card | None = None
    lacks_before: int = -1
    lacks: int = -1
    needs: tuple[tuple[Hole, int], ...] = ()
    feeds: int = 0
    meld: int | None = None
    target: Seat | None = None
    outs: tuple[Hole, ...] = ()
    """``lacks`` 1: every card one of which completes the level (:func:`plan.outs`), else
    ``()``."""
    spared: tuple[Card, ...] = ()
    """:attr:`Why.DISCARD_SPARE` and :attr:`Why.DISCARD_LEAST`: cards that :func:`feeding`
    says may help the others more than ``card`` and that the plan can do without all together
    (the same cards to go without them and ``card``), at most 3, by number (:func:`_spared`):
    why ``card`` goes and not, say, a lone G2 that a seat that is down could add (the new-user
    trial of 2026-12-07 read "discard O11: not in your plan" beside G2 and G14, and no word
    why)."""
    ahead: int = 0
    """:attr:`Why.PLAY_SKIP`: 1 when ``target`` is nearer to going out than every other seat a
    Skip may go to (down, then fewer cards), 0 when no such seat is nearer (a tie: the trial read
    "Ada is closest to going out" when three seats held 10 cards each and none was down), -1
    when one is."""
    highest: bool = False
    """:attr:`Why.PLAY_SKIP` on a tie (``ahead`` 0): ``target``'s level is as high as every
    other target's and above one seat's as near to going out, which decides the Skip
    (``normal`` weighs the level after being down and the cards: the new-user trial read
    "nobody is closer to going out than Ada" when five seats held 10 cards each, none was down,
    and three were on level 3)."""
    tied: tuple[Seat, ...] = ()
    """:attr:`highest`: the other seats a Skip may go to that are as near to going out as
    ``target`` and on its level, in the order they play after this seat, when ``target`` plays
    before them (``normal`` then skips the one that plays first: the new-user trial of issue 26
    read "Ada is on the highest level" while Bram was on it too); else ``()``."""


def _highest(view: Level8State, legal: Sequence[Action], target: Seat | None) -> bool:
    """:attr:`Reason.highest` of a Skip for ``target`` (:func:`_ahead` 0)."""
    if target is None:
        return False
    others = {a.target for a in legal if isinstance(a, PlaySpecial)
              and a.card.card.kind is Kind.SKIP and a.target is not None} - {target}
    near = (view.down[target], len(view.hands[target]))
    level = view.levels[target]
    return all(view.levels[s] <= level for s in others) and any(
        view.levels[s] < level for s in others
        if (view.down[s], len(view.hands[s])) == near)


def _tied(view: Level8State, seat: Seat, legal: Sequence[Action],
          target: Seat | None) -> tuple[Seat, ...]:
    """:attr:`Reason.tied` of a Skip for ``target``."""
    if target is None:
        return ()
    others = {a.target for a in legal if isinstance(a, PlaySpecial)
              and a.card.card.kind is Kind.SKIP and a.target is not None} - {target}

    def near(s: Seat) -> tuple[bool, int, int]:
        return view.down[s], len(view.hands[s]), view.levels[s]

    def order(s: Seat) -> int:
        return (s - seat) % view.n

    tied = sorted((s for s in others if near(s) == near(target)), key=order)
    return tuple(tied) if all(order(target) < order(s) for s in tied) else ()


def _ahead(view: Level8State, legal: Sequence[Action], target: Seat | None) -> int:
    """:attr:`Reason.ahead` of a Skip for ``target`` among the Skip's targets in ``legal``."""
    if target is None:
        return 0
    targets = {a.target for a in legal if isinstance(a, PlaySpecial)
               and a.card.card.kind is Kind.SKIP and a.target is not None} - {target}

    def near(seat: Seat) -> tuple[bool, int]:
        return view.down[seat], -len(view.hands[seat])

    if any(near(other) > near(target) for other in targets):
        return -1
    return 0 if any(near(other) == near(target) for other in targets) else 1


def _spared(view: Level8State, seat: Seat, hand: list[Card], card: Card, feeds: int,
            lacks: int) -> tuple[Card, ...]:
    """:attr:`Reason.spared` of discarding ``card`` (``feeds``: its :func:`feeding`;
    ``lacks``: the cards to go without it) from ``hand``: the cards that :func:`feeding` puts
    above ``card`` and that the plan can do without all together (taken greedily, jokers
    first, then the most feeding: a run G7 R8 R9 B10 with J6-10 names the joker, not R8, which
    the final trial of 2026-12-07 read as a card of its run called spare), at most 3, by
    number."""
    level = view.level(seat)
    rest = list(hand)
    rest.remove(card)
    fed = {other: feeding(view, seat, other) for other in set(rest)}
    kept = []
    for other in sorted((c for c in fed if fed[c] > feeds),
                        key=lambda c: (not c.is_joker, -fed[c], c.number or 0, str(c))):
        without = list(rest)
        without.remove(other)
        if plan(without, level)[0] <= lacks:
            rest = without
            kept.append(other)
    return tuple(sorted(kept, key=lambda c: (c.is_joker, c.number or 0, str(c)))[:3])


def _hand(view: Level8State, seat: Seat) -> list[Card]:
    return [c for _, c in view.hand_cards(seat) if c is not None]


def _fits(view: Level8State, card: Card) -> int | None:
    if not (card.is_number or card.is_joker):
        return None
    return next((m.id for m in view.melds if add_options(m, -1, card)), None)


def _best_discard(cards: list[Card], level: Level, why: Why, card: Card, lacks_before: int,
                  target: Seat | None) -> Reason:
    """The reason for taking ``card`` into ``cards``: the plan after the best discard (the
    turn ends with one, ruling L8-3)."""
    best: tuple[int, tuple[tuple[Hole, int], ...]] | None = None
    kept = cards
    for other in set(cards):
        rest = list(cards)
        rest.remove(other)
        got = plan(rest, level)
        if best is None or got[0] < best[0]:
            best, kept = got, rest
    lacks, needs = best if best is not None else plan(cards, level)
    return Reason(why, card, lacks_before, lacks, needs, target=target,
                  outs=outs(kept, level) if lacks == 1 else ())


def explain(view: Level8State, seat: Seat, legal: Sequence[Action], action: Action,
            note: Any = None) -> Reason:
    """The :class:`Reason` for ``action`` (one of ``legal``) of ``seat`` in ``view`` (the
    seat's view). ``note`` is what a bot said of its decision (unused by Level 8's bots).

    Raises:
        KeyError: the action names a card the view does not know (never for a legal action
            of this seat).
    """
    if len(legal) == 1:
        return Reason(Why.ONLY)
    hand = _hand(view, seat)
    level = view.level(seat)
    down = view.down[seat]
    before, _ = plan(hand, level)
    lacks_before = -1 if down else before

    def after(cards: list[Card], why: Why, card: Card | None, **more: Any) -> Reason:
        if down:
            return Reason(why, card, **more)
        lacks, needs = plan(cards, level)
        return Reason(why, card, lacks_before, lacks, needs, **more,
                      outs=outs(cards, level) if lacks == 1 else ())

    if isinstance(action, Draw):
        return after(hand, Why.DRAW_PILE, None)
    if isinstance(action, DrawDiscard):
        top = view.cards[view.discards[action.owner][-1]]
        if down:
            return Reason(Why.TOP_FITS, top, meld=_fits(view, top), target=action.owner)
        return _best_discard([*hand, top], level, Why.TAKE_TOP, top, lacks_before,
                             action.owner)
    if isinstance(action, LayDown):
        return Reason(Why.LAY_DOWN, None, lacks_before, 0)
    if isinstance(action, Add):
        return Reason(Why.ADD, action.card.card, meld=action.meld)
    if isinstance(action, Discard | SwapPut):
        card = action.card.card
        rest = list(hand)
        rest.remove(card)
        feeds = feeding(view, seat, card)
        if isinstance(action, SwapPut):
            return after(rest, Why.SWAP_PUT, card)
        if down:
            meld = _fits(view, card)
            return Reason(Why.DISCARD_DEAD if meld is None else Why.DISCARD_DOWN, card,
                          feeds=feeds, meld=meld)
        spared = _spared(view, seat, hand, card, feeds, plan(rest, level)[0])
        reason = after(rest, Why.DISCARD_SPARE, card, feeds=feeds, spared=spared)
        if reason.lacks > before:
            return after(rest, Why.DISCARD_LEAST, card, feeds=feeds, spared=spared)
        return reason
    if isinstance(action, PlaySpecial):
        kind = action.card.card.kind
        why = {Kind.TAKE: Why.PLAY_TAKE, Kind.SWAP: Why.PLAY_SWAP,
               Kind.KEEP: Why.PLAY_KEEP}.get(kind, Why.PLAY_SKIP)
        skip = why is Why.PLAY_SKIP
        ahead = _ahead(view, legal, action.target) if skip else 0
        highest = skip and ahead == 0 and _highest(view, legal, action.target)
        return after(hand, why, action.card.card, target=action.target, ahead=ahead,
                     highest=highest,
                     tied=_tied(view, seat, legal, action.target) if highest else ())
    if isinstance(action, Show):
        return after(hand, Why.SHOW, None)
    if isinstance(action, Choose):
        if action.slot is None:
            return after(hand, Why.CHOOSE_NONE, None)
        card = view.cards[action.slot]
        owner = next((s for s, slots in enumerate(view.shown) if action.slot in slots), None)
        if down:
            return Reason(Why.CHOOSE, card, meld=_fits(view, card), target=owner)
        return after([*hand, card], Why.CHOOSE, card, target=owner)
    if isinstance(action, Keep):
        return after(hand, Why.KEEP, view.cards[action.slot])
    return Reason(Why.END)


__all__ = ["Reason", "Why", "explain"]
