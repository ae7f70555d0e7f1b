"""The persona suite's step for another game with the same players at a ``lancards play``
table (Tess's terminal: tmux at 80x24, :class:`tests.e2e.test_persona_play.Terminal`), under
kill -9 at the write that keeps the evening.

Game 1 is a seeded 8s Rule! of You, Ada and Bram (``--autoplay --seed 5``, greedy bots, the
game of ``tests/cli/tui/test_tmux_again.py``: You win with 80 points), killed inside "play
again" (``rematch-after:1``), so that ``lancards resume`` shows its game-over panel. There ``2``
picks Level 8 with the same players: the new table's ``table.json`` keeps the evening before it
(``evening``, read by a resume) from its first write. The process is killed just before that
write, halfway through it (``torn``: half of the file in ``table.json.tmp``, no ``table.json``)
or just after it (``LANCARDS_TEST_CRASH_AT=evening-WHEN:1``, p2p/net/crash_hook.py), twice in a
row (before and torn: at the resume's own write of another new table, whose id is drawn anew;
after it, the second kill comes while the resumed new table plays); then the Level 8 table
shows everyone in the place they had at game 1, the file is whole, and at the end of game 2
(played out by ``lancards resume --autoplay``, killed inside its "play again") the game-over
panel's evening line counts both games, as without the crash.

Found here: the evening was a second write after the new table's ``table.json`` (killed between
the two, game 2's panel said no evening), and the "no" to game 1 came before both (killed
before the new table's write, ``lancards resume`` found no table at all: the other game and the
evening were lost).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.protocol.identity import Identity
from tests.e2e.test_persona_play import ROOT, Terminal

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
              pytest.mark.timeout(240)]

GAME_ONE = ["play", "--autoplay", "--game", "eights", "--seed", "5", "--bots", "2",
            "--bot-level", "greedy", "--bot-delay", "0", "--games", "2"]
ASK = " play again with the same players? a: play again · q: leave"
OTHERS = [" or another game with them: 1: Level 8 Master · 2: Level 8 ·",
          "   3: Level 8 (English)"]
EVENING = [{"game": "eights", "games": 1, "totals": [
    {"nick": "Ada", "won": 0, "score": 215}, {"nick": "Bram", "won": 0, "score": 205},
    {"nick": "You", "won": 1, "score": 80}]}]
"""Game 1 as the new table's ``table.json`` keeps it (the keys left out)."""


def _env(home: Path, crash: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", CRASH_ENV)}
    return {**env, "LANG": "C.UTF-8", "LANCARDS_HOME": str(home), CRASH_ENV: crash}


def _lancards(home: Path, words: list[str], crash: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lancards", *words], cwd=ROOT,
                          env=_env(home, crash), capture_output=True, text=True, timeout=120)


def _rows(tess: Terminal, limit: float = 30) -> list[str]:
    """Tess's screen once it shows the Level 8 table's players (the deal is the resumed
    peers' own: only the places are the same on every run)."""
    deadline, lines = time.monotonic() + limit, []
    while time.monotonic() < deadline:
        lines = [line.rstrip() for line in tess.screen()]
        if lines[0].startswith(" Level 8 · round ") and any(
                line.startswith(" > 3 You ") for line in lines):
            return lines
        if " Enter: continue · q quit" in lines:  # a round the bots ended before the kill (a busy
            tess.keys("Enter")  # machine: the autoplay resume played on for a while)
            time.sleep(0.5)
        time.sleep(0.1)
    raise AssertionError("\n".join(["the Level 8 table did not show:", *lines]))


def _evening_kept(folder: Path, first: Path) -> list[dict[str, object]]:
    """The new table's ``table.json``, read whole (JSON), its evening without the keys (its
    game 1 names ``first``, its table)."""
    data = json.loads((folder / "table.json").read_text("utf-8"))
    assert not (folder / "table.json.tmp").exists()
    assert [game.pop("table") for game in data["evening"]] == [first.name]
    return [{**game, "totals": [{k: v for k, v in t.items() if k != "pk"}
                                for t in game["totals"]]} for game in data["evening"]]


def _is_torn(path: Path) -> None:
    """``path`` holds the first half of a new table's ``table.json`` (``evening-torn:1``):
    its statement begun, not a JSON document."""
    text = path.read_text("utf-8")
    assert text.startswith('{\n "statement": {') and '"evening"' not in text, text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def _kill_once_it_plays(home: Path, folder: Path) -> str:
    """``lancards resume --autoplay`` killed (SIGKILL) once ``folder``'s journal holds a move:
    the resumed table plays; what it printed."""
    journal = folder / "journal.jsonl"
    with subprocess.Popen([sys.executable, "-m", "lancards", "resume", "--autoplay"], cwd=ROOT,
                          env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        deadline = time.monotonic() + 30
        while not (journal.exists() and '"kind":"entry"' in journal.read_text("utf-8")):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        proc.kill()
        out, err = proc.communicate()
    assert err == ""
    return out


def _game_over(tess: Terminal, crash: str = "") -> None:
    """``lancards resume`` (``crash``: the crash point it runs with): game 1's game-over panel,
    its result and the other games, as every run shows them."""
    tess.run("resume --bot-delay 0", env=f"{CRASH_ENV}={crash}" if crash else "")
    lines = [line.rstrip() for line in tess.wait(ASK)]
    assert lines[1:5] == [" result: You win with the lowest total", " You: 80 points",
                          " Bram: 205 points", " Ada: 215 points"], lines
    assert lines[lines.index(ASK) + 1:lines.index(ASK) + 3] == OTHERS, lines


@pytest.mark.long  # some 45 s each: two whole games through real peers, six processes
@pytest.mark.parametrize("when", ["before", "torn", "after"])
def test_another_game_killed_at_the_write_of_its_evening_twice_keeps_the_evening(
        tmp_path: Path, when: str) -> None:
    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    done = _lancards(tmp_path, GAME_ONE, "rematch-after:1")  # a bot's answer durable, not yours
    assert done.returncode == -signal.SIGKILL, done.stderr
    [first] = (tmp_path / "tables").iterdir()
    header = json.loads((first / "record.jsonl").read_text("utf-8").split("\n")[0])
    assert header["nicks"] == ["Ada", "Bram", "You"]  # game 1's places
    tess = Terminal(tmp_path)

    def written() -> list[Path]:
        return [f for f in (tmp_path / "tables").iterdir()
                if f != first and (f / "table.json").exists()]

    def torn() -> list[Path]:
        return [f for f in (tmp_path / "tables").iterdir() if (f / "table.json.tmp").exists()]

    try:
        for time_ in (1, 2):  # twice in a row
            if when != "after" or time_ == 1:
                # game 1's end (nothing was answered there), 2: Level 8 with the same players,
                # killed just before or just after its table.json is written with the evening
                _game_over(tess, f"evening-{when}:1")
                tess.keys("2")
                assert tess.exit_status() == 128 + signal.SIGKILL
            else:  # the new table is the one resumed: killed once it plays
                [second] = written()
                told = _kill_once_it_plays(tmp_path, second)
                assert told.startswith(f"resuming table {second.name[:8]} (Level 8, with Ada, "
                                       "Bram): the most recent of 2 unfinished tables; "), told
                # killed after the write, before the "no" at game 1's end: its "play again"
                # ends at the new table's resume (its end is not offered once more)
                assert (first / "again-over").exists()
            if when == "torn":  # half of the new table's table.json, in its temporary file
                assert len(torn()) == time_  # each kill's own new table (ids are drawn)
                for folder in torn():
                    _is_torn(folder / "table.json.tmp")
            if when != "after":
                assert written() == []  # no table.json, not a part of one
            else:
                [second] = written()
                assert _evening_kept(second, first) == EVENING
        if when != "after":  # the third time, no crash: game 1's end asks again
            _game_over(tess)
            tess.keys("2")
        else:
            tess.run("resume --bot-delay 0")
        # the Level 8 table, everyone in the place they had at game 1
        lines = _rows(tess)
        at = next(i for i, line in enumerate(lines) if line.startswith("   # player"))
        assert [line[:10] for line in lines[at + 1:at + 4]] == [  # under its header (the
            "   1 Ada  ", "   2 Bram ", " > 3 You  "]  # evening's line may stand above it)
        [second] = written()
        assert _evening_kept(second, first) == EVENING
        assert (first / "again-over").exists()  # game 1's "play again" is over
        tess.keys("C-c")
        assert tess.exit_status() == 1
        # game 2 played out, killed inside its "play again": its panel on a resume
        done = _lancards(tmp_path, ["resume", "--autoplay"], "rematch-after:1")
        assert done.returncode == -signal.SIGKILL, done.stderr
        [winner] = [m[1] for line in done.stdout.splitlines()
                    if (m := re.match(r"Level 8: (\S+) wins? after ", line))]
        wins = {name: int(name == winner) + int(name == "You")
                for name in ("Ada", "Bram", "You")}
        evening = " evening so far: " + " · ".join(
            f"{name}: {won} win{'' if won == 1 else 's'}" for name, won in wins.items())
        tess.run("resume --bot-delay 0")
        lines = [line.rstrip() for line in tess.wait(ASK)]
        said = "You win" if winner == "You" else f"{winner} wins"
        assert lines[1].startswith(f" result: {said} after "), lines
        assert evening in lines, "\n".join([evening, *lines])  # as without the crash
        assert _evening_kept(second, first) == EVENING
        tess.keys("q")
        assert tess.exit_status() == 0
        assert (tmp_path / "err.txt").read_text() == ""
    finally:
        tess.close()
