"""``lancards history``'s series (issue 27): the games of one chain of rematches share a
series, each rematch checked against the signed closing line of the game it follows."""

from __future__ import annotations

import json
import os
from pathlib import Path

from lancards.cli.history import lines, list_games


def _table(tables: Path, tbl: str, follows: dict | None, head: str | None, when: int) -> None:
    folder = tables / tbl
    folder.mkdir(parents=True)
    statement = {"tbl": tbl, "game": "eights", "seats": [{"pk": "aa" * 32, "nick": "ann"},
                                                         {"pk": "bb" * 32, "nick": "bob"},
                                                         {"pk": "cc" * 32, "nick": "cyd"}]}
    if follows is not None:
        statement["follows"] = follows
    (folder / "table.json").write_text(json.dumps({"statement": statement, "me": "aa" * 32}))
    (folder / "finished").touch()
    (folder / "outcome.json").write_text(json.dumps({"winners": [1], "scores": [5, 1, 9]}))
    if head is not None:
        (folder / "record.jsonl").write_text('{"kind": "entry"}\n' + json.dumps(
            {"kind": "close", "head": head}) + "\n")
    for f in folder.iterdir():
        os.utime(f, (when, when))


def test_a_chain_of_rematches_shares_a_series_and_a_broken_link_is_said(tmp_path: Path) -> None:
    first, second, third = "a1" * 8, "b2" * 8, "c3" * 8
    _table(tmp_path, first, None, "11" * 32, 1_796_000_000)
    _table(tmp_path, second, {"tbl": first, "head": "11" * 32, "series": first, "game": 2},
           "22" * 32, 1_796_003_600)
    _table(tmp_path, third, {"tbl": second, "head": "99" * 32, "series": first, "game": 3},
           None, 1_796_007_200)
    _table(tmp_path, "d4" * 8, None, "44" * 32, 1_795_990_000)  # a game of its own
    games = list_games(tmp_path)
    assert [(g.table, g.series, g.series_game, g.link) for g in games] == [
        (third, first, 3, False), (second, first, 2, True), (first, first, 1, None),
        ("d4" * 8, "d4" * 8, 1, None)]
    out = [line.split("  8s Rule!: ")[1] for line in lines(games, width=200)[::2]]
    assert out == [
        "bob won · game 3 of series a1a1a1a1 (the record of the game before does not match)",
        "bob won · game 2 of series a1a1a1a1",
        "bob won · game 1 of series a1a1a1a1",
        "bob won",
    ]
    assert json.loads(json.dumps(games[1].to_json()))["follows_verified"] is True
