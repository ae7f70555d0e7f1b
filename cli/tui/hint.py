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
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from lancards.cli.i18n import N_, _, ngettext, pgettext
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.narrate import SPECIAL_WORDS, card_name, move_label
from lancards.cli.tui.width import ELLIPSIS, cut, text_width
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


def move_key(action: Any) -> str | None:
    """The key of a hinted move that is neither the card under the cursor (``x``, Enter) nor
    a list that opens on the hint's choice (``cli/tui/hint_follow.py``), named after the move
    as the lay-down's keys are (``draw from the draw pile (d)``): ``d`` for Level 8's draw
    pile, the owner's number in the table's ``#`` column for a discard pile, ``p`` for a
    special card (``x`` on it discards it: the German trial of 2026-12-07 read ``SKIP vor Cleo
    legen``, pressed x, and its SKIP went on the discard pile) and for 8s Rule!'s pass. The
    new-user trial of 2026-12-07 read ``hint: draw Y12 from Ada's discard pile``, pressed
    Enter and read "Enter does nothing now"; after ``hint: pass`` its Enter tried the card
    under the cursor ("Y1 cannot be played")."""
    name = type(action).__name__
    if name == "DrawDiscard":
        return str(action.owner + 1)
    return {"Draw": "d", "Pass": "p", "PlaySpecial": "p"}.get(name)


def keyed(move: str, action: Any) -> str:
    """``move`` with the key of :func:`move_key` after it, when there is one."""
    key = move_key(action)
    return move if key is None else _("{move} ({key})").format(move=move, key=key)


def hint_line(snap: TableSnapshot, builder: bool = False) -> str:
    """The hint's one line for this seat now, or why there is none (``builder``: the
    lay-down builder is open, :func:`lay_down_words`)."""
    if not snap.legal:
        return _("hint: only on your move")
    return hint_words(snap, hint_advice(snap), builder=builder)


def hint_slot(action: Any) -> Any:
    """The slot of the own card ``action`` names (a card played, discarded, added, put, kept),
    if any: the cursor goes there (the trial pressed x on the card under the cursor, not the
    one the hint named)."""
    slot = getattr(action, "slot", None)
    if slot is None:
        slot = getattr(getattr(action, "card", None), "slot", None)
    return slot


HINT_COLUMNS = 79
"""The hint's room: one line of an 80-column terminal after the message line's leading space
(the trial read hints that wrapped)."""


def hint_words(snap: TableSnapshot, advice: Advice, columns: int = HINT_COLUMNS,
               builder: bool = False, ready: bool = False, order: Sequence[Any] = ()) -> str:
    """``"hint: MOVE: REASON"`` in at most ``columns`` columns: the move as a list of moves
    names it, the reason in words; when the whole line is too long, the reason names fewer
    cards, then none (``2 cards to go``), then the move drops a special card's call, then an
    add drops its combination's kind and owner (``add R12 to combination 7``), then a Level 8
    reason keeps its first clause only (``not in your plan``), then the move stands alone; a
    line still too long (a long nickname in the move) is cut after a whole word, with ``…``
    (``builder``: the lay-down builder is open, ``ready``: what it holds lays the level down,
    :func:`lay_down_words`; ``order``: the hand's slots as the screen shows them,
    :func:`in_hand_order`)."""
    line = ""
    for move, reason in hint_forms(snap, advice, builder, ready, order):
        line = _("hint: {move}: {reason}").format(move=move, reason=reason) if reason else \
            _("hint: {move}").format(move=move)
        if text_width(line) <= columns:
            return line
    return cut_words(line, columns)


def cut_words(text: str, columns: int) -> str:
    """``text`` cut after its last whole word that leaves room for :data:`ELLIPSIS` in
    ``columns`` columns (a word longer than that is cut inside it)."""
    if text_width(text) <= columns:
        return text
    start = cut(text, columns)[:-1]
    words = start.rsplit(" ", 1)[0] if " " in start else start
    return words.rstrip(" ,;:") + ELLIPSIS


def in_hand_order(action: Any, order: Sequence[Any]) -> Any:
    """``action`` with the cards it shows (a Level 8 ``Show``) in the order of ``order`` (the
    hand's slots as the screen shows them): the re-check trial of 2026-12-07 read ``hint: show
    O3 B7 P3`` beside a hand of ``O3 P3 B7``. Only for its words: the move itself is kept."""
    cards = getattr(action, "cards", None)
    if type(action).__name__ != "Show" or not cards or not order:
        return action
    place = {slot: i for i, slot in enumerate(order)}
    return replace(action, cards=tuple(sorted(cards, key=lambda p: place.get(p.slot, len(place)))))


def hint_forms(snap: TableSnapshot, advice: Advice, builder: bool = False,
               ready: bool = False, order: Sequence[Any] = ()) -> Iterator[tuple[str, str]]:
    """The hint's move and reason, longest first (:func:`hint_words`; ``order``: the hand's
    slots as shown, :func:`in_hand_order`)."""
    move = move_label(snap.game.name, snap.view, in_hand_order(advice.action, order), snap.names,
                      snap.seat)
    if type(advice.action).__name__ == "PlaySpecial":  # its key, not its call: the card's name
        move = _without_call(move)  # says it (a trial pressed x on a hinted SKIP: discarded)
    bare, move = move, keyed(move, advice.action)
    reason = advice.reason
    if isinstance(reason, level8_advice.Reason):
        if reason.why is level8_advice.Why.LAY_DOWN:
            move = lay_down_words(snap, advice.action, builder, ready)
        elif type(advice.action).__name__ in E_KEY_ACTIONS:  # the trial of 2026-12-05
            move = _("press e to {move}").format(move=move)  # pressed d: "you cannot draw now"
        yield move, level8_reason(snap, reason)
        move = _without_call(move)  # then fewer words, as long as the line is too long
        for most in (None, 3, 2, 1, 0):  # every card named, fewer, none and the brief words
            yield move, level8_reason(snap, reason, most)
        if type(advice.action).__name__ == "Add":  # then without the combination's kind and
            move = _without_kind(move)  # owner: the number names it (the German trial read
            for most in (None, 0):  # "(Gruppe aus 12ern von Ann): eine Karte…")
                yield move, level8_reason(snap, reason, most)
        brief = level8_reason(snap, reason, 0)
        if "; " in brief:  # its first clause, whole: "not in your plan" (German is longer)
            yield move, brief.split("; ", 1)[0]
        if bare != move:  # the reason rather than the key (the key line names the key too)
            yield _without_call(bare), brief.split("; ", 1)[0]
        yield move, ""  # the move alone rather than a reason cut short
    elif isinstance(reason, eights_advice.Reason):
        yield move, eights_reason(reason)
        yield move, eights_reason(reason, brief=True)
    else:
        yield move, ""


def lay_down_words(snap: TableSnapshot, action: Any, builder: bool = False,
                   ready: bool = False) -> str:
    """How to lay the level down as the hint's move: the builder's key and which of its offers
    (Tab) is the hint's: the trial, in the builder at ``offered lay-down 1 of 9``, read ``lay
    down your level (l, then Tab)`` and did not know which. With the builder open
    (``builder``), the keys that work there: Tab to the offer, then Enter (a trial read "l"
    inside the builder, where l does nothing). When what the builder holds lays the whole
    level down (``ready``: an offer or the player's own), Enter: the final trial of 2026-12-07
    read "Tab until offered lay-down 1 of 8" beside "valid: Enter lays it down". Closed, ``l,
    then Enter``: ``l`` after the hint opens the builder holding the hint's offer (issue 26's
    new-user trial read ``l, then Tab until offered lay-down 4 of 4`` and pressed Tab four
    times)."""
    if builder and ready:
        return _("lay down your level (Enter)")
    if not builder:  # l opens the builder holding the hint's offer (cli/tui/hint_follow.py):
        return _("lay down your level (l, then Enter)")  # the trial pressed Tab 4 times
    offers = [a for a in snap.legal if type(a) is type(action)]
    if len(offers) < 2 or action not in offers:
        return _("lay down your level (Tab, then Enter)")
    words = _("lay down your level (Tab until offered lay-down {number} of {count}, then "
              "Enter)")
    return words.format(number=offers.index(action) + 1, count=len(offers))


def _without_kind(move: str) -> str:
    """An add's ``move`` without its combination's kind and owner: ``add R12 to combination
    7``, not ``add R12 to combination 7 (Ann's set of 12s)`` (the last bracket, as
    :func:`~lancards.cli.tui.narrate.narrate` puts it in every language)."""
    return _LAST_BRACKET.sub("", move)


_LAST_BRACKET = re.compile(r" \([^()]*\)$")


def _without_call(move: str) -> str:
    """``move`` without the call of a special card it names (``play KEEP``, not ``play KEEP
    (I'll keep that!)``): the card's name says it."""
    for word in SPECIAL_WORDS.values():  # German: the call is in quotes („…“) already
        move = move.replace(f" ({_(word)})", "")
    return move


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
                before: int | None = None, outs: tuple[tuple[int, int], ...] = (),
                most: int | None = None) -> str:
    """``"2 cards to go: a 4 and a red 9"`` (with ``before``: ``"then 2 cards to go instead
    of 3: ..."``); one card to go with several ``outs`` (each completes the level):
    ``"1 card to go: a 3, a 4 or a red 9"``; ``lacks`` 0: the whole level is in the hand.
    ``most``: the cards named at most (a hint too long for its line; 0: ``"2 cards to go"``)."""
    if lacks <= 0:  # after the move ("then"), or now
        return _("then you hold your whole level") if before is not None else \
            _("you hold your whole level")
    most_needs = _MOST_NEEDS if most is None else min(most, _MOST_NEEDS)
    named = [hole_words(h, k) for h, k in needs[:most_needs]]
    if most == 0:
        listed = ""
    elif lacks == 1 and len(outs) > 1:
        listed = outs_words(outs, most)
    elif len(needs) > most_needs:
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


def outs_words(outs: tuple[tuple[int, int], ...], most: int | None = None) -> str:
    """The cards of which any one completes the level (one card to go, :func:`needs_words`):
    the first 4 named, or all 5, then ``"or any of 3 other cards that complete your level"``
    (``"or 4 other cards"`` left the reader asking which, and for what: the trial of
    2026-12-06). For a line too long (``most``: the cards named at most): up to five plain
    numbers (any colour) named as numbers, ``"a 2, 4, 7 or 8"``, while ``most`` is 2 or more;
    else the first ``most`` and the others counted, :func:`others_words`."""
    if most is None:
        shown = _MOST_OUTS if len(outs) > _MOST_OUTS + 1 else _MOST_OUTS + 1
        named = [hole_words(h, 1) for h in outs[:shown]]
        more = len(outs) - shown
        if more > 0:
            return ngettext("{cards} or {count} other card that completes your level",
                            "{cards} or any of {count} other cards that complete your level",
                            more).format(cards=", ".join(named), count=more)
        return _("{cards} or {last}").format(cards=", ".join(named[:-1]), last=named[-1])
    if most >= 2 and len(outs) <= _MOST_OUTS + 1 and all(_plain(h) for h in outs):
        # the German trial read "eine 2 oder drei weitere" beside "noch 1 Karte": the numbers
        # that would do were 4, 7 and 8, and "drei weitere" read as three more cards
        named = [hole_words(outs[0], 1), *(str(number) for _, number in outs[1:])]
        return _("{cards} or {last}").format(cards=", ".join(named[:-1]), last=named[-1])
    shown = min(most, len(outs))
    named = [hole_words(h, 1) for h in outs[:shown]]
    more = len(outs) - shown
    if more == 0:
        return _("{cards} or {last}").format(cards=", ".join(named[:-1]), last=named[-1])
    return others_words(named, more, all(_plain(h) for h in outs[shown:]))


def _plain(hole: tuple[int, int]) -> bool:
    """Whether ``hole`` is a number of any colour (``"a 7"``)."""
    return hole[0] < 0 and hole[1] > 0


def others_words(named: list[str], more: int, numbers: bool = False) -> str:
    """The short form of the cards named and ``more`` others, with the count in words and its
    noun: ``"a 3 or three other cards"``, ``"a 3 or one other number"`` (``numbers``: the
    others are numbers of any colour; German ``"eine 3 oder drei andere Zahlen"``); beyond
    six, ``"a 3 or any of 9 other cards"``. The LAN trial read ``"eine 3 oder 3 weitere"``: a
    card's number and a count side by side; the German trial ``"eine 2 oder drei weitere"``
    beside ``"noch 1 Karte"``: three more cards, it seemed."""
    cards = ", ".join(named)
    if more == 1:
        text = _("{cards} or one other number") if numbers else _("{cards} or one other card")
        return text.format(cards=cards)
    if more in _NUMBER_WORDS:
        text = _("{cards} or {count} other numbers") if numbers else \
            _("{cards} or {count} other cards")
        return text.format(cards=cards, count=_(_NUMBER_WORDS[more]))
    if numbers:
        return ngettext("{cards} or any of {count} other number", "{cards} or any of {count} "
                        "other numbers", more).format(cards=cards, count=more)
    return ngettext("{cards} or any of {count} other card", "{cards} or any of {count} other "
                    "cards", more).format(cards=cards, count=more)


def level8_reason(snap: TableSnapshot, r: level8_advice.Reason, most: int | None = None) -> str:
    """A Level 8 :class:`~lancards.engine.level8.advice.Reason` in words (``most``: the cards
    named at most, :func:`needs_words`; 0: the brief words of a long reason too)."""
    Why = level8_advice.Why
    then = needs_words(r.lacks, r.needs, outs=r.outs, most=most)
    brief = most == 0
    fits = (_("it fits combination {number}") if brief else
            _("it fits combination {number} on the table")).format(number=r.meld + 1) \
        if r.meld is not None else _("it fits a combination on the table")
    words = {
        Why.ONLY: _("it is your only move"),
        Why.DRAW_PILE: (_("you hold your whole level: lay it down next") if r.lacks == 0
                        else _("no discard brings you closer; {needs}").format(needs=then)
                        if r.lacks > 0 else _("no discard fits a combination") if brief
                        else _("no discard fits a combination on the table")),
        Why.TAKE_TOP: needs_words(r.lacks, r.needs, r.lacks_before, r.outs, most),
        Why.TOP_FITS: fits,
        Why.LAY_DOWN: _("you hold all of it"),
        Why.ADD: _("one card fewer") if brief else _("one card fewer in your hand"),
        Why.DISCARD_SPARE: (spared_words(r, then, most) if r.spared and most != 0 else
                            _("not in your plan; {needs}").format(needs=then)),
        Why.DISCARD_LEAST: (spared_words(r, then, most) if r.spared and most != 0 else
                            _("your plan needs it least; then {needs}").format(needs=then)),
        Why.DISCARD_DEAD: (_("it fits no combination on the table") if r.card is None
                           or r.card.is_number or r.card.is_joker else
                           _("a special card never goes into a combination") if brief else
                           _("you are down, and a special card never goes into a "
                             "combination")),
        Why.DISCARD_DOWN: (_("it helps the others least") if brief else
                           _("every card fits somewhere; this one helps the others least")),
        Why.PLAY_TAKE: (_("pick a shown card your level needs") if r.lacks >= 0 else
                        _("pick a shown card that fits the table")),
        Why.PLAY_SWAP: _("swap away cards your plan does not use"),
        Why.PLAY_KEEP: (_("it counts for nothing once you lay down") if brief else  # L8-13:
                        _("you keep cards at round end, unless you lay down this round")),
        Why.PLAY_SKIP: skip_words(snap, r),
        Why.SHOW: _("these are the cards your plan needs least"),
        Why.CHOOSE: (needs_words(r.lacks, r.needs, r.lacks_before, r.outs, most) if r.lacks >= 0
                     else fits),
        Why.CHOOSE_NONE: _("no shown card brings you closer"),
        Why.SWAP_PUT: (_("not needed: your level is down") if r.lacks_before < 0 else
                       _("not in your plan; {needs}").format(needs=then)),  # a trial read
        # "you hold your whole level" for a seat whose level was on the table (2026-12-08)
        Why.KEEP: _("your best plan uses it"),
        Why.END: _("nothing more helps now"),
    }
    return words.get(r.why, "")


def spared_words(r: level8_advice.Reason, then: str, most: int | None) -> str:
    """A discard's reason when the hand keeps cards its plan misses as little because they
    could help the others (:attr:`~lancards.engine.level8.advice.Reason.spared`): "not in your
    plan; G2 and G14 could help the others; 1 card to go: a 6 or a 7"; for a line too long
    (``most``, :func:`level8_reason`), 1: without what the plan lacks (0: not called, the
    cards kept go and the reason stays: :func:`level8_reason`).
    The trial read "discard O11: not in your plan" beside G2 and G14, and no word why."""
    names = [card_name(c) for c in r.spared]
    cards = names[0] if len(names) == 1 else _("{cards} and {last}").format(
        cards=", ".join(names[:-1]), last=names[-1])
    count = len(names)
    if r.why is level8_advice.Why.DISCARD_LEAST:
        text = (ngettext("your plan needs it least; {cards} could help the others",
                         "your plan needs it least; {cards} could help the others", count)
                if most == 1 else
                ngettext("your plan needs it least; {cards} could help the others; then {needs}",
                         "your plan needs it least; {cards} could help the others; then {needs}",
                         count))
    else:
        text = (ngettext("not in your plan; {cards} could help the others",
                         "not in your plan; {cards} could help the others", count)
                if most == 1 else
                ngettext("not in your plan; {cards} could help the others; {needs}",
                         "not in your plan; {cards} could help the others; {needs}", count))
    return text.format(cards=cards, needs=then)


def skip_words(snap: TableSnapshot, r: level8_advice.Reason) -> str:
    """Why the Skip goes to its seat: the one closest to going out; on a tie what decided, the
    highest level, or the tie itself (the trials: seats of 10 cards, none down, read "Ada is
    closest to going out", then "nobody is closer to going out than Ada", which sounded false
    beside five equal hands); the highest level is the others' (the person reading may be
    higher), and when other seats as near are on it too, the reason names them and says that
    the Skip goes to the one that plays first (the new-user trial of issue 26 read "Ada is on
    the highest level" while Bram was on level 7 too, and the reader on 8); else, the next
    player, or no reason (a reason is true or not said)."""
    if r.target is None:
        return _("that player is closest to going out")
    name = snap.names[r.target]
    if r.ahead > 0:
        return _("{name} is closest to going out").format(name=name)
    if r.ahead == 0 and r.highest and r.tied:  # the trial of issue 26: Ada and Bram on 7
        names = _(" and ").join(snap.names[s] for s in (r.target, *r.tied))
        return _("{names} share the others' highest level; {name} plays first").format(
            names=names, name=name)
    if r.ahead == 0:
        return (_("{name} is on the highest level of the others") if r.highest else
                _("{name} is as close to going out as anyone")).format(name=name)
    return _("{name} plays next").format(name=name) \
        if snap.view.next_seat(snap.seat) == r.target else ""


# -- 8s Rule! ------------------------------------------------------------------------------------


def _percent(win: float) -> str:
    return f"{max(5, min(95, round(win * 20) * 5))} %"


def eights_reason(r: eights_advice.Reason, brief: bool = False) -> str:
    """An 8s Rule! :class:`~lancards.engine.eights.advice.Reason` in words (``brief``: fewer
    words, for a line too long: a chance without the trick's points)."""
    Why = eights_advice.Why
    if r.why is Why.CANNOT_WIN:
        if r.points > 0 and not brief:
            return ngettext("it cannot take this trick; its {count} point goes to the taker",
                            "it cannot take this trick; its {count} points go to the taker",
                            r.points).format(count=r.points)
        return _("it cannot take this trick")
    if r.why is Why.SEARCH and r.instead is not None:
        # whole points (no decimal point to translate), and which way is better said in words
        # (the new-user trial of 2026-12-05 read "it beat B6 by 1.1 points" as unexplained);
        # the imagined deals are docs/bots.md's, not the line's (it wrapped: the trial)
        card, points = play_name(r.instead), round(r.gain)
        if not brief and r.win >= 1.0 and r.stake > 0 and points >= 1:
            # a trick that costs, taken on purpose: the trial of 2026-12-07 read "play B15:
            # about 2 points better for you than B4" in "No tricks" and saw no reason to take it
            return ngettext("it takes this trick, yet about {points} point better overall "
                            "than {card}",
                            "it takes this trick, yet about {points} points better overall "
                            "than {card}", points).format(card=card, points=points)
        if points < 1:
            return _("a little better for you than {card}").format(card=card)
        return ngettext("about {points} point better for you than {card}",
                        "about {points} points better for you than {card}", points).format(
            card=card, points=points)
    if r.why is Why.LAYOUT:
        return (ngettext("it opens the way for {count} more card of yours",
                         "it opens the way for {count} more cards of yours",
                         r.frees).format(count=r.frees) if r.frees
                else _("it opens the fewest cards for the others"))
    if r.why in (Why.UNLIKELY, Why.MAY_WIN):
        return chance_words(r, brief)
    words = {
        Why.ONLY: _("it is your only move"),
        Why.FORCED: (_("you take this trick anyway") if brief else
                     _("you take this trick anyway: shed the most dangerous card")),
        Why.TAKE_CHEAP: (_("cheaper than keeping this card") if brief else
                         _("taking this trick costs less than keeping this card")),
        Why.SURE: _("it surely takes this trick"),
        Why.SAVE: (_("no card of yours takes this trick") if brief else
                   _("no card of yours takes this trick; keep your winners for later")),
    }
    return words.get(r.why, "")


def play_name(play: Any) -> str:
    """A play's card, with take or no take for an 8 (ruling E-4): ``B8 (take)``; the trial read
    ``play B8 (no take): ... better for you than B8``."""
    card = card_name(play.card)
    take = getattr(play, "take", None)
    if take is None:
        return card
    return (_("{card} (take)") if take else _("{card} (no take)")).format(card=card)


def chance_words(r: eights_advice.Reason, brief: bool = False) -> str:
    """The chance that the card takes the trick, and whether the player wants it (the trial
    read a bare ``it takes this trick about 55 % of the time``): a *chance* of a wanted trick,
    a *risk* of one that costs, with the points the trick holds (``brief``: without)."""
    percent = _percent(r.win)
    if r.why is eights_advice.Why.MAY_WIN:  # tricks wanted (ruling E-6)
        return _("a {percent} chance of taking this trick, which you want").format(
            percent=percent)
    only = r.win < 0.5  # "only" for a chance above a half read wrong (the trial)
    if brief:
        text = _("only a {percent} risk of taking this trick") if only else \
            _("a {percent} risk of taking this trick")
        return text.format(percent=percent)
    if r.stake > 0:
        text = ngettext("only a {percent} risk of taking this trick (+{count} point)",
                        "only a {percent} risk of taking this trick (+{count} points)",
                        r.stake) if only else \
            ngettext("a {percent} risk of taking this trick (+{count} point)",
                     "a {percent} risk of taking this trick (+{count} points)", r.stake)
        return text.format(percent=percent, count=r.stake)
    text = _("only a {percent} risk of taking this trick (no points in it yet)") if only else \
        _("a {percent} risk of taking this trick (no points in it yet)")
    return text.format(percent=percent)


__all__ = ["HINT_COLUMNS", "cut_words", "hint_advice", "hint_forms", "hint_line", "hint_slot",
           "hint_words", "hole_words", "keyed", "move_key", "needs_words", "others_words",
           "outs_words"]
