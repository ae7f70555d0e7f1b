"""The hand panel of a seat with no hand to show: a watcher's (``lancards watch``), and that
of a seat voted out while away (issue 24), before and after its table halted on a proven cheat.

A seat voted out watches the rest with its hand out of play; at a table that then halted, the
LAN trial's screen still read ``NOTE: you were voted out while away; watch the rest, or q to
quit`` (the network session no longer gives that banner once halted: nothing is left to watch,
and the cheat's banner and the title's ``game stopped`` say why) over an empty ``your hand (0
cards):`` heading. Its hand panel is now a watcher's heading alone (no "NAME to move" under
it: nobody is to move). Before any halt it is a watcher's too, heading and whose move it is
(it read ``your hand (0 cards):``, a hand the seat no longer has).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import _
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.controller import watch_hand
from lancards.cli.tui.words import halted_text


def watcher_hand(snap: TableSnapshot) -> StyleAndTextTuples | None:
    """The hand panel of ``snap`` when its screen has no hand to show (see the module), else
    None (the controller draws the seat's hand)."""
    if not snap.extra.get("removed_me"):
        return watch_hand(snap) if snap.extra.get("watching") else None
    if halted_text(snap) is not None or snap.to_act is None:
        return [("class:header", " " + _("watching: no seat, the public cards only") + "\n")]
    return watch_hand(snap)  # the game goes on in front of it, as for a watcher


__all__ = ["watcher_hand"]
