"""The lay-down builder's model: hand cards assigned to the level's components (L8-5, L8-6).

The player assigns cards to components and picks each joker's declared identity among the valid
choices (a number in its range for runs and sets, a colour and number for colour runs, a colour
for colour groups; ruling L8-6). The candidate :class:`~engine.level8.actions.LayDown` is checked
with ``game.check`` after every change, so the reason an arrangement is invalid shows at once.
The quick path loads one of the engine's offered lay-downs (``legal_actions``) instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations, product
from math import prod
from typing import Any

from lancards.cli.i18n import _
from lancards.engine.core import EngineError, Seat, SlotId
from lancards.engine.level8.actions import LayDown
from lancards.engine.level8.cards import COLOURS, Card
from lancards.engine.level8.levels import ComponentKind, Level
from lancards.engine.level8.melds import Placed, make_meld, natural

MAX_COMBINATIONS = 4000
"""The most joker declaration combinations the builder tries when fitting a group."""


def joker_choices(slot: SlotId, card: Card, kind: ComponentKind) -> list[Placed]:
    """Every identity a joker may declare in a ``kind`` combination (ruling L8-6).

    Returns:
        Runs and sets: one per number of the joker's range; colour runs: colour x number (six
        colours); colour groups: one per colour.
    """
    numbers = range(card.lo, card.hi + 1)
    if kind is ComponentKind.COLOUR_GROUP:
        return [Placed(slot, card, 0, c) for c in COLOURS]
    if kind is ComponentKind.COLOUR_RUN:
        return [Placed(slot, card, n, c) for c in COLOURS for n in numbers]
    return [Placed(slot, card, n) for n in numbers]


def misfit(kind: ComponentKind, group: Sequence[Placed]) -> str | None:
    """A joker of ``group`` that cannot stand for the number its set's number cards share, in
    the engine's words for a joker declared out of its range (``joker J1-5 cannot stand for 15
    (its range is 1-5)``, ``melds.declaration_error``, ruling L8-6), or None. A joker always
    declares a number of its range here, so a set of ``J1-5=1 O15`` read only "needs at least
    3 cards" (the new-user trial of 2026-12-07), as if a third card would do. A run's jokers
    are checked by :func:`stuck` (:func:`unplaced`), against the cards assigned."""
    if kind is not ComponentKind.SET:
        return None
    numbers = {p.card.number for p in group if p.card.is_number}
    if len(numbers) != 1:
        return None
    (number,) = numbers
    for p in group:
        if p.card.is_joker and not p.card.can_be(number):
            return (f"joker {p.card} cannot stand for {number} "
                    f"(its range is {p.card.lo}-{p.card.hi})")
    return None


def stuck(kind: ComponentKind, group: Sequence[Placed]) -> str | None:
    """Why no value of ``group``'s jokers (if any) can make its number cards the combination,
    in words naming those cards, or None (some value may work, or only the count is short).

    A set's two numbers (``R5 and P7 are not the same number``) and a colour run's or colour
    group's two colours (``R1 and B2 are not the same colour``) are said with or without a
    joker, before the count; a run's two cards of one number (``O6 and R6 have the same
    number``), a gap no joker bridges (``6 and 12 are too far apart for one joker``) and a
    joker whose range fits no place beside the cards (``joker J11-15 stands only for 11 to 15,
    so it cannot join O1 G2 in a run``: :func:`unplaced`). The new-user trial of 2026-12-08
    read ``J=1 O6 G12  x numbers 1 6 12 are not consecutive``: a value the player never chose,
    counted in the verdict; and ``O1 G2 J11-15=11  x a run here needs at least 6 cards``."""
    jokers = [p.card for p in group if p.card.is_joker]
    naturals = [p.card for p in group if p.card.is_number]
    if not naturals:
        return None
    first = naturals[0]
    if kind is ComponentKind.SET:
        other = next((c for c in naturals if c.number != first.number), None)
        return None if other is None else f"{first} and {other} are not the same number"
    if kind in (ComponentKind.COLOUR_RUN, ComponentKind.COLOUR_GROUP):
        other = next((c for c in naturals if c.colour is not first.colour), None)
        if other is not None:
            return f"{first} and {other} are not the same colour"
    if not kind.is_run:
        return None
    for at, card in enumerate(naturals):
        twin = next((c for c in naturals[at + 1:] if c.number == card.number), None)
        if twin is not None:
            return f"{card} and {twin} have the same number"
    if not jokers:
        return None  # the engine's "numbers 1 2 4 are not consecutive"
    numbers = sorted(c.number for c in naturals)
    low, high = numbers[0], numbers[-1]
    if high - low + 1 - len(numbers) > len(jokers):
        if len(jokers) == 1:
            return f"{low} and {high} are too far apart for one joker"
        return f"{low} and {high} are too far apart for {len(jokers)} jokers"
    return unplaced(jokers, naturals)


HIGHEST = 15
"""The highest number of a card (ruling L8-1): a run ends there."""


def unplaced(jokers: Sequence[Card], naturals: Sequence[Card]) -> str | None:
    """Why no values of ``jokers`` (Level 8 Master's ranged jokers) make a run with
    ``naturals`` (number cards of distinct numbers, within reach of that many jokers), or None:
    a joker no place beside the cards fits (``joker J11-15 stands only for 11 to 15, so it
    cannot join O1 G2 in a run``), else the jokers together (``jokers J1-5 J1-5 cannot join R5
    R7 in a run``). Only the cards assigned count: ``O8 O9 J11-15`` is told so, a 10 would
    make it fit."""
    numbers = {c.number for c in naturals}
    size = len(numbers) + len(jokers)
    if size > HIGHEST or len(jokers) > 6:
        return None
    gaps = [set(range(start, start + size)) - numbers
            for start in range(max(1, max(numbers) - size + 1),
                               min(min(numbers), HIGHEST - size + 1) + 1)]
    for gap in gaps:
        if any(all(j.can_be(n) for j, n in zip(jokers, order, strict=True))
               for order in permutations(sorted(gap))):
            return None
    cards = " ".join(str(c) for c in sorted(naturals, key=lambda c: c.number))
    needed = set().union(*gaps)
    lost = next((j for j in jokers if not any(j.can_be(n) for n in needed)), None)
    if lost is not None:
        return (f"joker {lost} stands only for {lost.lo} to {lost.hi}, so it cannot join "
                f"{cards} in a run")
    return f"jokers {' '.join(map(str, jokers))} cannot join {cards} in a run"


def bare(placed: Placed) -> Placed:
    """``placed`` without a joker's declaration (``J1-5``, not ``J1-5=1``)."""
    return Placed(placed.slot, placed.card) if placed.card.is_joker else placed


@dataclass
class LayDownBuilder:
    """Cards of one hand assigned to the components of one level.

    Attributes:
        seat: the player's seat.
        level: the level's components (length k; components are numbered 1..k on screen).
        hand: the player's hand as (slot, card) pairs.
        groups: per component, the placed cards assigned to it (jokers carry a declaration).
    """

    seat: Seat
    level: Level
    hand: Sequence[tuple[SlotId, Card]]
    groups: list[list[Placed]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.groups:
            self.groups = [[] for _component in self.level]

    def component_of(self, slot: SlotId) -> int | None:
        """The index (0-based) of the component ``slot`` is assigned to, or None."""
        for index, group in enumerate(self.groups):
            if any(p.slot == slot for p in group):
                return index
        return None

    def placed(self, slot: SlotId) -> Placed | None:
        """The placed card of ``slot`` if assigned."""
        for group in self.groups:
            for p in group:
                if p.slot == slot:
                    return p
        return None

    def assign(self, slot: SlotId, component: int) -> str | None:
        """Assign the hand card in ``slot`` to component ``component`` (0-based).

        A joker gets the first declaration that makes the group valid, else the first one.

        Returns:
            None, or why it cannot be assigned (not a number card or joker, no such component).
        """
        if not 0 <= component < len(self.level):
            return _("level has {count} components; there is no component {number}").format(
                count=len(self.level), number=component + 1)
        card = dict(self.hand).get(slot)
        if card is None:
            return _("slot #{slot} is not in the hand").format(slot=slot)
        if not (card.is_number or card.is_joker):
            return _("{card} is a special card and cannot be part of a combination").format(
                card=card)
        self.unassign(slot)
        group = self.groups[component]
        kind = self.level[component].kind
        if card.is_number:
            group.append(natural(slot, card))
        else:
            group.append(joker_choices(slot, card, kind)[0])
        self._refit(component)
        return None

    def _refit(self, component: int) -> None:
        """Give the group's jokers declarations that make the group valid, unless it is valid
        already (ruling L8-6): every combination when there are few, else joker by joker."""
        kind = self.level[component].kind
        group = self.groups[component]

        def valid(cards: list[Placed]) -> bool:
            return not isinstance(make_meld(0, self.seat, kind, 1, cards), str)

        if valid(group):
            return
        at = [i for i, p in enumerate(group) if p.card.is_joker]
        options = [joker_choices(group[i].slot, group[i].card, kind) for i in at]
        if prod(len(o) for o in options) <= MAX_COMBINATIONS:
            for combo in product(*options):
                trial = list(group)
                for i, choice in zip(at, combo, strict=True):
                    trial[i] = choice
                if valid(trial):
                    group[:] = trial
                    return
            return
        for i, choices in zip(at, options, strict=True):
            for choice in choices:
                trial = [*group[:i], choice, *group[i + 1 :]]
                if valid([q for q in trial if not q.card.is_joker or q is choice]):
                    group[i] = choice
                    break

    def unassign(self, slot: SlotId) -> None:
        """Take ``slot`` out of its component (nothing if unassigned)."""
        for group in self.groups:
            group[:] = [p for p in group if p.slot != slot]

    def choices(self, slot: SlotId) -> list[Placed]:
        """The declarations the assigned joker in ``slot`` may take (empty for other cards)."""
        index = self.component_of(slot)
        card = dict(self.hand).get(slot)
        if index is None or card is None or not card.is_joker:
            return []
        return joker_choices(slot, card, self.level[index].kind)

    def value_list(self, slot: SlotId) -> tuple[list[Placed], list[int], int]:
        """The joker value list (``v``) of the joker in ``slot``: its :meth:`choices`, the
        number typed for each (a run's or a set's joker: the value itself, ``8`` for
        ``J6-10=8``; a colour's: empty, the list counts 1, 2, 3...) and the one it opens on
        (the value declared now). The trial of 2026-12-08 read ``1. J6-10=6`` to
        ``5. J6-10=10``, typed 6 for a 6 and nothing happened; a wild joker's list opened on
        ``J=1`` while the joker stood for 5."""
        options = self.choices(slot)
        index = self.component_of(slot)
        now = next((p for p in self.groups[index] if p.slot == slot), None) \
            if index is not None else None
        numbers = [] if any(p.colour is not None or not p.number for p in options) \
            else [p.number for p in options]
        return options, numbers, options.index(now) if now in options else 0

    def cycle(self, slot: SlotId, step: int = 1) -> Placed | None:
        """Move the joker in ``slot`` to the next (``step`` 1) or previous (-1) declaration."""
        options = self.choices(slot)
        index = self.component_of(slot)
        if not options or index is None:
            return None
        group = self.groups[index]
        at = next(i for i, p in enumerate(group) if p.slot == slot)
        now = options.index(group[at]) if group[at] in options else -1
        group[at] = options[(now + step) % len(options)]
        return group[at]

    def declare(self, slot: SlotId, choice: Placed) -> None:
        """Give the joker in ``slot`` the declaration ``choice`` (one of :meth:`choices`)."""
        index = self.component_of(slot)
        if index is None or choice not in self.choices(slot):
            return
        group = self.groups[index]
        group[:] = [choice if p.slot == slot else p for p in group]

    def assigned(self) -> tuple[tuple[Placed, ...], ...]:
        """The assignment now, per component (a value to compare: did a key change it?)."""
        return tuple(tuple(g) for g in self.groups)

    def clear(self) -> None:
        """Unassign every card."""
        self.groups = [[] for _component in self.level]

    def load(self, laydown: LayDown) -> None:
        """Take the assignment of ``laydown`` (the quick path: an offered lay-down)."""
        self.groups = [list(g) for g in laydown.groups]

    def laydown(self) -> LayDown:
        """The candidate lay-down (groups in level order)."""
        return LayDown(self.seat, tuple(tuple(g) for g in self.groups))

    def shown(self, index: int) -> list[Placed]:
        """The cards of component ``index`` as the panel shows them: a joker's value only while
        some value can work (:func:`misfit`, :func:`stuck`), not one the builder made up."""
        group = self.groups[index]
        kind = self.level[index].kind
        if misfit(kind, group) is None and stuck(kind, group) is None:
            return list(group)
        return [bare(p) for p in group]

    def group_errors(self) -> list[str | None]:
        """Per component, why its cards do not form it (rulings L8-4, L8-6), or None; a joker
        that cannot stand for its set's number said first (:func:`misfit`), then number cards no
        joker value can join (:func:`stuck`)."""
        out: list[str | None] = []
        for component, group in zip(self.level, self.groups, strict=True):
            if not group:
                out.append("no cards yet")
                continue
            wrong = misfit(component.kind, group) or stuck(component.kind, group)
            if wrong is not None:
                out.append(wrong)
                continue
            meld = make_meld(0, self.seat, component.kind, component.size, group)
            out.append(meld if isinstance(meld, str) else None)
        return out

    def error(self, game: Any, view: Any) -> str | None:
        """Why the candidate is not a valid lay-down now, or None (from ``game.check``): a
        component whose cards cannot form it first (the second reading of 2026-12-08 fixed
        what Enter said, "no cards for the 4 of one colour yet", and kept component 1's joker
        that could not be 5), then a component with no cards, then the engine's check."""
        for index, (component, group) in enumerate(zip(self.level, self.groups, strict=True)):
            wrong = (misfit(component.kind, group) or stuck(component.kind, group)) if group \
                else None
            if wrong is not None:  # in the words of the table's refusal of such a group
                return f"group {index + 1} is not a {component}: {wrong}"
        for component, group in zip(self.level, self.groups, strict=True):
            if not group:
                return f"no cards for the {component} yet"
        try:
            game.check(view, self.laydown())
        except EngineError as exc:
            return str(exc)
        return None
