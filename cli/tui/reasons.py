"""The engine's reasons in the player's language (issue 28): the sentences an illegal lay-down
or move gets from ``engine.level8`` (``melds.make_meld``, ``steps.lay_down``) and the builder,
matched here and said through the catalog.

The engine stays language-free and its sentences English (they name rulings and slots for
``--verbose``, the audit and the tests); :func:`reason_words` turns the ones a table shows into
catalog messages with the same values. A sentence it does not know stays as the engine wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from lancards.cli.i18n import N_, _

KIND_WORDS: Mapping[str, str] = {
    "set": N_("a set"),
    "run": N_("a run"),
    "colour-run": N_("a colour run"),
    "colour-group": N_("cards of one colour"),
}
"""``ComponentKind`` values as the reasons name them."""

_RULING = re.compile(r"^(?P<body>.*?) \((?P<many>rulings?) (?P<ids>[\w, -]+)\)$")

_Words = Callable[[dict[str, str]], str]


def _simple(message: str) -> _Words:
    return lambda values: _(message).format(**values)


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
        (r"group (?P<number>\d+) is not a (?P<component>.+?): (?P<why>.+)",
         _simple(N_("group {number} is not a {component}: {why}"))),
        (r"level (?P<level>\d+) has (?P<count>\d+) components, not (?P<given>\d+)",
         _simple(N_("level {level} has {count} parts, not {given}"))),
        (r"the level is already laid down this round",
         _simple(N_("the level is already laid down this round"))),
        (r"a card must stay in hand for the discard",
         _simple(N_("a card must stay in hand for the discard"))),
        (r"a card is used twice", _simple(N_("a card is used twice"))),
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


def _value(name: str, value: str) -> str:
    if name == "kind":
        return _(KIND_WORDS[value]) if value in KIND_WORDS else value
    if name == "component":
        from lancards.cli.tui.narrate import component_words

        component = _components().get(value)
        return component_words(component) if component is not None else value  # type: ignore[arg-type]
    if name == "why":
        return reason_words(value)
    return value


def reason_words(text: str) -> str:
    """``text`` (an engine reason, as ``short_error`` leaves it) in the player's language:
    ``"numbers 7 9 are not consecutive (ruling L8-4)"`` is ``"Zahlen 7 9 folgen nicht
    aufeinander (Regel L8-4)"`` in German; a sentence not known here is returned as it is."""
    ruling = _RULING.match(text)
    body = ruling["body"] if ruling else text
    for pattern, words in _REASONS:
        found = pattern.fullmatch(body)
        if found is None:
            continue
        said = words({k: _value(k, v) for k, v in found.groupdict().items()})
        if ruling is None:
            return said
        ids = ruling["ids"]
        return said + " " + (_("(ruling {id})").format(id=ids) if ruling["many"] == "ruling"
                             else _("(rulings {ids})").format(ids=ids))
    return text


__all__ = ["KIND_WORDS", "reason_words"]
