"""The ``Game`` contract, checked for every registered rule set by seeded random play.

At every step of a few seeded games (bots mixed with random legal moves): the position text
round-trips (``write(read(write(s))) == write(s)``, for the full state and for every seat's and
a spectator's view) and the position read back offers the same actions by name; every action
round-trips through notation (with slots, and with card names in the state); only the seat to
act has actions; a peer engine fed only the public record and its own cards equals the
projection of the full state; invariants hold; digests are stable and equal for every peer;
``check`` changes nothing; every offered action (a sample) passes ``check``; garbage actions
(texts of random tokens and offered actions with a seat, card or number changed, read with
and without the state) either pass
``check`` or fail with :class:`InvalidActionError` / :class:`IllegalActionError`, never another
exception. At the end, replaying the log rebuilds the state. Game-specific rules live in the
per-game test folders.

``LANCARDS_CONTRACT_STEPS`` raises the steps per game (CI default: 200).

:func:`test_leaves_keep_the_game_contract` plays whole seeded games of every rule set at 3..6
seats in which seats leave for good (rulings D-1 to D-4) at chosen moments: during "I'll take
that!" / "I'll swap that!" / "I'll keep that!", a Skip, mid-trick, a chance step (a shuffle, a
reveal, the first dealer), or at random. The same contract items are checked around every leave
and every 80th step; at every step invariants hold, no offered action is a leave, and no card of
a leaver's hand is revealed, shuffled or learnt again (its knowledge mask never changes and no
chance request names it). Every game finishes. ``LANCARDS_LEAVE_GAMES`` sets the games per case
(CI: 1).
"""

from __future__ import annotations

import copy
import functools
import os
import random
from typing import Any

import pytest

from lancards.cli.driver import SeededChance
from lancards.engine.core import (
    CHANCE,
    IllegalActionError,
    InvalidActionError,
    Leave,
    RevealRequest,
    ShuffleRequest,
)
from lancards.engine.digest import state_digest
from lancards.engine.position import read_position, write_position
from lancards.engine.rulesets import rule_set, rule_set_names, standard_bot

STEPS = int(os.environ.get("LANCARDS_CONTRACT_STEPS", "200"))
LEAVE_GAMES = int(os.environ.get("LANCARDS_LEAVE_GAMES", "1"))
TYPED = (InvalidActionError, IllegalActionError)
CARD_WORDS = ["R7", "J1-5", "J", "SKIP", "TAKE", "B8", "G15", "Y1", "P13", "?", "R16", "X3"]


def garbage_texts(rng: random.Random, legal_texts: list[str], n: int) -> list[str]:
    """Random token soup and near-miss mutations of offered actions."""
    verbs = ["draw", "draw-discard", "laydown", "add", "discard", "play", "show", "choose",
             "swap-put", "swap-end", "serve-skip", "keep", "keep-end", "end-turn", "pass", "leave",
             "shuffle", "reveal", "random"]
    out = []
    for _ in range(4):
        head = rng.choice(["0", "1", str(n), "-1", "*", "x", "99999999999999999999", ""])
        words = [rng.choice(verbs)] + [
            rng.choice([*CARD_WORDS, "|", "#3", "R7#999999", "J1-5#0=99", "J=Q", "none", "1/0",
                        "3", "-2", "take", "no-take", "0 1 1"])
            for _ in range(rng.randrange(4))]
        out.append(f"{head}: {' '.join(words)}")
    for text in rng.sample(legal_texts, min(3, len(legal_texts))):
        tokens = text.split(" ")
        i = rng.randrange(len(tokens))
        token = tokens[i]
        if token.rstrip(":").isdigit():
            tokens[i] = str((int(token.rstrip(":")) + 1 + rng.randrange(n)) % (n + 1)) + (
                ":" if token.endswith(":") else "")
        elif "#" in token:
            face, _, rest = token.partition("#")
            tokens[i] = f"{rng.choice(CARD_WORDS)}#{rest}" if rng.random() < 0.5 else \
                f"{face}#{rng.randrange(400)}{rest[len(rest.split('=')[0]):]}"
        else:
            tokens[i] = rng.choice(CARD_WORDS)
        out.append(" ".join(tokens))
    return out


def check_position_round_trip(game: Any, state: Any, seats: int, full: bool) -> None:
    views = [state, game.view(state, None), *(game.view(state, s) for s in range(seats))]
    for view in views:
        text = write_position(game, view)
        read_game, back = read_position(text)
        assert read_game is game
        assert write_position(game, back) == text
    if full:  # the position read back plays the same: the same actions, by name
        _, back = read_position(write_position(game, state))
        actor = game.to_act(state)
        assert game.to_act(back) == actor
        if actor is not None and actor != CHANCE:
            ours = [game.describe_action(state, a) for a in game.legal_actions(state, actor)]
            theirs = [game.describe_action(back, a) for a in game.legal_actions(back, actor)]
            assert sorted(ours) == sorted(theirs)


CASES = [(name, seats) for name in rule_set_names()
         for seats in sorted({rule_set(name).min_players, rule_set(name).max_players})]


def check_before(game: Any, state: Any, seats: int, rng: random.Random, step: int,
                 full: bool = True) -> list[Any]:
    """The contract items checked before a move; returns the actor's offered actions."""
    actor = game.to_act(state)
    assert game.invariant_violations(state) == []
    if full:
        check_position_round_trip(game, state, seats, full=step % 5 == 0)
    for other in range(seats):
        if other != actor:
            assert game.legal_actions(state, other) == []
    if actor is None or actor == CHANCE:
        return []
    legal = list(game.legal_actions(state, actor))
    assert legal, f"seat {actor} to act has no action"
    assert not any(isinstance(a, Leave) for a in legal)  # a leave comes from the peer layer
    if not full:
        return legal
    snapshot = copy.deepcopy(state) if step % 10 == 0 else None
    for offered in rng.sample(legal, min(5, len(legal))):
        game.check(state, offered)
    if snapshot is not None:
        assert state == snapshot  # check changed nothing
    texts = [game.format_action(a) for a in legal]
    names = [game.describe_action(state, a) for a in legal]
    for text in garbage_texts(rng, texts, seats) + garbage_texts(rng, names, seats):
        for read in (game.parse_action, functools.partial(game.read_action, state)):
            try:
                garbage = read(text)
                game.check(state, garbage)
            except TYPED:
                continue
            game.apply(state, garbage)  # it happened to be legal: apply works too
    return legal


def apply_and_follow(game: Any, state: Any, action: Any, peers: list[Any], name: str) -> Any:
    """Apply ``action`` checking notation, digests and every peer engine; returns the state."""
    assert game.parse_action(game.format_action(action)) == action
    assert game.read_action(state, game.describe_action(state, action)) == action
    digest = state_digest(game, state)
    before = state
    state = game.apply(state, action)
    assert state_digest(game, before) == digest  # apply left the old state alone
    public = game.public_action(action)
    for s in range(len(peers)):
        peer = game.view(game.apply(peers[s], public), s)  # what seat s may know
        for slot, mask in game.knowledge(state).items():
            if mask & (1 << s) and game.identity(peer, slot) is None:
                peer = game.learn(peer, slot, game.identity(state, slot))
        assert peer == game.view(state, s), f"{name}: peer {s} differs after {action}"
        peers[s] = peer
    assert state_digest(game, state) == state_digest(game, peers[0])
    assert state_digest(game, state) == state_digest(game, game.view(state, None))
    return state


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("name", "seats"), CASES)
def test_every_rule_set_keeps_the_game_contract(name: str, seats: int) -> None:
    spec = rule_set(name)
    game = spec.game
    rules = spec.make_rules({})
    seed = sum(map(ord, name)) + seats
    rng = random.Random(seed)
    chance = SeededChance(seed)
    bot = standard_bot(game)
    state = game.new_game(rules, seats)
    peers = [game.view(state, s) for s in range(seats)]
    log = []
    for step in range(STEPS):
        actor = game.to_act(state)
        if actor is None:
            break
        legal = check_before(game, state, seats, rng, step)
        if actor == CHANCE:
            action = chance.resolve(game, state)
        else:
            action = rng.choice(legal) if rng.random() < 0.4 else bot.choose(
                game.view(state, actor), actor, legal)
        state = apply_and_follow(game, state, action, peers, name)
        log.append(action)
    replay = game.new_game(rules, seats)
    for action in log:
        replay = game.apply(replay, action)
    assert replay == state
    assert game.invariant_violations(state) == []


# ---------------------------------------------------------------------------------------------
# Leaving a table (rulings D-1 to D-4)

LEAVE_CASES = [(name, seats) for name in rule_set_names()
               for seats in range(max(3, rule_set(name).min_players),
                                  rule_set(name).max_players + 1)]


def _moment(game: Any, state: Any) -> str:
    """The kind of moment ``state`` is (a target for a leave)."""
    actor = game.to_act(state)
    phase = getattr(state.phase, "value", None)
    if game.name == "eights":
        phase = state.phase.name.lower()
        if actor == CHANCE:
            return {"cut_shuffle": "chance", "cut_reveal": "reveal", "deal": "chance",
                    "audit": "reveal"}[phase]
        return "mid-trick" if state.trick else phase
    if actor == CHANCE:
        return "reveal" if phase == "flip" else "chance"
    return {"show": "special", "choose": "special", "swap": "special", "skipped": "skip",
            "keep": "keep"}.get(str(phase), "turn")


MOMENTS = {"level8": ["special", "skip", "chance", "keep", "turn", "reveal"],
           "eights": ["mid-trick", "reveal", "chance", "layout", "tricks"]}


def _leaver(game: Any, state: Any, rng: random.Random) -> int:
    """Who leaves: the seat to act, a seat owing a reply, or any seat still at the table."""
    present = [s for s in range(state.n) if s not in game.left_seats(state)]
    actor = game.to_act(state)
    queue = [s for s in getattr(state, "show_queue", ()) if s in present]
    pick = rng.random()
    if queue and pick < 0.4:
        return queue[0]
    special = game.name != "eights" and state.phase.value in ("show", "choose", "swap")
    if special and state.turn in present and pick > 0.8:  # the taker or swapper
        return int(state.turn)
    if actor in present and pick < 0.7:
        return int(actor)
    return rng.choice(present)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("name", "seats"), LEAVE_CASES)
def test_leaves_keep_the_game_contract(name: str, seats: int) -> None:
    spec = rule_set(name)
    game = spec.game
    rules = spec.make_rules({})
    moments = MOMENTS["eights" if game.name == "eights" else "level8"]
    for game_index in range(LEAVE_GAMES):
        seed = sum(map(ord, name)) * 7 + seats * 131 + game_index
        rng = random.Random(seed)
        chance = SeededChance(seed)
        bot = standard_bot(game)
        state = game.new_game(rules, seats)
        peers = [game.view(state, s) for s in range(seats)]
        # leave at two target moments (rotating with the seed), 120 (8s: 600) moves apart at most
        targets = [moments[(seed + k) % len(moments)] for k in range(2)]
        secret: dict[int, int] = {}  # slot of a leaver's hand -> its knowledge mask
        log: list[Any] = []
        full_until = 0
        leaves = 0
        last_leave = 0
        patience = 600 if game.name == "eights" else 120  # 8s Rule!: round 8 comes late
        for step in range(4000):
            if game.to_act(state) is None:
                break
            # no card of a leaver's hand is ever opened, shuffled again or learnt (D-1)
            knowledge = game.knowledge(state)
            for slot, mask in secret.items():
                assert knowledge.get(slot, mask) == mask, f"{name}: #{slot} changed knowledge"
            if game.to_act(state) == CHANCE:
                request = game.chance_request(state)
                if isinstance(request, RevealRequest):
                    assert request.slot not in secret
                if isinstance(request, ShuffleRequest):
                    assert not set(request.slots) & set(secret)
            due = leaves < len(targets) and step >= last_leave + 5 and (
                _moment(game, state) == targets[leaves] or step >= last_leave + patience)
            if due:  # at the target moment, or at any moment when it has not come
                last_leave = step
                seat = _leaver(game, state, rng)
                check_before(game, state, seats, rng, step)
                for slot in state.hands[seat]:
                    secret[slot] = game.knowledge(state)[slot]
                action: Any = Leave(seat)
                game.check(state, action)
                state = apply_and_follow(game, state, action, peers, name)
                log.append(action)
                assert seat in game.left_seats(state)
                with pytest.raises(IllegalActionError):  # already left (D-1)
                    game.check(state, Leave(seat))
                with pytest.raises(InvalidActionError):  # no such seat
                    game.check(state, Leave(seats))
                leaves += 1
                full_until = step + 6
                continue
            full = step <= full_until or step % 80 == 0
            legal = check_before(game, state, seats, rng, step, full=full)
            actor = game.to_act(state)
            if actor == CHANCE:
                action = chance.resolve(game, state)
            else:
                action = rng.choice(legal) if rng.random() < 0.2 else bot.choose(
                    game.view(state, actor), actor, legal)
            state = apply_and_follow(game, state, action, peers, name)
            log.append(action)
        assert game.to_act(state) is None, f"{name}: the game did not finish"
        outcome = game.outcome(state)
        assert outcome is not None
        left = list(game.left_seats(state))
        assert leaves >= 1 and outcome.detail["left"] == left
        places = outcome.detail["places"]
        # D-2: the leavers rank last, the later one higher; nobody who left wins
        assert [places[s] for s in reversed(left)] == list(range(seats - len(left) + 1,
                                                               seats + 1))
        assert not set(outcome.winners) & set(left)
        assert all(places[s] == 1 for s in outcome.winners)
        with pytest.raises(IllegalActionError):  # the game is over (D-3)
            game.check(state, Leave(next(s for s in range(seats) if s not in left)
                                    if len(left) < seats else 0))
        replay = game.new_game(rules, seats)
        for action in log:
            replay = game.apply(replay, action)
        assert replay == state
        check_position_round_trip(game, state, seats, full=True)
