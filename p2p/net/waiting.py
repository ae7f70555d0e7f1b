"""What the table waits for, as :class:`~lancards.p2p.net.node.PeerNode` tells a screen: a
disconnected or silent peer and what it owes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from lancards.p2p.net.reach import unreached_names

if TYPE_CHECKING:
    from lancards.p2p.protocol.core import GameCore, Notice

WHAT: dict[str, str] = {
    "action": "their move",
    "shuffle": "a shuffle",
    "key": "the joint key",
    "shares": "shares for a card",
    "open": "their card",
    "escrow": "a key escrow",
    "rescue": "rescue shares",
}
"""What the table waits for, by the kind of the next entry (:meth:`GameCore.expected`); the
screens say it in the player's language from :attr:`Waiting.kind` (``cli/peer_words.py``)."""

DRAW_SHARES = "draw-shares"
"""The :attr:`Waiting.kind` of a wait for the decryption shares of this seat's own draw."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for a disconnected or silent peer.

    Attributes:
        seat: its seat; ``nick``: its nickname.
        what: what it owes, e.g. ``"their move"``, ``"a shuffle"``, ``"shares for your draw"``.
        seconds: how long the wait has lasted for the table's patience (ruling D-5): since its
            link dropped, or since the last entry when that came later.
        connected: whether its link is up (``False``: disconnected; ``True``: silent).
        paused: it said it paused (``presence``; ``lancards resume`` brings it back).
        kind: what it owes as a code: a key of :data:`WHAT` (the kind of the entry due) or
            :data:`DRAW_SHARES`; ``what`` is its English words (logs, ``--verbose``).
        unreached: a connected, silent seat's word (its ``links`` message) on the seats it
            has no link to, by nickname (:func:`~lancards.p2p.net.reach.unreached_names`):
            what it is likely waiting for itself.
        since_entry: seconds since the table's last new entry (for a move: since the turn
            began, or since the player's last step of it); ``None``: :attr:`seconds`.
            :attr:`shown` is what the screens count.
    """

    seat: int
    nick: str
    what: str
    seconds: float
    connected: bool
    paused: bool = False
    kind: str = ""
    unreached: tuple[str, ...] = ()
    since_entry: float | None = None
    connecting: bool = False
    """Its link is not up yet, and this peer, catching up after a resume or a sleep, began
    less than :data:`CONNECT_CHANCE_S` seconds ago (:func:`first_chance`): not yet a seat
    with no connection."""

    @property
    def shown(self) -> float:
        """The seconds a screen shows: one clock per wait, from the last entry, whether the
        link is up or down (the LAN trial read ``cy, no connection (their move), 46 s``
        during cy's freeze, counted from the link's drop, then ``cy (their move), 110 s`` once
        cy was back, counted from the turn's start: the number jumped)."""
        return self.seconds if self.since_entry is None else self.since_entry

    def text(self) -> str:
        """``"waiting for bob (their move), 12 s"``; ``"waiting for bob, who paused (their
        move), 12 s"``; ``"waiting for bob (a shuffle), 12 s: bob has no connection to
        bot1"``."""
        who = f"{self.nick}, who paused" if self.paused else self.nick
        text = f"waiting for {who} ({self.what}), {self.shown:.0f} s"
        if self.unreached:
            text += f": {self.nick} has no connection to {', '.join(self.unreached)}"
        return text


CONNECT_CHANCE_S = 3.0
"""Seconds a peer catching up gives the links of the others to come up before a seat it waits
for is said to have no connection (a resumed table's screen read ``no connection (their move),
0 s`` under its "catching up" note before any link could be up)."""


def first_chance(core: GameCore, wait: Waiting | None, catching_up: bool,
                 down_since: dict[bytes, float], began: float, now: float) -> Waiting | None:
    """``wait`` marked :attr:`Waiting.connecting` while this peer is ``catching_up`` and
    began (``began``: monotonic seconds of its start, or of its wake after a sleep) less than
    :data:`CONNECT_CHANCE_S` seconds before ``now``, for a seat whose link has not come up and
    dropped since (``down_since``: :attr:`PeerNode.down_since`); ``wait`` as it is else."""
    if wait is None or wait.connected or not catching_up or now - began >= CONNECT_CHANCE_S:
        return wait
    key = core.players[wait.seat].public_key
    if down_since.get(key, began) > began:  # it was linked since, and lost: no connection
        return wait
    return replace(wait, connecting=True)


SILENT_S = 5.0
"""Seconds without a new entry before a connected peer the table waits for is named."""


def table_wait(core: GameCore, connected: set[bytes], down_since: dict[bytes, float],
               progress_at: float, now: float) -> Waiting | None:
    """The peer the table waits for, when it is disconnected or silent for :data:`SILENT_S`
    seconds (``progress_at``: monotonic seconds of the last new entry); ``None`` when nothing
    waits on a missing peer (:meth:`PeerNode.waiting`).

    When this seat is to act but a card it drew is still hidden (its decryption shares travel
    privately from the others), the wait names the first peer whose shares are missing:
    ``"shares for your draw"``. A silent seat that said it has no link to some seats
    (``links``) carries their names in :attr:`Waiting.unreached`.
    """
    expected = core.expected()
    if expected is None:
        return None
    seat, kind = expected
    what, code = WHAT.get(kind, kind), str(kind)
    if seat == core.seat:
        if kind != "action" or core.hand_ready():
            return None
        owing = sorted({d.seat for d in core.deck.debts()
                        if d.kind == "shares" and d.recipient == core.seat and d.seat != core.seat})
        if not owing:
            return None
        missing = [s for s in owing if core.players[s].public_key not in connected]
        seat, what, code = (missing or owing)[0], "shares for your draw", DRAW_SHARES
    key = core.players[seat].public_key
    if key not in connected:
        since = max(down_since.get(key, now), progress_at)
        return Waiting(seat, core.players[seat].nick, what, now - since, False,
                       seat in core.paused, code, since_entry=now - progress_at)
    if now - progress_at >= SILENT_S:
        return Waiting(seat, core.players[seat].nick, what, now - progress_at, True, kind=code,
                       unreached=unreached_names(core, seat))
    return None


def waiting_text(wait: Waiting | None, rescue: bool, patience: float) -> str | None:
    """What a screen says of ``wait``: :meth:`Waiting.text`; beyond ``patience`` seconds at a
    table without rescue (ruling D-5), ``"waiting for bob, 130 s; the table can only wait"``;
    ``None`` when nothing waits on a missing peer."""
    if wait is None:
        return None
    if not rescue and wait.shown >= patience:
        return f"waiting for {wait.nick}, {wait.shown:.0f} s; the table can only wait"
    return wait.text()


BACK_AFTER_S = 0.25
"""Seconds a seated peer's link must have been down for its return to be told (``"bob is
back"``): a crash and ``lancards resume`` (0.89 s at the quickest, in the persona test under
load: a 1 s bound missed it), a cable put back; a link replaced by a newer one (both ends
dialled at once: its drop and its return are one step) is not told."""


BACK_QUIET_S = 10.0
"""Seconds after a told return of a seat in which another return of it is told only after an
absence at least this long: a link that keeps dropping and coming back (a hostile seat, a
flaky cable, a process stopped and continued) is one return, not a line each time (the LAN
trial of 2026-12-08 read "Cyd is back" six times in a row, and "Ben is back" twice after one
SIGSTOP/SIGCONT)."""


def back_notice(core: GameCore, peer: bytes, dropped: dict[bytes, float], now: float,
                told: dict[bytes, int], last: dict[bytes, float] | None = None,
                started: float | None = None) -> Notice | None:
    """What to tell when ``peer``'s link comes up at ``now`` (monotonic seconds): an ``info``
    notice with code ``back`` naming its seat when the link had dropped in this process
    (``dropped``: when each peer's link last went down, a ``Disconnected`` event) at least
    :data:`BACK_AFTER_S` before, the seat is not paused (its ``presence`` notice says it is
    back), the table is not halted, and fewer than
    :data:`~lancards.p2p.protocol.presence.PRESENCE_TOLD` returns of that peer were told
    (``told``; a seat that drops its links on purpose cannot fill the others' logs); else
    ``None``. A first link (the start; a resumed peer meeting the others) has no drop before
    it. Takes ``peer`` out of ``dropped`` and counts in ``told``. The LAN trial of 2026-12-06:
    a crash and a resume told nobody (only a pause did). With ``last`` (when each peer's
    return was last told; kept up to date here), a return within :data:`BACK_QUIET_S` of the
    last one told is not told unless the absence lasted that long itself. Never of a seat that
    left or was removed (its client may link up to watch), nor, with ``started`` (when this
    peer began), of a link that dropped within :data:`BACK_QUIET_S` of that: the links a
    resumed peer makes at its own start are no one's return (the LAN trial: after ann's own
    kill -9 and resume her log said "bob is back", of a return minutes old)."""
    from lancards.p2p.protocol.core import Notice
    from lancards.p2p.protocol.presence import PRESENCE_TOLD

    since = dropped.pop(peer, None)
    seat = next((i for i, m in enumerate(core.players) if m.public_key == peer), None)
    if (since is None or now - since < BACK_AFTER_S or seat is None or seat in core.paused
            or core.halted or told.get(peer, 0) >= PRESENCE_TOLD
            or seat in core.left_seats()
            or (started is not None and since - started < BACK_QUIET_S)):
        return None
    if last is not None:
        if peer in last and now - last[peer] < BACK_QUIET_S and now - since < BACK_QUIET_S:
            return None  # back again a moment after its last return: one return
        last[peer] = now
    told[peer] = told.get(peer, 0) + 1
    return Notice("info", f"{core.players[seat].nick} is back", seat, code="back")


def alone_seconds(core: GameCore, connected: set[bytes], down_since: dict[bytes, float],
                  now: float) -> float | None:
    """How long (seconds, monotonic ``now``) no other seat still at the table has had a link
    up to this peer (``connected``: the keys linked; ``down_since``: when each link dropped,
    or when the peer began for one never linked, :attr:`PeerNode.down_since`); ``None`` while
    one is linked or every other seat left. What a resumed person is told when nobody of the
    table answers (the evening trial of 2026-12-06: "catching up" and nothing else)."""
    gone = set(core.left_seats())
    others = [m.public_key for i, m in enumerate(core.players) if i != core.seat and i not in gone]
    if not others or any(k in connected for k in others):
        return None
    return max(0.0, now - max(down_since.get(k, now) for k in others))


__all__ = ["BACK_AFTER_S", "BACK_QUIET_S", "CONNECT_CHANCE_S", "DRAW_SHARES", "SILENT_S", "WHAT",
           "Waiting", "alone_seconds", "back_notice", "first_chance", "table_wait",
           "waiting_text"]
