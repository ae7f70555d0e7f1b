"""engine: self-play games per second and legal_actions timing (medians; one core)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from lancards.cli.driver import play_local
from lancards.cli.i18n import _
from lancards.engine.rulesets import rule_set, rule_set_names

CONFIGS: tuple[tuple[str, int], ...] = (
    ("level8-master", 4),
    ("level8", 4),
    ("level8-en", 4),
    ("eights", 4),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help=_("games per repeat (default 20)"))
    parser.add_argument("--repeats", type=int, default=3, help=_("repeats (default 3)"))
    parser.add_argument("--positions", type=int, default=300,
                        help=_("positions for the legal_actions timing (default 300)"))
    parser.add_argument("--quick", action="store_true", help=_("a fast smoke run"))


def selfplay_rate(name: str, players: int, games: int, repeats: int) -> dict[str, Any]:
    """Median games/s and actions/s of bot self-play without invariant checks."""
    spec = rule_set(name)
    rules = spec.make_rules()
    rates, action_rates = [], []
    for repeat in range(repeats):
        actions = 0
        started = time.process_time()
        for index in range(games):
            played = play_local(spec.game, rules, players, 1000 * repeat + index)
            actions += len(played.log)
        elapsed = time.process_time() - started
        rates.append(games / elapsed)
        action_rates.append(actions / elapsed)
    return {
        "bench": "selfplay",
        "game": name,
        "players": players,
        "games": games,
        "repeats": repeats,
        "games_per_s": round(statistics.median(rates), 2),
        "actions_per_s": round(statistics.median(action_rates), 1),
    }


def legal_actions_timing(positions: int) -> dict[str, Any]:
    """Median time of legal_actions for an 11-card hand with two jokers (Master, play phase,
    level not down), over random hands and every front-side level."""
    from lancards.engine.core import ALL_SEATS, seat_bit
    from lancards.engine.level8 import LEVEL8
    from lancards.engine.level8.state import Phase

    rules = rule_set("level8-master").make_rules()
    base = LEVEL8.new_game(rules, 4)
    deck = rules.deck
    jokers = [i for i, c in enumerate(deck) if c.is_joker]
    numbers = [i for i, c in enumerate(deck) if c.is_number]
    rng = random.Random(11)
    times, counts = [], []
    for index in range(positions):
        hand = tuple(rng.sample(jokers, 2) + rng.sample(numbers, 9))
        rest = tuple(s for s in range(len(deck)) if s not in hand)
        known = {s: (seat_bit(1) if s in hand else 0) for s in range(len(deck))}
        known[rest[0]] = ALL_SEATS
        state = base.evolve(
            known=known, gathered=(), hands=((), hand, (), ()), pile=rest[1:],
            discards=((rest[0],), (), (), ()), phase=Phase.PLAY, turn=1, dealer=0, round=1,
            levels=(1, 1 + index % 8, 1, 1),
        )
        started = time.perf_counter()
        legal = LEVEL8.legal_actions(state, 1)
        times.append(time.perf_counter() - started)
        counts.append(len(legal))
    times.sort()
    return {
        "bench": "legal_actions",
        "game": "level8-master",
        "hand": "11 cards, 2 jokers, level not down, levels 1..8",
        "positions": positions,
        "median_ms": round(1000 * statistics.median(times), 3),
        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 3),
        "max_ms": round(1000 * times[-1], 3),
        "median_actions": statistics.median(counts),
    }


def run(args: argparse.Namespace) -> int:
    from lancards.cli.bench.machine import machine

    games, repeats, positions = args.games, args.repeats, args.positions
    if args.quick:
        games, repeats, positions = 2, 1, 30
    names = set(rule_set_names())
    for name, players in CONFIGS:
        if name in names:
            line = selfplay_rate(name, players, games, repeats)
            print(json.dumps({**line, "machine": machine()}), flush=True)
    print(json.dumps({**legal_actions_timing(positions), "machine": machine()}), flush=True)
    return 0
