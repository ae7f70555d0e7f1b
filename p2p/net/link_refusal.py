"""The refusal of a frame that closes a seated link before any door reads it (the LAN trial of
2026-12-08, finding 2): a frame above the size limit (WebSocket close 1009) or a text frame
(close 1003) closed the link with nothing on the screen or in the log, while every other bad
input is a ``rejected message from NAME: REASON`` line. The transport now reports each as a
:class:`~lancards.p2p.net.transport.Rejected` event naming the link's peer, with the reason
``oversized`` or ``bad-frame`` (``docs/protocol.md`` section 9): one line a link, since the link
is closed with it, so a flood of them cannot flood the log (each needs a new hello)."""

from __future__ import annotations

from typing import Any, Literal

from lancards.p2p.protocol.core import GameCore, Notice
from lancards.p2p.protocol.errors import FrameError, HandshakeError, Reason
from lancards.p2p.protocol.identity import describe


def link_refusal(channel: Any, kind: Literal["oversized", "text"], limit: int = 0) -> FrameError:
    """The error a link's closing frame is reported with: ``kind`` ``"oversized"`` (more than
    ``limit`` bytes) or ``"text"`` (a text frame; every frame is binary)."""
    if kind == "oversized":
        return FrameError(channel.name, Reason.OVERSIZED,
                          f"a frame larger than {limit} bytes closed the link"
                          ).with_code("frame-size", limit=limit)
    return FrameError(channel.name, Reason.BAD_FRAME,
                      "a text frame closed the link (every frame is binary)"
                      ).with_code("text-frame")


def refusal_notice(error: HandshakeError | FrameError, peer: bytes | None,
                   core: GameCore) -> Notice:
    """The ``rejected`` notice of a link's refusal (a transport ``Rejected`` event): a seated
    peer's link, named by fingerprint alone (``[UHN7-...] at 10.231.0.14:35184``), is named
    with its nickname as every other refusal line is (``eve [UHN7-...] at ...``), with its
    seat (the LAN trial with a seated attacker read the fingerprint only)."""
    seat = None if peer is None else core.seat_of(peer)
    bare = "" if peer is None else describe(peer)
    if seat is not None and error.sender.startswith(bare + " "):
        sender = str(core.players[seat]) + error.sender[len(bare):]
        error = type(error)(sender, error.reason, error.detail, error.seq).with_code(
            error.code, **error.params)  # what was wrong, for other languages
    return Notice("rejected", str(error), seat, error=error)


__all__ = ["link_refusal", "refusal_notice"]
