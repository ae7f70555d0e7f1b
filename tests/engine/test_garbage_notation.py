"""Hostile notation (non-ASCII digits, numbers of thousands of digits, huge counts) fails with
the engine's typed errors for every rule set, never with a ValueError or by exhausting memory."""

from __future__ import annotations

import pytest

from lancards.engine.core import InvalidActionError
from lancards.engine.position import PositionError, read_position, write_position
from lancards.engine.rulesets import rule_set, rule_set_names

HUGE = "9" * 5000
TEXTS = [
    "²: draw", f"{HUGE}: draw", "1: draw-discard ²", f"1: draw-discard {HUGE}",
    f"1: discard R7#{HUGE}", "1: discard R7#²", f"0: play R7#{HUGE}", "0: play R7#³ take",
    f"1: laydown J#1=R{HUGE}", "1: choose #²", f"1: keep #{HUGE}", f"1: add {HUGE} R7#1",
    f"*: shuffle {HUGE} 0", "*: reveal R7#²", f"*: random 1/{HUGE}", "²: pass",
]


@pytest.mark.parametrize("name", rule_set_names())
@pytest.mark.parametrize("text", TEXTS)
def test_hostile_action_text_is_an_invalid_action_error(name, text):
    spec = rule_set(name)
    game = spec.game
    state = game.new_game(spec.make_rules(), spec.min_players)
    with pytest.raises(InvalidActionError):
        game.parse_action(text)
    with pytest.raises(InvalidActionError):
        game.read_action(state, text)


@pytest.mark.parametrize("name", rule_set_names())
@pytest.mark.parametrize(("change", "message"), [
    (("seats ", "seats ²"), "not a whole number"),
    (("round ", f"round {HUGE}"), "not a whole number"),
    ("hand ²: R1", "is not a seat"),
    (f"hand {HUGE}: R1", "is not a seat"),
    ("hand 1: ?*999999999999", "a count 1..1000"),
    ("hand 1: ?@²", "is not a seat of"),
])
def test_hostile_position_text_is_a_position_error(name, change, message):
    spec = rule_set(name)
    game = spec.game
    text = write_position(game, game.new_game(spec.make_rules(), spec.min_players))
    if isinstance(change, tuple):
        text = text.replace(change[0], change[1], 1)
    else:
        text = text.replace("hand 1:", "# hand 1:") + change + "\n"
    with pytest.raises(PositionError, match=message):
        read_position(text)


def test_an_oversized_position_is_refused_before_reading():
    with pytest.raises(PositionError, match="over 1000000"):
        read_position("lancards-position 1\n" + "#" * 1_000_001)
