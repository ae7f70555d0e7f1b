"""play: the time a person waits at ``lancards play``: Enter to the dealt hand, between rounds,
and (``--waits``) for the bots' turns between two of their own.

Each run builds the same networked table as ``lancards play`` (the player and the bots are peers
in this process, each with its own key, websocket listener on 127.0.0.1, deck key share and
journal in a temporary folder) with the player's seat on autoplay and no bot delay, and times:

- ``dealt_s``: from the start of the table's construction (the moment Enter is pressed) to the
  first moment the player's seat knows every card of its dealt hand and a seat is to act;
- ``next_round_s``: from the moment a round's last move is made (the engine asks for a new
  shuffle) to the next round's dealt hand, the same way; the median over the measured rounds.

With ``--waits`` each run instead plays ``--turns`` of the player's own turns on the same
networked table with the bots paced as at ``lancards play`` (``--bot-delay``, default the play
default; :mod:`lancards.cli.pacing`) and the player's seat played at once by a bot, and times
``wait_s``: from the player's last move of a turn to the start of their next turn in the same
round (the bots' turns, and anything the player is asked meanwhile, played at once), the mean and
the 95th percentile over every measured turn (issue 25, item 13: goal under 2 s on average at
the default speed in a 4-player Level 8 Master game).

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

from lancards.cli.bench.stages import StageRecorder, as_ms, difference
from lancards.cli.errors import UsageError
from lancards.cli.i18n import _
from lancards.engine.core import CHANCE, ShuffleRequest
from lancards.p2p.protocol.identity import Identity


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, nargs="*", default=[4],
                        help=_("player counts to measure, 2 to 6 (default 4)"))
    parser.add_argument("--game", default="level8-master",
                        help=_("rule set (default level8-master)"))
    parser.add_argument("--rounds", type=int, default=3,
                        help=_("round changes to time per run (default 3)"))
    parser.add_argument("--repeats", type=int, default=3, help=_("runs per count (default 3)"))
    parser.add_argument("--stages", action="store_true",
                        help=_("also time each stage (cli/bench/stages.py) and the record's "
                               "timeline up to the dealt hand"))
    parser.add_argument("--waits", action="store_true",
                        help=_("time the wait between two of the player's own turns instead, "
                               "with the bots paced as at lancards play"))
    parser.add_argument("--turns", type=int, default=30,
                        help=_("with --waits: the player's turns to time per run (default 30)"))
    parser.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS",
                        help=_("with --waits: the bots' pace (default lancards play's)"))
    parser.add_argument("--no-pipeline", action="store_true",
                        help=_("peers check every proof of shuffle on arrival and prepare nothing "
                               "ahead, for comparison"))


async def _one_run(players: int, game: str, rounds: int, home: Path,
                   recorder: StageRecorder | None = None) -> dict[str, Any]:
    """One table: the dealt time and the list of next-round times (seconds); with a
    ``recorder``, the stages to the dealt hand and per next round, and the record's timeline."""
    from lancards.cli.net_session import NetworkSession

    me = Identity.generate("you")
    started = time.perf_counter()
    zero = {} if recorder is None else recorder.snapshot()
    session = await NetworkSession.create(game, {}, me, players - 1, home=home, bot_delay=0.0,
                                          autoplay=True, record_path=None)
    core = session.core
    marks: dict[str, Any] = {"dealt": None, "round_end": None, "next": [], "stages_next": []}
    timeline: dict[str, float] = {"table made, peers listening": time.perf_counter() - started}
    seen = [0, 0]  # entries looked at, shuffles counted
    finished = asyncio.Event()

    def stamp() -> None:
        if marks["dealt"] is not None:
            return
        entries = core.record.entries
        now = time.perf_counter() - started
        for entry in entries[seen[0]:]:
            kind = entry.payload.get("t")
            if kind == "key":
                timeline["joint key (last key entry)"] = now
            elif kind == "shuffle":
                seen[1] += 1
                timeline[f"shuffle {seen[1]} recorded"] = now
            else:
                timeline.setdefault(f"first {kind} entry", now)
        seen[0] = len(entries)

    def changed() -> None:
        if recorder is not None:
            stamp()
        to_act = core.to_act()
        if to_act is None:
            finished.set()
            return
        if to_act == CHANCE:
            if (marks["dealt"] is not None and marks["round_end"] is None
                    and isinstance(core.game.chance_request(core.state), ShuffleRequest)):
                marks["round_end"] = time.perf_counter()
                if recorder is not None:
                    marks["stages_at_end"] = recorder.snapshot()
            return
        if not core.hand_ready():
            return
        now = time.perf_counter()
        if marks["dealt"] is None:
            marks["dealt"] = now - started
            if recorder is not None:
                marks["stages_dealt"] = difference(recorder.snapshot(), zero)
                timeline["hand dealt"] = now - started
        elif marks["round_end"] is not None:
            marks["next"].append(now - marks["round_end"])
            if recorder is not None:
                since = difference(recorder.snapshot(), marks["stages_at_end"])
                marks["stages_next"].append((since, now - marks["round_end"]))
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
    return {"dealt": marks["dealt"], "next": marks["next"], "timeline": timeline,
            "stages_dealt": marks.get("stages_dealt"), "stages_next": marks["stages_next"]}


async def _wait_run(players: int, game: str, turns: int, home: Path,
                    delay: float) -> list[float]:
    """One table with the bots paced at ``delay``: the waits (seconds) between the end of one
    of the player's turns and the start of the next in the same round, ``turns`` of them."""
    from lancards.cli.net_session import NetworkSession
    from lancards.cli.pacing import turn_start
    from lancards.p2p.net.node import drive_bot, game_bot

    session = await NetworkSession.create(game, {}, Identity.generate("you"), players - 1,
                                          home=home, bot_delay=delay, autoplay=False,
                                          record_path=None)
    core, seat = session.core, session.seat
    waits: list[float] = []
    mark: dict[str, Any] = {"in_turn": False, "ended": None, "round": None}
    finished = asyncio.Event()

    def changed() -> None:
        view, now = core.state, time.perf_counter()
        if core.to_act() is None:
            finished.set()
            return
        mine = getattr(view, "turn", None) == seat and core.to_act() == seat
        if mine and not mark["in_turn"] and core.legal_actions() and turn_start(view, seat):
            mark["in_turn"] = True
            if mark["ended"] is not None and mark["round"] == view.round:
                waits.append(now - mark["ended"])
                if len(waits) >= turns:
                    finished.set()
            mark["ended"] = None
        elif mark["in_turn"] and getattr(view, "turn", None) != seat:
            mark["in_turn"], mark["ended"], mark["round"] = False, now, view.round

    session.subscribe(changed)
    runner = asyncio.create_task(session.run())
    person = asyncio.create_task(drive_bot(session.node, game_bot(core)))
    try:
        await asyncio.wait_for(finished.wait(), timeout=120 + 20 * turns * (1 + delay))
    finally:
        await session.close()
        for task in (runner, person):
            task.cancel()
        await asyncio.gather(runner, person, return_exceptions=True)
    return waits


def measure_waits(players: int, game: str, turns: int, repeats: int,
                  delay: float) -> dict[str, Any]:
    """The player's waits for the bots' turns over ``repeats`` tables (seconds)."""
    waits: list[float] = []
    for _repeat in range(repeats):
        with tempfile.TemporaryDirectory(prefix="lancards-bench-play-") as tmp:
            waits += asyncio.run(_wait_run(players, game, turns, Path(tmp), delay))
    ordered = sorted(waits)
    return {
        "bench": "play-waits",
        "game": game,
        "players": players,
        "runs": repeats,
        "bot_delay_s": delay,
        "turns_timed": len(waits),
        "wait_mean_s": round(statistics.fmean(waits), 3) if waits else None,
        "wait_median_s": round(statistics.median(waits), 3) if waits else None,
        "wait_p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 3) if waits else None,
        "wait_max_s": round(ordered[-1], 3) if waits else None,
        "goal_mean_s": 2.0,
    }


def _median_stages(runs: list[tuple[dict[str, float], float]]) -> dict[str, float]:
    """Per stage, the median over runs (ms), ``other`` and ``wall`` likewise."""
    if not runs:
        return {}
    tables = [as_ms(stages, wall) for stages, wall in runs]
    keys = sorted({k for t in tables for k in t}, key=lambda k: -statistics.median(
        [t.get(k, 0.0) for t in tables]))
    return {k: round(statistics.median([t.get(k, 0.0) for t in tables]), 1) for k in keys}


def measure(players: int, game: str, rounds: int, repeats: int, *, stages: bool = False,
            pipeline: bool = True) -> dict[str, Any]:
    """Medians over ``repeats`` tables of ``players`` seats."""
    from lancards.p2p.protocol.core import GameCore

    dealt: list[float] = []
    nexts: list[float] = []
    dealt_stages: list[tuple[dict[str, float], float]] = []
    next_stages: list[tuple[dict[str, float], float]] = []
    timelines: list[dict[str, float]] = []
    recorder = StageRecorder() if stages else None
    init = GameCore.__init__
    if not pipeline:
        def unpipelined(self: GameCore, *args: Any, **kwargs: Any) -> None:
            init(self, *args, **{**kwargs, "pipeline": False})
        GameCore.__init__ = unpipelined  # type: ignore[method-assign]
    if recorder is not None:
        recorder.install()
    try:
        for _repeat in range(repeats):
            with tempfile.TemporaryDirectory(prefix="lancards-bench-play-") as tmp:
                result = asyncio.run(_one_run(players, game, rounds, Path(tmp), recorder))
            dealt.append(result["dealt"])
            nexts.extend(result["next"])
            if result["stages_dealt"] is not None:
                dealt_stages.append((result["stages_dealt"], result["dealt"]))
                timelines.append(result["timeline"])
            next_stages.extend(result["stages_next"])
    finally:
        if recorder is not None:
            recorder.remove()
        GameCore.__init__ = init  # type: ignore[method-assign]
    extra: dict[str, Any] = {}
    if stages:
        extra = {
            "stages_dealt_ms": _median_stages(dealt_stages),
            "stages_next_round_ms": _median_stages(next_stages),
            "timeline_dealt_ms": {
                k: round(1000 * statistics.median([t[k] for t in timelines if k in t]), 1)
                for k in timelines[0]} if timelines else {},
        }
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
        "pipeline": pipeline,
        **extra,
    }


def run(args: argparse.Namespace) -> int:
    from lancards.cli.bench.machine import machine

    if args.repeats < 1 or args.rounds < 0:
        raise UsageError(_("--repeats must be 1 or more and --rounds 0 or more"))
    for n in args.players:
        if not 2 <= n <= 6:
            raise UsageError(_("--players {n}: a table has 2 to 6 players").format(n=n))
        if args.waits:
            from lancards.cli.pacing import DEFAULT_DELAY

            delay = DEFAULT_DELAY if args.bot_delay is None else args.bot_delay
            if args.turns < 1 or not 0 <= delay <= 10:
                raise UsageError(_("--turns must be 1 or more and --bot-delay 0 to 10 seconds"))
            line = measure_waits(n, args.game, args.turns, args.repeats, delay)
        else:
            line = measure(n, args.game, args.rounds, args.repeats, stages=args.stages,
                           pipeline=not args.no_pipeline)
        print(json.dumps({**line, "machine": machine()}), flush=True)
    return 0
