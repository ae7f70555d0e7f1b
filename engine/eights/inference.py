"""Which imagined deals the round's plays make likely: inference for the 8s Rule! ``hard`` bot.

:func:`lancards.engine.eights.search_bot.sample_hands` deals the unseen cards uniformly, given
only what the rules rule out (voids, round 8 passes). But the other seats chose their plays
from the hands they held: a seat that ducked under a trick worth points with its lowest heart
probably had no lower one. Following Buro, Long, Furtak and Sturtevant ("Improving state
evaluation, inference, and search in trick-based card games", IJCAI 2009, section 4), a deal
is weighted by how likely the round's plays were in it under a model of the players; the model
here is ``normal`` itself (:func:`lancards.engine.eights.planner_bot.best_play`), which makes
the likelihood of each play 1 when ``normal`` would have made it from that seat's hand then,
and :data:`MISMATCH` when it would not (people, ``easy`` and ``greedy`` seats do not play like
``normal``: a soft factor instead of 0).

:func:`past_choices` reads the round's plays from the view once per decision;
:func:`sample_likely` draws deals by rejection sampling (von Neumann 1951): a uniform deal is
kept with probability equal to its weight, the check stopping at the first play that pushes
the weight below the uniform number drawn for it, so most rejected deals cost one or two
replayed decisions. Pure: everything comes from the view and the bot's own random source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from lancards.engine.core import Rng, Seat

from .actions import Play
from .cards import CARDS, NUMBERS
from .planner_bot import best_play, counts_of
from .play import (
    EMPTY_LAYOUT,
    Layout,
    TrickPlay,
    follow_suit_cards,
    is_eight_of_led_suit,
    lay,
    playable_cards,
)
from .state import EightsState, Phase

MISMATCH = 0.1
"""The likelihood of a play ``normal`` would not have made from the hand a deal gives."""

MAX_EVIDENCE = 24
"""The newest plays read as evidence, at the most (each costs a ``normal`` decision per deal
checked)."""

@dataclass(frozen=True, slots=True)
class Choice:
    """One earlier play of another seat in this round, as that seat saw the table then.

    Attributes:
        seat: who played.
        view: the view's table as it was (the trick so far, the tricks finished before it).
        played: the card indexes played this round before it.
        void: per seat, the suits it had failed to follow before it (ruling E-3).
        kept: the cards the seat played from then on this round, this one included (so its
            hand then is its hand now plus these).
        led: the suit led to the trick (None: it led, or round 8).
        layout: round 8: the layout before it (else the empty layout).
        card: the card index it played.
    """

    seat: Seat
    view: EightsState
    played: frozenset[int]
    void: tuple[frozenset[int], ...]
    kept: tuple[int, ...]
    led: int | None
    layout: Layout
    card: int


def past_choices(view: EightsState, seat: Seat, limit: int = MAX_EVIDENCE) -> tuple[Choice, ...]:
    """The round's plays by seats other than ``seat`` (passes are not read: a deal that allows
    a pass's playable card is already ruled out), the newest first, at most ``limit``.

    The "take" of an 8 in a finished trick is not in the history; it is read as "take" when
    the 8's player took the trick (only the card is compared, so this matters only to what a
    later player of that trick could win)."""
    if view.phase not in (Phase.TRICKS, Phase.LAYOUT):
        return ()
    events = [e for e in view.history if e.card >= 0]
    layout_phase = view.phase is Phase.LAYOUT
    played: set[int] = set()
    void: list[frozenset[int]] = [frozenset() for _ in range(view.n)]
    layout = EMPTY_LAYOUT
    trick: list[TrickPlay] = []
    current = -1
    out: list[Choice] = []
    for index, event in enumerate(events):
        led: int | None = None
        if not layout_phase:
            if event.number != current:
                trick, current = [], event.number
            led = trick[0].card // NUMBERS if trick else None
        if event.seat != seat:
            kept = tuple(e.card for e in events[index:] if e.seat == event.seat)
            table = view
            if not layout_phase:
                table = replace(view, trick=tuple(trick),
                                trick_winners=view.trick_winners[:event.number - 1])
            out.append(Choice(event.seat, table, frozenset(played), tuple(void), kept, led,
                              layout, event.card))
        played.add(event.card)
        if layout_phase:
            layout = lay(event.card, layout)
        else:
            take = None
            if is_eight_of_led_suit(event.card, led):
                done = event.number - 1 < len(view.trick_winners)
                take = done and view.trick_winners[event.number - 1] == event.seat
                if not done:
                    take = next((p.take for p in view.trick if p.card == event.card), take)
            if led is not None and event.card // NUMBERS != led:
                void[event.seat] = void[event.seat] | {led}
            trick.append(TrickPlay(event.seat, -1, event.card, take))
    out.reverse()
    return tuple(out[:limit])


def agrees(choice: Choice, hand_now: Iterable[int]) -> bool | None:
    """Whether ``normal`` would have played ``choice.card`` had the seat held ``hand_now``
    (card indexes) plus the cards it played since; None when that hand left no choice (the
    play says nothing), False also when the card was not even legal from it."""
    hand = set(hand_now)
    hand.update(choice.kept)
    if choice.view.phase is Phase.LAYOUT:
        cards = playable_cards(hand, choice.layout)
    else:
        cards = follow_suit_cards(hand, choice.led)
    if choice.card not in cards:
        return False
    if len(cards) < 2:
        return None
    plays: list[Play] = []
    for card in cards:
        if choice.view.phase is Phase.TRICKS and is_eight_of_led_suit(card, choice.led):
            plays.append(Play(choice.seat, -1, CARDS[card], True))
            plays.append(Play(choice.seat, -1, CARDS[card], False))
        else:
            plays.append(Play(choice.seat, -1, CARDS[card]))
    counts = counts_of(tuple(sorted(hand)), choice.played, choice.void)
    return best_play(choice.view, choice.seat, counts, plays).card.index == choice.card


def weight(world: EightsState, choices: Sequence[Choice], floor: float = 0.0) -> float:
    """The likelihood of ``choices`` in ``world`` (a full state): :data:`MISMATCH` to the power
    of the plays ``normal`` would not have made there, 1 if none. Stops as soon as it falls
    below ``floor`` (0..1) and returns the value reached (an upper bound then)."""
    hands: dict[Seat, list[int]] = {}
    value = 1.0
    for choice in choices:
        hand = hands.get(choice.seat)
        if hand is None:
            hand = [world.ident[slot - world.base] for slot in world.hands[choice.seat]]
            hands[choice.seat] = hand
        if agrees(choice, hand) is False:
            value *= MISMATCH
            if value < floor:
                return value
    return value


def sample_likely(choices: Sequence[Choice], tries: int, rng: Rng,
                  deal: Callable[[], EightsState]) -> EightsState:
    """A deal of the hidden cards drawn in proportion to its :func:`weight` (rejection
    sampling from ``deal``'s uniform deals), or, after ``tries`` rejected deals, the one with
    the highest weight reached (ties: the first)."""
    best: EightsState | None = None
    best_value = -1.0
    for _ in range(max(1, tries)):
        world = deal()
        if not choices:
            return world
        threshold = rng.random()
        value = weight(world, choices, threshold)
        if value >= threshold:
            return world
        if value > best_value:
            best, best_value = world, value
    assert best is not None
    return best


__all__ = ["MAX_EVIDENCE", "MISMATCH", "Choice", "agrees", "past_choices", "sample_likely",
           "weight"]
