"""A hostile seat mutates what it sends, at any point of seeded games (issue 11).

Hypothesis draws the rule set (all four), the number of peers (2..6), the hostile seat, the
messages it changes (by their rank among the messages it sends, per recipient: two-faced) and
how: a field's type, size, nesting or value, a field removed or added, the entry inside
re-signed by the hostile seat or not, the envelope re-signed or not, raw bytes, a message
duplicated, dropped or delayed. Invariant, checked at every honest peer: no exception escapes
``GameCore.receive``; no honest seat is ever named (in a ``cheat`` or ``rejected`` notice, or as
a cheater); the honest records never fork (each is a prefix of the longest); a halted honest peer
names only the hostile seat; and when the run ends with nothing in flight, either every honest
peer halted naming that seat or their records are identical.

CI runs ``LANCARDS_FUZZ_EXAMPLES`` examples (default 4; each game is cut at
``LANCARDS_FUZZ_DELIVERIES`` messages, default 1500); set the variables for more.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_cores

EXAMPLES = int(os.environ.get("LANCARDS_FUZZ_EXAMPLES", "4"))
DELIVERIES = int(os.environ.get("LANCARDS_FUZZ_DELIVERIES", "1500"))
GAMES = ("level8-master", "level8", "level8-en", "eights")

VALUES: list[Any] = [None, True, 0, -1, 2**53 + 1, "", "x" * 5000, [], {}, [[[[[]]]]], 1.5,
                     "00" * 32, {"t": "action"}, [None] * 200]


def deep(n: int) -> Any:
    value: Any = []
    for _ in range(n):
        value = [value]
    return value


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside nested dicts and lists (depth-first)."""
    out = [prefix]
    if isinstance(value, dict):
        for key in sorted(value):
            out += paths(value[key], (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:4]):
            out += paths(item, (*prefix, i))
    return out


def set_at(root: Any, path: tuple[Any, ...], op: str, new: Any) -> Any:
    if not path:
        return new
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "delete" and isinstance(parent, dict):
        del parent[key]
    elif op == "add" and isinstance(parent, dict):
        parent["zz" + str(key)] = new
    else:
        parent[key] = new
    return root


mutation = st.fixed_dictionaries({
    "rank": st.integers(0, 400),
    "kind": st.sampled_from(["field", "field", "field", "bytes", "duplicate", "drop", "delay"]),
    "path": st.integers(0, 10_000),
    "op": st.sampled_from(["replace", "replace", "delete", "add", "deep"]),
    "value": st.sampled_from(range(len(VALUES))),
    "resign_entry": st.booleans(),
    "resign": st.sampled_from([True, True, True, False]),
    "byte": st.integers(0, 10**6),
})


class Hostile:
    """Changes the hostile seat's outgoing messages as drawn."""

    def __init__(self, core: Any, mutations: list[dict[str, Any]]) -> None:
        self.core = core
        self.key = core.me.public_key
        self.todo = {m["rank"]: m for m in mutations}
        self.sent = 0
        self.delayed: list[tuple[bytes, bytes, bytes]] = []

    def __call__(self, sender: bytes, to: bytes, data: bytes) -> bytes | list[bytes] | None:
        if sender != self.key:
            return data
        rank, self.sent = self.sent, self.sent + 1
        m = self.todo.get(rank)
        if m is None:
            return data
        kind = m["kind"]
        if kind == "drop":
            return None
        if kind == "duplicate":
            return [data, data]
        if kind == "delay":
            self.delayed.append((sender, to, data))
            return None
        if kind == "bytes":
            changed = bytearray(data)
            changed[m["byte"] % len(changed)] ^= 0x20
            return bytes(changed)
        env = json.loads(data)
        target = env["body"]
        entry_inside = env["type"] == "record.entry"
        choices = paths(target)
        path = choices[m["path"] % len(choices)]
        new = deep(200) if m["op"] == "deep" else VALUES[m["value"]]
        body = set_at(target, path, m["op"], new)
        if not isinstance(body, dict):
            body = {"x": body}
        if entry_inside and m["resign_entry"] and isinstance(body.get("entry"), dict):
            body["entry"] = resign_entry(self.core, body["entry"])
        if not m["resign"]:
            env["body"] = body
            return json.dumps(env).encode()
        try:
            return sign_envelope(self.core.me, env["type"], env["tbl"], env["seq"], body).encode()
        except Exception:  # not canonical JSON (a float): send it unsigned-valid anyway
            env["body"] = body
            return json.dumps(env).encode()


def resign_entry(core: Any, data: dict[str, Any]) -> Any:
    """The hostile seat signs the changed entry (only when its fields still parse)."""
    try:
        entry = Entry.from_dict(data, "fuzz")
        draft = Entry(entry.table, entry.seq, core.me.public_key, entry.prev, entry.payload,
                      entry.state, b"")
        signed = Entry(draft.table, draft.seq, draft.author, draft.prev, draft.payload,
                       draft.state, core.me.sign(draft.signed_bytes()))
        return signed.to_dict()
    except Exception:
        return data


def run_game(game: str, n: int, hostile_seat: int, mutations: list[dict[str, Any]],
             seed: str) -> None:
    cores, net = make_cores(n, game, seed=seed)
    hostile = Hostile(cores[hostile_seat], mutations)

    def tamper(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        out = hostile(sender, to, data)
        if isinstance(out, list):
            net.queue.insert(0, (sender, to, out[1]))
            return out[0]
        return out

    net.tamper = tamper
    net.start()
    net.run(limit=DELIVERIES)
    net.queue += hostile.delayed
    hostile.todo.clear()
    net.run(limit=DELIVERIES + 400)
    honest = [c for c in cores if c.seat != hostile_seat]
    for core in honest:
        notices = net.notices[core.me.public_key]
        blamed = {x.seat for x in notices if x.kind in ("cheat", "rejected") and x.seat is not None}
        assert blamed <= {hostile_seat}, [x.text for x in notices if x.seat in blamed]
        assert set(core.cheaters) <= {hostile_seat}
    longest = max((c.record.entries for c in honest), key=len)
    for core in honest:
        assert core.record.entries == longest[:len(core.record)], "the honest records forked"
    if not net.queue:
        if any(c.halted for c in honest):
            assert all(c.halted and set(c.cheaters) == {hostile_seat} for c in honest)
        else:
            assert len({len(c.record) for c in honest}) == 1


@pytest.mark.timeout(600)
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_hostile_seat_mutating_its_messages_never_crashes_forks_or_frames(data):
    game = data.draw(st.sampled_from(GAMES), label="game")
    n = data.draw(st.integers(3 if game == "eights" else 2, 6), label="peers")
    hostile = data.draw(st.integers(0, n - 1), label="hostile seat")
    mutations = data.draw(st.lists(mutation, min_size=1, max_size=4), label="mutations")
    seed = data.draw(st.integers(0, 10**6), label="seed")
    run_game(game, n, hostile, mutations, f"fuzz-{seed}")


def test_a_refused_first_entry_is_fetched_again_through_the_acks():
    """Found by the fuzz test: the hostile seat's first entry, mangled for one peer only,
    left that peer without entry 0 and the table stalled; the ack of the other peer now makes
    it ask for the entry."""
    run_game("level8-master", 3, 0, [{"rank": 0, "kind": "field", "path": 0, "op": "replace",
                                      "value": 0, "resign_entry": False, "resign": True,
                                      "byte": 0}], "fuzz-0")


@pytest.mark.parametrize("game", GAMES)
def test_each_rule_set_survives_a_re_signed_changed_move(game):
    """A fixed example per rule set (so that CI covers all four every run): the hostile seat
    changes one of its entries early in the game and signs it."""
    n = 3
    run_game(game, n, 1, [{"rank": 30, "kind": "field", "path": 7, "op": "replace",
                           "value": 11, "resign_entry": True, "resign": True, "byte": 0}],
             "fixed")
