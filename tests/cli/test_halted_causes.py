"""What refused a cheat's signed move, kept in ``halted.json`` (``detail.cause``) for ``lancards
history`` and read back: the words it gives are the table's, in English and German (the move
by its notation, read again by the rules; cards by notation; a level's component by its kind
and size), and a cause that is not of that form gives none."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from lancards.cli import i18n
from lancards.cli.fork_words import rules_named
from lancards.cli.halted_table import cause_json, stored_cause
from lancards.cli.refusal_words import refusal_detail
from lancards.engine.level8.cards import card
from lancards.engine.level8.levels import Component, ComponentKind

NAMES = ["Ann", "Ben", "Cyd"]
RULES = rules_named("level8")


def _kept(cause: object) -> object:
    """``cause`` as ``halted.json`` keeps it and ``lancards history`` reads it back."""
    return stored_cause(RULES, json.loads(json.dumps(cause_json(cause))))


@pytest.mark.parametrize(("code", "params", "english", "german"), [
    ("claim-differs", {"action": "discard G5#83", "card": card("G5"), "opened": card("B3")},
     "discard G5 (that card is B3, not G5)", "G5 ablegen (diese Karte ist B3, nicht G5)"),
    ("card-elsewhere", {"action": "discard G5#83", "card": card("G5")},
     "discard G5 (every G5 of the deck is known to be elsewhere)",
     "G5 ablegen (jede G5 des Kartenspiels ist bekanntlich woanders)"),
    ("not-component", {"action": "laydown R3#1 O3#2 B3#3 | G4#4 G5#5 G6#6 G7#7", "group": 2,
                       "component": Component(ComponentKind.RUN, 4)},
     "lay down the level: R3 O3 B3 | G4 G5 G6 G7 (component 2 is not the run of 4 the level asks "
     "for)", None),
])
def test_a_kept_cause_gives_the_tables_words(code, params, english, german):
    action = RULES.parse_action("2: " + params["action"])
    cause = SimpleNamespace(code=code, params={**params, "action": action})
    assert json.loads(json.dumps(cause_json(cause)))["params"]["action"] == str(action)
    assert refusal_detail(_kept(cause), 2, NAMES) == refusal_detail(cause, 2, NAMES) == english
    if german is None:
        return
    i18n.set_language("de")
    try:
        assert refusal_detail(_kept(cause), 2, NAMES) == german
    finally:
        i18n.set_language("en")


def test_a_cause_of_another_form_gives_nothing():
    assert cause_json(SimpleNamespace(code="", params={})) is None
    assert cause_json(None) is None
    assert stored_cause(RULES, None) is None
    assert stored_cause(RULES, {"code": "x", "params": []}) is None
    kept = stored_cause(RULES, {"code": "not-your-move", "params": {"action": "no move",
                                                                    "seat": 0}})
    assert (kept.code, kept.params) == ("not-your-move", {"seat": 0})  # the move left out
