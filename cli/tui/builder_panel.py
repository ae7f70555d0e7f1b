"""The lay-down builder's panel (Level 8, ``l``): its title, one row per component of the level
and a last line, each within the panel's width.

A row says a component's cards and what is wrong with them. The engine's full reason (German
``hier (Karten einer Farbe) sind mindestens 7 Karten nötig, nicht 6``) beside seven cards
wrapped onto a second row at 80 columns (a new-user trial, ``--lang de``), and the panel lost a
row of the hand's room; where the full reason does not fit, the row says it short (``6 von 7
Karten``), and where that does not fit either, the mark ``x`` alone (the last line and the
cards tell the rest). The last line (``not valid: ...``) is shortened the same way, and so is
the title: ``(12 offered; Tab cycles)`` becomes ``(12 offered)``, then goes; with no offer it
says ``(no lay-down offered)`` (a new-user trial read ``(0 offered; Tab cycles)``, and Tab did
nothing but refuse).

While a component has no cards yet, the last line shows the lay-down ``Tab`` loads next, cards
and all (``Tab loads lay-down 1 of 12: O1 P1 | Y10 G10 | ...``) instead of "no cards for the
pair yet", which every empty row already says: at 80x24 a new user saw none of the engine's
offers until pressing Tab, and the panel has no row to spare there (one more would take it from
the table, which already scrolls, or the log's four).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import N_, _
from lancards.cli.tui.builder import LayDownBuilder
from lancards.cli.tui.cards import placed_text, strip_slots
from lancards.cli.tui.controller import short_error, styled_cards
from lancards.cli.tui.fit import line_length
from lancards.cli.tui.narrate import component_words, requirement
from lancards.cli.tui.reasons import component_named, reason_words
from lancards.cli.tui.width import cut, pad, text_width
from lancards.engine.level8.actions import LayDown
from lancards.engine.level8.levels import Component

COMPONENT_COLUMNS = 22
"""The columns of a row's component words (``7 Karten einer Farbe``)."""

_SHORT: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"an? [\w -]+ here needs at least (?P<size>\d+) cards, got (?P<count>\d+)"),
     N_("{count} of {size} cards")),
    (re.compile(r"numbers [\d ]+ are not consecutive"), N_("numbers not consecutive")),
    (re.compile(r"colours [\w ]+ are not one colour"), N_("not one colour")),
    (re.compile(r"numbers [\d ]+ are not all the same"), N_("numbers not all the same")),
    (re.compile(r"joker (?P<card>\S+) cannot stand for (?P<number>\d+) \(its range is .+\)"),
     N_("{card} cannot be {number}")),
    (re.compile(r"joker (?P<card>\S+) stands only for (?P<lo>\d+) to (?P<hi>\d+), .+"),
     N_("{card} is {lo} to {hi} only")),
    (re.compile(r"jokers .+ cannot join .+"), N_("the jokers do not fit")),
    (re.compile(r"joker \S+ .+"), N_("a joker's value does not fit")),
    (re.compile(r"(?P<first>\S+) and (?P<second>\S+) are not the same colour"),
     N_("{first} and {second}: two colours")),
    (re.compile(r"(?P<low>\d+) and (?P<high>\d+) are too far apart for .+"),
     N_("{low} and {high} too far apart")),
    (re.compile(r"(?P<first>\S+) and (?P<other>\S+) are not the same number"),
     N_("{first} and {other} differ")),
]
"""The engine's reasons for a component (``melds.make_meld``, its ruling left off) and their
short words, for a row that has no room for the full ones."""

_RULING = re.compile(r" \(rulings? [\w, -]+\)")
_PREFIX = re.compile(r"^(seat \d+: )?(illegal|malformed) '[^']*': ")
_GROUP = re.compile(r"group (?P<number>\d+) is not an? (?P<component>.+?): (?P<why>.+)")
"""``game.check``'s reason for a lay-down whose group ``number`` does not form its component."""


def short_reason(reason: str) -> str | None:
    """The short words of an engine reason for a component (``"6 of 7 cards"``), or None when
    it has none."""
    body = _RULING.sub("", strip_slots(reason))
    for pattern, words in _SHORT:
        found = pattern.fullmatch(body)
        if found is not None:
            return _(words).format(**found.groupdict())
    return None


def fitted(forms: Sequence[StyleAndTextTuples], width: int) -> StyleAndTextTuples:
    """The first of ``forms`` (the longest first) within ``width`` columns, else the last
    (``width`` 0: the first)."""
    for form in forms:
        if not width or line_length(form) <= width:
            return form
    return forms[-1]


def component_row(index: int, component: Component, group: Sequence[Any],
                  problem: str | None, width: int = 0) -> StyleAndTextTuples:
    """Component ``index`` (0-based) with its cards (a run's by number) and ``ok`` or what is
    wrong, the reason as short as ``width`` needs (see the module docstring); no newline."""
    shown = sorted(group, key=lambda p: p.number) if component.kind.is_run else group
    head: StyleAndTextTuples = [
        ("", f"  {index + 1} {pad(component_words(component), COMPONENT_COLUMNS)} "),
        *styled_cards(" ".join(placed_text(p) for p in shown) or "-")]
    if not problem:
        return [*head, ("class:ok", "  " + _("ok"))]
    marks = [f"  x {reason_words(problem)}"]
    short = short_reason(problem)
    if short is not None:
        marks.append(f"  x {short}")
    marks.append("  x")
    return fitted([[*head, ("class:error", mark)] for mark in marks], width)


def verdict_words(error: str, width: int = 0) -> str:
    """``not valid: REASON`` for the builder's candidate (``error``: the engine's words), the
    reason of a group shortened until the line (indented by two) fits ``width``."""
    forms = [_("not valid: {reason}").format(reason=short_error(error))]
    group = _GROUP.fullmatch(_RULING.sub("", _PREFIX.sub("", strip_slots(error))))
    short = short_reason(group["why"]) if group is not None else None
    if group is not None and short is not None:
        forms.append(_("not valid: {reason}").format(reason=_(
            "component {number} is not a {component}: {why}").format(
                number=group["number"], component=component_named(group["component"]),
                why=short)))
        forms.append(_("not valid: component {number}: {why}").format(number=group["number"],
                                                                  why=short))
    return next((f for f in forms if not width or text_width("  " + f) <= width), forms[-1])


def offer_line(offers: Sequence[LayDown], number: int, width: int = 0) -> StyleAndTextTuples:
    """The lay-down Tab loads next (``number``: its index, 0-based, in ``offers``), its groups
    as the log tells a lay-down (``O1 P1 | R7 J6-10=7``, each by number); no newline. Where it
    does not fit ``width``, the words are shorter (``Tab 1/12:``), then the jokers' ranges go
    (``J=7``), then it is cut with "…"."""
    groups = " | ".join(" ".join(placed_text(p) for p in sorted(g, key=lambda p: p.number or 0))
                        for g in offers[number].groups)
    bare = re.sub(r"J\d+-\d+=", "J=", groups)
    long = _("Tab loads lay-down {number} of {count}:").format(number=number + 1,
                                                               count=len(offers))
    short = _("Tab {number}/{count}:").format(number=number + 1, count=len(offers))
    forms = [[("", f"  {words} "), *styled_cards(cards)]
             for words, cards in ((long, groups), (short, groups), (short, bare))]
    form = fitted(forms, width)
    if width and line_length(form) > width:
        text = "".join(f[1] for f in form)
        return [("", cut(text, width))]
    return form


def builder_panel(builder: LayDownBuilder, snap: Any, offer: int,
                  width: int = 0) -> StyleAndTextTuples:
    """The whole panel of ``builder`` at the table ``snap`` (``offer``: the index of the
    lay-down Tab loaded last, -1 for none), each line within ``width`` columns (0: any)."""
    view = snap.view
    offers = [a for a in snap.legal if isinstance(a, LayDown)]
    title: StyleAndTextTuples = [(
        "class:picker.title",
        " " + _("lay down level {level}: {requirement}").format(
            level=view.levels[snap.seat], requirement=requirement(builder.level)) + " ")]
    # with no offer, nothing for Tab to cycle: the title said "(0 offered; Tab cycles)"
    said = [_("({count} offered; Tab cycles)"), _("({count} offered)")] if offers else \
        [_("(no lay-down offered)")]
    out = [*fitted([*([*title, ("", "  " + words.format(count=len(offers)))] for words in said),
                    title], width), ("", "\n")]
    problems = builder.group_errors()
    for index, component in enumerate(builder.level):
        out += [*component_row(index, component, builder.shown(index), problems[index], width),
                ("", "\n")]
    error = builder.error(snap.game, view)
    if error and offers and not all(builder.groups):  # "no cards for the pair yet"
        out += [*offer_line(offers, (offer + 1) % len(offers), width), ("", "\n")]
    elif error:
        out.append(("class:error", "  " + verdict_words(error, width) + "\n"))
    else:
        out.append(("class:ok", "  " + _("valid: Enter lays it down") + "\n"))
    return out


__all__ = ["builder_panel", "component_row", "offer_line", "short_reason", "verdict_words"]
