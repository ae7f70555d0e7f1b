"""A person who joins keeps the name they asked for; a host's own bot gives its name up.

``lancards host --bots N`` names its bots before anyone joins (Ada, Bram, ...: the names of
``lancards play``'s bots). A person who then joined with ``--name Ada`` became ``Ada 2``
(:func:`~lancards.p2p.protocol.identity.distinct_nick`; the new-user trial). Before the start, a
bot the host runs itself (:attr:`Lobby.own_bots <lancards.p2p.protocol.table.Lobby>`) with the
joiner's name (any case) is renamed instead, to the first of the host's spare bot names that
nobody has; the person is then named as before (numbered only when a person or the host has
the name). A bot of the host's that joins after a person took its name takes a spare name too.
The keys stay the seats' identities; only the names shown change.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from lancards.p2p.protocol.identity import PublicIdentity, distinct_nick


def bot_name(nick: str, taken: Sequence[str], spare: Sequence[str]) -> str:
    """A name for a host's own bot that asked for ``nick``: ``nick`` when none of ``taken``
    is it (any case), else the first of ``spare`` that none is, else ``nick`` numbered
    (``Ada 2``)."""
    used = {name.casefold() for name in taken}
    if nick.casefold() not in used:
        return nick
    return next((name for name in spare if name.casefold() not in used), None) or \
        distinct_nick(nick, taken)


def give_way(members: Sequence[PublicIdentity], nick: str, bots: Collection[bytes],
             spare: Sequence[str]) -> list[PublicIdentity]:
    """``members`` with each one whose key is in ``bots`` and whose name is ``nick`` (any case:
    a person joins with it) renamed by :func:`bot_name` to a name no other member has nor is
    ``nick``."""
    out = list(members)
    for i, member in enumerate(out):
        if member.public_key in bots and member.nick.casefold() == nick.casefold():
            taken = [m.nick for m in out if m is not member] + [nick]
            out[i] = replace(member, nick=bot_name(member.nick, taken, spare))
    return out


__all__ = ["bot_name", "give_way"]
