"""The 8s Rule! objectives file's errors in the player's language (``--option
objectives=FILE``; the trial of 2026-12-06: with ``--lang de`` they answered in English).

The engine (``engine/eights/objectives.py``) raises a :class:`~lancards.engine.core.RulesError`
with a code ``objectives-...`` and its values: ``round`` and ``entry`` (where in the file, or
``None``) and the code's own. :data:`OBJECTIVES_WORDS` are the engine's English sentences, so
English output does not change; the names of the file's keys and values (``kind``, ``cards``,
``Red``) are the file's own and stay as written. A file that is not TOML at all:
:mod:`lancards.cli.toml_words`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from lancards.cli.i18n import N_, _
from lancards.engine.core import EngineError

OBJECTIVES_WORDS: Mapping[str, str] = {
    "objectives-source": N_("'source' must be a non-empty string"),
    "objectives-from-publisher": N_("'from_publisher' must be true or false"),
    "objectives-rounds": N_("needs [[round]] tables for rounds 1 to 7"),
    "objectives-round-number": N_("every [[round]] needs 'number' 1..7, got {value!r}"),
    "objectives-round-twice": N_("round {number} is given twice"),
    "objectives-rounds-missing": N_("round(s) {missing} missing; give rounds 1 to 7"),
    "objectives-unknown-keys": N_("unknown key(s) {keys} (allowed: {allowed})"),
    "objectives-kind": N_("'kind' must be one of {kinds}, got {value!r}"),
    "objectives-title": N_("'title' must be a non-empty string"),
    "objectives-tricks-points": N_("kind 'tricks' needs whole-number 'points' per trick"),
    "objectives-last-tricks-points": N_("kind 'last-tricks' needs 'points', a list of 1 to "
                                        "{most} whole numbers (the last trick last)"),
    "objectives-early-end": N_("'early_end' must be true or false"),
    "objectives-cards": N_("kind 'cards' needs 'cards', a non-empty list of entries"),
    "objectives-entry": N_("must be a table like {{ suit = \"Red\", points = 5 }}"),
    "objectives-entry-points": N_("needs whole-number 'points'"),
    "objectives-entry-both": N_("give either 'card' or 'suit'/'number', not both"),
    "objectives-entry-card": N_("unknown card {card!r}; a card is a suit letter R, B, Y or G "
                                "and a number 1..15"),
    "objectives-entry-suit": N_("unknown suit {suit!r}; use Red, Blue, Yellow or Green"),
    "objectives-entry-needs": N_("needs 'card', 'suit' or 'number'"),
    "objectives-entry-number": N_("'number' must be 1..15, got {value!r}"),
}
"""What is wrong, by code; said after where it is (:func:`where_words`)."""

def where_words(round_: object, entry: object) -> str:
    """Where in the objectives file: ``"objectives file, round 3, cards entry 2"``."""
    if round_ is None:
        return _("objectives file")
    if entry is None:
        return _("objectives file, round {round}").format(round=round_)
    return _("objectives file, round {round}, cards entry {entry}").format(
        round=round_, entry=entry)


def _listed(values: object, show: type[str] | None = None) -> str:
    if isinstance(values, Iterable) and not isinstance(values, str):
        return ", ".join(repr(v) if show is None else str(v) for v in values)
    return str(values)


def objectives_error_words(exc: EngineError) -> str | None:
    """``exc`` in the player's language if it is an objectives file's error, else ``None``:
    ``"objectives file, round 2: 'title' must be a non-empty string"`` is ``"Datei der
    Rundenziele, Runde 2: 'title' muss ein nicht leerer Text sein"`` in German."""
    params = dict(exc.params)
    if exc.code not in OBJECTIVES_WORDS:
        return None
    if "keys" in params:
        params["keys"] = _listed(params["keys"])
    for key in ("allowed", "kinds", "missing"):
        if key in params:
            params[key] = _listed(params[key], str)
    where = where_words(params.pop("round", None), params.pop("entry", None))
    return _("{where}: {what}").format(where=where, what=_(OBJECTIVES_WORDS[exc.code]).format(
        **params))


__all__ = ["OBJECTIVES_WORDS", "objectives_error_words", "where_words"]
