"""The static table of every rule set lancards plays (issue 10: no import-time registration).

Adding a game means adding its :class:`~lancards.engine.options.RuleSetSpec` values here;
:func:`rule_set` looks names and aliases up in this table. The registry imports the games; no
module of a game imports the registry (the architecture contracts in ``pyproject.toml``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lancards.engine import eights, level8
from lancards.engine.core import Bot, Game, Rng, RulesError, Seat
from lancards.engine.options import RuleSetSpec

RULE_SETS: tuple[RuleSetSpec, ...] = (*level8.SPECS, eights.SPEC)
"""``level8-master``, ``level8``, ``level8-en`` (ruling L8-1) and ``eights`` (ruling E-1)."""


_BY_NAME: dict[str, RuleSetSpec] = {
    key: spec for spec in RULE_SETS for key in (spec.name, *spec.aliases)
}
"""Every rule set by name and by alias."""


def rule_set(name: str) -> RuleSetSpec:
    """The rule set called ``name`` (a name or an alias).

    Raises:
        RulesError: no rule set has that name.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise RulesError(
            f"unknown game {name!r}; choose one of {', '.join(rule_set_names())}"
        ) from None


def rule_set_names() -> list[str]:
    """Names of every registered rule set (aliases excluded), sorted."""
    return sorted(spec.name for spec in RULE_SETS)


def standard_bot(game: Game[Any, Any]) -> Bot[Any, Any]:
    """A new instance of the reference bot (``greedy``, deterministic) of the rule sets that
    ``game`` plays (every rule set of one engine shares its bots; the engine itself never
    imports them). Seeded records and benchmarks are played by it; people play against the
    levels of :func:`make_bot`.

    Raises:
        RulesError: no rule set is played by an engine of ``game``'s type.
    """
    for spec in RULE_SETS:
        if type(spec.game) is type(game):
            return spec.bot()
    raise RulesError(f"no rule set is played by {type(game).__name__}")


BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "greedy")
"""Every bot level name, weakest first; ``greedy`` is the reference bot (``docs/bots.md``).
A rule set offers the ones in its :attr:`RuleSetSpec.bot_levels`."""

DEFAULT_BOT_LEVEL = "normal"
"""The level of a bot seat when none is asked for (``lancards play``, ``host``, ``join``)."""

REFERENCE_BOT_LEVEL = "greedy"
"""The deterministic reference bot the goals are measured against (:func:`standard_bot`)."""


def bot_levels(game: Game[Any, Any]) -> tuple[str, ...]:
    """The bot levels the engine of ``game`` offers, in :data:`BOT_LEVELS` order.

    Raises:
        RulesError: no rule set is played by an engine of ``game``'s type.
    """
    offered = dict(_spec_of(game).bot_levels)
    return tuple(name for name in BOT_LEVELS if name in offered)


def make_bot(game: Game[Any, Any], level: str, rng: Rng) -> Bot[Any, Any]:
    """A new bot of ``level`` for ``game``, drawing its randomness only from ``rng`` (its own
    seeded ``random.Random``, never the deck's).

    Raises:
        RulesError: an unknown level, or one this game does not offer (the message lists the
            levels it has), or no rule set is played by ``game``'s engine.
    """
    offered = dict(_spec_of(game).bot_levels)
    factory = offered.get(level)
    if factory is None:
        raise RulesError(f"unknown bot level {level!r} for {game.name}; choose one of "
                         f"{', '.join(bot_levels(game))}")
    return factory(rng)


HINT_LEVELS: tuple[str, ...] = ("hard", "normal")
"""The levels the hint asks, strongest first: the first a rule set offers plays it."""


def hint_level(game: Game[Any, Any]) -> str:
    """The bot level whose move the hint shows for ``game``: ``hard`` where the rule set offers
    it, else ``normal`` (:data:`HINT_LEVELS`; ``docs/bots.md``, "The hint").

    Raises:
        RulesError: no rule set is played by ``game``'s engine, or it offers none of them.
    """
    offered = bot_levels(game)
    for level in HINT_LEVELS:
        if level in offered:
            return level
    raise RulesError(f"{game.name} offers no bot level for a hint")


@dataclass(frozen=True, slots=True)
class Advice:
    """What a bot would play now and why (the hint).

    Attributes:
        level: the bot level that chose (:func:`hint_level`).
        action: one of the legal actions given.
        reason: the rule set's own reason value (``engine/level8/advice.py``,
            ``engine/eights/advice.py``), or None when the rule set has no ``explain``.
    """

    level: str
    action: Any
    reason: Any


def advise(game: Game[Any, Any], view: Any, seat: Seat, legal: Sequence[Any],
           rng: Rng, level: str | None = None) -> Advice:
    """What the :func:`hint_level` bot of ``game`` would play for ``seat`` from ``view`` (the
    seat's own view: the bot sees nothing more) among ``legal`` (never empty), and why.

    ``level`` asks another level than :func:`hint_level` (tests pin one). The bot draws
    only from ``rng`` (the caller's own seeded randomness). A bot with a
    ``decide(view, seat, legal)`` method (8s Rule! ``hard``) also says what its search found,
    which the reason then reports.

    Raises:
        RulesError: no rule set is played by ``game``'s engine, or it offers no ``level``.
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal action to advise on")
    level = level or hint_level(game)
    bot = make_bot(game, level, rng)
    decide = getattr(bot, "decide", None)
    note: Any = None
    if decide is not None:
        action, note = decide(view, seat, legal)
    else:
        action = bot.choose(view, seat, legal)
    explain = _spec_of(game).explain
    reason = explain(view, seat, legal, action, note) if explain is not None else None
    return Advice(level, action, reason)


def _spec_of(game: Game[Any, Any]) -> RuleSetSpec:
    for spec in RULE_SETS:
        if type(spec.game) is type(game):
            return spec
    raise RulesError(f"no rule set is played by {type(game).__name__}")
