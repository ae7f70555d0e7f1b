"""``lancards bench deck`` runs and prints one JSON line per configuration (no timing asserted)."""

from __future__ import annotations

import json

import pytest

from lancards.cli.main import main

KEYS = {
    "peers",
    "cards",
    "prove_ms",
    "verify_ms",
    "shuffle_cpu_s",
    "critical_path_s",
    "deal_cpu_per_peer_s",
    "draw_cpu_ms",
    "machine",
}


def test_bench_deck_prints_one_json_line_per_configuration(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "deck", "--config", "2x22", "--config", "3x33", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    figures = [json.loads(line) for line in lines]
    assert [(f["peers"], f["cards"]) for f in figures] == [(2, 22), (3, 33)]
    for f in figures:
        assert set(f) >= KEYS
        assert f["critical_path_s"] <= f["shuffle_cpu_s"]
        assert f["machine"]["cpus"] >= 1


@pytest.mark.parametrize("config", ["6x60", "1x20", "ax3", "3by60"])
def test_bench_deck_rejects_bad_configurations(
    config: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "deck", "--config", config]) == 2
    assert f"--config {config!r}" in capsys.readouterr().err
