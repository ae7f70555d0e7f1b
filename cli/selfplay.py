"""``lancards selfplay``: whole games between bots in one process, summarised as JSON."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from lancards.cli.driver import play_local
from lancards.cli.errors import UsageError
from lancards.engine.options import OptionValue, RuleSetSpec, parse_option_args
from lancards.engine.rulesets import rule_set, rule_set_names


def add_rules_arguments(parser: argparse.ArgumentParser, default_game: str) -> None:
    """``--game`` and ``--option KEY=VALUE`` (repeatable), shared by several commands."""
    parser.add_argument(
        "--game",
        default=default_game,
        help=f"rule set: {', '.join(rule_set_names())} (default {default_game})",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option (repeatable); options of kind 'file' take a path",
    )


def rules_from_args(args: argparse.Namespace) -> tuple[RuleSetSpec, Any, dict[str, OptionValue]]:
    """The rule set, the engine's rules value and the raw options given on the command line.

    Raises:
        RulesError: unknown game or option, invalid value, unreadable file.
    """
    from lancards.engine.core import RulesError
    from lancards.p2p.protocol.statement import TABLE_OPTIONS, game_options

    spec = rule_set(args.game)
    raw: dict[str, OptionValue] = dict(parse_option_args(args.option))
    for key, value in list(raw.items()):
        if key in TABLE_OPTIONS:  # the table's (rescue, patience), checked when it starts
            continue
        if spec.option(key).kind == "file":
            try:
                raw[key] = Path(str(value)).read_text(encoding="utf-8")
            except OSError as exc:
                raise RulesError(f"option {key!r}: cannot read {value!r}: {exc.strerror}") from None
    return spec, spec.make_rules(game_options(raw)), raw


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "selfplay",
        help="play whole games between bots in one process and print a JSON summary",
        description="Play whole games between bots in one process and print one JSON object.",
    )
    add_rules_arguments(parser, "level8-master")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument(
        "--check-every",
        type=int,
        default=1,
        metavar="N",
        help="check invariants after every N-th action (default 1; 0 = only at game end)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    spec, rules, _ = rules_from_args(args)
    if not spec.min_players <= args.players <= spec.max_players:
        raise UsageError(
            f"--players {args.players}: {spec.name} is for "
            f"{spec.min_players} to {spec.max_players} players"
        )
    if args.games < 1:
        raise UsageError(f"--games {args.games}: play at least one game")
    if args.check_every < 0:
        raise UsageError("--check-every must be 0 or more")
    wins = [0] * args.players
    rounds = actions = violations = shared = 0
    started = time.perf_counter()
    for index in range(args.games):
        played = play_local(
            spec.game, rules, args.players, args.seed + index, check_every=args.check_every
        )
        actions += len(played.log)
        violations += len(played.violations)
        outcome = spec.game.outcome(played.final)
        if outcome is not None:
            rounds += int(outcome.detail.get("rounds", 0))
            for seat in outcome.winners:
                wins[seat] += 1
            shared += len(outcome.winners) > 1
    elapsed = time.perf_counter() - started
    summary = {
        "game": spec.name,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "rounds": rounds,
        "winners": wins,
        "shared_wins": shared,
        "actions": actions,
        "invariant_violations": violations,
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 2) if elapsed > 0 else None,
        "actions_per_second": round(actions / elapsed, 1) if elapsed > 0 else None,
    }
    print(json.dumps(summary))
    return 1 if violations else 0
