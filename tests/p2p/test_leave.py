"""Leaving a table for good through the peer protocol (rulings D-1..D-4; p2p/protocol/departure.py).

Seeded games of every rule set with in-process peers (``core_harness``): seats leave at target
moments (during "I'll take that!" / "I'll swap that!", a Skip, mid-trick, during a shuffle
epoch, at a turn); every game finishes, every peer holds the same record, the audit of it is
``ok``, and no decryption share or opening in the record ever touches a hidden card of a
leaver's hand. ``LANCARDS_LEAVE_GAMES`` (default 0 extra) adds that many random seeded games per
rule set at 3..6 peers. Then each bad leave is refused, its author named, the record intact.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from lancards.engine.core import CHANCE, ShuffleRequest
from lancards.engine.rulesets import standard_bot
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.audit import audit_lines
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.record import Entry, sign_entry
from lancards.p2p.protocol.schedule import EntryKind
from lancards.p2p.protocol.wire import link_envelope, parse_json, sign_envelope
from tests.p2p.core_harness import Network, make_cores

EXTRA_GAMES = int(os.environ.get("LANCARDS_LEAVE_GAMES", "1")) - 1
"""Random seeded games per rule set beyond the fixed cases (the env var counts the games per
case of the engine's contract test too; its default 1 adds none here)."""


# ---------------------------------------------------------------------------------------------
# Moments a seat may leave at (checked on that seat's own view before every delivery to it).


def _phase(core: GameCore) -> str:
    phase = core.state.phase
    return str(getattr(phase, "value", phase)).lower()


def _moment(name: str, core: GameCore) -> bool:
    """Whether ``core``'s seat should choose to leave now for target moment ``name``."""
    state, seat = core.state, core.seat
    actor = core.game.to_act(state)
    if name == "special":  # owes a reply to "I'll take that!", or took / swaps
        return _phase(core) in ("show", "choose", "swap") and (
            seat in getattr(state, "show_queue", ()) or seat == actor)
    if name == "skip":  # a Skip lies in front of it
        return _phase(core) == "skipped" and seat == actor
    if name == "mid-trick":
        return bool(getattr(state, "trick", ())) and seat == actor
    if name == "gather":  # between a round's end and its shuffle, with cards of its hand
        # gathered that only it knows (Level 8): they go out with it, unpublished
        if actor != CHANCE or not isinstance(core.game.chance_request(state), ShuffleRequest):
            return False
        mine = 1 << seat
        return any(state.known.get(s) == mine for s in getattr(state, "gathered", ()))
    if name == "shuffle":  # its leave comes after an earlier seat's shuffle of the epoch
        if actor != CHANCE or not isinstance(core.game.chance_request(state), ShuffleRequest):
            return False
        turn = core.deck.shuffle_turn()
        return turn is not None and turn < seat
    return seat == actor  # "turn"


@dataclass
class LeaveGame:
    """A game of bots in which seats leave at the planned moments, in order."""

    cores: list[GameCore]
    net: Network
    plan: list[str]
    patience: int = 150
    moves: int = 0
    armed_at: int = 0
    hit: list[str] = field(default_factory=list)
    """The moment each leave was chosen at ("late: turn" when its target did not come)."""

    def arm(self, core: GameCore) -> None:
        if not self.plan or core.leaving or core.has_left(core.seat) or core.to_act() is None:
            return
        if any(c.leaving for c in self.cores) or self.moves < self.armed_at + 4:
            return
        late = self.moves >= self.armed_at + self.patience
        if _moment(self.plan[0], core) or (late and _moment("turn", core)):
            target = self.plan.pop(0)
            self.hit.append(target if _moment(target, core) else "late: turn")
            self.armed_at = self.moves
            self.net.post(core.me.public_key, core.leave())

    def run(self, limit: int = 5000) -> None:
        net, bots = self.net, [standard_bot(c.game) for c in self.cores]
        by_key = {c.me.public_key: c for c in self.cores}
        net.start()
        while self.moves < limit:
            while net.queue:
                sender, to, data = net.queue.pop(0)
                core = by_key[to]
                self.arm(core)
                net.post(to, core.receive(sender, data))
            for core in self.cores:
                self.arm(core)
            mover = next((c for c in self.cores if c.legal_actions() and not c.leaving), None)
            if mover is None:
                if net.queue:
                    continue
                return
            legal = mover.legal_actions()
            net.post(mover.me.public_key, mover.submit(bots[mover.seat].choose(
                mover.state, mover.seat, legal)))
            self.moves += 1


def leaver_hands(core: GameCore) -> list[tuple[int, int, set[int]]]:
    """(entry number, leaver, hidden slots of its hand) for every leave in ``core``'s record,
    found by replaying the record as an observer."""
    observer = GameCore.observer(core.table)
    found = []
    for entry in core.record.entries:
        if entry.payload["t"] == EntryKind.LEAVE:
            seat = entry.payload["seat"]
            hidden = {s for s in observer.game.leaving_slots(observer.state, seat)
                      if observer.deck.ciphertext(s) is not None}
            found.append((entry.seq, seat, hidden))
        observer.record.append(entry, observer.validator("test"))
    return found


def _slots_touched(payload: dict[str, Any]) -> set[int]:
    """Slots that an entry publishes a decryption share of, or opens."""
    messages = [payload["msg"]] if "msg" in payload else list(payload.get("open", ()))
    out: set[int] = set()
    for msg in messages:
        if msg.get("type") == "open":
            out.add(msg["slot"])
        for share in msg.get("shares", ()) if isinstance(msg, dict) else ():
            out.add(share["slot"] if "slot" in share else msg.get("slot"))
    return out


def check_finished(game: LeaveGame, leaves: int) -> list[tuple[int, int, set[int]]]:
    cores = game.cores
    first = cores[0]
    entries = [e.to_dict() for e in first.record.entries]
    for core in cores:
        assert core.halted is None, core.halted
        assert [e.to_dict() for e in core.record.entries] == entries
    outcome = first.game.outcome(first.state)
    assert outcome is not None, "the game did not finish"
    report = audit_lines(first.record.to_lines())
    assert report.status == "ok", report.error
    assert report.outcome == outcome
    found = leaver_hands(first)
    assert [seat for _, seat, _ in found] == list(outcome.detail["left"])
    assert len(found) == leaves
    for seq, seat, hidden in found:
        # D-1: the leaver's hidden hand is never opened: no share or opening of it in the
        # record, from the leave on (its own leave excludes it)
        for entry in first.record.entries[seq:]:
            touched = _slots_touched(entry.payload)
            assert not touched & hidden, (seat, entry.seq, touched & hidden)
        assert all(first.deck.card(s) is None for s in hidden)
    # D-2: leavers rank last, the later one higher; no leaver wins
    left = list(outcome.detail["left"])
    places = outcome.detail["places"]
    n = len(cores)
    assert [places[s] for s in reversed(left)] == list(range(n - len(left) + 1, n + 1))
    assert not set(outcome.winners) & set(left)
    return found


# ---------------------------------------------------------------------------------------------
# Whole games with leaves.

CASES = [
    # rule set, peers, planned moments, seed; each case ends early by D-3 once enough left
    ("level8-master", 3, ["special", "turn"], "take"),
    ("level8", 4, ["skip", "shuffle", "turn"], "skip"),
    ("eights", 4, ["mid-trick", "shuffle"], "trick"),
    # a leave between a round's end and its shuffle: the cards of the leaver's hand gathered
    # there go out of play with it, never published (Game.leaving_slots)
    ("level8", 4, ["gather", "turn"], "g1"),
]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("name", "n", "plan", "seed"), CASES)
def test_leaves_at_target_moments_finish_the_game(name: str, n: int, plan: list[str],
                                                  seed: str) -> None:
    cores, net = make_cores(n, name, seed=seed)
    net.bots.clear()  # the test drives the bots (a leaver's never moves by itself)
    game = LeaveGame(cores, net, list(plan), patience=400)
    game.run()
    check_finished(game, len(plan))
    assert game.hit == plan  # every leave chosen at its target moment


def test_a_leave_when_no_card_is_hidden_carries_no_share() -> None:
    """8s Rule!, 3 peers: the last seat leaves at its turn to shuffle the first, face-up deck
    (the cut): nothing is hidden, so its leave has no share; 2 players remain: over (D-3)."""
    cores, net = make_cores(3, "eights", seed="bare")
    net.bots.clear()
    game = LeaveGame(cores, net, ["shuffle"], patience=400)
    game.armed_at = -4
    game.run()
    found = check_finished(game, 1)
    assert game.hit == ["shuffle"] and found[0][1:] == (2, set())
    leave = next(e for e in cores[0].record.entries if e.payload["t"] == "leave")
    assert leave.payload["msg"] == {"type": "shares", "seat": 2, "recipient": None,
                                    "shares": []}
    assert cores[0].game.outcome(cores[0].state).detail["places"][2] == 3  # type: ignore[union-attr]


RANDOM_CASES = [(name, n, k) for name in ("level8-master", "level8", "eights")
                for n in range(3, 7) for k in range(max(EXTRA_GAMES, 0))]


@pytest.mark.timeout(3600)
@pytest.mark.parametrize(("name", "n", "k"), RANDOM_CASES)
def test_random_leaves_finish_the_game(name: str, n: int, k: int) -> None:  # pragma: no cover
    rng = random.Random(f"{name}-{n}-{k}")
    moments = ["special", "skip", "shuffle", "turn"] if name != "eights" else \
        ["mid-trick", "shuffle", "turn"]
    plan = [rng.choice(moments) for _ in range(rng.randint(1, n - 2))]
    cores, net = make_cores(n, name, seed=f"r{k}")
    net.bots.clear()
    game = LeaveGame(cores, net, list(plan), patience=rng.randint(20, 200))
    game.run(limit=20000)
    check_finished(game, len(plan) - len(game.plan))


def test_two_players_a_leave_ends_the_game_the_other_wins(tmp_path: Any,
                                                          capsys: Any) -> None:
    cores, net = make_cores(2, "level8-master", seed="two")
    net.bots.clear()
    game = LeaveGame(cores, net, ["turn"], patience=10)
    game.armed_at = -4
    game.run()
    found = check_finished(game, 1)
    leaver = found[0][1]
    outcome = cores[0].game.outcome(cores[0].state)
    assert outcome is not None and outcome.winners == (1 - leaver,)
    assert outcome.detail["places"][leaver] == 2
    words = [n.text for n in net.notices[cores[1 - leaver].me.public_key] if n.kind == "info"]
    assert words == [f"{cores[0].name(leaver)} left the table"]
    with pytest.raises(LocalProtocolError, match="left the table already"):
        cores[leaver].leave()
    with pytest.raises(LocalProtocolError, match="game is over"):
        cores[1 - leaver].leave()
    # each peer restarted from its journal (crash and resume) is where it was, leave included
    for core in cores:
        lines = net.persisted[core.me.public_key]
        secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
        again = GameCore(core.me, core.table, SeededRandomBytes("again"), secret_key=secret)
        again.restore(list(lines))
        assert [e.to_dict() for e in again.record.entries] == \
            [e.to_dict() for e in core.record.entries]
        assert again.left_seats() == (leaver,) and again.state_hash() == core.state_hash()
    # lancards audit and replay of the record file
    from lancards.cli.main import main
    path = tmp_path / "two.lancards"
    write_record(cores[1 - leaver].record, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK: Level 8 Master, ")
    assert main(["replay", str(path)]) == 0
    told = capsys.readouterr().out
    nick = cores[leaver].players[leaver].nick
    assert f"      {nick} leaves the table (for good; the hand goes out of play unopened)\n" \
        in told


# ---------------------------------------------------------------------------------------------
# Bad leaves: each refused, its author named, the record intact.


def _table(n: int = 3, seed: str = "bad") -> tuple[list[GameCore], Network]:
    cores, net = make_cores(n, "eights", seed=seed)
    net.bots.clear()
    net.start()
    net.run()
    return cores, net


def _signed(core: GameCore, identity: Identity, payload: dict[str, Any]) -> Entry:
    """An entry signed by ``identity`` at ``core``'s record head."""
    return sign_entry(identity, core.table_id, len(core.record), core.record.head, payload,
                      core.state_hash())


def _deliver(net: Network, core: GameCore, sender: Identity, entry: Entry,
             env_seq: int = 10_000) -> list[Any]:
    data = sign_envelope(sender, "record.entry", core.table_id, env_seq,
                         {"entry": entry.to_dict()}).encode()
    return core.receive(sender.public_key, data)


def _due(cores: Sequence[GameCore]) -> GameCore:
    expected = cores[0].expected()
    assert expected is not None
    return cores[expected[0]]


def _texts(outputs: Sequence[Any], kind: str) -> list[str]:
    return [o.text for o in outputs if getattr(o, "kind", None) == kind]


FORGERIES = ["bad-proof", "own-hand"] + ["missing-card"] * (EXTRA_GAMES > 0)


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_leave_names_the_leaver(forgery: str) -> None:
    """The leaver signs a leave whose shares are wrong: another card's share (a proof that
    fails), or a share of a card of its own hand added (which would open it; "missing-card"
    leaves one hidden card out instead, with LANCARDS_LEAVE_GAMES above 1): refused by every
    peer, the leaver named, the record intact."""
    cores, net = _table()
    leaver = _due(cores)
    others = [c for c in cores if c is not leaver]
    before = len(others[0].record)
    hand = sorted(leaver.state.hands[leaver.seat])
    assert hand
    sent: list[bytes] = []

    def tamper(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        env = json.loads(data)
        entry = env.get("body", {}).get("entry")
        if env.get("type") != "record.entry" or entry["payload"]["t"] != "leave":
            return data
        payload = entry["payload"]
        shares = payload["msg"]["shares"]
        if forgery == "bad-proof":
            shares[0] = {**shares[0], "share": shares[1]["share"]}  # another card's share
        elif forgery == "missing-card":
            del shares[-1]
        else:
            shares.append({**shares[0], "slot": hand[0]})
            shares.sort(key=lambda item: item["slot"])
        forged = sign_entry(leaver.me, entry["tbl"], entry["seq"], entry["prev"], payload,
                            entry["state"])
        sent.append(to)
        return sign_envelope(leaver.me, "record.entry", env["tbl"], env["seq"],
                             {"entry": forged.to_dict()}).encode()

    net.tamper = tamper
    net.post(leaver.me.public_key, leaver.leave())
    net.run()
    assert len(sent) >= 2
    words = {"bad-proof": "decryption share proof",
             "missing-card": f"seat {leaver.seat} left with shares of the wrong slots (missing [",
             "own-hand": f"not wanted [{hand[0]}]"}[forgery]
    for core in others:
        cheats = [n for n in net.notices[core.me.public_key] if n.kind == "cheat"]
        assert cheats and cheats[0].seat == leaver.seat
        assert str(leaver.players[leaver.seat]) in cheats[0].text
        assert words in cheats[0].text, cheats[0].text
        assert len(core.record) == before  # not recorded
        assert not core.has_left(leaver.seat) and core.halted is not None


def test_leaves_by_the_wrong_author_are_refused_and_named() -> None:
    """One table, a receiver each: a leave signed by a non-member (rejected, the outsider
    named), a leave of another seat and a leave out of turn (the signer named a cheater)."""
    cores, net = _table()
    due = _due(cores)
    other, third = [c for c in cores if c is not due]

    def leave_of(seat: int) -> dict[str, Any]:
        return {"t": "leave", "seat": seat,
                "msg": {"type": "shares", "seat": seat, "recipient": None, "shares": []}}

    # a non-member, directly and relayed by a member: rejected, nobody halts
    outsider = Identity(b"\x77" * 32, "mallory")
    entry = _signed(due, outsider, leave_of(other.seat))
    before = len(due.record)
    out = _deliver(net, due, outsider, entry)
    assert _texts(out, "rejected") == [
        f"rejected message from unseated peer {outsider.public_key.hex()[:16]}: "
        "not-seated: the sender is not seated"]
    out = _deliver(net, due, third.me, entry)
    assert len(_texts(out, "rejected")) == 1 and "not-seated" in _texts(out, "rejected")[0]
    assert len(due.record) == before and due.halted is None
    # the seat due signs a leave of another seat
    entry = _signed(other, due.me, leave_of(other.seat))
    cheats = [o for o in _deliver(net, other, due.me, entry) if getattr(o, "kind", None) ==
              "cheat"]
    assert len(cheats) == 1 and cheats[0].seat == due.seat
    assert f"seat {due.seat + 1} signed a leave of seat {other.seat + 1}" in cheats[0].text
    assert len(other.record) == entry.seq and not other.has_left(other.seat)
    # a seat not due signs its own leave
    entry = _signed(third, other.me, leave_of(other.seat))
    cheats = [o for o in _deliver(net, third, other.me, entry) if getattr(o, "kind", None) ==
              "cheat"]
    assert len(cheats) == 1 and cheats[0].seat == other.seat
    assert (f"a leave by seat {other.seat + 1}; the record waits for seat {due.seat + 1}'s action"
            in cheats[0].text)
    assert len(third.record) == entry.seq


def test_a_replayed_leave_and_a_second_leave_are_refused_and_the_game_goes_on() -> None:
    cores, net = _table(seed="again")
    leaver = _due(cores)
    captured: list[tuple[bytes, bytes, bytes]] = []

    def keep(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        if sender == leaver.me.public_key and b'"t":"leave"' in data:
            captured.append((sender, to, data))
        return data

    net.tamper = keep
    net.post(leaver.me.public_key, leaver.leave())
    net.run()
    net.tamper = None
    receiver = next(c for c in cores if c is not leaver)
    assert receiver.has_left(leaver.seat)
    length = len(receiver.record)
    # the same envelope again: a replay, named
    sender, _to, data = next(c for c in captured if c[1] == receiver.me.public_key)
    out = receiver.receive(sender, data)
    rejected = _texts(out, "rejected")
    assert len(rejected) == 1 and "replayed" in rejected[0]
    assert str(leaver.players[leaver.seat]) in rejected[0]
    # a second leave, newly signed at the head: refused, the table goes on
    payload = {"t": "leave", "seat": leaver.seat,
               "msg": {"type": "shares", "seat": leaver.seat, "recipient": None,
                       "shares": []}}
    out = _deliver(net, receiver, leaver.me, _signed(receiver, leaver.me, payload), 20_000)
    rejected = _texts(out, "rejected")
    assert len(rejected) == 1
    assert (f"not-seated: a 'leave' entry by seat {leaver.seat + 1}, who left the table"
            in rejected[0])
    assert str(leaver.players[leaver.seat]) in rejected[0]
    assert len(receiver.record) == length and receiver.halted is None
    with pytest.raises(LocalProtocolError, match="left the table already"):
        leaver.leave()



def test_a_leave_is_acknowledged_to_its_author_and_a_false_ack_is_not_heard() -> None:
    """``docs/protocol.md`` 11.8, "The leaver's window": every other peer acknowledges a leave
    to its author; an ack with another hash is
    not taken as heard; one real ack is. 8s Rule!, 4 peers, so the game goes on after it."""
    cores, net = _table(4, seed="heard")
    leaver = _due(cores)
    to_leaver: list[tuple[bytes, bytes]] = []

    def hold(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        if to == leaver.me.public_key and b'"record.ack"' in data:
            to_leaver.append((sender, data))
            return None
        return data

    net.tamper = hold
    net.post(leaver.me.public_key, leaver.leave())
    net.run()
    net.tamper = None
    seq = next(e.seq for e in leaver.record.entries if e.payload["t"] == "leave")
    acks = [(s, parse_json(d, "test")["body"]) for s, d in to_leaver]
    others = {c.me.public_key for c in cores if c is not leaver}
    own = [(s, b) for s, b in acks
           if leaver.record.entries[b["seq"]].author == leaver.me.public_key]
    assert sorted(s for s, _ in own) == sorted(others)  # each of the 3 others, once
    assert {(b["seq"], b["hash"]) for _, b in own} == {(seq, leaver.record.entries[seq].hash)}
    assert not leaver.leave_heard()
    sender = next(c for c in cores if c is not leaver)
    false = link_envelope(sender.me, "record.ack", leaver.table_id,
                          {"seq": seq, "hash": "0" * 64}).encode()
    leaver.receive(sender.me.public_key, false)
    assert not leaver.leave_heard()
    real = next(d for s, d in to_leaver if s == sender.me.public_key)
    leaver.receive(sender.me.public_key, real)
    assert leaver.leave_heard()
