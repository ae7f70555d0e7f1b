"""What a discarded Skip does, said to the person who discarded it (issue 26's new-user trial):
``x`` on a SKIP logged ``You discarded SKIP`` and nothing more, and a player who knows the
printed rules expects a discarded Skip to skip someone. Under our rules a special card may be
discarded and has no effect (ruling L8-15, ``docs/rules-level8.md``); ``p`` puts a Skip in front
of a player (L8C-1). The message line says so once the log tells the discard
(:meth:`~lancards.cli.tui.controller.BaseController.told_words`); another player's discard of a
Skip is the log's alone.
"""

from __future__ import annotations

from typing import Any

from lancards.cli.i18n import _
from lancards.engine.level8.actions import Discard
from lancards.engine.level8.cards import Kind


def skip_discard_words(action: Any) -> str:
    """The message line's words after this seat's own ``action`` is logged: for a discarded
    Skip, that it skips nobody and which key plays it; else nothing."""
    if isinstance(action, Discard) and action.card.card.kind is Kind.SKIP:
        return _("SKIP discarded: nobody is skipped (p puts a Skip in front of a player)")
    return ""


__all__ = ["skip_discard_words"]
