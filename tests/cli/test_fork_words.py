"""A fork (a seat signed two different entries for one place of the record) is said with both
entries it signed (the LAN trial: ``eve signed two different entries for one place of the
record``, and the two honest screens differed with no word why)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from lancards.cli import i18n
from lancards.cli.fork_words import KnownCards, fork_words, held_first, known_cards, rules_named
from lancards.cli.peer_words import halt_words

NAMES = ["ann", "bob", "eve"]


def _play(notation: str) -> dict[str, Any]:
    return {"t": "action", "a": notation, "open": []}


def _fork(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "equivocation", "first": {"seq": 4, "payload": first},
            "second": {"seq": 4, "payload": second}}


def _said(first: dict[str, Any], second: dict[str, Any]) -> str | None:
    return fork_words(rules_named("eights"), _fork(first, second), 2, NAMES)


def test_both_moves_of_a_fork_are_said(german):
    assert _said(_play("2: play R6#40"), _play("2: play R2#7")) == \
        "eve hat an derselben Stelle zwei verschiedene Züge signiert: R6 spielen und R2 spielen"
    assert _said(_play("2: play B8#17 take"), _play("2: pass")) == \
        "eve hat an derselben Stelle zwei verschiedene Züge signiert: B8 spielen (nehmen) und " \
        "passen"
    i18n.set_language("en")
    assert _said(_play("2: play R6#40"), _play("2: play R2#7")) == \
        "eve signed two different moves for the same turn: play R6 and play R2"
    assert _said(_play("2: play B8#17 take"), _play("2: pass")) == \
        "eve signed two different moves for the same turn: play B8 (take) and pass"


def test_an_entry_that_is_no_move_is_said_by_what_it_does(german):
    leave = {"t": "leave", "seat": 2, "msg": {}}
    rescue = {"t": "rescue", "seat": 0, "votes": [], "msg": {}}
    shuffle = {"t": "shuffle", "msg": {"a": 1}}
    assert _said(_play("2: play R6#40"), leave) == "eve hat zwei verschiedene Einträge für " \
        "dieselbe Stelle im Spiel signiert: R6 spielen und vom Tisch gehen"
    assert _said(shuffle, {"t": "shuffle", "msg": {"a": 2}}) == \
        "eve hat zwei verschiedene Fassungen desselben Schritts signiert: die Karten mischen"
    i18n.set_language("en")
    assert _said(_play("2: play R6#40"), leave) == "eve signed two different entries for the " \
        "same place in the game: play R6 and leave the table"
    assert _said(rescue, _play("2: no such move")) == "eve signed two different entries for " \
        "the same place in the game: publish rescue shares for ann and a move that cannot be read"
    assert _said(shuffle, {"t": "shuffle", "msg": {"a": 2}}) == \
        "eve signed two different versions of one step: shuffle the deck"
    assert _said({"t": "key", "msg": {}}, {"t": "open", "msg": {}}) == "eve signed two " \
        "different entries for the same place in the game: add a part of the joint key and " \
        "turn up a card"
    assert _said({"t": "shares", "msg": {}}, {"t": "escrow"}) == "eve signed two different " \
        "entries for the same place in the game: send shares to open cards and deal out a key " \
        "escrow"


def test_the_entry_this_peer_holds_is_said_first():
    """Evidence another peer sent names that peer's entry first: the screen says its own
    first (the one its table shows)."""
    evidence = _fork(_play("2: play R6#40"), _play("2: play R2#7"))
    held = SimpleNamespace(to_dict=lambda: evidence["second"])
    core = SimpleNamespace(record=SimpleNamespace(entries=[None] * 4 + [held]))
    assert held_first(core, evidence) == {**evidence, "first": evidence["second"],
                                          "second": evidence["first"]}
    assert held_first(SimpleNamespace(record=SimpleNamespace(entries=[])), evidence) == evidence


def test_a_halt_on_a_fork_without_its_evidence_says_the_fork_alone():
    core = SimpleNamespace(halted="eve forked", cheaters={2: "eve forked"},
                           halt_kind="equivocation")
    assert halt_words(core, NAMES) == \
        "eve signed two different entries for one place of the record"


def _level8(first: str, second: str, known: Any) -> str | None:
    return fork_words(rules_named("level8"), _fork(_play(first), _play(second)), 2, NAMES,
                      known)


def test_a_draw_from_a_discard_pile_names_its_top_card_where_it_is_known(german):
    """A fork of a draw from a discard pile read ``draw the top card from bob's discard
    pile``: the pile's top card is public, and named where the seat knew it before the draw
    (:class:`KnownCards` ``tops``); else as before."""
    known = KnownCards(tops={1: "B7"})
    assert _level8("2: draw-discard 1", "2: draw", known) == "eve hat an derselben Stelle " \
        "zwei verschiedene Züge signiert: B7 vom Ablagestapel von bob ziehen und vom " \
        "Nachziehstapel ziehen"
    i18n.set_language("en")
    assert _level8("2: draw-discard 1", "2: draw", known) == "eve signed two different moves " \
        "for the same turn: draw B7 from bob's discard pile and draw from the draw pile"
    assert _level8("2: draw-discard 2", "2: draw-discard 0", KnownCards(tops={0: "G3"})) == \
        "eve signed two different moves for the same turn: draw the top card from their own " \
        "discard pile and draw G3 from ann's discard pile"
    assert _level8("2: draw-discard 1", "2: draw", None) == "eve signed two different moves " \
        "for the same turn: draw the top card from bob's discard pile and draw from the draw pile"


def test_known_cards_are_read_from_a_view_before_the_moves_and_kept_as_json():
    """What ``halted.json`` keeps for ``lancards history``: the card of a slot a move names,
    from the view; the top of a pile a move draws from, from the view before it."""
    rules = rules_named("level8")
    view = SimpleNamespace(cards={145: "O8#145", 7: "B7#7"})
    before = SimpleNamespace(cards={7: "B7#7"}, discards=((), (3, 7), ()))
    known = known_cards(rules, [_play("2: choose #145"), _play("2: draw-discard 1"),
                                _play("2: draw-discard 2"), _play("2: choose #9"),
                                {"t": "shuffle"}, _play("2: no such move")], view, before)
    assert known == KnownCards({145: "O8"}, {1: "B7"})
    assert known.to_json() == {"cards": {"145": "O8"}, "tops": {"1": "B7"}}
    assert KnownCards.from_json(json.loads(json.dumps(known.to_json()))) == known
    assert KnownCards.from_json({"cards": {"x": "O8", "3": 4}, "tops": []}) == KnownCards()
    assert known_cards(rules, [_play("2: draw-discard 1")], view, None) == KnownCards()
