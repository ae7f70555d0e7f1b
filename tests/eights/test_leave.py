"""Leaving a table for good in 8s Rule!: rulings D-1 to D-3 (D-4 concerns Level 8's special
cards; 8s Rule! has none), as positions built with the engine's own deal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    IllegalActionError,
    InvalidActionError,
    Leave,
    Reveal,
    RevealRequest,
    Shuffle,
    ShuffleRequest,
)
from lancards.engine.eights import EIGHTS, EightsRules, Phase, RoundResult
from lancards.engine.eights.cards import CARDS, DECK_SIZE
from lancards.engine.position import PositionError, read_position, write_position
from tests.eights.helpers import GAME, deal, first_legal


def with_results(state, rows):
    """``state`` whose finished rounds scored ``rows`` (one row of points per round)."""
    n = state.n
    results = tuple(RoundResult(r + 1, r % n, tuple(row), (), 0, False, None)
                    for r, row in enumerate(rows))
    return replace(state, results=results)


def hand_names(state, seat):
    return [str(state.card(s)) for s in state.hands[seat]]


# ---------------------------------------------------------------------------------------------
# D-1: the round is abandoned with no score and dealt again for the players left


def test_d1_the_round_is_abandoned_and_dealt_again_with_e1_sizes():
    state = deal(4, {}, round_number=3, dealer=1)
    state = with_results(state, [[10, 20, 30, 0], [0, 5, 5, 15]])
    state = GAME.apply(state, first_legal(state))  # seat 2 leads; mid-trick
    assert len(state.trick) == 1
    old_slots = set(GAME.knowledge(state))
    leaver_hand = state.hands[3]
    state = GAME.apply(state, Leave(3))
    assert GAME.left_seats(state) == (3,)
    assert state.phase is Phase.DEAL and state.round == 3 and state.dealer == 1
    assert len(state.results) == 2 and state.totals() == (10, 25, 35, 15)  # no score for it
    # a fresh generation: the canonical deck, public, card i in slot base + i
    assert state.base == 2 * DECK_SIZE and state.ident == tuple(range(DECK_SIZE))
    assert state.known == (ALL_SEATS,) * DECK_SIZE
    assert not old_slots & set(GAME.knowledge(state))  # no card of the round is ever opened
    assert not set(leaver_hand) & set(GAME.knowledge(state))
    request = GAME.chance_request(state)
    assert request == ShuffleRequest(tuple(range(120, 180)), 180)
    state = GAME.apply(state, Shuffle(tuple(range(DECK_SIZE))))
    # E-1 for 3 players: 20 each, one at a time from the dealer's left: seats 2, 0, 1
    assert [len(h) for h in state.hands] == [20, 20, 20, 0]
    assert hand_names(state, 2)[:5] == ["R1", "R4", "R7", "R10", "R13"]
    assert hand_names(state, 0)[:3] == ["R2", "R5", "R8"]
    assert state.turn == 2 and state.phase is Phase.TRICKS


def test_d1_play_passes_over_the_empty_seat_and_a_trick_has_three_cards():
    state = deal(4, {}, round_number=1, dealer=0)
    state = GAME.apply(state, Leave(2))
    state = GAME.apply(state, Shuffle(tuple(range(DECK_SIZE))))
    assert state.turn == 1
    for expected in (1, 3, 0):
        assert GAME.to_act(state) == expected
        state = GAME.apply(state, first_legal(state))
    assert len(state.trick_winners) == 1 and state.trick == ()  # 3 cards made the trick
    assert GAME.invariant_violations(state) == []


def test_d1_a_dealer_who_leaves_passes_the_deal_to_the_left():
    state = deal(5, {}, round_number=4, dealer=1)
    state = GAME.apply(state, Leave(1))
    assert state.dealer == 2 and state.round == 4
    state = GAME.apply(state, Shuffle(tuple(range(DECK_SIZE))))
    assert [len(h) for h in state.hands] == [15, 0, 15, 15, 15] and state.turn == 3


def test_d1_a_pending_audit_reveal_is_dropped():
    # round 5: no Red 15, over when it is taken; seat 1 leads it and takes it (E-5)
    state = deal(4, {1: "R15"}, round_number=5, dealer=0)
    while state.phase is Phase.TRICKS:
        state = GAME.apply(state, first_legal(state))
    assert state.phase is Phase.AUDIT and isinstance(GAME.chance_request(state), RevealRequest)
    hidden = [s for h in state.hands for s in h if GAME.knowledge(state)[s] != ALL_SEATS]
    assert len(hidden) == 4 * 14  # one trick played
    state = GAME.apply(state, Leave(0))
    assert state.phase is Phase.DEAL and state.round == 5 and len(state.results) == 4
    assert isinstance(GAME.chance_request(state), ShuffleRequest)
    assert not set(hidden) & set(GAME.knowledge(state))


def test_d1_the_high_cut_starts_again_among_the_cutters_left():
    state = EIGHTS.new_game(EightsRules(), 5)
    state = GAME.apply(state, Shuffle(tuple(range(DECK_SIZE))))
    request = GAME.chance_request(state)
    assert isinstance(request, RevealRequest)
    state = GAME.apply(state, Reveal(request.slot, GAME.identity(state, request.slot)))
    state = GAME.apply(state, Leave(0))
    assert state.phase is Phase.CUT_SHUFFLE and state.cutters == (1, 2, 3, 4)
    assert state.cut_numbers == () and state.round == 0
    tie = replace(state, cutters=(1, 3))  # seats 1 and 3 tied and cut again
    after = GAME.apply(tie, Leave(3))
    assert after.phase is Phase.DEAL and after.dealer == 1 and after.round == 1


# ---------------------------------------------------------------------------------------------
# D-2, D-3: ranking and too few players


def test_d3_too_few_players_end_the_game_and_d2_leavers_rank_last():
    state = deal(4, {}, round_number=3, dealer=0)
    state = with_results(state, [[30, 10, 20, 0], [0, 40, 35, 5]])
    state = GAME.apply(state, Leave(3))
    assert GAME.to_act(state) == CHANCE  # three players: the game goes on
    state = GAME.apply(state, Leave(0))
    assert GAME.to_act(state) is None and state.phase is Phase.OVER
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.scores == (30, 50, 55, 5)
    # seat 3 had the lowest total but left first: last; seat 0 left later: third
    assert outcome.detail["places"] == [3, 1, 2, 4] and outcome.detail["left"] == [3, 0]
    assert outcome.detail["rounds"] == 2 and outcome.detail["next_dealer"] == 1
    assert GAME.invariant_violations(state) == []
    with pytest.raises(IllegalActionError, match=r"the game is over \(ruling D-3\)"):
        GAME.check(state, Leave(1))


def test_d3_equal_totals_without_a_round_7_share_the_win():
    state = deal(3, {}, round_number=3, dealer=0)
    state = with_results(state, [[30, 10, 20], [20, 40, 30]])
    state = GAME.apply(state, Leave(1))  # three players: one leave ends the game
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2)
    assert outcome.detail["tie_break"] == "shared" and outcome.detail["places"] == [1, 3, 1]


def test_d3_partners_a_team_whose_member_left_loses():
    rules = EightsRules(partners=True)
    state = deal(4, {}, round_number=2, dealer=0, rules=rules)
    state = with_results(state, [[0, 10, 50, 0]])  # team 0+2: 50, team 1+3: 10
    state = GAME.apply(state, Leave(3))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2)
    assert outcome.detail["places"] == [1, 3, 1, 4]


def test_d3_partners_six_players_the_other_teams_rank_by_e9():
    rules = EightsRules(partners=True)
    state = deal(6, {}, round_number=2, dealer=0, rules=rules)
    state = with_results(state, [[10, 0, 20, 10, 0, 20]])  # teams 0+3: 20, 1+4: 0, 2+5: 40
    state = GAME.apply(state, Leave(4))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 3)
    assert outcome.detail["places"] == [1, 5, 3, 1, 6, 3]
    assert outcome.detail["team_totals"] == [20, 0, 40]


# ---------------------------------------------------------------------------------------------
# The action: notation, errors, never offered, positions


def test_leave_notation_errors_and_never_offered():
    state = deal(4, {}, round_number=1, dealer=0)
    assert GAME.parse_action("3: leave") == Leave(3) and str(Leave(3)) == "3: leave"
    assert GAME.describe_action(state, Leave(3)) == "3: leave"
    assert GAME.read_action(state, "3: leave") == Leave(3)
    with pytest.raises(InvalidActionError, match="seat 4 is not at this table"):
        GAME.check(state, Leave(4))
    assert not any(isinstance(a, Leave) for a in GAME.legal_actions(state, state.turn))
    after = GAME.apply(state, Leave(2))
    with pytest.raises(IllegalActionError, match=r"already left the table \(ruling D-1\)"):
        GAME.check(after, Leave(2))
    after = GAME.apply(after, Shuffle(tuple(range(DECK_SIZE))))
    with pytest.raises(IllegalActionError):  # a seat that left never plays again
        GAME.check(after, GAME.parse_action(f"2: play {CARDS[0]}#{after.base}"))


def test_a_position_with_a_leaver_round_trips():
    state = deal(5, {}, round_number=2, dealer=3)
    state = GAME.apply(state, Leave(4))
    state = GAME.apply(state, Shuffle(tuple(range(DECK_SIZE))))
    text = write_position(GAME, state)
    assert "left 4\n" in text
    game, back = read_position(text)
    assert game is GAME and write_position(GAME, back) == text and back.left == (4,)
    spectator = write_position(GAME, GAME.view(state, None))
    assert write_position(GAME, read_position(spectator)[1]) == spectator
    with pytest.raises(PositionError, match="named twice"):
        read_position(text.replace("left 4\n", "left 4 4\n"))
    with pytest.raises(PositionError, match="a seat that left"):
        read_position(text.replace("left 4\n", "left 4 0\n"))
