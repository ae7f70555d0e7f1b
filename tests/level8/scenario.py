"""Build exact Level 8 positions for tests, and write actions without slot numbers.

``build(...)`` places named cards in hands, discard piles, melds and in front of players; every
other card goes to the draw pile (ascending slot order unless ``pile_top`` names the top cards).
Slots are the canonical deck indices, so every card of the deck is in exactly one place.

``act(state, "0: laydown R4 R5 J1-5=6 | ...")`` fills in the slots of cards written without
``#SLOT``: the actor's hand first, then shown cards.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from lancards.engine.core import ALL_SEATS, seat_bit
from lancards.engine.level8 import LEVEL8
from lancards.engine.level8.actions import Action, parse_action
from lancards.engine.level8.cards import Card, parse_card
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.melds import Meld, make_meld, parse_placed
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.options import rule_set

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
    """A consistent full-knowledge state (see the module docstring)."""
    spec = rule_set(edition)
    rules = spec.make_rules(options or {})
    n = len(hands)
    start = G.new_game(rules, n)
    free: dict[Card, list[int]] = defaultdict(list)
    for slot, card in enumerate(rules.deck):
        free[card].append(slot)

    def take(text: str) -> int:
        card = parse_card(text)
        if not free[card]:
            raise ValueError(f"no free {text} left in the deck")
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
        assert not isinstance(meld, str), meld
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


def resolve(state: Level8State, text: str) -> Action:
    """Parse ``text``, filling in ``#SLOT`` for cards written without one."""
    head, _, rest = text.partition(":")
    seat = int(head)
    pool = list(state.hands[seat]) + [s for slots in state.shown for s in slots]
    used: set[int] = set()
    verb, *args = rest.split()
    tokens = [verb]
    for token in args:
        face, eq, decl = token.partition("=")
        try:
            card = parse_card(face)
        except Exception:
            tokens.append(token)
            continue
        slot = next(s for s in pool if s not in used and state.cards.get(s) is card)
        used.add(slot)
        prefix = "" if verb == "choose" else face
        tokens.append(f"{prefix}#{slot}" + (f"={decl}" if eq else ""))
    return parse_action(f"{head}: {' '.join(tokens)}")


def act(state: Level8State, *texts: str) -> Level8State:
    """Apply actions written with :func:`resolve`'s shorthand, in order."""
    for text in texts:
        state = G.apply(state, resolve(state, text))
    return state


def slot_of(state: Level8State, face: str, seat: int | None = None) -> int:
    """The lowest slot holding ``face`` (in ``seat``'s hand when given)."""
    card = parse_card(face)
    pool = state.hands[seat] if seat is not None else sorted(state.cards)
    return next(s for s in pool if state.cards.get(s) is card)


def hand_text(state: Level8State, seat: int) -> list[str]:
    """``seat``'s hand as sorted card texts."""
    return sorted(str(state.cards[s]) for s in state.hands[seat])
