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

This module holds the bookkeeping, bounded: acks are kept only for numbers within
:data:`ACK_WINDOW` of the record's length, each peer gets at most :data:`MAX_FORK_REPLIES`
answers, and catch-up (``record.sync``) sends each entry at most once per link-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

ACK_WINDOW: Final = 64
"""Acks for numbers at most this far beyond the record's length are kept; others dropped."""

MAX_FORK_REPLIES: Final = 4
"""At most this many entries are sent to one peer in answer to acks that disagree."""


@dataclass
class Agreement:
    """What the other seats acknowledged, and what was sent to each in answer.

    Attributes:
        acks: entry number -> seat -> the hash that seat acknowledged (numbers this peer does
            not hold yet).
        replies: seat -> how many entries were sent to it because its ack disagreed.
        synced: seat -> entries below this number were already sent to it by catch-up since its
            link came up.
        shares_resent: seat -> the record length when its private shares were last resent.
        asked: numbers this peer lacks and already asked an acker for.
    """

    n: int
    acks: dict[int, dict[int, str]] = field(default_factory=dict)
    replies: dict[int, int] = field(default_factory=dict)
    synced: dict[int, int] = field(default_factory=dict)
    shares_resent: dict[int, int] = field(default_factory=dict)
    asked: set[int] = field(default_factory=set)

    def link_up(self, seat: int) -> None:
        """The link to ``seat`` came (back) up: catch-up may send it everything again."""
        self.synced.pop(seat, None)
        self.shares_resent.pop(seat, None)

    def may_reply(self, seat: int) -> bool:
        """Whether one more disagreeing ack of ``seat`` is answered (and count it)."""
        count = self.replies.get(seat, 0)
        if count >= MAX_FORK_REPLIES:
            return False
        self.replies[seat] = count + 1
        return True

    def hold(self, seat: int, seq: int, digest: str, length: int) -> list[int]:
        """Keep ``seat``'s ack of an entry this peer lacks.

        Returns:
            The seats to ask for entry ``seq`` (``record.sync``) because two different hashes
            were acknowledged for it (empty otherwise).
        """
        if seq >= length + ACK_WINDOW:
            return []
        acks = self.acks.setdefault(seq, {})
        acks.setdefault(seat, digest)
        if len(set(acks.values())) < 2:
            return []
        return [s for s in sorted(acks) if self.may_reply(s)]

    def ask_gap(self, seq: int, length: int) -> bool:
        """Whether to ask an acker for entry ``seq``, which this peer lacks (once per number,
        within the window): a peer whose copy was lost or refused learns of it from the acks."""
        if seq >= length + ACK_WINDOW or seq in self.asked:
            return False
        self.asked.add(seq)
        return True

    def settled(self, seq: int, digest: str) -> list[int]:
        """Entry ``seq`` with hash ``digest`` was appended: the seats whose acks disagree."""
        for old in [s for s in self.acks if s < seq]:
            del self.acks[old]
        self.asked = {s for s in self.asked if s > seq}
        acks = self.acks.pop(seq, {})
        return [s for s, h in sorted(acks.items()) if h != digest and self.may_reply(s)]

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


__all__ = ["ACK_WINDOW", "MAX_FORK_REPLIES", "Agreement"]
