"""``lancards play`` as a person would: in tmux at 100x30, keys sent, the screen read back."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lancards.p2p.net.identity_file import identity_path
from lancards.p2p.protocol.identity import Identity
from tests.names import tmux_argv

TMUX = shutil.which("tmux")
REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed "
                                "(apt-get install tmux; .ci/run installs it)")


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run(tmux_argv(*args), capture_output=True, text=True, timeout=10)
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
    match = re.search(r"your hand \((\d+) cards?", screen)
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
        screen = wait_for(name, r"You drew \S+ from the draw pile")  # the card, by name
        assert hand_count(screen) == before + 1
        drew = re.search(r"You drew (\S+) from the draw pile", screen)
        assert drew, screen
        first = drew.group(1)  # the cursor went with the drawn card (issue 25, item 14)
        tmux("send-keys", "-t", name, "x")
        screen = wait_for(name, r"You discarded")
        assert f"You discarded {first}" in screen
        # the networked log: in words, the round marked, never notation or slot ids
        assert "── round 1 · dealer " in screen and not NOTATION.search(screen), screen
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


# -- a whole round played by keys, as a person would, at the sizes people use ---------------

NOTATION = re.compile(r"#\d+|draw-discard|swap-put|keep-end|serve-skip|\b\d: (draw|discard|play)")
"""Move notation or a slot id: never on the screen (moves are told in words, cards by name)."""


def start_local(name: str, game: str, seed: int, size: tuple[int, int], home: Path) -> None:
    command = (f"cd {REPO} && LANCARDS_HOME={home} {sys.executable} -m lancards play --local "
               f"--game {game} --seed {seed} --bot-delay 0 --name Tess")
    tmux("new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), "-s", name, command)


def capture(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def changed(name: str, before: str, limit: float = 10.0) -> str:
    """The screen once it differs from ``before`` and has stopped changing (or ``limit`` s)."""
    deadline = time.monotonic() + limit
    screen = capture(name)
    while time.monotonic() < deadline:
        time.sleep(0.05)
        again = capture(name)
        if again != before and again == screen:
            return again
        screen = again
    return screen


def settled(name: str, check: Any, limit: float = 10.0) -> str:
    """The screen once ``check(screen)`` passes (a capture may catch a redraw half done);
    after ``limit`` s, the check's own failure."""
    deadline = time.monotonic() + limit
    while True:
        screen = capture(name)
        try:
            check(screen)
            return screen
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def check_screen(screen: str, size: tuple[int, int]) -> None:
    """What every screen of the table must show (issue 15)."""
    lines = screen.splitlines()
    assert len(lines) <= size[1] and all(len(line) <= size[0] for line in lines), screen
    assert not NOTATION.search(screen), screen
    assert not re.search(r"\(1 cards\b|\bYou (leads|wins|draws)\b|1 free seats", screen), screen
    if "YOUR TURN" in screen or "your hand" in screen:
        # seats count from 1, as the keys do; the key hints are never cut
        assert re.search(r"^ [ >] 1 Tess", screen, re.MULTILINE), screen
        assert not re.search(r"^ [ >] 0 ", screen, re.MULTILINE), screen
        assert re.search(r"\? keys|Esc cancels", screen), screen
    for line in lines:  # combinations count from 1 too
        assert not re.match(r"^  0 \w+: (set|run|colour)", line), screen


def play_round_by_keys(name: str, size: tuple[int, int], level8: bool) -> list[str]:
    """Play until the first round's result panel shows: draw with d, every other move with
    the list of legal moves (m, then 1). Returns every screen seen."""
    screens: list[str] = []
    from_pile = False
    screen = wait_for(name, r"YOUR TURN|[a-z]+ (draws|plays)")
    deadline = time.monotonic() + 90
    while "round 1 over" not in screen:
        assert time.monotonic() < deadline, screen
        screen = settled(name, lambda text: check_screen(text, size))
        if "round 1 over" in screen:
            break
        screens.append(screen)
        pile = re.search(r"^   2 Ada .* ([ROYGBP]\d+)\(\d+\)", screen, re.MULTILINE)
        if "YOUR TURN: draw a card" in screen and pile and not from_pile:
            keys, from_pile = ["2"], True  # the top of seat 2's (Ada's) discard pile
        elif "YOUR TURN: draw a card" in screen:
            keys = ["d"]
        elif "YOUR TURN" in screen or "every legal move" in screen:
            keys = ["m", "1"] if "every legal move" not in screen else ["1"]
        else:
            keys = []
        for key in keys:
            before = capture(name)
            tmux("send-keys", "-t", name, key)
            screen = changed(name, before)
        if keys and keys[-1] == "1" and "every legal move" in screen:
            before = screen  # 10 choices or more: "1" waits for a second digit or Enter
            tmux("send-keys", "-t", name, "Enter")
            screen = changed(name, before)
        if not keys:
            screen = changed(name, screen, limit=2.0)
    screens.append(screen)
    return screens


def log_lines(screens: list[str]) -> set[str]:
    return {line.strip() for screen in screens for line in screen.splitlines()}


@pytest.mark.timeout(240)
# CI budget: 100x30 is a long test (the golden screens check other sizes; 80x24 is the tightest)
@pytest.mark.parametrize("size", [(80, 24), pytest.param((100, 30), marks=pytest.mark.long)],
                         ids=["80x24", "100x30"])
def test_a_round_of_level8_master_by_keys_in_tmux(tmp_path, size):
    name = f"lancards-l8-{os.getpid()}-{size[0]}"
    start_local(name, "level8-master", 4, size, tmp_path)
    try:
        screens = play_round_by_keys(name, size, level8=True)
        seen = log_lines(screens)
        if os.environ.get("LANCARDS_SHOW_SCREENS"):
            print(len(screens), *screens[-3:], sep="\n")
        # the log tells moves in words with their cards, and marks the round
        assert "── round 1 · dealer Ada ──" in seen or \
            any("more above" in line for line in seen)
        assert any(re.fullmatch(r"You drew [ROYGBP]\d+ from the draw pile|You drew (J\S+|"
                                r"TAKE|SWAP|KEEP|SKIP) from the draw pile", line)
                   for line in seen), seen
        assert any(re.fullmatch(r"You drew [ROYGBP]\d+ from Ada's discard pile", line)
                   for line in seen), seen
        assert any(re.fullmatch(r"(Ada|Bram|Cleo) discarded \S+", line)
                   for line in seen)
        assert any(re.match(r"(Ada|Bram|Cleo) drew from the draw pile", line)
                   for line in seen)
        # after the round: every player's progress, then the full level card on o
        result = screens[-1]
        assert "levels climbed" in result and "Tess" in result
        for who in ("Tess", "Ada", "Bram", "Cleo"):
            assert re.search(rf"^ {re.escape(who)}: level 1 -> level \d", result,
                             re.MULTILINE), result
        assert len(screens) >= 5  # a whole round: several turns of Tess's, each by keys
        tmux("send-keys", "-t", name, "Enter")
        wait_for(name, r"round 2")
        tmux("send-keys", "-t", name, "o")
        screen = wait_for(name, r"your level card")
        for number in range(1, 9):
            assert f"level {number}: " in screen, screen
        tmux("send-keys", "-t", name, "Escape")
        # below the minimum size the keys do nothing but quit
        screen = wait_for(name, r"YOUR TURN|plays|draws|chooses|shows")
        tmux("resize-window", "-t", name, "-x", "60", "-y", "20")
        screen = wait_for(name, r"the table needs 80x24")
        for key in ("d", "m", "1", "Enter", "x"):
            tmux("send-keys", "-t", name, key)
        time.sleep(0.3)
        assert "the table needs 80x24" in capture(name)
        tmux("resize-window", "-t", name, "-x", str(size[0]), "-y", str(size[1]))
        screen = wait_for(name, r"your hand")
        assert "every legal move" not in screen
        tmux("send-keys", "-t", name, "q")
        wait_for(name, r"Leave the table\?")
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)


@pytest.mark.timeout(240)
# CI budget: 100x30 is a long test, as for Level 8 Master above
@pytest.mark.parametrize("size", [(80, 24), pytest.param((100, 30), marks=pytest.mark.long)],
                         ids=["80x24", "100x30"])
def test_a_round_of_eights_by_keys_in_tmux(tmp_path, size):
    name = f"lancards-8s-{os.getpid()}-{size[0]}"
    start_local(name, "eights", 4, size, tmp_path)
    try:
        first = wait_for(name, r"objective")
        # the objective is never cut: every word of it shows, at 80, 100 and 130 columns
        def whole_objective(screen: str) -> None:
            table = "\n".join(line.split("│")[0] for line in screen.splitlines())
            words = " ".join(table.split())  # the table column (the log stands right from 120)
            assert "No tricks: +10 per trick · lancards' own objectives · o lists them" in words, \
                screen

        for width in (size[0], 130):
            tmux("resize-window", "-t", name, "-x", str(width), "-y", str(size[1]))
            settled(name, whole_objective)
        tmux("resize-window", "-t", name, "-x", str(size[0]), "-y", str(size[1]))
        assert first
        screens = play_round_by_keys(name, size, level8=False)
        seen = log_lines(screens)
        if os.environ.get("LANCARDS_SHOW_SCREENS"):
            print(len(screens), *screens[-3:], sep="\n")
        assert any(re.fullmatch(r"You (led|played) [RBYG]\d+( \((no )?take\))?", line)
                   for line in seen), seen
        assert any(re.fullmatch(r"(You take|(Ada|Bram|Cleo) takes) trick \d+: "
                                r"([RBYG]\d+ ?){4}", line) for line in seen), seen
        assert any(re.search(r"trick \d+: You lead$", line) for line in seen) or \
            any("You led" in line for line in seen)
        result = screens[-1]
        assert len(screens) >= 14  # 15 tricks, a card of Tess's in each
        assert "totals by round" in result
        assert ["round", "1"] in [line.split() for line in result.splitlines()]  # the headings
        tmux("send-keys", "-t", name, "Enter")
        wait_for(name, r"round 2 of 8")
        tmux("send-keys", "-t", name, "o")
        screen = wait_for(name, r"round 7: ")
        words = " ".join(screen.split())
        assert "round 2: No Red cards: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 +5 " \
               "each; R15 +15; the round ends when none is left to take" in words
        tmux("send-keys", "-t", name, "Escape", "q")
        wait_for(name, r"Leave the table\?")
        tmux("send-keys", "-t", name, "y")
    finally:
        tmux("kill-session", "-t", name)
