"""Invariants of an 8s Rule! state, checked by self-play and the property tests."""

from __future__ import annotations

from collections import Counter

from lancards.engine.core import ALL_SEATS

from .cards import CARDS, DECK_SIZE
from .objectives import ObjectiveKind
from .play import EMPTY_LAYOUT, lay
from .state import ROUNDS, EightsState, Phase


def invariant_violations(state: EightsState) -> list[str]:
    """Every broken invariant of ``state`` (empty when sound).

    Checked: every one of the 60 current slots in exactly one place (pile, a hand, the trick,
    a seat's taken cards, the layout); known identities are 60 distinct cards at most; played and
    taken cards are public; a hand's cards are known to their holder; hand sizes differ by at
    most one; the layout matches the cards laid; the count of scoring cards left; one result per
    finished round.
    """
    problems: list[str] = []
    n, base = state.n, state.base
    if len(state.ident) != DECK_SIZE or len(state.known) != DECK_SIZE:
        return [f"ident/known have {len(state.ident)}/{len(state.known)} entries, not 60"]
    places: list[tuple[str, int]] = [("pile", slot) for slot in state.pile]
    for seat in range(n):
        places += [(f"hand of seat {seat}", slot) for slot in state.hands[seat]]
        places += [(f"tricks of seat {seat}", slot) for slot in state.won[seat]]
    places += [("trick", play.slot) for play in state.trick]
    places += [("layout", slot) for slot in state.table]
    counts = Counter(slot for _, slot in places)
    for slot in range(base, base + DECK_SIZE):
        if counts[slot] != 1:
            where = [name for name, s in places if s == slot]
            problems.append(f"slot #{slot} is in {counts[slot]} places {where}, not exactly one")
    for name, slot in places:
        if not base <= slot < base + DECK_SIZE:
            problems.append(f"{name} holds slot #{slot} of another generation")
    idents = [c for c in state.ident if c >= 0]
    if any(c >= DECK_SIZE for c in idents):
        problems.append("an identity is not a card index 0..59")
    for card, count in Counter(idents).items():
        if count > 1 and card < DECK_SIZE:
            problems.append(f"{CARDS[card]} is known to be in {count} slots")
    public = [play.slot for play in state.trick] + list(state.table)
    for seat in range(n):
        public += state.won[seat]
        for slot in state.hands[seat]:
            if not state.known[slot - base] & (1 << seat):
                problems.append(f"seat {seat} does not know its own slot #{slot}")
    for slot in public:
        offset = slot - base
        if 0 <= offset < DECK_SIZE and (
            state.known[offset] != ALL_SEATS or state.ident[offset] < 0
        ):
            problems.append(f"played slot #{slot} is not public")
    problems += _phase_problems(state)
    return problems


def _phase_problems(state: EightsState) -> list[str]:
    problems: list[str] = []
    n, base, phase = state.n, state.base, state.phase
    sizes = [len(hand) for hand in state.hands]
    playing = phase in (Phase.TRICKS, Phase.LAYOUT, Phase.AUDIT)
    if playing and state.pile:
        problems.append(f"{len(state.pile)} cards lie in the pile during play")
    if not playing and any(sizes):
        problems.append(f"hands hold cards {sizes} outside play ({phase.name.lower()})")
    present = [sizes[s] for s in range(n) if s not in state.left]
    if any(sizes[s] or state.won[s] for s in state.left):
        problems.append(f"a seat that left ({state.left}) holds or has taken cards")
    if state.turn in state.left or set(state.cutters) & set(state.left):
        problems.append(f"a seat that left ({state.left}) is to play or to cut")
    if state.round >= 1 and state.phase is not Phase.OVER and state.dealer in state.left:
        problems.append(f"seat {state.dealer} left but deals round {state.round}")
    if phase is Phase.TRICKS and max(present) - min(present) > 1:
        problems.append(f"hand sizes {sizes} differ by more than one in a trick round")
    if phase is Phase.TRICKS and len(state.trick) >= len(present):
        problems.append(f"the current trick holds {len(state.trick)} cards for {n} seats")
    # rulings D-3, E-10: too few players, or a partner who left, end the game early
    ended_by_leave = phase is Phase.OVER and (
        len(present) < 3 or (state.rules.partners and bool(state.left)))
    finished = state.round if phase is Phase.OVER and not ended_by_leave else state.round - 1
    if state.round >= 1 and len(state.results) != max(finished, 0):
        problems.append(f"{len(state.results)} round results in round {state.round}")
    if phase is Phase.OVER and not ended_by_leave and len(state.results) != ROUNDS:
        problems.append(f"the game ended after {len(state.results)} rounds, not 8")
    layout = EMPTY_LAYOUT
    for slot in state.table:
        card = state.ident[slot - base]
        if card >= 0:
            layout = lay(card, layout)
    if layout != state.layout:
        problems.append(f"the layout {state.layout} does not match the cards laid {layout}")
    if phase is Phase.TRICKS and 1 <= state.round < ROUNDS:
        objective = state.rules.objectives.rounds[state.round - 1]
        if objective.kind is ObjectiveKind.CARDS:
            taken = sum(
                1
                for seat in range(n)
                for slot in state.won[seat]
                if objective.card_points[state.ident[slot - base]]
            )
            expected = sum(1 for p in objective.card_points if p) - taken
            if expected != state.scoring_left:
                problems.append(
                    f"{state.scoring_left} scoring cards counted left, {expected} really left"
                )
    return problems
