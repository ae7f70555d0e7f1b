"""Level 8 and Level 8 Master: cards, levels, melds, the engine and its bot.

The package ties them together: the engine (:mod:`.game`) imports neither its bot nor the
registry; :data:`SPECS` names the engine, the options and the bot of each rule set.

Rule sets defined here (listed in ``lancards.engine.rulesets``): ``level8-master`` (108
cards), ``level8`` (98) and ``level8-en`` (99), ruling L8-1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lancards.engine.core import Bot, Rng
from lancards.engine.level8.advice import explain
from lancards.engine.level8.bot import GreedyBot
from lancards.engine.level8.game import LEVEL8, Level8Game
from lancards.engine.level8.planner_bot import PlannerBot
from lancards.engine.level8.rules import OPTIONS, Level8Rules, build
from lancards.engine.level8.search_bot import SearchBot
from lancards.engine.options import OptionValue, RuleSetSpec


def _builder(edition: str):  # type: ignore[no-untyped-def]
    def make(values: Mapping[str, OptionValue]) -> Level8Rules:
        return build(edition, values)  # type: ignore[arg-type]

    return make


def _easy(rng: Rng) -> PlannerBot:
    return PlannerBot(rng, careless=EASY_CARELESS)


def _greedy(rng: Rng) -> GreedyBot:
    return GreedyBot()


EASY_CARELESS = 0.2
"""The share of ``easy``'s discards chosen at random (``docs/bots.md``)."""

BOT_LEVELS: tuple[tuple[str, Callable[[Rng], Bot[Any, Any]]], ...] = (
    ("easy", _easy), ("normal", PlannerBot), ("hard", SearchBot), ("greedy", _greedy),
)
"""The Level 8 bot levels (``docs/bots.md``)."""

SPECS: tuple[RuleSetSpec, ...] = tuple(
    RuleSetSpec(name, LEVEL8, OPTIONS, _builder(name), 2, 6, summary, GreedyBot,
                bot_levels=BOT_LEVELS, explain=explain)
    for name, summary in (
        ("level8-master", "Level 8 Master: 108 cards, ranged jokers, three special cards"),
        ("level8", "Level 8: 98 cards, 5 wild jokers, Skip cards"),
        ("level8-en", "Level 8, English rule sheet: 99 cards, 6 wild jokers, Skip cards"),
    )
)
"""The three Level 8 rule sets (ruling L8-1), listed in :mod:`lancards.engine.rulesets`."""

__all__ = ["LEVEL8", "SPECS", "Level8Game", "Level8Rules"]
