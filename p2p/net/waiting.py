"""What the table waits for, as :class:`~lancards.p2p.net.node.PeerNode` tells a screen: a
disconnected or silent peer and what it owes."""

from __future__ import annotations

from dataclasses import dataclass

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
        seconds: how long the wait has lasted (since its link dropped or the last entry).
        connected: whether its link is up (``False``: disconnected; ``True``: silent).
        paused: it said it paused (``presence``; ``lancards resume`` brings it back).
        kind: what it owes as a code: a key of :data:`WHAT` (the kind of the entry due) or
            :data:`DRAW_SHARES`; ``what`` is its English words (logs, ``--verbose``).
    """

    seat: int
    nick: str
    what: str
    seconds: float
    connected: bool
    paused: bool = False
    kind: str = ""

    def text(self) -> str:
        """``"waiting for bob (their move), 12 s"``; ``"waiting for bob, who paused (their
        move), 12 s"``."""
        who = f"{self.nick}, who paused" if self.paused else self.nick
        return f"waiting for {who} ({self.what}), {self.seconds:.0f} s"


def waiting_text(wait: Waiting | None, rescue: bool, patience: float) -> str | None:
    """What a screen says of ``wait``: :meth:`Waiting.text`; beyond ``patience`` seconds at a
    table without rescue (ruling D-5), ``"waiting for bob, 130 s; the table can only wait"``;
    ``None`` when nothing waits on a missing peer."""
    if wait is None:
        return None
    if not rescue and wait.seconds >= patience:
        return f"waiting for {wait.nick}, {wait.seconds:.0f} s; the table can only wait"
    return wait.text()


__all__ = ["DRAW_SHARES", "WHAT", "Waiting", "waiting_text"]
