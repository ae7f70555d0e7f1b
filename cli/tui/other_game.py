"""Another game with the same players at a table's end: the game-over panel offers the other
rule sets beside "play again" (``1``, ``2``... :func:`lancards.cli.play_again.other_games`).
At a host/join table the key answers "yes" naming that game (the others choose too; the
screen stays until the next game starts, ``docs/protocol.md`` 6.1). At a ``lancards play``
table the key says "no" to the same game, as ``q`` does, and closes the
screen with :data:`STATUS_OTHER`, after which ``lancards play`` opens a new table of that game
with the same players, each bot at its level (:meth:`lancards.cli.session_series.
SeriesMixin.other_session`)."""

from __future__ import annotations

import contextlib
from typing import Any

from lancards.cli.session import TableSnapshot

STATUS_OTHER = 11
"""The screen's end when the person picked another game (beside ``app.STATUS_AGAIN``)."""


def pick_other_game(screen: Any, snap: TableSnapshot, key: str) -> bool:
    """Handle ``key`` at the game's end if it picks another game (``snap.extra["again"]
    ["others"]``): the session's :meth:`choose_other`, then the screen closes. Whether it
    did."""
    again = snap.extra.get("again") or {}
    game = (again.get("others") or {}).get(key) if again.get("asked") else None
    if game is not None and again.get("choose"):  # host/join: "yes" naming it, over the links
        with contextlib.suppress(Exception):
            screen.session.play_again(True, game)
        return True
    if game is None or not hasattr(screen.session, "choose_other"):
        return False
    with contextlib.suppress(Exception):
        screen.session.choose_other(game)
        screen.app.exit(result=STATUS_OTHER)
    return True


async def following(session: Any, status: int, again: int) -> Any | None:
    """The session of the table that follows a screen closed with ``status``: the next game
    of the series (``again``: ``app.STATUS_AGAIN``), another game's new table
    (:data:`STATUS_OTHER`), else None."""
    if status == again:
        return await session.next_session()
    if status == STATUS_OTHER:
        return await session.other_session()
    return None
