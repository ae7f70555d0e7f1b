"""An adversary that plays whole games (issue 23): one or two hostile seats of an in-memory table
choose, step after step, among honest moves and attack moves, and the invariants of the
protocol are checked after every step.

A game is a :class:`Config` (rule set, 3..6 peers, the table option ``rescue`` on or off, the
hostile seats, a seed) and a list of :data:`Move` items. Each move is ``(kind, a, b, c,
deliver)``: the attack (or ``"honest"``), three small integers that choose among what is
possible at that moment (which hostile seat, which honest peer, which variant: taken modulo
what exists, so that any list of moves is a valid game and hypothesis can shrink it), and how
many messages the network then delivers. The hostile seats run honest cores played by the
game's bot; the attacks act on what they send and on the links:

``fork``
    equivocate: the hostile seat's next entry goes out with a validly signed twin to a group
    of the honest peers (:func:`tests.p2p.core_harness.twin_entry`);
``mutate``
    change the next message it sends (to one peer or all): a field replaced, deleted, added,
    nested deep, a string given a lone surrogate ``\\ud800``, a NUL or a trailing newline,
    a raw byte flipped, the message duplicated or dropped; the entry inside and the envelope
    re-signed or not;
``hold`` / ``release``
    withhold its messages to one peer, then deliver them late (in order);
``drop`` / ``restore``
    cut one link between any two peers (messages on it are lost), then restore it (both ends
    are told, as the transport does: ``GameCore.peer_connected``);
``ack``, ``sync``, ``vote``, ``unvote``
    bogus ``record.ack`` (wrong hashes, numbers ahead and behind, bursts that spend the reply
    budgets), ``record.sync`` (from 0, ahead, huge), ``record.vote`` (to remove an honest seat,
    itself, far ahead, badly signed), ``record.unvote`` (a "no" to removing an honest seat,
    itself, far ahead, badly signed, for another table); once the hostile seat left or was
    removed, a vote or "no" it signs is dropped naming nobody (its client may watch on: the
    LAN trial's removed bob was blamed on every screen for his client's "no"s);
``escrow``
    its next key-escrow entry deals one holder a bad part (sealed correctly, not its share);
``replay`` / ``old``
    replay one of its old envelopes byte for byte to some peer, or an old entry of the record
    in a fresh envelope;
``leave``, ``vanish``, ``return``
    leave for good (``GameCore.leave``), stop sending and receiving, come back (links up);
``rematch``
    offer the next game in the middle of this one (issue 27): a signed "yes" to playing again
    about the record's current head, a whole rematch statement following this table, or that
    statement as a watcher's ``watch.next`` notice (link-only); the game core takes none of
    them (only the agreement after a game's end reads the first two, only an observer the
    third);
``remove``
    (an honest move) with the rescue option on, the honest peers that wait for a vanished
    hostile seat vote to remove it (as ``PeerNode.removal_refusal`` allows);
``presence``
    a ``presence`` message to some peer: a "paused" lie, a state the schema refuses, an extra
    field, an oversized state (refused and named, never a cheat; issue 25);
``links``
    a ``links`` message to some peer (a partial mesh's words): a lie naming an honest seat
    unreachable, the sender's own seat, a seat twice, a seat the table does not have, more
    seats than a table has, or a flood of 70 (heard 64 times; the others refused and named,
    never a cheat, never in the record);
``renege``
    (8s Rule!) from now on the hostile seat's bot passes in round 8 whatever it holds, and in
    the trick rounds plays off suit whenever it holds another suit: moves no peer can refuse
    (nobody sees the hand), which the round-end audit charges (ruling E-8); the passes alone
    would keep round 8 going for ever but for the dead-layout end (``docs/rules-eights.md``,
    reading 5).

Invariants (a :class:`Violation` says which one failed, where and why):

1. no exception escapes an honest peer (``receive``, ``submit`` through the bot,
   ``verify_deferred``, ``peer_connected``, ``vote_remove``);
2. honest records never diverge at an entry by an honest author; at the end, records that
   diverge are allowed only if every honest peer halted naming a hostile seat with evidence;
3. no honest seat is ever named (``cheat``/``rejected`` notices, ``GameCore.cheaters``, the
   halt text names a hostile seat) or removed; nor a seat that left or was removed for a
   removal vote or "no" (``record.vote``, ``record.unvote``) sent from its link;
4. whenever nothing is in flight, every honest peer whose game runs can say whom it waits for
   (``GameCore.waiting_for`` non-empty, naming a seat); at the end, with every held message
   released, every link up and the hostile seats honest, the game finishes (or keeps making
   progress until the delivery bound), or every honest peer halted naming a hostile seat;
5. no card hidden from everyone but (at most) its holder at the end can be decrypted from the
   public record: the record never holds the decryption share of it of every seat whose layer
   is still on it.

Run a campaign (random configurations and moves, every violation written down; the
reproducer of each is its JSON line) with ``python -m tests.p2p.adversary --minutes 30
--out /tmp/campaign.jsonl``; replay a line with ``--replay FILE:LINE``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from lancards.p2p.net.node import bot_moves
from lancards.p2p.protocol.agreement import ACK_WINDOW
from lancards.p2p.protocol.core import GameCore, Notice, Output, Persist, Send
from lancards.p2p.protocol.escrow_entries import ESCROW_PURPOSE
from lancards.p2p.protocol.record import Entry, sign_entry
from lancards.p2p.protocol.removal import RemovalPolicy
from lancards.p2p.protocol.sealed import seal
from lancards.p2p.protocol.series import sign_answer
from lancards.p2p.protocol.statement import sign_statement
from lancards.p2p.protocol.votes import sign_vote, sign_withdrawal
from lancards.p2p.protocol.wire import link_envelope, sign_envelope
from tests.p2p.core_harness import Network, entry_of, make_cores, twin_entry
from tests.p2p.test_hostile_fuzz import paths

OLD_FORK_REPLIES = 4
"""The fork replies a peer gave each seat for the whole game before issue 23 (situation 2): a
burst of bogus acks one or two above it spent that budget; kept as the burst size."""

GAMES = ("level8-master", "level8", "level8-en", "eights")

KINDS = ("honest", "honest", "honest", "fork", "mutate", "mutate", "hold", "release", "drop",
         "restore", "ack", "sync", "vote", "unvote", "escrow", "replay", "old", "leave", "vanish",
         "return", "remove", "presence", "rematch", "renege", "links")
"""The moves, the honest one weighted three times."""

Move = tuple[str, int, int, int, int]
"""``(kind, a, b, c, deliver)``: see the module docstring."""

STRINGS = ["\ud800", "a\ud800b", "\x00", "x\x00", "\n", "\udfff\ud800"]
"""Texts that are valid JSON escapes but not valid text, or NUL (issue 23, situation 1)."""

VALUES: list[Any] = [None, True, 0, -1, 2**53 + 1, "", "x" * 5000, [], {}, [[[[[]]]]], 1.5,
                     "00" * 32, {"t": "action"}, *STRINGS]


@dataclass(frozen=True)
class Config:
    """One game of the adversary: the rule set, 3..6 peers, the table option rescue, the
    hostile seats (one or two) and the seed of every peer's randomness."""

    game: str
    n: int
    rescue: bool
    hostile: tuple[int, ...]
    seed: int


class Violation(AssertionError):
    """An invariant failed: ``number`` (1..5) and what was seen."""

    def __init__(self, number: int, text: str) -> None:
        super().__init__(f"invariant {number}: {text}")
        self.number = number
        self.text = text


# ---------------------------------------------------------------------------------------------
# Mutations of one message.


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _resign_entry(core: GameCore, data: Any) -> Any:
    """The hostile seat signs the changed entry when its fields still parse (else as is)."""
    try:
        entry = Entry.from_dict(data, "adversary")
        return sign_entry(core.me, entry.table, entry.seq, entry.prev, entry.payload,
                          entry.state).to_dict()
    except Exception:
        return data


def mutate(core: GameCore, data: bytes, c: int) -> list[bytes]:
    """The bytes that go out instead of ``data`` (one of ``core``'s messages), by variant
    ``c``: empty (dropped), twice (duplicated), a raw byte flipped, or one field changed."""
    rng = random.Random(c)
    kind = rng.choice(["field"] * 6 + ["string"] * 3 + ["bytes", "duplicate", "drop"])
    if kind == "drop":
        return []
    if kind == "duplicate":
        return [data, data]
    if kind == "bytes":
        changed = bytearray(data)
        changed[rng.randrange(len(changed))] ^= rng.choice([0x01, 0x20, 0x80])
        return [bytes(changed)]
    env = json.loads(data)
    body = env["body"]
    choices = paths(body)
    path = rng.choice(choices[1:] or choices)
    if kind == "string":  # a string value gains a lone surrogate, a NUL or a trailing newline
        strings = [p for p in choices if isinstance(_get(body, p), str)]
        if strings:
            path = rng.choice(strings)
            suffix = rng.choice(["\ud800", "\x00", "\n", "\\ud800"])
            new: Any = _get(body, path) + suffix
        else:
            new = rng.choice(STRINGS)
        op = "replace"
    else:
        op = rng.choice(["replace", "replace", "delete", "add", "deep"])
        new = rng.choice(VALUES)
        if op == "deep":
            new = []
            for _ in range(200):
                new = [new]
    if not path:
        body = {"x": new}
    else:
        parent = _get(body, path[:-1])
        key = path[-1]
        if op == "delete" and isinstance(parent, dict):
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent["zz" + str(key)] = new
        else:
            parent[key] = new
    if env["type"] == "record.entry" and rng.random() < 0.7 and isinstance(body.get("entry"),
                                                                             dict):
        body["entry"] = _resign_entry(core, body["entry"])
    if rng.random() < 0.8 and env.get("sig"):
        try:
            return [sign_envelope(core.me, env["type"], env["tbl"], env["seq"], body).encode()]
        except Exception:  # not canonical or not text: sent with the old signature
            pass
    env["body"] = body
    return [json.dumps(env).encode()]


# ---------------------------------------------------------------------------------------------
# The table.


@dataclass
class Stats:
    steps: int = 0
    delivered: int = 0
    moves: dict[str, int] = field(default_factory=dict)
    forks: int = 0
    outcome: str = ""
    named: dict[int, set[int]] = field(default_factory=dict)
    """Honest seat -> the seats its ``cheat`` and ``rejected`` notices named, at the end."""


class Adversary(Network):
    """An in-memory table with hostile seats and controllable links (see the module)."""

    def __init__(self, config: Config, known: bool | None = None) -> None:
        self.known = KNOWN if known is None else known
        """Also play the moves that trigger the open findings (:data:`KNOWN`)."""
        options = {"rescue": "on"} if config.rescue else None
        cores, _ = make_cores(config.n, config.game, seed=f"adv-{config.seed}", options=options)
        super().__init__(cores)
        self.config = config
        self.list = cores
        self.hostile = tuple(sorted(set(config.hostile)))
        self.hkeys = {cores[i].me.public_key for i in self.hostile}
        self.honest = [c for c in cores if c.seat not in self.hostile]
        self.down: set[frozenset[bytes]] = set()
        self.clock = 0.0
        self.policies: dict[int, RemovalPolicy] = {}
        self.holding: set[tuple[bytes, bytes]] = set()
        self.held: list[tuple[bytes, bytes, bytes]] = []
        self.vanished: set[bytes] = set()
        self.broken: dict[int, str] = {}
        """Hostile seats whose own core raised (a finding too; the seat stays vanished)."""
        self.sent: list[tuple[bytes, bytes, bytes]] = []
        self.fork_armed: dict[int, set[bytes]] = {}
        self.mutations: dict[int, list[tuple[bytes | None, int]]] = {}
        self.stats = Stats()
        self._checked: dict[bytes, int] = {k: 0 for k in self.cores}

    # -- the network ---------------------------------------------------------------------------

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        seat = self.cores[sender].seat
        if sender in self.hkeys and seat in self.fork_armed:
            outputs = self._fork(sender, list(outputs))
        for out in outputs:
            if isinstance(out, Persist):
                self.persisted[sender].append((out.kind, out.line))
            elif isinstance(out, Notice):
                self.notices[sender].append(out)
            elif isinstance(out, Send):
                targets = [out.to] if out.to is not None else [k for k in self.cores
                                                               if k != sender]
                for to in targets:
                    self._route(sender, to, out.data)

    def _route(self, sender: bytes, to: bytes, data: bytes) -> None:
        seat = self.cores[sender].seat
        pending = self.mutations.get(seat) if sender in self.hkeys else None
        datas = [data]
        if pending:
            for i, (target, c) in enumerate(pending):
                if target is None or target == to:
                    del pending[i]
                    datas = mutate(self.cores[sender], data, c)
                    break
        for item in datas:
            if sender in self.hkeys:
                self.sent.append((sender, to, item))
                del self.sent[:-300]
            self.queue.append((sender, to, item))

    def _fork(self, sender: bytes, outputs: list[Output]) -> list[Output]:
        """The hostile seat's first broadcast entry in ``outputs`` goes to the armed group as
        a validly signed twin (``ForkingNetwork``'s fork, at any moment)."""
        core = self.cores[sender]
        lines = list(self.persisted[sender])
        for out in outputs:
            if isinstance(out, Persist):
                if out.kind == "entry":
                    break
                lines.append((out.kind, out.line))
        for i, out in enumerate(outputs):
            if not isinstance(out, Send) or out.to is not None:
                continue
            entry = entry_of(out.data)
            if entry is None or entry["author"] != sender.hex():
                continue
            twin = twin_entry(core, lines, entry["seq"], entry)
            if twin is None:
                continue
            group = self.fork_armed.pop(core.seat)
            self.stats.forks += 1
            env = json.loads(out.data)
            forged = sign_envelope(core.me, "record.entry", env["tbl"], env["seq"],
                                   {"entry": twin}).encode()
            split: list[Output] = [Send(k, forged if k in group else out.data)
                                   for k in self.cores if k != sender]
            return outputs[:i] + split + outputs[i + 1:]
        return outputs

    def _call(self, core: GameCore, what: str, call: Callable[[], list[Output]]) -> None:
        key = core.me.public_key
        try:
            outputs = call()
        except Exception as exc:
            if core.seat not in self.hostile:
                raise Violation(1, f"{what} of honest seat {core.seat} raised "
                                   f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"
                                ) from exc
            self.broken[core.seat] = f"{what}: {type(exc).__name__}: {exc}"
            self.vanished.add(key)
            return
        self.post(key, outputs)

    def play_bot(self, key: bytes) -> None:
        core = self.cores[key]
        choose = self.bots.get(core)
        if choose is not None and key not in self.vanished:
            self._call(core, "submit (its bot's move)", lambda: bot_moves(core, choose))

    def step(self) -> None:
        sender, to, data = self.queue.pop(0)
        if sender in self.vanished or to in self.vanished or frozenset((sender, to)) in self.down:
            return
        if (sender, to) in self.holding:
            self.held.append((sender, to, data))
            return
        core = self.cores[to]
        self.delivered += 1
        self.stats.delivered += 1
        self._call(core, "receive", lambda: core.receive(sender, data))
        self.play_bot(to)

    def pump(self, limit: int) -> None:
        """Deliver up to ``limit`` messages; when none is in flight, the idle peers check a
        deferred proof each (as ``PeerNode`` does)."""
        end = self.delivered + limit
        while self.delivered < end:
            if self.queue:
                self.step()
                continue
            busy = [c for c in self.list
                    if c.deferred_proofs and c.me.public_key not in self.vanished]
            if not busy:
                if self._policies_say_no():
                    continue
                return
            for core in busy:
                self._call(core, "verify_deferred", core.verify_deferred)
                self.play_bot(core.me.public_key)

    def _policies_say_no(self) -> bool:
        """Nothing in flight: time passes (:data:`IDLE_SECONDS`) and every honest peer says the
        "no"s its removal policy calls for, as ``PeerNode.run`` does (a vote whose seat is
        connected to the voter, or a round one patience old). Whether anything was said."""
        self.clock += IDLE_SECONDS
        said = False
        for core in self.honest:
            key = core.me.public_key
            if key in self.vanished:
                continue

            def up(seat: int, key: bytes = key) -> bool:
                other = self.list[seat].me.public_key
                return other not in self.vanished and frozenset((key, other)) not in self.down

            policy = self.policies.setdefault(core.seat, RemovalPolicy(PATIENCE_SECONDS))
            for seat in policy.withdrawals(core, up, self.clock):
                self._call(core, "withdraw_vote", lambda core=core, seat=seat:
                           core.withdraw_vote(seat))
                said = True
        return said and bool(self.queue)

    def link_up(self, a: GameCore, b: GameCore) -> None:
        for x, y in ((a, b), (b, a)):
            if x.me.public_key not in self.vanished:
                self._call(x, "peer_connected", lambda x=x, y=y: x.peer_connected(y.me.public_key))

    # -- the moves -----------------------------------------------------------------------------

    def envelope(self, core: GameCore, type_: str, body: dict[str, Any]) -> bytes:
        seq, core._env_seq = core._env_seq, core._env_seq + 1
        return sign_envelope(core.me, type_, core.table_id, seq, body).encode()

    def apply(self, move: Move) -> None:
        kind, a, b, c, _ = move
        self.stats.moves[kind] = self.stats.moves.get(kind, 0) + 1
        h = self.hostile[a % len(self.hostile)]
        hc = self.list[h]
        hk = hc.me.public_key
        target = self.honest[b % len(self.honest)]
        tk = target.me.public_key
        if not self.known and self._known_trigger(kind):
            return
        if kind == "fork":
            group = {self.honest[i].me.public_key for i in range(len(self.honest))
                     if (c >> i) & 1} or {tk}
            self.fork_armed[h] = group
        elif kind == "mutate":
            self.mutations.setdefault(h, []).append((None if c % 3 == 0 else tk, c))
        elif kind == "hold":
            self.holding.add((hk, tk))
        elif kind == "release":
            if self.holding:
                pair = sorted(self.holding)[c % len(self.holding)]
                self.holding.discard(pair)
                self.queue += [m for m in self.held if m[:2] == pair]
                self.held = [m for m in self.held if m[:2] != pair]
        elif kind == "drop":
            x, y = self.list[b % self.config.n], self.list[c % self.config.n]
            if x is not y:
                self.down.add(frozenset((x.me.public_key, y.me.public_key)))
        elif kind == "restore":
            if self.down:
                pair = sorted(self.down, key=sorted)[c % len(self.down)]
                self.down.discard(pair)
                x, y = (self.cores[k] for k in sorted(pair))
                self.link_up(x, y)
        elif kind == "ack":
            self._bogus_acks(hc, target, c)
        elif kind == "sync":
            have = [0, len(target.record), len(target.record) + 5, 10**9, max(0, c % 50)][c % 5]
            self.queue.append((hk, tk, self.envelope(hc, "record.sync", {"have": have})))
        elif kind == "vote":
            self._bogus_vote(hc, target, c)
        elif kind == "unvote":
            self._bogus_unvote(hc, target, c)
        elif kind == "escrow":
            self._bad_escrow(hc, c)
        elif kind == "replay":
            if self.sent:
                mine = [m for m in self.sent if m[0] == hk] or self.sent
                _, _, data = mine[c % len(mine)]
                self.queue.append((hk, tk, data))
        elif kind == "old":
            if hc.record.entries:
                entry = hc.record.entries[c % len(hc.record.entries)].to_dict()
                self.queue.append((hk, tk, self.envelope(hc, "record.entry", {"entry": entry})))
        elif kind == "leave":
            if hk not in self.vanished and h not in self.broken:
                try:
                    outputs = hc.leave()
                except Exception:  # LocalProtocolError: not now (its own core says why)
                    outputs = []
                self.post(hk, outputs)
        elif kind == "vanish":
            self.vanished.add(hk)
        elif kind == "return":
            self._come_back(hc)
        elif kind == "remove":
            self._vote_out(h)
        elif kind == "renege":
            if self.config.game == "eights" and hc in self.bots:
                self.bots[hc] = reneging_bot(hc, self.bots[hc])
        elif kind == "presence":  # "paused" lies, other states, other fields (issue 25)
            body: dict[str, Any] = [{"state": "paused"}, {"state": "back"},
                                    {"state": "paused", "seat": target.seat},
                                    {"state": "x" * 5000}][c % 4]
            self.queue.append((hk, tk, self.envelope(hc, "presence", body)))
        elif kind == "links":  # words of a partial mesh: lies, bad seats, floods
            n = len(self.list)
            links: dict[str, Any] = [
                {"missing": [target.seat]}, {"missing": [hc.seat]},
                {"missing": [target.seat, target.seat]}, {"missing": [n % 6]},
                {"missing": list(range(7))}, {"missing": []}, {"missing": [99]},
                {"missing": [target.seat], "why": "x" * 5000}][c % 8]
            for _ in range(70 if c % 5 == 0 else 1):
                self.queue.append((hk, tk, self.envelope(hc, "links", links)))
        elif kind == "rematch":
            answer = sign_answer(hc.me, hc.table_id, hc.record.head, True)
            if c % 3 == 0:
                self.queue.append((hk, tk, self.envelope(hc, "rematch.answer",
                                                         {"answer": answer})))
            else:
                follows = {"tbl": hc.table_id, "head": hc.record.head, "series": hc.table_id,
                           "game": 2, "accepts": [answer, answer], "totals": []}
                statement = {**hc.table.statement, "tbl": f"{c % 2**64:016x}",
                             "host": hk.hex(), "follows": follows}
                sigs = {hk.hex(): sign_statement(hc.me, statement).hex()}
                body = {"statement": statement, "sigs": sigs}
                # the watcher's next-table notice (link-only) sent to a seat instead
                data = (self.envelope(hc, "rematch.sign", body) if c % 3 == 1 else
                        link_envelope(hc.me, "watch.next", hc.table_id, body).encode())
                self.queue.append((hk, tk, data))

    def _known_trigger(self, kind: str) -> bool:
        """Whether ``kind`` now would mix a fork with cut links or bogus acks (findings F4
        and situation 2), or a departure in 8s Rule! (F3), all open: skipped
        unless :attr:`known`."""
        forked = bool(self.fork_armed) or self.stats.forks > 0
        if kind == "fork":
            return bool(self.down) or self.stats.moves.get("ack", 0) > 0
        if self.config.game == "eights" and kind in ("leave", "remove"):
            return True  # F3: a departure in 8s Rule! after messages were lost
        return kind in ("drop", "ack") and forked

    def _bogus_acks(self, hc: GameCore, target: GameCore, c: int) -> None:
        length = len(target.record)
        variant = c % 6
        count = 1 + (c // 6) % (OLD_FORK_REPLIES + 2)
        for i in range(count):
            seq = [length - 1 - i, length + i, length + 1 + i, length + ACK_WINDOW - 1, i,
                   length - 1][variant]
            if seq < 0:
                continue
            digest = f"{(c * 7919 + i) % 2**256:064x}"
            if variant == 5 and i < length:
                digest = target.record.entries[length - 1 - i].hash  # a true hash, elsewhere
            data = link_envelope(hc.me, "record.ack", hc.table_id,
                                 {"seq": seq, "hash": digest}).encode()
            self.queue.append((hc.me.public_key, target.me.public_key, data))

    def _bogus_vote(self, hc: GameCore, target: GameCore, c: int) -> None:
        variant = c % 5
        seat = [target.seat, hc.seat, target.seat, target.seat, target.seat][variant]
        at = len(target.record) + (1000 if variant == 2 else 0)
        vote = sign_vote(hc.me, hc.table_id, seat, at, target.record.head)
        if variant == 3:
            vote["sig"] = "00" * 64
        if variant == 4:  # an honest peer's vote at another position, relayed (forged by it)
            vote = sign_vote(target.me, hc.table_id, hc.seat, max(0, at - 1), "00" * 32)
        self.queue.append((hc.me.public_key, target.me.public_key,
                           self.envelope(hc, "record.vote", {"vote": vote})))

    def _bogus_unvote(self, hc: GameCore, target: GameCore, c: int) -> None:
        """A signed "no" (``record.unvote``): to removing an honest seat here (a true one, or
        of a later round), itself, far ahead, badly signed, for another table."""
        variant = c % 6
        seat = hc.seat if variant == 1 else target.seat
        at = len(target.record) + (1000 if variant == 2 else 0)
        table = "fedcba9876543210" if variant == 5 else hc.table_id
        unvote = sign_withdrawal(hc.me, table, seat, at, target.record.head, c % 3)
        if variant == 3:
            unvote["sig"] = "00" * 64
        self.queue.append((hc.me.public_key, target.me.public_key,
                           self.envelope(hc, "record.unvote", {"unvote": unvote})))

    def _bad_escrow(self, hc: GameCore, c: int) -> None:
        """The hostile seat's next escrow deals one holder a part that is not its share."""
        honest = type(hc)._make_escrow

        def bad() -> dict[str, Any]:
            payload = honest(hc)
            holders = sorted(payload["parts"])
            holder = int(holders[c % len(holders)])
            plaintext = json.dumps({"part": f"{c + 12345:064x}"}).encode()
            payload["parts"][str(holder)] = seal(
                hc.me, hc.players[holder], hc.table_id, ESCROW_PURPOSE, plaintext,
                random_bytes=random.Random(c).randbytes).to_dict()
            del hc._make_escrow  # once
            return payload

        hc._make_escrow = bad  # type: ignore[method-assign]

    def _come_back(self, hc: GameCore) -> None:
        key = hc.me.public_key
        if key not in self.vanished or hc.seat in self.broken:
            return
        if not self.known and any(c.votes_for(hc.seat) for c in self.list):
            return  # back in the middle of its removal: finding F2
        self.vanished.discard(key)
        for other in self.list:
            if other is not hc and other.me.public_key not in self.vanished:
                self.link_up(hc, other)
        self.play_bot(key)

    def _vote_out(self, h: int) -> None:
        """The peers that wait for vanished seat ``h`` vote to remove it (as
        ``PeerNode.removal_refusal`` allows; a second hostile seat votes too, honestly).
        Unless :data:`KNOWN`, only when every other present seat can vote at one position with
        nothing in flight (else the vote cannot complete and the table stalls: finding F2)."""
        if not self.config.rescue or self.list[h].me.public_key not in self.vanished:
            return
        voters = [c for c in self.list if c.seat != h and c.me.public_key not in self.vanished
                  and not c.has_left(c.seat) and c.seat in c.deck.present]
        ready = [c for c in voters if c.removal_problem(h) is None
                 and ((c.waiting_for() and c.waiting_for()[0].seat == h) or c.votes_for(h))
                 and c.seat not in c.votes_for(h)]
        if not self.known and self.config.game == "eights":
            return  # finding F3: a removal in 8s Rule! can crash the honest peers
        if not self.known:
            present = [c for c in self.list if c.seat != h and c.seat in self.list[0].deck.present]
            heads = {(len(c.record), c.record.head) for c in voters}
            if self.queue or len(heads) != 1 or len(ready) != len(voters) \
                    or len(voters) != len(present) or self.holding:
                return
        for core in ready:
            self._call(core, "vote_remove", lambda core=core: core.vote_remove(h))

    # -- settling ------------------------------------------------------------------------------

    def settle(self) -> None:
        """The hostile seats turn honest: nothing more is changed or held, every held message
        goes out, every link comes up (each end told), the vanished come back."""
        self.fork_armed.clear()
        self.mutations.clear()
        self.holding.clear()
        for h in self.hostile:
            self.list[h].__dict__.pop("_make_escrow", None)
        self.queue += self.held
        self.held = []
        self.down.clear()
        self._all_links_up()
        if not self.known and any(c.votes_for(self.cores[k].seat) for c in self.list
                             for k in self.vanished):
            self.pump(5000)  # a removal under way completes before the seat comes back (F2)
        self.vanished = {self.list[h].me.public_key for h in self.broken}
        self._all_links_up()

    def _all_links_up(self) -> None:
        live = [c for c in self.list if c.me.public_key not in self.vanished]
        for i, x in enumerate(live):
            for y in live[i + 1:]:
                self.link_up(x, y)
        for core in live:
            self.play_bot(core.me.public_key)

    # -- invariants ----------------------------------------------------------------------------

    def names(self) -> set[str]:
        return {self.list[h].me.nick for h in self.hostile}

    def check_step(self) -> None:
        hostile = set(self.hostile)
        for core in self.honest:
            key = core.me.public_key
            for notice in self.notices[key][self._checked[key]:]:
                if notice.kind in ("cheat", "rejected") and notice.seat is not None \
                        and notice.seat not in hostile:
                    raise Violation(3, f"honest seat {core.seat} named seat {notice.seat}: "
                                       f"{notice.kind}: {notice.text}")
                if notice.kind == "rejected" and notice.seat in core.left_seats() \
                        and "a removal " in notice.text:
                    raise Violation(3, f"seat {core.seat} named seat {notice.seat}, which is no "
                                       f"longer at the table, for a vote: {notice.text}")
            self._checked[key] = len(self.notices[key])
            if not set(core.cheaters) <= hostile:
                raise Violation(3, f"seat {core.seat} holds honest cheaters {core.cheaters}")
            evidence = {core.seat_of(c.entry.author) for c in core.record.cheats}
            if not evidence <= hostile:  # the record's cheat line (p2p.protocol.cheat_evidence)
                raise Violation(3, f"seat {core.seat} keeps a cheat line against {evidence}")
            if not set(core.unreached) <= hostile:  # honest cores here send no links message
                raise Violation(3, f"seat {core.seat} heard links from {set(core.unreached)}")
            if core.halted is not None:
                if not core.cheaters:
                    raise Violation(3, f"seat {core.seat} halted naming nobody: {core.halted}")
                if not any(name in core.halted for name in self.names()):
                    raise Violation(3, f"seat {core.seat} halted without naming a hostile "
                                       f"seat: {core.halted}")
            gone = set(core.left_seats()) | ({core.removing} - {None})
            if not gone <= hostile:
                raise Violation(3, f"seat {core.seat} sees honest seats {gone - hostile} "
                                   "removed or leaving")
        for i, x in enumerate(self.honest):
            for y in self.honest[i + 1:]:
                at = diverges(x, y)
                if at is None:
                    continue
                authors = {x.seat_of(x.record.entries[at].author),
                           y.seat_of(y.record.entries[at].author)}
                if not authors <= hostile:
                    raise Violation(2, f"the records of seats {x.seat} and {y.seat} differ at "
                                       f"entry {at}, by seats {authors}")

    def check_quiet(self) -> None:
        """Nothing in flight: every honest peer whose game runs names whom it waits for."""
        for core in self.honest:
            if core.halted is not None or core.to_act() is None:
                continue
            waits = core.waiting_for()
            if not waits or not all(0 <= w.seat < self.config.n for w in waits):
                raise Violation(4, f"seat {core.seat} cannot say whom it waits for "
                                   f"(record {len(core.record)}, expected {core.expected()}, "
                                   f"held {len(self.held)}, vanished "
                                   f"{[self.cores[k].seat for k in self.vanished]})")

    def check_end(self, grew: bool) -> str:
        """After :meth:`settle` and the tail: the game finished, or everyone halted naming a
        hostile seat, or it goes on (``grew``). Returns the outcome in words."""
        self.check_step()
        hostile = set(self.hostile)
        halted = [c for c in self.honest if c.halted is not None]
        if halted:
            if len(halted) != len(self.honest):
                if self.queue:
                    return "halting"
                raise Violation(2, f"seats {[c.seat for c in halted]} halted, seats "
                                   f"{[c.seat for c in self.honest if c.halted is None]} not")
            for core in self.honest:
                if not set(core.cheaters) & hostile:
                    raise Violation(3, f"seat {core.seat} halted: {core.halted}")
            return "halted"
        for i, x in enumerate(self.honest):
            for y in self.honest[i + 1:]:
                if diverges(x, y) is not None:
                    raise Violation(2, f"seats {x.seat} and {y.seat} diverged and did not halt")
        for core in self.honest:
            check_private(self.list, core)
        if all(c.to_act() is None for c in self.honest):
            lengths = {len(c.record) for c in self.honest}
            if len(lengths) != 1:
                raise Violation(4, f"finished with records of lengths {lengths}")
            return "finished"
        if self.queue or grew:
            return "running"
        self.check_quiet()
        waits = {c.seat: [(w.seat, w.what) for w in c.waiting_for()] for c in self.honest}
        raise Violation(4, f"stalled after settling (every link up, nothing held): {waits}; "
                           f"broken hostile cores: {self.broken}")


def reneging_bot(core: GameCore, honest: Callable[[Sequence[Any]], Any]
                 ) -> Callable[[Sequence[Any]], Any]:
    """An 8s Rule! chooser that reneges whenever it can (the ``renege`` move): a pass in round
    8, a card off the led suit in a trick round when the hand holds one; else ``honest``."""
    from lancards.engine.eights import Pass, Phase, Play
    from lancards.engine.eights.cards import CARDS, NUMBERS

    def choose(legal: Sequence[Any]) -> Any:
        state = core.state
        if state.phase is Phase.LAYOUT:
            return Pass(core.seat)
        if state.phase is Phase.TRICKS and state.trick:
            led = state.trick[0].card // NUMBERS
            for slot in state.hands[core.seat]:
                card = state.ident[slot - state.base]
                if card >= 0 and card // NUMBERS != led:
                    return Play(core.seat, slot, CARDS[card])
        return honest(legal)

    return choose


def diverges(x: GameCore, y: GameCore) -> int | None:
    """The first entry number at which two records differ (``None``: one is a prefix)."""
    for i, (e, f) in enumerate(zip(x.record.entries, y.record.entries, strict=False)):
        if e.hash != f.hash:
            return i
    return None


def published_shares(core: GameCore) -> dict[int, set[str]]:
    """slot -> every decryption share point (hex) the public record holds for it: in leaves,
    rescues, public reveals and the batches openings forward."""
    found: dict[int, set[str]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("slot"), int) and isinstance(value.get("share"), str):
                found.setdefault(value["slot"], set()).add(value["share"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for entry in core.record.entries:
        walk(entry.payload)
    return found


def check_private(cores: Sequence[GameCore], core: GameCore) -> None:
    """Invariant 5 at ``core``: every slot hidden from all seats, or from all but its holder,
    keeps at least one present seat's decryption share out of the public record."""
    shares = published_shares(core)
    knowledge = core.game.knowledge(core.state)
    for slot, mask in knowledge.items():
        if mask & (mask - 1):
            continue  # known to two seats or more (or public)
        ciphertext = core.deck.ciphertext(slot)
        if ciphertext is None:
            continue
        needed = {(ciphertext.b * cores[s].deck.secret_key).hex() for s in core.deck.present}
        if needed <= shares.get(slot, set()):
            raise Violation(5, f"card #{slot} (known to mask {mask:b}) can be decrypted from "
                               f"seat {core.seat}'s public record: every present seat's "
                               "share of it is in it")


# ---------------------------------------------------------------------------------------------
# One game.


IDLE_SECONDS = 5.0
"""Seconds that pass whenever nothing is in flight (for the removal policies' clocks)."""

PATIENCE_SECONDS = 20.0
"""The life of a removal round in the adversary's tables (a node uses the table's patience)."""

KNOWN = os.environ.get("LANCARDS_ADVERSARY_KNOWN", "") == "1"
"""Also play the moves that triggered the findings F2..F4 and situation 2 (fixed: forks mixed
with cut links or bogus acks, departures in 8s Rule!, votes that cannot complete, returns
mid-removal; ``docs/threat-model.md``, "The adversary"): off by default so that the drawn games
keep to what they were made green with; campaigns set ``LANCARDS_ADVERSARY_KNOWN=1``. The votes
of finding F1 (shown to one peer, for the voter itself) are always played since F6 is fixed."""

TAIL = int(os.environ.get("LANCARDS_ADVERSARY_TAIL", "1500"))
"""Messages delivered after settling (0: until the game ends or stalls)."""


def play(config: Config, moves: Sequence[Move], tail: int = TAIL,
         stats: Stats | None = None, known: bool | None = None) -> Stats:
    """Play one game of the adversary; raise :class:`Violation` when an invariant fails
    (``known``: also the moves of the open findings, default :data:`KNOWN`)."""
    return played(config, moves, tail, stats, known).stats


def played(config: Config, moves: Sequence[Move], tail: int = TAIL,
           stats: Stats | None = None, known: bool | None = None) -> Adversary:
    """:func:`play`, giving the whole adversary at its end (its cores, their notices)."""
    net = Adversary(config, known)
    if stats is not None:
        net.stats = stats
    net.start()
    for key in list(net.cores):
        net.play_bot(key)
    for move in moves:
        net.apply(move)
        net.pump(move[4])
        net.stats.steps += 1
        net.check_step()
        if not net.queue and not any(c.deferred_proofs for c in net.honest):
            net.check_quiet()
    net.settle()
    before = min(len(c.record) for c in net.honest)
    net.pump(tail or 10**7)
    grew = min(len(c.record) for c in net.honest) > before and tail > 0
    net.stats.outcome = net.check_end(grew)
    net.stats.named = {c.seat: {n.seat for n in net.notices[c.me.public_key]
                                if n.kind in ("cheat", "rejected") and n.seat is not None}
                       for c in net.honest}
    if net.broken:
        net.stats.outcome += f" (hostile cores broken: {net.broken})"
    return net


def random_game(rng: random.Random, steps: int) -> tuple[Config, list[Move]]:
    game = rng.choice(GAMES)
    n = rng.randint(3, 6)
    hostile = tuple(sorted(rng.sample(range(n), 2 if n >= 4 and rng.random() < 0.3 else 1)))
    config = Config(game, n, rng.random() < 0.5, hostile, rng.randrange(10**6))
    moves = [(rng.choice(KINDS), rng.randrange(4), rng.randrange(8), rng.randrange(10**6),
              rng.randrange(0, 80)) for _ in range(rng.randint(1, steps))]
    return config, moves


def campaign(minutes: float, out: str, steps: int, tail: int, seed: int) -> None:
    """Random games for ``minutes`` of CPU; one JSON line per game in ``out``."""
    start = time.process_time()
    rng = random.Random(seed)
    totals: dict[str, int] = {"games": 0, "steps": 0, "delivered": 0, "violations": 0}
    with open(out, "a") as log:
        while time.process_time() - start < minutes * 60:
            config, moves = random_game(rng, steps)
            stats = Stats()
            line: dict[str, Any] = {"config": asdict(config), "moves": moves}
            began = time.process_time()
            try:
                play(config, moves, tail, stats)
                line["result"] = stats.outcome
            except Violation as exc:
                line["result"] = "violation"
                line["invariant"] = exc.number
                line["text"] = exc.text[:3000]
                totals["violations"] += 1
            except Exception as exc:  # the adversary itself failed
                line["result"] = "error"
                line["text"] = traceback.format_exc()[-3000:]
                totals["violations"] += 1
                del exc
            line.update(steps=stats.steps, delivered=stats.delivered, forks=stats.forks,
                        cpu=round(time.process_time() - began, 1))
            totals["games"] += 1
            totals["steps"] += stats.steps
            totals["delivered"] += stats.delivered
            log.write(json.dumps(line) + "\n")
            log.flush()
            print(totals, line["result"], config, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=20)
    parser.add_argument("--out", default="/tmp/adversary-campaign.jsonl")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--tail", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--replay", help="FILE:LINE of a campaign log to play again")
    args = parser.parse_args(argv)
    if args.replay:
        path, number = args.replay.rsplit(":", 1)
        with open(path) as f:
            line = json.loads(f.readlines()[int(number) - 1])
        config = Config(**{**line["config"], "hostile": tuple(line["config"]["hostile"])})
        print(play(config, [tuple(m) for m in line["moves"]], args.tail))  # type: ignore[misc]
        return 0
    campaign(args.minutes, args.out, args.steps, args.tail, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
