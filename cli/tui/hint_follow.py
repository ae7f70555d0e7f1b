"""The keys after a hint land on the hinted move (issue 26's new-user trial): the hint names a
move, and the key that makes it opens on it, so the person need not find it again; every other
choice stays open to them.

- 8s Rule!: the 8's chooser (take / no take) opens on the hint's choice: the trial read ``hint:
  play Y8 (no take)``, pressed Enter, Enter and took the trick (the chooser opened on take).
- Level 8, "I'll take that!": the cards the hint shows are marked (Space unmarks them), so
  Enter shows them; the take list (Enter) opens on the card the hint takes (or on "take none").
- Level 8, lay down: ``l`` opens the builder holding the offer the hint means (Tab goes on to
  the others, ``u`` clears it); the hint's words say ``l, then Enter``.
- Level 8, a Skip: ``p`` opens the seat picker on the hint's seat.
- A card to play, discard, add, put or keep: the cursor goes to it (``hint_slot``).
- Enter after a hint whose move it does not make (a draw, a discard, a special card, an add, a
  lay-down) names that move and its key: ``cli/tui/hint_enter.py``.

Each controller asks :meth:`~lancards.cli.tui.controller.BaseController.hinted` for the move of
the hint shown for the view on screen (none for a later view: the hint is for one position).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def hinted_index(hinted: Any, options: Sequence[Any]) -> int:
    """Where a list of ``options`` (a picker's moves, in its order) opens: on ``hinted`` when
    it is one of them, else on the first."""
    return list(options).index(hinted) if hinted is not None and hinted in options else 0


def shown_marks(hinted: Any) -> set[Any]:
    """The slots of the cards a hinted Level 8 ``Show`` shows (none for another move): they
    are marked, so Enter shows them."""
    if type(hinted).__name__ != "Show":
        return set()
    return {placed.slot for placed in hinted.cards}


__all__ = ["hinted_index", "shown_marks"]
