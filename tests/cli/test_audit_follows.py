"""``lancards audit`` of a rematch's record names the game it follows in words a person reads:
short ids, as ``lancards history`` shows them, and the followed record's last entry by its
number and a short id; the full hashes only under ``--verbose``. The new-user trial of
2026-12-07 read ``... dessen Protokoll mit Eintrag <64 hex> endet`` (German ``audit`` of a
game-2 table)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from lancards.cli.record_tools import followed_entries, verdict_lines
from lancards.p2p.protocol.audit import AuditReport

HEAD = "c0ffee12" + "ab" * 28
FOLLOWS = {"tbl": "5d1e0c2a9b8f7e6d", "head": HEAD, "series": "77aa88bb99cc00dd", "game": 2}


def _report() -> AuditReport:
    return AuditReport(True, game="eights", entries=90, status="unfinished",
                       unfinished="the record stops here", follows=FOLLOWS,
                       names=["ann [A]", "bob [B]"])


def test_the_game_it_follows_by_short_ids_and_its_last_entry_by_number() -> None:
    lines = verdict_lines(_report(), 143)
    assert lines[0] == ("game 2 of series 77aa88bb: follows table 5d1e0c2a, whose record ends "
                        "in entry 143 (c0ffee12)")
    assert verdict_lines(_report())[0] == ("game 2 of series 77aa88bb: follows table 5d1e0c2a, "
                                           "whose record ends in entry c0ffee12")
    assert not any(HEAD in line for line in lines)
    assert verdict_lines(_report(), 143, verbose=True)[1] == (
        "  table 5d1e0c2a9b8f7e6d, series 77aa88bb99cc00dd, its record's last entry " + HEAD)


def test_the_same_in_german(german: None) -> None:
    assert verdict_lines(_report(), 143)[0] == (
        "Spiel 2 der Serie 77aa88bb: folgt auf Tisch 5d1e0c2a, dessen Protokoll mit Eintrag 143 "
        "(c0ffee12) endet")
    assert verdict_lines(_report())[0] == (
        "Spiel 2 der Serie 77aa88bb: folgt auf Tisch 5d1e0c2a, dessen Protokoll mit Eintrag "
        "c0ffee12 endet")
    assert verdict_lines(_report(), 143, verbose=True)[1] == (
        "  Tisch 5d1e0c2a9b8f7e6d, Serie 77aa88bb99cc00dd, letzter Eintrag seines Protokolls "
        + HEAD)


def _close(folder: Path, head: str, entries: int) -> None:
    folder.mkdir(parents=True)
    close = {"kind": "close", "by": "aa" * 32, "entries": entries, "head": head,
             "evidence": [], "sig": "bb" * 64}
    (folder / "record.jsonl").write_text('{"header":1}\n' + json.dumps(close) + "\n")


def test_the_followed_record_is_found_beside_the_audited_one(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "home"))
    tables = tmp_path / "tables"
    (tables / "e2e2e2e2e2e2e2e2").mkdir(parents=True)
    audited = str(tables / "e2e2e2e2e2e2e2e2" / "record.jsonl")
    assert followed_entries(audited, FOLLOWS) is None  # not here
    _close(tables / FOLLOWS["tbl"], "ff" * 32, 143)
    assert followed_entries(audited, FOLLOWS) is None  # another head: not that game's end
    (tables / FOLLOWS["tbl"] / "record.jsonl").unlink()
    (tables / FOLLOWS["tbl"]).rmdir()
    _close(tables / FOLLOWS["tbl"], HEAD, 143)
    assert followed_entries(audited, FOLLOWS) == 143
    assert followed_entries(audited, None) is None


def test_audit_takes_verbose() -> None:
    from lancards.cli.main import build_parser

    args = build_parser().parse_args(["audit", "--verbose", "x.jsonl"])
    assert isinstance(args, argparse.Namespace) and args.verbose is True
