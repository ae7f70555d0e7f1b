"""``lancards history`` of a table open in another window, at 80 columns (the LAN trial of
2026-12-07, a Level 8 Master table of five): its row said ``unfinished`` and its second line was
cut before the table id (``Bram level 7, ann level 3, cy level 3, bea level 4, Ada level 4
after roun…``). The row now says it is being played now, by which process
(``folder_lock.live_holder``, as ``lancards play`` tells it), and the detail wraps between the
players, the table id on a line of its own, never cut."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest

from lancards.cli import history
from lancards.cli.i18n import set_language
from lancards.p2p.net.folder_lock import proc_start

T0 = 1_796_000_000  # 2026-11-30 00:53:20 UTC
TABLE = "6df135f7a0b1c2d3"
NICKS = ["Bram", "ann", "cy", "bea", "Ada"]


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    """An unfinished Level 8 Master table of five, after round 4, seen from ann's seat."""
    folder = tmp_path / TABLE
    folder.mkdir()
    seats = [{"pk": f"{i:02x}" * 32, "nick": nick} for i, nick in enumerate(NICKS)]
    (folder / "table.json").write_text(json.dumps({
        "statement": {"tbl": TABLE, "game": "level8-master", "seats": seats},
        "me": seats[1]["pk"], "rule_set": "level8-master"}))
    (folder / "journal.jsonl").write_bytes(b"")
    (folder / "totals.json").write_text(json.dumps({"round": 4, "scores": [7, 3, 3, 4, 4],
                                                    "journal": {"bytes": 0, "sha256":
                                                                hashlib.sha256(b"").hexdigest()}}))
    for f in folder.iterdir():
        os.utime(f, (T0, T0))
    return tmp_path


def _hold(tables: Path, pid: int, start: int | None) -> None:
    (tables / TABLE / "holder.json").write_text(json.dumps(
        {"pid": pid, "command": "lancards host", "since": T0, "proc_start": start}))


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.delenv("TZ")
    time.tzset()
    set_language("en")


def test_a_table_held_by_a_live_process_is_being_played_now_and_keeps_its_id(
        tables: Path) -> None:
    _hold(tables, os.getpid(), proc_start(os.getpid()))
    (game,) = history.list_games(tables)
    assert history.lines([game], 80) == [
        "  1  2026-11-30 00:53  Level 8 Master:",
        f"     being played now (lancards host, process {os.getpid()})",
        "     Bram level 7, ann level 3, cy level 3, bea level 4,",
        "     Ada level 4 after round 4",
        f"     table {TABLE}"]
    assert game.to_json()["playing"] == {"command": "lancards host", "pid": os.getpid()}
    set_language("de")
    assert history.lines([game], 80) == [
        "  1  2026-11-30 00:53  Level 8 Master:",
        f"     wird gerade gespielt (lancards host, Prozess {os.getpid()})",
        "     Bram: Stufe 7, ann: Stufe 3, cy: Stufe 3, bea: Stufe 4,",
        "     Ada: Stufe 4 nach Runde 4",
        f"     Tisch {TABLE}"]


def test_a_paused_table_row_wraps_between_players_and_keeps_the_resume_whole(
        tables: Path) -> None:
    """Its process gone (a pid no process has): ``unfinished``, and ``lancards resume TABLE``
    whole on its own line at 80 columns; narrower, the players wrap between figures; into a
    pipe, one whole line as before."""
    _hold(tables, 2**22 + 7, 1)
    (game,) = history.list_games(tables)
    assert game.holder is None and game.to_json()["playing"] is None
    assert history.lines([game], 80) == [
        "  1  2026-11-30 00:53  Level 8 Master: unfinished",
        "     Bram level 7, ann level 3, cy level 3, bea level 4,",
        "     Ada level 4 after round 4",
        f"     lancards resume {TABLE}"]
    assert history.lines([game], 50)[1:] == [
        "     Bram level 7, ann level 3, cy level 3,",
        "     bea level 4, Ada level 4 after round 4",
        f"     lancards resume {TABLE}"]
    assert history.lines([game], 0)[1] == (
        "     Bram level 7, ann level 3, cy level 3, bea level 4, Ada level 4 after round 4 · "
        f"lancards resume {TABLE}")
    set_language("de")
    assert history.lines([game], 80) == [
        "  1  2026-11-30 00:53  Level 8 Master: nicht beendet",
        "     Bram: Stufe 7, ann: Stufe 3, cy: Stufe 3, bea: Stufe 4,",
        "     Ada: Stufe 4 nach Runde 4",
        f"     lancards resume {TABLE}"]
