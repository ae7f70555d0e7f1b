"""The evening carries on into another game at a host/join table, as at ``lancards play``
(``evening_next`` in ``cli/play_again.py``, ``RemoteAgain._save``): after Level 8 Master, then
8s Rule! chosen with the same players, the "evening so far" line and the next game's first line
counted the new series only (its totals started again). Each seat keeps the games before the
series in its own ``table.json`` (``evening``); the signed statement does not carry them."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from lancards.cli.play_again import evening_next, evening_of, series_words
from lancards.cli.remote_again import RemoteAgain
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.table import start_local
from tests.p2p.core_harness import identities
from tests.p2p.test_rematch import Bus, peers

NB = "\u00a0"  # evening_line's no-break spaces


def _evening() -> tuple[list[Rematch], Finished, Finished]:
    """Level 8 Master won by the first seat, then 8s Rule! (every "yes" naming it) won by the
    second: every seat's agreement after game 1, and both finished games."""
    people = identities(3)
    first = start_local(people, "level8-master", {}, table="00000000000000c1")
    done = Finished(first, "ab" * 32, (0,), (9, 4, 2), 0)
    order = [m.public_key for m in first.seats]
    rematches = peers(sorted(people, key=lambda p: order.index(p.public_key)), done)
    bus = Bus(rematches)
    for r in rematches:
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    second = rematches[0].started
    assert second is not None and second.statement["follows"]["game"] == 1
    return rematches, done, Finished(second, "cd" * 32, (1,), (120, 40, 95), None)


def _save(r: Rematch, tmp_path: Path, old: dict[str, object]) -> dict[str, object]:
    """``RemoteAgain._save`` of the next table for ``r``'s seat (no links); its table.json."""
    again = RemoteAgain.__new__(RemoteAgain)
    again.rematch, again.old, again.locks, again._saved = r, old, [], set()
    again.node = SimpleNamespace(core=SimpleNamespace(game=SimpleNamespace(name="level8")))
    again.folder = tmp_path / "tables" / r.table_id
    assert r.started is not None
    (tmp_path / "tables" / r.started.spec.table).mkdir(parents=True)
    try:
        again._save(r.started.statement, r.started.sigs)
    finally:
        for lock in again.locks:
            lock.release()
    return json.loads((tmp_path / "tables" / r.started.spec.table / "table.json").read_text())


def test_the_next_tables_json_keeps_the_evening_and_its_lines_count_both_games(
        tmp_path: Path) -> None:
    rematches, done, second = _evening()
    ann, bob, cyd = (m.nick for m in done.table.seats)
    data = _save(rematches[0], tmp_path, {"mode": "remote", "peers": {}})
    assert data["evening"] == [{"game": "level8", "games": 1, "totals": done.totals(),
                                "table": done.table.spec.table}]
    assert "evening" not in data["statement"]  # kept by the seat, not signed
    before = data["evening"]
    assert isinstance(before, list)
    assert series_words(second.table, "eights", b"", before) == [
        "game 2 of the evening: 8s Rule!"]
    # game 2's end: both games in the evening line (it counted 8s Rule! alone, from game 2 of
    # its series on)
    assert evening_of(second, "eights", "", before) == (
        f"evening so far: {ann}:{NB}1{NB}win{NB}· {bob}:{NB}1{NB}win{NB}· {cyd}:{NB}0{NB}wins")
    assert evening_of(second, "eights") is None  # without the evening: one game, no line


def test_the_same_game_keeps_the_evening_before_its_series_as_it_was() -> None:
    rematches, done, _second = _evening()
    earlier = [{"game": "eights", "games": 2, "totals": [], "table": "00000000000000a1"}]
    assert evening_next(done, "level8", earlier, {"follows": {"game": 2}}) == tuple(earlier)
    assert evening_next(done, "level8", earlier, rematches[0].started.statement
                        if rematches[0].started else {}) == (
        *earlier, {"game": "level8", "games": 1, "totals": done.totals(),
                   "table": done.table.spec.table})
    assert evening_next(None, "level8", earlier, {"follows": {"game": 1}}) == tuple(earlier)


@pytest.mark.usefixtures("german")
def test_in_german() -> None:
    _, done, second = _evening()
    ann, bob, cyd = (m.nick for m in done.table.seats)
    before = evening_next(done, "level8", (), second.table.statement)
    assert series_words(second.table, "eights", b"", before) == [
        "Spiel 2 des Abends: 8s Rule!"]
    assert evening_of(second, "eights", "", before) == (
        f"der Abend bisher: {ann}:{NB}1{NB}Sieg{NB}· {bob}:{NB}1{NB}Sieg{NB}· {cyd}:{NB}0{NB}Siege")
