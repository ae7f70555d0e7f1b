"""The measured variants of the Level 8 ``normal`` bot (``tests/bot_variants.py``, issue 26's
eighth round): each plays whole games, the ablations never play their card, and the paired
tool seats them by name."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lancards.cli.driver import play_local
from lancards.engine.level8.actions import PlaySpecial
from lancards.engine.level8.cards import Kind
from lancards.engine.level8.planner_bot import PlannerBot
from lancards.engine.rulesets import make_bot, rule_set
from tests import bot_paired, bot_variants

pytestmark = pytest.mark.timeout(120)

SPEC = rule_set("level8-master")
SEED = 5000


def _specials(first: Any) -> list[tuple[Kind, bool]]:
    """The special cards seat 0 plays in game ``SEED`` with ``first`` at seat 0 and three
    ``normal`` seats: (kind, whether seat 0 was down)."""
    bots = [first, *(make_bot(SPEC.game, "normal", random.Random(f"v-{s}")) for s in (1, 2, 3))]
    played: list[tuple[Kind, bool]] = []

    def on_step(state: Any, action: Any) -> None:
        if isinstance(action, PlaySpecial) and SPEC.game.to_act(state) == 0:
            played.append((action.card.card.kind, state.down[0]))

    game = play_local(SPEC.game, SPEC.make_rules({}), 4, SEED, bots=bots, on_step=on_step,
                      check_every=50)
    assert not game.violations
    assert SPEC.game.outcome(game.final) is not None
    return played


@pytest.mark.parametrize("kind", [Kind.KEEP, Kind.SWAP, Kind.TAKE])
def test_an_ablation_never_plays_its_card_while_not_down_where_normal_does(kind: Kind) -> None:
    normal = _specials(PlannerBot(random.Random("v-0")))
    assert (kind, False) in normal  # the game gives normal the chance, so the test can fail
    name = f"{kind.name.lower()}never"
    variant = _specials(bot_variants.make(name, random.Random("v-0")))
    assert (kind, False) not in variant


@pytest.mark.parametrize("name", sorted(bot_variants.VARIANTS))
def test_every_variant_plays_a_whole_master_game(name: str) -> None:
    bot = bot_variants.make(name, random.Random("v-0"))
    assert isinstance(bot, PlannerBot) and type(bot) is not PlannerBot
    _specials(bot)


def test_an_unknown_variant_is_named_with_the_choices() -> None:
    with pytest.raises(KeyError, match="no variant 'nope'; choose one of keepnever, swapnever"):
        bot_variants.make("nope", random.Random(0))


def test_the_paired_tool_seats_a_variant_and_plays_the_normal_control() -> None:
    levels = ["variant:takenever", "normal", "normal", "normal"]
    record = bot_paired.play("level8-master", levels, "normal", SEED, 1)
    assert record["seed"] == SEED + 1 and record["seat"] == 1
    again = bot_paired.play("level8-master", ["normal"] * 4, "normal", SEED, 1)
    assert record["control"]["won"] == again["level"]["won"] == again["control"]["won"]
    assert record["control"]["final"] == again["level"]["final"]
