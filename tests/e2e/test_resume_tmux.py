"""A person's session in a terminal (tmux, 100x30) killed with SIGKILL mid-game and started
again with ``lancards resume`` in a new terminal: the table comes back on screen, caught up
(issue 12)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import host_args, seat_peers, wait_for
from tests.e2e.test_lobby_screen import tmux, wait_screen

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.mark.timeout(300)
def test_a_persons_session_killed_and_resumed_in_tmux_shows_the_table_again(lan, tmp_path):
    ann, bob = seat_peers(lan, tmp_path, 2)
    ann.start(host_args(ann, "level8", 2))
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    table = ann.output().split("table ", 1)[1].split()[0]
    bob.folder.mkdir(parents=True, exist_ok=True)
    prefix = (f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec "
              f"{lan.namespace(bob.host)} {sys.executable} -m lancards")
    first = f"lc-play-{lan.tag}"
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", first,
         f"{prefix} join --name bob --interface {bob.address} --wait 30 {table}")
    second = f"lc-resume-{lan.tag}"
    try:
        screen = wait_screen(first, r"your hand \((?:10|11) cards", 90)
        assert "Level 8 · round 1" in screen
        entries = bob.journal_entries()
        assert entries > 0
        pane = int(tmux("list-panes", "-t", first, "-F", "#{pane_pid}").split()[0])
        os.killpg(os.getpgid(pane), signal.SIGKILL)  # the laptop crashed
        tmux("kill-session", "-t", first)
        assert ann.proc is not None and ann.proc.poll() is None  # the host waits
        tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", second,
             f"{prefix} resume")
        screen = wait_screen(second, r"your hand \((?:10|11) cards", 90)
        assert "Level 8 · round 1" in screen
        assert re.search(r"^ (?:>| ) \d bob ", screen, re.MULTILINE), screen
        assert re.search(r"^ (?:>| ) \d ann ", screen, re.MULTILINE), screen
        assert bob.journal_entries() >= entries
    finally:
        tmux("kill-session", "-t", first)
        tmux("kill-session", "-t", second)
