"""How far a hand is from laying down a whole level: the planning measure of the ``normal`` and
``easy`` Level 8 bots (``docs/bots.md``).

:func:`distance` is the number of cards a hand still lacks to lay down every component of a
level at once (rulings L8-4 to L8-6): each component gets a target (a set's number, a run's
first number, a colour run's colour and first number, a colour group's colour), the hand's
number cards are shared out among the targets (each card serves at most one), and jokers fill
the holes their range allows (Master: a 1-5 joker only stands for 1 to 5; ``level8``: any
number). Special cards never count.

The search: every target of every component is scored alone (a lower bound of its part of the
whole); a depth-first search over the components, best targets first, shares the cards out and
stops a branch whose bound cannot beat the best found. Number cards are shared greedily (a set
or run takes, of the colours it could use, the one the hand holds fewest of, so that colour
groups keep their colour), so the value can exceed the true minimum in rare conflicts; it is
never below it. Pure and deterministic; results are memoised (a bounded cache that changes no
result).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from lancards.engine.level8.cards import COLOUR_INDEX, COLOURS, Card, number_card
from lancards.engine.level8.levels import Component, ComponentKind, Level

_ORDER = {ComponentKind.COLOUR_RUN: 0, ComponentKind.RUN: 1, ComponentKind.SET: 2,
          ComponentKind.COLOUR_GROUP: 3}
_TOP = 6  # targets tried per component, best first
_ALL = (1 << 16) - 2  # bits 1..15


def _popcount(x: int) -> int:
    return x.bit_count()


Target = tuple[int, int]  # (colour or -1, number: a set's number or a run's first number)
Hole = tuple[int, int]
"""A card a plan lacks: (colour index or -1 for any colour, number or 0 for any number)."""


def _targets(comp: Component, masks: Sequence[int], fill: _Fill,
             top: int) -> list[tuple[int, Target]]:
    """The ``top`` best targets of ``comp`` with their missing counts alone (cards of the hand
    and jokers), best first: fewest missing, then fewest holes for jokers to fill."""
    kind, k = comp.kind, comp.size
    union = 0
    for m in masks:
        union |= m
    out: list[tuple[int, int, Target]] = []
    if kind is ComponentKind.SET:
        for v in range(1, 16):
            have = sum((m >> v) & 1 for m in masks)
            holes = max(0, k - have)
            out.append((holes - min(holes, fill.cover_count[v]), holes, (-1, v)))
    elif kind is ComponentKind.COLOUR_GROUP:
        for c, m in enumerate(masks):
            holes = max(0, k - _popcount(m))
            out.append((holes - min(holes, fill.total), holes, (c, 0)))
    else:
        colours = range(6) if kind is ComponentKind.COLOUR_RUN else (-1,)
        for c in colours:
            mask = union if c < 0 else masks[c]
            window = ((1 << k) - 1) << 1
            for s in range(1, 17 - k):
                missing = window & ~mask
                holes = missing.bit_count()
                out.append((holes - fill.numbered_mask(missing), holes, (c, s)))
                window <<= 1
    out.sort()
    return [(alone, target) for alone, _, target in out[:top]]


class _Fill:
    """The hand's jokers, by the face that covers each number."""

    def __init__(self, jokers: Sequence[Card]) -> None:
        self.total = len(jokers)
        self.count: dict[Card, int] = {}
        for j in jokers:
            self.count[j] = self.count.get(j, 0) + 1
        self.cover: dict[int, tuple[Card, ...]] = {
            n: tuple(f for f in self.count if f.lo <= n <= f.hi) for n in range(1, 16)
        }
        self.cover_count = [0] + [sum(self.count[f] for f in self.cover[n])
                                  for n in range(1, 16)]
        """Per number, how many jokers can stand for it."""
        self.ranges = [(((1 << (f.hi - f.lo + 1)) - 1) << f.lo, k) for f, k in self.count.items()]
        """Per joker face, the bit mask of the numbers it covers and how many the hand holds."""
        self.disjoint = all(a & b == 0 for i, (a, _) in enumerate(self.ranges)
                            for b, _ in self.ranges[i + 1:])
        """Whether no two joker faces cover a common number (Master's ranges, or one face)."""

    def numbered_mask(self, missing: int) -> int:
        """How many holes of one card each, at the numbers set in ``missing``, the jokers fill
        (the same as :meth:`numbered`, directly when the faces' ranges are disjoint)."""
        if not self.total or not missing:
            return 0
        if self.disjoint:
            return sum(min(k, (missing & m).bit_count()) for m, k in self.ranges)
        return self.numbered({n: 1 for n in range(1, 16) if (missing >> n) & 1})

    def numbered(self, holes: dict[int, int]) -> int:
        """How many of ``holes`` (number -> count) the jokers can fill."""
        return self.fill({(-1, n): k for n, k in holes.items()})[0]

    def fill(self, holes: dict[Hole, int]) -> tuple[int, dict[Hole, int]]:
        """How many holes the jokers fill, and the holes left: numbered holes by the faces
        covering them (Master's ranges are disjoint; a wild joker covers every number), then
        colour-group holes (number 0) with whatever jokers are left."""
        left = dict(self.count)
        rest = dict(holes)
        filled = 0
        numbered = [h for h in holes if h[1]]
        for hole in sorted(numbered, key=lambda h: len(self.cover[h[1]])):
            for face in self.cover[hole[1]]:
                if not rest[hole]:
                    break
                use = min(rest[hole], left[face])
                left[face] -= use
                rest[hole] -= use
                filled += use
        spare = sum(left.values())
        for hole in holes:
            if not hole[1] and spare:
                use = min(rest[hole], spare)
                spare -= use
                rest[hole] -= use
                filled += use
        return filled, {h: k for h, k in rest.items() if k}


def _add(holes: dict[Hole, int], hole: Hole, k: int) -> None:
    if k > 0:
        holes[hole] = holes.get(hole, 0) + k


def _take(comp: Component, target: Target, masks: list[int], holes: dict[Hole, int]) -> None:
    """Share the hand's cards out to ``comp`` at ``target``; ``masks`` loses the cards used,
    ``holes`` gains what is missing."""
    kind, k = comp.kind, comp.size
    colour, v = target
    if kind is ComponentKind.COLOUR_GROUP:
        m = masks[colour]
        have = _popcount(m)
        use = min(k, have)
        if use == have:
            masks[colour] = 0
        else:  # keep the numbers the other colours hold most of, for sets and runs
            numbers = sorted((n for n in range(1, 16) if (m >> n) & 1),
                             key=lambda n: sum((x >> n) & 1 for x in masks))
            for n in numbers[:use]:
                masks[colour] &= ~(1 << n)
        _add(holes, (colour, 0), k - use)
        return
    if kind is ComponentKind.SET:
        owners = sorted((c for c in range(6) if (masks[c] >> v) & 1),
                        key=lambda c: _popcount(masks[c]))
        use = min(k, len(owners))
        for c in owners[:use]:
            masks[c] &= ~(1 << v)
        _add(holes, (-1, v), k - use)
        return
    for n in range(v, v + k):
        if kind is ComponentKind.COLOUR_RUN:
            owner = colour if (masks[colour] >> n) & 1 else -1
        else:
            owners = [c for c in range(6) if (masks[c] >> n) & 1]
            owner = min(owners, key=lambda c: _popcount(masks[c])) if owners else -1
        if owner >= 0:
            masks[owner] &= ~(1 << n)
        else:
            _add(holes, (colour, n), 1)


def distance(hand: Sequence[Card], level: Level) -> int:
    """The number of cards ``hand`` still lacks to lay down all of ``level`` (0: it can, given a
    card left over for the discard, ruling L8-8, which this measure does not count).

    Args:
        hand: the cards (number cards and jokers count; special cards are ignored).
        level: the level's components.
    """
    return plan(hand, level)[0]


def plan(hand: Sequence[Card], level: Level) -> tuple[int, tuple[tuple[Hole, int], ...]]:
    """:func:`distance` and the cards the best plan found still lacks: ``(hole, count)`` pairs,
    a hole being (colour index or -1, number or 0): ``(-1, 7)`` any 7, ``(2, 7)`` the yellow
    7, ``(0, 0)`` any red card (a joker fills any hole its range allows)."""
    return _plan(tuple(sorted(c for c in hand if c.is_number or c.is_joker)), level)


@lru_cache(maxsize=65536)
def _plan(hand: tuple[Card, ...], level: Level) -> tuple[int, tuple[tuple[Hole, int], ...]]:
    masks = [0] * 6
    jokers: list[Card] = []
    for c in hand:
        if c.is_number:
            assert c.colour is not None
            masks[COLOUR_INDEX[c.colour]] |= 1 << c.number
        else:
            jokers.append(c)
    fill = _Fill(jokers)
    comps = sorted(level, key=lambda c: (_ORDER[c.kind], -c.size))
    options = [_targets(c, masks, fill, _TOP + 2 * sum(1 for o in comps if o == c))
               for c in comps]
    bounds = [0] * (len(comps) + 1)
    for i in range(len(comps) - 1, -1, -1):
        bounds[i] = bounds[i + 1] + options[i][0][0]
    best = sum(c.size for c in comps) + 1
    best_holes: dict[Hole, int] = {}

    def search(i: int, masks: list[int], holes: dict[Hole, int], floor: int) -> None:
        nonlocal best, best_holes
        if i == len(comps):
            filled, rest = fill.fill(holes)
            total = sum(holes.values()) - filled
            if total < best:
                best, best_holes = total, rest
            return
        same_as_previous = i > 0 and comps[i] == comps[i - 1]
        for index, (alone, target) in enumerate(options[i]):
            if same_as_previous and index < floor:
                continue
            if alone + bounds[i + 1] >= best:
                break
            m = list(masks)
            h = dict(holes)
            _take(comps[i], target, m, h)
            if sum(h.values()) - fill.total + bounds[i + 1] >= best:
                continue
            search(i + 1, m, h, index)
            if best == bounds[0]:
                return

    search(0, masks, {}, 0)
    return best, tuple(sorted(best_holes.items()))


def outs(hand: Sequence[Card], level: Level) -> tuple[Hole, ...]:
    """The number cards any one of which completes ``level`` for ``hand`` when it lacks exactly
    one card (:func:`distance` 1 -> 0; else ``()``): holes as in :func:`plan`, a number that
    every colour completes as ``(-1, number)``, a colour every number completes as
    ``(colour, 0)``, the rest one by one, by number; only cards ``hand`` does not hold (each
    face is in the deck once, ruling L8-1). Jokers are left out (one that fits always does).
    At most 90 measures of :func:`distance` (6 colours x 15 numbers; memoised).

    The hint says them ("1 card to go: a 3, a 4 or a red 9"): the best plan's one hole is
    often one of several (the new-user trial of 2026-12-05).
    """
    if distance(hand, level) != 1:
        return ()
    held = {(COLOUR_INDEX[c.colour], c.number) for c in hand if c.colour is not None}
    drawable = {(c, n) for c in range(len(COLOURS)) for n in range(1, 16)} - held
    done = {(c, n) for c, n in drawable
            if distance([*hand, number_card(COLOURS[c], n)], level) == 0}
    holes: list[Hole] = []
    for colour in range(len(COLOURS)):
        these = {(colour, n) for n in range(1, 16)} & drawable
        if these and these <= done:
            holes.append((colour, 0))
            done -= these
    for number in range(1, 16):
        these = {(c, number) for c in range(len(COLOURS))} & drawable
        if these and these <= done:
            holes.append((-1, number))
            done -= these
    holes += done
    return tuple(sorted(holes, key=lambda hole: (hole[1], hole[0])))
