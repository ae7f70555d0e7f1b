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


def places(
    state: EightsState,
    units: Sequence[Sequence[Seat]],
    whole: Sequence[int],
    unit_totals: Sequence[int],
    unit_after_7: Sequence[int],
) -> tuple[int, ...]:
    """Per seat, its 1-based place (rulings E-9, E-10, D-2, D-3).

    The units without a seat that left rank by lowest total, then highest total after round 7
    (E-9); units equal on both share a place, and partners share their team's place. Then the
    seats still at the table whose partner left (their team lost, D-3), sharing one place;
    then the seats that left, the later leaver higher (D-2). A place is one more than the
    number of seats ranked strictly ahead.
    """
    key = {i: (unit_totals[i], -unit_after_7[i]) for i in whole}
    out = [0] * state.n
    for i in whole:
        ahead = sum(len(units[j]) for j in whole if key[j] < key[i])
        for seat in units[i]:
            out[seat] = 1 + ahead
    ranked = sum(len(units[i]) for i in whole)
    stranded = [s for i, unit in enumerate(units) if i not in whole for s in unit
                if s not in state.left]
    for seat in stranded:
        out[seat] = 1 + ranked
    for rank, seat in enumerate(reversed(state.left)):
        out[seat] = 1 + ranked + len(stranded) + rank
    return tuple(out)


def final_outcome(state: EightsState) -> Outcome:
    """The outcome of a finished game (rulings E-9, E-10).

    ``scores`` are the seats' own totals; with partners the winners are both (or all) members of
    the winning team. ``detail`` holds ``rounds``, ``round_totals`` (per round, per seat, penalties
    included), ``round_points``, ``running_totals``, ``totals_after_round_7``, ``reneges``
    (one line each), ``teams`` and ``team_totals`` (partners), ``tie_break`` and
    ``next_dealer`` (the single winner deals the next game's round 1, ruling E-2; None for a
    shared or team win, where the next game cuts), ``places`` (per seat, see :func:`places`)
    and ``left`` (the seats that left, in the order they left, each ranked last and marked
    "left": ruling D-2). A game ended early by ruling D-3 has fewer than 8 ``rounds``; its
    totals are those of the finished rounds (the abandoned round scores nothing, D-1), and
    without a round 7 the E-9 tie-break finds every tied player level (a shared win).
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
    # Ruling D-3: only the units (players, or teams of partners) without a seat that left
    # compete; a team whose member left loses (E-10).
    whole = [i for i, unit in enumerate(units) if not set(unit) & set(state.left)]
    best_whole, tie_break = ranking([unit_totals[i] for i in whole],
                                    [unit_after_7[i] for i in whole])
    best = tuple(whole[i] for i in best_whole)
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
        "places": list(places(state, units, whole, unit_totals, unit_after_7)),
        "left": list(state.left),
    }
    if state.rules.partners:
        detail["teams"] = [list(unit) for unit in units]
        detail["team_totals"] = unit_totals
        detail["team_totals_after_round_7"] = unit_after_7
    return Outcome(winners=winners, scores=tuple(totals), detail=detail)
