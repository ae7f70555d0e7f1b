"""The skipped-turn notice (cli/tui/skipped_turn.py) as a person meets it: ``lancards play``
in tmux at 80x24, a Skip card played in front of the person, no key pressed.

The persona suite (``tests/e2e/test_persona.py``) cannot bring it about: at a table of
``host`` and ``join`` the deck is shuffled by every peer's own randomness (mental poker), so no
seed can put a Skip in a bot's hand, and a person playing a Skip at another person needs one.
``lancards play --local --seed N`` deals and plays its bots the same way every time: with seed
1 at Level 8 with three bots, Cleo puts a Skip in front of Tess before Tess's first turn."""

from __future__ import annotations

import os
import shutil
import sys
import time

import pytest

from tests.cli.tui.fits import COLUMNS, ROWS, check_fits
from tests.cli.tui.test_level8_screen import message_line
from tests.cli.tui.test_tmux import REPO, tmux, wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_a_skipped_turn_says_who_skipped_you_then_passes_by_itself(tmp_path):
    name = f"lancards-skip-{os.getpid()}"
    # each bot waits 0.4 s before its turn: the skipped turn's log line shows before Ada plays
    command = (f"cd {REPO} && LANCARDS_HOME={tmp_path} {sys.executable} -m lancards play "
               "--local --game level8 --seed 1 --bot-delay 0.4 --name Tess")
    tmux("new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), "-s", name, command)
    try:
        screen = wait_for(name, r"skipped you")
        check_fits(screen, "the skipped turn")
        assert message_line(screen) == " Cleo skipped you: your turn passes", screen
        assert "YOUR TURN: you are skipped" in screen, screen
        assert " Cleo put SKIP in front of you (Skip!)" in screen.splitlines(), screen
        assert screen.rstrip().splitlines()[-1] == (
            " your turn is skipped and passes by itself · Enter or e: at once · q quit"), screen
        # no key: 1.5 s later the turn passes; the notice stays while the next player acts
        seen = time.monotonic()
        screen = wait_for(name, r"(?m)^ Your turn was skipped \(Skip!\)$", 5)
        assert time.monotonic() - seen < 3.5, screen
        check_fits(screen, "the turn passed")
        assert "YOUR TURN" not in screen, screen
        assert message_line(screen) == " Cleo skipped you: your turn passes", screen
        wait_for(name, r"YOUR TURN: draw a card", 15)  # Tess's next turn, still no key
        tmux("send-keys", "-t", name, "q")
        wait_for(name, r"Leave the table\?")
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
