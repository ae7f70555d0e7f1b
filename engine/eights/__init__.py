"""8s Rule!: a trick-taking game in eight rounds for 3 to 6 players (rulings E-1 to E-10).

The rule set ``eights`` (:data:`SPEC`, listed in ``lancards.engine.rulesets``) has options:

- ``partners`` (bool, default false, ruling E-10): partners sit opposite; 4 or 6 players only
  (refused for 3 or 5 players by ``new_game``).
- ``objectives`` (file, default: the built-in set, ruling E-6): the text of a TOML objectives
  file for rounds 1..7. The built-in objectives are lancards' own, **not from the publisher**.
- ``first_dealer`` (int -1..5, default -1 = high cut, ruling E-2): the dealer of round 1, e.g.
  the previous game's winner.

See ``docs/rules-eights.md`` for the rules as implemented and the notation.
"""

from __future__ import annotations

from lancards.engine.core import Rng
from lancards.engine.options import RuleSetSpec

from .actions import EightsAction, Pass, Play, format_action, parse_action
from .advice import explain
from .bot import EightsBot
from .cards import CARDS, Card, Suit, parse_card
from .game import EightsGame
from .objectives import (
    DEFAULT_OBJECTIVES_TOML,
    Objective,
    ObjectiveKind,
    Objectives,
    default_objectives,
    parse_objectives,
)
from .planner_bot import PlanBot
from .rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, make_rules
from .search_bot import SearchBot
from .state import EightsRules, EightsState, Phase, Renege, RoundResult

EIGHTS = EightsGame()
"""The 8s Rule! engine."""

EASY_CARELESS = 0.15
"""The share of ``easy``'s plays (when it has a choice) taken at random among the legal ones,
from its own seed (``docs/bots.md``)."""


def _easy(rng: Rng) -> PlanBot:
    return PlanBot(rng, careless=EASY_CARELESS)


def _greedy(rng: Rng) -> EightsBot:
    return EightsBot()


SPEC = RuleSetSpec(
    name="eights",
    game=EIGHTS,
    options=OPTIONS,
    build=make_rules,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    summary="8s Rule! (60 cards, 8 rounds of tricks and a layout; round objectives are "
    "lancards defaults, not from the publisher)",
    bot=EightsBot,
    aliases=("8s-rule",),
    bot_levels=(("easy", _easy), ("normal", PlanBot), ("hard", SearchBot), ("greedy", _greedy)),
    explain=explain,
)
"""The rule set ``eights`` (alias ``8s-rule``), listed in :mod:`lancards.engine.rulesets`."""

__all__ = [
    "CARDS",
    "DEFAULT_OBJECTIVES_TOML",
    "EASY_CARELESS",
    "EIGHTS",
    "SPEC",
    "Card",
    "EightsAction",
    "EightsBot",
    "EightsGame",
    "EightsRules",
    "EightsState",
    "Objective",
    "ObjectiveKind",
    "Objectives",
    "Pass",
    "Phase",
    "Play",
    "Renege",
    "RoundResult",
    "Suit",
    "default_objectives",
    "format_action",
    "make_rules",
    "parse_action",
    "parse_card",
    "parse_objectives",
]
