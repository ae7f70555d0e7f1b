"""Which game of ``lancards history`` an argument names, for ``replay``, ``audit`` and
``resume`` alike: the number ``history`` shows (``3`` or ``#3``, 1 = newest), or the start
of a table id, however short, as long as one table's id begins with it (the new-user trial of
2026-12-07: ``history`` showed ``lancards resume 25…``, cut at 80 columns, and ``resume 25``,
``resume 49c`` and ``resume 3`` all said ``no table 25 in /…/tables`` while ``audit 3`` took
the number).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.i18n import _

_ENTRY = re.compile(r"#?(\d{1,4})")
_TABLE = re.compile(r"[0-9a-f]{1,16}")


def chosen_game(argument: str, games: Sequence[Any]) -> Any | None:
    """The game of ``games`` (``lancards history``'s list, newest first; each with a
    ``table`` id) that ``argument`` names, or ``None`` when it is neither a number nor the
    start of a table id (a path, for ``replay``/``audit``). A number is an entry of the list
    unless it begins with 0 or is past the list's end and a table's id begins with it
    (``0642``: table 0642507d, not game 642, the trial of 2026-12-06; ``25`` of 3 games:
    table 25…).

    Raises:
        UsageError: no game has that number and no table id begins with it (``no table 25:
            give the number lancards history shows, or the start of a table id``), or several
            table ids begin with it (they are named).
    """
    entry = _ENTRY.fullmatch(argument)
    if entry is None and _TABLE.fullmatch(argument) is None:
        return None
    found = [g for g in games if g.table.startswith(argument)] \
        if _TABLE.fullmatch(argument) else []
    if entry is not None and (argument.startswith("#") or not found or (
            not argument.startswith("0") and 1 <= int(entry.group(1)) <= len(games))):
        number = int(entry.group(1))
        if 1 <= number <= len(games):
            return games[number - 1]
        found = []
    if not found:
        raise UsageError(_("no table {argument}: give the number lancards history shows, or "
                           "the start of a table id").format(argument=argument))
    if len(found) > 1:
        raise UsageError(_("{count} tables begin with {argument}: {tables}; give more of the "
                           "id").format(count=len(found), argument=argument,
                                        tables=", ".join(g.table for g in found)))
    return found[0]


__all__ = ["chosen_game"]
