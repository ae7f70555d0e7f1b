"""The long-rounds campaign of issue 26 ("no endless rounds: zero rounds over 1,000 moves in
10,000 seeded games of every rule set at 3 to 5 players, for every mix of levels").

Each job is one ``lancards selfplay`` of one rule set, player count and mix of levels (a
multiset of the fast levels ``greedy``, ``easy`` and ``normal``: 10 mixes at 3 seats, 15 at 4,
21 at 5), its games spread evenly over the mixes, seats rotating one place per game, seeds
disjoint between jobs. Each job writes its JSON summary to ``OUT/GAME-N-MIX-SEED.json``; a job
whose file exists is not played again, so a stopped campaign goes on where it stopped.

    python -m tests.bot_campaign --out DIR --jobs 2                 # play, then the table
    python -m tests.bot_campaign --out DIR --summary                # the table only
    python -m tests.bot_campaign --out DIR --plan G:N:TOTAL ...     # another plan
    python -m tests.bot_campaign --out DIR --with-hard --plan G:N:TOTAL ...
    python -m tests.bot_campaign --out DIR --with-hard --block 10 --plan G:N:MORE ...

``--block B`` plays ``MORE`` further games in jobs of ``B`` games each, from seeds disjoint
from every job of the plain layout (:func:`block_jobs`), blocks interleaved over the mixes, so
a campaign stopped at any point has played every mix about equally and a stopped job loses at
most ``B`` games; the table adds them to the plain jobs' games in the same folder.
``--from-job K`` skips the plan's first ``K`` jobs, for a campaign whose folder was lost with
its machine after those jobs were counted (``docs/benchmarks.md`` says which): the table then
counts only what this folder holds, and the row is the sum.

Not a pytest module: it runs for hours (``docs/benchmarks.md``, "Bots"). ``hard`` is not in
the default mixes (an 8s Rule! game with one ``hard`` seat takes about 20 s of a core, a Level 8
one about 1.5 s); ``--with-hard`` plays instead the mixes of all four levels that hold at least
one ``hard`` seat (10 at 3 seats, 20 at 4, 35 at 5), from seeds disjoint from the default
campaign's, so the two together cover every mix.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

LEVELS = ("greedy", "easy", "normal")
HARD = "hard"
HARD_SEEDS = 50_000
"""Added to a ``--with-hard`` job's seed (the default jobs use at most 10,017 seeds a block)."""
GAMES = ("level8-master", "level8", "eights")
DEFAULT_PLAN = ("level8-master:4:10000", "level8:4:10000", "eights:4:10000", "eights:3:10000",
                "eights:5:10000", "level8-master:3:1000", "level8:3:1000",
                "level8-master:5:1000", "level8:5:1000")
"""Most important first: 4 players, and 8s Rule! (fast), at the issue's 10,000 games; Level 8
and Master at 3 and 5 players 1,000 each (the time box of 2026-12-02)."""


def jobs(game: str, players: int, total: int,
         with_hard: bool = False) -> list[tuple[str, int, str, int, int]]:
    """``(game, players, mix, games, seed)`` for every mix of :data:`LEVELS` at ``players``
    seats (``with_hard``: every mix of those and ``hard`` with at least one ``hard`` seat),
    ``total`` games in all (rounded up to a multiple of the number of mixes)."""
    levels = (*LEVELS, HARD) if with_hard else LEVELS
    mixes = [mix for mix in itertools.combinations_with_replacement(levels, players)
             if not with_hard or HARD in mix]
    per = math.ceil(total / len(mixes))
    base = 1_000_000 * players + 100_000 * GAMES.index(game) + (HARD_SEEDS if with_hard else 0)
    return [(game, players, ",".join(mix), per, base + i * per) for i, mix in enumerate(mixes)]


BLOCK_SEEDS = 20_000
"""Added to a ``--block`` job's seed: past the plain layout's seeds (at most 10,017 a plan)."""
BLOCK_SPAN = 28_000
"""Seeds of one rule set and player count in the block layout, shared evenly by its mixes
(so the ``--with-hard`` blocks end below the next rule set's seeds, 100,000 on)."""


def block_jobs(game: str, players: int, total: int, block: int,
               with_hard: bool = False) -> list[tuple[str, int, str, int, int]]:
    """The jobs of :func:`jobs`, ``total`` games in all (rounded up to a multiple of the number
    of mixes), cut into jobs of at most ``block`` games: mix ``i``'s games take the seeds from
    ``base + BLOCK_SEEDS + i * (BLOCK_SPAN // mixes)`` on, ``base`` being :func:`jobs`' base;
    ordered block by block (every mix's first block, then every mix's second).

    Raises:
        ValueError: a mix would have more games than its share of :data:`BLOCK_SPAN` seeds, or
            ``block`` is below 1.
    """
    if block < 1:
        raise ValueError(f"block must be at least 1, not {block}")
    plain = jobs(game, players, 1, with_hard)
    span = BLOCK_SPAN // len(plain)
    per = math.ceil(total / len(plain))
    if per > span:
        raise ValueError(f"{per} games a mix: over the {span} seeds a mix has in the block layout")
    out = []
    for start in range(0, per, block):
        for i, (_, _, mix, _, seed) in enumerate(plain):
            base = seed - i  # the plain layout's base (one game a mix)
            out.append((game, players, mix, min(block, per - start),
                        base + BLOCK_SEEDS + i * span + start))
    return out


def play(job: tuple[str, int, str, int, int], out: Path) -> None:
    game, players, mix, games, seed = job
    target = out / f"{game}-{players}-{mix}-{seed}.json"
    if target.exists():
        return
    done = subprocess.run(
        [sys.executable, "-m", "lancards", "selfplay", "--game", game, "--players",
         str(players), "--seats", mix, "--games", str(games), "--seed", str(seed),
         "--check-every", "0", "--json"],
        capture_output=True, text=True, check=False,
        preexec_fn=lambda: os.nice(19))  # the cores go to anything else first
    if done.returncode == 0:
        partial = target.with_name(target.name + ".part")
        partial.write_text(done.stdout)
        partial.replace(target)
    else:
        print(f"{target.name}: exit {done.returncode}: {done.stderr.strip()[-300:]}",
              file=sys.stderr)


@dataclass
class Row:
    """What the job summaries of one rule set and player count add up to."""

    games: int = 0
    mixes: set[str] = field(default_factory=set)
    rounds: int = 0
    over_1000: int = 0
    longest: int | None = None  # None: no summary gave it (written before it was counted)
    violations: int = 0
    seconds: float = 0.0


def summary(out: Path) -> list[dict[str, object]]:
    """One row per rule set and player count: games, mixes, rounds, rounds over 1,000 player
    moves, the longest round (where the summaries give it), invariant violations."""
    rows: dict[tuple[str, int], Row] = defaultdict(Row)
    for path in sorted(out.glob("*.json")):
        data = json.loads(path.read_text().strip().splitlines()[-1])
        row = rows[(data["game"], data["players"])]
        row.games += data["games"]
        row.mixes.add(",".join(sorted(data["seats"])))
        row.rounds += data["rounds"]
        row.over_1000 += data["rounds_over_1000_moves"]
        row.violations += data["invariant_violations"]
        row.seconds += data["seconds"]
        if "longest_round_moves" in data:
            row.longest = max(row.longest or 0, data["longest_round_moves"])
    return [{"game": game, "players": players, **asdict(row), "mixes": len(row.mixes),
             "seconds": round(row.seconds)}
            for (game, players), row in sorted(rows.items())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot_campaign",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder of the job summaries")
    parser.add_argument("--jobs", type=int, default=2, help="selfplay processes at once")
    parser.add_argument("--plan", nargs="*", default=list(DEFAULT_PLAN),
                        metavar="GAME:PLAYERS:TOTAL", help="what to play, in this order")
    parser.add_argument("--with-hard", action="store_true",
                        help="the mixes with at least one hard seat instead")
    parser.add_argument("--block", type=int, default=0, metavar="B",
                        help="play the plan's games in jobs of B games, from the block layout's "
                             "seeds (added to what the folder holds)")
    parser.add_argument("--from-job", type=int, default=0, metavar="K",
                        help="skip the plan's first K jobs (played already, in a folder that "
                             "is gone: a lost machine's)")
    parser.add_argument("--summary", action="store_true", help="only print the table")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.summary:
        todo = []
        for item in args.plan:
            game, players, total = item.split(":")
            todo += (block_jobs(game, int(players), int(total), args.block, args.with_hard)
                     if args.block else jobs(game, int(players), int(total), args.with_hard))
        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda job: play(job, args.out), todo[args.from_job:]))
    for row in summary(args.out):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
