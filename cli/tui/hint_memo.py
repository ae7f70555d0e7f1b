"""The hint last shown, kept so that ``h`` pressed again costs nothing, and said anew when its
words would differ.

The hinted move depends on the view only (the bot decides from it), but the words also depend
on the screen: whether the lay-down builder is open and holds a whole level (the hint names its
keys), and the order the hand shows its cards in (the show phase names them in that order). The
re-check trial of issue 26 pressed ``h``, re-sorted the hand with ``s`` and pressed ``h`` again:
the line kept the old order, since it was kept per view. A :class:`ShownHint` is kept for the
view and those words' inputs (:attr:`ShownHint.words`); when only the words' inputs changed, the
move is not asked of the bot again, only said anew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lancards.cli.i18n import _
from lancards.cli.session import TableSnapshot


@dataclass(frozen=True)
class ShownHint:
    """One hint as shown.

    Attributes:
        view: the view it was computed for (compared by identity: a new state is a new view).
        words: what its words depend on beyond the view: the builder open, the builder holding a
            whole level, the hand's slots in the order the screen shows them.
        line: the line shown.
        slot: the slot of the own card it names (the cursor goes there), if any.
        move: the hinted move (a Skip's picker opens on its seat), if any.
        advice: the bot's advice the line says (``None``: none, off the own move or failed).
    """

    view: Any
    words: tuple[bool, bool, tuple[Any, ...]]
    line: str
    slot: Any = None
    move: Any = None
    advice: Any = None

    def holds(self, view: Any, words: tuple[bool, bool, tuple[Any, ...]]) -> bool:
        """Whether this hint is the one to show for ``view`` with these words' inputs."""
        return self.view is view and self.words == words


def shown_hint(snap: TableSnapshot, last: ShownHint | None, builder: bool, ready: bool,
               order: Sequence[Any]) -> ShownHint:
    """The hint to show for ``snap``: ``last`` if it holds, else said anew (the move asked of
    the bot only when ``last`` was for another view). A hint never takes the table down: a
    failure is ``hint: none for this position``, and the keys still play."""
    from lancards.cli.tui.hint import hint_advice, hint_line, hint_slot, hint_words

    words = (builder, ready, tuple(order))
    if last is not None and last.holds(snap.view, words):
        return last
    try:
        if not snap.legal:
            return ShownHint(snap.view, words, hint_line(snap))
        advice = last.advice if last is not None and last.view is snap.view \
            and last.advice is not None else hint_advice(snap)
        line = hint_words(snap, advice, builder=builder, ready=ready, order=order)
        return ShownHint(snap.view, words, line, hint_slot(advice.action), advice.action,
                         advice)
    except Exception:  # a hint never takes the table down; the keys still play
        return ShownHint(snap.view, words, _("hint: none for this position"))


__all__ = ["ShownHint", "shown_hint"]
