"""The 8s Rule! engine: :class:`EightsGame` implements :class:`lancards.engine.core.Game`.

Flow of a game (rulings E-1 to E-10):

1. High cut (E-2): chance shuffles the 60 cards, then one card per cutting seat is revealed
   (cutter ``i`` is shown the pile's card ``i``); the highest number deals; the tied seats cut
   again from a new shuffle. Skipped when the rules name the first dealer.
2. Each round: chance shuffles the deck and the engine deals it one card at a time clockwise,
   starting left of the dealer (E-1); a dealt slot is known to its holder only.
3. Rounds 1..7 are tricks (E-3, E-4) and may end early (E-5); round 8 is the layout (E-7).
4. Round end: every card left in a hand is revealed (public), the audit finds reneges (E-8),
   the round is scored, and the deal passes left (E-2). After round 8 the game is over (E-9).

Legality depends only on public information and on what the acting seat claims, so every peer
decides the same way: a played card's claimed identity is refused only if this engine knows the
slot holds another card, or knows the claimed card to be elsewhere. Follow suit (E-3) and the
round-8 duty to play (E-7) are not checked when a card is played (other hands are hidden); the
round-end audit finds those reneges (E-8). ``legal_actions`` offers only legal plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    ChanceRequest,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    KnowledgeError,
    Leave,
    Outcome,
    RandomInt,
    Reveal,
    RevealRequest,
    RulesError,
    Seat,
    Shuffle,
    ShuffleRequest,
    SlotId,
)

from . import position
from .actions import EightsAction, Pass, Play, format_action, parse_action, public_form
from .cards import CARDS, DECK_SIZE, NUMBERS, Card
from .outcome import final_outcome
from .play import (
    describe_layout,
    follow_suit_cards,
    is_eight_of_led_suit,
    is_playable,
    playable_cards,
)
from .rules import MAX_PLAYERS, MIN_PLAYERS
from .state import (
    EightsRules,
    EightsState,
    Phase,
)
from .transitions import (
    lay_card,
    leave,
    leave_end_reason,
    next_audit_slot,
    pass_turn,
    play_to_trick,
    reveal,
    set_at,
    shuffle,
)
from .verify import invariant_violations


def _is_permutation(order: object) -> bool:
    """Whether ``order`` is a tuple holding each of 0..59 once."""
    return (
        isinstance(order, tuple)
        and len(order) == DECK_SIZE
        and all(type(i) is int for i in order)
        and sorted(order) == list(range(DECK_SIZE))
    )


class EightsGame:
    """The 8s Rule! rules engine (rulings E-1 to E-10). Stateless; all methods are pure."""

    name = "eights"

    # -----------------------------------------------------------------------------------------
    # Setup and whose turn

    def new_game(self, rules: EightsRules, n_seats: int) -> EightsState:
        """The state before the first chance event: the deck, slots 0..59, public.

        Args:
            rules: from ``rule_set("eights").make_rules(...)`` or ``EightsRules(...)``.
            n_seats: 3..6 (ruling E-1).

        Raises:
            RulesError: ``rules`` is not an ``EightsRules``; the seat count is not 3..6; partners
                with 3 or 5 seats (ruling E-10); a first dealer outside the table.
        """
        if not isinstance(rules, EightsRules):
            raise RulesError(f"8s Rule! needs EightsRules, got {type(rules).__name__}")
        if not isinstance(n_seats, int) or not MIN_PLAYERS <= n_seats <= MAX_PLAYERS:
            raise RulesError(f"8s Rule! is for 3 to 6 players, not {n_seats!r} (ruling E-1)")
        if rules.partners and n_seats not in (4, 6):
            raise RulesError(
                f"option 'partners' needs 4 or 6 players, not {n_seats} (ruling E-10)"
            ).with_code("partners-seats", players=n_seats)
        first = rules.first_dealer
        if first is not None and not 0 <= first < n_seats:
            raise RulesError(f"first dealer {first} is not a seat of {n_seats} (ruling E-2)")
        common: dict[str, Any] = {
            "rules": rules,
            "n": n_seats,
            "base": 0,
            "ident": tuple(range(DECK_SIZE)),
            "known": (ALL_SEATS,) * DECK_SIZE,
            "pile": tuple(range(DECK_SIZE)),
            "hands": ((),) * n_seats,
            "won": ((),) * n_seats,
        }
        if first is None:
            return EightsState(phase=Phase.CUT_SHUFFLE, cutters=tuple(range(n_seats)), **common)
        return EightsState(phase=Phase.DEAL, round=1, dealer=first, **common)

    def to_act(self, state: EightsState) -> Seat | None:
        """The seat to act, :data:`~lancards.engine.core.CHANCE` (cut, deal, audit), or None
        when over."""
        phase = state.phase
        if phase is Phase.TRICKS or phase is Phase.LAYOUT:
            return state.turn
        if phase is Phase.OVER:
            return None
        return CHANCE

    def chance_request(self, state: EightsState) -> ChanceRequest:
        """What chance must supply now.

        Returns:
            ``ShuffleRequest`` of all 60 current slots (ascending) before a cut or a deal;
            ``RevealRequest`` of one slot during a cut (ruling E-2) or the round-end audit
            (ruling E-8).

        Raises:
            EngineError: chance is not to act.
        """
        phase = state.phase
        if phase is Phase.CUT_SHUFFLE or phase is Phase.DEAL:
            return ShuffleRequest(state.pile, state.base + DECK_SIZE)
        if phase is Phase.CUT_REVEAL:
            return RevealRequest(state.pile[len(state.cut_numbers)])
        if phase is Phase.AUDIT:
            slot = next_audit_slot(state)
            if slot is not None:
                return RevealRequest(slot)
        raise EngineError(f"chance is not to act now ({phase.name.lower()})")

    # -----------------------------------------------------------------------------------------
    # Legal actions

    def legal_actions(self, state: EightsState, seat: Seat) -> list[EightsAction]:
        """Every legal play of ``seat`` now, ordered by card (``take`` before ``no-take``).

        Rounds 1..7: the cards that follow suit (E-3), each 8 of the led suit twice, with
        "take" and "no take" (E-4). Round 8: the playable cards, or a pass if none (E-7). Only
        cards whose identity this state knows are offered; empty when ``seat`` is not to act
        (chance actions are not listed).
        """
        phase = state.phase
        if (phase is not Phase.TRICKS and phase is not Phase.LAYOUT) or seat != state.turn:
            return []
        base, ident = state.base, state.ident
        known = {ident[slot - base]: slot for slot in state.hands[seat] if ident[slot - base] >= 0}
        actions: list[EightsAction] = []
        if phase is Phase.LAYOUT:
            for card in playable_cards(known, state.layout):
                actions.append(Play(seat, known[card], CARDS[card]))
            return actions or [Pass(seat)]
        led = state.trick[0].card // NUMBERS if state.trick else None
        for card in follow_suit_cards(known, led):
            if is_eight_of_led_suit(card, led):
                actions.append(Play(seat, known[card], CARDS[card], True))
                actions.append(Play(seat, known[card], CARDS[card], False))
            else:
                actions.append(Play(seat, known[card], CARDS[card]))
        return actions

    # -----------------------------------------------------------------------------------------
    # Check and apply

    def check(self, state: EightsState, action: EightsAction) -> None:
        """Raise unless ``action`` may be applied now.

        Raises:
            InvalidActionError: not an 8s Rule! action, a bad seat, slot, card or shuffle order.
            IllegalActionError: against the rules: out of turn, a slot not in the hand, a claim
                contradicting a known identity, a missing or misplaced "take"/"no take" (E-4), a
                card that does not fit the layout (E-7), a pass outside round 8, a chance action
                that is not the one requested. The message names the seat and the ruling.

        :class:`~lancards.engine.core.Leave` is legal at any moment before the game is over,
        whoever is to act (chance too), for a seat that has not left: an unknown seat is an
        ``InvalidActionError``, a seat that already left or a finished game an
        ``IllegalActionError`` (rulings D-1, D-3). Its effect:
        :func:`lancards.engine.eights.transitions.leave`.
        """
        self._verify(state, action)

    def apply(self, state: EightsState, action: EightsAction) -> EightsState:
        """Check ``action`` (raising as :meth:`check`), then return the state after it."""
        card = self._verify(state, action)
        if isinstance(action, Play):
            if state.phase is Phase.TRICKS:
                return play_to_trick(state, action, card)
            return lay_card(state, action, card)
        if isinstance(action, Pass):
            return pass_turn(state, action.seat)
        if isinstance(action, Leave):
            return leave(state, action.seat)
        if isinstance(action, Shuffle):
            return shuffle(state, action.order)
        assert isinstance(action, Reveal)
        return reveal(state, action.slot, card)

    def _verify(self, state: EightsState, action: object) -> int:
        """Check ``action``; return the card index it plays or reveals (-1 if none)."""
        if isinstance(action, Leave):
            seat = action.seat
            if type(seat) is not int or not 0 <= seat < state.n:
                raise InvalidActionError(f"{action}: seat {seat!r} is not at this table"
                                         ).with_code("no-seat", action=action)
            if state.phase is Phase.OVER:
                raise IllegalActionError(f"{action}: the game is over (ruling D-3)").with_code(
                    "game-over", action=action)
            if seat in state.left:
                raise IllegalActionError(
                    f"{action}: seat {seat} has already left the table (ruling D-1)"
                ).with_code("left-already", action=action, seat=seat)
            return -1
        if isinstance(action, Play | Pass):
            return self._verify_turn(state, action)
        if isinstance(action, Shuffle | Reveal | RandomInt):
            if action.seat != CHANCE:
                raise InvalidActionError(f"{action}: chance actions have seat {CHANCE}")
            if self.to_act(state) != CHANCE:
                raise IllegalActionError(
                    f"{action}: chance is not to act, seat {self.to_act(state)} is"
                )
            request = self.chance_request(state)
            if isinstance(action, Shuffle) and isinstance(request, ShuffleRequest):
                order = action.order
                if order is not None and not _is_permutation(order):
                    raise InvalidActionError(
                        f"shuffle order is not a permutation of 0..{DECK_SIZE - 1}"
                    )
                return -1
            if isinstance(action, Reveal) and isinstance(request, RevealRequest):
                if action.slot != request.slot:
                    raise IllegalActionError(
                        f"{action}: slot #{request.slot} is to be revealed, not #{action.slot}"
                    )
                return self._verify_identity(state, "reveal", action.slot, action.card)
            raise IllegalActionError(f"{action}: chance must answer {request}")
        raise InvalidActionError(f"{action!r} is not an 8s Rule! action")

    def _verify_turn(self, state: EightsState, action: Play | Pass) -> int:
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            raise InvalidActionError(f"{action}: seat {seat!r} is not at this table"
                                     ).with_code("no-seat", action=action)
        if isinstance(action, Play):
            if not isinstance(action.card, Card):
                raise InvalidActionError(f"{action}: {action.card!r} is not a card of the deck"
                                         ).with_code("notation", action=action)
            if not isinstance(action.slot, int) or not 0 <= action.slot - state.base < DECK_SIZE:
                raise InvalidActionError(f"{action}: slot #{action.slot} is not a current slot"
                                         ).with_code("no-slot", action=action)
            if action.take is not None and not isinstance(action.take, bool):
                raise InvalidActionError(f"{action}: take must be True, False or None"
                                         ).with_code("notation", action=action)
        phase = state.phase
        if phase is not Phase.TRICKS and phase is not Phase.LAYOUT:
            raise IllegalActionError(f"{action}: no seat plays now ({phase.name.lower()})"
                                     ).with_code("nobody-plays", action=action)
        if seat != state.turn:
            raise IllegalActionError(
                f"{action}: seat {seat} acts out of turn; seat {state.turn} is to play (ruling E-3)"
            ).with_code("not-your-move", action=action, seat=state.turn, phase="play")
        if isinstance(action, Pass):
            if phase is Phase.TRICKS:
                raise IllegalActionError(
                    f"{action}: seat {seat} may not pass in round {state.round}; passing is "
                    "only in round 8 (rulings E-3, E-7)"
                ).with_code("no-pass", action=action, round=state.round)
            return -1  # a pass with a playable card is a renege found by the audit (E-8)
        if action.slot not in state.hands[seat]:
            raise IllegalActionError(f"{action}: slot #{action.slot} is not in seat {seat}'s hand"
                                     ).with_code("not-in-hand", action=action, seat=seat,
                                                 card=action.card)
        card = self._verify_identity(state, f"seat {seat}", action.slot, action.card, action)
        take = action.take
        if phase is Phase.LAYOUT:
            if take is not None:
                raise IllegalActionError(
                    f"{action}: 'take' and 'no-take' are for trick rounds only (ruling E-4)"
                ).with_code("take-in-layout", action=action)
            if not is_playable(card, state.layout):
                raise IllegalActionError(
                    f"{action}: {action.card} does not fit the layout "
                    f"({describe_layout(state.layout)}); play an 8, or the next card up or down "
                    "in an opened suit (ruling E-7)"
                ).with_code("off-layout", action=action, card=action.card)
            return card
        led = state.trick[0].card // NUMBERS if state.trick else None
        if is_eight_of_led_suit(card, led):
            if not isinstance(take, bool):
                raise IllegalActionError(
                    f"{action}: seat {seat} must declare 'take' or 'no-take' with the 8 of the "
                    "led suit (ruling E-4)"
                ).with_code("declare-take", action=action)
        elif take is not None:
            raise IllegalActionError(
                f"{action}: only the 8 of the led suit is played with 'take' or 'no-take' "
                "(ruling E-4)"
            ).with_code("take-not-eight", action=action)
        return card

    def _verify_identity(self, state: EightsState, who: str, slot: SlotId, card: object,
                         action: object = None) -> int:
        """The index of ``card`` claimed for ``slot``; the errors' ``params`` name ``action``."""
        if not isinstance(card, Card):
            raise InvalidActionError(f"{who}: {card!r} is not a card of the 60-card deck"
                                     ).with_code("notation", action=action)
        index = card.index
        offset = slot - state.base
        if not 0 <= offset < DECK_SIZE:
            raise InvalidActionError(f"{who}: slot #{slot} is not a current card slot"
                                     ).with_code("no-slot", action=action)
        current = state.ident[offset]
        if current >= 0 and current != index:
            raise IllegalActionError(
                f"{who}: claims slot #{slot} is {card}, but it holds {CARDS[current]}"
            ).with_code("wrong-card", action=action, card=card, known=CARDS[current])
        if current < 0 and index in state.ident:
            elsewhere = state.base + state.ident.index(index)
            raise IllegalActionError(
                f"{who}: claims slot #{slot} is {card}, but {card} is known to be slot #{elsewhere}"
            ).with_code("card-elsewhere", action=action, card=card)
        return index

    # -----------------------------------------------------------------------------------------
    # Knowledge

    def view(self, state: EightsState, seat: Seat | None) -> EightsState:
        """``state`` with every identity ``seat`` does not know removed.

        Args:
            state: any state (a peer's partial state too).
            seat: a seat, or None for a spectator (public identities only).

        Raises:
            EngineError: ``seat`` is not at this table.
        """
        pairs = zip(state.ident, state.known, strict=True)
        if seat is None:
            ident = tuple([c if k == ALL_SEATS else -1 for c, k in pairs])
        else:
            if not isinstance(seat, int) or not 0 <= seat < state.n:
                raise EngineError(f"seat {seat!r} is not at this table of {state.n}")
            bit = 1 << seat
            ident = tuple([c if k & bit else -1 for c, k in pairs])
        if ident == state.ident:
            return state
        return replace(state, ident=ident)

    def learn(self, state: EightsState, slot: SlotId, card: Any) -> EightsState:
        """Record that ``slot`` holds ``card`` (a peer's own dealt card, learned privately).

        Raises:
            KnowledgeError: ``card`` is not a card of the deck, ``slot`` is not a current slot,
                the slot is known to hold another card, or the card is known to be elsewhere.
        """
        try:
            index = self._verify_identity(state, "learn", slot, card)
        except (InvalidActionError, IllegalActionError) as exc:
            raise KnowledgeError(str(exc)) from None
        return replace(state, ident=set_at(state.ident, slot - state.base, index))

    def public_action(self, action: EightsAction) -> EightsAction:
        """The form of ``action`` in the shared record: ``Shuffle(order)`` becomes
        ``Shuffle(None)``; a played card is public and stays."""
        return public_form(action)

    def knowledge(self, state: EightsState) -> Mapping[SlotId, int]:
        """Who knows each of the 60 current slots (bit masks; ``ALL_SEATS`` = public)."""
        return {state.base + i: mask for i, mask in enumerate(state.known)}

    def canonical_deck(self, rules: EightsRules) -> tuple[Card, ...]:
        """The 60 cards by index (ruling E-1)."""
        return CARDS

    def identity(self, state: EightsState, slot: SlotId) -> Card | None:
        """The card in ``slot`` if this state knows it, else None."""
        return state.card(slot)

    # -----------------------------------------------------------------------------------------
    # Results, checks, notation, bot

    def leave_end_reason(self, state: EightsState, seat: Seat) -> str | None:
        """Why ``seat`` leaving (or being removed) now would end the game (ruling D-3):
        ``"too-few"`` (fewer than 3 players left), ``"team"`` (partners: its team loses a
        member, E-10); ``None`` when the game goes on, or is over, or the seat has left."""
        if state.phase is Phase.OVER or seat in state.left:
            return None
        return leave_end_reason(state, (*state.left, seat))

    def outcome(self, state: EightsState) -> Outcome | None:
        """Winners, totals and details once the game is over (ruling E-9; partners E-10)."""
        if state.phase is not Phase.OVER:
            return None
        return final_outcome(state)

    def left_seats(self, state: EightsState) -> tuple[Seat, ...]:
        """The seats that left the table for good, in the order they left (ruling D-2)."""
        return state.left

    def leaving_slots(self, state: EightsState, seat: Seat) -> tuple[SlotId, ...]:
        """Its hand (D-1: the round is abandoned and dealt again from a fresh deck, so no
        other card it knows stays in play)."""
        return tuple(state.hands[seat])

    def invariant_violations(self, state: EightsState) -> list[str]:
        """Every broken invariant; empty when sound (every card in exactly one place...)."""
        return invariant_violations(state)

    def parse_action(self, text: str) -> EightsAction:
        """Parse action notation. Raises ``InvalidActionError`` (code ``notation``)."""
        try:
            return parse_action(text)
        except InvalidActionError as exc:
            raise exc.with_code("notation", text=text) from None

    def format_action(self, action: EightsAction) -> str:
        """Action notation; :meth:`parse_action` round-trips it."""
        return format_action(action)

    def write_position(self, state: EightsState) -> str:
        """The position text of ``state`` (:mod:`lancards.engine.eights.position`)."""
        return position.write_position(state)

    def read_position(self, text: str) -> EightsState:
        """The state of a position text. Raises ``PositionError`` naming the bad line."""
        return position.read_position(text, self)

    def describe_action(self, state: EightsState, action: EightsAction) -> str:
        """Action notation with the card's name alone where it finds the card
        (``2: play B8 take``)."""
        return position.describe_action(state, action, self)

    def read_action(self, state: EightsState, text: str) -> EightsAction:
        """Parse notation with or without slots in ``state`` (InvalidActionError,
        IllegalActionError)."""
        return position.read_action(state, text, self)

    def objective_lines(self, state: EightsState) -> list[str]:
        """The round objectives for the interface, the source line first (ruling E-6)."""
        objectives = state.rules.objectives
        lines = [f"Objectives: {objectives.notice}"]
        lines += [f"Round {o.number}. {o.describe()}" for o in objectives.rounds]
        lines.append("Round 8. Layout from the 8s: +10 per card left, -25 for going out")
        return lines

