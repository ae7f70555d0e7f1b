"""Every reason the engine gives for an illegal move has words (issue 28): the reasons are
found by reading ``engine/`` (each ``IllegalActionError``, each ``fail(...)`` of a Level 8 step,
each sentence the lay-down and add checks return), so a new reason without words here, and in
``cli/tui/reasons.py``, fails this test. Each is said on the message line in German with its
exact words; the English line stays the engine's. Neither says the ruling id the engine's
sentence ends with (players read words; the id is for ``docs/`` and ``lancards audit``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.tui.controller import short_error

ENGINE = Path(__file__).resolve().parents[3] / "engine"

REASON_FUNCTIONS = {"_whose", "claim_refusal", "add_error", "declaration_error", "make_meld"}
"""The engine's functions that return a reason sentence (given to ``fail`` as a variable;
``claim_refusal`` returns it first in a tuple, with its code)."""

NOT_A_PLAYERS_MOVE = {
    # chance's actions: the peers' shared randomness (a shuffle, a card turned up), never a
    # player's move; a peer that signs a bad one is a cheat, said by its halt kind
    "chance is not to act: {_whose(state)}",
    "no random seat out of {action.n} is due",
    "no shuffle is due",
    "only the top card of the draw pile is turned now",
    "{action}: chance is not to act, seat {self.to_act(state)} is",
    "{action}: chance must answer {request}",
    "{action}: slot #{request.slot} is to be revealed, not #{action.slot}",
    # a position text's moves (``engine.*.position``, notation for tools and tests)
    "seat {seat}: illegal {text.strip()}: no {face} among the cards it may use",
    "{text.strip()}: seat {seat} holds no {card}",
    # the frame of every Level 8 reason (``steps.fail``): short_error takes it off
    "{who}: illegal {str(action)}: {reason} (ruling {ruling})",
}
"""Reasons no person at a table meets, each group with why."""

L8 = "seat 0: illegal '0: discard R7#44': "
"""The frame of a Level 8 reason (``steps.fail``), as short_error takes it off."""

SAMPLES = {
    "#{action.slot} is already kept":
        (L8 + "#12 is already kept (ruling L8-13)",
         "diese Karte wird schon behalten"),
    "#{action.slot} is not among the shown cards":
        (L8 + "#12 is not among the shown cards (ruling L8M-1)",
         "diese Karte ist nicht unter den gezeigten"),
    "#{action.slot} is not in the hand of seat {seat}":
        (L8 + "#12 is not in the hand of seat 0 (ruling L8-13)",
         "diese Karte ist nicht auf der Hand von Platz 0"),
    "a Skip card goes in front of another player":
        (L8 + "a Skip card goes in front of another player (ruling L8C-1)",
         "eine „Aussetzen!“-Karte kommt vor einen anderen Spieler"),
    "a card must stay in hand for the discard":
        (L8 + "a card must stay in hand for the discard (ruling L8-8)",
         "eine Karte muss zum Ablegen auf der Hand bleiben"),
    "a turn ends with a discard or a special card":
        (L8 + "a turn ends with a discard or a special card (ruling L8-3)",
         "ein Zug endet mit einer Ablage oder einer Sonderkarte"),
    "a {kind.value} here needs at least {size} cards, got {len(placed)}":
        (L8 + "a run here needs at least 4 cards, got 3 (ruling L8-5)",
         "hier (Folge) sind mindestens 4 Karten nötig, nicht 3"),
    "at most 3 cards are swapped":
        (L8 + "at most 3 cards are swapped (ruling L8M-2)",
         "höchstens 3 Karten werden getauscht"),
    "chance must act first (a shuffle or a card turned up)":
        (L8 + "chance must act first (a shuffle or a card turned up) (ruling L8-3)",
         "zuerst ist der Zufall dran (Mischen oder eine Karte aufdecken)"),
    "colours {names} are not one colour (ruling L8-4)":
        (L8 + "colours B R are not one colour (ruling L8-4) (ruling L8-5)",
         "die Karten haben verschiedene Farben: blau, rot"),
    "every {card} of the deck is known to be elsewhere":
        (L8 + "every R7 of the deck is known to be elsewhere (ruling L8-3)",
         "jede R7 des Kartenspiels ist bekanntlich woanders"),
    "group {index + 1} is not a {component}: {meld}":
        (L8 + "group 1 is not a run of 4: numbers 7 9 are not consecutive (ruling L8-4) "
         "(ruling L8-5)",
         "Teil 1 (4er-Folge): die Zahlen 7 9 folgen nicht aufeinander"),
    "it is seat {actor}'s move ({state.phase.value})":
        (L8 + "it is seat 2's move (draw) (ruling L8-3)",
         "Platz 2 ist am Zug (draw)"),
    "joker {face} cannot stand for {p.number} (its range is {face.lo}-{face.hi})":
        (L8 + "joker J1-5 cannot stand for 7 (its range is 1-5) (ruling L8-5)",
         "Joker J1-5 kann nicht für 7 stehen (sein Bereich ist 1-5)"),
    "joker {face}#{p.slot} declares a colour, but a {kind.value} takes a number only":
        (L8 + "joker J#3 declares a colour, but a set takes a number only (ruling L8-5)",
         "Joker J sagt eine Farbe an, aber hier (gleiche Zahlen) zählt nur die Zahl"),
    "joker {face}#{p.slot} declares a number, but a {kind.value} takes a colour only":
        (L8 + "joker J#3 declares a number, but a colour-group takes a colour only "
         "(ruling L8-5)",
         "Joker J sagt eine Zahl an, aber hier (Karten einer Farbe) zählt nur die Farbe"),
    "joker {face}#{p.slot} needs a declared colour in a {kind.value}":
        (L8 + "joker J#3 needs a declared colour in a colour-run (ruling L8-5)",
         "Joker J braucht hier (Farbfolge) eine angesagte Farbe"),
    "joker {face}#{p.slot} needs a declared number in a {kind.value}":
        (L8 + "joker J#3 needs a declared number in a run (ruling L8-5)",
         "Joker J braucht hier (Folge) eine angesagte Zahl"),
    "level {state.levels[seat]} has {len(level)} components, not {len(action.groups)}":
        (L8 + "level 3 has 2 components, not 1 (ruling L8-5)",
         "Stufe 3 hat 2 Teile, nicht 1"),
    "numbers {' '.join(map(str, numbers))} are not consecutive (ruling L8-4)":
        (L8 + "numbers 7 9 are not consecutive (ruling L8-4) (ruling L8-5)",
         "die Zahlen 7 9 folgen nicht aufeinander"),
    "numbers {numbers_text} are not all the same (ruling L8-4)":
        (L8 + "numbers 9 12 are not all the same (ruling L8-4) (ruling L8-5)",
         "die Zahlen 9 12 sind nicht alle gleich"),
    "only a player whose level is down adds cards":
        (L8 + "only a player whose level is down adds cards (ruling L8-7)",
         "nur wer seine Stufe ausgelegt hat, legt Karten an"),
    "seat {seat} has already left the table":
        (L8 + "seat 1 has already left the table (ruling D-1)",
         "Platz 1 hat den Tisch schon verlassen"),
    "seat {seat} may keep at most {allowance} cards":
        (L8 + "seat 0 may keep at most 2 cards (ruling L8-13)",
         "Platz 0 darf höchstens 2 Karten behalten"),
    "seat {seat} must show {need} cards":
        (L8 + "seat 0 must show 3 cards (ruling L8M-1)",
         "Platz 0 muss 3 Karten zeigen"),
    "seat {target} already has a Skip card in front":
        (L8 + "seat 2 already has a Skip card in front (ruling L8C-1)",
         "vor Platz 2 liegt schon eine „Aussetzen!“-Karte"),
    "seat {target} has left the table":
        (L8 + "seat 2 has left the table (ruling D-1)",
         "Platz 2 hat den Tisch verlassen"),
    "the colour group is {meld.colour}, not {p.colour} (ruling L8-7)":
        (L8 + "the colour group is R, not B (ruling L8-7) (ruling L8-7)",
         "die Karten einer Farbe sind rot, nicht blau"),
    "the colour run is {meld.colour}, not {p.colour} (ruling L8-7)":
        (L8 + "the colour run is R, not B (ruling L8-7) (ruling L8-7)",
         "die Farbfolge ist rot, nicht blau"),
    "the discard pile of seat {action.owner} is empty":
        (L8 + "the discard pile of seat 1 is empty (ruling L8-3)",
         "der Ablagestapel von Platz 1 ist leer"),
    "the game is over":
        (L8 + "the game is over (ruling L8-11)", "das Spiel ist vorbei"),
    "the level is already laid down this round":
        (L8 + "the level is already laid down this round (ruling L8-5)",
         "die Stufe ist in dieser Runde schon ausgelegt"),
    "the set is of {meld.number}s, not {p.number} (ruling L8-7)":
        (L8 + "the set is of 7s, not 8 (ruling L8-7) (ruling L8-7)",
         "die Gruppe besteht aus 7ern, nicht aus 8ern"),
    "{action.card.card} is not a special card":
        (L8 + "R7 is not a special card (ruling L8-3)", "R7 ist keine Sonderkarte"),
    "{action}: 'take' and 'no-take' are for trick rounds only (ruling E-4)":
        ("0: play B8#17 take: 'take' and 'no-take' are for trick rounds only (ruling E-4)",
         "0: play B8 take: „nehmen“ und „nicht nehmen“ gibt es nur in Stichrunden"),
    "{action}: no seat plays now ({phase.name.lower()})":
        ("0: play B8#17: no seat plays now (deal)",
         "0: play B8: gerade spielt kein Platz (deal)"),
    "{action}: only the 8 of the led suit is played with 'take' or 'no-take' (ruling E-4)":
        ("0: play B7#17 take: only the 8 of the led suit is played with 'take' or 'no-take' "
         "(ruling E-4)",
         "0: play B7 take: nur die 8 der ausgespielten Farbe wird mit „nehmen“ oder „nicht nehmen“ "
         "gespielt"),
    "{action}: seat {seat} acts out of turn; seat {state.turn} is to play (ruling E-3)":
        ("0: play B8#17: seat 0 acts out of turn; seat 1 is to play (ruling E-3)",
         "0: play B8: Platz 0 ist nicht an der Reihe; Platz 1 spielt"),
    "{action}: seat {seat} has already left the table (ruling D-1)":
        ("0: pass: seat 0 has already left the table (ruling D-1)",
         "0: pass: Platz 0 hat den Tisch schon verlassen"),
    "{action}: seat {seat} may not pass in round {state.round}; passing is only in round 8 "
    "(rulings E-3, E-7)":
        ("0: pass: seat 0 may not pass in round 3; passing is only in round 8 (rulings E-3, "
         "E-7)",
         "0: pass: Platz 0 darf in Runde 3 nicht passen; passen geht nur in Runde 8"),
    "{action}: seat {seat} must declare 'take' or 'no-take' with the 8 of the led suit "
    "(ruling E-4)":
        ("0: play B8#17: seat 0 must declare 'take' or 'no-take' with the 8 of the led suit "
         "(ruling E-4)",
         "0: play B8: Platz 0 muss zur 8 der ausgespielten Farbe „nehmen“ oder „nicht nehmen“ "
         "ansagen"),
    "{action}: slot #{action.slot} is not in seat {seat}'s hand":
        ("0: play B8#17: slot #17 is not in seat 0's hand",
         "0: play B8: diese Karte ist nicht auf der Hand von Platz 0"),
    "{action}: the game is over (ruling D-3)":
        ("0: pass: the game is over (ruling D-3)", "0: pass: das Spiel ist vorbei"),
    "{action}: {action.card} does not fit the layout ({describe_layout(state.layout)}); play "
    "an 8, or the next card up or down in an opened suit (ruling E-7)":
        ("0: play B3#17: B3 does not fit the layout (Red 8, Blue 5-10, Yellow -, Green -); "
         "play an 8, or the next card up or down in an opened suit (ruling E-7)",
         "0: play B3: B3 passt nicht an die Auslage (Rot 8, Blau 5-10, Gelb -, Grün -); spiel "
         "eine 8 oder die nächste Karte auf- oder abwärts in einer eröffneten Farbe"),
    "{card} is not a card of {state.rules.edition}":
        (L8 + "R16 is not a card of master (ruling L8-3)",
         "R16 ist keine Karte von master"),
    "{face} is a special card and cannot be part of a combination":
        (L8 + "SKIP is a special card and cannot be part of a combination (ruling L8-5)",
         "SKIP ist eine Sonderkarte und gehört in keine Kombination"),
    "{p.card}#{p.slot} is not in the hand of seat {action.seat} (it is in "
    "{state.where(p.slot)})":
        (L8 + "R7#44 is not in the hand of seat 0 (it is in discard pile 2) (ruling L8-3)",
         "R7 ist nicht auf der Hand von Platz 0 (sondern: im Ablagestapel von Platz 2)"),
    "{p.number} does not extend the run {meld.lo}-{meld.hi} at an end (ruling L8-7)":
        (L8 + "9 does not extend the run 3-6 at an end (ruling L8-7) (ruling L8-7)",
         "9 verlängert die Folge 3-6 an keinem Ende"),
    "slot #{slot} is {known}, not {card}":
        (L8 + "slot #12 is R7, not B3 (ruling L8-3)",
         "diese Karte ist R7, nicht B3"),
    "{top} may not be drawn from a discard pile":
        (L8 + "SKIP may not be drawn from a discard pile (ruling L8-15)",
         "SKIP darf nicht von einem Ablagestapel gezogen werden"),
    "{who}: claims slot #{slot} is {card}, but it holds {CARDS[current]}":
        ("seat 0: claims slot #17 is B8, but it holds R3",
         "seat 0: gibt die Karte als B8 aus, sie ist aber R3"),
    "{who}: claims slot #{slot} is {card}, but {card} is known to be slot #{elsewhere}":
        ("seat 0: claims slot #17 is B8, but B8 is known to be slot #20",
         "seat 0: gibt die Karte als B8 aus, aber B8 ist bekanntlich woanders"),
}
"""Each reason's template (as the engine's source writes it): an engine message of it, and
its German words on the message line."""


def _template(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else
                        "{" + ast.unparse(v.value) + "}"  # type: ignore[attr-defined]
                        for v in node.values)]
    if isinstance(node, ast.IfExp):
        return _template(node.body) + _template(node.orelse)
    if isinstance(node, ast.Tuple) and node.elts:  # (sentence, code, params): claim_refusal
        return _template(node.elts[0])
    return []  # a variable: a reason of one of REASON_FUNCTIONS


def engine_nodes() -> Iterator[tuple[str, ast.AST]]:
    """Every node of ``engine/``'s modules, with the called name of a call (else "")."""
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            f = node.func if isinstance(node, ast.Call) else None
            yield (f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")), node


def engine_reasons() -> set[str]:
    """Every reason template of ``engine/`` (see the module docstring)."""
    found: set[str] = set()
    for name, node in engine_nodes():
        if name == "IllegalActionError" and isinstance(node, ast.Call) and node.args:
            found.update(_template(node.args[0]))
        elif name == "fail" and isinstance(node, ast.Call) and len(node.args) >= 4:
            found.update(_template(node.args[2]))
        elif isinstance(node, ast.FunctionDef) and node.name in REASON_FUNCTIONS:
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    found.update(_template(ret.value))
    return found


def test_every_reason_of_the_engine_has_words_here():
    found = engine_reasons()
    assert len(found) > 50  # the reading found the engine's reasons
    assert found - NOT_A_PLAYERS_MOVE - set(SAMPLES) == set(), "a reason without words"
    assert set(SAMPLES) - found == set(), "words for a reason the engine no longer gives"
    assert found >= NOT_A_PLAYERS_MOVE  # an exception the engine no longer has goes too


@pytest.mark.parametrize("template", sorted(SAMPLES))
def test_each_reason_on_the_german_message_line(german, template):
    engine, words = SAMPLES[template]
    assert short_error(engine) == words


def test_english_keeps_the_engines_sentences_without_the_ruling():
    assert short_error(SAMPLES["{top} may not be drawn from a discard pile"][0]) == \
        "SKIP may not be drawn from a discard pile"
    assert short_error(L8 + "R7#44 is not in the hand of seat 0 (it is in discard pile 2) "
                       "(ruling L8-3)") == \
        "R7 is not in the hand of seat 0 (it is in discard pile 2)"
    assert short_error("0: play B8#17: seat 0 acts out of turn; seat 1 is to play "
                       "(ruling E-3)") == \
        "0: play B8: seat 0 acts out of turn; seat 1 is to play"


def test_the_colours_of_a_reason_are_german_words_and_english_keeps_the_letters(german):
    """The engine names colours by their letters (``Colour.value``); German says the colour's
    word (``docs/glossary-de.md``: rot, orange, gelb, grün, blau, lila)."""
    from lancards.engine.level8.cards import card
    from lancards.engine.level8.levels import ComponentKind
    from lancards.engine.level8.melds import add_error, make_meld, natural

    def meld(kind: ComponentKind, *faces: str) -> object:
        return make_meld(0, 0, kind, 3, [natural(i, card(f)) for i, f in enumerate(faces)])

    mixed = meld(ComponentKind.COLOUR_GROUP, "R3", "B5", "Y7")
    run = meld(ComponentKind.COLOUR_RUN, "R3", "R4", "R5")
    group = meld(ComponentKind.COLOUR_GROUP, "G3", "G5", "G7")
    reasons = [mixed, add_error(run, natural(4, card("P6"))),  # type: ignore[arg-type]
               add_error(group, natural(4, card("O6")))]  # type: ignore[arg-type]
    assert [short_error(str(r)) for r in reasons] == [
        "die Karten haben verschiedene Farben: blau, rot, gelb",
        "die Farbfolge ist rot, nicht lila",
        "die Karten einer Farbe sind grün, nicht orange"]
    assert short_error(L8 + "the set is of 7s, not 8 (ruling L8-7)") == \
        "die Gruppe besteht aus 7ern, nicht aus 8ern"
    i18n.set_language("en")
    assert [short_error(str(r)) for r in reasons] == [
        "colours B R Y are not one colour",
        "the colour run is R, not P", "the colour group is G, not O"]


NOTATION = "notation"
BUILT = "built"
NEVER_ON_A_SCREEN = {
    # parse errors of notation text (parse_action, the cards' and chance's text, position
    # texts): no screen parses a person's text (the screens build action objects, the Level 8
    # keys and the picker choose among the legal moves); a peer's entry that does not parse is
    # a refused message, Reason.MALFORMED, said by cli/peer_errors.py
    "action {text} has an empty group": NOTATION,
    "action {text} has no 'SEAT:' prefix": NOTATION,
    "action {text} has no verb": NOTATION,
    "action {text} needs 'SEAT: ...' or '*: ...'": NOTATION,
    "action {text}: a played card is CARD#SLOT, e.g. B8#17": NOTATION,
    "action {text}: after the card say {TAKE} or {NO_TAKE}, not {tokens[2]}": NOTATION,
    "action {text}: seat {seat} is negative": NOTATION,
    "action {text}: {head} is not a seat number": NOTATION,
    "expected a slot like '#17', got {text}": NOTATION,
    "expected {what}, got {text}": NOTATION,
    "unknown action {text}": NOTATION,
    "unknown action {text}; expected 'play CARD#SLOT' or 'pass'": NOTATION,
    "unknown card {text}": NOTATION,
    "unknown card {text}; a card is a suit letter R, B, Y or G and a number 1..15": NOTATION,
    "card {text} is not CARD#SLOT[=DECLARATION]": NOTATION,
    "card {text}: bad joker declaration": NOTATION,
    "card {text}: only jokers take a declaration": NOTATION,
    "card {text}: unknown colour {decl[0]}": NOTATION,
    "empty chance action": NOTATION,
    "malformed chance action {' '.join(tokens)}": NOTATION,
    "random needs VALUE/N with 0 <= VALUE < N, got {args[0]}": NOTATION,
    "reveal needs CARD#SLOT, got {args[0]}": NOTATION,
    "shuffle order {' '.join(args)} is not a permutation": NOTATION,
    "unknown chance action {' '.join(tokens)}": NOTATION,
    "{text}: no card is to be revealed; write CARD#SLOT": NOTATION,
    "{text}: no card is to be turned up; write CARD#SLOT": NOTATION,
    "{text}: this state does not know seat {seat}'s cards; write {face}#SLOT": NOTATION,
    "{text}: this state does not know seat {seat}'s hand; write {card}#SLOT": NOTATION,
    # the shape of an action object, which the screens build from the hand and the table or
    # take from the legal moves (and chance's actions, never a person's): a bug, for --verbose
    "card number {self.number} is not within 1..15": BUILT,
    "card suit {self.suit} is not 0..3": BUILT,
    "shuffle order is not a permutation of 0..{DECK_SIZE - 1}": BUILT,
    "{action} is not an 8s Rule! action": BUILT,
    "{action}: chance actions have seat {CHANCE}": BUILT,
    "{action}: seat {seat} is not at this table": BUILT,
    "{action}: slot #{action.slot} is not a current slot": BUILT,
    "{action}: take must be True, False or None": BUILT,
    "{action}: {action.card} is not a card of the deck": BUILT,
    "{who}: slot #{slot} is not a current card slot": BUILT,
    "{who}: {card} is not a card of the 60-card deck": BUILT,
    "there is no seat {seat}": BUILT,
    "a Skip card needs a target seat, other special cards none": BUILT,
    "a card is shown twice": BUILT,
    "a card that is not laid takes no declaration ({p})": BUILT,
    "a leave is not a step of play: {action}": BUILT,
    "malformed {str(action)}: {reason}": BUILT,
    "not a Level 8 action: {action}": BUILT,
    "not a chance action": BUILT,
    "the order has {len(action.order)} places for {len(slots)} cards": BUILT,
    "the revealed card is not a Level 8 card": BUILT,
    "there is no meld {action.meld}": BUILT,
    "there is no seat {action.owner}": BUILT,
    "there is no seat {action.seat}": BUILT,
    "there is no seat {target}": BUILT,
    "there is no slot #{p.slot} in play": BUILT,
}
"""The engine's malformed-action errors (``InvalidActionError``, ``steps.malformed``) that no
screen can show, each with why (issue 28, item 5): they stay English, for --verbose."""


def malformed_reasons() -> set[str]:
    """Every ``InvalidActionError`` template of ``engine/`` and every reason given to
    ``steps.malformed``."""
    found: set[str] = set()
    for name, node in engine_nodes():
        if name == "InvalidActionError" and isinstance(node, ast.Call) and node.args:
            found.update(_template(node.args[0]))
        elif name == "malformed" and isinstance(node, ast.Call) and len(node.args) >= 2:
            found.update(_template(node.args[1]))
    return found


def test_every_malformed_action_error_has_words_or_never_reaches_a_screen(german):
    found = malformed_reasons()
    assert found - set(NEVER_ON_A_SCREEN) == {"a card is used twice"}  # a lay-down's check
    assert set(NEVER_ON_A_SCREEN) - found == set(), "an error the engine no longer gives"
    assert short_error("malformed '0: lay R7#1 R7#1': a card is used twice") == \
        "eine Karte ist doppelt verwendet"
