"""Strong Fiat-Shamir transcripts.

Every challenge hashes the domain tag, the proof's name, the game id, the table id, the epoch,
the prover's seat, every public input and every first message of the prover, in a fixed order
(Bernhard, Pereira, Warinschi, "How Not to Prove Yourself", ASIACRYPT 2012: weak Fiat-Shamir
breaks soundness; the 2022 "Frozen Heart" disclosures are the same bug). A proof made for one
table, epoch or seat therefore fails everywhere else.

The transcript is an incremental SHA-512 over framed items ``frame(label, data)``; a challenge
is ``SHA-512(state || frame("challenge", label, index))`` read as an integer mod the group order
(512 bits reduced: bias below 2**-256).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from lancards.p2p.crypto.group import ORDER, Point, encode_scalar, frame

DOMAIN_TAG: Final[bytes] = b"lancards/mental-poker/v2"
"""The protocol's domain tag; first item of every transcript and every commitment."""


@dataclass(frozen=True, slots=True)
class ProofContext:
    """What binds a proof to its place: the table, the epoch and the prover.

    Attributes:
        game_id: the game's registry name (``level8-master``); also fixes the card points.
        table_id: the table's identifier, chosen by the peer layer (unique per table).
        epoch: 0 for the joint-key phase, then 1, 2, ... one per shuffle round.
        seat: the prover's seat.
    """

    game_id: str
    table_id: str
    epoch: int
    seat: int


@functools.lru_cache(maxsize=1024)
def _header(proof: str, context: ProofContext) -> Any:
    """The hash state after a transcript's fixed header (domain tag, proof name, game, table,
    epoch, seat), computed once per proof and context and copied for each transcript (the
    same bytes are absorbed, so the challenges are unchanged; a deal makes one transcript per
    decryption share, all with a few contexts)."""
    return hashlib.sha512(b"".join((
        frame(DOMAIN_TAG, proof.encode()),
        frame(b"game", context.game_id.encode()),
        frame(b"table", context.table_id.encode()),
        frame(b"epoch", context.epoch.to_bytes(8, "big", signed=True)),
        frame(b"seat", context.seat.to_bytes(8, "big", signed=True)),
    )))


class Transcript:
    """The Fiat-Shamir transcript of one proof.

    Args:
        proof: the proof's name (``"shuffle"``, ``"key"``, ``"decryption-share"``).
        context: table, epoch and prover seat.
    """

    __slots__ = ("_hash",)

    def __init__(self, proof: str, context: ProofContext) -> None:
        self._hash = _header(proof, context).copy()

    def append(self, label: str, data: bytes) -> None:
        """Absorb one labelled item."""
        self._hash.update(frame(label.encode(), data))

    def append_items(self, items: Sequence[tuple[bytes, bytes]]) -> None:
        """Absorb several labelled items at once, in order (the same bytes as one
        :meth:`append` per item, in one hash update)."""
        self._hash.update(b"".join(
            b"".join((len(label).to_bytes(4, "big"), label, len(data).to_bytes(4, "big"), data))
            for label, data in items
        ))

    def append_int(self, label: str, value: int) -> None:
        """Absorb a signed integer (8 bytes, big-endian, two's complement)."""
        self.append(label, value.to_bytes(8, "big", signed=True))

    def append_point(self, label: str, point: Point) -> None:
        """Absorb a point's SEC 1 encoding."""
        self.append(label, point.encode())

    def append_points(self, label: str, points: Sequence[Point]) -> None:
        """Absorb a list of points: its length, then every encoding in order."""
        self.append(label, len(points).to_bytes(4, "big") + b"".join(p.encode() for p in points))

    def append_scalar(self, label: str, scalar: int) -> None:
        """Absorb a scalar's 32-byte encoding."""
        self.append(label, encode_scalar(scalar))

    def challenge(self, label: str) -> int:
        """The challenge for everything absorbed so far (a scalar mod the group order)."""
        return self.challenges(label, 1)[0]

    def challenges(self, label: str, count: int) -> list[int]:
        """``count`` independent challenges for everything absorbed so far."""
        out = []
        tag = label.encode()
        for index in range(count):
            h = self._hash.copy()
            h.update(frame(b"challenge", tag, index.to_bytes(4, "big")))
            out.append(int.from_bytes(h.digest(), "big") % ORDER)
        return out
