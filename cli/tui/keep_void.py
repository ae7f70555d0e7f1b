"""The log's word when this seat's "I'll keep that!" comes to nothing (ruling L8-13: a player
who laid down keeps nothing at round end). The new-user trial of 2026-12-06 played KEEP, as
the hint suggested, then laid down, and the KEEP was gone without a word."""

from __future__ import annotations

from typing import Any

from lancards.cli.i18n import ngettext


def keep_void_words(before: Any, action: Any, after: Any, viewer: int) -> list[str]:
    """One line when ``viewer`` lays down while KEEP cards lie in front of them, or plays a
    KEEP after laying down this round (``before``/``after``: Level 8 views around
    ``action``); else none. Only the player who made the move is told."""
    from lancards.engine.level8 import actions as a
    from lancards.engine.level8.cards import Kind

    seat = getattr(action, "seat", -1)
    if before is None or after is None or seat < 0 or seat != viewer:
        return []
    if isinstance(action, a.LayDown) and not before.down[seat]:
        keeps = sum(1 for s in after.in_front[seat]
                    if (card := after.cards.get(s)) is not None and card.kind is Kind.KEEP)
    elif isinstance(action, a.PlaySpecial) and action.card.card.kind is Kind.KEEP \
            and before.down[seat]:
        keeps = 1
    else:
        return []
    if not keeps:
        return []
    return [ngettext("Your KEEP is void: you laid down this round (nothing is kept)",
                     "Your {count} KEEPs are void: you laid down this round (nothing is kept)",
                     keeps).format(count=keeps)]


__all__ = ["keep_void_words"]
