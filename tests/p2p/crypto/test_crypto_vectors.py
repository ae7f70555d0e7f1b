"""A fixed transcript, byte for byte: a change to an encoding or a hash cannot pass unnoticed.

Two seats, the five-card game ``test-vector``, seeds ``vector/0`` and ``vector/1``: the joint key,
one shuffle epoch (slots 0..4 become 5..9), slot 5 dealt to seat 0 and slot 6 to seat 1, slot 7
revealed publicly, then seat 0 opens slot 5. Every message is one line of canonical JSON
(sorted keys, no spaces) in ``vectors/deck-transcript-v2.jsonl``. After an intended change of
the protocol, regenerate it with ``python -m tests.p2p.crypto.test_crypto_vectors --write``
(and bump the domain tag's version).
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lancards.p2p.crypto.errors import PeerFaultError

from .harness import Table

VECTOR = Path(__file__).parent / "vectors" / "deck-transcript-v2.jsonl"


def scenario(table: Table) -> None:
    table.run_initial()
    table.deal({0: [5], 1: [6]})
    table.reveal([7])
    table.open(0, 5)


def new_table() -> Table:
    return Table(2, 5, seed="vector", table_id="vector-table", game_id="test-vector")


def transcript() -> tuple[Table, bytes]:
    table = new_table()
    scenario(table)
    lines = [
        json.dumps({"from": s, "message": v, "to": list(r)}, sort_keys=True, separators=(",", ":"))
        for s, r, v in table.log
    ]
    return table, ("\n".join(lines) + "\n").encode()


def test_transcript_matches_byte_for_byte() -> None:
    table, data = transcript()
    expected = VECTOR.read_bytes()
    assert data == expected, "the deck transcript changed; see this module's docstring"
    assert hashlib.sha256(data).hexdigest() == (
        "1393ab4f26d80e7636138ed228a3579d9c6942019b5ae7d8340d2530fe470a41"
    )
    joint_key = table.peers[1].joint_key
    assert joint_key is not None and joint_key.hex() == (
        "03f8ccaec8ee357a653e3da8f88de2fde76a6781a5e43048f454c2afaa304c359d"
    )
    # Slot 5 was opened (card 0), slot 6 is seat 1's own (card 2), slot 7 is public (card 1).
    assert [[peer.card(s) for s in (5, 6, 7)] for peer in table.peers] == [
        [0, None, 1],
        [0, 2, 1],
    ]


def _hex_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths to the hex strings of a message: every field, first and last list entries."""
    if isinstance(value, dict):
        for key in sorted(value):
            if key != "type":
                yield from _hex_paths(value[key], (*path, key))
    elif isinstance(value, list):
        for index in sorted({0, len(value) - 1}):
            yield from _hex_paths(value[index], (*path, index))
    elif isinstance(value, str):
        yield path


def _cases() -> list[Any]:
    if not VECTOR.exists():
        return []
    lines = [json.loads(line) for line in VECTOR.read_text().splitlines()]
    return [
        pytest.param(
            index, path, id=f"{index}-{entry['message']['type']}-{'.'.join(map(str, path))}"
        )
        for index, entry in enumerate(lines)
        for path in _hex_paths(entry["message"])
    ]


@pytest.mark.parametrize(("index", "path"), _cases())
def test_every_tampering_of_the_transcript_is_rejected(index: int, path: tuple[Any, ...]) -> None:
    """Flip one hex digit of one field of one message: some receiver rejects it, naming its
    sender (a flipped commitment is caught when the key share is revealed)."""
    table = new_table()
    senders: list[int] = []

    def flip(position: int, sender: int, value: Any) -> Any:
        if position != index:
            return value
        senders.append(sender)
        value = copy.deepcopy(value)
        target = value
        for key in path[:-1]:
            target = target[key]
        text = target[path[-1]]
        target[path[-1]] = text[:-1] + ("0" if text[-1] != "0" else "1")
        return value

    table.intercept = flip
    with pytest.raises(PeerFaultError) as info:
        scenario(table)
    assert senders and info.value.seat == senders[0]


if __name__ == "__main__" and "--write" in sys.argv:
    VECTOR.write_bytes(transcript()[1])
    print(f"wrote {VECTOR} sha256 {hashlib.sha256(VECTOR.read_bytes()).hexdigest()}")
