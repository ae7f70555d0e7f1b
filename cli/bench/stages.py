"""Where the wait goes: an optional per-stage time recorder for the benchmarks (``lancards bench
play --stages``). It wraps the functions of the deck, the record, the sealing and the journal
that a dealt hand passes through and adds up the time spent in each, **exclusive** of the stages
nested inside it (a received entry's check includes verifying a shuffle: the verify counts as
``verify shuffle``, the rest as ``receive``). It is installed only by a benchmark run and removed
after it; nothing in ``engine/`` or in the protocol core knows about it.

Every peer of ``lancards play`` runs in one process on one event loop, so the stages of all
peers add up on one clock: the sum is the compute a dealt hand costs this process, and the rest
of the wall time (``other``) is the event loop, websockets and waiting.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

STAGES: tuple[tuple[str, str, str], ...] = (
    # (module or class path, attribute, stage)
    ("lancards.p2p.protocol.core:GameCore", "receive", "receive (decode, check, engine)"),
    ("lancards.p2p.protocol.core:GameCore", "submit", "receive (decode, check, engine)"),
    ("lancards.p2p.protocol.core:GameCore", "start", "receive (decode, check, engine)"),
    ("lancards.p2p.protocol.core:GameCore", "verify_deferred", "receive (decode, check, engine)"),
    ("lancards.p2p.crypto.coordinator:DeckCoordinator", "make_key_commit", "keys"),
    ("lancards.p2p.crypto.coordinator:DeckCoordinator", "make_key_reveal", "keys"),
    ("lancards.p2p.crypto.keygen:KeyPhase", "accept_commit", "keys"),
    ("lancards.p2p.crypto.keygen:KeyPhase", "accept_reveal", "keys"),
    ("lancards.p2p.crypto.coordinator", "prepare_shuffle", "shuffle prove (offline)"),
    ("lancards.p2p.crypto.coordinator", "finish_shuffle", "shuffle prove (online)"),
    ("lancards.p2p.crypto.coordinator", "check_shuffle_proof", "shuffle verify"),
    ("lancards.p2p.crypto.slots:SlotTable", "make_shares", "shares make (+ proofs)"),
    ("lancards.p2p.crypto.slots:SlotTable", "accept_shares", "shares check"),
    ("lancards.p2p.crypto.coordinator", "decode_message", "deck message decode"),
    ("lancards.p2p.crypto.coordinator", "encode_message", "deck message encode"),
    ("lancards.p2p.protocol.outbound", "seal", "sealing (X25519 + AEAD)"),
    ("lancards.p2p.protocol.inbound", "open_sealed", "sealing (X25519 + AEAD)"),
    ("lancards.p2p.protocol.record:Record", "next_entry", "entry sign"),
    ("lancards.p2p.protocol.record:Entry", "verifies", "entry signature check"),
    ("lancards.p2p.protocol.core_parts", "sign_envelope", "envelope sign"),
    ("lancards.p2p.protocol.core", "decode_envelope", "envelope decode + check"),
    ("lancards.p2p.net.store:TableStore", "append", "journal write + fsync"),
    ("lancards.p2p.protocol.core:GameCore", "state_hash", "state hash"),
)
"""What is timed: ``module[:class]``, the attribute, and the stage it counts under."""


class StageRecorder:
    """Adds up exclusive wall time per stage while installed (:meth:`install`, :meth:`remove`).

    Only for one thread and synchronous functions (the event loop runs every peer's core
    synchronously between awaits, so the stages never interleave).
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[float] = []
        self._undo: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        """Wrap every function of :data:`STAGES`."""
        import importlib

        for where, attr, stage in STAGES:
            module_name, _colon, class_name = where.partition(":")
            owner: Any = importlib.import_module(module_name)
            if class_name:
                owner = getattr(owner, class_name)
            original = owner.__dict__[attr] if class_name else getattr(owner, attr)
            self._undo.append((owner, attr, original))
            setattr(owner, attr, self._timed(original, stage))

    def remove(self) -> None:
        """Put every wrapped function back."""
        while self._undo:
            owner, attr, original = self._undo.pop()
            setattr(owner, attr, original)

    def _timed(self, function: Callable[..., Any], stage: str) -> Callable[..., Any]:
        clock = time.perf_counter
        stack = self._stack
        seconds = self.seconds
        calls = self.calls

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            stack.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                inner = stack.pop()
                spent = clock() - start
                seconds[stage] += spent - inner
                calls[stage] += 1
                if stack:
                    stack[-1] += spent

        return timed

    def snapshot(self) -> dict[str, float]:
        """Seconds per stage so far."""
        return dict(self.seconds)


def difference(later: dict[str, float], earlier: dict[str, float]) -> dict[str, float]:
    """Per-stage seconds between two snapshots."""
    return {k: later[k] - earlier.get(k, 0.0) for k in later if later[k] - earlier.get(k, 0.0)}


def as_ms(stages: dict[str, float], wall: float) -> dict[str, float]:
    """Milliseconds per stage, largest first, with ``other`` = wall time minus every stage."""
    out = {k: round(v * 1000, 1) for k, v in sorted(stages.items(), key=lambda kv: -kv[1])}
    out["other (event loop, websockets, waiting)"] = round((wall - sum(stages.values())) * 1000, 1)
    out["wall"] = round(wall * 1000, 1)
    return out


__all__ = ["STAGES", "StageRecorder", "as_ms", "difference"]
