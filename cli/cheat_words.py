"""What a signed move the rules refuse was, in the player's words (the finding of 2026-12-08:
the table read "Cyd signed a move the rules do not allow" and never which move, nor why).

The peer layer's refusal is English, the engine's sentence in it (``"... illegal: seat 0:
illegal '0: discard R5#113': it is seat 0's move (draw) (ruling L8-3)"``): :func:`move_detail`
finds the move (its notation without the seat and slot ids) and the engine's reason, the seats
by name, no ruling id: ``"discard R5 (Cyd must draw first)"``. A reason not said here in words
stays the engine's English sentence in English, and is left off in another language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lancards.cli.i18n import _, language

_ILLEGAL = re.compile(r"illegal '(?P<action>[^']*)': (?P<why>.+)\Z")
"""The engine's ``IllegalActionError`` sentence inside a refusal."""

_WHOSE = re.compile(r"it is seat (?P<seat>\d+)'s move \((?P<phase>[\w-]+)\)"
                    r"(?: \(rulings? [\w, -]+\))?")
"""The engine's "not your move now" reason (``engine.level8.steps._whose``)."""

_SLOT = re.compile(r"#\d+")
_RULING = re.compile(r"(?: \(rulings? [\w, -]+\))+\Z")
_SEAT = re.compile(r"\A\d+: ")


def move_detail(text: str, seat: int, names: Sequence[str]) -> str | None:
    """The move a refusal ``text`` names and why the rules refuse it: ``"discard R5 (Cyd must
    draw first)"`` (``seat``: the author's, ``names``: the players' names in seat order);
    None when ``text`` holds no engine sentence of an illegal move."""
    found = _ILLEGAL.search(text)
    if found is None:
        return None
    move = _SEAT.sub("", _SLOT.sub("", found["action"]))
    whose = _WHOSE.fullmatch(found["why"])
    if whose is not None and int(whose["seat"]) < len(names):
        actor = int(whose["seat"])
        why = _("{name} must draw first").format(name=names[actor]) \
            if actor == seat and whose["phase"] == "draw" else \
            _("it is {name}'s move").format(name=names[actor])
    elif language() == "en":  # the engine's sentence, without its ruling and slot ids
        why = _SLOT.sub("", _RULING.sub("", found["why"]))
    else:  # a reason this module does not say in words: the move alone
        return move
    return _("{move} ({why})").format(move=move, why=why)


__all__ = ["move_detail"]
