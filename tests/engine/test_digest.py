"""``state_digest`` writes exactly the bytes of the encoding it replaced (issue 16).

:mod:`lancards.engine.digest` writes the canonical JSON text directly and remembers the text of
immutable records by identity. The implementation it replaced is kept below, verbatim, as the
reference: over states reached by seeded random play of every rule set (with seats leaving),
every digest, every view's text and every canonical form must be the same; and over arbitrary
values (records frozen or not, enums, int and str subclasses, mappings of every key kind, sets,
named tuples, non-ASCII text) the text must be the reference's JSON, and a value with no
canonical form must raise ``TypeError`` in both.

``LANCARDS_FUZZ_EXAMPLES`` sets the examples per test (CI default: 12 games, 120 values).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import random
from collections.abc import Hashable, Mapping
from enum import Enum, IntEnum
from typing import Any, NamedTuple, cast

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lancards.cli.driver import SeededChance
from lancards.engine.core import CHANCE, IllegalActionError, Leave
from lancards.engine.digest import canonical, canonical_json, state_digest
from lancards.engine.rulesets import rule_set, rule_set_names

EXAMPLES = int(os.environ.get("LANCARDS_FUZZ_EXAMPLES", "12"))


# --- the reference: engine/digest.py before issue 16, unchanged ------------------------------

def ref_canonical(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Enum):
        return ref_canonical(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            try:
                return _ref_frozen(cast(Hashable, value))
            except TypeError:  # a frozen record holding a mutable mapping: not hashable
                pass
        return _ref_fields(value)
    if isinstance(value, Mapping):
        items = [(ref_canonical(k), ref_canonical(v)) for k, v in value.items()]
        keys = [k for k, _ in items]
        if all(type(k) is int for k in keys) or all(type(k) is str for k in keys):
            return sorted(items, key=lambda kv: kv[0])
        return sorted(items, key=lambda kv: json.dumps(kv[0], sort_keys=True))
    if isinstance(value, frozenset | set):
        return sorted((ref_canonical(v) for v in value),
                      key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, tuple | list):
        return [ref_canonical(v) for v in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _ref_fields(value: Any) -> list[Any]:
    return [type(value).__name__] + [
        ref_canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
    ]


@functools.lru_cache(maxsize=4096)
def _ref_frozen(value: Any) -> Any:
    return _ref_fields(value)


def ref_state_digest(game: Any, state: Any) -> str:
    public = ref_canonical(game.view(state, None))
    data = json.dumps(public, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def ref_json(value: Any) -> str:
    return json.dumps(ref_canonical(value), sort_keys=True, separators=(",", ":"))


# --- states of played games -------------------------------------------------------------------

@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(rule_set_names()), seats=st.integers(2, 6),
       seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 150))
def test_the_digest_of_every_played_state_is_the_reference_digest(
        name: str, seats: int, seed: int, steps: int) -> None:
    spec = rule_set(name)
    game = spec.game
    seats = max(spec.min_players, min(spec.max_players, seats))
    rng = random.Random(seed)
    chance = SeededChance(seed)
    state = game.new_game(spec.make_rules({}), seats)
    checked = 0
    for _ in range(steps):
        digest = state_digest(game, state)
        assert digest == ref_state_digest(game, state)
        seat = rng.randrange(seats)
        view = game.view(state, seat)  # a peer's view: its own cards too
        assert canonical_json(view) == ref_json(view)
        assert canonical(view) == ref_canonical(view)
        checked += 1
        actor = game.to_act(state)
        if actor is None:
            break
        action: Any
        if rng.random() < 0.01:  # a seat leaves for good (rulings D-1 to D-4)
            action = Leave(seat)
            try:
                game.check(state, action)
            except IllegalActionError:
                continue
        elif actor == CHANCE:
            action = chance.resolve(game, state)
        else:
            action = rng.choice(list(game.legal_actions(state, actor)))
        state = game.apply(state, action)
        assert state_digest(game, state) == ref_state_digest(game, state)
    assert checked >= 1


# Digests written by the implementation before issue 16 (the reference above, at commit
# 138f45f): each rule set, 4 seats (eights too), seed 2026, 80 steps of the play below.
PINNED = {
    "eights": "c0f245a9ad166302082bd94e250e8b3a857d27f8d829e1c0bbd55d30868ab2bf",
    "level8": "512f84ea44fe27922a6ce87ac2a1b0b9070b9a2364d9e9c0d194710fbf8f0103",
    "level8-en": "1ba1817c8fa185b39e8d7ed1045fa91d9b185d40cc640948955f3a12bf70adda",
    "level8-master": "01c21a26dff5fe748c197aa3cb7ff6ab71af56f24a8b8955301d26486e7d2763",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_a_known_position_has_its_known_digest(name: str) -> None:
    spec = rule_set(name)
    game = spec.game
    rng = random.Random(2026)
    chance = SeededChance(2026)
    state = game.new_game(spec.make_rules({}), 4)
    for _ in range(80):
        actor = game.to_act(state)
        assert actor is not None
        state = game.apply(state, chance.resolve(game, state) if actor == CHANCE
                           else rng.choice(list(game.legal_actions(state, actor))))
    assert state_digest(game, state) == PINNED[name]
    text = canonical_json(game.view(state, None))
    assert hashlib.sha256(text.encode("ascii")).hexdigest() == PINNED[name]


# --- arbitrary values --------------------------------------------------------------------------

class Colour(Enum):
    RED = "red"
    NONE = None
    PAIR = (1, "a")


class Rank(IntEnum):
    LOW = 2
    HIGH = 300


class Pair(NamedTuple):
    a: Any
    b: Any


@dataclasses.dataclass(frozen=True)
class Frozen:
    x: Any
    y: Any = None


@dataclasses.dataclass(frozen=True, slots=True)
class Single:
    only: Any


@dataclasses.dataclass(frozen=True)
class Empty:
    pass


@dataclasses.dataclass
class Loose:
    x: Any


class Word(str):
    pass


# The reference remembers frozen records by equality, and True == 1, False == 0: a record of 1
# and one of True would share the first one's form there. Ints 0 and 1 are left out so that
# no two equal records have different forms (the engine never mixes them in one field).
scalars = (st.none() | st.booleans()
           | st.integers(-10**20, 10**20).filter(lambda i: i not in (0, 1))
           | st.text(max_size=6) | st.text(max_size=4).map(Word)
           | st.sampled_from(list(Colour)) | st.sampled_from(list(Rank)))
keys = (st.integers(2, 50) | st.text(max_size=3) | st.sampled_from(list(Rank))
        | st.sampled_from(list(Colour)) | st.booleans() | st.tuples(st.integers(2, 9)))


def _extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    hashable = st.one_of(scalars, st.tuples(scalars, scalars), st.frozensets(scalars, max_size=3))
    return st.one_of(
        st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
        st.builds(Pair, inner, inner), st.builds(Frozen, inner, inner), st.builds(Single, inner),
        st.builds(Loose, inner), st.just(Empty()),
        st.dictionaries(st.integers(2, 60), inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
        st.dictionaries(keys, inner, max_size=4),
        st.frozensets(hashable, max_size=4), st.sets(hashable, max_size=4),
    )


values = st.recursive(scalars, _extend, max_leaves=25)


@settings(max_examples=EXAMPLES * 10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(value=values)
@example(value={"z": 2, "\u00e9": 3, '"': 4, "\n": 5, "Z": 6})  # str order is not JSON order
@example(value={2: "a", "b": 3, Rank.HIGH: 4, (7,): 5, True: 6, Colour.RED: 7})  # mixed keys
@example(value=frozenset({"b", "a", (9,), 5, Rank.LOW, "\u00e9", None}))
@example(value=[Frozen(x=Colour.PAIR), Single(only=Pair(3, Word("w"))), Empty(), Loose(x=())])
def test_the_text_of_any_value_is_the_reference_json(value: Any) -> None:
    assert canonical_json(value) == ref_json(value)
    assert canonical_json(value) == ref_json(value)  # again: now from the remembered records
    assert canonical(value) == ref_canonical(value)


@pytest.mark.parametrize("value", [1.5, b"x", Frozen(x=[0.5]), {2: {3: 2.5}}, {2.5: 3},
                                   frozenset({2.5}), object(), Frozen])
def test_a_value_with_no_canonical_form_is_a_type_error_in_both(value: Any) -> None:
    with pytest.raises(TypeError) as ours:
        canonical_json(value)
    with pytest.raises(TypeError) as theirs:
        ref_canonical(value)
    assert str(ours.value) == str(theirs.value)


def test_a_record_holding_a_mutable_value_is_written_anew_each_time() -> None:
    inner: dict[int, Any] = {2: "a"}
    record = Frozen(x=(Single(only=inner),), y=Rank.LOW)
    assert canonical_json(record) == '["Frozen",[["Single",[[2,"a"]]]],2]'
    inner[3] = ["b"]  # a frozen record may hold a mapping that changes
    assert canonical_json(record) == '["Frozen",[["Single",[[2,"a"],[3,["b"]]]]],2]'
    assert canonical_json(record) == ref_json(record)
