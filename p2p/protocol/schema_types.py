"""The basic shapes every schema is built of: bounds, hex strings, table ids, counters, and
the strict struct base (no unknown fields). :mod:`lancards.p2p.protocol.schemas` re-exports
them; :mod:`lancards.p2p.protocol.series_schemas` builds the rematch shapes on them."""

from __future__ import annotations

from typing import Annotated, Any, Final

from msgspec import Meta, Struct

MAX_DEPTH: Final = 16
"""The deepest nesting of arrays and objects any message or record line may have (the deepest
legitimate one, a shuffle entry inside a ``record.entry`` envelope, has 9)."""

MAX_INT: Final = 2**53 - 1
"""The largest integer magnitude in canonical JSON."""

MAX_SEATS: Final = 6
"""The most seats at a table."""

MAX_OPENS: Final = 16
"""The most card openings one action entry may carry (a level laid down opens at most 10)."""

MAX_DECK: Final = 108
"""The most cards in any rule set's deck (Level 8 Master; ``tests/p2p/test_hostile_doors.py``
checks every rule set against it)."""

MAX_SLOT_GENERATIONS: Final = MAX_SEATS
"""The most slot generations whose cards can all still be hidden at once: the first deal, and
one more at each departure, since 8s Rule! abandons the round and deals again from a fresh deck
when a seat leaves or is removed (ruling D-1) while the old generation's hidden cards stay
hidden; a table has at most ``MAX_SEATS - 1`` departures. (Level 8 reshuffles replace their
input slots, so its hidden cards never exceed one deck.)"""

MAX_SHARES: Final = MAX_DECK * MAX_SLOT_GENERATIONS
"""The most decryption shares one message may carry (a leave's or a rescue's public shares,
or a private-shares message): one per hidden slot, so never below the true maximum, every
slot of every generation (648; the third leave of a 6-seat 8s Rule! game carries 143, above
the former cap of 128: issue 23, situation 5). At about 45 bytes a share, 648 stay well
inside :data:`lancards.p2p.protocol.sealed.MAX_PLAINTEXT` and the message size limit."""

Hex32 = Annotated[str, Meta(pattern=r"\A[0-9a-f]{64}\Z")]
"""32 bytes in lowercase hex (an Ed25519 or X25519 key, a SHA-256 hash)."""
TableId = Annotated[str, Meta(pattern=r"\A[0-9a-f]{16}\Z")]
"""A table id: 16 lowercase hex digits."""
Seq = Annotated[int, Meta(ge=0, le=MAX_INT)]
"""A sequence number or count."""
Port = Annotated[int, Meta(ge=1, le=65535)]
"""A TCP port."""
Host = Annotated[str, Meta(min_length=1, max_length=253, pattern=r"\A[0-9A-Za-z.:%\-\[\]]+\Z")]
"""A host name or IPv4/IPv6 address as a peer announces it."""
StateHash = Annotated[str, Meta(pattern=r"\A[0-9a-f]{2,128}\Z")]
"""An engine state hash: 2 to 128 lowercase hex digits."""
Object = dict[str, Any]
"""A JSON object whose fields a later decoder checks."""


# Every pattern is anchored with ``\A`` and ``\Z``: msgspec searches with the pattern
# (``re.search``), and ``$`` also matches before a trailing newline, so ``"^[0-5]$"`` took a
# seat key ``"2\n"`` (issue 23, situation 9; tests/p2p/test_hostile_doors.py checks them all).


class _Strict(Struct, forbid_unknown_fields=True):
    """Every struct here: no unknown fields, every field required unless defaulted."""
