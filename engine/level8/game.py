"""The Level 8 engine: both editions behind the one interface of
:class:`lancards.engine.core.Game`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    ChanceRequest,
    EngineError,
    InvalidActionError,
    KnowledgeError,
    Leave,
    Outcome,
    RandomIntRequest,
    RevealRequest,
    RulesError,
    Seat,
    Shuffle,
    ShuffleRequest,
    SlotId,
    seat_bit,
)
from lancards.engine.level8 import blocked, leaving, position, refusals, steps
from lancards.engine.level8.actions import (
    Action,
    Add,
    Choose,
    Discard,
    Draw,
    DrawDiscard,
    EndTurn,
    Keep,
    KeepEnd,
    LayDown,
    PlaySpecial,
    ServeSkip,
    Show,
    SwapEnd,
    SwapPut,
    format_action,
    parse_action,
)
from lancards.engine.level8.cards import Card, Kind, deck_counts
from lancards.engine.level8.laydown import enumerate_laydowns
from lancards.engine.level8.melds import Placed, add_options, natural
from lancards.engine.level8.rules import WIN_LEVEL, Level8Rules
from lancards.engine.level8.state import Level8State, Phase


def _plain(slot: SlotId, card: Card) -> Placed:
    return natural(slot, card) if card.is_number else Placed(slot, card)


def _distinct(hand: Sequence[tuple[SlotId, Card]]) -> list[tuple[SlotId, Card]]:
    """One (lowest) slot per face: identical jokers and special cards are interchangeable."""
    seen: dict[Card, SlotId] = {}
    for slot, card in sorted(hand):
        seen.setdefault(card, slot)
    return sorted(((s, c) for c, s in seen.items()), key=lambda x: (x[1], x[0]))


class Level8Game:
    """Level 8 and Level 8 Master (rulings L8-1 to L8-16, L8M-1 to L8M-3, L8C-1)."""

    name = "level8"

    # -- setup --------------------------------------------------------------------------------

    def new_game(self, rules: Level8Rules, n_seats: int) -> Level8State:
        """The state before the first dealer is drawn (ruling L8-2).

        Raises:
            RulesError: fewer than 2 or more than 6 seats, or a bad level-card choice (L8-14).
        """
        if not 2 <= n_seats <= 6:
            raise RulesError(f"Level 8 is for 2 to 6 players (got {n_seats}; ruling L8-2)")
        deck = rules.deck
        empty: tuple[tuple[SlotId, ...], ...] = ((),) * n_seats
        return Level8State(
            rules=rules,
            n=n_seats,
            level_cards=rules.level_cards(n_seats),
            cards=dict(enumerate(deck)),
            known=dict.fromkeys(range(len(deck)), ALL_SEATS),
            next_slot=len(deck),
            levels=(1,) * n_seats,
            dealer=-1,
            round=0,
            phase=Phase.DEALER,
            turn=0,
            gathered=tuple(range(len(deck))),
            hands=empty,
            pile=(),
            under=(),
            discards=empty,
            melds=(),
            in_front=empty,
            down=(False,) * n_seats,
        )

    # -- who acts, chance ----------------------------------------------------------------------

    def to_act(self, state: Level8State) -> Seat | None:
        """The seat to act, CHANCE, or None when the game is over."""
        if state.phase is Phase.OVER:
            return None
        return steps.actor(state)

    def chance_request(self, state: Level8State) -> ChanceRequest:
        """What chance must supply now.

        Raises:
            EngineError: chance is not to act.
        """
        if steps.actor(state) != CHANCE or state.phase is Phase.OVER:
            raise EngineError("chance is not to act")
        if state.phase is Phase.DEALER:
            return RandomIntRequest(len(state.present()), "first dealer")
        if state.reshuffle_due:
            return ShuffleRequest(tuple(sorted(state.reshufflable())), state.next_slot)
        if state.phase is Phase.SHUFFLE:
            return ShuffleRequest(tuple(sorted(state.gathered)), state.next_slot)
        return RevealRequest(state.pile[0])

    # -- legal actions -------------------------------------------------------------------------

    def legal_actions(self, state: Level8State, seat: Seat) -> list[Action]:
        """Every legal action of ``seat``, deterministic order; empty if ``seat`` is not to act.

        Lay-downs are canonical and at most :data:`lancards.engine.level8.laydown.MAX_LAYDOWNS`
        (see that module); identical faces (jokers, special cards) appear once, with the lowest
        slot. Only cards whose identity this state knows are offered.
        """
        if state.phase is Phase.OVER or steps.actor(state) != seat or seat == CHANCE:
            return []
        phase = state.phase
        hand = [(s, c) for s, c in state.hand_cards(seat) if c is not None]
        if phase is Phase.DRAW:
            out: list[Action] = [Draw(seat)]
            for owner, pile in enumerate(state.discards):
                if pile and (state.rules.specials_drawable or not state.cards[pile[-1]].is_special):
                    out.append(DrawDiscard(seat, owner))
            return out
        if phase is Phase.SKIPPED:
            return [ServeSkip(seat)]
        if phase is Phase.PLAY:
            return self._play_actions(state, seat, hand)
        if phase is Phase.SHOW:
            return self._show_actions(seat, hand)
        if phase is Phase.CHOOSE:
            shown = [s for slots in state.shown for s in slots]
            return [Choose(seat, None), *(Choose(seat, s) for s in shown)]
        if phase is Phase.SWAP:
            puts: list[Action] = []
            if state.swaps < 3:
                puts = [SwapPut(seat, _plain(s, c)) for s, c in _distinct(hand)]
            return [*puts, SwapEnd(seat)]
        if phase is Phase.KEEP:
            chosen = state.kept[seat]
            keeps: list[Action] = []
            if len(chosen) < steps.keep_allowance(state, seat):
                free = [(s, c) for s, c in hand if s not in chosen]
                keeps = [Keep(seat, s) for s, _ in _distinct(free)]
            return [*keeps, KeepEnd(seat)]
        return []

    def _play_actions(
        self, state: Level8State, seat: Seat, hand: list[tuple[SlotId, Card]]
    ) -> list[Action]:
        out: list[Action] = []
        if not hand:
            return [EndTurn(seat)]
        if not state.down[seat]:
            for groups in enumerate_laydowns(hand, state.level(seat)):
                out.append(LayDown(seat, groups))
        elif len(state.hands[seat]) >= 2:
            for slot, card in _distinct(hand):
                if card.is_number or card.is_joker:
                    for meld in state.melds:
                        out.extend(Add(seat, meld.id, p) for p in add_options(meld, slot, card))
        skip_free = [
            t for t in range(state.n)
            if t != seat and t not in state.left
            and not any(state.cards[s].kind is Kind.SKIP for s in state.in_front[t])
        ]
        for slot, card in _distinct(hand):
            out.append(Discard(seat, _plain(slot, card)))
            if card.kind in (Kind.TAKE, Kind.SWAP, Kind.KEEP):
                out.append(PlaySpecial(seat, Placed(slot, card)))
            elif card.kind is Kind.SKIP:
                out.extend(PlaySpecial(seat, Placed(slot, card), t) for t in skip_free)
        return out

    def _show_actions(self, seat: Seat, hand: list[tuple[SlotId, Card]]) -> list[Action]:
        need = min(3, len(hand))
        seen: set[tuple[Card, ...]] = set()
        out: list[Action] = []
        for combo in combinations(sorted(hand, key=lambda x: (x[1], x[0])), need):
            faces = tuple(c for _, c in combo)
            if faces not in seen:
                seen.add(faces)
                out.append(Show(seat, tuple(_plain(s, c) for s, c in combo)))
        return out

    # -- transitions ---------------------------------------------------------------------------

    def check(self, state: Level8State, action: Action) -> None:
        """Raise ``InvalidActionError`` (malformed) or ``IllegalActionError`` (against the
        rules; the message names seat, action and ruling) unless ``action`` is legal.

        :class:`~lancards.engine.core.Leave` is legal at any moment before the game is over
        for a seat that has not left (rulings D-1 to D-4,
        :func:`lancards.engine.level8.leaving.do_leave`)."""
        self.apply(state, action)

    def apply(self, state: Level8State, action: Action) -> Level8State:
        """Check ``action`` and return the state after it (same errors as :meth:`check`).

        After every action (a leave included) a round that no play can end ends at once
        (ruling L8-16, :func:`lancards.engine.level8.blocked.end_if_blocked`)."""
        if isinstance(action, Leave):
            after = leaving.do_leave(state, action).evolve(actions=state.actions + 1)
        else:
            after = steps.step(state, action)
        return blocked.end_if_blocked(after)

    # -- knowledge -----------------------------------------------------------------------------

    def view(self, state: Level8State, seat: Seat | None) -> Level8State:
        """``state`` with only the identities ``seat`` knows (None: only public ones)."""
        need = ALL_SEATS if seat is None else seat_bit(seat)
        known = state.known
        cards = {s: c for s, c in state.cards.items() if known.get(s, 0) & need == need}
        return state.evolve(cards=cards)

    def learn(self, state: Level8State, slot: SlotId, card: Card) -> Level8State:
        """Record privately learnt knowledge: ``slot`` is ``card``.

        Raises:
            KnowledgeError: no such slot, or ``card`` contradicts what is known.
        """
        if slot not in state.known:
            raise KnowledgeError(f"there is no slot #{slot} in play")
        error = refusals.claim_error(state, slot, card)
        if error:
            raise KnowledgeError(error)
        if state.cards.get(slot) == card:
            return state
        cards = dict(state.cards)
        cards[slot] = card
        return state.evolve(cards=cards)

    def knowledge(self, state: Level8State) -> Mapping[SlotId, int]:
        """Who knows each slot in play (bit masks; ``ALL_SEATS`` = public)."""
        return state.known

    def canonical_deck(self, rules: Level8Rules) -> tuple[Card, ...]:
        """The edition's deck in canonical order (ruling L8-1)."""
        return rules.deck

    def identity(self, state: Level8State, slot: SlotId) -> Card | None:
        """The identity of ``slot`` if ``state`` knows it."""
        return state.cards.get(slot)

    def public_action(self, action: Action) -> Action:
        """The record's form of ``action``: a shuffle's permutation is never shared."""
        if isinstance(action, Shuffle) and action.order is not None:
            return Shuffle(None)
        return action

    # -- the end -------------------------------------------------------------------------------

    def outcome(self, state: Level8State) -> Outcome | None:
        """Winners (ruling L8-11, or D-3) and levels reached (9 = WIN), or None while playing.

        ``detail``: ``rounds``; ``places``, per seat its 1-based place: the seats at the table
        by level, highest first, equal levels sharing a place (the winners first; ruling
        D-3), then the seats that left, the later leaver higher (ruling D-2); ``left``, the
        seats that left, in the order they left (each marked "left").
        """
        if state.phase is not Phase.OVER:
            return None
        detail = {"rounds": state.round, "places": list(self.places(state)),
                  "left": list(state.left)}
        return Outcome(state.winners, state.levels, detail)

    def places(self, state: Level8State) -> tuple[int, ...]:
        """Per seat, its 1-based place now (rulings D-2, D-3): winners first, then the seats
        at the table by level (equal levels share a place), then the seats that left, the
        later leaver higher."""
        def key(seat: Seat) -> int:
            return WIN_LEVEL + 1 if seat in state.winners else state.levels[seat]

        present = state.present()
        places = [0] * state.n
        for seat in present:
            places[seat] = 1 + sum(1 for other in present if key(other) > key(seat))
        for rank, seat in enumerate(reversed(state.left)):
            places[seat] = len(present) + 1 + rank
        return tuple(places)

    def left_seats(self, state: Level8State) -> tuple[Seat, ...]:
        """The seats that left the table for good, in the order they left (ruling D-2)."""
        return state.left

    def leaving_slots(self, state: Level8State, seat: Seat) -> tuple[SlotId, ...]:
        """Its hand and its gathered, not yet shuffled cards (D-1; ``leaving.leaving_slots``)."""
        return leaving.leaving_slots(state, seat)

    def invariant_violations(self, state: Level8State) -> list[str]:
        """Every card in exactly one place; the deck complete; known identities consistent."""
        problems: list[str] = []
        where: dict[SlotId, str] = {}
        for place, slots in state.places():
            for slot in slots:
                if slot in where:
                    problems.append(f"slot #{slot} is in {where[slot]} and in {place}")
                where[slot] = place
        deck_size = len(state.rules.deck)
        if len(where) != deck_size:
            problems.append(f"{len(where)} slots in play, the deck has {deck_size}")
        if set(where) != set(state.known):
            problems.append("the knowledge table does not match the slots in play")
        stray = set(state.cards) - set(where)
        if stray:
            problems.append(f"identities of slots not in play: {sorted(stray)[:5]}")
        counts = Counter(state.cards[s] for s in where if s in state.cards)
        full = deck_counts(state.rules.edition)
        for card, count in counts.items():
            if count > full.get(card, 0):
                problems.append(f"{count} copies of {card}, the deck has {full.get(card, 0)}")
        if len(state.cards) == deck_size and counts != full:
            problems.append("the known cards are not the deck")
        for seat, hand in enumerate(state.hands):
            if state.phase in (Phase.DRAW, Phase.PLAY) and len(hand) > 40:
                problems.append(f"seat {seat} holds {len(hand)} cards")
        if len(set(state.left)) != len(state.left) or len(state.out) != len(state.left):
            problems.append(f"the seats that left {state.left} do not match their hands")
        for seat in state.left:
            if not 0 <= seat < state.n:
                problems.append(f"seat {seat} left a table of {state.n}")
            elif state.hands[seat] or state.in_front[seat]:
                problems.append(f"seat {seat} left but holds cards or has cards in front")
        queued = {*state.show_queue, *state.keep_queue, *state.owed}
        if queued & set(state.left):
            problems.append(f"a seat that left ({state.left}) is still queued or owed a card")
        turn_phases = (Phase.DRAW, Phase.PLAY, Phase.SKIPPED, Phase.SWAP, Phase.SHOW,
                       Phase.CHOOSE)
        if state.phase in turn_phases and state.turn in state.left:
            problems.append(f"seat {state.turn} left but has the turn ({state.phase.value})")
        return problems

    # -- notation ----------------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        """Parse action notation (:mod:`lancards.engine.level8.actions`). Raises
        ``InvalidActionError`` (code ``notation``)."""
        try:
            return parse_action(text)
        except InvalidActionError as exc:
            raise exc.with_code("notation", text=text) from None

    def format_action(self, action: Action) -> str:
        """Format an action; :meth:`parse_action` round-trips it."""
        return format_action(action)

    def write_position(self, state: Level8State) -> str:
        """The position text of ``state`` (:mod:`lancards.engine.level8.position`)."""
        return position.write_position(state)

    def read_position(self, text: str) -> Level8State:
        """The state of a position text. Raises ``PositionError`` naming the bad line."""
        return position.read_position(text, self)

    def describe_action(self, state: Level8State, action: Action) -> str:
        """Action notation with card names where they alone pick the card (``1: discard R7``)."""
        return position.describe_action(state, action)

    def read_action(self, state: Level8State, text: str) -> Action:
        """Parse notation with or without slots in ``state`` (InvalidActionError,
        IllegalActionError)."""
        return position.read_action(state, text, self)


LEVEL8 = Level8Game()
"""The one Level 8 engine instance."""

