"""Decks and notation (L8-1), level cards (L8-14) and rule options."""

from __future__ import annotations

from collections import Counter

import pytest

from lancards.engine.core import InvalidActionError, RulesError
from lancards.engine.level8 import LEVEL8 as G
from lancards.engine.level8.cards import make_deck, parse_card
from lancards.engine.level8.levels import MASTER_FRONT, describe, parse_level_card
from lancards.engine.rulesets import rule_set, rule_set_names

BACK = """
name = "House back side"
levels = [
  ["triplet", "triplet"], ["run 5", "pair"], ["colour-run 4"], ["colour-group 6"],
  ["set 4", "run 4"], ["run 8"], ["quadruplet", "colour-group 5"], ["quintuplet", "run 5"],
]
"""


@pytest.mark.parametrize(("edition", "size", "jokers", "specials"), [
    ("level8-master", 108, {"J1-5": 3, "J6-10": 3, "J11-15": 3},
     {"TAKE": 2, "SWAP": 3, "KEEP": 4}),
    ("level8", 98, {"J": 5}, {"SKIP": 3}),
    ("level8-en", 99, {"J": 6}, {"SKIP": 3}),
])
def test_decks(edition, size, jokers, specials):
    deck = make_deck(edition)
    counts = Counter(str(c) for c in deck)
    assert len(deck) == size
    assert sum(1 for c in deck if c.is_number) == 90
    assert {k: v for k, v in counts.items() if not parse_card(k).is_number} == {**jokers,
                                                                              **specials}


def test_card_notation_round_trips_for_every_card():
    for edition in ("level8-master", "level8"):
        for card in make_deck(edition):
            assert parse_card(str(card)) is card
    assert str(parse_card("r7")) == "R7"
    for bad in ("R0", "R16", "X3", "J2-6", ""):
        with pytest.raises(InvalidActionError, match="unknown card"):
            parse_card(bad)


def test_master_front_side_is_built_in():
    assert [describe(level) for level in MASTER_FRONT.levels] == [
        "pair + pair + pair + pair", "triplet + run of 4", "triplet + 4 of one colour",
        "triplet + 5 of one colour", "triplet + run of 6", "7 of one colour",
        "quadruplet + quadruplet", "triplet + quintuplet"]


def test_classic_front_side_is_built_in():
    rules = rule_set("level8").make_rules()
    assert [describe(level) for level in rules.front.levels] == [
        "run of 3 + run of 3", "pair + pair + pair + pair", "run of 3 + 4 of one colour",
        "run of 6 + pair", "run of 7", "pair + triplet + triplet",
        "triplet + 5 of one colour", "pair + triplet + quadruplet"]


def test_back_side_from_a_file_per_seat():
    rules = rule_set("level8-master").make_rules({"sides": "front,back", "level_cards": BACK})
    state = G.new_game(rules, 2)
    assert state.level_cards[0] is MASTER_FRONT
    assert state.level_cards[1].name == "House back side"
    assert describe(state.level_cards[1].level(3)) == "colour run of 4"


@pytest.mark.parametrize(("options", "message"), [
    ({"sides": "back"}, "seat 1 plays the back side, but no level-card file was given"),
    ({"sides": "front,back,front"}, "names 3 sides for 2 seats"),
])
def test_side_errors_at_new_game(options, message):
    rules = rule_set("level8-master").make_rules(options)
    with pytest.raises(RulesError, match=message):
        G.new_game(rules, 2)


@pytest.mark.parametrize(("text", "message"), [
    ("levels = [", r"^level card file is not valid TOML \(at its end\)$"),
    ("levels = [1 2]", r"^level card file is not valid TOML \(line 1, column 13\)$"),
    ('levels = [["pair"]]', "exactly 8 levels"),
    (BACK.replace('"run 8"', '"run 11"'), "level 6 needs 11 cards; at most 10 fit"),
    (BACK.replace('"run 8"', '"rnu 8"'), "component 'rnu 8' is not 'KIND N'"),
    (BACK + "\nextra = 1", "unknown keys extra"),
])
def test_bad_level_card_files(text, message):
    with pytest.raises(RulesError, match=message):
        parse_level_card(text)


@pytest.mark.parametrize(("options", "message"), [
    ({"reshufle": "lazy"}, "rule set 'level8-master' has no option 'reshufle'"),
    ({"reshuffle": "sometimes"}, "invalid value 'sometimes'; choose one of eager, lazy"),
    ({"specials_drawable": "maybe"}, "invalid value 'maybe'; use true or false"),
    ({"sides": "left"}, "unknown side 'left'"),
])
def test_option_errors(options, message):
    with pytest.raises(RulesError, match=message):
        rule_set("level8-master").make_rules(options)


def test_registry_names_and_unknown_game():
    assert {"level8", "level8-en", "level8-master"} <= set(rule_set_names())
    with pytest.raises(RulesError, match="unknown game 'level9'"):
        rule_set("level9")


def test_seat_count_limits():
    rules = rule_set("level8").make_rules()
    with pytest.raises(RulesError, match="2 to 6 players"):
        G.new_game(rules, 7)


@pytest.mark.parametrize("text", [
    "0: draw", "3: draw-discard 1", "1: laydown R4#1 R5#2 J1-5#3=3 | B9#4 G9#5 J6-10#6=9",
    "2: add 3 J#45=B", "2: add 0 J11-15#7=R12", "2: discard R7#44", "2: play TAKE#50",
    "2: play SKIP#53 3", "3: show R1#9 B2#10 G3#11", "2: choose #9", "2: choose none",
    "2: swap-put R7#44", "2: swap-end", "3: serve-skip", "4: keep #44", "4: keep-end",
    "2: end-turn", "*: shuffle 2 0 1", "*: shuffle ?", "*: reveal R7#17", "*: random 2/4",
])
def test_action_notation_round_trips(text):
    assert str(G.parse_action(text)) == text


@pytest.mark.parametrize(("text", "message"), [
    ("draw", "has no 'SEAT:' prefix"),
    ("x: draw", "expected a seat number"),
    ("0: fly", "unknown action"),
    ("0: discard R7", "is not CARD#SLOT"),
    ("0: discard R7#1=5", "only jokers take a declaration"),
    ("0: add 0 J#3=Q5", "unknown colour 'Q'"),
    ("0: laydown R1#1 | | R2#2", "has an empty group"),
    ("*: shuffle 0 0 1", "is not a permutation"),
    ("*: random 5/4", "0 <= VALUE < N"),
])
def test_malformed_notation(text, message):
    with pytest.raises(InvalidActionError, match=message):
        G.parse_action(text)
