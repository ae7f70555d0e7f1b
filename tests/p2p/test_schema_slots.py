"""Slots past 4095 in sealed private shares (a CI hang, 2026-11-30): a long Level 8 Master
round with 60 reshuffles of the discard pile drew slot 4096, the schema of ``deck.shares``
refused its shares, and the drawer waited for ever. Slots are bounded like every deck
message's integers (below 2**31)."""

from __future__ import annotations

import pytest

from lancards.p2p.protocol.errors import MessageError
from lancards.p2p.protocol.schemas import PrivateShares, conform

SHARE = {"share": "02" + "11" * 32}
PROOF = {"c": "00" * 32, "z": "00" * 32}


@pytest.mark.parametrize("slot", [0, 4095, 4096, 40_000, (1 << 31) - 1])
def test_private_shares_take_any_slot_a_long_game_reaches(slot):
    body = {"type": "shares", "seat": 1, "recipient": 0, "shares": [{"slot": slot, **SHARE}],
            "proof": PROOF}
    assert conform(body, PrivateShares, "bob", "deck.shares").shares[0].slot == slot


@pytest.mark.parametrize("slot", [-1, 1 << 31])
def test_private_shares_refuse_slots_no_deck_message_has(slot):
    body = {"type": "shares", "seat": 1, "recipient": 0, "shares": [{"slot": slot, **SHARE}],
            "proof": PROOF}
    with pytest.raises(MessageError, match="slot"):
        conform(body, PrivateShares, "bob", "deck.shares")
