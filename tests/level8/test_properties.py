"""Property tests over many seeded games: every rule set, 2..6 players.

At every step: every card in exactly one place; every action round-trips through notation;
views hold only what a seat may know; a peer's own engine, fed only the public record and its
own private cards, equals the full state's view; offered actions pass ``check`` and ``apply``;
``legal_actions`` is empty only when the game is over. At the end: replaying the log rebuilds
the same state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.cli.driver import SeededChance
from lancards.engine.core import ALL_SEATS, CHANCE, seat_bit
from lancards.engine.digest import state_digest
from lancards.engine.level8 import LEVEL8 as G
from lancards.engine.level8.bot import GreedyBot
from lancards.engine.level8.cards import make_deck
from lancards.engine.level8.laydown import enumerate_laydowns
from lancards.engine.level8.levels import CLASSIC_FRONT, MASTER_FRONT, Component, ComponentKind
from lancards.engine.level8.melds import make_meld
from lancards.engine.rulesets import rule_set

EDITIONS = ("level8-master", "level8", "level8-en")


def run_checked_game(edition: str, n: int, seed: int, max_steps: int, explore: float):
    """Play with a greedy bot that sometimes picks a random legal action; check everything."""
    rules = rule_set(edition).make_rules({"reshuffle": "lazy" if seed % 2 else "eager"})
    chance = SeededChance(seed)
    rng = random.Random(seed)
    bot = GreedyBot()
    state = G.new_game(rules, n)
    peers = [G.view(state, s) for s in range(n)]
    log = []
    for _ in range(max_steps):
        seat = G.to_act(state)
        if seat is None:
            break
        if seat == CHANCE:
            action = chance.resolve(G, state)
        else:
            legal = G.legal_actions(state, seat)
            assert legal, f"seat {seat} to act has no legal action"
            for offered in rng.sample(legal, min(4, len(legal))):
                G.check(state, offered)
                G.apply(state, offered)
            action = rng.choice(legal) if rng.random() < explore else bot.choose(
                G.view(state, seat), seat, legal)
        assert G.parse_action(str(action)) == action
        for other in range(n):
            if other != seat:
                assert G.legal_actions(state, other) == []
        state = G.apply(state, action)
        log.append(action)
        assert G.invariant_violations(state) == []
        public = G.public_action(action)
        for s in range(n):
            peer = G.view(G.apply(peers[s], public), s)  # a peer keeps only its view
            for slot, mask in state.known.items():
                if mask & seat_bit(s) and slot not in peer.cards:
                    peer = G.learn(peer, slot, state.cards[slot])
            view = G.view(state, s)
            if peer != view:
                diff = {k: (peer.cards.get(k), view.cards.get(k), state.known.get(k))
                        for k in set(peer.cards) | set(view.cards)
                        if peer.cards.get(k) != view.cards.get(k)}
                raise AssertionError(f"peer {s} after {action}: {diff}")
            assert all(state.known[slot] & seat_bit(s) for slot in view.cards)
            if len(log) % 25 == 0:
                assert state_digest(G, peer) == state_digest(G, state)
            peers[s] = peer
        spectator = G.view(state, None)
        assert all(state.known[slot] == ALL_SEATS for slot in spectator.cards)
    return state, log


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(edition, n):
    seed = 1000 * n + EDITIONS.index(edition)
    state, log = run_checked_game(edition, n, seed, max_steps=700, explore=0.25)
    replay = G.new_game(state.rules, n)
    for action in log:
        replay = G.apply(replay, action)
    assert replay == state


@pytest.mark.parametrize("edition", EDITIONS)
def test_whole_greedy_games_end_with_a_winner(edition):
    for n in (2, 4, 6):
        state, _ = run_checked_game(edition, n, 7 * n, max_steps=20_000, explore=0.0)
        outcome = G.outcome(state)
        assert outcome is not None, f"{edition} {n} players did not finish"
        assert len(outcome.winners) == 1 and outcome.scores[outcome.winners[0]] == 9
        assert G.to_act(state) is None and all(G.legal_actions(state, s) == [] for s in range(n))


# -- lay-down search against a brute force -------------------------------------------------------


def group_possible(kind: ComponentKind, cards) -> bool:
    """Whether the cards (slot, face) can form ``kind`` with some joker declarations."""
    nats = [c for _, c in cards if c.is_number]
    jokers = [c for _, c in cards if c.is_joker]
    if len(nats) + len(jokers) != len(cards):
        return False
    if kind is ComponentKind.SET:
        return any(all(c.number == v for c in nats) and all(j.can_be(v) for j in jokers)
                   for v in range(1, 16))
    if kind is ComponentKind.COLOUR_GROUP:
        return len({c.colour for c in nats}) <= 1
    if kind is ComponentKind.COLOUR_RUN and len({c.colour for c in nats}) > 1:
        return False
    size = len(cards)
    for start in range(1, 17 - size):
        numbers = list(range(start, start + size))
        if sorted(c.number for c in nats) != sorted(set(c.number for c in nats)):
            return False
        if not all(c.number in numbers for c in nats):
            continue
        free = [v for v in numbers if v not in {c.number for c in nats}]
        # jokers must fill the free numbers: a perfect matching (small: try permutations)
        from itertools import permutations
        if any(all(j.can_be(v) for j, v in zip(perm, free, strict=True))
               for perm in set(permutations(jokers))):
            return True
    return False


def brute_force_exists(hand, level) -> bool:
    from itertools import combinations
    if sum(c.size for c in level) > len(hand) - 1:
        return False

    def rec(i, left):
        if i == len(level):
            return True
        for combo in combinations(left, level[i].size):
            if group_possible(level[i].kind, combo):
                rest = [x for x in left if x not in combo]
                if rec(i + 1, rest):
                    return True
        return False

    return rec(0, list(hand))


LEVELS = [*MASTER_FRONT.levels, *CLASSIC_FRONT.levels,
          (Component(ComponentKind.COLOUR_RUN, 4),),
          (Component(ComponentKind.COLOUR_GROUP, 4), Component(ComponentKind.SET, 3))]


@settings(max_examples=150, deadline=None)
@given(edition=st.sampled_from(["level8-master", "level8"]), data=st.data())
def test_laydown_offered_exactly_when_one_exists(edition, data):
    deck = make_deck(edition)
    playable = [i for i, c in enumerate(deck) if c.is_number or c.is_joker]
    size = data.draw(st.integers(6, 11))
    slots = data.draw(st.lists(st.sampled_from(playable), min_size=size, max_size=size,
                               unique=True))
    level = data.draw(st.sampled_from(LEVELS))
    hand = [(s, deck[s]) for s in slots]
    found = enumerate_laydowns(hand, level)
    assert bool(found) == brute_force_exists(hand, level)
    for groups in found:
        assert len(groups) == len(level)
        used = [p.slot for g in groups for p in g]
        assert len(set(used)) == len(used) and set(used) <= set(slots)
        for component, group in zip(level, groups, strict=True):
            assert len(group) == component.size
            assert not isinstance(make_meld(0, 0, component.kind, component.size, group), str)


def test_laydowns_are_offered_without_duplicates():
    deck = make_deck("level8-master")
    rng = random.Random(5)
    playable = [i for i, c in enumerate(deck) if c.is_number or c.is_joker]
    for _ in range(200):
        slots = rng.sample(playable, 11)
        for level in MASTER_FRONT.levels:
            found = enumerate_laydowns([(s, deck[s]) for s in slots], level)
            keys = [tuple(sorted(tuple(sorted((p.slot, p.number) for p in g)) for g in groups))
                    for groups in found]
            assert len(keys) == len(set(keys))
