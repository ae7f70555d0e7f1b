"""The static table of every rule set lancards plays (issue 10: no import-time registration).

Adding a game means adding its :class:`~lancards.engine.options.RuleSetSpec` values here;
:func:`lancards.engine.options.rule_set` looks names and aliases up in this table.
"""

from __future__ import annotations

from lancards.engine import eights, level8
from lancards.engine.options import RuleSetSpec

RULE_SETS: tuple[RuleSetSpec, ...] = (*level8.SPECS, eights.SPEC)
"""``level8-master``, ``level8``, ``level8-en`` (ruling L8-1) and ``eights`` (ruling E-1)."""
