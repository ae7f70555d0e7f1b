"""The protocol core's reaction to the deck's events and to engine steps (a part of
:class:`~lancards.p2p.protocol.core.GameCore`): a completed shuffle epoch, a card revealed or
learned privately, the private reveals the engine's last step calls for."""

from __future__ import annotations

from typing import Any

from lancards.engine.core import ALL_SEATS, Reveal, Seat, Shuffle, SlotId
from lancards.p2p.crypto.deck import (
    CardLearned,
    CardOpened,
    CardRevealed,
    DeckEvent,
    EpochComplete,
    ShuffleVerified,
)
from lancards.p2p.protocol.core_parts import CoreParts


class DeckEvents(CoreParts):
    """The deck's events applied to the engine state (a part of the core)."""

    def _take_deck_events(self, opened_ok: bool = False) -> None:
        for event in self.deck.take_events():
            self._on_deck_event(event, opened_ok)

    def _on_deck_event(self, event: DeckEvent, opened_ok: bool) -> None:
        if isinstance(event, EpochComplete):
            self._state = self._engine(Shuffle(None))
            self.progress = ""
            self._after_engine_change()
        elif isinstance(event, CardRevealed) or (isinstance(event, CardOpened) and opened_ok):
            self._state = self._engine(Reveal(event.slot, self.faces[event.card]))
            self._after_engine_change()
        elif isinstance(event, CardLearned):
            self._state = self.game.learn(self._state, event.slot, self.faces[event.card])
        elif isinstance(event, ShuffleVerified):
            self.progress = self._shuffle_progress(event.seat, "verified")

    def _engine(self, action: Any) -> Any:
        return self.game.view(self.game.apply(self._state, action), self.view_seat)

    def _after_engine_change(self) -> None:
        """Request the private reveals the engine's last step calls for (deal, draw)."""
        for slot, mask in self.game.knowledge(self._state).items():
            if mask == 0 or mask == ALL_SEATS or mask & (mask - 1):
                continue
            if slot in self._requested or self.deck.is_public(slot):
                continue
            if self.deck.ciphertext(slot) is None:
                continue
            holder = mask.bit_length() - 1
            self._requested.add(slot)
            self._private_for[holder].add(slot)
            self.deck.request_private([slot], holder)
        self._state = self.game.view(self._state, self.view_seat)

    def _holder(self, slot: SlotId) -> Seat | None:
        mask = self.game.knowledge(self._state).get(slot, 0)
        if mask and mask != ALL_SEATS and not mask & (mask - 1):
            return mask.bit_length() - 1
        return None

