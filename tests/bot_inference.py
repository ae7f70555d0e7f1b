"""How well the 8s Rule! ``hard`` bot's imagined deals place the hidden cards (issue 26,
``docs/bots.md``, "8s Rule! ``hard``", inference).

Four ``normal`` seats play seeded games; at every ``--every``-th decision of seat 0 with a
choice, ``--deals`` imagined deals are drawn for each ``--tries`` setting (0: uniform given
the voids and passes, :func:`~lancards.engine.eights.search_bot.sample_hands`; more: the
inference's rejection sampling, :func:`~lancards.engine.eights.inference.sample_likely`), and
each hidden card placed with the seat that really holds it counts as right. Prints, per
setting, the share of hidden cards placed right (a percentage) and the processor time per
deal in milliseconds.

    python -m tests.bot_inference --seed 7000 --games 2 --tries 0,8,30

Not a pytest module: 2 games at 3 settings take about a minute of one core.
"""

from __future__ import annotations

import argparse
import functools
import random
import time

from lancards.engine.eights import search_bot
from lancards.engine.eights.actions import Play
from lancards.engine.eights.inference import past_choices, sample_likely
from lancards.engine.eights.planner_bot import count_cards
from lancards.engine.eights.state import EightsState
from tests.bot_tables import normal_table


def _holders(state: EightsState, seat: int) -> dict[int, int]:
    """Card index -> the seat holding it, for every seat but ``seat``."""
    return {state.ident[slot - state.base]: other for other in range(state.n) if other != seat
            for slot in state.hands[other]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--deals", type=int, default=4, help="imagined deals per decision")
    parser.add_argument("--every", type=int, default=2, help="measure every N-th decision")
    parser.add_argument("--tries", default="0,8", help="TRIES,... (0: uniform deals)")
    args = parser.parse_args()
    settings = [int(t) for t in args.tries.split(",")]
    right = [0] * len(settings)
    placed = [0] * len(settings)
    cpu = [0.0] * len(settings)
    deals = [0] * len(settings)
    for g in range(args.games):
        seen = 0
        for state, seat, view, legal in normal_table(args.seed + g, f"inference-{g}"):
            plays = [a for a in legal if isinstance(a, Play)]
            if seat == 0 and len(plays) >= 2:
                seen += 1
                if seen % args.every == 0:
                    truth = _holders(state, seat)
                    counts = count_cards(view, seat)
                    for k, tries in enumerate(settings):
                        rng = random.Random(f"inference-deals-{g}-{seen}-{tries}")
                        evidence = past_choices(view, seat) if tries else ()
                        deal = functools.partial(search_bot.sample_hands, view, seat, counts, rng)
                        started = time.thread_time()
                        for _ in range(args.deals):
                            world = sample_likely(evidence, tries, rng, deal)
                            guess = _holders(world, seat)
                            right[k] += sum(guess[c] == truth[c] for c in truth)
                            placed[k] += len(truth)
                        cpu[k] += time.thread_time() - started
                        deals[k] += args.deals
        print(f"game {args.seed + g}: " + ", ".join(
            f"tries {t}: {100 * right[k] / max(1, placed[k]):.1f} % of {placed[k]} placed right, "
            f"{1e3 * cpu[k] / max(1, deals[k]):.1f} ms a deal"
            for k, t in enumerate(settings)), flush=True)


if __name__ == "__main__":
    main()
