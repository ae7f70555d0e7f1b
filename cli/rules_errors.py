"""The engine's rule-option errors in the player's language (the trial of 2026-12-06: with
``--lang de``, ``lancards play --option x=y`` answered in English).

The engine stays language-free: a :class:`~lancards.engine.core.RulesError` about a rule
option carries a stable ``code`` and its ``params`` (the option's name, the value given, the
choices; :meth:`~lancards.engine.core.EngineError.with_code`), and this module says it through
the catalogue. :data:`RULES_WORDS` are the engine's English sentences without their ruling ids,
so English output does not change; an error without a code known here is its English text.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Mapping

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import N_, _
from lancards.cli.objectives_errors import objectives_error_words
from lancards.cli.toml_words import toml_error_words
from lancards.engine.core import EngineError

RULES_WORDS: Mapping[str, str] = {
    "unknown-option": N_("rule set {rule_set!r} has no option {option!r} (options: {options})"),
    "invalid-choice": N_("option {option!r}: invalid value {value!r}; choose one of {choices}"),
    "invalid-bool": N_("option {option!r}: invalid value {value!r}; use true or false"),
    "invalid-int": N_("option {option!r}: invalid value {value!r}; expected a whole number"),
    "out-of-range": N_("option {option!r}: {value} is outside {lo}..{hi}"),
    "not-key-value": N_("option {item!r} is not of the form KEY=VALUE"),
    "unreadable-file": N_("option {option!r}: cannot read {path!r}: {reason}"),
    "partners-seats": N_("option 'partners' needs 4 or 6 players, not {players}"),
    "table-rescue": N_("option rescue must be on or off, not {value!r}"),
    "table-patience": N_("option patience must be 10 to 3600 seconds, not {value!r}"),
    "table-dealer": N_("option dealer must be a seat 0 to 5, not {value!r}"),
    "sides-count": N_("option 'sides' names {given} sides for {seats} seats; give one side for "
                      "everyone or one per seat"),
    "back-without-file": N_("seat {seat} plays the back side, but no level-card file was given "
                            "(option 'level_cards'); the back sides are not in the rulebooks"),
    "unknown-side": N_("option 'sides': unknown side {side!r}; use front or back"),
    "first-dealer-not-dealer": N_("{game} names its first dealer with the option first_dealer, "
                                  "not dealer"),
}
"""The words of every rule-option error code (``engine/options.py``, ``cli/selfplay.py``, the
8s Rule! seat check of ruling E-10, the table options of ``p2p/protocol/statement.py``); an
8s Rule! objectives file's errors: ``cli/objectives_errors.py``."""


FILE_REASONS: Mapping[int, str] = {
    errno.ENOENT: N_("no such file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of its path is not a folder"),
    errno.EIO: N_("the disk failed (input/output error)"),
}
"""Why a rule option's file could not be read, in the player's language, by the system's error
number (the trial of 2026-12-07 read German around the system's English "No such file or
directory"); another number keeps the system's own words."""


def _listed(names: object) -> str:
    if isinstance(names, Iterable) and not isinstance(names, str):
        return ", ".join(str(name) for name in names) or _("none")
    return str(names)


def rules_error_words(exc: EngineError) -> str:
    """``exc`` in the player's language: ``"option 'reshuffle': invalid value 'foo'; choose one
    of eager, lazy"`` is ``"Option 'reshuffle': ungültiger Wert 'foo'; wähle eines von eager,
    lazy"`` in German. An error without a known code is its English text."""
    words = toml_error_words(exc)
    if words is None:
        words = objectives_error_words(exc)
    if words is not None:
        return words
    if exc.code not in RULES_WORDS:
        return str(exc)
    params = dict(exc.params)
    number = params.pop("errno", None)
    if isinstance(number, int) and number in FILE_REASONS:
        params["reason"] = _(FILE_REASONS[number])
    for key in ("options", "choices"):
        if key in params:
            params[key] = _listed(params[key])
    if "game" in params:  # the game's name, never its id (level8-en: Level 8 (English))
        params["game"] = game_title(str(params["game"]))
    return _(RULES_WORDS[exc.code]).format(**params)
