"""A round that no play can end (ruling L8-16).

Hands shrink only by laying down and adding, so once every player still at the table has laid
down the level and no card outside the combinations could be added to any of them, the round
can never end by going out. The test uses public information only: the cards outside the
combinations are the edition's deck minus the faces in the melds (where they lie need not be
known: hands, piles, cards out of play with a leaver, D-1). Melds only grow during a round, so
the state stays blocked once it is.
"""

from __future__ import annotations

from collections import Counter

from lancards.engine.level8.cards import Card, deck_counts
from lancards.engine.level8.melds import add_options
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.level8.steps import round_end

_IN_ROUND = frozenset({Phase.DRAW, Phase.PLAY, Phase.SKIPPED, Phase.SHOW, Phase.CHOOSE,
                       Phase.SWAP})
"""The phases in which a round is being played (cards can still be laid or added)."""


def outside_faces(state: Level8State) -> Counter[Card]:
    """The faces outside the combinations on the table, with their counts: the deck minus the
    melds' cards (public information; ruling L8-16)."""
    outside = Counter(deck_counts(state.rules.edition))
    for meld in state.melds:
        for placed in meld.cards:
            outside[placed.card] -= 1
    return +outside


def is_blocked(state: Level8State) -> bool:
    """Whether ``state``'s round can never end (ruling L8-16): the round is in play, every seat
    still at the table has laid down, and no face outside the combinations (number card or
    joker, in any of its declarations) can be added to any meld.

    Pure and cheap unless every present seat is down (then at most one ``add_options`` call per
    distinct outside face and meld)."""
    if state.phase not in _IN_ROUND:
        return False
    present = state.present()
    if not present or not all(state.down[s] for s in present):
        return False
    for face in outside_faces(state):
        if (face.is_number or face.is_joker) and any(add_options(m, -1, face)
                                                     for m in state.melds):
            return False
    return True


def end_if_blocked(state: Level8State) -> Level8State:
    """``state``, or, if its round is blocked (:func:`is_blocked`), the state after the round
    ends at once (ruling L8-16): nobody went out, every seat that laid down (all of them)
    advances one level, stopping at 8 (rulings L8-10, L8-11: under ``on_laydown`` a level-8
    seat won when it laid down, under ``on_going_out`` it stays on 8), and the next round is
    dealt (nobody keeps cards: every seat is down, L8-13)."""
    if not is_blocked(state):
        return state
    return round_end(state, -1)
