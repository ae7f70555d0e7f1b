"""At most one table line a minute for each remote address whose link never became a seated
peer's (the LAN re-check trial with a seated attacker, finding 2): an unseated stranger's 15 junk
connections were 15 lines ``! rejected message from 10.236.0.13:43340: handshake: bad JSON at
char 0: expecting value``, one per connection, since each is a new link. A refusal of a link with
no key known (a failed hello) or the key of someone not at the table is told on the table once a
minute per remote host (its port changes with each connection); the others go to the
``--verbose`` log only. A seated peer's refusals are all told (each closes a link it must open
again with a hello)."""

from __future__ import annotations

from lancards.p2p.net.failure_words import log
from lancards.p2p.net.link_refusal import refusal_notice
from lancards.p2p.net.throttle import Throttle
from lancards.p2p.net.transport import Rejected
from lancards.p2p.protocol.core import GameCore, Notice

WINDOW_S = 60.0
"""Seconds during which a remote host's further refusals stay off the table."""


def remote_host(address: str) -> str:
    """The host of a refused link's address: ``"10.236.0.13"`` from ``"10.236.0.13:43340"`` or
    ``"[UHN7-...] at 10.236.0.13:43340"``."""
    return address.rpartition(" at ")[2].rpartition(":")[0] or address


class RefusalLimit:
    """The node's refusals as notices, a stranger's at most once per :data:`WINDOW_S`."""

    def __init__(self, window: float = WINDOW_S) -> None:
        self._hosts = Throttle(window)  # by remote host

    def notice(self, event: Rejected, core: GameCore, now: float) -> Notice | None:
        """The ``rejected`` notice of ``event`` (``now``: a monotonic clock's seconds), or
        ``None`` when the same unseated remote host had a line less than a minute ago (its text
        then goes to the ``--verbose`` log)."""
        notice = refusal_notice(event.error, event.peer, core)
        if notice.seat is not None:
            return notice
        if self._hosts.allow(remote_host(event.address), now):
            return notice
        log.debug("not on the table (one line a minute per address): %s", notice.text)
        return None


__all__ = ["WINDOW_S", "RefusalLimit", "remote_host"]
