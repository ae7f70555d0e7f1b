"""Where the 8s Rule! objectives come from (ruling E-6), in the player's words: the ``o``
panel's source line. Apart from :mod:`lancards.cli.peer_words` (which re-exports it) so that
the screens (``cli/tui``) need nothing of the peer layer's words."""

from __future__ import annotations

from typing import Any

from lancards.cli.i18n import N_, _

DEFAULT_SOURCE = "lancards defaults (ruling E-6)"
"""The ``source`` of the built-in 8s Rule! objectives (``DEFAULT_OBJECTIVES_TOML``) as the
engine and the records keep it, ruling id and all: compared, never shown."""

DEFAULT_SOURCE_WORDS = N_("lancards defaults")
"""What the table says for :data:`DEFAULT_SOURCE` (the ruling id, E-6, is for ``docs/``)."""


def objectives_notice(objectives: Any) -> str:
    """Where the 8s Rule! objectives come from (ruling E-6), for the ``o`` panel:
    ``"lancards defaults, not from the publisher"``; a file's own ``source`` is shown as
    written."""
    source = _(DEFAULT_SOURCE_WORDS) if objectives.source == DEFAULT_SOURCE else objectives.source
    if objectives.from_publisher:
        return str(source)
    return _("{source}, not from the publisher").format(source=source)


def own_objectives_words(objectives: Any) -> str:
    """The table's mark beside an objective that is not the publisher's (ruling E-6: the
    rules we have do not print the objectives of rounds 1 to 7, so the default set is this
    program's own): ``"lancards' own objectives · o lists them"``, a file's ``"objectives: our
    house rules · o lists them"`` (a new user read the old ``"not from the publisher (o: in
    full)"`` as a riddle). Short, so that the objective keeps its room in two rows at 80
    columns; the ``o`` panel says "not from the publisher" in full (:func:`objectives_notice`)."""
    if objectives.source == DEFAULT_SOURCE:
        return _("lancards' own objectives · o lists them")
    return _("objectives: {source} · o lists them").format(source=objectives.source)


__all__ = ["DEFAULT_SOURCE", "DEFAULT_SOURCE_WORDS", "objectives_notice", "own_objectives_words"]
