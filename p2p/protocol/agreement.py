"""Consistent broadcast of the record's entries: finding a fork within one round trip.

An author that signs two different entries with one number and sends each to different peers
(*equivocation*) splits the honest peers' records. The protocol core answers with an echo, the
"consistent broadcast" of Cachin, Guerraoui and Rodrigues, *Introduction to Reliable and Secure
Distributed Programming* (2nd ed., 2011), section 3.10: every peer that accepts an entry sends
``record.ack {seq, hash}`` to every peer other than its author. A peer that holds another hash
at that number answers the acker with its own signed entry (once per number and peer); the
acker then holds two signed entries of one author with one number: the evidence, which it keeps,
journals and broadcasts (``record.evidence``), and everyone halts naming the author. A peer that
has not yet got the entry and sees two different hashes acknowledged for it asks both ackers for
their entries (``record.sync``), and finds the pair itself. ``docs/protocol.md``, "Agreement",
gives the argument that every honest peer finds a fork within one round trip after the acks and
that only the author of the two entries can be named.

This module holds the bookkeeping, bounded, and every bound is charged to the peer whose own
message used it (an acknowledgement reaches this peer only from its acker's authenticated link,
:mod:`lancards.p2p.protocol.channel`), so no peer can spend another's: acks are kept only for
numbers within :data:`ACK_WINDOW` of the record's length, at most one per seat and number; an entry
is sent to a seat in answer to its disagreeing ack at most once per number (:meth:`may_reply`); a
seat is asked for an entry this peer lacks at most once per number (:meth:`may_ask`); and catch-up
(``record.sync``) sends each entry at most once per link-up of the asker. A bound reached never
hides a fork: the answer it stops was already given to that very seat for that very number (issue
23, situation 2: with one budget per peer for the whole game, a hostile seat spent the honest peers'
budgets with bogus acks, then forked unseen).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

ACK_WINDOW: Final = 64
"""Acks for numbers at most this far beyond the record's length are kept; others dropped."""


@dataclass
class Agreement:
    """What the other seats acknowledged, and what was sent to each in answer.

    Attributes:
        acks: entry number -> seat -> the hash that seat acknowledged first (numbers this peer
            does not hold yet).
        replied: ``(seat, number)`` pairs: this peer's entry of that number was sent to that
            seat because the seat's ack disagreed.
        synced: seat -> entries below this number were already sent to it by catch-up since its
            link came up.
        shares_resent: seat -> the record length when its private shares were last resent.
        asked: ``(seat, number)`` pairs: that seat was asked (``record.sync``) for that number,
            which this peer lacks.
    """

    n: int
    acks: dict[int, dict[int, str]] = field(default_factory=dict)
    replied: set[tuple[int, int]] = field(default_factory=set)
    synced: dict[int, int] = field(default_factory=dict)
    shares_resent: dict[int, int] = field(default_factory=dict)
    asked: set[tuple[int, int]] = field(default_factory=set)

    def link_up(self, seat: int) -> None:
        """The link to ``seat`` came (back) up: catch-up may send it everything again."""
        self.synced.pop(seat, None)
        self.shares_resent.pop(seat, None)

    def may_reply(self, seat: int, seq: int) -> bool:
        """Whether to send ``seat`` this peer's entry ``seq`` because its ack of ``seq``
        disagrees (once per seat and number; counts it)."""
        if (seat, seq) in self.replied:
            return False
        self.replied.add((seat, seq))
        return True

    def may_ask(self, seat: int, seq: int) -> bool:
        """Whether to ask ``seat`` for entry ``seq``, which this peer lacks (once per seat and
        number; counts it)."""
        if (seat, seq) in self.asked:
            return False
        self.asked.add((seat, seq))
        return True

    def hold(self, seat: int, seq: int, digest: str, length: int) -> list[int]:
        """Keep ``seat``'s ack of an entry this peer lacks (its first one for that number).

        Returns:
            The seats to ask for entry ``seq`` (``record.sync``): once different hashes were
            acknowledged for it, every acker not asked for it yet (empty otherwise).
        """
        if seq >= length + ACK_WINDOW:
            return []
        acks = self.acks.setdefault(seq, {})
        acks.setdefault(seat, digest)
        if len(set(acks.values())) < 2:
            return []
        return [s for s in sorted(acks) if self.may_ask(s, seq)]

    def ask_gap(self, seat: int, seq: int, length: int) -> bool:
        """Whether to ask ``seat``, which acknowledged entry ``seq`` this peer lacks, for the
        entries from this peer's length on (once per acker and number, within the window): a
        peer whose copy was lost or refused learns of it from the acks, and an acker that
        never answers spends only its own asks."""
        if seq >= length + ACK_WINDOW:
            return False
        return self.may_ask(seat, seq)

    def settled(self, seq: int, digest: str) -> list[int]:
        """Entry ``seq`` with hash ``digest`` was appended: the seats whose acks disagree (each
        to be sent the entry, once)."""
        for old in [s for s in self.acks if s < seq]:
            del self.acks[old]
        self.asked = {a for a in self.asked if a[1] > seq}
        acks = self.acks.pop(seq, {})
        return [s for s, h in sorted(acks.items()) if h != digest and self.may_reply(s, seq)]

    def catch_up(self, seat: int, have: int, length: int) -> range:
        """The entries to send ``seat`` for its ``record.sync {have}``: each at most once per
        link-up (a repeated request costs nothing)."""
        start = max(have, self.synced.get(seat, 0))
        if start >= length:
            return range(0)
        self.synced[seat] = length
        return range(start, length)

    def may_resend_shares(self, seat: int, length: int) -> bool:
        """Private shares are resent to ``seat`` at most once per record length and link-up."""
        if self.shares_resent.get(seat) == length:
            return False
        self.shares_resent[seat] = length
        return True


__all__ = ["ACK_WINDOW", "Agreement"]
