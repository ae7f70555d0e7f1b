"""Final ranking (ruling E-9) and partners' teams (ruling E-10)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from typing import Any, Literal

from lancards.engine.core import Outcome, Seat

from .state import EightsState

TieBreak = Literal["none", "round-7", "shared"]


def teams(n_seats: int, partners: bool) -> tuple[tuple[Seat, ...], ...]:
    """The scoring units: one per seat, or partners sitting opposite (ruling E-10).

    Returns:
        4 players with partners: ``((0, 2), (1, 3))``; 6 players: ``((0, 3), (1, 4), (2, 5))``;
        without partners: ``((0,), (1,), ...)``.
    """
    if not partners:
        return tuple((seat,) for seat in range(n_seats))
    half = n_seats // 2
    return tuple((seat, seat + half) for seat in range(half))


def ranking(
    totals: Sequence[int], totals_after_7: Sequence[int]
) -> tuple[tuple[int, ...], TieBreak]:
    """The winners by ruling E-9.

    The lowest total wins; among the tied, the highest total after round 7 wins; still tied,
    the win is shared.

    Args:
        totals: per player (or team), the total after round 8.
        totals_after_7: per player (or team), the total after round 7.

    Returns:
        The winning indexes, ascending, and how the tie was broken.
    """
    low = min(totals)
    tied = [i for i, total in enumerate(totals) if total == low]
    if len(tied) == 1:
        return (tied[0],), "none"
    high = max(totals_after_7[i] for i in tied)
    best = tuple(i for i in tied if totals_after_7[i] == high)
    return best, "round-7" if len(best) == 1 else "shared"


def final_outcome(state: EightsState) -> Outcome:
    """The outcome of a finished game (rulings E-9, E-10).

    ``scores`` are the seats' own totals; with partners the winners are both (or all) members of
    the winning team. ``detail`` holds ``rounds``, ``round_totals`` (per round, per seat, penalties
    included), ``round_points``, ``running_totals``, ``totals_after_round_7``, ``reneges``
    (one line each), ``teams`` and ``team_totals`` (partners), ``tie_break`` and
    ``next_dealer`` (the single winner deals the next game's round 1, ruling E-2; None for a
    shared or team win, where the next game cuts).
    """
    n = state.n
    round_totals = [list(result.totals) for result in state.results]
    running = [
        list(row)
        for row in accumulate(
            round_totals, lambda acc, row: [a + b for a, b in zip(acc, row, strict=True)]
        )
    ]
    totals = running[-1] if running else [0] * n
    after_7 = running[6] if len(running) >= 7 else [0] * n
    units = teams(n, state.rules.partners)
    unit_totals = [sum(totals[s] for s in unit) for unit in units]
    unit_after_7 = [sum(after_7[s] for s in unit) for unit in units]
    best, tie_break = ranking(unit_totals, unit_after_7)
    winners = tuple(sorted(seat for index in best for seat in units[index]))
    detail: dict[str, Any] = {
        "rounds": len(state.results),
        "round_totals": round_totals,
        "round_points": [list(result.points) for result in state.results],
        "running_totals": running,
        "totals_after_round_7": after_7,
        "reneges": [str(r) for result in state.results for r in result.reneges],
        "tie_break": tie_break,
        "partners": state.rules.partners,
        "objectives": state.rules.objectives.notice,
        "next_dealer": winners[0] if len(winners) == 1 else None,
    }
    if state.rules.partners:
        detail["teams"] = [list(unit) for unit in units]
        detail["team_totals"] = unit_totals
        detail["team_totals_after_round_7"] = unit_after_7
    return Outcome(winners=winners, scores=tuple(totals), detail=detail)
