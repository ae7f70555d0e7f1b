"""Enter after a Level 8 hint whose move Enter does not make (issue 26's new-user trials): the
line ``Enter does nothing now`` names the hint's move and its exact key, since the hint itself
has just left the message line (``Enter does nothing now; the hint: draw P7 from Ada's discard
pile (1)``).

Enter is not made to do such a move itself: in Level 8 it makes only what a list or the marks
on the screen show first (the cards to show, a shown card to take, a Skip to serve), and a
person pressing Enter to go on from a message would have drawn, discarded or played a KEEP
(which ends the turn) without seeing it named. A new-user trial of 2026-12-08 read ``hint: draw
P7 from Ada's discard pile (1)`` and ``hint: play KEEP (p)``, pressed Enter and read the
keys of every pile, or "? shows the keys".
"""

from __future__ import annotations

import re
from typing import Any

from lancards.cli.i18n import _
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.hint import E_KEY_ACTIONS, HINT_COLUMNS, move_key
from lancards.cli.tui.narrate import SPECIAL_WORDS, move_label
from lancards.cli.tui.width import text_width

_LAST_BRACKET = re.compile(r" \([^()]*\)$")

KEYS = {"Discard": "x", "SwapPut": "x", "Add": "a", "Keep": "k", "LayDown": "l"}
"""The keys of the hinted moves that :func:`~lancards.cli.tui.hint.move_key` does not name
(the card under the cursor's: the hint put the cursor on it)."""


def hinted_key(action: Any) -> str | None:
    """The key that makes (or begins: ``l``, ``a``, a Skip's ``p``) the hinted ``action``, or
    None where Enter makes it (a show, a choice, serving a Skip)."""
    name = type(action).__name__
    if name in E_KEY_ACTIONS and name != "ServeSkip":
        return "e"
    return move_key(action) or KEYS.get(name)


def enter_words(snap: TableSnapshot, action: Any) -> str | None:
    """``Enter does nothing now; the hint: MOVE (KEY)`` for the hinted ``action`` (None: no
    hint, or one Enter makes), within the message line's 79 columns; a move whose words do
    not fit is left out (``Enter does nothing now: the hint's key is 1``)."""
    key = hinted_key(action) if action is not None else None
    if key is None:
        return None
    if type(action).__name__ == "LayDown":
        move = _("lay down your level")
    else:
        move = move_label(snap.game.name, snap.view, action, snap.names, snap.seat)
        for word in SPECIAL_WORDS.values():  # "play KEEP", the card's call left off
            move = move.replace(f" ({_(word)})", "")
        if type(action).__name__ == "Add":  # "add O9 to combination 4", not "... (your set
            move = _LAST_BRACKET.sub("", move)  # of 9s) (a)": the hint's own short form
    line = _("Enter does nothing now; the hint: {move} ({key})").format(move=move, key=key)
    if text_width(line) <= HINT_COLUMNS:
        return line
    return _("Enter does nothing now: the hint's key is {key}").format(key=key)


__all__ = ["enter_words", "hinted_key"]
