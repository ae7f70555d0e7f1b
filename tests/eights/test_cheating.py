"""Cheating attempts and bad input: each is refused (or audited) and the culprit named."""

from __future__ import annotations

import pytest

from lancards.engine.core import (
    EngineError,
    IllegalActionError,
    InvalidActionError,
    KnowledgeError,
    RandomInt,
    Reveal,
    RevealRequest,
    Shuffle,
)
from lancards.engine.eights import (
    Card,
    EightsRules,
    EightsState,
    Pass,
    Phase,
    Play,
    Suit,
    parse_card,
)

from .helpers import GAME, deal, play, slot_of


def fresh() -> EightsState:
    return deal(4, {0: "G4 G1 R3", 1: "G2 R15", 2: "B8"}, dealer=3)


def test_playing_out_of_turn_names_the_seat() -> None:
    state = fresh()
    action = Play(2, slot_of(state, "B8"), parse_card("B8"), True)
    with pytest.raises(IllegalActionError, match="seat 2 acts out of turn; seat 0 is to play"):
        GAME.apply(state, action)


def test_playing_a_card_from_another_hand_is_refused() -> None:
    state = fresh()
    with pytest.raises(IllegalActionError, match=r"slot #\d+ is not in seat 0's hand"):
        GAME.apply(state, Play(0, slot_of(state, "R15"), parse_card("R15")))


def test_lying_about_a_known_card_is_refused() -> None:
    state = fresh()
    with pytest.raises(
        IllegalActionError, match=r"seat 0: claims slot #\d+ is R15, but it holds G4"
    ):
        GAME.apply(state, Play(0, slot_of(state, "G4"), parse_card("R15")))


def test_peer_engine_accepts_an_unknown_claim_but_not_a_card_known_elsewhere() -> None:
    god = play(fresh(), "G4")
    peer = GAME.view(god, 0)  # seat 0's engine does not know seat 1's hand
    r15 = slot_of(god, "R15")
    assert peer.card(r15) is None
    # Seat 1 claims that its slot holds G1, which seat 0 holds itself: refused, seat 1 named.
    with pytest.raises(
        IllegalActionError, match=r"seat 1: claims slot #\d+ is G1, but G1 is known"
    ):
        GAME.apply(peer, Play(1, r15, parse_card("G1")))
    # The true card is accepted although this engine cannot see it, and becomes public.
    after = GAME.apply(peer, Play(1, r15, parse_card("R15")))
    assert after.card(r15) == Card(Suit.RED, 15)
    assert after == GAME.view(GAME.apply(god, Play(1, r15, parse_card("R15"))), 0)


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (Play(9, 0, Card(Suit.RED, 1)), InvalidActionError, "seat 9 is not at this table"),
        (Play(0, 0, "R1"), InvalidActionError, "'R1' is not a card of the deck"),  # type: ignore[arg-type]
        (Play(0, 10_000, Card(Suit.RED, 1)), InvalidActionError, "#10000 is not a current slot"),
        (Play(0, 70, Card(Suit.RED, 1), 1), InvalidActionError, "take must be True, False"),  # type: ignore[arg-type]
        ("0: play R1#3", InvalidActionError, "is not an 8s Rule! action"),
        (Shuffle(None), IllegalActionError, "chance is not to act, seat 0 is"),
        (Reveal(60, Card(Suit.RED, 1)), IllegalActionError, "chance is not to act"),
        (RandomInt(1, 2), IllegalActionError, "chance is not to act"),
        (Shuffle(None, seat=0), InvalidActionError, "chance actions have seat -1"),
    ],
)
def test_bad_actions(action: object, error: type[EngineError], message: str) -> None:
    with pytest.raises(error, match=message):
        GAME.check(fresh(), action)  # type: ignore[arg-type]


def test_chance_must_answer_the_request() -> None:
    state = GAME.new_game(EightsRules(), 4)
    with pytest.raises(IllegalActionError, match=r"chance must answer ShuffleRequest"):
        GAME.check(state, Reveal(0, Card(Suit.RED, 1)))
    for order in [(0, 1, 2), ("a",) * 60, (0,) * 60, [*range(60)]]:
        with pytest.raises(InvalidActionError, match=r"not a permutation of 0\.\.59"):
            GAME.check(state, Shuffle(order))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="no seat plays now"):
        GAME.check(state, Pass(0))
    with pytest.raises(IllegalActionError, match="chance must answer ShuffleRequest"):
        GAME.check(state, RandomInt(0, 3))
    state = GAME.apply(state, Shuffle(tuple(range(60))))
    assert state.phase is Phase.CUT_REVEAL
    with pytest.raises(IllegalActionError, match=r"slot #60 is to be revealed, not #61"):
        GAME.check(state, Reveal(61, Card(Suit.RED, 2)))
    with pytest.raises(IllegalActionError, match=r"reveal: claims slot #60 is B1, but it holds R1"):
        GAME.check(state, Reveal(60, Card(Suit.BLUE, 1)))


def test_peer_audit_reveal_of_a_card_known_elsewhere_is_refused() -> None:
    # Round 3 ends after one trick (all four 8s taken); the peer engine of seat 0 then gets the
    # round-end reveals: seat 0's own cards first, then seat 1's.
    red = " ".join(f"R{n}" for n in range(1, 16))
    god = deal(4, {1: red, 2: "B8", 3: "Y8", 0: "G8 B1"}, round_number=3, dealer=0)
    god = play(god, "R8 no-take")
    for text in ("B8", "Y8", "G8"):
        god = play(god, text)
    peer = GAME.view(god, 0)
    for slot in god.hands[0]:
        peer = GAME.apply(peer, Reveal(slot, god.card(slot)))
    request = GAME.chance_request(peer)
    assert isinstance(request, RevealRequest) and request.slot == god.hands[1][0]
    with pytest.raises(
        IllegalActionError, match=r"reveal: claims slot #\d+ is B1, but B1 is known"
    ):
        GAME.apply(peer, Reveal(request.slot, parse_card("B1")))
    peer = GAME.apply(peer, Reveal(request.slot, god.card(request.slot)))
    assert peer.card(request.slot) == parse_card("R1")


def test_learn_contradictions() -> None:
    god = deal(4, {0: "G4"}, dealer=3)
    peer = GAME.view(god, 1)
    g4 = slot_of(god, "G4")
    with pytest.raises(KnowledgeError, match="but it holds"):
        GAME.learn(god, g4, parse_card("G5"))
    with pytest.raises(KnowledgeError, match="is not a current card slot"):
        GAME.learn(peer, 5, parse_card("G5"))
    with pytest.raises(KnowledgeError, match="is not a card of the 60-card deck"):
        GAME.learn(peer, g4, "G4")
    learned = GAME.learn(peer, g4, parse_card("G4"))
    assert learned.card(g4) == parse_card("G4")
    with pytest.raises(EngineError, match="seat 4 is not at this table"):
        GAME.view(god, 4)
