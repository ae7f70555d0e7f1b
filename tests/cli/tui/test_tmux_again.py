"""``lancards play`` killed inside "play again" and resumed with the full screen (issue 27), in
tmux as a person would see it (a tmux server of the test's own, ``-L``): the game-over panel
asks again (the person's answer was not durable), ``a`` answers, and the next game's table
follows with the evening's lines."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.protocol.identity import Identity
from tests.names import end_tmux_server, tmux_socket

REPO = Path(__file__).resolve().parents[3]
ASK = "play again with the same players? a: play again · q: leave"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed "
                                "(apt-get install tmux; .ci/run installs it)")


def _tmux(server: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", server, *args], capture_output=True, text=True,
                          timeout=10).stdout


def _wait(server: str, session: str, text: str, limit: float) -> str:
    """The screen once it shows ``text`` (exactly, on one line); fail with the last one."""
    deadline = time.monotonic() + limit
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux(server, "capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} did not show within {limit} s; the screen:\n{screen}")


@pytest.mark.long  # a whole seeded game of 8s Rule! through real peers, then a resume (~35 s)
@pytest.mark.timeout(300)
def test_lancards_play_resumed_inside_play_again_asks_on_the_screen_and_plays_game_2(
        tmp_path: Path) -> None:
    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    env = {**os.environ, "LANCARDS_HOME": str(tmp_path),
           "LANCARDS_TEST_CRASH_AT": "rematch-after:1"}  # a bot's answer durable, not yours
    proc = subprocess.run([sys.executable, "-m", "lancards", "play", "--autoplay", "--game",
                           "eights", "--seed", "5", "--bots", "2", "--bot-level", "greedy",
                           "--bot-delay", "0", "--games", "2"], cwd=REPO, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=200)
    assert proc.returncode == -signal.SIGKILL
    [first] = [f for f in (tmp_path / "tables").iterdir() if (f / "again").exists()]
    server, session = tmux_socket("again"), "resume"
    _tmux(server, "new-session", "-d", "-x", "100", "-y", "30", "-s", session,
          f"cd {REPO} && LANCARDS_HOME={tmp_path} {sys.executable} -m lancards resume "
          "--bot-delay 0")
    try:
        screen = _wait(server, session, ASK, 60)
        # the seeded game 1 (tests/cli/test_play_again.py): You won it
        for line in ("result: You win with the lowest total", "Ada: 215 points",
                     "Bram: 205 points", "You: 80 points"):
            assert line in screen, screen
        assert "evening so far" not in screen  # one game is no evening (the new-user trial)
        _tmux(server, "send-keys", "-t", session, "a")
        screen = _wait(server, session, "game 2 of the evening: You deal round 1 (the winner "
                       "of the last game deals)", 60)
        assert ASK not in screen and "8s Rule!" in screen
        assert (first / "again-over").exists()
        second = [f for f in (tmp_path / "tables").iterdir() if f != first]
        assert len(second) == 1 and (second[0] / "table.json").exists()
    finally:
        end_tmux_server(server)
