"""A canonical digest of a state's public view, for the game record (every peer computes it).

Every record entry carries the hash of the engine state after it (design: "the game record").
Peers know different private cards, so the digest covers ``game.view(state, None)``: exactly
what every peer knows. The encoding is canonical: dataclasses as their fields in declaration
order, mappings sorted by key, enums by value, sets sorted; then JSON (sorted keys, no spaces)
and SHA-256.

:func:`canonical` gives that form as Python lists and scalars; :func:`state_digest` writes the
same JSON text directly (:func:`canonical_json`), without building the lists, and remembers the
text of each immutable record (a card, a level card, a meld, the rules) by identity, so a state
that shares its records with the one before costs little more than its changed parts. The two
are one encoding (``tests/engine/test_digest.py`` checks it over played games of every rule
set); a peer needs only SHA-256 over ``canonical_json``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable, Hashable, Mapping
from enum import Enum
from operator import attrgetter
from typing import Any, cast

from lancards.engine.core import Game

__all__ = ["canonical", "canonical_json", "state_digest"]


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
        return sorted(items, key=_pair_order([k for k, _ in items]))
    if isinstance(value, frozenset | set):
        return sorted((canonical(v) for v in value), key=_spaced)
    if isinstance(value, tuple | list):
        return [canonical(v) for v in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _spaced(value: Any) -> str:
    """The sort key of set members and of mapping keys of mixed types: their JSON text with
    json's default separators (``", "``, ``": "``)."""
    return json.dumps(value, sort_keys=True)


def _pair_order(keys: list[Any]) -> Callable[[tuple[Any, Any]], Any]:
    """How the (key, value) pairs of a mapping are sorted, given the canonical keys: by the
    key itself when every key is an int or every key is a str, else by its JSON text."""
    if all(type(k) is int for k in keys) or all(type(k) is str for k in keys):
        return lambda kv: kv[0]
    return lambda kv: _spaced(kv[0])


def _fields(value: Any) -> list[Any]:
    return [type(value).__name__] + [
        canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
    ]


@functools.lru_cache(maxsize=4096)
def _frozen(value: Any) -> Any:
    """The canonical form of a hashable frozen record (cards, placed cards, melds), cached.

    The cache returns the same list object for equal values; callers never mutate it."""
    return _fields(value)


# ---------------------------------------------------------------------------------------------
# The same encoding written straight to JSON text.
#
# ``canonical_json(v) == json.dumps(canonical(v), sort_keys=True, separators=(",", ":"))``:
# ``canonical`` never makes a dict (mappings become sorted lists of pairs), so the JSON text of
# a list is "[" + the members' texts joined by "," + "]", and each case below writes exactly
# what json writes for the canonical form of that case. Each type is classified once (in the
# order ``canonical`` tests them) into a writer.

_Writer = Callable[[Any], str]

_WRITERS: dict[type, _Writer] = {}
"""The writer of each type met so far."""

_RECORDS: dict[int, tuple[Any, str]] = {}
"""id(record) -> (record, its text) for immutable frozen records. Holding the record keeps its
id from being reused while the entry lives; emptied when it reaches ``_RECORDS_MAX``."""

_RECORDS_MAX = 4096

_UNREMEMBERED: dict[type, _Writer] = {}
"""For each frozen record type, its writer that neither looks up nor remembers the text: for a
whole state, new at every call."""

_IMMUTABLE_SCALARS = (type(None), bool, int, str)


def canonical_json(value: Any) -> str:
    """``json.dumps(canonical(value), sort_keys=True, separators=(",", ":"))``, written
    directly (ASCII, no spaces).

    Raises:
        TypeError: a value of a type with no canonical form.
    """
    writer = _WRITERS.get(type(value))
    if writer is None:
        writer = _writer_of(type(value))
    return writer(value)


def _writer_of(kind: type) -> _Writer:
    """Classify ``kind`` as :func:`canonical` does and remember its writer."""
    writer: _Writer
    if kind is type(None):
        writer = _write_none
    elif kind is bool:
        writer = _write_bool
    elif kind is int:
        writer = int.__repr__
    elif kind is str:
        writer = _write_str
    elif issubclass(kind, bool | int | str):
        # canonical keeps the value itself (an IntEnum, a StrEnum): json writes an int
        # subclass with int.__repr__ and a str subclass as a string.
        writer = int.__repr__ if issubclass(kind, int) else _write_str
    elif issubclass(kind, Enum):
        writer = _write_enum
    elif dataclasses.is_dataclass(kind):
        writer = _record_writer(kind)
    elif issubclass(kind, Mapping):
        writer = _write_mapping
    elif issubclass(kind, frozenset | set):
        writer = _write_set
    elif issubclass(kind, tuple | list):
        writer = _write_list
    else:
        raise TypeError(f"no canonical form for {kind.__name__}")
    _WRITERS[kind] = writer
    return writer


def _write_none(value: None) -> str:
    return "null"


def _write_bool(value: bool) -> str:
    return "true" if value else "false"


_write_str: Callable[[str], str] = json.encoder.encode_basestring_ascii


def _write_enum(value: Enum) -> str:
    return canonical_json(value.value)


_INT = frozenset({int})


def _write_list(value: tuple[Any, ...] | list[Any]) -> str:
    if set(map(type, value)) <= _INT:  # slots of a hand, a pile, a meld
        return "[" + ",".join(map(int.__repr__, value)) + "]"
    return "[" + ",".join(map(canonical_json, value)) + "]"


def _write_mapping(value: Mapping[Any, Any]) -> str:
    if set(map(type, value)) <= _INT:  # the usual case: slot -> card, slot -> mask
        keys = sorted(value)
        if set(map(type, value.values())) <= _INT:
            return "[" + ",".join([f"[{k},{value[k]}]" for k in keys]) + "]"
        return "[" + ",".join([f"[{k},{canonical_json(value[k])}]" for k in keys]) + "]"
    items = [(canonical(k), v) for k, v in value.items()]
    items.sort(key=_pair_order([k for k, _ in items]))
    return "[" + ",".join([f"[{canonical_json(k)},{canonical_json(v)}]" for k, v in items]) + "]"


def _write_set(value: frozenset[Any] | set[Any]) -> str:
    members = sorted((canonical(v) for v in value), key=_spaced)
    return "[" + ",".join(map(canonical_json, members)) + "]"


def _record_writer(kind: type) -> _Writer:
    """The writer of dataclass ``kind``: ``["Name",field1,field2,...]``; a frozen record's
    text is remembered by identity when every field is immutable (then it can never change)."""
    names = tuple(f.name for f in dataclasses.fields(kind))
    head = "[" + _write_str(kind.__name__)
    if not names:
        return lambda value: head + "]"
    get = attrgetter(*names)
    values: Callable[[Any], tuple[Any, ...]] = (
        (lambda value: (get(value),)) if len(names) == 1 else get)

    def write_fields(value: Any) -> str:
        return head + "," + ",".join(map(canonical_json, values(value))) + "]"

    params = getattr(kind, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return write_fields
    _UNREMEMBERED[kind] = write_fields

    def write_frozen(value: Any) -> str:
        known = _RECORDS.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        text = write_fields(value)
        if all(map(_immutable, values(value))):
            if len(_RECORDS) >= _RECORDS_MAX:
                _RECORDS.clear()
            _RECORDS[id(value)] = (value, text)
        return text

    return write_frozen


def _immutable(value: Any) -> bool:
    """Whether ``value``'s text can never change: a scalar, an enum member of such a value, a
    remembered record, or a tuple or frozenset (or a subclass written as one) of such
    values."""
    if isinstance(value, _IMMUTABLE_SCALARS):
        return True
    if isinstance(value, Enum):
        return _immutable(value.value)
    known = _RECORDS.get(id(value))
    if known is not None and known[0] is value:
        return True
    if isinstance(value, tuple | frozenset) and _WRITERS.get(type(value)) in (
            _write_list, _write_set):  # written as its members (a NamedTuple too)
        return all(map(_immutable, value))
    return False


def state_digest(game: Game[Any, Any], state: Any) -> str:
    """SHA-256 (hex, 64 characters) of the canonical public view of ``state``: of
    ``canonical_json(game.view(state, None))`` in UTF-8 (all ASCII).

    Raises:
        TypeError: the view holds a value of a type with no canonical form."""
    view = game.view(state, None)
    kind = type(view)
    writer = _WRITERS.get(kind) or _writer_of(kind)
    data = _UNREMEMBERED.get(kind, writer)(view).encode("utf-8")
    return hashlib.sha256(data).hexdigest()
