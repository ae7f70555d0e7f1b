"""The hint (``h`` at the table): what the strongest bot level would play now, and why, in one
line of plain words ("hint: discard B3: not in your plan; 2 cards to go: a 4 and a red 9").

The move comes from :func:`lancards.engine.rulesets.advise` (``hard`` where the rule set
offers it, else ``normal``; ``docs/bots.md``, "The hint"), deciding from this seat's view only
(``snapshot().view``), with its own randomness seeded from the table and the move count, so the
same position gives the same hint. The reason is the engine's own (``engine/level8/advice.py``,
``engine/eights/advice.py``); this module only says it in words: no ruling ids, no class names.
The hint is never played: the person still presses the keys.
"""

from __future__ import annotations

import random

from lancards.cli.session import TableSnapshot
from lancards.cli.tui.narrate import card_name, move_label, plural
from lancards.engine.eights import advice as eights_advice
from lancards.engine.level8 import advice as level8_advice
from lancards.engine.level8.cards import COLOURS
from lancards.engine.rulesets import Advice, advise

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")
_MOST_NEEDS = 3
"""The missing cards named at most (then "and more")."""


def hint_advice(snap: TableSnapshot) -> Advice:
    """The :class:`Advice` for this seat now (it must be this seat's move: ``snap.legal``
    not empty).

    Raises:
        ValueError: ``snap.legal`` is empty.
    """
    seed = f"hint-{snap.extra.get('table', snap.rule_set)}-{snap.seat}-{len(snap.log)}"
    return advise(snap.game, snap.view, snap.seat, list(snap.legal), random.Random(seed))


def hint_line(snap: TableSnapshot) -> str:
    """The hint's one line for this seat now, or why there is none."""
    if not snap.legal:
        return "hint: only on your move"
    return hint_words(snap, hint_advice(snap))


def hint_words(snap: TableSnapshot, advice: Advice) -> str:
    """``"hint: MOVE: REASON"``: the move as a list of moves names it, the reason in words."""
    move = move_label(snap.game.name, snap.view, advice.action, snap.names, snap.seat)
    reason = advice.reason
    if isinstance(reason, level8_advice.Reason):
        if reason.why is level8_advice.Why.LAY_DOWN:
            move = "lay down your level (l, then Tab)"
        words = level8_reason(snap, reason)
    elif isinstance(reason, eights_advice.Reason):
        words = eights_reason(reason)
    else:
        words = ""
    return f"hint: {move}: {words}" if words else f"hint: {move}"


# -- Level 8 -------------------------------------------------------------------------------------


def _article(noun: str) -> str:
    return "an" if noun.startswith(("8", "11", "18", "orange")) else "a"


def hole_words(hole: tuple[int, int], count: int) -> str:
    """A card a plan lacks: ``"a 7"``, ``"two red 7s"``, ``"a blue card"``, ``"an 8"``
    (``hole``: colour index or -1 for any colour, number or 0 for any number)."""
    colour, number = hole
    shade = COLOURS[colour].display if colour >= 0 else ""
    noun = " ".join(w for w in (shade, str(number) if number else "card") if w)
    if count == 1:
        return f"{_article(noun)} {noun}"
    word = _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)
    return f"{word} {noun}s"


def needs_words(lacks: int, needs: tuple[tuple[tuple[int, int], int], ...],
                more: str = "") -> str:
    """``"2 cards to go: a 4 and a red 9"`` (``more`` follows "to go"); ``lacks`` 0: the
    whole level is in the hand."""
    if lacks <= 0:
        return "your whole level is in your hand"
    named = [hole_words(h, k) for h, k in needs[:_MOST_NEEDS]]
    if len(needs) > _MOST_NEEDS:
        named.append("more")
    listed = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else \
        (named[0] if named else "")
    head = f"{plural(lacks, 'card')} to go{more}"
    return f"{head}: {listed}" if listed else head


def level8_reason(snap: TableSnapshot, r: level8_advice.Reason) -> str:
    """A Level 8 :class:`~lancards.engine.level8.advice.Reason` in words."""
    Why = level8_advice.Why
    then = needs_words(r.lacks, r.needs)
    meld = f"combination {r.meld + 1}" if r.meld is not None else "a combination"
    who = snap.names[r.target] if r.target is not None else "that player"
    words = {
        Why.ONLY: "it is your only move",
        Why.DRAW_PILE: (f"no discard brings you closer; {then}" if r.lacks >= 0 else
                        "no discard fits a combination on the table"),
        Why.TAKE_TOP: needs_words(r.lacks, r.needs, f", not {r.lacks_before}"),
        Why.TOP_FITS: f"it fits {meld} on the table",
        Why.LAY_DOWN: "you hold all of it",
        Why.ADD: "one card fewer in your hand",
        Why.DISCARD_SPARE: f"not in your plan; {then}",
        Why.DISCARD_LEAST: f"every card serves your plan, this one least; then {then}",
        Why.DISCARD_DEAD: "it fits no combination on the table",
        Why.DISCARD_DOWN: "every card fits somewhere; this one helps the others least",
        Why.PLAY_TAKE: ("pick a shown card your level needs" if r.lacks >= 0 else
                        "pick a shown card that fits the table"),
        Why.PLAY_SWAP: "swap away cards your plan does not use",
        Why.PLAY_KEEP: "the round may end before you lay down",
        Why.PLAY_SKIP: f"{who} is closest to going out",
        Why.SHOW: "these are the cards your plan needs least",
        Why.CHOOSE: (needs_words(r.lacks, r.needs, f", not {r.lacks_before}") if r.lacks >= 0 else
                     f"it fits {meld} on the table"),
        Why.CHOOSE_NONE: "no shown card brings you closer",
        Why.SWAP_PUT: f"not in your plan; {then}",
        Why.KEEP: "your best plan uses it",
        Why.END: "nothing more helps now",
    }
    return words.get(r.why, "")


# -- 8s Rule! ------------------------------------------------------------------------------------


def _chance(win: float) -> str:
    percent = max(5, min(95, round(win * 20) * 5))
    return f"about {percent} % of the time"


def eights_reason(r: eights_advice.Reason) -> str:
    """An 8s Rule! :class:`~lancards.engine.eights.advice.Reason` in words."""
    Why = eights_advice.Why
    if r.why is Why.CANNOT_WIN:
        gift = f"; its {plural(r.points, 'point')} go to the taker" if r.points > 0 \
            else ""
        return f"it cannot take this trick{gift}"
    if r.why is Why.SEARCH and r.instead is not None:
        return (f"in {r.deals} imagined deals it beat {card_name(r.instead.card)} by "
                f"{_points(r.gain)}")
    if r.why is Why.LAYOUT:
        return (f"it opens the way for {plural(r.frees, 'more card')} of yours" if r.frees
                else "it opens the fewest cards for the others")
    words = {
        Why.ONLY: "it is your only move",
        Why.UNLIKELY: f"it takes this trick only {_chance(r.win)}",
        Why.FORCED: "you take this trick anyway: shed the most dangerous card",
        Why.TAKE_CHEAP: "taking this trick costs less than keeping this card",
        Why.SURE: "it surely takes this trick",
        Why.MAY_WIN: f"it takes this trick {_chance(r.win)}",
        Why.SAVE: "no card of yours takes this trick; keep your winners for later",
    }
    return words.get(r.why, "")


def _points(gain: float) -> str:
    value = f"{gain:.1f}".rstrip("0").rstrip(".") if gain < 10 else f"{gain:.0f}"
    return f"{value} point{'' if value == '1' else 's'}"


__all__ = ["hint_advice", "hint_line", "hint_words", "hole_words", "needs_words"]
