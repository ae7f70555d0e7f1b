"""The 8s Rule! ``normal`` bot: it counts the cards and plays each round's objective.

It sees only its seat's view: its own hand and the public record of the round (every card
played, in order, ``EightsState.history``), from which it knows

- the *unseen* cards (neither in its hand nor played this round; all 60 cards are dealt,
  ruling E-1), and
- each seat's *void* suits (a seat that played another suit to a trick holds none of the led
  suit, ruling E-3).

For a card ``c`` of suit ``s`` (not the 8) its *beaters* are the unseen cards of ``s`` above it
(not the 8), its *escapes* the unseen cards of ``s`` below it and the unseen 8 of ``s`` (a card
an opponent can play under it; a following "no take" 8 never wins, ruling E-4).

Objectives to avoid (tricks worth points, cards worth points, the last tricks; ruling E-6),
each legal card is scored

    cost(c) = P(win this trick with c) * points of the trick if won - risk of holding c

and the lowest cost is played. ``P(win)`` is exact where counting decides (no later seat can
follow suit; no beater is unseen; a beater is unseen and no escape is: somebody must play
above), else estimated from the escapes and beaters left. The *risk* of holding ``c`` is
``q(c) * (points of c + the round's mean points per trick left)``, with ``q(c)`` the chance
that ``c`` wins a trick later (``1 / (1 + beaters)``; an 8 is an escape, 0.05). So it dumps the
card worth most when void, plays the highest card that surely loses, and wins a harmless trick
with its most dangerous card when last.

Tricks wanted (round 7 of the defaults): lead a sure winner (no beater and no 8 of the suit
unseen, or nobody left can follow), keeping the 8s ("take" always wins, ruling E-4) for when no
natural card is sure; follow with the cheapest sure winner; when void, throw the card least
likely to win.

Round 8, the layout (ruling E-7): lay the card that frees most of its own cards; ties: the one
that makes fewest unseen cards playable for the others (counting, not guessing by number).

``easy`` is this bot with a share of its plays chosen at random among the legal ones, from its
own random source (:class:`lancards.engine.core.Rng`); the engine never draws for it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lancards.engine.core import Rng, Seat

from .actions import EightsAction, Play, format_action, parse_action
from .cards import DECK_SIZE, EIGHT, NUMBERS
from .objectives import Objective, ObjectiveKind
from .play import TrickPlay, trick_winner
from .state import EightsState, Phase

UNKNOWN_FOLLOW = 1.5
"""A later seat not known void adds this many times the mean unseen card's points (it may be
void, and then it throws its worst card)."""

HOLD_WEIGHT = 0.5
"""How much of a kept card's risk counts against keeping it: a kept card may still be thrown
away later, when void."""

GIFT_WEIGHT = 1 / 3
"""A card worth points thrown into a trick another seat takes counts this much in favour: the
game is won by the lowest total, so points given to one of the others help."""

EIGHT_HOLD_CHANCE = 0.05
"""``q`` of an 8 while ducking: it is an escape (a following "no take" 8 never wins)."""


@dataclass(frozen=True, slots=True)
class Counts:
    """What the seat knows of the round from its view.

    Attributes:
        hand: its card indexes.
        unseen: card indexes neither in its hand nor played this round.
        void: per seat, the suits (0..3) it failed to follow this round.
        sizes: per seat, the cards in hand.
        by_suit: per suit, the numbers of its unseen cards, ascending.
    """

    hand: tuple[int, ...]
    unseen: frozenset[int]
    void: tuple[frozenset[int], ...]
    sizes: tuple[int, ...]
    by_suit: tuple[tuple[int, ...], ...]


def count_cards(view: EightsState, seat: Seat) -> Counts:
    """The :class:`Counts` of ``seat`` from ``view`` (its own hand and public cards only)."""
    played: set[int] = set()
    void: list[set[int]] = [set() for _ in range(view.n)]
    led: dict[int, int] = {}
    for event in view.history:
        if event.card < 0:
            continue
        played.add(event.card)
        suit = event.card // NUMBERS
        first = led.setdefault(event.number, suit)
        if suit != first:
            void[event.seat].add(first)
    return counts_from(view, seat, played, tuple(frozenset(v) for v in void))


def counts_from(view: EightsState, seat: Seat, played: set[int] | frozenset[int],
                void: tuple[frozenset[int], ...]) -> Counts:
    """The :class:`Counts` of ``seat`` in ``view`` given the round's ``played`` card indexes
    and each seat's ``void`` suits (as :func:`count_cards` reads them from the history; a
    roll-out keeps them as it plays instead of reading the history at every decision)."""
    base, ident = view.base, view.ident
    hand = tuple(sorted(ident[slot - base] for slot in view.hands[seat] if ident[slot - base] >= 0))
    return counts_of(hand, played, void, tuple(len(h) for h in view.hands))


def counts_of(hand: tuple[int, ...], played: set[int] | frozenset[int],
              void: tuple[frozenset[int], ...], sizes: tuple[int, ...] = ()) -> Counts:
    """The :class:`Counts` of a seat holding ``hand`` (card indexes, ascending) given the
    round's ``played`` card indexes, each seat's ``void`` suits and hand ``sizes`` (the
    inference asks it of hands a seat might have held, :mod:`.inference`)."""
    unseen = _DECK - played - set(hand)
    by_suit: list[list[int]] = [[], [], [], []]
    for card in sorted(unseen):
        by_suit[card // NUMBERS].append(card % NUMBERS + 1)
    return Counts(hand, unseen, void, sizes, tuple(tuple(b) for b in by_suit))


_DECK = frozenset(range(DECK_SIZE))


class PlanBot:
    """8s Rule! ``normal`` (and, with ``careless`` > 0, ``easy``): decides from its view only.

    Args:
        rng: its own random source (used only when ``careless`` > 0).
        careless: the share of its decisions (when it has a choice) taken at random among the
            legal actions, 0..1.
    """

    def __init__(self, rng: Rng, careless: float = 0.0) -> None:
        self.rng = rng
        self.careless = careless

    def choose(self, view: EightsState, seat: Seat, legal: Sequence[EightsAction]) -> EightsAction:
        """One of ``legal`` (never empty) for ``seat`` in ``view``."""
        if len(legal) == 1:
            return legal[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        if self.careless > 0 and self.rng.random() < self.careless:
            return plays[self.rng.randrange(len(plays))]
        return _best(view, seat, count_cards(view, seat), plays)

    def parse_action(self, text: str) -> EightsAction:
        """Parse action notation. Raises ``InvalidActionError``."""
        return parse_action(text)

    def format_action(self, action: EightsAction) -> str:
        """Format an action as notation."""
        return format_action(action)


def _wants_tricks(objective: Objective) -> bool:
    if objective.kind is ObjectiveKind.TRICKS:
        return objective.per_trick < 0
    return objective.kind is ObjectiveKind.CARDS and sum(objective.card_points) < 0


def _best(view: EightsState, seat: Seat, counts: Counts, plays: list[Play]) -> Play:
    if view.phase is Phase.LAYOUT:
        return _layout(view, counts, plays)
    objective = view.rules.objectives.rounds[view.round - 1]
    if _wants_tricks(objective):
        return _win(view, seat, counts, plays)
    return _duck(view, seat, counts, objective, plays)


def rank_plays(view: EightsState, seat: Seat, counts: Counts, plays: list[Play]) -> list[Play]:
    """``plays`` in ``normal``'s order of preference: by cost when ducking, else its choice
    first and the rest in the given order."""
    if view.phase is Phase.TRICKS:
        objective = view.rules.objectives.rounds[view.round - 1]
        if not _wants_tricks(objective):
            return sorted(plays, key=_duck_key(view, seat, counts, objective))
    first = _best(view, seat, counts, plays)
    return [first, *(p for p in plays if p != first)]




def best_play(view: EightsState, seat: Seat, counts: Counts, plays: list[Play]) -> Play:
    """``normal``'s choice among ``plays`` (not empty) given ``seat``'s ``counts`` of ``view``
    (what :meth:`PlanBot.choose` plays, for a caller that keeps the counts itself)."""
    return _best(view, seat, counts, plays)


def wants_tricks(objective: Objective) -> bool:
    """Whether ``objective`` rewards tricks or cards taken (round 7 of the defaults)."""
    return _wants_tricks(objective)


def win_chance(view: EightsState, seat: Seat, counts: Counts, play: Play) -> float:
    """The chance, 0..1, that ``play`` takes the current trick if the later seats duck:
    exact where counting decides, else estimated from the escapes and beaters unseen (the
    module docstring)."""
    return _win_chance(view, seat, counts, play)


def _suit(card: int) -> int:
    return card // NUMBERS


def _number(card: int) -> int:
    return card % NUMBERS + 1


def _beaters(card: int, counts: Counts) -> int:
    """The unseen cards of ``card``'s suit above it, not the 8 (``by_suit`` is ascending)."""
    number, numbers = _number(card), counts.by_suit[_suit(card)]
    above = len(numbers) - bisect_right(numbers, number)
    return above - 1 if number < EIGHT and EIGHT in numbers else above


def _escapes(card: int, counts: Counts) -> int:
    """The unseen cards of ``card``'s suit below it, and its unseen 8."""
    number, numbers = _number(card), counts.by_suit[_suit(card)]
    below = bisect_left(numbers, number)
    return below + 1 if number <= EIGHT and EIGHT in numbers else below


def _later(view: EightsState, seat: Seat) -> list[Seat]:
    """The seats that play after ``seat`` in the current trick."""
    played = {p.seat for p in view.trick}
    return [s for s in view.present() if s != seat and s not in played]


def _tricks_left(view: EightsState) -> int:
    total = DECK_SIZE // len(view.present())
    return total - len(view.trick_winners)


def _trick_points(view: EightsState, objective: Objective) -> float:
    """Points of the current trick to its taker, before its cards are counted."""
    if objective.kind is ObjectiveKind.TRICKS:
        return float(objective.per_trick)
    if objective.kind is ObjectiveKind.LAST_TRICKS:
        back = _tricks_left(view) - 1  # 0: this is the last trick
        late = objective.last_tricks
        return float(late[len(late) - 1 - back]) if back < len(late) else 0.0
    return 0.0


def _mean_per_trick(view: EightsState, counts: Counts, objective: Objective) -> float:
    """The points still to be taken this round, per trick left (the cost of a trick taken
    later, on average)."""
    left = max(1, _tricks_left(view))
    if objective.kind is ObjectiveKind.TRICKS:
        return float(objective.per_trick)
    if objective.kind is ObjectiveKind.LAST_TRICKS:
        late = objective.last_tricks
        return float(sum(late[max(0, len(late) - left):])) / left
    values = objective.card_points
    pending = sum(values[c] for c in counts.unseen) + sum(values[c] for c in counts.hand)
    return pending / left


def _win_chance(view: EightsState, seat: Seat, counts: Counts, play: Play,
                later: Sequence[Seat] | None = None) -> float:
    """The chance that ``play`` takes the current trick when the others duck (``later``:
    :func:`_later`, when the caller has it)."""
    card = play.card.index
    after = (*view.trick, TrickPlay(seat, play.slot, card, play.take))
    if trick_winner(after) != seat:
        return 0.0
    if play.take:
        return 1.0
    suit = _suit(card)
    if later is None:
        later = _later(view, seat)
    live = [s for s in later if suit not in counts.void[s]]
    if not live:
        return 1.0
    if _number(card) == EIGHT:  # a "no take" 8 led: anybody following suit takes it
        return 0.0 if counts.by_suit[suit] else 1.0
    beaters, escapes = _beaters(card, counts), _escapes(card, counts)
    if beaters == 0:
        return 1.0
    if escapes == 0:
        return 0.0  # whoever holds a beater holds nothing lower: it must play above
    ratio: float = escapes / (escapes + beaters)
    return float(ratio ** min(beaters, len(live)))


def _hold_chance(card: int, counts: Counts) -> float:
    """``q``: the chance that ``card`` takes a trick later if kept."""
    if _number(card) == EIGHT:
        return EIGHT_HOLD_CHANCE
    return 1.0 / (1 + _beaters(card, counts))


def _duck(view: EightsState, seat: Seat, counts: Counts, objective: Objective,
          plays: list[Play]) -> Play:
    return min(plays, key=_duck_key(view, seat, counts, objective))


def _duck_key(view: EightsState, seat: Seat, counts: Counts,
              objective: Objective) -> Callable[[Play], tuple[float, int, int]]:
    values = objective.card_points or (0,) * DECK_SIZE
    base = _trick_points(view, objective)
    mean = _mean_per_trick(view, counts, objective)
    at_stake = sum(values[p.card] for p in view.trick)
    later = _later(view, seat)
    dump = 0.0
    if objective.kind is ObjectiveKind.CARDS and counts.unseen:
        unseen_values = [values[c] for c in counts.unseen]
        per_card = sum(unseen_values) / len(unseen_values)
        led = _suit(view.trick[0].card) if view.trick else None
        for other in later:
            if led is not None and led in counts.void[other]:
                dump += min(max(unseen_values), 2 * per_card)
            else:
                dump += UNKNOWN_FOLLOW * per_card

    def cost(play: Play) -> tuple[float, int, int]:
        card = play.card.index
        win = _win_chance(view, seat, counts, play, later)
        now = base + at_stake + values[card] + dump
        risk = HOLD_WEIGHT * _hold_chance(card, counts) * (values[card] + mean)
        gift = (1 - win) * GIFT_WEIGHT * values[card]
        return (win * now - risk - gift, -_number(card), -card)

    return cost


def _win(view: EightsState, seat: Seat, counts: Counts, plays: list[Play]) -> Play:
    """Tricks wanted: win with sure winners, keep the 8s for when nothing else is sure."""
    later = _later(view, seat)

    def sure(play: Play) -> bool:
        card = play.card.index
        after = (*view.trick, TrickPlay(seat, play.slot, card, play.take))
        if trick_winner(after) != seat:
            return False
        if play.take:
            return True
        suit = _suit(card)
        if not [s for s in later if suit not in counts.void[s]]:
            return True
        eight = suit * NUMBERS + EIGHT - 1
        return _beaters(card, counts) == 0 and eight not in counts.unseen

    def keep_value(play: Play) -> tuple[bool, float, int]:  # the lowest is thrown first
        card = play.card.index
        return (_number(card) == EIGHT, _hold_chance(card, counts), card)

    natural = [p for p in plays if p.take is None and sure(p)]
    if natural:
        return min(natural, key=lambda p: p.card.number)
    takers = [p for p in plays if p.take]
    if takers:
        return takers[0]
    winning = [p for p in plays if _win_chance(view, seat, counts, p, later) > 0]
    following = bool(view.trick) and plays[0].card.suit == _suit(view.trick[0].card)
    if winning and following:
        if not later:
            return min(winning, key=lambda p: p.card.number)
        return max(winning, key=lambda p: p.card.number)
    ordinary = [p for p in plays if p.take is not False] or plays
    return min(ordinary, key=keep_value)


def _layout(view: EightsState, counts: Counts, plays: list[Play]) -> Play:
    """Round 8: free most of its own cards; then open fewest unseen cards to the others."""
    mine = set(counts.hand)

    def key(play: Play) -> tuple[int, int, int]:
        card = play.card.index
        suit, number = _suit(card), _number(card)
        own = [_number(c) for c in mine if _suit(c) == suit and c != card]
        if number == EIGHT:
            behind = len(own)
            nexts = [number - 1, number + 1]
        elif number > EIGHT:
            behind = sum(1 for m in own if m > number)
            nexts = [number + 1]
        else:
            behind = sum(1 for m in own if m < number)
            nexts = [number - 1]
        opens = sum(1 for m in nexts if 1 <= m <= NUMBERS
                    and suit * NUMBERS + m - 1 in counts.unseen)
        return (behind, -opens, -card)

    return max(plays, key=key)


__all__ = ["Counts", "PlanBot", "best_play", "count_cards", "counts_from", "rank_plays",
           "wants_tricks", "win_chance"]
