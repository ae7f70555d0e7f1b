"""Drive a game locally: chance from a seeded generator, seats played by bots (``lancards play
--local``, ``lancards selfplay``, the engine's tests).

The engine never draws randomness; it enters here, outside it, through an explicit
``random.Random`` instance (never the global one), as chance actions in the log: the log alone
replays the game (OpenSpiel's chance events).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lancards.engine.core import (
    CHANCE,
    ChanceAction,
    Game,
    RandomInt,
    RandomIntRequest,
    Reveal,
    RevealRequest,
    Shuffle,
    ShuffleRequest,
)
from lancards.engine.rulesets import standard_bot


class SeededChance:
    """Answers chance requests from a seeded ``random.Random``, with full knowledge.

    Args:
        seed: any integer; the same seed gives the same answers.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def resolve(self, game: Game[Any, Any], state: Any) -> ChanceAction:
        """The chance action that answers ``game.chance_request(state)``."""
        request = game.chance_request(state)
        if isinstance(request, ShuffleRequest):
            order = list(range(len(request.slots)))
            self.rng.shuffle(order)
            return Shuffle(tuple(order))
        if isinstance(request, RevealRequest):
            return Reveal(request.slot, game.identity(state, request.slot))
        if isinstance(request, RandomIntRequest):
            return RandomInt(self.rng.randrange(request.n), request.n)
        raise TypeError(f"unknown chance request {request!r}")


@dataclass
class PlayedGame:
    """A finished (or stopped) local game.

    Attributes:
        final: the last state.
        log: every action applied, chance actions included, in order.
        violations: invariant violations found (game step index, message).
    """

    final: Any
    log: list[Any] = field(default_factory=list)
    violations: list[tuple[int, str]] = field(default_factory=list)


def play_local(
    game: Game[Any, Any],
    rules: Any,
    n_seats: int,
    seed: int,
    *,
    bots: Sequence[Any] | None = None,
    check_every: int = 0,
    max_actions: int = 200_000,
    on_step: Callable[[Any, Any], None] | None = None,
) -> PlayedGame:
    """Play one whole game between bots with a seeded chance.

    Args:
        game: the engine.
        rules: the engine's rules value (from ``RuleSetSpec.make_rules``).
        n_seats: seat count.
        seed: seed of the chance generator.
        bots: one bot per seat; ``standard_bot(game)`` for each seat when omitted.
        check_every: check invariants after every ``check_every``-th action (0: only at the end).
        max_actions: a safety bound; reaching it is reported as a violation.
        on_step: called with (state before, action) for every action, chance included.

    Returns:
        The final state, the log and any invariant violations.
    """
    chance = SeededChance(seed)
    players = list(bots) if bots is not None else [standard_bot(game) for _ in range(n_seats)]
    state = game.new_game(rules, n_seats)
    played = PlayedGame(final=state)
    while True:
        seat = game.to_act(state)
        if seat is None:
            break
        if len(played.log) >= max_actions:
            played.violations.append((len(played.log), f"no end after {max_actions} actions"))
            break
        if seat == CHANCE:
            action = chance.resolve(game, state)
        else:
            legal = game.legal_actions(state, seat)
            if not legal:
                played.violations.append((len(played.log), f"seat {seat} to act has no action"))
                break
            action = players[seat].choose(game.view(state, seat), seat, legal)
        if on_step is not None:
            on_step(state, action)
        state = game.apply(state, action)
        played.log.append(action)
        if check_every and len(played.log) % check_every == 0:
            for message in game.invariant_violations(state):
                played.violations.append((len(played.log), message))
    for message in game.invariant_violations(state):
        played.violations.append((len(played.log), message))
    played.final = state
    return played
