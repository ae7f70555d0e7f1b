"""A German table as a person meets it (issue 28): ``lancards play --lang de`` in tmux at 80x24
and 100x30, a Level 8 Master round and an 8s Rule! round, keys only, the screen read back and
compared with a golden screen (``tests/cli/tui/golden/tmux-de-*.txt``; LANCARDS_REGEN_GOLDEN=1
writes them). The in-process table (``--local``) with a fixed seed and no bot delay shows the
same screen at the person's first turn every time."""

from __future__ import annotations

import os
import sys

import pytest

from tests.cli.tui.test_golden_screens import check
from tests.cli.tui.test_tmux import REPO, TMUX, capture, changed, settled, tmux, wait_for

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed "
                                "(apt-get install tmux; .ci/run installs it)")

SIZES = [(80, 24), (100, 30)]


def fits(screen: str, size: tuple[int, int]) -> None:
    lines = screen.splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines), screen
    assert "…" not in screen and "DU BIST DRAN" in screen, screen


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("game", "key", "shown"), [
    ("level8-master", "d", "vom Nachziehstapel gezogen"),
    ("eights", "enter", "Du"),
], ids=["level8-master", "eights"])
def test_a_german_table_in_tmux(tmp_path, game: str, key: str, shown: str,
                                size: tuple[int, int]) -> None:
    name = f"lancards-de-{os.getpid()}-{game}-{size[0]}"
    command = (f"cd {REPO} && LANCARDS_HOME={tmp_path} LANGUAGE= LC_ALL= LANG=de_DE.UTF-8 "
               f"{sys.executable} -m lancards play --local --game {game} --seed 5 "
               "--bot-delay 0 --name Tess")
    tmux("new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), "-s", name, command)
    try:
        wait_for(name, r"DU BIST DRAN")
        screen = settled(name, lambda text: fits(text, size))
        check(f"tmux-de-{game}-{size[0]}x{size[1]}", screen.rstrip("\n"))
        before = capture(name)
        tmux("send-keys", "-t", name, key.capitalize() if key == "enter" else key)
        after = changed(name, before)
        assert shown in after, after  # the move, told in German in the log
        tmux("send-keys", "-t", name, "q")
        assert "Spiel" in wait_for(name, r"\?")  # the quit question, in German
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
