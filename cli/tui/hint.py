"""The hint (``h`` at the table): what the strongest bot level would play now, and why, in one
line of plain words ("hint: discard B3: not in your plan; 2 cards to go: a 4 and a red 9").

The move comes from :func:`lancards.engine.rulesets.advise` (``hard`` where the rule set
offers it, else ``normal``; ``docs/bots.md``, "The hint"), deciding from this seat's view only
(``snapshot().view``), with its own randomness seeded from the table and the move count, so the
same position gives the same hint. The reason is the engine's own (``engine/level8/advice.py``,
``engine/eights/advice.py``); this module only says it in words: no ruling ids, no class names.
Every sentence is one catalog message with placeholders (issue 28: German word order differs),
so nothing here glues translated pieces by English grammar. The hint is never played: the
person still presses the keys.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lancards.cli.i18n import N_, _, ngettext, pgettext
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.narrate import card_name, move_label
from lancards.engine.eights import advice as eights_advice
from lancards.engine.level8 import advice as level8_advice
from lancards.engine.level8.cards import COLOURS
from lancards.engine.rulesets import Advice, advise

_NUMBER_WORDS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six")}
_SHADES: dict[str, Callable[[], str]] = {
    "red": lambda: pgettext("before a noun", "red"),
    "orange": lambda: pgettext("before a noun", "orange"),
    "yellow": lambda: pgettext("before a noun", "yellow"),
    "green": lambda: pgettext("before a noun", "green"),
    "blue": lambda: pgettext("before a noun", "blue"),
    "purple": lambda: pgettext("before a noun", "purple")}
"""The colours' display names (ruling L8-1) before a noun, in the current language: English
``a red 9``, German ``eine rote 9``, ``drei blaue Karten`` (one ending serves "eine ... Karte",
"eine ... 9" and a plural without article)."""
_MOST_NEEDS = 3
"""The missing cards named at most (then "and more")."""
_MOST_OUTS = 4
"""The cards that would each complete the level named at most (then "or any of N other cards
that complete your level"; five are all named)."""


def hint_advice(snap: TableSnapshot) -> Advice:
    """The :class:`Advice` for this seat now (it must be this seat's move: ``snap.legal``
    not empty).

    Raises:
        ValueError: ``snap.legal`` is empty.
    """
    seed = f"hint-{snap.extra.get('table', snap.rule_set)}-{snap.seat}-{len(snap.log)}"
    return advise(snap.game, snap.view, snap.seat, list(snap.legal), random.Random(seed))


E_KEY_ACTIONS = ("SwapEnd", "KeepEnd", "EndTurn", "ServeSkip")
"""The Level 8 moves the key ``e`` makes (``cli/tui/level8_keys.py``): the hint names the key,
since "draw 3 cards (I'll swap that!)" reads like ``d``."""


def hint_line(snap: TableSnapshot) -> str:
    """The hint's one line for this seat now, or why there is none."""
    if not snap.legal:
        return _("hint: only on your move")
    return hint_words(snap, hint_advice(snap))


def hint_words(snap: TableSnapshot, advice: Advice) -> str:
    """``"hint: MOVE: REASON"``: the move as a list of moves names it, the reason in words."""
    move = move_label(snap.game.name, snap.view, advice.action, snap.names, snap.seat)
    reason = advice.reason
    if isinstance(reason, level8_advice.Reason):
        if reason.why is level8_advice.Why.LAY_DOWN:
            move = _("lay down your level (l, then Tab)")
        elif type(advice.action).__name__ in E_KEY_ACTIONS:  # the trial of 2026-12-05
            move = _("{move} (key e)").format(move=move)  # pressed d: "you cannot draw now"
        words = level8_reason(snap, reason)
    elif isinstance(reason, eights_advice.Reason):
        words = eights_reason(reason)
    else:
        words = ""
    return _("hint: {move}: {reason}").format(move=move, reason=words) if words else \
        _("hint: {move}").format(move=move)


# -- Level 8 -------------------------------------------------------------------------------------


def _an(number: int, colour: str) -> bool:
    """Whether English says "an" before the words (an 8, an 11, an orange 4): the choice of
    message, each one a whole sentence part in every language."""
    first = colour or str(number)
    return first.startswith(("8", "11", "18", "orange"))


def hole_words(hole: tuple[int, int], count: int) -> str:
    """A card a plan lacks: ``"a 7"``, ``"two red 7s"``, ``"a blue card"``, ``"an 8"``
    (``hole``: colour index or -1 for any colour, number or 0 for any number)."""
    colour, number = hole
    shade = COLOURS[colour].display if colour >= 0 else ""
    values = {"colour": _SHADES[shade]() if shade in _SHADES else shade,
              "number": number}
    if count == 1:
        an = _an(number, shade)
        if shade and number:
            text = _("an {colour} {number}") if an else _("a {colour} {number}")
        elif number:
            text = _("an {number}") if an else _("a {number}")
        elif shade:
            text = _("an {colour} card") if an else _("a {colour} card")
        else:
            text = _("a card")
        return text.format(**values)
    word = _(_NUMBER_WORDS[count]) if count in _NUMBER_WORDS else str(count)
    if shade and number:
        text = _("{count} {colour} {number}s")
    elif number:
        text = _("{count} {number}s")
    elif shade:
        text = _("{count} {colour} cards")
    else:
        text = _("{count} cards")
    return text.format(count=word, **values)


def needs_words(lacks: int, needs: tuple[tuple[tuple[int, int], int], ...],
                before: int | None = None, outs: tuple[tuple[int, int], ...] = ()) -> str:
    """``"2 cards to go: a 4 and a red 9"`` (with ``before``: ``"then 2 cards to go instead
    of 3: ..."``); one card to go with several ``outs`` (each completes the level):
    ``"1 card to go: a 3, a 4 or a red 9"``; ``lacks`` 0: the whole level is in the hand."""
    if lacks <= 0:  # after the move ("then"), or now
        return _("then your whole level is in your hand") if before is not None else \
            _("your whole level is in your hand")
    named = [hole_words(h, k) for h, k in needs[:_MOST_NEEDS]]
    if lacks == 1 and len(outs) > 1:
        # the first 4, or all 5 (one more is named, not counted); "or 4 other cards" left the
        # reader asking which, and for what (the trial of 2026-12-06): the ones that also do
        shown = _MOST_OUTS if len(outs) > _MOST_OUTS + 1 else _MOST_OUTS + 1
        named = [hole_words(h, 1) for h in outs[:shown]]
        more = len(outs) - shown
        listed = (ngettext("{cards} or {count} other card that completes your level",
                           "{cards} or any of {count} other cards that complete your level",
                           more).format(cards=", ".join(named), count=more)
                  if more > 0 else
                  _("{cards} or {last}").format(cards=", ".join(named[:-1]), last=named[-1]))
    elif len(needs) > _MOST_NEEDS:
        listed = _("{cards} and more").format(cards=", ".join(named))
    elif len(named) > 1:
        listed = _("{cards} and {last}").format(cards=", ".join(named[:-1]), last=named[-1])
    else:
        listed = named[0] if named else ""
    if before is None:
        head = ngettext("{count} card to go", "{count} cards to go", lacks)
    elif before == lacks:  # "then 1 card to go instead of 1" (the trial of 2026-12-05)
        head = ngettext("still {count} card to go", "still {count} cards to go", lacks)
    else:
        head = ngettext("then {count} card to go instead of {before}",
                        "then {count} cards to go instead of {before}", lacks)
    head = head.format(count=lacks, before=before)
    return _("{to_go}: {cards}").format(to_go=head, cards=listed) if listed else head


def level8_reason(snap: TableSnapshot, r: level8_advice.Reason) -> str:
    """A Level 8 :class:`~lancards.engine.level8.advice.Reason` in words."""
    Why = level8_advice.Why
    then = needs_words(r.lacks, r.needs, outs=r.outs)
    fits = _("it fits combination {number} on the table").format(number=r.meld + 1) \
        if r.meld is not None else _("it fits a combination on the table")
    words = {
        Why.ONLY: _("it is your only move"),
        Why.DRAW_PILE: (_("you hold your whole level: lay it down next") if r.lacks == 0
                        else _("no discard brings you closer; {needs}").format(needs=then)
                        if r.lacks > 0 else _("no discard fits a combination on the table")),
        Why.TAKE_TOP: needs_words(r.lacks, r.needs, r.lacks_before, r.outs),
        Why.TOP_FITS: fits,
        Why.LAY_DOWN: _("you hold all of it"),
        Why.ADD: _("one card fewer in your hand"),
        Why.DISCARD_SPARE: _("not in your plan; {needs}").format(needs=then),
        Why.DISCARD_LEAST: _("every card serves your plan, this one least; then {needs}").format(
            needs=then),
        Why.DISCARD_DEAD: (_("you are down, and a special card never goes into a "
                             "combination") if r.card is not None and not r.card.is_number
                           and not r.card.is_joker else _("it fits no combination on the table")),
        Why.DISCARD_DOWN: _("every card fits somewhere; this one helps the others least"),
        Why.PLAY_TAKE: (_("pick a shown card your level needs") if r.lacks >= 0 else
                        _("pick a shown card that fits the table")),
        Why.PLAY_SWAP: _("swap away cards your plan does not use"),
        Why.PLAY_KEEP: _("the round may end before you lay down; it is void if you lay down "
                         "this round"),  # ruling L8-13: who laid down keeps nothing
        Why.PLAY_SKIP: (_("{name} is closest to going out").format(name=snap.names[r.target])
                        if r.target is not None else _("that player is closest to going out")),
        Why.SHOW: _("these are the cards your plan needs least"),
        Why.CHOOSE: (needs_words(r.lacks, r.needs, r.lacks_before, r.outs) if r.lacks >= 0
                     else fits),
        Why.CHOOSE_NONE: _("no shown card brings you closer"),
        Why.SWAP_PUT: _("not in your plan; {needs}").format(needs=then),
        Why.KEEP: _("your best plan uses it"),
        Why.END: _("nothing more helps now"),
    }
    return words.get(r.why, "")


# -- 8s Rule! ------------------------------------------------------------------------------------


def _percent(win: float) -> str:
    return f"{max(5, min(95, round(win * 20) * 5))} %"


def eights_reason(r: eights_advice.Reason) -> str:
    """An 8s Rule! :class:`~lancards.engine.eights.advice.Reason` in words."""
    Why = eights_advice.Why
    if r.why is Why.CANNOT_WIN:
        if r.points > 0:
            return ngettext("it cannot take this trick; its {count} point goes to the taker",
                            "it cannot take this trick; its {count} points go to the taker",
                            r.points).format(count=r.points)
        return _("it cannot take this trick")
    if r.why is Why.SEARCH and r.instead is not None:
        # whole points (no decimal point to translate), and which way is better said in words
        # (the new-user trial of 2026-12-05 read "it beat B6 by 1.1 points" as unexplained)
        card, points = card_name(r.instead.card), round(r.gain)
        if points < 1:
            return _("a little better for you than {card} in {deals} imagined deals").format(
                deals=r.deals, card=card)
        return ngettext("about {points} point better for you than {card} in {deals} imagined "
                        "deals",
                        "about {points} points better for you than {card} in {deals} imagined "
                        "deals", points).format(deals=r.deals, card=card, points=points)
    if r.why is Why.LAYOUT:
        return (ngettext("it opens the way for {count} more card of yours",
                         "it opens the way for {count} more cards of yours",
                         r.frees).format(count=r.frees) if r.frees
                else _("it opens the fewest cards for the others"))
    words = {
        Why.ONLY: _("it is your only move"),
        Why.UNLIKELY: (_("it takes this trick only about {percent} of the time") if r.win < 0.5
                       else _("it takes this trick about {percent} of the time")).format(
            percent=_percent(r.win)),  # "only" for a chance above a half read wrong (the trial)
        Why.FORCED: _("you take this trick anyway: shed the most dangerous card"),
        Why.TAKE_CHEAP: _("taking this trick costs less than keeping this card"),
        Why.SURE: _("it surely takes this trick"),
        Why.MAY_WIN: _("it takes this trick about {percent} of the time").format(
            percent=_percent(r.win)),
        Why.SAVE: _("no card of yours takes this trick; keep your winners for later"),
    }
    return words.get(r.why, "")


__all__ = ["hint_advice", "hint_line", "hint_words", "hole_words", "needs_words"]
