"""The card that replaces one taken by "I'll take that!" (ruling L8M-1), told to every seat.

The seat whose shown card was taken draws a face-down card from the draw pile in its place. Its
owner reads ``"You drew R7 from the draw pile in its place"`` (:func:`drew_in_its_place`); the
others read ``"Ada drew from the draw pile in its place"``, without the card, which is hidden
from them (a new-user trial saw only "You took Ada's B6 (I'll take that!)" and Ada's hand
still at 10, with no word of the card drawn). Nothing is told while the pile waits for a
reshuffle (L8-9): the card is handed out after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lancards.cli.i18n import _

__all__ = ["drew_in_its_place", "replacement_lines"]


def drew_in_its_place(card: str | None = None) -> str:
    """``"You drew R7 from the draw pile in its place"``: the card that replaces one taken
    from this seat by "I'll take that!" (ruling L8M-1); without ``card`` while it is not yet
    revealed to this seat (the trial of 2026-12-06: it was never named)."""
    if card:
        return _("You drew {card} from the draw pile in its place").format(card=card)
    return _("You drew a card from the draw pile in its place")


def replacement_lines(before: Any, after: Any, owner: int, viewer: int | None,
                      who: str, card_of: Callable[[Any, int], str | None]) -> list[str]:
    """The line of ``owner``'s replacement card after "I'll take that!", if it was drawn.

    Args:
        before: the view before the choice (``None``: unknown, nothing is told).
        after: the view after it.
        owner: the seat whose card was taken; ``who`` its name in the log.
        viewer: the seat the log is told to.
        card_of: the name of a slot's card in a view, ``None`` when hidden.
    """
    if before is None:
        return []
    new = [s for s in after.hands[owner] if s not in before.hands[owner]]
    if not new:
        return []
    if owner == viewer:  # a networked log completes it once the card is revealed
        return [drew_in_its_place(card_of(after, new[0]))]
    return [_("{who} drew from the draw pile in its place").format(who=who)]
