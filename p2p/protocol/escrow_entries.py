"""Key escrow in the record: the first step of the rescue of a seat that vanished (ruling D-5;
design "Leaving for good"; :mod:`lancards.p2p.crypto.escrow`). Part of
:class:`~lancards.p2p.protocol.core.GameCore`.

With the table option ``rescue`` on (a table of 3 or more), as soon as the joint key is ready each
present seat, in seat order, appends an ``escrow`` entry before anything else: the public
commitments ``S_ij = s_ij*G`` of an additive split of its key share among the other present
seats, and each part ``s_ij`` sealed to its holder ``j`` (X25519 + HKDF + ChaCha20-Poly1305,
purpose ``deck.escrow``) inside the entry, so the parts are in the record for a later rescue and
survive a crash. Every peer checks that the commitments add up to the dealer's public key share
(else the dealer is named a cheater: anyone can check it); each holder opens its part and checks
``s_ij*G = S_ij``: a bad part names the dealer on the holder's screen (a ``cheat`` notice; the
sealed part cannot be shown to the others, so the table does not halt) and that dealer cannot be
rescued. After a leave the parts the leaver held are lost, so every remaining dealer deals again
(its entry is due again at once) while 3 or more seats remain.

The vote and the rescue entries that use the parts are :mod:`lancards.p2p.protocol.rescue`. Not
built yet: the option's trade-off shown in the lobby.
"""

from __future__ import annotations

import json
from typing import Any

from lancards.engine.core import Seat
from lancards.p2p.crypto.errors import DeckError, InvalidMessageError
from lancards.p2p.crypto.group import Point, decode_point
from lancards.p2p.protocol.core_parts import CoreParts
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.schemas import EscrowPart, EscrowPayload, conform
from lancards.p2p.protocol.sealed import SealedPayload, open_sealed, seal
from lancards.p2p.protocol.wire import parse_json

ESCROW_PURPOSE = "deck.escrow"
"""The sealed-payload purpose of an escrowed key part."""

MIN_SEATS = 3
"""Key shares are escrowed while at least this many seats are present (with two, the one
other seat would hold the whole key share)."""


class Escrow(CoreParts):
    """Escrow entries (see the module docstring)."""

    @property
    def rescue(self) -> bool:
        """Whether this table escrows key shares (its signed option ``rescue`` is ``on``;
        :data:`lancards.p2p.protocol.statement.TABLE_OPTIONS`)."""
        return self.table.spec.options.get("rescue") == "on"

    def escrow_due(self) -> Seat | None:
        """The seat due to append an ``escrow`` entry now, or ``None``."""
        if not self.rescue or self.deck.joint_key is None:
            return None
        present = self.deck.present
        if len(present) < MIN_SEATS:
            return None
        for dealer in present:
            holders = sorted(s for s in present if s != dealer)
            if list(self.deck.escrow_holders(dealer)) != holders:
                return dealer
        return None

    def _make_escrow(self) -> dict[str, Any]:
        commitments, parts = self.deck.make_escrow()
        sealed = {}
        for holder, part in sorted(parts.items()):
            plaintext = json.dumps({"part": f"{part:064x}"}).encode()
            payload = seal(self.me, self.players[holder], self.table_id, ESCROW_PURPOSE,
                           plaintext, random_bytes=self._random)
            sealed[str(holder)] = payload.to_dict()
        return {"t": EntryKind.ESCROW.value,
                "commitments": {str(h): c.hex() for h, c in sorted(commitments.items())},
                "parts": sealed}

    def _apply_escrow(self, author: Seat, payload: EscrowPayload) -> None:
        """Check and keep ``author``'s escrow deal; open this seat's part.

        Raises:
            DeckError: a malformed commitment, commitments for the wrong seats or not adding
                up to the author's key share, or parts for other seats than the commitments
                (names ``author``).
        """
        commitments: dict[Seat, Point] = {}
        for key, value in payload.commitments.items():
            try:
                commitments[int(key)] = decode_point(bytes.fromhex(value))
            except (ValueError, DeckError) as exc:
                raise InvalidMessageError(f"seat {author} escrowed a bad commitment for seat "
                                          f"{key}: {exc}", seat=author) from None
        if sorted(payload.parts) != sorted(payload.commitments):
            raise InvalidMessageError(f"seat {author} sealed parts to seats "
                                      f"{sorted(payload.parts)}, not to its holders",
                                      seat=author)
        self.deck.accept_escrow(author, commitments)
        if author == self.seat:
            return  # its own deal, replayed from the journal: no part for itself
        mine = payload.parts.get(str(self.seat))
        if mine is None or self.view_seat is None:
            return
        try:
            self.deck.accept_escrow_part(author, self._open_part(author, mine))
        except (PeerError, DeckError) as exc:
            self._notice("cheat", f"{self.name(author)} dealt this seat a bad key escrow part "
                         f"(it cannot be rescued): {exc}", author, code="bad-escrow-part")

    def _open_part(self, author: Seat, data: Any) -> int:
        link = self.name(author)
        sealed = SealedPayload.from_dict(data, link)
        plaintext = open_sealed(self.me, sealed, self.players[author], table=self.table_id,
                                purpose=ESCROW_PURPOSE, link=link)
        part = conform(parse_json(plaintext, link, max_size=256), EscrowPart, link,
                       "escrow part")
        return int(part.part, 16)


__all__ = ["ESCROW_PURPOSE", "MIN_SEATS", "Escrow"]
