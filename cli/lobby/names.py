"""A joiner's name at the table, when another member had it.

A lobby's host gives a joiner whose nickname another member has (any case) a number
(:func:`lancards.p2p.protocol.identity.distinct_nick`: ``root 2``): three friends trying
lancards in three windows of one machine all joined as its user, ``root``, and every screen
showed ``root`` three times (the trial). The keys stay the seats' identities; only the name shown
changes, and the joiner's waiting screen says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lancards.cli.i18n import _
from lancards.p2p.protocol.identity import Identity, PublicIdentity


def seated_nick(me: Identity, members: Iterable[PublicIdentity]) -> str:
    """The name ``me`` has among ``members`` (the roster, the seats), else its own."""
    return next((m.nick for m in members if m.public_key == me.public_key), me.nick)


def seated_me(me: Identity, members: Iterable[PublicIdentity]) -> Identity:
    """``me`` under the name the table gives it (the same key)."""
    nick = seated_nick(me, members)
    return me if nick == me.nick else me.with_nick(nick)


def renamed_line(me: Identity, members: Iterable[PublicIdentity]) -> str | None:
    """The waiting screen's line when the table shows ``me`` under another name, else None."""
    nick = seated_nick(me, members)
    if nick == me.nick:
        return None
    return _("{name} is taken at this table: you play as {shown} (lancards join --name NAME "
             "chooses your name)").format(name=me.nick, shown=nick)


def tell_renamed(args: Any, session: Any) -> None:
    """Put ``args.renamed`` (:func:`renamed_line` of the start, set by ``join_table``) in the
    table's log (``session.tell``), once: a joiner that fills the last seat never sees the
    waiting screen that says it (the trial of 2026-12-07 found "ann 2 (you)" and no word why);
    ``--autoplay`` printed it with the waiting lines already."""
    renamed = getattr(args, "renamed", None)
    if renamed:
        session.tell(renamed)
        args.renamed = None  # not again at the next game of the evening


__all__ = ["renamed_line", "seated_me", "seated_nick", "tell_renamed"]
