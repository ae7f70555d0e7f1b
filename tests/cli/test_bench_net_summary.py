"""``lancards bench net --runs N``: the summary line issue 23's goal is read on (the median of
every run's move p95, ``docs/benchmarks.md``)."""

from __future__ import annotations

import pytest

from lancards.cli.bench.net import summary


def run(p95: float | None, median: float | None, deal: float) -> dict[str, object]:
    return {"bench": "net", "game": "level8-master", "peers": 6, "move_p95_ms": p95,
            "move_median_ms": median, "deal_s": deal}


def test_the_summary_gives_every_p95_sorted_and_their_median() -> None:
    lines = [run(48.85, 12.47, 1.159), run(36.33, 11.33, 1.133), run(41.72, 9.91, 0.98),
             run(43.93, 9.92, 0.918)]
    assert summary(lines) == {
        "bench": "net-summary", "game": "level8-master", "peers": 6, "runs": 4,
        "move_p95_ms_sorted": [36.33, 41.72, 43.93, 48.85],
        "median_move_p95_ms": 42.83, "median_move_median_ms": 10.62, "median_deal_s": 1.056}


def test_a_run_without_moves_is_left_out_of_the_medians_but_counted() -> None:
    assert summary([run(None, None, 2.0), run(40.0, 10.0, 1.0)])["move_p95_ms_sorted"] == [40.0]
    assert summary([run(None, None, 2.0), run(40.0, 10.0, 1.0)])["runs"] == 2


def test_no_measured_move_is_an_error_not_a_median_of_nothing() -> None:
    with pytest.raises(ValueError, match="no run measured a move"):
        summary([run(None, None, 2.0)])
