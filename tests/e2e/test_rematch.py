"""Play again across namespaces (issue 27): three peers (ann hosts with one bot seat, bob
joins) play two games in a row over the same links, of 8s Rule!, Level 8 and Level 8 Master;
bob's program is killed in the second game and ``lancards resume`` brings it back. The second
game's first dealer is the one the rules give (8s Rule!: the first game's winner, ruling E-2;
Level 8: the player left of the first game's first dealer, ruling L8-17), every peer prints the
same evening, each record audits alone and the second names the first. Then bob killed inside
"play again" itself (its journal lines, ``docs/protocol.md`` 6.1) and resumed into game 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import finish, host_args, join_args, lancards, logs, seat_peers, wait_for

pytestmark = pytest.mark.e2e


def _tables(home: Path) -> dict[int, Path]:
    """The table folders of ``home`` by game number in the series."""
    out = {}
    for table in home.glob("tables/*/table.json"):
        statement = json.loads(table.read_text())["statement"]
        out[int(statement.get("follows", {}).get("game", 1))] = table.parent
    return out


def _first_dealer(record: Path) -> int:
    """The first dealer of the game in ``record``, as an auditor replaying it finds it."""
    from lancards.p2p.protocol.audit import header_table
    from lancards.p2p.protocol.core import GameCore
    from lancards.p2p.protocol.record import verify_lines
    from lancards.p2p.protocol.statement import check_record_genesis

    lines = record.read_bytes().rstrip(b"\n").split(b"\n")
    observer = GameCore.observer(header_table(lines[0]))
    verify_lines(lines, observer.validator("record file"), check_record_genesis)
    assert observer.first_dealer is not None
    return observer.first_dealer


# Measured on the shared two-core machine (LANCARDS_LONG=1, --durations): eights about 80 s,
# level8 70 s, level8-master 101 s. No option of the Level 8 rule sets shortens a game (its
# options are L8-9, L8-11, L8-14, L8-15; none sets a level target), so they stay long.
@pytest.mark.long  # two whole games across namespaces and a resume (minutes for Level 8)
@pytest.mark.timeout(1500)
@pytest.mark.parametrize("game", ["eights", "level8", "level8-master"])
def test_two_games_in_a_row_with_a_crash_and_resume_in_the_second(lan, tmp_path, game):
    ann, bob = seat_peers(lan, tmp_path, 2)
    ann.start([*host_args(ann, game, 3), "--bots", "1", "--games", "2"])
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    bob.start([*join_args(bob), "--games", "2"])
    wait_for(lambda: "game 2 of the evening" in bob.output(), 900, "no second game", [ann, bob])
    wait_for(lambda: len(_tables(bob.home)) == 2 and (_tables(bob.home)[2] / "journal.jsonl")
             .is_file() and (_tables(bob.home)[2] / "journal.jsonl").read_bytes().count(
                 b'"kind":"entry"') >= 40, 120, "the second game did not get going", [ann, bob])
    assert bob.proc is not None
    os.killpg(bob.proc.pid, signal.SIGKILL)
    assert bob.proc.wait(10) == -signal.SIGKILL
    bob.start(["resume", "--autoplay", "--record", str(bob.folder / "record-game2.jsonl")])
    assert finish([ann, bob], 900) == [0, 0], logs([ann, bob])
    first, second = (_tables(ann.home)[n] for n in (1, 2))
    assert {n: p.name for n, p in _tables(bob.home).items()} == {1: first.name, 2: second.name}
    outcome = json.loads((first / "outcome.json").read_text())
    old = json.loads((first / "table.json").read_text())["statement"]
    new = json.loads((second / "table.json").read_text())["statement"]
    if game == "eights":  # the second game's first dealer: the first game's winner (E-2)
        [winner] = outcome["winners"]
        assert new["seats"][new["options"]["first_dealer"]]["pk"] == old["seats"][winner]["pk"]
    else:  # the player left of the first game's first dealer (L8-17; the seats keep order)
        left = (_first_dealer(ann.record) + 1) % len(old["seats"])
        assert [m["pk"] for m in new["seats"]] == [m["pk"] for m in old["seats"]]
        assert new["options"]["dealer"] == left
    assert new["follows"]["tbl"] == first.name and new["follows"]["series"] == first.name
    # the same evening on every screen (the host's and bob's resumed one)
    evenings = [[line for line in p.output().splitlines() if line.startswith("evening so far")]
                for p in (ann, bob)]
    assert evenings[0][-1] == evenings[1][-1], evenings
    assert len(evenings[0]) == 1  # after game 2 only: one game is no evening (the trial)
    # each record audits alone, the second naming the game it follows
    for record, follows in ((ann.record, None), (ann.folder / "record-game2.jsonl", first.name),
                            (bob.folder / "record-game2.jsonl", first.name)):
        proc = subprocess.run(lancards("audit", "--json", str(record)), capture_output=True,
                              text=True, timeout=120, check=False, cwd=ROOT)
        verdict = json.loads(proc.stdout)
        assert proc.returncode == 0 and verdict["finished"], verdict
        assert (verdict["follows"] or {}).get("tbl") == follows, verdict
    records = [p.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in
               (ann.folder / "record-game2.jsonl", bob.folder / "record-game2.jsonl")]
    assert records[0] == records[1], "the second game's records differ after the resume"


def _kill_inside_play_again(lan, tmp_path, game: str, crashes: list[str]) -> tuple:
    """ann hosts ``game`` for three (one bot seat), bob joins; both say yes to a second game.
    bob's program kills itself (SIGKILL) at the first journal write of "play again" given by
    each of ``crashes`` in turn (``rematch-WHEN:N``, the crash hook), each time restarted with
    ``lancards resume --autoplay``; then resumed without one. Returns (ann, bob)."""
    env = {1: {"LANCARDS_TEST_CRASH_AT": crashes[0]}}
    ann, bob = seat_peers(lan, tmp_path, 2, env)
    ann.start([*host_args(ann, game, 3), "--bots", "1", "--games", "2"])
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    bob.start([*join_args(bob), "--games", "2"])
    record = str(bob.folder / "record-game2.jsonl")
    for crash in [*crashes[1:], ""]:
        assert bob.proc is not None
        assert bob.proc.wait(600) == -signal.SIGKILL, logs([ann, bob])
        assert (bob.home / "tables").is_dir()
        bob.env = {"LANCARDS_TEST_CRASH_AT": crash} if crash else {}
        bob.start(["resume", "--autoplay", "--record", record])
    return ann, bob


@pytest.mark.long  # two whole games across namespaces, two or three runs of bob (about 60 s)
@pytest.mark.timeout(600)
@pytest.mark.parametrize("crashes", [["rematch-after:1", "rematch-before:1"],
                                     ["rematch-after:2"]],
                         ids=["after-its-answer-then-before-its-next-write", "after-its-second"])
def test_a_joiner_killed_inside_play_again_resumes_into_the_next_game(lan, tmp_path, crashes):
    ann, bob = _kill_inside_play_again(lan, tmp_path, "eights", crashes)
    assert finish([ann, bob], 300) == [0, 0], logs([ann, bob])
    assert "resuming the agreement to play again" in bob.output()
    assert bob.output().count("game 2 of the evening") == 1, logs([bob])
    first, second = (_tables(ann.home)[n] for n in (1, 2))
    assert {n: p.name for n, p in _tables(bob.home).items()} == {1: first.name, 2: second.name}
    journal = (_tables(bob.home)[1] / "journal.jsonl").read_bytes()
    assert journal.count(b'"kind":"rematch"') >= 2  # its answer and the statement, journaled
    assert (_tables(bob.home)[1] / "again-over").exists()
    records = [p.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in
               (ann.folder / "record-game2.jsonl", bob.folder / "record-game2.jsonl")]
    assert records[0] == records[1], "the second game's records differ"


@pytest.mark.long  # one whole game across namespaces and two runs of bob (about 45 s)
@pytest.mark.timeout(600)
def test_a_joiner_resumed_inside_play_again_after_the_others_left_is_told_in_words(lan,
                                                                                   tmp_path):
    env = {1: {"LANCARDS_TEST_CRASH_AT": "rematch-after:1"}}
    ann, bob = seat_peers(lan, tmp_path, 2, env)
    ann.start([*host_args(ann, "eights", 3), "--bots", "1", "--games", "2"])
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    bob.start([*join_args(bob), "--games", "2"])
    assert bob.proc is not None and bob.proc.wait(600) == -signal.SIGKILL, logs([ann, bob])
    assert ann.proc is not None
    os.killpg(ann.proc.pid, signal.SIGKILL)  # the host and its bot gone: nobody answers
    ann.proc.wait(10)
    bob.env = {"LANCARDS_AGAIN_ALONE": "3"}
    bob.start(["resume", "--autoplay"])
    assert bob.proc.wait(120) == 2, logs([bob])
    table = _tables(bob.home)[1].name
    assert (f"no next game: no player of table {table} answered within 3 s (they stopped, "
            "or went on without you)") in bob.output(), logs([bob])
    assert "Traceback" not in bob.output()
