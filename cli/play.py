"""``lancards play``: sit at a table with bots and play in the full-screen client.

Every mode runs on :class:`cli.local_session.LocalSession` for now; :func:`make_session` is the
one seam where the networked session (real peers on 127.0.0.1, mental poker, the signed record)
replaces it. ``--autoplay`` lets a bot play the player's seat with no screen and prints one line
per round and the final result.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any, TextIO

from cli.local_session import LocalSession, default_names
from cli.selfplay import add_rules_arguments, rules_from_args
from cli.tui.results import RoundTracker, final_lines

GAMES: tuple[str, ...] = ("level8-master", "level8", "level8-en", "eights")
NAME_MAX = 16
"""The longest nickname accepted (characters)."""


def add_parser(sub: Any) -> None:
    """Register ``lancards play`` on the sub-command parsers."""
    parser = sub.add_parser(
        "play",
        help="play at a table with bots in the full-screen terminal client",
        description="Sit at a table with N bots and play in the full-screen client "
        "(keys: ? in the game). --autoplay lets a bot play your seat without a screen.",
    )
    add_rules_arguments(parser, "level8-master")
    parser.add_argument("--bots", type=int, default=3, help="bot seats (default 3)")
    parser.add_argument("--name", default="You", help="your nickname (default You)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the local deal (default: a random seed)")
    parser.add_argument("--autoplay", action="store_true",
                        help="a bot plays your seat; no screen; one line per round")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="write the game record to FILE (networked sessions only for now)")
    parser.add_argument("--local", action="store_true",
                        help="engine and bots in this process, no peers (the default for now)")
    parser.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                        help="seconds each bot waits before a move (default 0.6)")
    parser.set_defaults(run=run)


def validate(args: argparse.Namespace) -> None:
    """Check the arguments that argparse cannot.

    Raises:
        UsageError: an unknown game name, a bad bot count, nickname, delay or record path.
        RulesError: an unknown option or invalid value (from the rule set).
    """
    from cli.main import UsageError

    if args.game not in GAMES:
        raise UsageError(f"--game {args.game!r}: choose one of {', '.join(GAMES)}")
    spec, _, _ = rules_from_args(args)
    seats = args.bots + 1
    if not spec.min_players <= seats <= spec.max_players:
        raise UsageError(
            f"--bots {args.bots}: {spec.name} is for {spec.min_players} to "
            f"{spec.max_players} players, so use {spec.min_players - 1} to "
            f"{spec.max_players - 1} bots"
        )
    name = args.name.strip()
    if not name or len(name) > NAME_MAX or not name.isprintable():
        raise UsageError(f"--name {args.name!r}: use 1 to {NAME_MAX} printable characters")
    if args.bot_delay < 0 or args.bot_delay > 10:
        raise UsageError(f"--bot-delay {args.bot_delay}: use 0 to 10 seconds")
    if args.record is not None:
        raise UsageError(
            "--record: a local table keeps no signed record; it is written by the networked "
            "session (not available yet)"
        )


def make_session(args: argparse.Namespace) -> LocalSession:
    """The session for the arguments: the one place where the networked session plugs in.

    Raises:
        RulesError: an invalid rule option.
    """
    import random

    _, _, raw = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    names = default_names(args.bots + 1, 0, args.name.strip())
    return LocalSession(args.game, raw, seat=0, names=names, seed=seed,
                        bot_delay=0.0 if args.autoplay else args.bot_delay,
                        autoplay=args.autoplay)


def autoplay(session: LocalSession, out: TextIO) -> int:
    """Play the whole game with a bot in the player's seat; print a line per round.

    Returns:
        0 when the game ended with a result, 1 otherwise.
    """
    tracker = RoundTracker(session.names)
    game_name = session.game.name
    while True:
        played = session.step()
        for report in tracker.observe(game_name, session.game.view(session.state, None)):
            print(report.summary, file=out)
        if not played:
            break
    outcome = session.game.outcome(session.state)
    if outcome is None:
        print("result: the game stopped without a result", file=out)
        return 1
    for line in final_lines(outcome, session.names, game_name):
        print(line, file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``lancards play``; returns the exit status."""
    validate(args)
    session = make_session(args)
    if args.autoplay:
        return autoplay(session, sys.stdout)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        from cli.main import UsageError

        raise UsageError("the table needs a terminal; use --autoplay to play without one")
    from cli.tui.app import run_table

    return asyncio.run(run_table(session))
