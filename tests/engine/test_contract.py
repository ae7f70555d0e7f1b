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
"""

from __future__ import annotations

import copy
import functools
import os
import random
from typing import Any

import pytest

from lancards.engine.core import CHANCE, IllegalActionError, InvalidActionError
from lancards.engine.digest import state_digest
from lancards.engine.driver import SeededChance
from lancards.engine.options import rule_set, rule_set_names
from lancards.engine.position import read_position, write_position

STEPS = int(os.environ.get("LANCARDS_CONTRACT_STEPS", "200"))
TYPED = (InvalidActionError, IllegalActionError)
CARD_WORDS = ["R7", "J1-5", "J", "SKIP", "TAKE", "B8", "G15", "Y1", "P13", "?", "R16", "X3"]


def garbage_texts(rng: random.Random, legal_texts: list[str], n: int) -> list[str]:
    """Random token soup and near-miss mutations of offered actions."""
    verbs = ["draw", "draw-discard", "laydown", "add", "discard", "play", "show", "choose",
             "swap-put", "swap-end", "serve-skip", "keep", "keep-end", "end-turn", "pass",
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


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("name", "seats"), CASES)
def test_every_rule_set_keeps_the_game_contract(name: str, seats: int) -> None:
    spec = rule_set(name)
    game = spec.game
    rules = spec.make_rules({})
    seed = sum(map(ord, name)) + seats
    rng = random.Random(seed)
    chance = SeededChance(seed)
    bot = game.bot()
    state = game.new_game(rules, seats)
    peers = [game.view(state, s) for s in range(seats)]
    log = []
    for step in range(STEPS):
        actor = game.to_act(state)
        if actor is None:
            break
        assert game.invariant_violations(state) == []
        check_position_round_trip(game, state, seats, full=step % 5 == 0)
        for other in range(seats):
            if other != actor:
                assert game.legal_actions(state, other) == []
        if actor == CHANCE:
            action = chance.resolve(game, state)
        else:
            legal = list(game.legal_actions(state, actor))
            assert legal, f"{name}: seat {actor} to act has no action"
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
            action = rng.choice(legal) if rng.random() < 0.4 else bot.choose(
                game.view(state, actor), actor, legal)
        assert game.parse_action(game.format_action(action)) == action
        assert game.read_action(state, game.describe_action(state, action)) == action
        digest = state_digest(game, state)
        before = state
        state = game.apply(state, action)
        assert state_digest(game, before) == digest  # apply left the old state alone
        log.append(action)
        public = game.public_action(action)
        for s in range(seats):
            peer = game.view(game.apply(peers[s], public), s)  # what seat s may know
            for slot, mask in game.knowledge(state).items():
                if mask & (1 << s) and game.identity(peer, slot) is None:
                    peer = game.learn(peer, slot, game.identity(state, slot))
            assert peer == game.view(state, s), f"{name}: peer {s} differs after {action}"
            peers[s] = peer
        assert state_digest(game, state) == state_digest(game, peers[0])
        assert state_digest(game, state) == state_digest(game, game.view(state, None))
    replay = game.new_game(rules, seats)
    for action in log:
        replay = game.apply(replay, action)
    assert replay == state
    assert game.invariant_violations(state) == []
