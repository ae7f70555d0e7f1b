"""The rules value and the immutable game state of 8s Rule!.

Hidden information (see ``docs/rules-eights.md``): every physical card occupies a *slot*. All 60
cards always belong to one *generation* of slots, ``base .. base + 59``; every shuffle takes all
60 cards and gives them the next 60 slot ids, so ids are never reused. For each slot the state
keeps the card index (``-1`` when this state does not know it) and a knowledge mask (which seats
know it; :data:`lancards.engine.core.ALL_SEATS` = public).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from lancards.engine.core import Seat, SlotId

from .cards import CARDS, Card, Suit
from .objectives import Objectives, default_objectives
from .play import EMPTY_LAYOUT, Layout, TrickPlay

RENEGE_PENALTY = 50
"""Points added per renege at the end of the round (rulebook, ruling E-8)."""

CARD_LEFT_POINTS = 10
"""Round 8: points per card left in a hand (ruling E-7)."""

GOING_OUT_POINTS = -25
"""Round 8: points of the player who plays the last hand card (ruling E-7)."""

ROUNDS = 8


@dataclass(frozen=True, slots=True)
class EightsRules:
    """The rule options of one game.

    Attributes:
        partners: play in two or three teams of partners sitting opposite (4 or 6 players only;
            ruling E-10).
        objectives: the objectives of rounds 1..7 (ruling E-6; the defaults are not from the
            publisher).
        first_dealer: the dealer of round 1, e.g. the winner of the previous game (ruling E-2);
            None: the high cut chooses.
    """

    partners: bool = False
    objectives: Objectives = field(default_factory=default_objectives)
    first_dealer: Seat | None = None


class Phase(IntEnum):
    """Where the game stands; chance acts in the cut, deal and audit phases."""

    CUT_SHUFFLE = 0
    """The cutting players' deck must be shuffled (ruling E-2)."""
    CUT_REVEAL = 1
    """One card is shown per cutting player (ruling E-2)."""
    DEAL = 2
    """The deck must be shuffled; the deal follows at once (ruling E-1)."""
    TRICKS = 3
    """Rounds 1..7: trick play (rulings E-3, E-4)."""
    LAYOUT = 4
    """Round 8: the layout (ruling E-7)."""
    AUDIT = 5
    """Round end: the cards left in hands are opened one by one (ruling E-8)."""
    OVER = 6
    """The game is over (ruling E-9)."""


class Event(NamedTuple):
    """One play or pass of the current round, kept for the round-end audit (ruling E-8).

    Attributes:
        seat: who acted.
        card: the card index played, or -1 for a pass (round 8).
        number: the trick number (rounds 1..7) or the turn number (round 8), from 1.
    """

    seat: Seat
    card: int
    number: int


@dataclass(frozen=True, slots=True)
class Renege:
    """A renege found by the round-end audit (ruling E-8): +50 to ``seat``.

    Attributes:
        round: 1..8.
        seat: the offender.
        number: the trick number (rounds 1..7) or turn number (round 8), from 1.
        played: the card played (rounds 1..7), None for a pass (round 8).
        held: the lowest card the seat held that it had to play instead.
        led: the suit led (rounds 1..7), else None.
    """

    round: int
    seat: Seat
    number: int
    played: Card | None
    held: Card
    led: Suit | None

    def __str__(self) -> str:
        if self.played is None:
            return (
                f"round {self.round}, turn {self.number}: seat {self.seat} passed while holding "
                f"the playable {self.held} (renege, +{RENEGE_PENALTY}, ruling E-8)"
            )
        led = self.led.title if self.led is not None else "?"
        return (
            f"round {self.round}, trick {self.number}: seat {self.seat} played {self.played} "
            f"on a {led} lead while holding {self.held} (renege, +{RENEGE_PENALTY}, ruling E-8)"
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The score of one finished round.

    Attributes:
        round: 1..8.
        dealer: the round's dealer.
        points: per seat, the objective's points (rounds 1..7) or the layout points (round 8).
        reneges: every renege the audit found (ruling E-8).
        tricks: tricks played (rounds 1..7; fewer than 60 / seats when the round ended early).
        ended_early: the objective was met before the last trick (ruling E-5).
        went_out: round 8: the seat that played its last card, else None.
    """

    round: int
    dealer: Seat
    points: tuple[int, ...]
    reneges: tuple[Renege, ...]
    tricks: int
    ended_early: bool
    went_out: Seat | None

    @property
    def penalties(self) -> tuple[int, ...]:
        """Per seat, 50 per renege (ruling E-8)."""
        counts = [0] * len(self.points)
        for renege in self.reneges:
            counts[renege.seat] += RENEGE_PENALTY
        return tuple(counts)

    @property
    def totals(self) -> tuple[int, ...]:
        """Per seat, the round's points plus renege penalties."""
        return tuple(p + q for p, q in zip(self.points, self.penalties, strict=True))


@dataclass(frozen=True, slots=True)
class EightsState:
    """An immutable 8s Rule! position (a function of the rules and the action log).

    Attributes:
        rules: the rule options.
        n: seat count, 3..6.
        phase: see :class:`Phase`.
        base: the first slot id of the current slot generation (slots ``base .. base + 59``).
        ident: 60 entries, the card index of slot ``base + i``, or -1 if unknown here.
        known: 60 entries, the knowledge mask of slot ``base + i`` (bit ``seat_bit(s)``).
        pile: the face-down deck (cut, deal) or the gathered deck, ascending slot ids.
        round: 0 during the first cut, then 1..8.
        dealer: the dealer of the current round, -1 before the cut decides.
        cutters: seats cutting now (ruling E-2), in seat order.
        cut_numbers: numbers shown so far in this cut; cutter ``i`` is shown ``pile[i]``.
        hands: per seat, the slots in hand, ascending.
        turn: the seat to play (tricks and layout phases).
        trick: the current trick's plays.
        won: per seat, slots taken in tricks this round.
        trick_winners: the winner of each finished trick this round.
        scoring_left: cards worth points not yet taken this round (objective kind ``cards``).
        layout: round 8: per suit ``(low, high)``.
        table: round 8: the slots laid on the layout, in play order.
        history: this round's plays and passes, for the audit (ruling E-8).
        went_out: round 8: the seat that played its last card, else -1.
        results: every finished round, round 1 first.
        left: the seats that left the table for good, in the order they left (rulings D-1,
            D-2); they are dealt no cards and play passes over them.
    """

    rules: EightsRules
    n: int
    phase: Phase
    base: SlotId
    ident: tuple[int, ...]
    known: tuple[int, ...]
    pile: tuple[SlotId, ...]
    round: int = 0
    dealer: Seat = -1
    cutters: tuple[Seat, ...] = ()
    cut_numbers: tuple[int, ...] = ()
    hands: tuple[tuple[SlotId, ...], ...] = ()
    turn: Seat = -1
    trick: tuple[TrickPlay, ...] = ()
    won: tuple[tuple[SlotId, ...], ...] = ()
    trick_winners: tuple[Seat, ...] = ()
    scoring_left: int = 0
    layout: Layout = EMPTY_LAYOUT
    table: tuple[SlotId, ...] = ()
    history: tuple[Event, ...] = ()
    went_out: Seat = -1
    results: tuple[RoundResult, ...] = ()
    left: tuple[Seat, ...] = ()

    def present(self) -> tuple[Seat, ...]:
        """The seats still at the table, ascending (ruling D-1)."""
        return tuple(s for s in range(self.n) if s not in self.left)

    def next_seat(self, seat: Seat) -> Seat:
        """The next seat to the left of ``seat`` still at the table: play and the deal pass
        over a seat that left (ruling D-1)."""
        for k in range(1, self.n + 1):
            other = (seat + k) % self.n
            if other not in self.left:
                return other
        return seat

    def card(self, slot: SlotId) -> Card | None:
        """The card in ``slot`` if this state knows it (``None`` also for a slot of an earlier
        generation)."""
        offset = slot - self.base
        if not 0 <= offset < len(self.ident) or self.ident[offset] < 0:
            return None
        return CARDS[self.ident[offset]]

    def hand_cards(self, seat: Seat) -> list[Card | None]:
        """``seat``'s hand as cards (None for each card this state does not know)."""
        return [self.card(slot) for slot in self.hands[seat]]

    def totals(self) -> tuple[int, ...]:
        """Per seat, the running total after the finished rounds (ruling E-9)."""
        totals = [0] * self.n
        for result in self.results:
            for seat, value in enumerate(result.totals):
                totals[seat] += value
        return tuple(totals)
