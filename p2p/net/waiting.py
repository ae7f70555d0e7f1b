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
"""What the table waits for, by the kind of the next entry (:meth:`GameCore.expected`)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for a disconnected or silent peer.

    Attributes:
        seat: its seat; ``nick``: its nickname.
        what: what it owes, e.g. ``"their move"``, ``"a shuffle"``, ``"shares for your draw"``.
        seconds: how long the wait has lasted (since its link dropped or the last entry).
        connected: whether its link is up (``False``: disconnected; ``True``: silent).
        paused: it said it paused (``presence``; ``lancards resume`` brings it back).
    """

    seat: int
    nick: str
    what: str
    seconds: float
    connected: bool
    paused: bool = False

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


__all__ = ["WHAT", "Waiting", "waiting_text"]
