"""When a peer says "no" to a removal, and when it may vote again: the clock side of the vote's
state machine (``docs/protocol.md`` 11.10; issue 23). Sans-I/O: the caller passes the time
(seconds, any monotonic origin) and its own view of its links; the signed messages are
:mod:`lancards.p2p.protocol.rescue`'s.

A peer withdraws ("no", :meth:`lancards.p2p.protocol.core.GameCore.withdraw_vote`) from a round of
votes to remove seat ``V`` at the record's current position, whether it voted or not, when

* ``V``'s link to it is up: ``V`` is connected to it (ruling D-5 never removes a connected
  player), so the voter's silence was a link failure elsewhere, or ``V`` came back; or
* the round is :data:`life` old here (first seen that long ago) and the removal has not begun:
  every remaining seat must sign within a vote's life.

The round's rescuer voids the round on the first "no" it holds, which frees every voter. After
a void a peer does not vote against ``V`` at the same position again until the patience has
passed once more (a link failure that lasts does not make a vote every second).
"""

from __future__ import annotations

from collections.abc import Callable

from lancards.engine.core import Seat
from lancards.p2p.protocol.core import GameCore


class RemovalPolicy:
    """The withdrawal and re-vote timing of one peer (see the module docstring).

    Args:
        life: a round's life in seconds (the table's patience: every remaining seat has had
            the patience to see the same silence).
    """

    def __init__(self, life: float) -> None:
        self.life = life
        self._seen: dict[tuple[Seat, int, str, int], float] = {}
        self._void_seen: dict[tuple[Seat, int, str], tuple[int, float]] = {}

    def withdrawals(self, core: GameCore, link_up: Callable[[Seat], bool], now: float
                    ) -> list[Seat]:
        """The seats this peer should say "no" about now (ascending): see the module
        docstring. ``link_up(seat)``: whether this peer's link to ``seat`` is up."""
        if not core.has_say or core.removing is not None or core.halted is not None:
            return []  # (a seat that left or was removed and watches says nothing)
        at, head = len(core.record), core.record.head
        self._seen = {k: t for k, t in self._seen.items() if k[1] >= at}
        due = []
        for seat, (rnd, _signers) in sorted(core.live_rounds().items()):
            if seat == core.seat:
                continue  # votes to remove this very seat: it has no say (nor need: it is here)
            key = (seat, at, head, rnd)
            first = self._seen.setdefault(key, now)
            if core.withdrew(seat):
                continue
            if link_up(seat) or now - first >= self.life:
                due.append(seat)
        return due

    def may_vote(self, core: GameCore, seat: Seat, now: float, patience: float) -> bool:
        """Whether a vote against ``seat`` here is not too soon after a void of its previous
        round at this position (``patience`` seconds must pass again)."""
        at, head = len(core.record), core.record.head
        rnd = core.vote_round(seat)
        if rnd == 0:
            return True
        key = (seat, at, head)
        seen = self._void_seen.get(key)
        if seen is None or seen[0] != rnd:
            self._void_seen = {k: v for k, v in self._void_seen.items() if k[1] >= at}
            self._void_seen[key] = (rnd, now)
            return False
        return now - seen[1] >= patience


__all__ = ["RemovalPolicy"]
