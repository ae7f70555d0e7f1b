"""A rules file that is not valid TOML, in the player's language (an 8s Rule! objectives file,
``--option objectives=FILE``; a Level 8 level card, ``--option level_cards=FILE``).

The engine (:func:`lancards.engine.toml_errors.toml_error`) gives where the TOML reader
stopped: ``line`` and ``column``, or ``end``, or neither. Before, the line ended with the
reader's English reason even in German (``... kein gültiges TOML: Invalid value (at end of
document)``, the trial); now it is our words and the place only.
"""

from __future__ import annotations

from collections.abc import Mapping

from lancards.cli.i18n import N_, _
from lancards.engine.core import EngineError

TOML_WORDS: Mapping[str, tuple[str, str, str]] = {
    "objectives-toml": (
        N_("objectives file is not valid TOML (line {line}, column {column})"),
        N_("objectives file is not valid TOML (at its end)"),
        N_("objectives file is not valid TOML")),
    "level-card-toml": (
        N_("level card file is not valid TOML (line {line}, column {column})"),
        N_("level card file is not valid TOML (at its end)"),
        N_("level card file is not valid TOML")),
}
"""By code: where the reader stopped (line and column), at the file's end, nowhere said."""


def toml_error_words(exc: EngineError) -> str | None:
    """``exc`` in the player's language if it is a rules file that is not valid TOML, else
    ``None``: ``"objectives file is not valid TOML (line 2, column 9)"`` is ``"die Datei der
    Rundenziele ist kein gültiges TOML (Zeile 2, Spalte 9)"`` in German."""
    if exc.code not in TOML_WORDS:
        return None
    at_line, at_end, nowhere = TOML_WORDS[exc.code]
    line, column = exc.params.get("line"), exc.params.get("column")
    if isinstance(line, int) and isinstance(column, int):
        return _(at_line).format(line=line, column=column)
    return _(at_end) if exc.params.get("end") else _(nowhere)


__all__ = ["TOML_WORDS", "toml_error_words"]
