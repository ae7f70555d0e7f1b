"""Moves told in words, with their cards: the table's log, and later ``lancards replay``.

:func:`narrate` turns one action into sentences as one seat (the *viewer*) saw it, from the
viewer's knowledge before and after the action (``game.view(state, viewer)``): "Ada took your O3
(I'll take that!)", "Bram drew P9 from Cleo's discard pile", "Cleo laid down level 2 (set of 3 +
run of 4): R3 O3 J1-5=3 | B4 B5 B6 B7", "Dov led B8 (take)". A card the viewer does not know is
never named ("Bram drew from the draw pile"); cards are named by their notation (``R7``,
``J1-5=5``, ``TAKE``), never by slot id. Seats are people's names; the viewer is "you"/"You".

No prompt-toolkit and no I/O: plain strings, so the same words serve the screen, the networked
log and a replay. Sources: the action notation of :mod:`lancards.engine.level8.actions` and
:mod:`lancards.engine.eights.actions`; rulings L8-3 (draw), L8-9 (reshuffle), L8-13 (keep),
L8M-1..3, L8C-1, E-3, E-4, E-7 in ``rulings.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lancards.engine.level8.levels import Component

_SLOT = re.compile(r"#\d+")

SPECIAL_WORDS = {
    "TAKE": "I'll take that!",
    "SWAP": "I'll swap that!",
    "KEEP": "I'll keep that!",
    "SKIP": "Skip!",
}
"""The call of each special card (rulings L8M-1, L8M-2, L8M-3, L8C-1)."""

ROUND_MARK = "──"
"""What a round marker line starts and ends with."""


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 card"``, ``"2 cards"``, ``"0 cards"`` (``nouns`` for an irregular plural)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def card_name(card: Any) -> str:
    """A card or placed card in notation without its slot: ``R7``, ``J1-5=5``, ``B8``."""
    return _SLOT.sub("", str(card))


class Words:
    """Names of the seats as one viewer says them.

    Args:
        names: one nickname per seat.
        viewer: the seat reading (its name becomes "You"/"you"/"your"); -1 for nobody.
    """

    def __init__(self, names: Sequence[str], viewer: int) -> None:
        self.names = tuple(names)
        self.viewer = viewer

    def subject(self, seat: int) -> str:
        """``"You"`` or the name (for the start of a sentence)."""
        return "You" if seat == self.viewer else self.name(seat)

    def object(self, seat: int) -> str:
        """``"you"`` or the name."""
        return "you" if seat == self.viewer else self.name(seat)

    def possessive(self, seat: int) -> str:
        """``"your"`` or ``"Ada's"``."""
        return "your" if seat == self.viewer else f"{self.name(seat)}'s"

    def name(self, seat: int) -> str:
        """The nickname of ``seat`` (``"seat N"``, 1-based, when out of range)."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat + 1}"


def round_marker(number: int, dealer: str = "") -> str:
    """``"── round 2 · dealer Ada ──"``: the line that separates rounds in the log."""
    who = f" · dealer {dealer}" if dealer else ""
    return f"{ROUND_MARK} round {number}{who} {ROUND_MARK}"


def narrate(game_name: str, before: Any, action: Any, after: Any, names: Sequence[str],
            viewer: int) -> list[str]:
    """The sentences telling ``action`` as ``viewer`` saw it (empty for silent chance steps).

    Args:
        game_name: ``"level8"`` or ``"eights"`` (``Game.name``).
        before: the viewer's view just before the action (``game.view(state, viewer)``), or
            ``None`` when unknown (then cards that only the earlier state names are left out).
        action: the action (an engine action object).
        after: the viewer's view just after it.
        names: one nickname per seat.
        viewer: the reading seat (-1: a spectator; every seat by its name).

    Returns:
        Zero or more lines, in order: a round marker when a new round starts, the move, and
        what it caused (a trick taken, a round scored, the round's end).
    """
    words = Words(names, viewer)
    from lancards.engine.core import Leave

    if isinstance(action, Leave):  # rulings D-1..D-4
        return [f"{words.subject(action.seat)} left the table"]
    if game_name == "level8":
        return _level8(before, action, after, words)
    return _eights(before, action, after, words)


def narrate_game(game: Any, state: Any, actions: Sequence[Any], names: Sequence[str],
                 viewer: int = -1) -> list[tuple[int, str]]:
    """A whole game (or a part) told in words: ``(action number from 1, sentence)`` pairs.

    For ``lancards replay`` and the like: ``state`` is the full state before the first action
    (``game.new_game(...)`` or a loaded one), ``actions`` are applied in order with
    ``game.apply``; each is told as ``viewer`` saw it (-1: a spectator, who sees only public
    cards; ``game.view(state, None)``).

    Raises:
        EngineError: an action is illegal where it stands (from ``game.apply``).
    """
    out: list[tuple[int, str]] = []
    seat = None if viewer < 0 else viewer
    for number, action in enumerate(actions, start=1):
        after = game.apply(state, action)
        for line in narrate(game.name, game.view(state, seat), action, game.view(after, seat),
                            names, viewer):
            out.append((number, line))
        state = after
    return out


IMPERATIVE = (("laid down", "lay down"), ("laid", "lay"), ("drew", "draw"),
              ("discarded", "discard"), ("added", "add"), ("played", "play"), ("led", "lead"),
              ("showed", "show"), ("took", "take"), ("keep", "keep"), ("kept", "keep"),
              ("put", "put"), ("passed", "pass"), ("ended", "end"), ("are done", "be done"))


_NOUNS = ("pair", "triplet", "quadruplet", "quintuplet", "run", "set")


def requirement(level: Sequence[Component]) -> str:
    """A level's components with repeats counted: ``"4 pairs"``, ``"triplet + run of 4"``."""
    groups: list[list[Any]] = []
    for component in level:
        if groups and groups[-1][0] == component:
            groups[-1][1] += 1
        else:
            groups.append([component, 1])
    parts = []
    for component, count in groups:
        text = str(component)
        if count > 1:
            words = text.split(" ")
            at = next((i for i, w in enumerate(words) if w in _NOUNS), None)
            if at is None:
                text = f"{count} x {text}"
            else:
                words[at] += "s"
                text = f"{count} {' '.join(words)}"
        parts.append(text)
    return " + ".join(parts)


def move_label(game_name: str, view: Any, action: Any, names: Sequence[str],
               viewer: int) -> str:
    """A legal move of ``viewer`` as a choice in a list: ``"discard R7"``, ``"draw O11 from
    Ada's discard pile"``, ``"take Bram's O3 (I'll take that!)"`` (cards by name)."""
    lines = narrate(game_name, view, action, view, names, viewer)
    text = lines[0] if lines else _SLOT.sub("", str(action)).split(": ", 1)[-1]
    text = text.removeprefix("You ")
    for past, now in IMPERATIVE:
        if text.startswith(past + " "):
            return now + text[len(past):]
    return text


# -- Level 8 -------------------------------------------------------------------------------------


def _l8_card(view: Any, slot: int | None) -> str | None:
    if view is None or slot is None:
        return None
    card = view.cards.get(slot)
    return None if card is None else card_name(card)


def _level8(before: Any, action: Any, after: Any, w: Words) -> list[str]:
    from lancards.engine.level8 import actions as a

    out: list[str] = []
    seat = getattr(action, "seat", -1)
    who = w.subject(seat) if seat >= 0 else ""
    if isinstance(action, a.Draw):
        card = None
        if before is not None and seat == w.viewer:
            new = [s for s in after.hands[seat] if s not in before.hands[seat]]
            card = _l8_card(after, new[0]) if new else None
        out.append(f"{who} drew {card} from the draw pile" if card else
                   f"{who} drew from the draw pile")
    elif isinstance(action, a.DrawDiscard):
        pile = before.discards[action.owner] if before is not None else ()
        card = _l8_card(before, pile[-1]) if pile else None
        whose = ("your own" if seat == w.viewer else "their own") if action.owner == seat \
            else w.possessive(action.owner)
        out.append(f"{who} drew {card or 'the top card'} from {whose} discard pile")
    elif isinstance(action, a.LayDown):
        level = before.levels[seat] if before is not None else None
        what = ""
        if before is not None:
            what = f" ({requirement(before.level(seat))})"
        groups = " | ".join(" ".join(card_name(p) for p in _in_order(g)) for g in action.groups)
        number = f" level {level}" if level is not None else " the level"
        out.append(f"{who} laid down{number}{what}: {groups}")
    elif isinstance(action, a.Add):
        target = ""
        if before is not None:
            meld = next((m for m in before.melds if m.id == action.meld), None)
            if meld is not None:
                target = f" ({w.possessive(meld.owner)} {meld_kind(meld)})"
        out.append(f"{who} added {card_name(action.card)} to combination {action.meld + 1}"
                   f"{target}")
    elif isinstance(action, a.Discard):
        out.append(f"{who} discarded {card_name(action.card)}")
    elif isinstance(action, a.PlaySpecial):
        name = card_name(action.card)
        call = SPECIAL_WORDS.get(name, "")
        if action.target is not None:
            out.append(f"{who} put {name} in front of {w.object(action.target)} ({call})")
        else:
            out.append(f"{who} played {name} ({call})")
    elif isinstance(action, a.Show):
        cards = " ".join(card_name(p) for p in action.cards)
        out.append(f"{who} showed {cards}" if cards else f"{who} showed no card")
    elif isinstance(action, a.Choose):
        if action.slot is None:
            out.append(f"{who} took none of the shown cards (I'll take that!)")
        else:
            card = _l8_card(before, action.slot) or _l8_card(after, action.slot) or "a card"
            owner = _shown_owner(before, action.slot)
            whose = f"{w.possessive(owner)} " if owner is not None else ""
            out.append(f"{who} took {whose}{card} (I'll take that!)")
    elif isinstance(action, a.SwapPut):
        whose = "your" if seat == w.viewer else "their"
        out.append(f"{who} put {card_name(action.card)} on {whose} discard pile "
                   "(I'll swap that!)")
    elif isinstance(action, a.SwapEnd):
        count = before.swaps if before is not None else None
        drew = plural(count, "card") if count is not None else "as many cards"
        out.append(f"{who} drew {drew} (I'll swap that!)")
    elif isinstance(action, a.ServeSkip):
        out.append(f"{w.possessive(seat).capitalize()} turn was skipped (Skip!)")
    elif isinstance(action, a.Keep):
        card = _l8_card(after, action.slot) if seat == w.viewer else None
        out.append(f"{who} keep {card} for the next round" if card and seat == w.viewer
                   else f"{who} kept a card for the next round")
    elif isinstance(action, a.KeepEnd):
        out.append(f"{who} {'are' if seat == w.viewer else 'is'} done keeping cards")
    elif isinstance(action, a.EndTurn):
        out.append(f"{who} ended the turn with an empty hand")
    elif before is not None and before.reshuffle_due and not after.reshuffle_due \
            and after.round == before.round:
        out.append("the discard piles were shuffled into the draw pile (ruling L8-9)")
    out += _level8_after(before, after, seat, w)
    return out


def _level8_after(before: Any, after: Any, seat: int, w: Words) -> list[str]:
    out: list[str] = []
    if before is None:
        return out
    went = after.went_out
    new_round = after.round != before.round and after.round >= 1
    if went >= 0 and before.went_out != went:
        out.append(f"{w.subject(went)} went out: round {after.round} is over")
    elif new_round and before.round >= 1 and seat >= 0 and before.went_out < 0:
        # Out with nobody to keep cards: the round ended with this seat's move. After keeps
        # (before.went_out set), the going out was told when it happened; the last keeper's
        # keep-end only starts the next round (issue 25: it was told as the keeper going out).
        out.append(f"{w.subject(seat)} went out: round {before.round} is over")
    if after.phase.value == "over" and before.phase.value != "over":
        winners = " and ".join(w.subject(s) for s in after.winners)
        verb = "win" if len(after.winners) != 1 or after.winners[0] == w.viewer else "wins"
        out.append(f"{winners} {verb} the game")
    if new_round:
        dealer = w.name(after.dealer) if after.dealer >= 0 else ""
        out.append(round_marker(after.round, dealer))
    return out


def meld_kind(meld: Any) -> str:
    """``"set of 7s"``, ``"run 3-6"``, ``"colour run R 2-5"``, ``"colour group G"``."""
    kind = meld.kind.value
    if kind == "set":
        return f"set of {meld.number}s"
    if kind == "run":
        return f"run {meld.lo}-{meld.hi}"
    if kind == "colour-run":
        return f"colour run {meld.colour} {meld.lo}-{meld.hi}"
    return f"colour group {meld.colour}"


def _in_order(group: Sequence[Any]) -> list[Any]:
    """A group's cards by their effective number (a run reads in order; sets keep theirs)."""
    def number(p: Any) -> int:
        value = getattr(p, "number", None)
        return value if isinstance(value, int) else 0
    return sorted(group, key=number)


def _shown_owner(view: Any, slot: int) -> int | None:
    if view is None:
        return None
    for owner, slots in enumerate(view.shown):
        if slot in slots:
            return owner
    return None


# -- 8s Rule! ------------------------------------------------------------------------------------


def _eights(before: Any, action: Any, after: Any, w: Words) -> list[str]:
    from lancards.engine.eights import Pass, Phase, Play
    from lancards.engine.eights.cards import CARDS

    out: list[str] = []
    seat = getattr(action, "seat", -1)
    who = w.subject(seat) if seat >= 0 else ""
    if isinstance(action, Play):
        card = card_name(action.card)
        declared = ""
        if action.take is not None:
            declared = " (take)" if action.take else " (no take)"
        if before is not None and before.phase is Phase.LAYOUT:  # ruling E-7
            out.append(f"{who} laid {card} on the layout")
        elif before is not None and not before.trick:
            out.append(f"{who} led {card}{declared}")
        else:
            out.append(f"{who} played {card}{declared}")
    elif isinstance(action, Pass):
        out.append(f"{who} passed")
    if before is None:
        return out
    if len(after.trick_winners) > len(before.trick_winners) and after.round == before.round:
        number = len(after.trick_winners)
        winner = after.trick_winners[-1]
        cards = [card_name(CARDS[e.card]) for e in after.history
                 if e.number == number and e.card >= 0]
        verb = "take" if winner == w.viewer else "takes"
        out.append(f"{w.subject(winner)} {verb} trick {number}: {' '.join(cards)}")
    for result in after.results[len(before.results):]:
        parts = ", ".join(f"{w.name(s)} {p:+d}" for s, p in enumerate(result.totals))
        out.append(f"round {result.round} scored: {parts}")
    if after.round != before.round and after.round >= 1:
        dealer = w.name(after.dealer) if after.dealer >= 0 else ""
        out.append(round_marker(after.round, dealer))
    return out


def objective_text(objective: Any) -> str:
    """A round objective in full (ruling E-6): every card worth points is named, grouped by
    its points (``describe()`` shortens long lists with "...")."""
    if not objective.card_points:
        return str(objective.describe())
    from lancards.engine.eights.cards import CARDS

    groups: dict[int, list[str]] = {}
    for index, points in enumerate(objective.card_points):
        if points:
            groups.setdefault(points, []).append(card_name(CARDS[index]))
    parts = [f"{' '.join(cards)} {points:+d} each" if len(cards) > 1 else
             f"{cards[0]} {points:+d}" for points, cards in groups.items()]
    end = "; the round ends when none is left to take" if objective.early_end else ""
    return f"{objective.title}: {'; '.join(parts)}{end}"
