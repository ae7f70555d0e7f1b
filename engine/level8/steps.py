"""Level 8 transitions: one handler per action type, shared by ``check`` and ``apply``.

Every handler validates its action against the state and returns the next state, so legality
has one source (pokerkit's verify/can/do triad folded into one). Legality depends only on
public information and on what the acting seat claims (the identity of a card it shows): an
engine that does not know a slot accepts a claim that no known card contradicts, so all peers
decide alike; the mental-poker layer proves the claim separately.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    InvalidActionError,
    Leave,
    RandomInt,
    Reveal,
    Seat,
    Shuffle,
    SlotId,
    seat_bit,
)
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
)
from lancards.engine.level8.cards import Card, Kind
from lancards.engine.level8.melds import Meld, Placed, add_error, make_meld, natural, with_card
from lancards.engine.level8.refusals import claim_error, claim_refusal, fail, malformed
from lancards.engine.level8.rules import HAND_SIZE, WIN_LEVEL
from lancards.engine.level8.state import Level8State, Phase, set_at, without

# ---------------------------------------------------------------------------------------------
# Knowledge


def reveal(state: Level8State, placed: list[Placed] | tuple[Placed, ...]) -> dict[str, Any]:
    """Changes that make the placed cards' identities public."""
    cards = dict(state.cards)
    known = dict(state.known)
    for p in placed:
        cards[p.slot] = p.card
        known[p.slot] = ALL_SEATS
    return {"cards": cards, "known": known}


def _own(state: Level8State, action: Action, p: Placed, ruling: str = "L8-3") -> None:
    """``p`` is in the actor's hand and its identity claim holds."""
    if p.slot not in state.known:
        malformed(action, f"there is no slot #{p.slot} in play", "no-slot")
    if p.slot not in state.hands[action.seat]:
        fail(state, action, f"{p.card}#{p.slot} is not in the hand of seat {action.seat} "
             f"(it is in {state.where(p.slot)})", ruling, "not-in-hand", seat=action.seat,
             card=p.card)
    refusal = claim_refusal(state, p.slot, p.card)
    if refusal:
        fail(state, action, refusal[0], ruling, refusal[1], **refusal[2])


def _plain(action: Action, p: Placed) -> None:
    if p != natural(p.slot, p.card) and p != Placed(p.slot, p.card):
        malformed(action, f"a card that is not laid takes no declaration ({p})", "declared")


# ---------------------------------------------------------------------------------------------
# Chance


def shuffle_into_pile(
    state: Level8State, slots: tuple[SlotId, ...], action: Shuffle
) -> dict[str, Any]:
    """Changes for shuffling ``slots`` (ascending) into a new draw pile of fresh slots."""
    if action.order is not None and len(action.order) != len(slots):
        malformed(action, f"the order has {len(action.order)} places for {len(slots)} cards")
    cards = dict(state.cards)
    known = dict(state.known)
    first = state.next_slot
    olds = [cards.pop(s, None) for s in slots]
    for s in slots:
        del known[s]
    for i in range(len(slots)):
        known[first + i] = 0
        if action.order is not None:
            old = olds[action.order[i]]
            if old is not None:
                cards[first + i] = old
    pile = tuple(range(first, first + len(slots)))
    return {"cards": cards, "known": known, "next_slot": first + len(slots), "pile": pile}


def chance(state: Level8State, action: Action) -> Level8State:
    """Apply a chance action."""
    if isinstance(action, RandomInt):
        present = state.present()
        if state.phase is not Phase.DEALER or action.n != len(present):
            fail(state, action, f"no random seat out of {action.n} is due", "L8-2")
        # the value-th seat still at the table (all seats unless one left first, D-1)
        return state.evolve(dealer=present[action.value], round=1, phase=Phase.SHUFFLE)
    if isinstance(action, Shuffle):
        if state.reshuffle_due:
            slots = tuple(sorted(state.reshufflable()))
            changes = shuffle_into_pile(state, slots, action)
            discards = tuple(d[-1:] for d in state.discards)
            state = state.evolve(**changes, under=(), discards=discards, reshuffle_due=False)
            return settle(state)
        if state.phase is not Phase.SHUFFLE:
            fail(state, action, "no shuffle is due", "L8-12")
        slots = tuple(sorted(state.gathered))
        state = state.evolve(**shuffle_into_pile(state, slots, action), gathered=())
        return deal(state)
    if isinstance(action, Reveal):
        if state.phase is not Phase.FLIP or action.slot != state.pile[0]:
            fail(state, action, "only the top card of the draw pile is turned now", "L8-2")
        if not isinstance(action.card, Card):
            malformed(action, "the revealed card is not a Level 8 card")
        error = claim_error(state, action.slot, action.card)
        if error:
            fail(state, action, error, "L8-2")
        changes = reveal(state, [Placed(action.slot, action.card)])
        discards = set_at(state.discards, state.dealer, (action.slot,))
        return state.evolve(**changes, pile=state.pile[1:], discards=discards,
                            phase=Phase.DRAW, turn=state.next_seat(state.dealer))
    malformed(action, "not a chance action")


def deal(state: Level8State) -> Level8State:
    """Deal up to 10 cards each, one at a time from the dealer's left (L8-2, L8-12), over
    the seats still at the table (D-1)."""
    hands = [list(h) for h in state.hands]
    known = dict(state.known)
    pile = list(state.pile)
    order = _seats_from_left_of(state, state.dealer)
    while pile and any(len(hands[s]) < HAND_SIZE for s in order):
        for seat in order:
            if len(hands[seat]) < HAND_SIZE and pile:
                slot = pile.pop(0)
                hands[seat].append(slot)
                known[slot] = seat_bit(seat)
    return state.evolve(hands=tuple(map(tuple, hands)), known=known, pile=tuple(pile),
                        phase=Phase.FLIP)


def settle(state: Level8State) -> Level8State:
    """Hand out owed face-down cards, asking for a reshuffle when the pile runs out (L8-9)."""
    while state.owed and not state.reshuffle_due:
        seat = state.owed[0]
        if state.pile:
            slot = state.pile[0]
            known = dict(state.known)
            known[slot] = seat_bit(seat)
            state = state.evolve(
                pile=state.pile[1:],
                hands=set_at(state.hands, seat, (*state.hands[seat], slot)),
                known=known,
                owed=state.owed[1:],
            )
            if not state.pile and state.rules.reshuffle == "eager" and state.reshufflable():
                state = state.evolve(reshuffle_due=True)
        elif state.reshufflable():
            state = state.evolve(reshuffle_due=True)
        else:
            state = state.evolve(owed=state.owed[1:])  # no face-down card at all: skipped
    return state


# ---------------------------------------------------------------------------------------------
# Turn flow


def _seats_from_left_of(state: Level8State, seat: Seat) -> list[Seat]:
    """The seats still at the table in play order, starting left of ``seat`` (D-1)."""
    return [s for k in range(1, state.n + 1)
            if (s := (seat + k) % state.n) not in state.left]


def next_turn(state: Level8State) -> Level8State:
    """End the current turn: the next seat draws, or serves a Skip card in front of it; play
    passes over the seats that left (ruling D-1)."""
    seat = state.next_seat(state.turn)
    skipped = any(state.cards.get(s) is not None and state.cards[s].kind is Kind.SKIP
                  for s in state.in_front[seat])
    return settle(state.evolve(turn=seat, phase=Phase.SKIPPED if skipped else Phase.DRAW))


def keep_allowance(state: Level8State, seat: Seat) -> int:
    """How many hand cards ``seat`` may keep at this round end (ruling L8-13)."""
    if state.down[seat]:
        return 0
    allowance = 4 if state.rules.keeps_four(state.rules.side_of(seat), state.levels[seat]) else 0
    if state.rules.is_master:
        allowance += 3 * sum(1 for s in state.in_front[seat] if state.cards[s].kind is Kind.KEEP)
    return min(allowance, len(state.hands[seat]))


def round_end(state: Level8State, went_out: Seat) -> Level8State:
    """Levels advance (L8-10), the game may be won (L8-11), else cards are kept (L8-13).

    Only the seat that went out can pass level 8 (two levels past 7, or out from level 8); a
    seat that laid down but did not go out advances one level and stops at 8 (ruling L8-11,
    which matters under ``level8_win=on_going_out``), so a game never has two winners.
    """
    levels = tuple(
        level if seat in state.left
        else min(WIN_LEVEL, level + 2) if seat == went_out
        else min(8, level + 1) if state.down[seat] else level
        for seat, level in enumerate(state.levels)
    )
    winners = tuple(s for s, level in enumerate(levels) if level >= WIN_LEVEL)
    if winners:
        return state.evolve(levels=levels, went_out=went_out, winners=winners, phase=Phase.OVER,
                            owed=(), reshuffle_due=False)
    order = _seats_from_left_of(state, state.dealer)
    queue = tuple(s for s in order if keep_allowance(state, s) > 0)
    state = state.evolve(went_out=went_out, phase=Phase.KEEP, keep_queue=queue,
                         kept=((),) * state.n, owed=(), reshuffle_due=False)
    state = state.evolve(levels=levels)
    return new_round(state) if not queue else state


def new_round(state: Level8State) -> Level8State:
    """Gather everything but the kept cards; the deal passes left (L8-12, L8-13)."""
    kept = state.kept or ((),) * state.n
    gathered: list[SlotId] = [*state.gathered, *state.pile, *state.under]
    for seat in range(state.n):
        gathered += [s for s in state.hands[seat] if s not in kept[seat]]
        gathered += [*state.discards[seat], *state.in_front[seat]]
    for meld in state.melds:
        gathered += [p.slot for p in meld.cards]
    known = dict(state.known)
    for seat in range(state.n):
        for slot in kept[seat]:
            known[slot] = seat_bit(seat)  # kept cards stay secret (L8-13)
    empty = ((),) * state.n
    return state.evolve(
        gathered=tuple(gathered), hands=kept, known=known, pile=(), under=(), discards=empty,
        melds=(), in_front=empty, down=(False,) * state.n, next_meld=0, shown=(),
        show_queue=(), swaps=0, keep_queue=(), kept=(), went_out=-1, owed=(),
        dealer=state.next_seat(state.dealer), round=state.round + 1, phase=Phase.SHUFFLE,
    )


def _end_with(state: Level8State, seat: Seat) -> Level8State:
    """After the turn's last act: the round ends if the hand is empty (L8-8), else next turn."""
    if not state.hands[seat]:
        return round_end(state, seat)
    return next_turn(state)


def _move_out(state: Level8State, seat: Seat, slot: SlotId) -> tuple[tuple[SlotId, ...], ...]:
    return set_at(state.hands, seat, without(state.hands[seat], slot))


# ---------------------------------------------------------------------------------------------
# Player actions


def _turn_guard(state: Level8State, action: Action, phase: Phase) -> None:
    if not 0 <= action.seat < state.n:
        malformed(action, f"there is no seat {action.seat}", "no-seat")
    if state.phase is Phase.OVER:
        fail(state, action, "the game is over", "L8-11", "game-over")
    if state.phase is not phase or action.seat != _actor(state):
        fail(state, action, _whose(state), "L8-3", "not-your-move", seat=_actor(state),
             phase=state.phase.value)


def _actor(state: Level8State) -> Seat:
    if state.reshuffle_due or state.phase in (Phase.DEALER, Phase.SHUFFLE, Phase.FLIP):
        return CHANCE
    if state.phase is Phase.SHOW:
        return state.show_queue[0]
    if state.phase is Phase.KEEP:
        return state.keep_queue[0]
    return state.turn


def _whose(state: Level8State) -> str:
    actor = _actor(state)
    if actor == CHANCE:
        return "chance must act first (a shuffle or a card turned up)"
    return f"it is seat {actor}'s move ({state.phase.value})"


def do_draw(state: Level8State, action: Draw) -> Level8State:
    _turn_guard(state, action, Phase.DRAW)
    return settle(state.evolve(phase=Phase.PLAY, owed=(action.seat,)))


def do_draw_discard(state: Level8State, action: DrawDiscard) -> Level8State:
    _turn_guard(state, action, Phase.DRAW)
    if not 0 <= action.owner < state.n:
        malformed(action, f"there is no seat {action.owner}", "no-seat")
    pile = state.discards[action.owner]
    if not pile:
        fail(state, action, f"the discard pile of seat {action.owner} is empty", "L8-3",
             "empty-discard-pile", seat=action.owner)
    top = state.cards[pile[-1]]
    if top.is_special and not state.rules.specials_drawable:
        fail(state, action, f"{top} may not be drawn from a discard pile", "L8-15",
             "special-not-drawable", card=top)
    hands = set_at(state.hands, action.seat, (*state.hands[action.seat], pile[-1]))
    discards = set_at(state.discards, action.owner, pile[:-1])
    return state.evolve(hands=hands, discards=discards, phase=Phase.PLAY)


def _spare_one(state: Level8State, action: Action, count: int) -> None:
    if len(state.hands[action.seat]) - count < 1:
        fail(state, action, "a card must stay in hand for the discard", "L8-8", "keep-one")


def do_lay_down(state: Level8State, action: LayDown) -> Level8State:
    _turn_guard(state, action, Phase.PLAY)
    seat = action.seat
    if state.down[seat]:
        fail(state, action, "the level is already laid down this round", "L8-5", "down-already")
    level = state.level(seat)
    if len(action.groups) != len(level):
        fail(state, action, f"level {state.levels[seat]} has {len(level)} components, "
             f"not {len(action.groups)}", "L8-5", "level-parts", level=state.levels[seat],
             count=len(level), given=len(action.groups))
    placed = [p for g in action.groups for p in g]
    if len({p.slot for p in placed}) != len(placed):
        malformed(action, "a card is used twice", "card-twice")
    for p in placed:
        _own(state, action, p, "L8-5")
    _spare_one(state, action, len(placed))
    melds: list[Meld] = []
    for index, (component, group) in enumerate(zip(level, action.groups, strict=True)):
        meld = make_meld(state.next_meld + index, seat, component.kind, component.size, group)
        if isinstance(meld, str):
            fail(state, action, f"group {index + 1} is not a {component}: {meld}", "L8-5",
                 "not-component", group=index + 1, component=component)
        melds.append(meld)
    hand = tuple(s for s in state.hands[seat] if s not in {p.slot for p in placed})
    state = state.evolve(
        **reveal(state, placed), hands=set_at(state.hands, seat, hand),
        melds=(*state.melds, *melds), next_meld=state.next_meld + len(melds),
        down=set_at(state.down, seat, True),
    )
    if state.levels[seat] == 8 and state.rules.level8_win == "on_laydown":
        return state.evolve(levels=set_at(state.levels, seat, WIN_LEVEL), winners=(seat,),
                            phase=Phase.OVER)
    return state


def do_add(state: Level8State, action: Add) -> Level8State:
    _turn_guard(state, action, Phase.PLAY)
    if not state.down[action.seat]:
        fail(state, action, "only a player whose level is down adds cards", "L8-7", "not-down")
    meld = next((m for m in state.melds if m.id == action.meld), None)
    if meld is None:
        malformed(action, f"there is no meld {action.meld}", "no-meld", meld=action.meld)
    _own(state, action, action.card, "L8-7")
    _spare_one(state, action, 1)
    error = add_error(meld, action.card)
    if error:
        fail(state, action, error, "L8-7", "does-not-fit", card=action.card.card,
             meld=action.meld)
    melds = tuple(with_card(m, action.card) if m.id == meld.id else m for m in state.melds)
    return state.evolve(**reveal(state, [action.card]), melds=melds,
                        hands=_move_out(state, action.seat, action.card.slot))


def do_discard(state: Level8State, action: Discard) -> Level8State:
    _turn_guard(state, action, Phase.PLAY)
    _plain(action, action.card)
    _own(state, action, action.card)
    slot = action.card.slot
    state = state.evolve(
        **reveal(state, [action.card]), hands=_move_out(state, action.seat, slot),
        discards=set_at(state.discards, action.seat, (*state.discards[action.seat], slot)),
    )
    return _end_with(state, action.seat)


def do_play_special(state: Level8State, action: PlaySpecial) -> Level8State:
    _turn_guard(state, action, Phase.PLAY)
    _plain(action, action.card)
    _own(state, action, action.card)
    seat, slot, kind = action.seat, action.card.slot, action.card.card.kind
    master_kinds = (Kind.TAKE, Kind.SWAP, Kind.KEEP)
    if kind not in (*master_kinds, Kind.SKIP):
        fail(state, action, f"{action.card.card} is not a special card", "L8-3", "not-special",
             card=action.card.card)
    if (kind is Kind.SKIP) != (action.target is not None):
        malformed(action, "a Skip card needs a target seat, other special cards none",
                  "skip-target")
    if kind is Kind.SKIP:
        target = action.target
        assert target is not None
        if not 0 <= target < state.n:
            malformed(action, f"there is no seat {target}", "no-seat")
        if target == seat:
            fail(state, action, "a Skip card goes in front of another player", "L8C-1",
                 "skip-self")
        if target in state.left:
            fail(state, action, f"seat {target} has left the table", "D-1", "has-left",
                 seat=target)
        if any(state.cards[s].kind is Kind.SKIP for s in state.in_front[target]):
            fail(state, action, f"seat {target} already has a Skip card in front", "L8C-1",
                 "has-skip", seat=target)
    state = state.evolve(**reveal(state, [action.card]), hands=_move_out(state, seat, slot))
    if not state.hands[seat]:  # played as the last card: no effect (L8-8)
        discards = set_at(state.discards, seat, (*state.discards[seat], slot))
        return round_end(state.evolve(discards=discards), seat)
    if kind is Kind.KEEP:
        in_front = set_at(state.in_front, seat, (*state.in_front[seat], slot))
        return next_turn(state.evolve(in_front=in_front))
    if kind is Kind.SKIP:
        assert action.target is not None
        target_front = (*state.in_front[action.target], slot)
        return next_turn(state.evolve(in_front=set_at(state.in_front, action.target, target_front)))
    state = state.evolve(under=(*state.under, slot))
    if kind is Kind.SWAP:
        return state.evolve(phase=Phase.SWAP, swaps=0)
    queue = tuple(s for s in _seats_from_left_of(state, seat) if s != seat and state.hands[s])
    if not queue:
        return next_turn(state)
    return state.evolve(phase=Phase.SHOW, show_queue=queue, shown=((),) * state.n)


def do_show(state: Level8State, action: Show) -> Level8State:
    _turn_guard(state, action, Phase.SHOW)
    seat = action.seat
    need = min(3, len(state.hands[seat]))
    if len(action.cards) != need:
        fail(state, action, f"seat {seat} must show {need} cards", "L8M-1", "show-count",
             seat=seat, count=need)
    if len({p.slot for p in action.cards}) != len(action.cards):
        malformed(action, "a card is shown twice", "card-twice")
    for p in action.cards:
        _plain(action, p)
        _own(state, action, p, "L8M-1")
    shown = set_at(state.shown, seat, tuple(p.slot for p in action.cards))
    queue = state.show_queue[1:]
    return state.evolve(**reveal(state, action.cards), shown=shown, show_queue=queue,
                        phase=Phase.SHOW if queue else Phase.CHOOSE)


def do_choose(state: Level8State, action: Choose) -> Level8State:
    _turn_guard(state, action, Phase.CHOOSE)
    state_after = state.evolve(shown=())
    if action.slot is None:
        return next_turn(state_after)
    owner = next((s for s, slots in enumerate(state.shown) if action.slot in slots), None)
    if owner is None:
        fail(state, action, f"#{action.slot} is not among the shown cards", "L8M-1",
             "not-shown")
    hands = _move_out(state, owner, action.slot)
    hands = set_at(hands, action.seat, (*hands[action.seat], action.slot))
    return next_turn(state_after.evolve(hands=hands, owed=(owner,)))


def do_swap_put(state: Level8State, action: SwapPut) -> Level8State:
    _turn_guard(state, action, Phase.SWAP)
    if state.swaps >= 3:
        fail(state, action, "at most 3 cards are swapped", "L8M-2", "swap-limit")
    _plain(action, action.card)
    _own(state, action, action.card, "L8M-2")
    seat, slot = action.seat, action.card.slot
    return state.evolve(
        **reveal(state, [action.card]), hands=_move_out(state, seat, slot),
        discards=set_at(state.discards, seat, (*state.discards[seat], slot)),
        swaps=state.swaps + 1,
    )


def do_swap_end(state: Level8State, action: SwapEnd) -> Level8State:
    _turn_guard(state, action, Phase.SWAP)
    return next_turn(state.evolve(owed=(action.seat,) * state.swaps, swaps=0))


def do_serve_skip(state: Level8State, action: ServeSkip) -> Level8State:
    _turn_guard(state, action, Phase.SKIPPED)
    seat = action.seat
    skip = next(s for s in state.in_front[seat] if state.cards[s].kind is Kind.SKIP)
    return next_turn(state.evolve(in_front=set_at(state.in_front, seat,
                                                  without(state.in_front[seat], skip)),
                                  under=(*state.under, skip)))


def do_keep(state: Level8State, action: Keep) -> Level8State:
    _turn_guard(state, action, Phase.KEEP)
    seat = action.seat
    if action.slot not in state.hands[seat]:
        fail(state, action, f"#{action.slot} is not in the hand of seat {seat}", "L8-13",
             "not-in-hand", seat=seat)
    if action.slot in state.kept[seat]:
        fail(state, action, f"#{action.slot} is already kept", "L8-13", "kept-already")
    allowance = keep_allowance(state, seat)
    if len(state.kept[seat]) >= allowance:
        fail(state, action, f"seat {seat} may keep at most {allowance} cards", "L8-13",
             "keep-limit", seat=seat, count=allowance)
    return state.evolve(kept=set_at(state.kept, seat, (*state.kept[seat], action.slot)))


def do_keep_end(state: Level8State, action: KeepEnd) -> Level8State:
    _turn_guard(state, action, Phase.KEEP)
    queue = state.keep_queue[1:]
    state = state.evolve(keep_queue=queue)
    return state if queue else new_round(state)


def do_end_turn(state: Level8State, action: EndTurn) -> Level8State:
    _turn_guard(state, action, Phase.PLAY)
    if state.hands[action.seat]:
        fail(state, action, "a turn ends with a discard or a special card", "L8-3",
             "end-with-cards")
    return next_turn(state)


HANDLERS: dict[type, Callable[[Level8State, Any], Level8State]] = {
    Draw: do_draw,
    DrawDiscard: do_draw_discard,
    LayDown: do_lay_down,
    Add: do_add,
    Discard: do_discard,
    PlaySpecial: do_play_special,
    Show: do_show,
    Choose: do_choose,
    SwapPut: do_swap_put,
    SwapEnd: do_swap_end,
    ServeSkip: do_serve_skip,
    Keep: do_keep,
    KeepEnd: do_keep_end,
    EndTurn: do_end_turn,
}


def step(state: Level8State, action: Action) -> Level8State:
    """Validate ``action`` (any action but a leave: :func:`lancards.engine.level8.leaving.do_leave`
    builds on this module and the game dispatches leaves to it) and return the next state.

    Raises:
        InvalidActionError: a malformed action, or a leave.
        IllegalActionError: an action the rules do not allow now.
    """
    if isinstance(action, Leave):
        raise InvalidActionError(f"a leave is not a step of play: {action!r}")
    if action.seat == CHANCE:
        if _actor(state) != CHANCE:
            fail(state, action, f"chance is not to act: {_whose(state)}", "L8-3")
        result = chance(state, action)
    else:
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise InvalidActionError(f"not a Level 8 action: {action!r}")
        result = handler(state, action)
    return result.evolve(actions=state.actions + 1)


actor = _actor
