"""At most one of a kind a window: the rule behind the log's limits on repeated lines (a
stranger's refused links, :mod:`lancards.p2p.net.refusal_limit`; void removal votes,
:class:`lancards.cli.notice_lines.VoidVoteLimit`). Sans-I/O: the caller passes the time."""

from __future__ import annotations

from collections.abc import Hashable


class Throttle:
    """Lets the first of each key through, then at most one a ``window`` (seconds) per key.

    Args:
        window: seconds after a key's last pass during which it is held back.
        most: keys remembered; past it, those whose window is over are forgotten.
    """

    def __init__(self, window: float, most: int = 1024) -> None:
        self.window, self.most = window, most
        self._passed: dict[Hashable, float] = {}  # key -> when it last passed

    def allow(self, key: Hashable, now: float) -> bool:
        """Whether ``key`` passes at ``now`` (a monotonic clock's seconds); a pass starts its
        window again."""
        last = self._passed.get(key)
        if last is not None and now - last < self.window:
            return False
        if len(self._passed) >= self.most:
            self._passed = {k: t for k, t in self._passed.items() if now - t < self.window}
        self._passed[key] = now
        return True


__all__ = ["Throttle"]
