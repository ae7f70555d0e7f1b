"""Leaving a Level 8 table for good: the seat-removal action (rulings D-1 to D-4)."""

from __future__ import annotations

from lancards.engine.core import Leave, Seat, SlotId, seat_bit
from lancards.engine.level8.refusals import fail, malformed
from lancards.engine.level8.state import Level8State, Phase, set_at
from lancards.engine.level8.steps import new_round, next_turn


def leaving_slots(state: Level8State, seat: Seat) -> tuple[SlotId, ...]:
    """The slots that go out of play with ``seat`` (D-1): its hand (kept cards included) and,
    between a round's end and its shuffle, the cards of its hand that were gathered and that
    only it knows (``known`` is its bit alone). Those were its hand a moment ago; taking them
    out keeps them secret, since the peer layer would otherwise publish the leaver's share of
    them (``docs/mental-poker.md``, "Leaving for good"). Hand first, then gathered, in order."""
    hand = tuple(state.hands[seat])
    mine = seat_bit(seat)
    return hand + tuple(s for s in state.gathered
                        if s not in hand and state.known.get(s) == mine)


def do_leave(state: Level8State, action: Leave) -> Level8State:
    """Seat ``action.seat`` leaves for good, at any moment (rulings D-1 to D-4).

    D-1: the hand (kept cards included) goes out of play face down into ``state.out``, with
    the cards of it gathered at a round end and not yet shuffled (:func:`leaving_slots`): never
    gathered, shuffled or revealed again (no chance request ever names one of its slots; the
    peer layer relies on it); the cards in front (Master "I'll keep that!", Skip cards, also a
    Skip aimed at the leaver: D-4) are gathered as at a round end; the discard pile and the
    combinations stay. If it was the leaver's turn (draw, play, a skipped turn, "I'll swap
    that!"), the next seat to the left plays. D-4: a leaver who owed a reply to "I'll take
    that!" is dropped from the showing, which goes on without them; shown cards of the leaver
    leave the choice; a leaver who played it and had not chosen takes nothing. A face-down card
    owed to the leaver (L8M-1, L8M-2) is not handed out. At a round end the leaver keeps
    nothing. D-3: with fewer than 2 seats left the game is over; the one remaining seat wins.

    Raises:
        InvalidActionError: there is no such seat.
        IllegalActionError: the game is over, or the seat has already left.
    """
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.n:
        malformed(action, f"there is no seat {seat!r}", "no-seat")
    if state.phase is Phase.OVER:
        fail(state, action, "the game is over", "D-3", "game-over")
    if seat in state.left:
        fail(state, action, f"seat {seat} has already left the table", "D-1", "left-already",
             seat=seat)
    empty: tuple[SlotId, ...] = ()
    shown = set_at(state.shown, seat, empty) if state.shown else state.shown
    kept = set_at(state.kept, seat, empty) if state.kept else state.kept
    leaving = leaving_slots(state, seat)
    state = state.evolve(
        left=(*state.left, seat), out=(*state.out, leaving),
        hands=set_at(state.hands, seat, empty), in_front=set_at(state.in_front, seat, empty),
        gathered=(*(s for s in state.gathered if s not in leaving), *state.in_front[seat]),
        owed=tuple(s for s in state.owed if s != seat),
        show_queue=tuple(s for s in state.show_queue if s != seat),
        keep_queue=tuple(s for s in state.keep_queue if s != seat),
        shown=shown, kept=kept,
    )
    present = state.present()
    if len(present) < 2:  # D-3: too few players
        return state.evolve(phase=Phase.OVER, winners=present, owed=(), reshuffle_due=False,
                            show_queue=(), keep_queue=(), shown=(), kept=(), swaps=0)
    phase, own_turn = state.phase, state.turn == seat
    if phase in (Phase.SHOW, Phase.CHOOSE) and own_turn:
        return next_turn(state.evolve(show_queue=(), shown=()))  # D-4: takes nothing
    if phase is Phase.SHOW and not state.show_queue:
        return state.evolve(phase=Phase.CHOOSE)  # D-4: the showing goes on without them
    if phase in (Phase.DRAW, Phase.PLAY, Phase.SKIPPED, Phase.SWAP) and own_turn:
        return next_turn(state.evolve(swaps=0))
    if phase is Phase.KEEP and not state.keep_queue:
        return new_round(state)
    return state
