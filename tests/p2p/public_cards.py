"""What anyone holding a record can decrypt with no help: every decryption share the record
publishes (leaves, rescues, public shares, openings and the batches they forward), added up
per slot and subtracted from the slot's ciphertext as its epoch made it.

A slot decrypts when the shares of every seat with a layer on it are public: then
``a - sum(shares)`` is a card point (with overwhelming probability it is not otherwise)."""

from __future__ import annotations

from typing import Any

from lancards.p2p.crypto.elgamal import Ciphertext, card_points
from lancards.p2p.crypto.group import Point, decode_point, point_sum
from lancards.p2p.protocol.core import GameCore


def _shares_of(message: dict[str, Any]) -> list[tuple[int, int, Point]]:
    """(seat, slot, share) of a deck shares message (any recipient: a share is ``x_j * b``
    whoever it was proven for)."""
    return [(int(message["seat"]), int(item["slot"]),
             decode_point(bytes.fromhex(item["share"])))
            for item in message.get("shares", ())]


def public_cards(core: GameCore) -> dict[int, int]:
    """Every slot of ``core``'s record that the game never opened and that the public record
    alone decrypts, with its card index (replayed as an observer: only what an auditor
    sees)."""
    observer = GameCore.observer(core.table)
    first: dict[int, Ciphertext] = {}
    opened: set[int] = set()  # made public by the game itself
    shares: dict[int, dict[int, Point]] = {}
    rescue_parts: dict[tuple[int, int], list[Point]] = {}  # (vanished, slot) -> parts
    for entry in core.record.entries:
        payload = entry.payload
        kind = payload["t"]
        found: list[tuple[int, int, Point]] = []
        if kind in ("leave", "shares"):
            found = _shares_of(payload["msg"])
        elif kind == "open":
            for batch in payload["msg"].get("batches", ()):
                found += _shares_of(batch)
        elif kind == "action":
            for opening in payload["open"]:
                for batch in opening.get("batches", ()):
                    found += _shares_of(batch)
        elif kind == "rescue":
            for _seat, slot, part in _shares_of(payload["msg"]):
                rescue_parts.setdefault((payload["seat"], slot), []).append(part)
        for seat, slot, share in found:
            shares.setdefault(slot, {})[seat] = share
        observer.record.append(entry, observer.validator("test"))
        for slot, state in observer.deck._table.slots.items():
            if state.public:
                opened.add(slot)
            elif slot not in first:
                first[slot] = state.ciphertext
    present = set(observer.deck.present)
    for (vanished, slot), parts in rescue_parts.items():
        if vanished not in present:  # the removal completed: the parts add up to its share
            shares.setdefault(slot, {})[vanished] = point_sum(parts)
    points = {p.encode(): i for i, p in enumerate(card_points(core.rule_set, len(core.faces)))}
    out = {}
    for slot, ciphertext in first.items():
        got = shares.get(slot, {})
        if got and slot not in opened:
            card = points.get((ciphertext.a - point_sum(got.values())).encode())
            if card is not None:
                out[slot] = card
    return out


__all__ = ["public_cards"]
