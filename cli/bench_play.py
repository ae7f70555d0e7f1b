"""play: the time a person waits at ``lancards play``: Enter to the dealt hand, and between rounds.

Each run builds the same networked table as ``lancards play`` (the player and the bots are peers
in this process, each with its own key, websocket listener on 127.0.0.1, deck key share and
journal in a temporary folder) with the player's seat on autoplay and no bot delay, and times:

- ``dealt_s``: from the start of the table's construction (the moment Enter is pressed) to the
  first moment the player's seat knows every card of its dealt hand and a seat is to act;
- ``next_round_s``: from the moment a round's last move is made (the engine asks for a new
  shuffle) to the next round's dealt hand, the same way; the median over the measured rounds.

The screen itself is not drawn (prompt-toolkit adds its own first paint). Wall-clock seconds,
medians over ``--repeats`` runs; one JSON line per player count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.engine.core import CHANCE, ShuffleRequest
from lancards.p2p.identity import Identity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, nargs="*", default=[4],
                        help="player counts to measure, 2 to 6 (default 4)")
    parser.add_argument("--game", default="level8-master", help="rule set (default level8-master)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="round changes to time per run (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per count (default 3)")


async def _one_run(players: int, game: str, rounds: int, home: Path) -> dict[str, Any]:
    """One table: the dealt time and the list of next-round times (seconds)."""
    from lancards.cli.net_session import NetworkSession

    me = Identity.generate("you")
    started = time.perf_counter()
    session = await NetworkSession.create(game, {}, me, players - 1, home=home, bot_delay=0.0,
                                          autoplay=True, record_path=None)
    core = session.core
    marks: dict[str, Any] = {"dealt": None, "round_end": None, "next": []}
    finished = asyncio.Event()

    def changed() -> None:
        to_act = core.to_act()
        if to_act is None:
            finished.set()
            return
        if to_act == CHANCE:
            if (marks["dealt"] is not None and marks["round_end"] is None
                    and isinstance(core.game.chance_request(core.state), ShuffleRequest)):
                marks["round_end"] = time.perf_counter()
            return
        if not core.hand_ready():
            return
        now = time.perf_counter()
        if marks["dealt"] is None:
            marks["dealt"] = now - started
        elif marks["round_end"] is not None:
            marks["next"].append(now - marks["round_end"])
            marks["round_end"] = None
            if len(marks["next"]) >= rounds:
                finished.set()

    session.subscribe(changed)
    runner = asyncio.create_task(session.run())
    try:
        await asyncio.wait_for(finished.wait(), timeout=120 + 60 * rounds)
    finally:
        await session.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    if marks["dealt"] is None:
        raise RuntimeError("the hand was never dealt")
    return {"dealt": marks["dealt"], "next": marks["next"]}


def measure(players: int, game: str, rounds: int, repeats: int) -> dict[str, Any]:
    """Medians over ``repeats`` tables of ``players`` seats."""
    dealt: list[float] = []
    nexts: list[float] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="lancards-bench-play-") as tmp:
            result = asyncio.run(_one_run(players, game, rounds, Path(tmp)))
        dealt.append(result["dealt"])
        nexts.extend(result["next"])
    return {
        "bench": "play",
        "game": game,
        "players": players,
        "runs": repeats,
        "dealt_s": round(statistics.median(dealt), 3),
        "dealt_max_s": round(max(dealt), 3),
        "next_round_s": round(statistics.median(nexts), 3) if nexts else None,
        "next_round_max_s": round(max(nexts), 3) if nexts else None,
        "rounds_timed": len(nexts),
        "goal_s": 1.0,
    }


def run(args: argparse.Namespace) -> int:
    from lancards.cli.machine import machine

    if args.repeats < 1 or args.rounds < 0:
        raise UsageError("--repeats must be 1 or more and --rounds 0 or more")
    for n in args.players:
        if not 2 <= n <= 6:
            raise UsageError(f"--players {n}: a table has 2 to 6 players")
        line = measure(n, args.game, args.rounds, args.repeats)
        print(json.dumps({**line, "machine": machine()}), flush=True)
    return 0
