"""How often a Level 8 Master bot wastes "I'll keep that!" (issue 26): a KEEP played in a round
in which the same seat then lays down is void (ruling L8-13).

Game ``i`` (seed ``SEED + i``) is the game ``lancards selfplay --game level8-master --seats
LEVELS --seed SEED`` plays (seats rotating one place per game, the same bot seeds as
``tests.bot_paired``). Every KEEP the watched seats play is counted as ``void`` (the seat lays
down later in that round), or ``counted`` (the round ends with the seat not down), by the
distance (:func:`lancards.engine.level8.plan.distance`) of its hand when it played the card.
The watched seats are those of the first level named (every seat when all are alike); a
level ``variant:NAME`` is a variant of ``normal`` (:mod:`tests.bot_variants`).

    python -m tests.bot_keeps --seats normal,normal,normal,normal --seed 7000 --games 100
    python -m tests.bot_keeps --seats hard,normal,normal,normal --seed 7000 --games 100

Not a pytest module: 100 games with a ``hard`` seat take a few minutes.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import Any

from lancards.cli.driver import play_local
from lancards.engine.level8.actions import LayDown, PlaySpecial
from lancards.engine.level8.cards import Kind
from lancards.engine.level8.plan import distance
from lancards.engine.rulesets import rule_set
from tests.bot_paired import _bot


def keeps(levels: list[str], seed: int, index: int) -> list[tuple[int, str]]:
    """``(distance when played, "void" or "counted")`` per KEEP the watched seats played in
    game ``index``."""
    spec = rule_set("level8-master")
    players = len(levels)
    seated = [levels[(s - index) % players] for s in range(players)]
    watched = {s for s in range(players) if seated[s] == levels[0]}
    bots = [_bot(spec, name, random.Random(f"selfplay-{seed + index}-{s}"))
            for s, name in enumerate(seated)]
    open_keeps: dict[int, list[int]] = {}  # seat -> distances of this round's KEEPs
    out: list[tuple[int, str]] = []
    current = 0

    def step(state: Any, action: Any) -> None:
        nonlocal current
        if state.round != current:  # a new round: the last round's keeps counted
            out.extend((d, "counted") for ds in open_keeps.values() for d in ds)
            open_keeps.clear()
            current = state.round
        seat = getattr(action, "seat", None)
        if seat not in watched:
            return
        if isinstance(action, PlaySpecial) and action.card.card.kind is Kind.KEEP \
                and not state.down[seat]:
            hand = [state.cards[s] for s in state.hands[seat]]
            open_keeps.setdefault(seat, []).append(distance(hand, state.level(seat)))
        elif isinstance(action, LayDown):
            out.extend((d, "void") for d in open_keeps.pop(seat, []))

    play_local(spec.game, spec.make_rules({}), players, seed + index, bots=bots, on_step=step)
    out.extend((d, "counted") for ds in open_keeps.values() for d in ds)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", default="normal,normal,normal,normal")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    levels = args.seats.split(",")
    tally: Counter[tuple[int, str]] = Counter()
    for index in range(args.games):
        tally.update(keeps(levels, args.seed, index))
    total = sum(tally.values())
    void = sum(n for (_, kind), n in tally.items() if kind == "void")
    print(f"{args.games} games, {levels[0]} seats watched: {total} KEEPs played, {void} void "
          f"({100 * void / max(1, total):.1f} %)")
    for d in sorted({d for d, _ in tally}):
        print(f"  distance {d}: {tally[(d, 'void')]} void, {tally[(d, 'counted')]} counted")


if __name__ == "__main__":
    main()
