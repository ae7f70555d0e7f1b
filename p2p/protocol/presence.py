"""A person paused, a person is back (issue 25, item 9): the ``presence`` message and what the
others are told; and a person's chat line. Part of :class:`~lancards.p2p.protocol.core.GameCore`.

A seat that pauses (its person pressed q, y; the process ends and ``lancards resume`` brings it
back) sends ``presence {"state": "paused"}`` to every other seat just before it closes its
links. Being back needs no message: the first link that comes up from a seat marked paused
ends the mark (a paused process has no links). Nothing here touches the record: a lie costs
only words on the others' screens, so a presence message is never a cheat; a seat may be told
paused at most :data:`PRESENCE_TOLD` times a game (a hostile seat cannot fill the others' logs),
and a seat that has left the table, or this seat itself, is never marked.

A seat that has had no link to some other seat for a while (a firewall, another subnet: the
mesh is partial) says which in a ``links {"missing": [2]}`` message to every other seat, and
again, ``{"missing": []}``, once its links are whole (:class:`~lancards.p2p.net.reach.
LinkReport` decides when). A screen that waits for that seat then says why it is silent
("cyd has no connection to bot1") instead of blaming it alone (the LAN trial of 2026-12-06).
Words only, as a pause: a lie costs the liar's own waiting line; a seat is heard at most
:data:`LINKS_TOLD` times a game, and a list naming the sender itself or a seat the table does
not have is rejected and named. ``docs/protocol.md``, "Presence".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lancards.engine.core import Seat
from lancards.p2p.protocol.core_parts import CoreParts, Output
from lancards.p2p.protocol.errors import Reason, RemoteProtocolError

PRESENCE_TOLD = 16
"""The "paused" notices told of one seat in one game; later ones change nothing."""

LINKS_TOLD = 64
"""The ``links`` messages heard from one seat in one game; later ones change nothing (a seat
whose link to another flaps sends one each time the set changes, a few a minute at most)."""


class Presence(CoreParts):
    """Who paused (see the module docstring)."""

    paused: set[Seat]
    """The seats that said they paused and whose link has not come back since."""
    _presence_told: dict[Seat, int]
    unreached: dict[Seat, frozenset[Seat]]
    """By seat, the seats it said it has no link to (its last ``links`` message; none when
    empty)."""
    _links_told: dict[Seat, int]

    def _init_presence(self) -> None:
        self.paused = set()
        self._presence_told = {}
        self.unreached = {}
        self._links_told = {}

    def pause(self) -> list[Output]:
        """Tell every other seat that this person paused (sent over the links still up; the
        adapter closes its links once they are written). Nothing on an observer's core.

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).
        """
        if self.view_seat is not None and not self._halted:
            self._send(None, "presence", {"state": "paused"})
        return self._flush()

    def links(self, missing: Sequence[Seat]) -> list[Output]:
        """Tell every other seat which seats this peer has no link to (``missing``, seat
        numbers, at most 6; ``[]``: its links are whole again). Nothing on an observer's or a
        halted core.

        Returns:
            The outputs to carry out (as :meth:`GameCore.start`).
        """
        if self.view_seat is not None and not self._halted:
            self._send(None, "links", {"missing": sorted(set(missing))})
        return self._flush()

    def chat(self, text: str) -> list[Output]:
        """Send a chat line (at most 200 characters) to every other peer."""
        text = text.strip()[:200]
        if text:
            self._send(None, "chat", {"text": text})
            self._notice("chat", text, self.seat)
        return self._flush()

    def _on_presence(self, seat: Seat, body: dict[str, Any]) -> None:
        """``seat`` says it paused (the schema allows only ``"paused"``): marked, and told in one
        ``presence`` notice (text ``"paused"``) unless already marked or told too often."""
        if seat == self.seat or seat in self.paused or seat in self.game.left_seats(self._state):
            return
        told = self._presence_told.get(seat, 0)
        if told >= PRESENCE_TOLD:  # the schema let only "paused" through
            return
        self._presence_told[seat] = told + 1
        self.paused.add(seat)
        self._notice("presence", "paused", seat)

    def _on_links(self, seat: Seat, missing: list[int], link: str) -> None:
        """``seat`` says it has no link to the seats ``missing`` (the schema bounds the list to
        6 seat numbers): kept in :attr:`unreached` for the waiting lines.

        Raises:
            RemoteProtocolError: (``malformed``) a seat number the table does not have, the
                sender's own seat, or a seat named twice.
        """
        bad = [s for s in missing if s >= len(self.players) or s == seat]
        if bad or len(set(missing)) != len(missing):
            if bad:
                raise RemoteProtocolError(link, Reason.MALFORMED,
                                          f"a links message naming seat {bad[0]}").with_code(
                                              "links-seat", seat=bad[0])
            raise RemoteProtocolError(link, Reason.MALFORMED,
                                      "a links message naming a seat twice").with_code(
                                          "links-twice")
        told = self._links_told.get(seat, 0)
        if seat == self.seat or told >= LINKS_TOLD:
            return
        self._links_told[seat] = told + 1
        if missing:
            self.unreached[seat] = frozenset(missing)
        else:
            self.unreached.pop(seat, None)

    def _presence_back(self, seat: Seat) -> None:
        """A link from ``seat`` came up: a seat marked paused is back (a ``presence`` notice,
        text ``"back"``)."""
        if seat in self.paused:
            self.paused.discard(seat)
            self._notice("presence", "back", seat)


__all__ = ["LINKS_TOLD", "PRESENCE_TOLD", "Presence"]
