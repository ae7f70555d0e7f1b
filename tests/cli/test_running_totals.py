"""``totals.json`` (:mod:`lancards.cli.running_totals`): the figures after the finished rounds,
written whole or not at all (``lancards history`` reads it: ``tests/cli/test_history.py``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from lancards.cli.running_totals import FILE, Running, RunningTotals, after_rounds
from lancards.engine.level8.state import Phase
from lancards.engine.rulesets import rule_set
from lancards.p2p.net import store


def test_level_8_counts_a_round_once_its_levels_have_moved() -> None:
    spec = rule_set("level8-master")
    state = spec.game.new_game(spec.make_rules(), 3)
    levels = (3, 2, 1)
    assert after_rounds("level8", state) is None  # the first dealer is drawn
    assert after_rounds("level8", state.evolve(round=1, phase=Phase.DRAW)) is None
    assert after_rounds("level8", state.evolve(round=3, phase=Phase.SHUFFLE, levels=levels)) \
        == Running(2, levels)
    assert after_rounds("level8", state.evolve(round=3, phase=Phase.PLAY, levels=levels)) \
        == Running(2, levels)
    assert after_rounds("level8", state.evolve(round=3, phase=Phase.KEEP, levels=levels)) \
        == Running(3, levels)
    assert after_rounds("level8", state.evolve(round=3, phase=Phase.OVER, levels=levels)) is None


class _Store:
    def __init__(self, folder: Path) -> None:
        self.folder, self.fault = folder, None

    def durable_prefix(self) -> tuple[int, str]:
        return 7, "ab" * 32


def _eights(*rounds: tuple[int, ...]) -> SimpleNamespace:
    totals = tuple(sum(r[s] for r in rounds) for s in range(3))
    return SimpleNamespace(results=rounds, totals=lambda: totals)


def test_a_failed_write_leaves_the_old_file_whole_and_stops_the_writing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = RunningTotals(_Store(tmp_path))
    writer.note("eights", _eights())  # no round finished: nothing
    assert not (tmp_path / FILE).exists()
    writer.note("eights", _eights((40, 110, 50)))
    first = (tmp_path / FILE).read_text()
    assert json.loads(first) == {"round": 1, "scores": [40, 110, 50],
                                 "journal": {"bytes": 7, "sha256": "ab" * 32}}

    def no_rename(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "replace", no_rename)
    writer.note("eights", _eights((40, 110, 50), (0, 45, 40)))
    assert (tmp_path / FILE).read_text() == first  # the old file, whole
    assert sorted(os.listdir(tmp_path)) == [FILE]  # no temporary file left
    monkeypatch.undo()
    writer.note("eights", _eights((40, 110, 50), (0, 45, 40), (50, 50, 0)))
    assert (tmp_path / FILE).read_text() == first  # best effort: stopped for good
    assert writer.written == Running(1, (40, 110, 50))
