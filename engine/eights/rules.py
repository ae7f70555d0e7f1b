"""The options of 8s Rule! and the rules value they make (rulings E-2, E-6, E-10).

Below the engine and the position notation, which both read them; the package
(:mod:`lancards.engine.eights`) names them in its rule set :data:`~lancards.engine.eights.SPEC`.
"""

from __future__ import annotations

from collections.abc import Mapping

from lancards.engine.core import RulesError
from lancards.engine.options import OptionSpec, OptionValue, validate_options

from .objectives import default_objectives, parse_objectives
from .state import EightsRules

MIN_PLAYERS = 3
"""The fewest players (ruling E-1)."""

MAX_PLAYERS = 6
"""The most players (ruling E-1)."""

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "partners",
        "bool",
        False,
        "E-10",
        "partners sit opposite, team totals, team winner (4 or 6 players)",
    ),
    OptionSpec(
        "objectives",
        "file",
        "",
        "E-6",
        "TOML file of the round 1-7 objectives (default: lancards' own, not from the "
        "publisher)",
    ),
    OptionSpec(
        "first_dealer",
        "int",
        -1,
        "E-2",
        "dealer of round 1, e.g. the last game's winner (-1: high cut)",
        lo=-1,
        hi=MAX_PLAYERS - 1,
    ),
)
"""``partners`` (E-10), ``objectives`` (E-6) and ``first_dealer`` (E-2)."""


def make_rules(values: Mapping[str, OptionValue]) -> EightsRules:
    """The rules value from validated options (see the package docstring).

    Raises:
        RulesError: an invalid objectives file.
    """
    text = str(values.get("objectives", "") or "")
    objectives = parse_objectives(text) if text.strip() else default_objectives()
    first = values.get("first_dealer", -1)
    if not isinstance(first, int):  # pragma: no cover - OptionSpec.parse returns int
        raise RulesError(f"option 'first_dealer': {first!r} is not a seat")
    return EightsRules(
        partners=bool(values.get("partners", False)),
        objectives=objectives,
        first_dealer=None if first < 0 else first,
    )


def rules_from(raw: Mapping[str, OptionValue]) -> EightsRules:
    """The rules value from options as given (defaults filled in, every value validated).

    Raises:
        RulesError: an unknown option, an invalid value or an invalid objectives file.
    """
    return make_rules(validate_options(OPTIONS, raw, "eights"))
