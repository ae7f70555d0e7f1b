"""Builders for 8s Rule! test positions: deal chosen hands through the engine's own shuffle."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from lancards.engine.core import CHANCE, Reveal, RevealRequest, Shuffle
from lancards.engine.eights import EIGHTS, EightsRules, EightsState, Pass, Phase, Play, parse_card
from lancards.engine.eights.actions import EightsAction
from lancards.engine.eights.cards import DECK_SIZE
from lancards.engine.eights.state import RoundResult

GAME = EIGHTS


def cards(text: str) -> list[int]:
    """Card indexes from notation separated by spaces: ``"B5 R15"``."""
    return [parse_card(t).index for t in text.split()]


def deal(
    n: int,
    hands: Mapping[int, str],
    *,
    round_number: int = 1,
    dealer: int = 0,
    rules: EightsRules | None = None,
    void: Mapping[int, str] | None = None,
) -> EightsState:
    """The state right after the deal of ``round_number`` with the given cards in hand.

    Cards not named go to the seats with room, lowest card first, skipping a seat for a suit
    listed in ``void`` (e.g. ``{2: "B"}``: seat 2 gets no Blue). The deal goes through a real
    ``Shuffle`` whose order puts every card where the engine's deal (E-1) will hand it out.
    """
    void = void or {}
    rules = rules or EightsRules(first_dealer=dealer)
    rules = replace(rules, first_dealer=dealer)
    per_seat = DECK_SIZE // n
    wanted = {seat: cards(text) for seat, text in hands.items()}
    taken = {c for hand in wanted.values() for c in hand}
    assert len(taken) == sum(len(h) for h in wanted.values()), "a card is named twice"
    full = {seat: list(wanted.get(seat, [])) for seat in range(n)}
    for card in range(DECK_SIZE):
        if card in taken:
            continue
        suit = "RBYG"[card // 15]
        seat = next(s for s in range(n) if len(full[s]) < per_seat and suit not in void.get(s, ""))
        full[seat].append(card)
    assert all(len(h) == per_seat for h in full.values()), full
    state = GAME.new_game(rules, n)
    results = tuple(
        RoundResult(r, (dealer - round_number + r) % n, (0,) * n, (), 0, False, None)
        for r in range(1, round_number)
    )
    state = replace(state, round=round_number, results=results)
    assert state.phase is Phase.DEAL
    first = (dealer + 1) % n
    pile = [full[(first + i) % n][i // n] for i in range(DECK_SIZE)]
    order = tuple(state.ident.index(card) for card in pile)
    return GAME.apply(state, Shuffle(order))


def slot_of(state: EightsState, card: str) -> int:
    """The slot holding ``card`` in the current generation."""
    return state.base + state.ident.index(parse_card(card).index)


def play(state: EightsState, text: str) -> EightsState:
    """The seat to act plays ``text``: ``"B5"``, ``"B8 take"``, ``"B8 no-take"`` or ``"pass"``."""
    return GAME.apply(state, move(state, text))


def move(state: EightsState, text: str) -> EightsAction:
    """The action of the seat to act for ``text`` (see :func:`play`)."""
    seat = GAME.to_act(state)
    assert seat is not None and seat >= 0, f"no seat to act ({state.phase})"
    if text == "pass":
        return Pass(seat)
    card_text, _, declaration = text.partition(" ")
    take = None if not declaration else declaration == "take"
    return Play(seat, slot_of(state, card_text), parse_card(card_text), take)


def play_all(state: EightsState, texts: Sequence[str]) -> EightsState:
    """Apply :func:`play` for each text in turn."""
    for text in texts:
        state = play(state, text)
    return state


def first_legal(state: EightsState) -> EightsAction:
    """The first legal action of the seat to act (a fixed, simple policy)."""
    seat = GAME.to_act(state)
    assert seat is not None and seat >= 0
    return GAME.legal_actions(state, seat)[0]


def reveal_all(state: EightsState) -> EightsState:
    """Answer every pending round-end reveal (ruling E-8) with the known identity."""
    while GAME.to_act(state) == CHANCE and state.phase is Phase.AUDIT:
        request = GAME.chance_request(state)
        assert isinstance(request, RevealRequest)
        state = GAME.apply(state, Reveal(request.slot, GAME.identity(state, request.slot)))
    return state


def finish_round(
    state: EightsState, policy: Callable[[EightsState], EightsAction] = first_legal
) -> EightsState:
    """Play the current round to its end with ``policy``, then do the audit reveals."""
    number = state.round
    while state.phase in (Phase.TRICKS, Phase.LAYOUT) and state.round == number:
        state = GAME.apply(state, policy(state))
    return reveal_all(state)
