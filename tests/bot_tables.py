"""The seeded 8s Rule! table of four ``normal`` seats that the bot benchmarks watch
(``tests.bot_ceiling``, ``tests.bot_inference``): not a pytest module."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from lancards.cli.driver import SeededChance
from lancards.engine.core import CHANCE, Seat
from lancards.engine.eights.actions import EightsAction
from lancards.engine.eights.game import EightsGame
from lancards.engine.eights.planner_bot import PlanBot
from lancards.engine.eights.state import EightsState
from lancards.engine.rulesets import rule_set

GAME = EightsGame()


def normal_table(seed: int, prefix: str) -> Iterator[
        tuple[EightsState, Seat, EightsState, Sequence[EightsAction]]]:
    """Plays game ``seed`` (``SeededChance(seed)``) with four ``normal`` seats, seat ``s``
    seeded ``PREFIX-s``, yielding ``(state, seat, view, legal)`` before each decision; the
    seat's own choice is played when the caller asks for the next one."""
    chance = SeededChance(seed)
    bots = [PlanBot(random.Random(f"{prefix}-{s}")) for s in range(4)]
    state = GAME.new_game(rule_set("eights").make_rules({}), 4)
    while (seat := GAME.to_act(state)) is not None:
        if seat == CHANCE:
            state = GAME.apply(state, chance.resolve(GAME, state))
            continue
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        yield state, seat, view, legal
        state = GAME.apply(state, bots[seat].choose(view, seat, legal))
