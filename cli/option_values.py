"""``--option KEY=VALUE`` values in the type each option declares.

A command line gives every value as text; an option declares its kind (the game's
:class:`~lancards.engine.options.OptionSpec`, the table's
:data:`~lancards.p2p.protocol.statement.TABLE_OPTION_KINDS`). Before, the text went on as it
came: the game's options were typed by their own check, but the table option ``dealer`` wants a
whole number, so ``--option dealer=1`` was refused as "must be a seat 0 to 5, not '1'" (the
trial). Here every value takes its option's type: a whole number for an ``int`` option (text
that is none stays text, refused by the option's own check in its own words), ``true`` /
``false`` for a ``bool`` one; a ``file`` option's value stays the path it names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.engine.options import OptionValue, RuleSetSpec
from lancards.p2p.protocol.statement import TABLE_OPTION_KINDS, TABLE_OPTIONS

_WHOLE = re.compile(r"[+-]?[0-9]+")


def typed_options(spec: RuleSetSpec, given: Mapping[str, str]) -> dict[str, OptionValue]:
    """``given`` (the command line's ``KEY=VALUE`` texts) with each value in its option's type.

    Raises:
        RulesError: ``spec`` has no such option, or a game option's value is not of its kind
            (the engine's words, with a code: :mod:`lancards.cli.rules_errors`).
    """
    typed: dict[str, OptionValue] = {}
    for key, text in given.items():
        if key in TABLE_OPTIONS:
            whole = TABLE_OPTION_KINDS[key] == "int" and _WHOLE.fullmatch(text) is not None
            typed[key] = int(text) if whole else text
            continue
        option = spec.option(key)
        typed[key] = text if option.kind == "file" else option.parse(text)
    return typed


def check_dealer(options: Mapping[str, OptionValue], players: int) -> None:
    """Refuse at once a table option ``dealer`` that is no seat of a table of ``players``
    (before, ``5`` at 3 seats was taken and the start refused it once the table was full).

    Raises:
        UsageError: ``dealer`` is not a whole number 0 to ``players - 1``.
    """
    if "dealer" not in options:
        return
    dealer = options["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise UsageError(_("option dealer must be a seat 0 to {most} at a table of {players} "
                           "seats, not {value!r}").format(most=players - 1, players=players,
                                                          value=dealer))


__all__ = ["check_dealer", "typed_options"]
