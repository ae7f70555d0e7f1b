"""The engine's reasons in the player's language (issue 28): the sentences an illegal lay-down
or move gets from ``engine.level8`` (``melds.make_meld``, ``steps.lay_down``) and the builder,
matched here and said through the catalog.

The engine stays language-free and its sentences English (they name rulings and slots for
``--verbose``, the audit and the tests); :func:`reason_words` turns the ones a table shows into
catalog messages with the same values. A sentence it does not know stays as the engine wrote it.
Either way the ruling id a reason ends with is left off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from lancards.cli.i18n import N_, _, language

KIND_WORDS: Mapping[str, str] = {
    "set": N_("a set"),
    "run": N_("a run"),
    "colour-run": N_("a colour run"),
    "colour-group": N_("cards of one colour"),
}
"""``ComponentKind`` values as the reasons name them."""

_RULING = re.compile(r"^(?P<body>.*?) \(rulings? [\w, -]+\)$")
"""The ruling a reason ends with (``" (ruling L8-4)"``, ``" (rulings L8-4, L8-5)"``), left
off: players read words."""

_Words = Callable[[dict[str, str]], str]


def _simple(message: str) -> _Words:
    return lambda values: _(message).format(**values)


def _reworded(message: str) -> _Words:
    """A message whose English differs from the engine's sentence (a slot id the screen
    strips, a place's short name): in English the engine's sentence stays as it was."""
    words = _simple(message)
    setattr(words, "reworded", True)  # noqa: B010
    return words


_REASONS: list[tuple[re.Pattern[str], _Words]] = [
    (re.compile(pattern), words) for pattern, words in [
        (r"no cards yet", _simple(N_("no cards yet"))),
        (r"no cards for the (?P<component>.+) yet",
         _simple(N_("no cards for the {component} yet"))),
        (r"(?P<card>\S+) is a special card and cannot be part of a combination",
         _simple(N_("{card} is a special card and cannot be part of a combination"))),
        (r"joker (?P<card>\S+) needs a declared number in a (?P<kind>[\w-]+)",
         _simple(N_("joker {card} needs a declared number in {kind}"))),
        (r"joker (?P<card>\S+) declares a number, but a (?P<kind>[\w-]+) takes a colour only",
         _simple(N_("joker {card} declares a number, but {kind} takes a colour only"))),
        (r"joker (?P<card>\S+) needs a declared colour in a (?P<kind>[\w-]+)",
         _simple(N_("joker {card} needs a declared colour in {kind}"))),
        (r"joker (?P<card>\S+) declares a colour, but a (?P<kind>[\w-]+) takes a number only",
         _simple(N_("joker {card} declares a colour, but {kind} takes a number only"))),
        (r"joker (?P<card>\S+) cannot stand for (?P<number>\d+) "
         r"\(its range is (?P<lo>\d+)-(?P<hi>\d+)\)",
         _simple(N_("joker {card} cannot stand for {number} (its range is {lo}-{hi})"))),
        (r"a (?P<kind>[\w-]+) here needs at least (?P<size>\d+) cards, got (?P<count>\d+)",
         _simple(N_("{kind} here needs at least {size} cards, got {count}"))),
        (r"numbers (?P<numbers>[\d ]+) are not consecutive",
         _simple(N_("numbers {numbers} are not consecutive"))),
        (r"colours (?P<colours>[\w ]+) are not one colour",
         _simple(N_("colours {colours} are not one colour"))),
        (r"numbers (?P<numbers>[\d ]+) are not all the same",
         _simple(N_("numbers {numbers} are not all the same"))),
        (r"(?P<low>\d+) and (?P<high>\d+) are too far apart for one joker",
         _simple(N_("{low} and {high} are too far apart for one joker"))),
        (r"(?P<low>\d+) and (?P<high>\d+) are too far apart for (?P<count>\d+) jokers",
         _simple(N_("{low} and {high} are too far apart for {count} jokers"))),
        (r"(?P<first>\S+) and (?P<other>\S+) have the same number",
         _simple(N_("{first} and {other} have the same number"))),
        (r"(?P<first>\S+) and (?P<other>\S+) are not the same number",
         _simple(N_("{first} and {other} are not the same number"))),
        (r"(?P<first>\S+) and (?P<second>\S+) are not the same colour",
         _simple(N_("{first} and {second} are not the same colour"))),
        (r"joker (?P<card>\S+) stands only for (?P<lo>\d+) to (?P<hi>\d+), so it cannot join "
         r"(?P<cards>.+) in a run",
         _simple(N_("joker {card} stands only for {lo} to {hi}, so it cannot join {cards} in a "
                    "run"))),
        (r"jokers (?P<jokers>.+) cannot join (?P<cards>.+) in a run",
         _simple(N_("jokers {jokers} cannot join {cards} in a run"))),
        (r"group (?P<number>\d+) is not a (?P<component>.+?): (?P<why>.+)",
         _simple(N_("component {number} is not a {component}: {why}"))),
        (r"level (?P<level>\d+) has (?P<count>\d+) components, not (?P<given>\d+)",
         _simple(N_("level {level} has {count} components, not {given}"))),
        (r"the level is already laid down this round",
         _simple(N_("the level is already laid down this round"))),
        (r"a card must stay in hand for the discard",
         _simple(N_("a card must stay in hand for the discard"))),
        (r"a card is used twice", _simple(N_("a card is used twice"))),
        # engine.level8.steps and .leaving: a turn's steps, the special cards, leaving
        (r"the game is over", _simple(N_("the game is over"))),
        (r"seat (?P<seat>\d+) has already left the table",
         _simple(N_("seat {seat} has already left the table"))),
        (r"seat (?P<seat>\d+) has left the table", _simple(N_("seat {seat} has left the table"))),
        (r"(?P<card>\S+) is not in the hand of seat (?P<seat>\d+) \(it is in (?P<place>.+)\)",
         _reworded(N_("{card} is not in the hand of seat {seat} (it is in {place})"))),
        (r"slot\s+is (?P<known>\S+), not (?P<card>\S+)",
         _reworded(N_("that card is {known}, not {card}"))),
        (r"(?P<card>\S+) is not a card of (?P<edition>\S+)",
         _simple(N_("{card} is not a card of {edition}"))),
        (r"every (?P<card>\S+) of the deck is known to be elsewhere",
         _simple(N_("every {card} of the deck is known to be elsewhere"))),
        (r"chance must act first \(a shuffle or a card turned up\)",
         _simple(N_("chance must act first (a shuffle or a card turned up)"))),
        (r"it is seat (?P<seat>\d+)'s move \((?P<phase>[\w-]+)\)",
         _simple(N_("it is seat {seat}'s move ({phase})"))),
        (r"the discard pile of seat (?P<seat>\d+) is empty",
         _simple(N_("the discard pile of seat {seat} is empty"))),
        (r"(?P<card>\S+) may not be drawn from a discard pile",
         _simple(N_("{card} may not be drawn from a discard pile"))),
        (r"only a player whose level is down adds cards",
         _simple(N_("only a player whose level is down adds cards"))),
        (r"(?P<number>\d+) does not extend the run (?P<lo>\d+)-(?P<hi>\d+) at an end",
         _simple(N_("{number} does not extend the run {lo}-{hi} at an end"))),
        (r"the colour run is (?P<colour>\w+), not (?P<other>\w+)",
         _simple(N_("the colour run is {colour}, not {other}"))),
        (r"the set is of (?P<number>\d+)s, not (?P<other>\d+)",
         _simple(N_("the set is of {number}s, not {other}"))),
        (r"the colour group is (?P<colour>\w+), not (?P<other>\w+)",
         _simple(N_("the colour group is {colour}, not {other}"))),
        (r"(?P<card>\S+) is not a special card", _simple(N_("{card} is not a special card"))),
        (r"a Skip card goes in front of another player",
         _simple(N_("a Skip card goes in front of another player"))),
        (r"seat (?P<seat>\d+) already has a Skip card in front",
         _simple(N_("seat {seat} already has a Skip card in front"))),
        (r"seat (?P<seat>\d+) must show (?P<count>\d+) cards",
         _simple(N_("seat {seat} must show {count} cards"))),
        (r"\s*is not among the shown cards",
         _reworded(N_("that card is not among the shown cards"))),
        (r"at most 3 cards are swapped", _simple(N_("at most 3 cards are swapped"))),
        (r"\s*is not in the hand of seat (?P<seat>\d+)",
         _reworded(N_("that card is not in the hand of seat {seat}"))),
        (r"\s*is already kept", _reworded(N_("that card is already kept"))),
        (r"seat (?P<seat>\d+) may keep at most (?P<count>\d+) cards",
         _simple(N_("seat {seat} may keep at most {count} cards"))),
        (r"a turn ends with a discard or a special card",
         _simple(N_("a turn ends with a discard or a special card"))),
        # engine.eights.game: a seat's play (after the action, kept as written)
        (r"no seat plays now \((?P<phase>[\w ]+)\)", _simple(N_("no seat plays now ({phase})"))),
        (r"seat (?P<seat>\d+) acts out of turn; seat (?P<turn>\d+) is to play",
         _simple(N_("seat {seat} acts out of turn; seat {turn} is to play"))),
        (r"slot\s+is not in seat (?P<seat>\d+)'s hand",
         _reworded(N_("that card is not in the hand of seat {seat}"))),
        (r"seat (?P<seat>\d+) may not pass in round (?P<round>\d+); passing is only in round 8",
         _simple(N_("seat {seat} may not pass in round {round}; passing is only in round 8"))),
        (r"'take' and 'no-take' are for trick rounds only",
         _simple(N_("'take' and 'no-take' are for trick rounds only"))),
        (r"(?P<card>\S+) does not fit the layout \((?P<layout>.+)\); play an 8, or the next "
         r"card up or down in an opened suit",
         _simple(N_("{card} does not fit the layout ({layout}); play an 8, or the next card up "
                    "or down in an opened suit"))),
        (r"seat (?P<seat>\d+) must declare 'take' or 'no-take' with the 8 of the led suit",
         _simple(N_("seat {seat} must declare 'take' or 'no-take' with the 8 of the led suit"))),
        (r"only the 8 of the led suit is played with 'take' or 'no-take'",
         _simple(N_("only the 8 of the led suit is played with 'take' or 'no-take'"))),
        (r"(?P<who>seat \d+): claims slot\s+is (?P<card>\S+), but it holds (?P<other>\S+)",
         _reworded(N_("{who}: says that card is {card}, but it is {other}"))),
        (r"(?P<who>seat \d+): claims slot\s+is (?P<card>\S+), but (?P=card) is known to be "
         r"slot\s*",
         _reworded(N_("{who}: says that card is {card}, but {card} is known to be elsewhere"))),
    ]
]
"""The engine's sentences (slot ids and the ``seat N: illegal '...':`` prefix already gone,
``controller.short_error``) and their words."""


@cache
def _components() -> dict[str, object]:
    """Every component a level card can name, by its English ``str`` (``"run of 4"``)."""
    from lancards.engine.level8.levels import Component, ComponentKind

    return {str(c): c for kind in ComponentKind for size in range(1, 13)
            for c in [Component(kind, size)]}


PLACE_WORDS: Mapping[str, str] = {
    "gathered": N_("gathered for the shuffle"),
    "pile": N_("the draw pile"),
    "under": N_("under the draw pile"),
    "hand": N_("the hand of seat {number}"),
    "discard pile": N_("the discard pile of seat {number}"),
    "in front of": N_("in front of seat {number}"),
    "meld": N_("combination {number}"),
    "out of play": N_("out of play, seat {number}"),
    "nowhere": N_("nowhere"),
}
"""The card places of ``Level8State.places`` as a reason names them (``"hand 2"``)."""

SUIT_WORDS: Mapping[str, str] = {"Red": N_("Red"), "Blue": N_("Blue"), "Yellow": N_("Yellow"),
                                 "Green": N_("Green")}
"""The suits of an 8s Rule! layout as ``engine.eights.play.describe_layout`` names them."""

COLOUR_WORDS: Mapping[str, str] = {
    "R": N_("red"), "O": N_("orange"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"),
    "P": N_("purple"),
    "red": N_("red"), "orange": N_("orange"), "yellow": N_("yellow"), "green": N_("green"),
    "blue": N_("blue"), "purple": N_("purple"),
}
"""The Level 8 colours as a reason names them (the letter, ``Colour.value``; or the display
name, ruling L8-1), said as the colour's word in a language other than English (the words of
``level8_view.COLOUR_WORDS``; ``docs/glossary-de.md``). English keeps the engine's letters."""

_COLOURED = frozenset({"colours", "colour", "other"})
"""The reasons' values that name Level 8 colours (``other`` also names a set's number: a value
that is not all colours stays as it is)."""

_PLACE = re.compile(r"(?P<place>[a-z ]+?)(?: (?P<number>\d+))?")
_SUITS = re.compile(r"\b(Red|Blue|Yellow|Green)\b")
_ACTION = re.compile(r"(?P<action>\d+: (?:play \S+(?: no-take| take)?|pass|leave)): (?P<rest>.+)")
"""An 8s Rule! reason's action prefix (``"0: play B8: "``), kept as written."""


def _place(value: str) -> str:
    found = _PLACE.fullmatch(value)
    if found is None or found["place"] not in PLACE_WORDS:
        return value
    return _(PLACE_WORDS[found["place"]]).format(number=found["number"] or "")


def _colours(value: str) -> str:
    """``"B R"`` as ``"blau, rot"`` (German); English, or a value that is not all colours, as
    it is."""
    names = value.split()
    if language() == "en" or not names or any(n not in COLOUR_WORDS for n in names):
        return value
    return ", ".join(_(COLOUR_WORDS[n]) for n in names)


def _value(name: str, value: str) -> str:
    if name in _COLOURED:
        return _colours(value)
    if name == "place":
        return _place(value)
    if name == "layout":
        return _SUITS.sub(lambda m: _(SUIT_WORDS[m[1]]), value)
    if name == "kind":
        return _(KIND_WORDS[value]) if value in KIND_WORDS else value
    if name == "component":
        from lancards.cli.tui.narrate import component_words

        component = _components().get(value)
        return component_words(component) if component is not None else value  # type: ignore[arg-type]
    if name == "why":
        return reason_words(value)
    return value


def component_named(text: str) -> str:
    """A component as the engine's reasons name it (``"run of 4"``) in the player's words
    (German ``4er-Folge``); one not known stays as it is."""
    return _value("component", text)


def reason_words(text: str) -> str:
    """``text`` (an engine reason, as ``short_error`` leaves it) in the player's language,
    without the ruling it ends with: ``"numbers 7 9 are not consecutive (ruling L8-4)"`` is
    ``"die Zahlen 7 9 folgen nicht aufeinander"`` in German, ``"numbers 7 9 are not
    consecutive"`` in English (players read words; the ids are for ``docs/``, and the engine's
    own sentence, id and all, for ``--verbose`` and ``lancards audit``). A sentence not known
    here is returned as it is, less its ruling."""
    action = _ACTION.fullmatch(text)
    if action is not None:
        said = reason_words(action["rest"])
        return text if said == action["rest"] else f"{action['action']}: {said}"
    ruling = _RULING.match(text)
    body = ruling["body"] if ruling else text
    for pattern, words in _REASONS:
        found = pattern.fullmatch(body)
        if found is None:
            continue
        if getattr(words, "reworded", False) and language() == "en":
            return body
        return words({k: _value(k, v) for k, v in found.groupdict().items()})
    return body


__all__ = ["COLOUR_WORDS", "KIND_WORDS", "PLACE_WORDS", "SUIT_WORDS", "component_named",
           "reason_words"]
