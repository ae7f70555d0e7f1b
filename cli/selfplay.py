"""``lancards selfplay``: whole games between bots in one process, summarised in words (one row
per bot level, ``cli/selfplay_table.py``) or, with ``--json``, as one JSON object."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from lancards.cli.bot_choice import level_list, offered_levels
from lancards.cli.driver import play_local
from lancards.cli.errors import UsageError
from lancards.cli.game_titles import game_choices, game_title
from lancards.cli.i18n import _, ngettext
from lancards.cli.selfplay_table import Progress, summary_lines
from lancards.engine.options import OptionValue, RuleSetSpec, parse_option_args
from lancards.engine.rulesets import (
    DEFAULT_BOT_LEVEL,
    REFERENCE_BOT_LEVEL,
    make_bot,
    rule_set,
    rule_set_names,
)


def add_rules_arguments(parser: argparse.ArgumentParser, default_game: str) -> None:
    """``--game`` and ``--option KEY=VALUE`` (repeatable), shared by several commands."""
    parser.add_argument(
        "--game",
        default=default_game,
        help=_("rule set: {list} (default {default_game})").format(
            list=game_choices(rule_set_names()), default_game=default_game),
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a rule option (repeatable); options of kind 'file' take a path"),
    )


def known_rule_set(name: str) -> RuleSetSpec:
    """The rule set called ``name`` (``--game``).

    Raises:
        UsageError: no such rule set: one line in the person's language naming the ones there
            are (the engine's :class:`~lancards.engine.core.RulesError` says it in English).
    """
    if name not in rule_set_names():
        raise UsageError(_("--game {game!r}: choose one of {list}").format(
            game=name, list=", ".join(rule_set_names())))
    return rule_set(name)


def rules_from_args(args: argparse.Namespace) -> tuple[RuleSetSpec, Any, dict[str, OptionValue]]:
    """The rule set, the engine's rules value and the raw options given on the command line.

    Raises:
        UsageError: an unknown game (one line, in the person's language).
        RulesError: unknown option, invalid value, unreadable file.
    """
    from lancards.cli.option_values import typed_options
    from lancards.engine.core import RulesError
    from lancards.p2p.protocol.statement import TABLE_OPTIONS, game_options

    spec = known_rule_set(args.game)
    raw = typed_options(spec, parse_option_args(args.option))  # "1" is 1 for an int option
    for key, value in list(raw.items()):
        if key in TABLE_OPTIONS:  # the table's (rescue, patience, dealer), checked apart
            continue
        if spec.option(key).kind == "file":
            try:
                raw[key] = Path(str(value)).read_text(encoding="utf-8")
            except OSError as exc:
                raise RulesError(
                    f"option {key!r}: cannot read {value!r}: {exc.strerror}"
                ).with_code("unreadable-file", option=key, path=str(value),
                            reason=exc.strerror, errno=exc.errno) from None
    return spec, spec.make_rules(game_options(raw)), raw


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "selfplay",
        help=_("play whole games between bots in one process: each level's wins, a "
               "tournament"),
        description=_("Play whole games between bots in one process and print each bot "
                      "level's wins (with 95 % bounds, beside the fair share), mean levels "
                      "done or total, and decision times; --json prints one JSON object "
                      "instead (docs/bots.md)."),
    )
    add_rules_arguments(parser, "level8-master")
    parser.add_argument("--players", type=int, default=None,
                        help=_("seats (default 4, or as many as --seats names)"))
    parser.add_argument("--games", type=int, default=1, help=_("games to play (default 1)"))
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the first game (default 0)"))
    parser.add_argument(
        "--seats",
        default=None,
        metavar="LEVEL,LEVEL,...",
        help=_("one bot level per seat, e.g. normal,greedy,greedy,greedy (sets --players; the "
          "levels rotate one seat each game); default: --players seats of --bot-level"),
    )
    parser.add_argument(
        "--bot-level",
        default=REFERENCE_BOT_LEVEL,
        metavar="LEVEL",
        help=_("level of every seat when --seats is not given (default {reference_bot_level}, "
               "the reference bot: the benchmarks and seeded records are played by it, so a "
               "run compares with them; lancards play's default is {default_bot_level}, the "
               "level people meet; docs/bots.md)").format(
            reference_bot_level=REFERENCE_BOT_LEVEL, default_bot_level=DEFAULT_BOT_LEVEL),
    )
    parser.add_argument("--json", action="store_true",
                        help=_("print the summary as one JSON object (fields: docs/bots.md)"))
    parser.add_argument(
        "--check-every",
        type=int,
        default=1,
        metavar="N",
        help=_("check invariants after every N-th action (default 1; 0 = only at game end)"),
    )
    parser.set_defaults(run=run)


LONG_ROUND = 1000
"""A round with more player moves than this is counted as long (issue 26: none should be)."""


class _Timed:
    """A bot whose decision times are kept: wall clock (``time.perf_counter``) and this
    thread's processor time (``time.thread_time``: one core's work, whatever else the machine
    runs), in seconds."""

    def __init__(self, bot: Any, times: list[float], cpu: list[float]) -> None:
        self.bot = bot
        self.times = times
        self.cpu = cpu

    def choose(self, view: Any, seat: int, legal: Any) -> Any:
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view, seat, legal)
        self.cpu.append(time.thread_time() - started_cpu)
        self.times.append(time.perf_counter() - started)
        return action


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins`` successes in ``n`` trials (E. B. Wilson,
    JASA 22 (1927) 209-212); ``(0, 1)`` when ``n`` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - spread) / denominator, (centre + spread) / denominator


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def seat_levels(args: argparse.Namespace, spec: RuleSetSpec) -> list[str]:
    """The bot level of each seat in game 0 (``--seats``, else ``--players`` of
    ``--bot-level``).

    Raises:
        UsageError: an empty or unknown level, or one the rule set does not offer; ``--players``
            given with ``--seats`` of another number of seats (it was silently ignored).
    """
    if args.seats is not None:  # play's words for an empty name (issue 26's trial)
        levels = level_list("--seats", str(args.seats))
        if args.players is not None and args.players != len(levels):
            raise UsageError(ngettext(
                "--players {players} and --seats of {count} seat: give one of them",
                "--players {players} and --seats of {count} seats: give one of them",
                len(levels)).format(players=args.players, count=len(levels)))
    else:
        levels = [str(args.bot_level).strip().lower()] * (4 if args.players is None
                                                           else args.players)
    offered_levels("--seats" if args.seats is not None else "--bot-level", spec, levels)
    return levels


def run(args: argparse.Namespace) -> int:
    spec, rules, _raw = rules_from_args(args)
    levels = seat_levels(args, spec)
    players = len(levels)
    if not spec.min_players <= players <= spec.max_players and args.seats is not None:
        raise UsageError(ngettext(  # the trial of 2026-12-07 read "--players 1" it never typed
            "--seats of {count} seat: {name} is for {min_players} to {max_players} players",
            "--seats of {count} seats: {name} is for {min_players} to {max_players} players",
            players).format(count=players, name=game_title(spec.name),
                            min_players=spec.min_players,
                            max_players=spec.max_players))
    if not spec.min_players <= players <= spec.max_players:
        raise UsageError(
            _("--players {players}: {name} is for {min_players} to {max_players} players").format(
                players=players, name=game_title(spec.name), min_players=spec.min_players,
                max_players=spec.max_players)
        )
    if args.games < 1:
        raise UsageError(_("--games {games}: play at least one game").format(games=args.games))
    if args.check_every < 0:
        raise UsageError(_("--check-every must be 0 or more"))
    wins = [0] * players
    names = sorted(set(levels), key=levels.index)
    per_level: dict[str, dict[str, Any]] = {
        name: {"seat_games": 0, "wins": 0, "final": 0.0, "times": [], "cpu": []} for name in names
    }
    rounds = actions = violations = shared = long_rounds = longest = 0
    started = time.perf_counter()
    progress = Progress(sys.stderr, args.games)
    for index in range(args.games):
        seed = args.seed + index
        seated = [levels[(s - index) % players] for s in range(players)]  # rotate one seat
        bots = [
            _Timed(make_bot(spec.game, level, random.Random(f"selfplay-{seed}-{s}")),
                   per_level[level]["times"], per_level[level]["cpu"])
            for s, level in enumerate(seated)
        ]
        moves: dict[int, int] = {}

        def count(state: Any, action: Any, moves: dict[int, int] = moves) -> None:
            if getattr(action, "seat", -1) >= 0:
                key = int(getattr(state, "round", 0))
                moves[key] = moves.get(key, 0) + 1

        played = play_local(spec.game, rules, players, seed, bots=bots,
                            check_every=args.check_every, on_step=count)
        long_rounds += sum(1 for n in moves.values() if n > LONG_ROUND)
        longest = max(longest, *moves.values()) if moves else longest
        actions += len(played.log)
        violations += len(played.violations)
        outcome = spec.game.outcome(played.final)
        if outcome is not None:
            rounds += int(outcome.detail.get("rounds", 0))
            for seat in outcome.winners:
                wins[seat] += 1
                per_level[seated[seat]]["wins"] += 1
            shared += len(outcome.winners) > 1
            for seat, level in enumerate(seated):
                per_level[level]["seat_games"] += 1
                per_level[level]["final"] += outcome.scores[seat]
        progress.game_done(index, time.perf_counter() - started)
    progress.close()
    elapsed = time.perf_counter() - started
    level_summary = {}
    for name, data in per_level.items():
        n, won = data["seat_games"], data["wins"]
        low, high = wilson(won, n)
        times = sorted(data["times"])
        cpu = sorted(data["cpu"])
        level_summary[name] = {
            "seat_games": n,
            "wins": won,
            "win_rate": round(won / n, 4) if n else None,
            "wilson95": [round(low, 4), round(high, 4)],
            "mean_final": round(data["final"] / n, 3) if n else None,
            "decision_ms": {"median": round(1e3 * _quantile(times, 0.5), 3),
                            "p95": round(1e3 * _quantile(times, 0.95), 3),
                            "max": round(1e3 * (times[-1] if times else 0.0), 3),
                            "decisions": len(times)},
            "decision_cpu_ms": {"median": round(1e3 * _quantile(cpu, 0.5), 3),
                                "p95": round(1e3 * _quantile(cpu, 0.95), 3),
                                "max": round(1e3 * (cpu[-1] if cpu else 0.0), 3)},
        }
    summary = {
        "game": spec.name,
        "players": players,
        "games": args.games,
        "seed": args.seed,
        "seats": levels,
        "rounds": rounds,
        "wins_by_seat": wins,  # games won at table seat i (the levels rotate over seats)
        "shared_wins": shared,
        "levels": level_summary,
        "rounds_over_1000_moves": long_rounds,
        "longest_round_moves": longest,
        "actions": actions,
        "invariant_violations": violations,
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 2) if elapsed > 0 else None,
        "actions_per_second": round(actions / elapsed, 1) if elapsed > 0 else None,
    }
    print(json.dumps(summary) if args.json else "\n".join(summary_lines(summary)))
    return 1 if violations else 0
