"""``lancards play`` as a person would: in tmux at 100x30, keys sent, the screen read back."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.identity import Identity, identity_path

TMUX = shutil.which("tmux")
REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed "
                                "(apt-get install tmux; .ci/run installs it)")


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    return done.stdout


def wait_for(session: str, pattern: str, limit: float = 20.0) -> str:
    """Capture the pane until ``pattern`` (a regex) shows; fail with the last screen."""
    deadline = time.monotonic() + limit
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if re.search(pattern, screen):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{pattern!r} did not show within {limit} s; the screen:\n{screen}")


def hand_count(screen: str) -> int:
    match = re.search(r"your hand \((\d+) cards", screen)
    assert match, screen
    return int(match.group(1))


def test_play_in_tmux_shows_the_hand_a_draw_and_a_discard(tmp_path):
    # A fixed identity and seed make the networked table repeatable: with seed 2 Tess's
    # first move is a draw (the bots' keys, the table id and the deck come from the seed).
    path = identity_path(None, {"LANCARDS_HOME": str(tmp_path)})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(Identity(bytes([7]) * 32, "Tess").to_json())
    path.chmod(0o600)
    name = f"lancards-test-{os.getpid()}"
    command = (f"cd {REPO} && LANCARDS_HOME={tmp_path} {sys.executable} -m lancards play --seed 2 "
               "--bot-delay 0.05 --name Tess")
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", name, command)
    try:
        screen = wait_for(name, r"YOUR TURN: draw a card")
        seat_line = re.search(r"^(?: > |   )(\d) Tess", screen, re.MULTILINE)
        assert seat_line, screen  # the networked table seats people in key-hash order
        seat = seat_line.group(1)
        before = hand_count(screen)
        tmux("send-keys", "-t", name, "d")
        screen = wait_for(name, r"you played draw")
        assert hand_count(screen) == before + 1
        hand_line = lines_after(screen, "your hand")[0]
        first = hand_line.split()[0]  # the cursor starts on the first card
        tmux("send-keys", "-t", name, "x")
        screen = wait_for(name, r"you played discard")
        assert f"you played discard {first}" in screen
        tess = next(line for line in screen.splitlines() if f" {seat} Tess" in line)
        assert f" {first}(" in tess  # the top of Tess's discard pile
        # a smaller terminal: prompt-toolkit redraws on resize
        tmux("resize-window", "-t", name, "-x", "80", "-y", "24")
        screen = wait_for(name, r"your hand \(\d+ cards")
        assert len(screen.splitlines()[0]) <= 80
        tmux("send-keys", "-t", name, "q")
        wait_for(name, r"Leave the table\?")
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


def lines_after(screen: str, marker: str) -> list[str]:
    lines = screen.splitlines()
    index = next(i for i, line in enumerate(lines) if marker in line)
    return lines[index + 1:]
