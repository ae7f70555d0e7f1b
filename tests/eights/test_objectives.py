"""Objectives as data: the defaults (ruling E-6), the TOML file format and its errors."""

from __future__ import annotations

import pytest

from lancards.engine.core import RulesError
from lancards.engine.eights import (
    DEFAULT_OBJECTIVES_TOML,
    EIGHTS,
    SPEC,
    ObjectiveKind,
    default_objectives,
    parse_objectives,
)
from lancards.engine.rulesets import rule_set

from .helpers import cards, deal, finish_round, play_all

CUSTOM = """
source = "our house rules"
[[round]]
number = 1
kind = "tricks"
points = 5
[[round]]
number = 2
title = "Blue wanted"
kind = "cards"
cards = [{ suit = "blue", points = -3 }]
early_end = false
[[round]]
number = 3
kind = "cards"
cards = [{ suit = "Y", number = 1, points = 40 }]
[[round]]
number = 4
kind = "last-tricks"
points = [7]
[[round]]
number = 5
kind = "cards"
cards = [{ card = "g15", points = 0 }, { number = 15, points = 15 }]
[[round]]
number = 6
kind = "tricks"
points = 0
[[round]]
number = 7
kind = "tricks"
points = -10
"""


def test_defaults_are_marked_not_from_the_publisher() -> None:
    objectives = default_objectives()
    assert not objectives.from_publisher
    assert objectives.notice == "lancards defaults (ruling E-6), not from the publisher"
    assert "NOT FROM THE PUBLISHER" in DEFAULT_OBJECTIVES_TOML
    state = EIGHTS.new_game(SPEC.make_rules(), 4)
    assert EIGHTS.objective_lines(state)[0] == (
        "Objectives: lancards defaults (ruling E-6), not from the publisher"
    )
    assert "not from the publisher" in rule_set("eights").summary


def test_default_objectives_are_ruling_e6() -> None:
    lines = [o.describe() for o in default_objectives().rounds]
    assert lines[0] == "No tricks: +10 per trick"
    assert lines[2] == "No 8s: R8 +25, B8 +25, Y8 +25, G8 +25; ends when none is left to take"
    assert lines[4] == "No Red 15: R15 +75; ends when none is left to take"
    assert lines[5] == "Not the last two tricks: second-to-last trick +25, last trick +50"
    assert lines[6] == "Tricks wanted: -10 per trick"
    red = default_objectives().for_round(2).card_points
    assert [red[c] for c in cards("R1 R14 R15 B15")] == [5, 5, 15, 0]
    assert sum(red) == 14 * 5 + 15


def test_custom_file_through_the_option() -> None:
    rules = SPEC.make_rules({"objectives": CUSTOM})
    objectives = rules.objectives
    assert objectives.notice == "our house rules, not from the publisher"
    assert [o.kind for o in objectives.rounds] == [
        ObjectiveKind.TRICKS,
        ObjectiveKind.CARDS,
        ObjectiveKind.CARDS,
        ObjectiveKind.LAST_TRICKS,
        ObjectiveKind.CARDS,
        ObjectiveKind.TRICKS,
        ObjectiveKind.TRICKS,
    ]
    assert objectives.rounds[0].title == "Round 1"
    blue = objectives.for_round(2)
    assert not blue.early_end and blue.card_points[cards("B4")[0]] == -3
    assert objectives.for_round(3).scoring_cards == frozenset(cards("Y1"))
    fifteens = objectives.for_round(5).card_points
    assert [fifteens[c] for c in cards("G15 R15 B15 R14")] == [0, 15, 15, 0]
    assert objectives.for_round(4).last_tricks == (7,)


def test_custom_objective_drives_the_round() -> None:
    rules = SPEC.make_rules({"objectives": CUSTOM})
    # Round 3 of the custom file: only the Yellow 1 scores (+40); the round ends when it is taken.
    state = deal(3, {0: "Y1", 1: "Y2", 2: "Y3"}, round_number=3, dealer=2, rules=rules)
    state = play_all(state, ["Y1", "Y2", "Y3"])
    state = finish_round(state)
    assert state.results[-1].points == (0, 0, 40) and state.results[-1].tricks == 1


def test_publisher_flag() -> None:
    text = CUSTOM.replace('source = "our house rules"', 'source = "card"\nfrom_publisher = true')
    assert parse_objectives(text).notice == "card"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("number = 7\n", "number = 6\n"), "round 6 is given twice"),
        (('[[round]]\nnumber = 7\nkind = "tricks"\npoints = -10\n', ""), r"round\(s\) 7 missing"),
        (("points = 5", "points = 5.5"), "round 1: kind 'tricks' needs whole-number 'points'"),
        (("points = 5", "points = true"), "round 1: kind 'tricks' needs whole-number 'points'"),
        (('kind = "tricks"\npoints = 5', 'kind = "trix"'), "round 1: 'kind' must be one of"),
        (("points = [7]", "points = []"), "round 4: kind 'last-tricks' needs 'points', a list"),
        (("points = [7]", "points = [1,2,3,4,5,6,7,8,9,10,11]"), "a list of 1 to 10"),
        (('suit = "blue"', 'suit = "purple"'), "round 2, cards entry 1: unknown suit 'purple'"),
        (('card = "g15"', 'card = "g16"'), "round 5, cards entry 1: unknown card 'g16'"),
        (('card = "g15"', 'card = "g15", suit = "G"'), "give either 'card' or 'suit'/'number'"),
        (("number = 1, points = 40", "number = 0, points = 40"), "'number' must be 1..15"),
        (('{ suit = "blue", points = -3 }', "{ points = -3 }"), "needs 'card', 'suit' or 'number'"),
        (('{ suit = "blue", points = -3 }', '{ suit = "B" }'), "entry 1: needs whole-number"),
        (("early_end = false", "early_end = 1"), "round 2: 'early_end' must be true or false"),
        (("early_end = false", "colour = 1"), r"round 2: unknown key\(s\) 'colour'"),
        (('source = "our house rules"', "sauce = 1"), r"objectives file: unknown key\(s\) 'sauce'"),
        (('source = "our house rules"', "source = 3"), "'source' must be a non-empty string"),
        (('source = "our house rules"', "from_publisher = 1"), "'from_publisher' must be true"),
        (("number = 1\n", "number = 9\n"), "needs 'number' 1..7, got 9"),
        (("[[round]]\nnumber = 1", "[[round]\nnumber = 1"), "not valid TOML"),
    ],
)
def test_bad_files_are_refused_with_the_place(edit: tuple[str, str], message: str) -> None:
    old, new = edit
    assert old in CUSTOM
    with pytest.raises(RulesError, match=message):
        SPEC.make_rules({"objectives": CUSTOM.replace(old, new, 1)})


def test_empty_file_is_refused_and_empty_option_means_defaults() -> None:
    with pytest.raises(RulesError, match=r"needs \[\[round\]\] tables"):
        parse_objectives("")
    assert SPEC.make_rules({"objectives": ""}).objectives == default_objectives()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"partners": "maybe"}, "option 'partners': invalid value 'maybe'"),
        ({"first_dealer": "7"}, "option 'first_dealer': 7 is outside -1..5"),
        ({"colour": "red"}, "rule set 'eights' has no option 'colour'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        SPEC.make_rules(options)


def test_first_dealer_outside_the_table_is_refused() -> None:
    rules = SPEC.make_rules({"first_dealer": "4"})
    assert rules.first_dealer == 4
    with pytest.raises(RulesError, match=r"first dealer 4 is not a seat of 4 \(ruling E-2"):
        EIGHTS.new_game(rules, 4)
