"""How near to laying down the Level 8 ``hard`` imagines the other seats (issue 26,
``docs/benchmarks.md``, "Level 8 ``hard``, round-end roll-outs and grown worlds").

Plays Master games of four ``normal`` seats (seeds ``SEED``..); at about 30 % of seat 0's draws
(before it is down) it deals 4 worlds from seat 0's view (:func:`lancards.engine.level8.
search_bot.sample_world`) and, for every other seat that is not down, sets the distance of its
imagined hands against its real one. Prints, per real distance, how many seat-decisions and
the mean imagined distance.

    python -m tests.bot_worlds --games 12 --grow 0
    python -m tests.bot_worlds --games 12 --grow 30 --per-turn 3

Not a pytest module (a measurement).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from typing import Any

from lancards.cli.driver import play_local
from lancards.engine.level8 import search_bot
from lancards.engine.level8.game import LEVEL8
from lancards.engine.level8.plan import distance
from lancards.engine.level8.planner_bot import PlannerBot
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.rulesets import rule_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--grow", type=int, default=0, help="search_bot.GROW_STEPS")
    parser.add_argument("--per-turn", type=int, default=search_bot.GROW_PER_TURN,
                        help="search_bot.GROW_PER_TURN")
    args = parser.parse_args()
    search_bot.GROW_STEPS, search_bot.GROW_PER_TURN = args.grow, args.per_turn
    spec = rule_set("level8-master")
    rules = spec.make_rules({})
    rng = random.Random(1)
    stats: dict[int, list[float]] = defaultdict(lambda: [0, 0.0])

    def watch(state: Level8State, action: Any) -> None:
        if state.phase is not Phase.DRAW or LEVEL8.to_act(state) != 0 or state.down[0]:
            return
        if rng.random() > 0.3:
            return
        view = LEVEL8.view(state, 0)
        worlds = [search_bot.sample_world(view, rng) for _ in range(4)]
        for s in state.present():
            if s == 0 or state.down[s]:
                continue
            level = state.level(s)
            real = distance([state.cards[x] for x in state.hands[s]], level)
            imagined = sum(distance([w.cards[x] for x in w.hands[s]], level) for w in worlds)
            row = stats[real]
            row[0] += 1
            row[1] += imagined / len(worlds)

    for g in range(args.games):
        bots = [PlannerBot(random.Random(f"worlds-{g}-{s}")) for s in range(4)]
        play_local(spec.game, rules, 4, args.seed + g, bots=bots, on_step=watch)
    n = sum(r[0] for r in stats.values())
    for real in sorted(stats):
        count, imagined = stats[real]
        print(f"real distance {real}: {count:.0f} seat-decisions, mean imagined "
              f"{imagined / count:.2f}")
    print(f"all: mean real {sum(d * r[0] for d, r in stats.items()) / n:.2f}, mean imagined "
          f"{sum(r[1] for r in stats.values()) / n:.2f} ({n:.0f} seat-decisions)")


if __name__ == "__main__":
    main()
