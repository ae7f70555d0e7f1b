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
    """

    seat: int
    nick: str
    what: str
    seconds: float
    connected: bool

    def text(self) -> str:
        """``"waiting for bob (their move), 12 s"``."""
        return f"waiting for {self.nick} ({self.what}), {self.seconds:.0f} s"


__all__ = ["WHAT", "Waiting"]
