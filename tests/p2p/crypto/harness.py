"""An in-memory table of deck coordinators, one per seat, wired like the peer layer would.

Every message goes through ``json.dumps``/``json.loads`` (it must be a plain JSON value). A
private ``shares`` message reaches its recipient only; everything else reaches every other seat.
Cheating tests take a message out of :meth:`Table.outbox`, tamper with it, then deliver it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lancards.p2p.crypto.coordinator import DeckCoordinator
from lancards.p2p.crypto.deck import DeckEvent, TableParams
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.crypto.messages import Message
from lancards.p2p.crypto.proofs import PUBLIC

GAME = "test-game"


def wire(message: Message) -> Any:
    """The message as the receiver gets it: canonical JSON text, parsed again."""
    return json.loads(json.dumps(message, sort_keys=True, separators=(",", ":")))


class Table:
    """``n_seats`` coordinators with seeded randomness (seed ``f"{seed}/{seat}"``).

    Attributes:
        peers: the coordinators, by seat.
        events: every event each seat reported, by seat.
        log: every message delivered, as ``(sender, recipients, wire value)``.
    """

    def __init__(
        self,
        n_seats: int,
        n_cards: int,
        *,
        seed: str = "seed",
        table_id: str = "table-1",
        game_id: str = GAME,
    ) -> None:
        self.params = TableParams(game_id, table_id, n_seats, n_cards)
        self.peers = [
            DeckCoordinator(self.params, seat, SeededRandomBytes(f"{seed}/{seat}"))
            for seat in range(n_seats)
        ]
        self.events: list[list[DeckEvent]] = [[] for _ in range(n_seats)]
        self.log: list[tuple[int, tuple[int, ...], Any]] = []
        self.intercept: Callable[[int, int, Any], Any] | None = None
        """``intercept(index, sender, value)`` may replace the ``index``-th message delivered."""

    @property
    def seats(self) -> range:
        return range(self.params.n_seats)

    def deliver(self, sender: int, message: Any, recipients: Sequence[int] | None = None) -> None:
        """Deliver ``message`` from ``sender`` to ``recipients`` (default: every other seat)."""
        targets = (
            tuple(s for s in self.seats if s != sender) if recipients is None else tuple(recipients)
        )
        value = wire(message)
        if self.intercept is not None:
            value = self.intercept(len(self.log), sender, value)
        self.log.append((sender, targets, value))
        for seat in targets:
            self.peers[seat].accept(sender, value)
        self.collect()

    def collect(self) -> None:
        for seat in self.seats:
            self.events[seat].extend(self.peers[seat].take_events())

    def run_keys(self) -> None:
        """The joint-key phase: every commitment, then every reveal."""
        for seat in self.seats:
            self.deliver(seat, self.peers[seat].make_key_commit())
        for seat in self.seats:
            self.deliver(seat, self.peers[seat].make_key_reveal())

    def begin(
        self, slots: Sequence[int], first_new_slot: int, open_cards: Mapping[int, int] | None = None
    ) -> None:
        for peer in self.peers:
            peer.begin_shuffle(slots, first_new_slot, open_cards)

    def run_shuffle(
        self,
        slots: Sequence[int],
        first_new_slot: int,
        open_cards: Mapping[int, int] | None = None,
        *,
        tamper: Callable[[int, Message], Message] | None = None,
    ) -> None:
        """A whole shuffle epoch; ``tamper(seat, message)`` may alter a seat's message."""
        self.begin(slots, first_new_slot, open_cards)
        for seat in self.seats:
            message = self.peers[seat].make_shuffle()
            if tamper is not None:
                message = tamper(seat, message)
            self.deliver(seat, message)

    def run_initial(self) -> None:
        """Keys, then the first epoch over the canonical deck in slots ``0..N-1``.

        The new slots are ``N..2N-1``.
        """
        n = self.params.n_cards
        self.run_keys()
        self.run_shuffle(range(n), n, {slot: slot for slot in range(n)})

    def send_owed_shares(self) -> None:
        """Every seat sends every share it owes: private ones to the holder alone."""
        for seat in self.seats:
            for recipient, message in self.peers[seat].make_owed_shares():
                self.deliver(seat, message, None if recipient == PUBLIC else [recipient])

    def deal(self, hands: Mapping[int, Sequence[int]]) -> None:
        """Private reveals: ``hands[holder]`` are the holder's slots."""
        for holder, slots in hands.items():
            for peer in self.peers:
                peer.request_private(slots, holder)
        self.send_owed_shares()

    def reveal(self, slots: Sequence[int]) -> None:
        """Public reveals of ``slots``."""
        for peer in self.peers:
            peer.request_public(slots)
        self.send_owed_shares()

    def open(self, seat: int, slot: int) -> None:
        """``seat`` opens a card it holds."""
        self.deliver(seat, self.peers[seat].make_open(slot))
