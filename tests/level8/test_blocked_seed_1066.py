"""Ruling L8-16 end to end (issue 26): the blocked round that seeded ``greedy`` games found.

Level 8 Master, 3 seats, ``greedy`` at every seat, chance ``SeededChance(1066)``; at move 1,000
of round 5 the chance switches to ``SeededChance(10007)`` (the issue's "dealt on"). Move 2,518
of round 5, ``2: add 5 R10``, leaves every seat down and no card outside the combinations able
to go on any of them: the round ends at once, nobody went out, every seat advances one level
(L8-10) and the next round is shuffled with the deal passed left (L8-12).
"""

from __future__ import annotations

import pytest

from lancards.cli.driver import SeededChance
from lancards.engine.core import CHANCE
from lancards.engine.level8 import steps
from lancards.engine.level8.blocked import is_blocked
from lancards.engine.level8.state import Phase
from lancards.engine.rulesets import rule_set, standard_bot

pytestmark = pytest.mark.timeout(120)


# 3.8 s of processor time on a quiet core: the issue's own case, so it runs in CI
def test_seed_1066_round_5_ends_blocked_by_l8_16_at_move_2518() -> None:
    spec = rule_set("level8-master")
    game = spec.game
    state = game.new_game(spec.make_rules({}), 3)
    chance = SeededChance(1066)
    bots = [standard_bot(game) for _ in range(3)]
    moves = 0
    while (seat := game.to_act(state)) is not None:
        if seat == CHANCE:
            state = game.apply(state, chance.resolve(game, state))
            continue
        if state.round == 5:
            if moves == 1000:
                assert (state.levels, state.down) == ((7, 5, 5), (True, False, False))
                chance = SeededChance(10007)
            moves += 1
        before = state
        action = bots[seat].choose(game.view(state, seat), seat, game.legal_actions(state, seat))
        state = game.apply(state, action)
        if before.round == 5 and state.round != 5:
            break
    assert moves == 2518
    assert game.describe_action(before, action) == "2: add 5 R10"
    assert before.down == (True, True, True) and not is_blocked(before)
    unended = steps.step(before, action)  # the add itself, before ruling L8-16 is applied
    assert is_blocked(unended)
    assert [len(hand) for hand in unended.hands] == [1, 5, 4]  # nobody went out
    assert (before.levels, state.levels) == ((7, 5, 5), (8, 6, 6))
    assert (state.went_out, state.winners) == (-1, ())
    assert (state.round, state.phase, state.dealer, state.actions) == (6, Phase.SHUFFLE, 0, 2725)
