"""A peer's notices as lines of the table's log (``NetworkSession``'s log): a chat line with its
author, a pause or a return, a cheat or a refused message, each in the player's language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lancards.cli.i18n import _
from lancards.cli.peer_errors import error_words
from lancards.cli.peer_words import notice_words
from lancards.cli.removal_words import void_vote_words
from lancards.cli.visible import visible


def notice_line(core: Any, notice: Any, names: Sequence[str], shown: Sequence[str],
                here: Callable[[int], bool] = lambda seat: False) -> str | None:
    """``notice`` (a ``p2p.protocol`` ``Notice`` of ``core``) as one log line: ``"Ann: hi"``,
    ``"Ann paused; the game waits for them"``, ``"Ann is back"`` (issue 25, item 9; a resume),
    ``"! ..."`` for a cheat or a refused message; ``None`` for the notices that the banners say
    instead (votes, leaves, the game's end). ``names``: the seats' nicknames; ``shown``: the
    same as the screen shows them (the viewer's default nickname in the player's language);
    ``here(seat)``: whether ``seat`` is connected to this peer (a void vote against a seat that
    is here is told: :func:`~lancards.cli.removal_words.void_vote_words`)."""
    seat = notice.seat
    who = shown[seat] if seat is not None and 0 <= seat < len(shown) else "?"
    if notice.kind == "chat":
        return f"{who}: {visible(notice.text)}"  # no control character reaches the screen
    if notice.kind == "presence" or notice.code == "back":
        return (_("{name} paused; the game waits for them") if notice.text == "paused"
                else _("{name} is back")).format(name=who)
    if notice.code == "move-dropped":  # entries taken while its cards came changed the table
        return _("your move no longer fits the table, which changed meanwhile: choose again")
    if notice.code == "vote-void":  # once per round; only a seat that is here was wronged
        here_now = seat is not None and (seat == core.seat or here(seat))
        return void_vote_words(seat, notice.voters, core.seat, shown) if here_now else None
    if notice.kind in ("cheat", "rejected"):
        text = error_words(notice.error) if notice.error is not None else \
            notice_words(core, notice, names) if notice.kind == "cheat" else notice.text
        return f"! {text}"
    return None


__all__ = ["notice_line"]
