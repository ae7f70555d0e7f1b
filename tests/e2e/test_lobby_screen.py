"""``lancards join`` in a terminal as a person would: the lobby screen lists the table it found
by mDNS on its own, Enter joins it, and the game's table screen comes up (tmux at 100x30)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import host_args, seat_peers
from tests.names import tmux_argv

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def tmux(*args: str) -> str:
    return subprocess.run(tmux_argv(*args), capture_output=True, text=True, timeout=10).stdout


def wait_screen(session: str, pattern: str, limit: float) -> str:
    deadline = time.monotonic() + limit
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if re.search(pattern, screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{pattern!r} did not show within {limit} s; the screen:\n{screen}")


def test_lobby_lists_the_table_found_by_mdns_and_joins_it(lan, tmp_path):
    ann, bob = seat_peers(lan, tmp_path, 2)
    ann.start([*host_args(ann, "level8", 3), "--bots", "1"])
    bob.folder.mkdir(parents=True, exist_ok=True)
    session = f"lobby-{lan.tag}"
    command = (f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec {lan.namespace(bob.host)} "
               f"{sys.executable} -m lancards join --name bob --interface {bob.address}")
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session, command)
    try:
        # the seats bots play are marked (mDNS TXT bots; the LAN trial of 2026-12-06): ann's
        # own seat too, as --autoplay has a bot play it
        screen = wait_screen(session, r"Level 8 +ann .* 2/3 +ann \(bot\), Ada \(bot\)", 30)
        assert "lancards lobby" in screen and "you are bob [" in screen
        assert " at the table: ann (bot), Ada (bot)\n" in screen, screen
        assert f"{ann.address}:" in screen
        tmux("send-keys", "-t", session, "Enter")
        screen = wait_screen(session, r"your hand \((?:10|11) cards", 60)
        assert "Level 8 · round 1" in screen
        assert re.search(r"^ (?:>| ) \d bob ", screen, re.MULTILINE), screen
        assert re.search(r"^ (?:>| ) \d ann ", screen, re.MULTILINE), screen
    finally:
        tmux("kill-session", "-t", session)


def test_lobby_creates_a_table_that_another_peer_joins(lan, tmp_path):
    from tests.e2e.peers import join_args

    ann, bob = seat_peers(lan, tmp_path, 2)
    bob.folder.mkdir(parents=True, exist_ok=True)
    session = f"create-{lan.tag}"
    command = (f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec {lan.namespace(bob.host)} "
               f"{sys.executable} -m lancards join --name bob --interface {bob.address} "
               "--game level8 --players 2")
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session, command)
    try:
        wait_screen(session, r"lancards lobby", 30)
        tmux("send-keys", "-t", session, "n", "2", "2")  # create: Level 8 (2), 2 seats
        wait_screen(session, r"(?m)^ waiting for 1 player$", 30)  # the waiting screen
        ann.start(join_args(ann))
        screen = wait_screen(session, r"your hand \((?:10|11) cards", 60)
        assert "Level 8 · round 1" in screen
        assert re.search(r"^ (?:>| ) \d bob ", screen, re.MULTILINE), screen
        assert re.search(r"^ (?:>| ) \d ann ", screen, re.MULTILINE), screen
    finally:
        tmux("kill-session", "-t", session)
