"""When a seat tells the others which seats it has no link to (the ``links`` message,
:meth:`~lancards.p2p.protocol.core.GameCore.links`): a partial mesh, where one seat reaches the
others but not every one of them, stalls a deal or a draw on a seat that is itself connected and
silent, and the others' screens blamed that seat alone (the LAN trial of 2026-12-06: a joiner
that could not reach the host's bot seat). ``docs/protocol.md``, "Presence".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lancards.p2p.protocol.core import GameCore

REACH_AFTER_S = 5.0
"""Seconds a link must have been down before it is reported missing (the mesh dials again
every second or so, so a reconnect or a replaced link is not reported)."""

REPORTS_MAX = 48
"""``links`` messages a peer sends in one game at most (each receiver hears 64): a link that
flaps is reported a few times, then no more."""


class LinkReport:
    """What this seat last told of its missing links, and when to tell again.

    :meth:`due` is asked after every wait for an event (about 5 times a second); it returns the
    seats to report when the set of seats this peer has had no link to for
    :data:`REACH_AFTER_S` seconds, among those still at the table and not paused, differs
    from the set last reported (at first: none), while at least one link is up (someone to
    tell). A finished or halted game reports nothing.
    """

    def __init__(self) -> None:
        self.told: frozenset[int] = frozenset()
        """The seats last reported missing."""
        self.sent = 0

    def due(self, core: GameCore, connected: Collection[bytes],
            down_since: Mapping[bytes, float], now: float) -> list[int] | None:
        """The seats to report now (sorted; ``[]``: the links are whole again), or ``None``.

        Args:
            core: this peer's game core (its seat, players, left and paused seats).
            connected: the public keys whose link is up.
            down_since: monotonic seconds each missing link has been down since (a peer never
                linked: since the node started).
            now: monotonic seconds.
        """
        if not connected or self.sent >= REPORTS_MAX or core.view_seat is None or \
                core.to_act() is None:
            return None
        gone = set(core.left_seats()) | set(core.paused)
        missing = frozenset(
            seat for seat, member in enumerate(core.players)
            if seat != core.seat and seat not in gone
            and member.public_key not in connected
            and now - down_since.get(member.public_key, now) >= REACH_AFTER_S)
        if missing == self.told:
            return None
        self.told = missing
        self.sent += 1
        return sorted(missing)


def unreached_names(core: GameCore, seat: int) -> tuple[str, ...]:
    """The nicknames of the seats ``seat`` said it has no link to (its last ``links`` message),
    without this seat (its own link to ``seat`` is up when it asks) and seats gone from the
    table; in seat order."""
    gone = set(core.left_seats())
    return tuple(core.players[s].nick for s in sorted(core.unreached.get(seat, ()))
                 if s != core.seat and s not in gone)


__all__ = ["REACH_AFTER_S", "REPORTS_MAX", "LinkReport", "unreached_names"]
