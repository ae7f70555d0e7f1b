"""How much the 8s Rule! ``hard`` search leaves on the table (issue 26, ``docs/benchmarks.md``).

Plays whole games of four ``normal`` seats. At every ``--every``-th decision of seat 0 with two
candidates or more (:func:`lancards.engine.eights.search_bot.candidates`) it plays each
candidate in ``--deals`` imagined deals (:func:`~lancards.engine.eights.search_bot.sample_hands`,
``normal`` roll-outs to the round's end, scored by
:func:`~lancards.engine.eights.search_bot.standing`: points, lower is better) and reports:

- ``found``: the best candidate's gain over ``normal``'s choice, chosen and valued on all the
  deals (biased upwards: the maximum of noisy means);
- ``honest``: the gain of the candidate chosen on the first half of the deals, valued on the
  second half (an unbiased estimate of what choosing on that many deals, with no guard, gains);
- ``hard``: the gain, valued on the second half, of the candidate the shipped ``hard`` plays
  there (its own budget and significance guard), or of each ``--hard BUDGET/SIGNIFICANCE``
  setting (the same decisions and valuation deals for all: a paired comparison), with how
  often it left ``normal``'s choice and its decision processor time p95;
- ``truth``: the same gains valued instead in the game's real deal (``_play_out`` of the
  full state: one exact outcome per candidate when every seat plays ``normal`` afterwards, as
  the three other seats do in the ``hard`` benchmark); ``ceiling`` is the best candidate's.
  Imagined deals are dealt uniformly given the voids; the real one is shaped by the play, so
  the two valuations can disagree (``docs/bots.md``).

    python -m tests.bot_ceiling --seed 7000 --games 8 --deals 40 --every 2
    python -m tests.bot_ceiling --seed 7011 --games 6 --deals 40 --hard 1800/0,2400/0,2400/2

Not a pytest module: 8 games at 40 deals take about 4 minutes of one core.
"""

from __future__ import annotations

import argparse
import random
import time

from lancards.engine.eights import search_bot
from lancards.engine.eights.actions import Play
from lancards.engine.eights.planner_bot import count_cards
from tests.bot_tables import normal_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--deals", type=int, default=40, help="imagined deals per decision")
    parser.add_argument("--every", type=int, default=2, help="value every N-th decision")
    parser.add_argument("--hard", default="",
                        help="BUDGET/SIGNIFICANCE[/TRIES],... (default: shipped)")
    args = parser.parse_args()
    settings = [(int(b), float(g), int(t[0]) if t else search_bot.INFERENCE_TRIES)
                for b, g, *t in (v.split("/") for v in args.hard.split(",") if v)]
    if not settings:
        settings = [(search_bot.BUDGET_PLAYS, search_bot.SIGNIFICANCE,
                     search_bot.INFERENCE_TRIES)]
    hard = [0.0] * len(settings)
    left = [0] * len(settings)
    cpu: list[list[float]] = [[] for _ in settings]
    half = args.deals // 2
    found = honest = ceiling = 0.0
    truth = [0.0] * len(settings)
    decisions = 0
    for g in range(args.games):
        rng = random.Random(f"ceiling-deals-{g}")
        seen = 0
        for state, seat, view, legal in normal_table(args.seed + g, f"ceiling-{g}"):
            plays = [a for a in legal if isinstance(a, Play)]
            counts = count_cards(view, seat)
            options = search_bot.candidates(view, seat, counts, plays) if plays else []
            if seat == 0 and len(options) >= 2:
                seen += 1
                if seen % args.every == 0:
                    results: list[list[float]] = [[] for _ in options]
                    totals, present = view.totals(), view.present()
                    for _ in range(args.deals):
                        world = search_bot.sample_hands(view, seat, counts, rng)
                        for i, play in enumerate(options):
                            end = search_bot._play_out(world, counts, seat, play)
                            points = search_bot._round_points(end, view.round)
                            results[i].append(search_bot.standing(points, totals, seat, present))
                    real = [search_bot.standing(search_bot._round_points(
                        search_bot._play_out(state, counts, seat, play), view.round),
                        totals, seat, present) for play in options]
                    ceiling += real[0] - min(real)
                    means = [sum(r) / len(r) for r in results]
                    found += means[0] - min(means)
                    pick = min(range(len(options)), key=lambda i: sum(results[i][:half]))
                    late = [sum(r[half:]) / (args.deals - half) for r in results]
                    honest += late[0] - late[pick]
                    for k, (budget, significance, tries) in enumerate(settings):
                        bot = search_bot.SearchBot(random.Random(f"ceiling-hard-{g}-{seen}"),
                                                   budget, significance, tries)
                        started = time.thread_time()
                        played, _note = bot.decide(view, seat, legal)
                        cpu[k].append(time.thread_time() - started)
                        chosen = options.index(played) if played in options else 0
                        hard[k] += late[0] - late[chosen]
                        truth[k] += real[0] - real[chosen]
                        left[k] += chosen != 0
                    decisions += 1
        hards = ", ".join(
            f"hard {b}/{z:g}/{t} {hard[k]:.1f} truth {truth[k]:.1f} (left normal {left[k]}, "
            f"CPU p95 "
            f"{1e3 * sorted(cpu[k])[int(0.95 * len(cpu[k]))] if cpu[k] else 0:.0f} ms)"
            for k, (b, z, t) in enumerate(settings))
        print(
            f"game {args.seed + g}: decisions valued {decisions}, points gained over normal "
            f"so far: found {found:.1f}, honest {honest:.1f}, truth ceiling {ceiling:.1f}, "
            f"{hards}",
            flush=True,
        )


if __name__ == "__main__":
    main()
