"""8s Rule! transitions: the state after a shuffle, a reveal, a card played to a trick or laid
on the round-8 layout, and the round end (rulings E-1 to E-9). ``EightsGame.apply`` checks an
action first, then calls one of these; they assume the action is legal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lancards.engine.core import ALL_SEATS, Seat, SlotId

from .actions import Play
from .audit import dealt_hands, find_reneges
from .cards import DECK_SIZE, NUMBERS
from .objectives import ObjectiveKind
from .play import EMPTY_LAYOUT, TrickPlay, lay, trick_winner
from .state import (
    CARD_LEFT_POINTS,
    GOING_OUT_POINTS,
    ROUNDS,
    EightsState,
    Event,
    Phase,
    RoundResult,
)

MIN_PLAYERS_LEFT = 3
"""8s Rule! goes on while at least 3 players are at the table (rulings E-1, D-3)."""


def without(
    hands: tuple[tuple[SlotId, ...], ...], seat: Seat, slot: SlotId
) -> tuple[tuple[SlotId, ...], ...]:
    """``hands`` with ``slot`` removed from ``seat``'s hand."""
    hand = hands[seat]
    index = hand.index(slot)
    return (*hands[:seat], hand[:index] + hand[index + 1 :], *hands[seat + 1 :])


def set_at(values: tuple[int, ...], offset: int, value: int) -> tuple[int, ...]:
    """``values`` with ``values[offset]`` = ``value``."""
    if values[offset] == value:
        return values
    return (*values[:offset], value, *values[offset + 1 :])



def shuffle(state: EightsState, order: tuple[int, ...] | None) -> EightsState:
    base = state.base + DECK_SIZE
    if order is None:
        ident: tuple[int, ...] = (-1,) * DECK_SIZE
    else:
        old = state.ident
        ident = tuple(old[i] for i in order)
    pile = tuple(range(base, base + DECK_SIZE))
    if state.phase is Phase.CUT_SHUFFLE:
        return replace(
            state,
            phase=Phase.CUT_REVEAL,
            base=base,
            ident=ident,
            known=(0,) * DECK_SIZE,
            pile=pile,
            cut_numbers=(),
        )
    # The deal (ruling E-1): one card at a time clockwise, starting left of the dealer, over
    # the seats still at the table (ruling D-1: E-1 sizes for the number of players left).
    n = state.n
    first = state.next_seat(state.dealer)
    seats = [s for k in range(n) if (s := (first + k) % n) not in state.left]
    holders = [seats[i % len(seats)] for i in range(DECK_SIZE)]
    hands = tuple(
        tuple(base + i for i in range(seats.index(seat), DECK_SIZE, len(seats)))
        if seat in seats else ()
        for seat in range(n)
    )
    scoring = 0
    if state.round < ROUNDS:
        objective = state.rules.objectives.rounds[state.round - 1]
        scoring = sum(1 for points in objective.card_points if points)
    return replace(
        state,
        phase=Phase.TRICKS if state.round < ROUNDS else Phase.LAYOUT,
        base=base,
        ident=ident,
        known=tuple(1 << seat for seat in holders),
        pile=(),
        hands=hands,
        turn=first,
        scoring_left=scoring,
        cutters=(),
        cut_numbers=(),
    )

def reveal(state: EightsState, slot: SlotId, card: int) -> EightsState:
    offset = slot - state.base
    state = replace(
        state,
        ident=set_at(state.ident, offset, card),
        known=set_at(state.known, offset, ALL_SEATS),
    )
    if state.phase is Phase.AUDIT:
        return finish_round(state) if next_audit_slot(state) is None else state
    numbers = (*state.cut_numbers, card % NUMBERS + 1)
    if len(numbers) < len(state.cutters):
        return replace(state, cut_numbers=numbers)
    top = max(numbers)
    tied = tuple(s for s, number in zip(state.cutters, numbers, strict=True) if number == top)
    if len(tied) > 1:  # ruling E-2: the tied players cut again
        return replace(state, phase=Phase.CUT_SHUFFLE, cutters=tied, cut_numbers=())
    return replace(state, phase=Phase.DEAL, round=1, dealer=tied[0], cutters=(), cut_numbers=())

def play_to_trick(state: EightsState, action: Play, card: int) -> EightsState:
    seat, slot, n = action.seat, action.slot, state.n
    offset = slot - state.base
    trick = (*state.trick, TrickPlay(seat, slot, card, action.take))
    history = (*state.history, Event(seat, card, len(state.trick_winners) + 1))
    ident = set_at(state.ident, offset, card)
    known = set_at(state.known, offset, ALL_SEATS)
    hands = without(state.hands, seat, slot)
    if len(trick) < n - len(state.left):
        return replace(
            state,
            ident=ident,
            known=known,
            hands=hands,
            trick=trick,
            history=history,
            turn=state.next_seat(seat),
        )
    winner = trick_winner(trick)  # ruling E-4
    objective = state.rules.objectives.rounds[state.round - 1]
    scoring_left = state.scoring_left
    if objective.card_points:
        scoring_left -= sum(1 for play in trick if objective.card_points[play.card])
    won = state.won
    won = (*won[:winner], won[winner] + tuple(p.slot for p in trick), *won[winner + 1 :])
    state = replace(
        state,
        ident=ident,
        known=known,
        hands=hands,
        trick=(),
        history=history,
        won=won,
        trick_winners=(*state.trick_winners, winner),
        scoring_left=scoring_left,
        turn=winner,  # ruling E-3: the winner leads the next trick
    )
    met = objective.kind is ObjectiveKind.CARDS and objective.early_end and scoring_left == 0
    if met or not any(hands):  # ruling E-5: the round ends as soon as the objective is met
        return start_audit(state)
    return state

def lay_card(state: EightsState, action: Play, card: int) -> EightsState:
    seat, slot = action.seat, action.slot
    offset = slot - state.base
    hands = without(state.hands, seat, slot)
    state = replace(
        state,
        ident=set_at(state.ident, offset, card),
        known=set_at(state.known, offset, ALL_SEATS),
        hands=hands,
        layout=lay(card, state.layout),
        table=(*state.table, slot),
        history=(*state.history, Event(seat, card, len(state.history) + 1)),
        turn=state.next_seat(seat),
    )
    if not hands[seat]:  # ruling E-7: the game ends the moment a hand empties
        return start_audit(replace(state, went_out=seat))
    return state

def pass_turn(state: EightsState, seat: Seat) -> EightsState:
    """Round 8: ``seat`` passes. A pass whose seat held a playable card is a renege for the
    audit (ruling E-8); when every seat still at the table has passed in turn since the last
    card was laid, the layout is dead and the round ends there, with nobody out, and goes to
    the audit (our reading 5 of ``docs/rules-eights.md``).

    Why a dead layout proves a renege: all 60 cards are dealt to the seats at the table (E-1;
    a leave deals the round again, D-1), so while any card is in a hand some hand holds a
    playable one (an 8, or the card next to an end of an opened suit), and a full turn of
    passes over an unchanged layout passed that card. Without this end, one seat passing for
    ever would keep round 8, and the table's record, going for ever.
    """
    history = (*state.history, Event(seat, -1, len(state.history) + 1))
    state = replace(state, history=history, turn=state.next_seat(seat))
    passes = 0
    for event in reversed(history):
        if event.card >= 0:
            break
        passes += 1
    return start_audit(state) if passes >= len(state.present()) else state


def start_audit(state: EightsState) -> EightsState:
    state = replace(state, phase=Phase.AUDIT, turn=-1)
    return finish_round(state) if next_audit_slot(state) is None else state

def finish_round(state: EightsState) -> EightsState:
    n, base, ident, number = state.n, state.base, state.ident, state.round
    left = [[ident[slot - base] for slot in hand] for hand in state.hands]
    if number < ROUNDS:
        objective = state.rules.objectives.rounds[number - 1]
        won = [[ident[slot - base] for slot in taken] for taken in state.won]
        points = objective.score(won, state.trick_winners, n)
        went_out = None
    else:
        went_out = state.went_out if state.went_out >= 0 else None  # None: a dead layout
        points = tuple(
            GOING_OUT_POINTS if seat == went_out else CARD_LEFT_POINTS * len(left[seat])
            for seat in range(n)
        )
    reneges = find_reneges(number, state.history, dealt_hands(n, state.history, left))
    result = RoundResult(
        round=number,
        dealer=state.dealer,
        points=points,
        reneges=reneges,
        tricks=len(state.trick_winners),
        ended_early=number < ROUNDS and any(left),
        went_out=went_out,
    )
    last = number == ROUNDS
    return replace(
        state,
        phase=Phase.OVER if last else Phase.DEAL,
        round=number if last else number + 1,
        dealer=state.dealer if last else state.next_seat(state.dealer),  # rulings E-2, D-1
        results=(*state.results, result),
        **_fresh_deal(n, base),
    )


def next_audit_slot(state: EightsState) -> SlotId | None:
    """The first hand slot not yet public (seat order, then ascending slot), or None."""
    base, known = state.base, state.known
    for hand in state.hands:
        for slot in hand:
            if known[slot - base] != ALL_SEATS:
                return slot
    return None


def leave(state: EightsState, seat: Seat) -> EightsState:
    """The state after ``seat`` leaves for good (rulings D-1 to D-3); the caller has checked
    that the game is not over and that ``seat`` is at the table.

    D-1: the round in progress is abandoned with no score (none of its hidden cards is ever
    revealed: its slots leave play, a pending audit or cut reveal is dropped) and dealt again
    with E-1 sizes for the seats left, the round number unchanged. The deck starts a new slot
    generation ``base + 60 .. base + 119`` holding the canonical deck in public, card index
    ``i`` in slot ``base + 60 + i``, as slots ``0..59`` at the start of a game: the peer layer
    encrypts it afresh, so no card of the leaver's hand (still under the leaver's key) is ever
    shuffled again. A dealer who left passes the deal to the next seat to the left. Before the
    first round the high cut starts again among the cutters left (one cutter left deals).
    D-3: with fewer than 3 players left, or with partners (E-10: the leaver's team loses), the
    game is over.
    """
    left = (*state.left, seat)
    base = state.base + DECK_SIZE
    state = replace(
        state,
        left=left,
        base=base,
        ident=tuple(range(DECK_SIZE)),
        known=(ALL_SEATS,) * DECK_SIZE,
        cut_numbers=(),
        **_fresh_deal(state.n, base),
    )
    if leave_end_reason(state, left) is not None:
        return replace(state, phase=Phase.OVER, cutters=())
    if state.round == 0:
        cutters = tuple(s for s in state.cutters if s != seat)
        if len(cutters) > 1:
            return replace(state, phase=Phase.CUT_SHUFFLE, cutters=cutters)
        return replace(state, phase=Phase.DEAL, round=1, dealer=cutters[0], cutters=())
    dealer = state.dealer if state.dealer not in left else state.next_seat(state.dealer)
    return replace(state, phase=Phase.DEAL, dealer=dealer)


def leave_end_reason(state: EightsState, left: tuple[Seat, ...]) -> str | None:
    """Why the game is over once the seats ``left`` have left (ruling D-3): ``"too-few"``
    (fewer than 3 players are left), ``"team"`` (partners: a team lost a member, E-10), or
    ``None`` (the game goes on)."""
    if state.n - len(left) < MIN_PLAYERS_LEFT:
        return "too-few"
    return "team" if state.rules.partners and left else None


def _fresh_deal(n: int, base: int) -> dict[str, Any]:
    """The fields a new deal starts from, for ``n`` seats and the slot generation ``base``
    (``base .. base + 59`` in the draw pile): no hand, trick, layout or history yet (E-1; also
    the deal again after a leave, D-1)."""
    return {"pile": tuple(range(base, base + DECK_SIZE)), "hands": ((),) * n, "turn": -1,
            "trick": (), "won": ((),) * n, "trick_winners": (), "scoring_left": 0,
            "layout": EMPTY_LAYOUT, "table": (), "history": (), "went_out": -1}
