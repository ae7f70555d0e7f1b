"""The static table of every rule set lancards plays (issue 10: no import-time registration).

Adding a game means adding its :class:`~lancards.engine.options.RuleSetSpec` values here;
:func:`rule_set` looks names and aliases up in this table. The registry imports the games; no
module of a game imports the registry (the architecture contracts in ``pyproject.toml``).
"""

from __future__ import annotations

from typing import Any

from lancards.engine import eights, level8
from lancards.engine.core import Bot, Game, RulesError
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
    """A new instance of the standard bot of the rule sets that ``game`` plays (every rule set
    of one engine shares its bot; the engine itself never imports it).

    Raises:
        RulesError: no rule set is played by an engine of ``game``'s type.
    """
    for spec in RULE_SETS:
        if type(spec.game) is type(game):
            return spec.bot()
    raise RulesError(f"no rule set is played by {type(game).__name__}")
