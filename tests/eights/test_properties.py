"""Property tests over many seeded games for 3..6 players.

Card conservation (60), replay of the log, views that leak nothing, every offered action
accepted, legal actions empty only when the game is over, round 8 never deadlocks (ruling E-7),
peer engines that follow the shared record reach exactly the god view, and random reneges all
found by the audit (ruling E-8).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lancards.cli.driver import SeededChance, play_local
from lancards.engine.core import ALL_SEATS, CHANCE
from lancards.engine.eights import EIGHTS, EightsRules, EightsState, Pass, Phase, Play, parse_action
from lancards.engine.eights.actions import EightsAction
from lancards.engine.eights.cards import CARDS, NUMBERS
from lancards.engine.eights.play import is_eight_of_led_suit, is_playable
from lancards.engine.rulesets import standard_bot

GAME = EIGHTS
PLAYERS = [3, 4, 5, 6]


def rules_for(n: int, seed: int) -> EightsRules:
    return EightsRules(partners=n in (4, 6) and seed % 2 == 1)


def assert_view_leaks_nothing(state: EightsState) -> None:
    for seat in [*range(state.n), None]:
        view = GAME.view(state, seat)
        for offset, card in enumerate(view.ident):
            if card < 0:
                continue
            mask = state.known[offset]
            assert mask == ALL_SEATS if seat is None else mask & (1 << seat), (seat, offset)
            assert card == state.ident[offset]
        for other, hand in enumerate(state.hands):
            if other != seat and state.phase is not Phase.AUDIT:
                assert all(view.card(slot) is None for slot in hand), (seat, other)
        assert GAME.view(view, seat) == view


def checked_game(n: int, seed: int) -> tuple[EightsState, list[EightsAction]]:
    """One bot game with every property checked at every step."""
    rules = rules_for(n, seed)
    chance = SeededChance(seed)
    bots = [standard_bot(GAME) for _ in range(n)]
    state = GAME.new_game(rules, n)
    log: list[EightsAction] = []
    passes_in_a_row = 0
    while (seat := GAME.to_act(state)) is not None:
        assert len(log) < 5000, "no end"
        assert GAME.invariant_violations(state) == []
        if seat == CHANCE:
            action = chance.resolve(GAME, state)
        else:
            legal = GAME.legal_actions(state, seat)
            assert legal, f"seat {seat} to act has no legal action"
            for offered in legal:
                GAME.check(state, offered)
                GAME.apply(state, offered)
            action = bots[seat].choose(GAME.view(state, seat), seat, legal)
            assert action in legal
            if state.phase is Phase.LAYOUT:
                passes_in_a_row = passes_in_a_row + 1 if isinstance(action, Pass) else 0
                assert passes_in_a_row < n, "round 8 deadlock: every seat passed"
        if len(log) % 7 == 0:
            assert_view_leaks_nothing(state)
        state = GAME.apply(state, action)
        log.append(action)
    assert GAME.invariant_violations(state) == []
    assert all(GAME.legal_actions(state, s) == [] for s in range(n))
    return state, log


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_step_of_seeded_games(n: int, seed: int) -> None:
    final, log = checked_game(n, seed)
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.detail["rounds"] == 8
    assert len(outcome.scores) == n and outcome.winners
    # Replay from the log (through the notation) rebuilds the same state.
    state = GAME.new_game(rules_for(n, seed), n)
    for action in log:
        state = GAME.apply(state, parse_action(str(action)))
    assert state == final


@pytest.mark.parametrize("n", PLAYERS)
def test_many_seeded_games(n: int) -> None:
    for seed in range(100, 140):
        played = play_local(GAME, rules_for(n, seed), n, seed, check_every=5)
        assert played.violations == []
        outcome = GAME.outcome(played.final)
        assert outcome is not None
        results = played.final.results
        assert [r.round for r in results] == list(range(1, 9))
        assert list(outcome.scores) == [sum(r.totals[s] for r in results) for s in range(n)]
        assert all(r.reneges == () for r in results)  # bots play only legal actions
        assert results[-1].went_out is not None
        assert results[-1].points[results[-1].went_out] == -25


def peer_states(n: int, seed: int) -> None:
    rules = rules_for(n, seed)
    god = GAME.new_game(rules, n)
    peers: list[EightsState] = [GAME.view(god, seat) for seat in range(n)]
    spectator = GAME.view(god, None)
    chance = SeededChance(seed)
    bots = [standard_bot(GAME) for _ in range(n)]
    while (seat := GAME.to_act(god)) is not None:
        if seat == CHANCE:
            action = chance.resolve(GAME, god)
        else:
            legal = GAME.legal_actions(peers[seat], seat)
            assert legal == GAME.legal_actions(god, seat)
            action = bots[seat].choose(peers[seat], seat, legal)
        dealt = god.phase is Phase.DEAL
        god = GAME.apply(god, action)
        record = GAME.public_action(action)
        for s in range(n):
            peers[s] = GAME.apply(peers[s], record)
            if dealt:
                for slot in god.hands[s]:
                    peers[s] = GAME.learn(peers[s], slot, GAME.identity(god, slot))
            assert peers[s] == GAME.view(god, s), f"seat {s} after {action}"
        spectator = GAME.apply(spectator, record)
        assert spectator == GAME.view(god, None)
    assert [GAME.outcome(p) for p in peers] == [GAME.outcome(god)] * n


@pytest.mark.parametrize(
    ("n", "seed"), [(3, 5), (3, 10), (4, 6), (4, 7), (5, 8), (5, 11), (6, 9), (6, 12)]
)
def test_peer_engines_reach_exactly_the_god_view(n: int, seed: int) -> None:
    peer_states(n, seed)


def cheat_or_play(state: EightsState, seat: int, rng: random.Random) -> tuple[EightsAction, bool]:
    """A random action; sometimes a renege on purpose. Returns (action, is_renege)."""
    legal = GAME.legal_actions(state, seat)
    hand = [(slot, state.ident[slot - state.base]) for slot in state.hands[seat]]
    if rng.random() < 0.2:
        if state.phase is Phase.LAYOUT:
            playable = any(is_playable(c, state.layout) for _, c in hand)
            return Pass(seat), playable
        slot, card = rng.choice(hand)
        led = state.trick[0].card // NUMBERS if state.trick else None
        take = rng.choice([True, False]) if is_eight_of_led_suit(card, led) else None
        renege = (
            led is not None and card // NUMBERS != led and any(c // NUMBERS == led for _, c in hand)
        )
        return Play(seat, slot, CARDS[card], take), renege
    return rng.choice(legal), False


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(PLAYERS))
def test_every_renege_is_found_by_the_audit(seed: int, n: int) -> None:
    rng = random.Random(seed)
    chance = SeededChance(seed)
    state = GAME.new_game(EightsRules(), n)
    expected: dict[int, list[int]] = {}
    action: EightsAction
    while (seat := GAME.to_act(state)) is not None:
        if seat == CHANCE:
            action = chance.resolve(GAME, state)
        else:
            action, renege = cheat_or_play(state, seat, rng)
            if renege:
                expected.setdefault(state.round, []).append(seat)
        state = GAME.apply(state, action)
        assert GAME.invariant_violations(state) == []
    for result in state.results:
        assert [r.seat for r in result.reneges] == expected.get(result.round, [])
        assert result.penalties == tuple(
            50 * expected.get(result.round, []).count(s) for s in range(n)
        )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(PLAYERS), st.floats(0, 1))
def test_no_choice_of_moves_keeps_round_8_going(seed: int, n: int, stubborn: float) -> None:
    """Whatever the seats choose (any legal move, or with chance ``stubborn`` a pass although
    a card fits, as a hostile peer may send), round 8 ends: at most 60 cards are laid and a
    full turn of passes ends it (``docs/rules-eights.md``, reading 5), so it takes at most
    ``60 * n`` turns; a round 8 that ends with nobody out ended on the n-th pass in a row and
    had a renege."""
    rng = random.Random(seed)
    chance = SeededChance(seed)
    state = GAME.new_game(EightsRules(), n)
    turns = 0
    ending: list[int] = []  # the seats of the passes in a row that ended round 8
    while (seat := GAME.to_act(state)) is not None:
        if seat == CHANCE:
            action = chance.resolve(GAME, state)
        else:
            if state.phase is Phase.LAYOUT:
                turns += 1
                assert turns <= 60 * n, "round 8 goes on"
            action = (Pass(seat) if state.phase is Phase.LAYOUT and rng.random() < stubborn
                      else rng.choice(GAME.legal_actions(state, seat)))
        before = state
        state = GAME.apply(state, action)
        if before.phase is Phase.LAYOUT and state.phase is not Phase.LAYOUT:
            tail: list[int] = []
            for event in reversed(before.history):
                if event.card >= 0:
                    break
                tail.append(event.seat)
            ending = [seat, *tail] if isinstance(action, Pass) else []
    last = state.results[-1]
    assert last.round == 8
    if last.went_out is None:
        assert sorted(ending) == list(range(n)), ending  # every seat passed, once, in turn
        assert last.reneges, "a dead layout without a renege"
    else:
        assert ending == [] and last.points[last.went_out] == -25
