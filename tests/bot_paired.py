"""A level against a control on the same deals (issue 26, ``docs/benchmarks.md``, "Bots").

Game ``i`` (seed ``SEED + i``) is the game ``lancards selfplay --game G --seats LEVEL,OTHER,...
--games N --seed SEED`` plays: ``LEVEL`` at seat ``i mod players``, the same bot seeds. It is
then played again with ``--control`` in that seat instead, all else alike, so the two results
are paired: the difference in wins and in final total is the level's own doing, not the
deals'. One JSON line per game goes to ``--out`` (a stopped run goes on where it stopped); the
summary prints the level's wins with a 95 % Wilson interval, the control's, the games only one
of them won, the mean paired difference of final totals with its standard error, and the
level's decision processor time (``time.thread_time``) median, p95 and max in milliseconds.

    python -m tests.bot_paired --game eights --seats hard,normal,normal,normal --control normal \\
        --seed 3200 --games 100 --out /tmp/paired-3200.jsonl
    python -m tests.bot_paired --summary /tmp/paired-3200.jsonl /tmp/paired-3300.jsonl
    python -m tests.bot_paired --seed 3200 --games 100 --out /tmp/new-3200.jsonl \\
        --reuse /tmp/paired-3200.jsonl

``--set MODULE.NAME=VALUE`` changes a tuning constant read at decision time (say the Level 8
``hard``'s guard, ``lancards.engine.level8.search_bot.SIGNIFICANCE``) for the run, so a
setting is measured before it is shipped (every seat that reads the constant sees the new
value, the control's too when it does; with ``--reuse`` the control's results are the earlier
run's).

``--jobs N`` plays N games at once in forked processes (which inherit ``--set``); the lines
keep their order, so a stopped run goes on where it stopped as before.

A seat ``variant:NAME`` plays a variant of the Level 8 ``normal`` bot, one decision changed
(:mod:`tests.bot_variants`), so a change is measured before any level takes it.

``--reuse`` takes the control's result of a game from earlier lines of the same seed, seat and
control (the control's game is deterministic: only the level's changed), so a change to the
level is measured at the cost of its own games; ``--summary`` then also compares the level
with the earlier level of those lines (``previous``).

Not a pytest module: 8s Rule! ``hard`` plays about a game a minute.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import multiprocessing
import random
from pathlib import Path
from typing import Any

from lancards.cli.driver import play_local
from lancards.cli.selfplay import _quantile, _Timed, wilson
from lancards.engine.rulesets import make_bot, rule_set


def _bot(spec: Any, level: str, rng: random.Random) -> Any:
    """A bot of ``level``, or of the Level 8 variant NAME for ``variant:NAME``
    (:mod:`tests.bot_variants`)."""
    if level.startswith("variant:"):
        from tests.bot_variants import make
        return make(level.removeprefix("variant:"), rng)
    return make_bot(spec.game, level, rng)


def play(game_name: str, levels: list[str], control: str, seed: int, index: int,
         earlier: dict[tuple[int, int], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Game ``index`` of a selfplay run from ``seed`` with ``levels``, and its control (taken
    from ``earlier``, records by (seed, seat), when there)."""
    spec = rule_set(game_name)
    rules = spec.make_rules({})
    players = len(levels)
    seated = [levels[(s - index) % players] for s in range(players)]
    seat = index % players  # where levels[0] sits in game index
    record: dict[str, Any] = {"seed": seed + index, "seat": seat}
    old = (earlier or {}).get((seed + index, seat))
    runs = [("level", levels[0]), ("control", control)]
    if old is not None:
        record["control"] = old["control"]
        record["previous"] = old["level"]
        runs = runs[:1]
    for key, level in runs:
        cpu: list[float] = []
        wall: list[float] = []
        here = [*seated[:seat], level, *seated[seat + 1:]]
        bots = [_Timed(_bot(spec, name, random.Random(f"selfplay-{seed + index}-{s}")),
                       wall if s == seat else [], cpu if s == seat else [])
                for s, name in enumerate(here)]
        final = play_local(spec.game, rules, players, seed + index, bots=bots).final
        outcome = spec.game.outcome(final)
        assert outcome is not None, f"game {seed + index} did not end"
        record[key] = {"won": seat in outcome.winners, "final": outcome.scores[seat],
                       "cpu_ms": [round(1e3 * t, 2) for t in cpu]}
    return record


def summary(paths: list[Path]) -> str:
    """The table row of the games in ``paths`` (JSON lines of :func:`play`)."""
    rows = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]
    n = len(rows)
    won = sum(r["level"]["won"] for r in rows)
    control = sum(r["control"]["won"] for r in rows)
    only = sum(r["level"]["won"] and not r["control"]["won"] for r in rows)
    lost = sum(r["control"]["won"] and not r["level"]["won"] for r in rows)
    diffs = [r["level"]["final"] - r["control"]["final"] for r in rows]
    mean = sum(diffs) / n
    se = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n) ** 0.5
    cpu = sorted(t for r in rows for t in r["level"]["cpu_ms"])
    before = [r for r in rows if "previous" in r]
    versus = ""
    if before:
        was = sum(r["previous"]["won"] for r in before)
        now = sum(r["level"]["won"] for r in before)
        moved = [r["level"]["final"] - r["previous"]["final"] for r in before]
        m = sum(moved) / len(moved)
        e = (sum((d - m) ** 2 for d in moved) / max(1, len(moved) - 1) / len(moved)) ** 0.5
        gained = sum(r["level"]["won"] and not r["previous"]["won"] for r in before)
        dropped = sum(r["previous"]["won"] and not r["level"]["won"] for r in before)
        versus = (f"; against the previous level on {len(before)} of them: {now} wins against "
                  f"{was}, only now {gained}, only before {dropped}, "
                  f"final total {m:+.1f} +- {e:.1f}")
    low, high = wilson(won, n)
    clow, chigh = wilson(control, n)
    return (f"{n} games: level {100 * won / n:.1f} % ({100 * low:.1f}-{100 * high:.1f}), "
            f"control {100 * control / n:.1f} % ({100 * clow:.1f}-{100 * chigh:.1f}); "
            f"level only {only}, control only {lost}; final total minus the control's "
            f"{mean:+.1f} +- {se:.1f}; decision CPU ms median {_quantile(cpu, 0.5):.0f}, "
            f"p95 {_quantile(cpu, 0.95):.0f}, max {cpu[-1]:.0f} ({len(cpu)} decisions){versus}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="eights")
    parser.add_argument("--seats", default="hard,normal,normal,normal")
    parser.add_argument("--control", default="normal")
    parser.add_argument("--seed", type=int, default=3200)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, nargs="+")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once, in processes (the lines keep their order)")
    parser.add_argument("--reuse", type=Path, nargs="+", default=[],
                        help="earlier JSON lines whose control results to take")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="a tuning constant for this run, e.g. "
                             "lancards.engine.level8.search_bot.SIGNIFICANCE=1.5")
    args = parser.parse_args()
    for item in args.set:
        name, _, value = item.partition("=")
        module, _, attribute = name.rpartition(".")
        target = importlib.import_module(module)
        old = getattr(target, attribute)  # AttributeError: no such constant
        setattr(target, attribute, type(old)(value))
    if args.summary:
        print(summary(args.summary))
        return
    out: Path = args.out
    done = len(out.read_text().splitlines()) if out.exists() else 0
    levels = args.seats.split(",")
    earlier = {(r["seed"], r["seat"]): r for p in args.reuse
               for r in map(json.loads, p.read_text().splitlines()) if r}
    task = functools.partial(play, args.game, levels, args.control, args.seed, earlier=earlier)
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for record in pool.imap(task, range(done, args.games)):
            with out.open("a") as f:
                f.write(json.dumps(record) + "\n")
    print(summary([out]))


if __name__ == "__main__":
    main()
