"""The lay-down search is complete: whenever a valid lay-down exists, one is offered (L8-5, L8-6).

A brute force that knows nothing of the search's canonical forms decides whether a hand can lay
down a level: it tries every split of the hand's card multiset into the level's components and
checks each group directly against ruling L8-4/L8-6 (joker ranges, runs within 1..15, one
colour). Hands are joker-heavy (three jokers or more, up to all six wild jokers of
``level8-en``), levels are every front-side level of both editions and random back sides
(ruling L8-14). ``LANCARDS_FUZZ_EXAMPLES`` raises the example count (CI default: 150).
"""

from __future__ import annotations

import os
from collections import Counter
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.engine.level8.actions import LayDown
from lancards.engine.level8.builder import G, build
from lancards.engine.level8.cards import Card, make_deck, parse_card
from lancards.engine.level8.laydown import enumerate_laydowns
from lancards.engine.level8.levels import (
    CLASSIC_FRONT,
    MASTER_FRONT,
    Component,
    ComponentKind,
    Level,
    LevelCard,
)
from lancards.engine.level8.melds import make_meld
from lancards.engine.level8.position import level_card_toml

EXAMPLES = int(os.environ.get("LANCARDS_FUZZ_EXAMPLES", "150"))
K = ComponentKind


def group_possible(kind: ComponentKind, faces: tuple[Card, ...]) -> bool:
    """Whether these faces form a ``kind`` combination under some joker declarations."""
    if any(not (f.is_number or f.is_joker) for f in faces):
        return False
    nats = [f for f in faces if f.is_number]
    jokers = [f for f in faces if f.is_joker]
    if kind is K.SET:
        return any(all(f.number == v for f in nats) and all(j.can_be(v) for j in jokers)
                   for v in range(1, 16))
    if kind is K.COLOUR_GROUP:
        return len({f.colour for f in nats}) <= 1
    if kind is K.COLOUR_RUN and len({f.colour for f in nats}) > 1:
        return False
    numbers = [f.number for f in nats]
    if len(set(numbers)) != len(numbers):
        return False
    size = len(faces)
    for start in range(1, 17 - size):
        span = range(start, start + size)
        if not all(v in span for v in numbers):
            continue
        free = [v for v in span if v not in numbers]
        # Hall's condition is enough here: joker ranges are nested or disjoint intervals.
        if _jokers_fill(tuple(sorted(jokers)), tuple(free)):
            return True
    return False


def _jokers_fill(jokers: tuple[Card, ...], free: tuple[int, ...]) -> bool:
    """A perfect matching of jokers to free run numbers (small; recursive)."""
    if not free:
        return not jokers
    v = free[0]
    for index, j in enumerate(jokers):
        fresh = index == 0 or jokers[index - 1] is not j
        if j.can_be(v) and fresh and _jokers_fill(jokers[:index] + jokers[index + 1:], free[1:]):
            return True
    return False


def brute_force_exists(faces: list[Card], level: Level) -> bool:
    """Whether the multiset ``faces`` can lay down ``level`` and keep a card (L8-5, L8-8)."""
    if sum(c.size for c in level) > len(faces) - 1:
        return False

    @cache
    def rec(i: int, left: tuple[tuple[Card, int], ...]) -> bool:
        if i == len(level):
            return True
        for group in _submultisets(left, level[i].size):
            if group_possible(level[i].kind, group):
                rest = Counter(dict(left))
                rest.subtract(group)
                if rec(i + 1, tuple(sorted((f, n) for f, n in rest.items() if n > 0))):
                    return True
        return False

    return rec(0, tuple(sorted(Counter(faces).items())))


def _submultisets(items: tuple[tuple[Card, int], ...], size: int):
    if size == 0:
        yield ()
        return
    if not items:
        return
    (face, count), rest = items[0], items[1:]
    for take in range(min(count, size), -1, -1):
        for tail in _submultisets(rest, size - take):
            yield (face,) * take + tail


SIZE_LIMITS = {K.RUN: (2, 10), K.COLOUR_RUN: (2, 10), K.SET: (2, 9), K.COLOUR_GROUP: (1, 10)}


@st.composite
def back_level(draw: st.DrawFn) -> Level:
    """A random level of a players' own back side (ruling L8-14): at most 10 cards."""
    components: list[Component] = []
    total = 0
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(list(K)))
        lo, hi = SIZE_LIMITS[kind]
        if total + lo > 10:
            break
        size = draw(st.integers(lo, min(hi, 10 - total)))
        components.append(Component(kind, size))
        total += size
    return tuple(components)


FRONT_LEVELS = [*MASTER_FRONT.levels, *CLASSIC_FRONT.levels]
JOKERS = {"level8-master": 9, "level8": 5, "level8-en": 6}


@settings(max_examples=EXAMPLES, deadline=None)
@given(edition=st.sampled_from(sorted(JOKERS)), data=st.data())
def test_a_laydown_is_offered_whenever_one_exists_joker_heavy(edition, data):
    deck = make_deck(edition)
    jokers = [i for i, c in enumerate(deck) if c.is_joker]
    others = [i for i, c in enumerate(deck) if not c.is_joker]
    n_jokers = data.draw(st.integers(3, JOKERS[edition]), label="jokers")
    size = data.draw(st.integers(max(n_jokers + 1, 7), 11), label="hand size")
    picked = data.draw(st.lists(st.sampled_from(jokers), min_size=n_jokers, max_size=n_jokers,
                                unique=True), label="joker slots")
    picked += data.draw(st.lists(st.sampled_from(others), min_size=size - n_jokers,
                                 max_size=size - n_jokers, unique=True), label="other slots")
    level = data.draw(st.one_of(st.sampled_from(FRONT_LEVELS), back_level()), label="level")
    hand = [(s, deck[s]) for s in picked]
    found = enumerate_laydowns(hand, level)
    assert bool(found) == brute_force_exists([c for _, c in hand], level), (hand, level)
    # End to end: the engine offers a lay-down in a real position exactly then, and it passes.
    back = level_card_toml(LevelCard("random back side", (level,) * 8))
    other = next(str(c) for c in deck if c.is_number and c not in {f for _, f in hand})
    on_level = data.draw(st.integers(1, 8), label="on level")
    state = build(edition, [[other], [str(c) for _, c in hand]], levels=(1, on_level),
                  options={"sides": "front,back", "level_cards": back})
    offered = [a for a in G.legal_actions(state, 1) if isinstance(a, LayDown)]
    assert bool(offered) == bool(found)
    for action in offered[:3]:
        G.check(state, action)
    for groups in found:
        assert len(groups) == len(level)
        used = [p.slot for g in groups for p in g]
        assert len(set(used)) == len(used) and set(used) <= set(picked)
        for component, group in zip(level, groups, strict=True):
            assert len(group) == component.size
            meld = make_meld(0, 0, component.kind, component.size, group)
            assert not isinstance(meld, str), meld


def test_master_level_2_all_joker_run_at_the_end_of_the_ranges_is_offered():
    """The issue's hand: only the run 3-6 of three 1-5 jokers and one 6-10 joker fits."""
    texts = ["R9", "O9", "Y9", "J1-5", "J1-5", "J1-5", "J6-10", "P13", "P15", "B13", "G15"]
    hand = [parse_card(t) for t in texts]
    found = enumerate_laydowns(list(enumerate(hand)), MASTER_FRONT.level(2))
    assert [[(str(p.card), p.number) for p in g] for g in found[0]] == [
        [("R9", 9), ("O9", 9), ("Y9", 9)],
        [("J1-5", 3), ("J1-5", 4), ("J1-5", 5), ("J6-10", 6)]]
    assert len(found) == 1


def test_level8_en_four_pairs_with_six_jokers_is_offered():
    """The issue's hand: two all-joker pairs in one lay-down (R5 J | B9 J | J J | J J)."""
    texts = ["J"] * 6 + ["SKIP"] * 3 + ["R5", "B9"]
    hand = [parse_card(t) for t in texts]
    found = enumerate_laydowns(list(enumerate(hand)), CLASSIC_FRONT.level(2))
    assert [[(str(p.card), p.number) for p in g] for g in found[0]] == [
        [("R5", 5), ("J", 5)], [("B9", 9), ("J", 9)], [("J", 1), ("J", 1)], [("J", 1), ("J", 1)]]
    assert len(found) == 1
