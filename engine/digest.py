"""A canonical digest of a state's public view, for the game record (every peer computes it).

Every record entry carries the hash of the engine state after it (design: "the game record").
Peers know different private cards, so the digest covers ``game.view(state, None)``: exactly
what every peer knows. The encoding is canonical: dataclasses as their fields in declaration
order, mappings sorted by key, enums by value, sets sorted; then JSON (sorted keys, no spaces)
and SHA-256.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Hashable, Mapping
from enum import Enum
from typing import Any, cast

from lancards.engine.core import Game


def canonical(value: Any) -> Any:
    """A JSON-serialisable canonical form of ``value`` (see the module docstring).

    Raises:
        TypeError: a value of a type with no canonical form.
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Enum):
        return canonical(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            try:
                return _frozen(cast(Hashable, value))
            except TypeError:  # a frozen record holding a mutable mapping: not hashable
                pass
        return _fields(value)
    if isinstance(value, Mapping):
        items = [(canonical(k), canonical(v)) for k, v in value.items()]
        keys = [k for k, _ in items]
        if all(type(k) is int for k in keys) or all(type(k) is str for k in keys):
            return sorted(items, key=lambda kv: kv[0])
        return sorted(items, key=lambda kv: json.dumps(kv[0], sort_keys=True))
    if isinstance(value, frozenset | set):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, tuple | list):
        return [canonical(v) for v in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _fields(value: Any) -> list[Any]:
    return [type(value).__name__] + [
        canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
    ]


@functools.lru_cache(maxsize=4096)
def _frozen(value: Any) -> Any:
    """The canonical form of a hashable frozen record (cards, placed cards, melds), cached.

    The cache returns the same list object for equal values; callers never mutate it."""
    return _fields(value)


def state_digest(game: Game[Any, Any], state: Any) -> str:
    """SHA-256 (hex, 64 characters) of the canonical public view of ``state``."""
    public = canonical(game.view(state, None))
    data = json.dumps(public, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(data).hexdigest()
