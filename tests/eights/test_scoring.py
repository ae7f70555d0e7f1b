"""Final ranking (ruling E-9) and partners (ruling E-10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lancards.engine.core import RulesError
from lancards.engine.eights import EIGHTS, SPEC, EightsRules, EightsState, Phase, RoundResult
from lancards.engine.eights.outcome import ranking, teams


def finished(n: int, rows: list[list[int]], *, partners: bool = False) -> EightsState:
    """A finished game whose eight rounds scored ``rows`` (one row of ``n`` points per round)."""
    assert len(rows) == 8
    state = EIGHTS.new_game(EightsRules(partners=partners, first_dealer=0), n)
    results = tuple(
        RoundResult(r + 1, r % n, tuple(row), (), 0, False, None) for r, row in enumerate(rows)
    )
    return replace(state, phase=Phase.OVER, round=8, pile=state.pile, results=results)


def test_lowest_total_wins() -> None:
    rows = [[10, 20, 30]] * 8
    outcome = EIGHTS.outcome(finished(3, rows))
    assert outcome is not None
    assert outcome.winners == (0,)
    assert outcome.scores == (80, 160, 240)
    assert outcome.detail["rounds"] == 8
    assert outcome.detail["tie_break"] == "none"
    assert outcome.detail["next_dealer"] == 0  # the winner deals the next game (ruling E-2)
    assert outcome.detail["round_totals"][0] == [10, 20, 30]
    assert outcome.detail["running_totals"][1] == [20, 40, 60]


def test_tie_is_broken_by_the_highest_total_after_round_7() -> None:
    # After round 7: seat 0 has 70, seat 1 has 90; round 8 brings both to 100.
    rows = [[10, 10, 50]] * 5 + [[10, 20, 0], [10, 20, 0], [30, 10, 0]]
    outcome = EIGHTS.outcome(finished(3, rows))
    assert outcome is not None
    assert outcome.scores == (100, 100, 250)
    assert outcome.detail["totals_after_round_7"] == [70, 90, 250]
    assert outcome.winners == (1,)
    assert outcome.detail["tie_break"] == "round-7"


def test_tie_after_round_7_too_is_a_shared_win() -> None:
    rows = [[10, 10, 50]] * 8
    outcome = EIGHTS.outcome(finished(3, rows))
    assert outcome is not None
    assert outcome.winners == (0, 1)
    assert outcome.detail["tie_break"] == "shared"
    assert outcome.detail["next_dealer"] is None


@pytest.mark.parametrize(
    ("totals", "after_7", "winners", "how"),
    [
        ([100, 80, 80, 120], [90, 60, 75, 100], (2,), "round-7"),
        ([100, 80, 80, 120], [90, 75, 75, 100], (1, 2), "shared"),
        ([5, 80, -30], [0, 0, 0], (2,), "none"),
    ],
)
def test_ranking(totals: list[int], after_7: list[int], winners: tuple[int, ...], how: str) -> None:
    assert ranking(totals, after_7) == (winners, how)


def test_teams_sit_opposite() -> None:
    assert teams(4, True) == ((0, 2), (1, 3))
    assert teams(6, True) == ((0, 3), (1, 4), (2, 5))
    assert teams(5, False) == ((0,), (1,), (2,), (3,), (4,))


def test_partners_with_4_players_sum_team_totals() -> None:
    rows = [[10, 5, 10, 0]] * 8  # seats: 80, 40, 80, 0; teams 0+2: 160, 1+3: 40
    outcome = EIGHTS.outcome(finished(4, rows, partners=True))
    assert outcome is not None
    assert outcome.detail["teams"] == [[0, 2], [1, 3]]
    assert outcome.detail["team_totals"] == [160, 40]
    assert outcome.winners == (1, 3)
    assert outcome.scores == (80, 40, 80, 0)
    assert outcome.detail["next_dealer"] is None


@pytest.mark.parametrize(
    ("round_7", "round_8", "team_totals", "winners", "how"),
    [
        # Teams 0+3 and 1+4 end level at 40; after round 7 team 1+4 had more (30 to 10).
        ([10, 30, 0, 0, 0, 100], [30, 10, 0, 0, 0, 0], [40, 40, 100], (1, 4), "round-7"),
        # Level after round 7 too: a shared win.
        ([20, 0, 0, 0, 20, 100], [20, 20, 0, 0, 0, 0], [40, 40, 100], (0, 1, 3, 4), "shared"),
        # No tie: team 2+5 wins with the lowest total.
        ([10, 30, 0, 0, 0, 0], [30, 10, 0, 0, 0, 0], [40, 40, 0], (2, 5), "none"),
    ],
)
def test_partners_with_6_players(
    round_7: list[int],
    round_8: list[int],
    team_totals: list[int],
    winners: tuple[int, ...],
    how: str,
) -> None:
    rows = [[0] * 6] * 6 + [round_7, round_8]
    outcome = EIGHTS.outcome(finished(6, rows, partners=True))
    assert outcome is not None
    assert outcome.detail["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert outcome.detail["team_totals"] == team_totals
    assert outcome.winners == winners
    assert outcome.detail["tie_break"] == how


@pytest.mark.parametrize("n", [3, 5])
def test_partners_refused_for_3_or_5_players(n: int) -> None:
    rules = SPEC.make_rules({"partners": "true"})
    with pytest.raises(RulesError, match=f"'partners' needs 4 or 6 players, not {n} .ruling E-10"):
        EIGHTS.new_game(rules, n)


@pytest.mark.parametrize("n", [4, 6])
def test_partners_accepted_for_4_or_6_players(n: int) -> None:
    rules = SPEC.make_rules({"partners": "yes"})
    assert rules.partners
    assert EIGHTS.new_game(rules, n).n == n


@pytest.mark.parametrize("n", [2, 7, 0])
def test_seat_count_outside_3_to_6_is_refused(n: int) -> None:
    with pytest.raises(RulesError, match=f"3 to 6 players, not {n} .ruling E-1"):
        EIGHTS.new_game(EightsRules(), n)
