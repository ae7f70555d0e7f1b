"""Build exact Level 8 positions from card names, for tests and bug reports.

:func:`build` places named cards in hands, discard piles, melds and in front of players; every
other card goes to the draw pile (canonical order unless ``pile_top`` names the top cards).
Slots are the canonical deck indices (the lowest free slot of each face), so every card of the
deck is in exactly one place. :func:`act` applies actions written with card names
(:func:`lancards.engine.level8.position.read_action`). A whole position can also be written as
text and read with :func:`lancards.engine.position.read_position`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lancards.engine.core import ALL_SEATS, RulesError, seat_bit
from lancards.engine.level8.cards import Card, parse_card
from lancards.engine.level8.game import LEVEL8
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.melds import Meld, make_meld, parse_placed
from lancards.engine.level8.rules import EDITIONS, OPTIONS
from lancards.engine.level8.rules import build as build_rules
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.options import validate_options
from lancards.engine.position_text import PositionError

G = LEVEL8


def build(
    edition: str = "level8-master",
    hands: Sequence[Sequence[str]] = ((), ()),
    *,
    levels: Sequence[int] | None = None,
    dealer: int = 0,
    turn: int = 1,
    phase: Phase = Phase.PLAY,
    down: Sequence[bool] | None = None,
    discards: Sequence[Sequence[str]] | None = None,
    melds: Sequence[tuple[int, ComponentKind, Sequence[str]]] = (),
    in_front: Sequence[Sequence[str]] | None = None,
    pile_top: Sequence[str] = (),
    under: Sequence[str] = (),
    options: dict[str, str] | None = None,
    round_no: int = 1,
) -> Level8State:
    """A consistent full-knowledge Level 8 state from card names (see the module docstring).

    Args:
        edition: a Level 8 rule set name.
        hands: per seat, the hand as card names (the seat count is ``len(hands)``).
        levels, dealer, turn, phase, down, round_no: as in :class:`Level8State`.
        discards: per seat, the discard pile bottom first; melds: (owner, kind, card names
            with joker declarations such as ``J1-5=5``); in_front: per seat; pile_top: the
            top cards of the draw pile (the rest follow in canonical order); under: the
            face-up cards under the draw pile; options: rule options.

    Raises:
        PositionError: more copies of a card than the deck holds, or an invalid meld.
        RulesError: an unknown option or value.
    """
    named = next((e for e in EDITIONS if e == edition), None)
    if named is None:
        raise RulesError(f"{edition!r} is not a Level 8 rule set")
    rules = build_rules(named, validate_options(OPTIONS, options or {}, named))
    n = len(hands)
    start = G.new_game(rules, n)
    free: dict[Card, list[int]] = defaultdict(list)
    for slot, card in enumerate(rules.deck):
        free[card].append(slot)

    def take(text: str) -> int:
        card = parse_card(text)
        if not free[card]:
            raise PositionError(f"no free {text} left in the {edition} deck")
        return free[card].pop(0)

    known: dict[int, int] = {}
    hand_slots = []
    for seat, hand in enumerate(hands):
        slots = tuple(take(t) for t in hand)
        for s in slots:
            known[s] = seat_bit(seat)
        hand_slots.append(slots)
    pile_slots = [take(t) for t in pile_top]
    under_slots = tuple(take(t) for t in under)
    discard_slots = [tuple(take(t) for t in d) for d in (discards or [()] * n)]
    front_slots = [tuple(take(t) for t in f) for f in (in_front or [()] * n)]
    meld_objs: list[Meld] = []
    for index, (owner, kind, texts) in enumerate(melds):
        placed = []
        for text in texts:
            face, _, decl = text.partition("=")
            slot = take(face)
            placed.append(parse_placed(f"{face}#{slot}" + (f"={decl}" if decl else "")))
        meld = make_meld(index, owner, kind, 1, placed)
        if isinstance(meld, str):
            raise PositionError(f"meld {index}: {meld}")
        meld_objs.append(meld)
    public = [*under_slots, *(s for d in discard_slots for s in d),
              *(s for f in front_slots for s in f), *(p.slot for m in meld_objs for p in m.cards)]
    for s in public:
        known[s] = ALL_SEATS
    rest = sorted(s for slots in free.values() for s in slots)
    pile = (*pile_slots, *rest)
    for s in pile:
        known[s] = 0
    return start.evolve(
        known=known,
        levels=tuple(levels or (1,) * n),
        dealer=dealer,
        round=round_no,
        phase=phase,
        turn=turn,
        gathered=(),
        hands=tuple(hand_slots),
        pile=pile,
        under=under_slots,
        discards=tuple(discard_slots),
        melds=tuple(meld_objs),
        next_meld=len(meld_objs),
        in_front=tuple(front_slots),
        down=tuple(down or (False,) * n),
    )


def act(state: Level8State, *texts: str) -> Level8State:
    """Apply actions written with card names (``"1: laydown R9 O9 Y9 | J1-5=3 ..."``), in order.

    Raises:
        InvalidActionError, IllegalActionError: as :meth:`Level8Game.apply`.
    """
    for text in texts:
        state = G.apply(state, G.read_action(state, text))
    return state
