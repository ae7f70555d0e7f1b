"""What ``hard``'s search would win if it saw the hidden cards (issue 26, ``docs/benchmarks.md``).

A diagnosis, not a bot: one seat plays ``hard``'s search with the game's real hidden cards in
place of its imagined ones, against ``normal`` at every other seat; each game is then played
again with ``normal`` in that seat (the control), so the two are paired. If such a seat wins
little more than the control, the search's evaluation or scope is what limits it, not what it
cannot see; if it wins much more, the imagined worlds are.

- ``eights``: at each decision with two candidates or more
  (:func:`lancards.engine.eights.search_bot.candidates`) the seat plays the one whose roll-out
  of the real deal (every seat ``normal`` afterwards, exactly what then happens) has the lowest
  :func:`~lancards.engine.eights.search_bot.standing`; ``--round R`` only in round ``R``.
- ``level8``, ``level8-master``: Level 8 ``hard`` (``SearchBot``) with every world its search
  would deal replaced by the real state: every hand, and the draw pile in its real order
  (``--pile real``) or shuffled by the bot's own seed (``--pile shuffled``: it knows the hands,
  not what it will draw). ``--set NAME=VALUE`` sets a constant of
  :mod:`lancards.engine.level8.search_bot` (say ``END_WHEN_OTHERS_DOWN=1``).

Games ``SEED .. SEED + N - 1``, 4 players, the seat rotating one place a game; bot seeds as in
``lancards selfplay``. One JSON line per game, then a summary line: wins of each with a 95 %
Wilson interval, the games only one of them won, the mean paired difference of final totals.

    python -m tests.bot_oracle --game eights --seed 5000 --games 200
    python -m tests.bot_oracle --game level8-master --seed 5000 --games 100 --pile shuffled \\
        --set END_WHEN_OTHERS_DOWN=1 --set DOWN_SEARCH=1

Not a pytest module: 200 8s Rule! games take about 2 minutes of a core, 100 Master games with
round-end roll-outs about 15.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from lancards.cli.driver import SeededChance
from lancards.cli.selfplay import wilson
from lancards.engine.core import CHANCE
from lancards.engine.eights import search_bot as eights_search
from lancards.engine.eights.actions import Play
from lancards.engine.eights.planner_bot import count_cards
from lancards.engine.level8 import search_bot as level8_search
from lancards.engine.rulesets import make_bot, rule_set

PLAYERS = 4


def _eights_oracle(state: Any, view: Any, seat: int, legal: list[Any], only: int) -> Any:
    """The candidate best in the real deal ``state``, or None to leave it to ``normal``."""
    plays = [a for a in legal if isinstance(a, Play)]
    if len(plays) < 2 or (only and view.round != only):
        return None
    counts = count_cards(view, seat)
    options = eights_search.candidates(view, seat, counts, plays)
    totals, present = view.totals(), view.present()
    real = [eights_search.standing(eights_search._round_points(
        eights_search._play_out(state, counts, seat, p), view.round), totals, seat, present)
        for p in options]
    return options[min(range(len(options)), key=lambda i: (real[i], i))]


def play(game_name: str, seed: int, seat: int, oracle: bool, args: argparse.Namespace
         ) -> tuple[bool, int]:
    """Game ``seed`` with the oracle (or, for the control, ``normal``) at ``seat``: whether
    that seat won, and its final total (8s Rule!) or level (Level 8)."""
    spec = rule_set(game_name)
    game = spec.game
    eights = game_name == "eights"
    level = "hard" if oracle and not eights else "normal"
    bots = [make_bot(game, level if s == seat else "normal",
                     random.Random(f"selfplay-{seed}-{s}")) for s in range(PLAYERS)]
    chance = SeededChance(seed)
    state = game.new_game(spec.make_rules({}), PLAYERS)
    real: list[Any] = [state]
    if not eights:
        def world(view: Any, rng: Any) -> Any:
            if args.pile == "real":
                return real[0]
            pile = list(real[0].pile)
            faces = [real[0].cards[s] for s in pile]
            rng.shuffle(faces)
            return real[0].evolve(cards={**real[0].cards, **dict(zip(pile, faces, strict=True))})
        level8_search.sample_world = world  # this process only plays the probe
    while (actor := game.to_act(state)) is not None:
        if actor == CHANCE:
            state = game.apply(state, chance.resolve(game, state))
            continue
        legal = game.legal_actions(state, actor)
        view = game.view(state, actor)
        real[0] = state
        action = bots[actor].choose(view, actor, legal)
        if oracle and eights and actor == seat:
            action = _eights_oracle(state, view, actor, legal, args.round) or action
        state = game.apply(state, action)
    outcome = game.outcome(state)
    assert outcome is not None
    return seat in outcome.winners, outcome.scores[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="eights",
                        choices=["eights", "level8", "level8-master", "level8-en"])
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--round", type=int, default=0, help="8s Rule!: only this round")
    parser.add_argument("--pile", choices=["real", "shuffled"], default="real",
                        help="Level 8: the draw pile's order as dealt, or shuffled")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="Level 8: a constant of lancards.engine.level8.search_bot")
    args = parser.parse_args()
    for item in args.set:
        name, value = item.split("=", 1)
        if not hasattr(level8_search, name):
            parser.error(f"lancards.engine.level8.search_bot has no {name}")
        setattr(level8_search, name, type(getattr(level8_search, name))(value))
    won = control = only = lost = 0
    diff = 0.0
    for i in range(args.games):
        seed, seat = args.seed + i, i % PLAYERS
        a = play(args.game, seed, seat, True, args)
        b = play(args.game, seed, seat, False, args)
        won, control = won + a[0], control + b[0]
        only, lost = only + (a[0] and not b[0]), lost + (b[0] and not a[0])
        diff += a[1] - b[1]
        print(json.dumps({"seed": seed, "seat": seat, "oracle": a, "control": b}), flush=True)
    n = args.games
    lo, hi = wilson(won, n)
    clo, chi = wilson(control, n)
    print(f"{n} games: seeing seat {100 * won / n:.1f} % ({100 * lo:.1f}-{100 * hi:.1f}), "
          f"control {100 * control / n:.1f} % ({100 * clo:.1f}-{100 * chi:.1f}); only it "
          f"{only}, only the control {lost}; final minus the control's {diff / n:+.2f}")


if __name__ == "__main__":
    main()
