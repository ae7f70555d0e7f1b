"""Resumed inside "play again" across namespaces (issue 27), the paths ``test_rematch.py`` leaves:
a person's seat resumed with the full screen (no ``--autoplay``) sees the game-over panel ask
again, presses ``a`` and is at the next game's table; a host whose own process dies inside the
agreement brings its ``--bots`` seat back with ``lancards resume``, so the next game starts with
every seat (``cli/lobby/resume_again.py``)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import finish, host_args, join_args, logs, seat_peers, wait_for
from tests.names import end_tmux_server

pytestmark = pytest.mark.e2e

ASK = "play again with the same players? a: play again · q: leave"


def _tables(home: Path) -> dict[int, Path]:
    """The table folders of ``home`` (a host's bot seats: ``home/tables/T/bots``) by game."""
    out = {}
    for table in home.glob("tables/*/table.json"):
        statement = json.loads(table.read_text())["statement"]
        out[int(statement.get("follows", {}).get("game", 1))] = table.parent
    return out


def _dealer_line(host_output: str, me: str) -> str:
    """The line a seat named ``me`` shows of game 2's first dealer, from the host's output
    (``game 2 of the evening: NAME deals round 1 (...)``: the host names everyone)."""
    line = next(x for x in host_output.splitlines() if x.startswith("game 2 of the evening"))
    if line.startswith(f"game 2 of the evening: {me} deals "):
        return line.replace(f": {me} deals ", ": You deal ", 1)
    return line


class Tmux:
    """A tmux server of this test's own (``-L``), never the default one."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.name, *args], capture_output=True, text=True,
                              timeout=10).stdout

    def screen(self, session: str) -> str:
        return self("capture-pane", "-p", "-t", session)

    def wait(self, session: str, text: str, limit: float) -> str:
        """The screen once it shows ``text`` (exactly, on one line); fail with the last one."""
        deadline = time.monotonic() + limit
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(session)
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not show within {limit} s; the screen:\n{screen}")


@pytest.mark.long  # one whole game of 8s Rule! across namespaces, a resume (about 40 s)
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.timeout(400)
def test_a_person_resumed_inside_play_again_answers_on_the_screen_and_plays_game_2(lan,
                                                                                  tmp_path):
    env = {1: {"LANCARDS_TEST_CRASH_AT": "rematch-before:1"}}  # before its answer is durable
    ann, bob = seat_peers(lan, tmp_path, 2, env)
    ann.start([*host_args(ann, "eights", 3), "--bots", "1", "--games", "2"])
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    bob.start([*join_args(bob), "--games", "2"])
    assert bob.proc is not None and bob.proc.wait(300) == -signal.SIGKILL, logs([ann, bob])
    first = _tables(bob.home)[1]
    assert (first / "finished").exists() and not (first / "again-over").exists()
    assert b'"kind":"rematch"' not in (first / "journal.jsonl").read_bytes()  # nothing said
    tmux = Tmux(f"{lan.tag}-rematch4")
    session = "resume"
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session,
         f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec {lan.namespace(bob.host)} "
         f"{sys.executable} -m lancards resume")
    try:
        screen = tmux.wait(session, ASK, 60)
        assert "game over" in screen and "catching up" not in screen  # its game is whole
        result = next(x for x in ann.output().splitlines() if x.startswith("8s Rule!: "))
        assert "result: " + result.removeprefix("8s Rule!: ") in screen, screen  # game 1's
        # result, as the host printed it (there naming its game, the panel under its title)
        tmux("send-keys", "-t", session, "a")
        wait_for(lambda: "game 2 of the evening" in ann.output(), 60, "no second game",
                 [ann])
        screen = tmux.wait(session, _dealer_line(ann.output(), "bob"), 60)
        assert "8s Rule!" in screen and ASK not in screen
        # game 2's start says no evening: it would sum the one game before (the trial)
        assert "evening so far" not in screen and "evening so far" not in ann.output(), screen
        assert (first / "again").exists() and (first / "again-over").exists()
        assert set(_tables(bob.home)) == {1, 2}
        assert _tables(bob.home)[2].name == _tables(ann.home)[2].name
    finally:
        end_tmux_server(tmux.name)


@pytest.mark.long  # two whole games of 8s Rule! across namespaces, a resume (about 60 s)
@pytest.mark.timeout(600)
def test_a_host_killed_inside_play_again_brings_its_bot_seat_back_into_game_2(lan, tmp_path):
    env = {0: {"LANCARDS_TEST_CRASH_AT": "rematch-after:1"}}  # the host's or its bot's answer
    ann, bob = seat_peers(lan, tmp_path, 2, env)
    ann.start([*host_args(ann, "eights", 3), "--bots", "1", "--games", "2"])
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    bob.start([*join_args(bob), "--games", "2"])
    assert ann.proc is not None and ann.proc.wait(300) == -signal.SIGKILL, logs([ann, bob])
    first = _tables(ann.home)[1]
    [bot] = list((first / "bots").iterdir())
    assert (first / "again").exists() and not (first / "again-over").exists()
    assert not (bot / "again-over").exists() and "seed" in json.loads(
        (bot / "table.json").read_text())
    ann.env = {}
    ann.start(["resume", "--autoplay", "--record", str(ann.folder / "record-game2.jsonl")])
    assert finish([ann, bob], 300) == [0, 0], logs([ann, bob])
    assert "resuming the agreement to play again" in ann.output()
    second = _tables(ann.home)[2]
    statement = json.loads((second / "table.json").read_text())["statement"]
    bot_key = json.loads((bot / "table.json").read_text())["me"]
    assert len(statement["seats"]) == 3 and bot_key in {s["pk"] for s in statement["seats"]}
    assert (bot / "again-over").exists() and (first / "again-over").exists()
    assert (second / "bots" / bot.name / "finished").exists()  # the bot seat played game 2
    records = [p.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in
               (ann.folder / "record-game2.jsonl", bob.folder / "record-game2.jsonl")]
    assert records[0] == records[1], "the second game's records differ"
