"""A checkpoint of one peer's replayed game: what replaying its journal up to a line produces.

Issue 24, situation 7: ``lancards resume`` replays the whole journal and verifies every entry
again (every proof of shuffle and decryption-share proof), which grows with the game (5-6 s at
the end of a 6-peer Level 8 Master game). A checkpoint lets a resumed peer skip the lines it
covers: it is this peer's own derived state (the engine state, the deck coordinator, the record,
the votes, the rescue bookkeeping) written by this peer after it had verified everything in
them, so loading it and replaying only the lines after it gives the same core as a full replay
(``docs/protocol.md``, "Checkpoints"). The record, state hashes and every later output are
byte-identical (``tests/p2p/test_checkpoint.py``); ``lancards audit`` never uses one.

Layout (bytes)::

    MAGIC  header-length (4 bytes, big-endian)  header (canonical JSON)  mac (32)  state

``header``: ``{"format", "lines", "entries", "hash", "state"}``: the journal lines it covers
(marks not counted), the record's length then, its last entry's hash and state hash. ``state``:
a :mod:`pickle` of the core's attributes minus :data:`FRESH` (the identity, the table, the
random source and the core itself are pickled as references and bound to the resumed core's).
``mac``: HMAC-SHA256 over header and state, keyed by :func:`checkpoint_key` (from this seat's
Ed25519 key, which is not in the table folder): nothing is unpickled before the MAC checks, so
the file is only ever loaded from what this peer wrote.

A checkpoint is *refused* (:class:`CheckpointRefused`, and the caller replays everything) when
the MAC, the format or the pickle fails, or it disagrees with the journal: the covered lines'
entries must be exactly the checkpoint's record (their number, the last hash) and the state it
holds must hash to the state hash that the record itself carries at its last entry.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import pickle
from collections.abc import Sequence
from typing import Any

from lancards.engine.digest import state_digest
from lancards.p2p.protocol.errors import LocalProtocolError, Refusal
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.wire import canonical

GameCore = Any
"""A :class:`lancards.p2p.protocol.core.GameCore` (not imported: the core imports this module)."""

MAGIC = b"lancards-checkpoint/1\n"
"""The first bytes of a checkpoint (and its format: a different one is refused)."""

FRESH = frozenset({
    # what the resumed core is constructed with
    "_me", "table", "_random", "table_id", "players", "seat", "view_seat", "n", "_seat_of",
    "rule_set", "game", "rules", "faces", "pipeline", "checks_when_idle", "address_book",
    "_env_seq", "peer_has",
    # link and session state a replay starts empty (never journaled)
    "_out", "_guard", "_agree", "_future", "_early", "_pending", "_leaving",
    "checkpoint_refused", "checkpoint_lines", "_sync_wait",
})
"""The core attributes a checkpoint does not carry: the resumed core keeps its own (given at
construction, or the empty state a full replay also starts from)."""

_REFS = ("me", "table", "random", "core")


class CheckpointRefused(LocalProtocolError):
    """A checkpoint cannot be used (damaged, stale, or not this peer's): the message says why,
    and its ``code`` (with ``params``) too, for the player's language (issue 28):
    ``checkpoint-format``, ``checkpoint-mac``, ``checkpoint-unreadable`` (``error``: the
    exception's class), ``checkpoint-lines`` (``covered``, ``lines``), ``checkpoint-entries``
    (``entries``, ``journal``), ``checkpoint-entry`` and ``checkpoint-state`` (``entry``). The
    caller replays the whole journal instead."""


def checkpoint_key(core: GameCore) -> bytes:
    """The MAC key of ``core``'s checkpoints: SHA-256 of this seat's deterministic Ed25519
    signature (RFC 8032) of a fixed label and the table id. Only the holder of the identity's
    secret key can compute it; it never leaves memory.

    Raises:
        LocalProtocolError: ``core`` is an observer (it keeps no checkpoint).
    """
    label = b"lancards/v1/checkpoint-key/" + core.table_id.encode()
    return hashlib.sha256(core.me.sign(label)).digest()


class _Writer(pickle.Pickler):
    def __init__(self, out: Any, core: GameCore) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._refs = {id(core._me): "me", id(core.table): "table", id(core._random): "random",
                      id(core): "core"}

    def persistent_id(self, obj: Any) -> str | None:
        return self._refs.get(id(obj))


class _Reader(pickle.Unpickler):
    def __init__(self, data: Any, core: GameCore) -> None:
        super().__init__(data)
        self._refs = {"me": core._me, "table": core.table, "random": core._random, "core": core}

    def persistent_load(self, pid: Any) -> Any:
        if pid not in self._refs:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self._refs[pid]


class _Bytes:
    """A file-like sink and source for the pickler (no ``io`` in the protocol core)."""

    def __init__(self, data: bytes = b"") -> None:
        self.parts: list[bytes] = []
        self._data = memoryview(data)
        self._at = 0

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def read(self, size: int = -1) -> bytes:
        end = len(self._data) if size < 0 else self._at + size
        out = bytes(self._data[self._at:end])
        self._at += len(out)
        return out

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def readline(self) -> bytes:
        rest = bytes(self._data[self._at:])
        line = rest[: rest.find(b"\n") + 1 or len(rest)]
        self._at += len(line)
        return line

    def peek(self, size: int = 1) -> bytes:
        return bytes(self._data[self._at:self._at + max(1, size)])


def may_checkpoint(core: GameCore) -> bool:
    """Whether ``core``'s state is now exactly what replaying its journal gives (so a
    checkpoint may be taken): seated, not halted, no move or leave of its own in flight,
    nothing held for later (early entries or shares), every received proof of shuffle
    checked, no removal under way."""
    return bool(core._me is not None and core.record.entries and core._halted is None
                and core._pending is None and not core._leaving and not core._future
                and not core._early and not core.deck.deferred_proofs
                and core._removing is None and not core._votes)


def snapshot(core: GameCore, lines: int) -> bytes:
    """The checkpoint of ``core`` after it has handled exactly the first ``lines`` journal
    lines (marks not counted) and every output of them was made durable.

    Args:
        core: a seated core with at least one entry in its record.
        lines: how many ``(kind, line)`` pairs of its journal its state holds.

    Raises:
        LocalProtocolError: ``core`` is an observer or its record is empty.
    """
    if not core.record.entries:
        raise LocalProtocolError("nothing to checkpoint before the first entry")
    last = core.record.entries[-1]
    header = canonical({"format": 1, "lines": lines, "entries": len(core.record),
                        "hash": last.hash, "state": last.state})
    sink = _Bytes()
    _Writer(sink, core).dump({k: v for k, v in vars(core).items() if k not in FRESH})
    state = b"".join(sink.parts)
    mac = hmac.new(checkpoint_key(core), header + state, hashlib.sha256).digest()
    return MAGIC + len(header).to_bytes(4, "big") + header + mac + state


def load(core: GameCore, blob: bytes, lines: Sequence[tuple[str, dict[str, Any]]]) -> int:
    """Put the state of checkpoint ``blob`` into ``core`` (a freshly constructed core of the
    same seat and table, nothing replayed yet) if it matches the journal ``lines``.

    Returns:
        How many of ``lines`` it covers: replay the rest.

    Raises:
        CheckpointRefused: damaged, of another seat or format, or it disagrees with the
            journal (entries, last hash, or the state hash the record carries there); ``core``
            is left untouched.
    """
    head = len(MAGIC) + 4
    if not blob.startswith(MAGIC) or len(blob) < head:
        raise CheckpointRefused("not a checkpoint of this format").with_code("checkpoint-format")
    size = int.from_bytes(blob[len(MAGIC):head], "big")
    header, mac, state = blob[head:head + size], blob[head + size:head + size + 32], \
        blob[head + size + 32:]
    want = hmac.new(checkpoint_key(core), header + state, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, want):
        raise CheckpointRefused("its MAC does not check (damaged, or not this seat's)").with_code(
            "checkpoint-mac")
    try:
        info = json.loads(header)
        covered, entries = int(info["lines"]), int(info["entries"])
        saved = _Reader(_Bytes(state), core).load()
    except Exception as exc:  # any failure to read it back: replay instead
        raise CheckpointRefused(f"it cannot be read back ({type(exc).__name__})").with_code(
            "checkpoint-unreadable", error=type(exc).__name__) from None
    if not isinstance(saved, dict) or not 0 < covered <= len(lines):
        raise CheckpointRefused(f"it covers {covered} lines of a journal of {len(lines)}"
                               ).with_code("checkpoint-lines", covered=covered, lines=len(lines))
    mine = [line for kind, line in lines[:covered] if kind == "entry"]
    record = saved.get("record")
    held = getattr(record, "entries", None)
    if len(mine) != entries or not isinstance(held, tuple) or len(held) != entries or not mine:
        raise CheckpointRefused(f"it holds {entries} entries, the journal {len(mine)} there"
                               ).with_code("checkpoint-entries", entries=entries, journal=len(mine))
    last = Entry.from_dict(mine[-1], "the local record")
    if last.hash != info["hash"] or held[-1].hash != last.hash:
        raise CheckpointRefused(f"its entry {entries - 1} is not the journal's").with_code(
            "checkpoint-entry", entry=entries - 1)
    if state_digest(core.game, saved.get("_state")) != last.state:
        raise CheckpointRefused(f"its state does not hash to entry {entries - 1}'s state hash"
                               ).with_code("checkpoint-state", entry=entries - 1)
    for key, value in saved.items():
        setattr(core, key, value)
    core.deck.as_replayed()  # what a replay leaves: private shares unsent, nothing prepared
    return covered


def resume_point(core: GameCore, blob: bytes | None,
                 lines: Sequence[tuple[str, dict[str, Any]]]) -> int:
    """How many of ``lines`` checkpoint ``blob`` lets ``core`` skip (:func:`load`); 0 for no
    checkpoint or a refused one (then ``core.checkpoint_refused`` says why: replay them all).
    Never raises."""
    if blob is None or not lines:
        return 0
    try:
        return load(core, blob, lines)
    except CheckpointRefused as exc:
        core.checkpoint_refused = Refusal(str(exc), exc.code, **exc.params)
        return 0
