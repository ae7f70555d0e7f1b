"""The table's ``language`` file (cli/table_language.py) under kill -9 and damage: the process
killed just before, halfway through (the temporary file torn) and just after the write, twice
in a row (``LANCARDS_TEST_CRASH_AT=language-WHEN:1``, p2p/net/crash_hook.py); then ``lancards
resume`` (no ``--lang``, an English environment) opens the table in tmux at 80x24 in the old
language when the write never happened and in the new one after. A ``language`` file that holds
``xx``, nothing, bytes that are no text, or is a directory or cannot be read is no fault: the
table opens in the environment's English (a file of bytes that were no text stopped the session
at its start with a UnicodeDecodeError: its writer read it as ASCII outside its guard)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.table_language import FILE, recalled, remember, resume_language
from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.protocol.identity import Identity
from tests.names import end_tmux_server, tmux_socket

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
GAME = ["--autoplay", "--game", "eights", "--seed", "5", "--bots", "2", "--bot-level",
        "greedy", "--bot-delay", "0"]
"""A seeded 8s Rule! table of You (ann's key), Ada and Bram: the same deal on every run."""

SCREENS = {
    "en": (r" 8s Rule! · round 1 of 8 · (dealer (Ada|Bram)|you deal)   YOUR TURN: play a card",
           r" your hand \((19|20) cards\):", " · ? keys · q quit · h hint"),
    "de": (r" 8s Rule! · Runde 1 von 8 · ((Ada|Bram) gibt|du gibst)   DU BIST DRAN: eine Karte "
           "spielen", r" deine Hand \((19|20) Karten\):", " · ? Tasten · q beenden · h Tipp"),
}
"""The top line and the hand's heading (patterns: the deal, shuffled by the resumed peers, is
no longer the seed's) and the end of the key line of the table resumed on the seat's turn, by
language."""


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "identity.json").write_text(Identity(b"\x05" * 32, "ann").to_json())
    (home / "identity.json").chmod(0o600)
    return home


def _env(home: Path, crash: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", CRASH_ENV)}
    return {**env, "LANG": "C.UTF-8", "LANCARDS_HOME": str(home), CRASH_ENV: crash}


def _killed(home: Path, words: list[str], crash: str) -> str:
    """``lancards WORDS`` killed by the crash hook at ``crash``; what it printed."""
    done = subprocess.run([sys.executable, "-m", "lancards", *words], cwd=ROOT,
                          env=_env(home, crash), capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert done.stderr == ""
    return done.stdout


def _opened(home: Path, words: list[str]) -> str:
    """``lancards WORDS`` killed (SIGKILL) once its table's journal holds a move (``entry``):
    the session opened the table and plays; what it printed."""
    journal, mark = _folder(home) / "journal.jsonl", '"kind":"entry"'
    with subprocess.Popen([sys.executable, "-m", "lancards", *words], cwd=ROOT, env=_env(home),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        deadline = time.monotonic() + 30
        while not (journal.exists() and mark in journal.read_text("utf-8", "replace")):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"the table did not open: {proc.communicate()}")
            time.sleep(0.05)
        proc.kill()
        out, err = proc.communicate()
    assert err == ""
    return out


def _folder(home: Path) -> Path:
    [folder] = (home / "tables").iterdir()
    return folder


def _resumed_screen(home: Path) -> list[str]:
    """``lancards resume`` (no ``--lang``) in tmux at 80x24 once the table shows: its lines;
    then ``q``, ``p`` pause it again (exit status 1)."""
    server, status = tmux_socket("lang"), home / "status"
    env = " ".join(f"{k}={v}" for k, v in _env(home).items()
                   if k in ("LANG", "LANCARDS_HOME", CRASH_ENV))
    command = (f"cd {ROOT} && env -u LANGUAGE -u LC_ALL -u LC_MESSAGES {env} {sys.executable} "
               f"-m lancards resume --bot-delay 0 2>{home / 'err.txt'}; echo $? > {status}; "
               "sleep 60")

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", server, *args], capture_output=True, text=True,
                              timeout=10).stdout

    def wait(*texts: str) -> str:
        deadline, screen = time.monotonic() + 30, ""
        while time.monotonic() < deadline:
            screen = tmux("capture-pane", "-p", "-t", "resume")
            if any(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{texts!r} did not show; the screen:\n{screen}")

    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "resume", command)
    try:
        # the key line of the seat's turn, in either language (catching up comes first)
        lines = wait(*(keys for _top, _hand, keys in SCREENS.values())).splitlines()
        tmux("send-keys", "-t", "resume", "q")
        wait(" n: ")  # the leave dialog: p pauses in both languages (y is j in German)
        tmux("send-keys", "-t", "resume", "p")
        deadline = time.monotonic() + 20
        while not status.exists() or not status.read_text().strip():
            assert time.monotonic() < deadline, tmux("capture-pane", "-p", "-t", "resume")
            time.sleep(0.1)
        assert status.read_text().strip() == "1"  # paused: the game waits (lancards resume)
        assert (home / "err.txt").read_text() == ""
        return lines
    finally:
        end_tmux_server(server)


def _shown_in(home: Path, lang: str) -> None:
    lines = _resumed_screen(home)
    top, hand, keys = SCREENS[lang]
    assert re.fullmatch(top, lines[0]) and lines[-1].endswith(keys), "\n".join(lines)
    assert [line for line in lines if re.fullmatch(hand, line)], "\n".join(lines)


@pytest.fixture(autouse=True)
def english() -> object:
    i18n.set_language("en")
    yield None
    i18n.set_language("en")


tmux_needed = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
LONG = pytest.mark.long  # CI budget: some 7 s each (LANCARDS_LONG=1); CI keeps before and after


@tmux_needed
@pytest.mark.parametrize(("when", "first", "then", "shown"), [
    ("before", "de", ["en", "en"], "de"),  # the write never happened: the old word stays
    pytest.param("torn", "de", ["en", "en"], "de", marks=LONG),  # half a temporary file
    ("after", "en", ["de", "en"], "en"),  # written each time: the newest word
])
def test_killed_at_the_language_write_twice_the_table_resumes_in_the_language_written(
        tmp_path: Path, when: str, first: str, then: list[str], shown: str) -> None:
    home = _home(tmp_path)
    # the table is made in FIRST, the process killed right after the word is written
    _killed(home, ["--lang", first, "play", *GAME], "language-after:1")
    folder = _folder(home)
    assert (folder / FILE).read_text() == f"{first}\n"
    word = first
    for lang in then:  # twice in a row: resumed in another language, killed at its write
        told = _killed(home, ["--lang", lang, "resume", *GAME[:1], "--bot-delay", "0"],
                       f"language-{when}:1")
        assert told == {"en": f"resuming table {folder.name[:8]} (8s Rule!, with Ada, Bram)\n",
                        "de": f"Tisch {folder.name[:8]} wird fortgesetzt (8s Rule!, mit Ada, "
                              "Bram)\n"}[lang]
        word = lang if when == "after" else word
        assert (folder / FILE).read_text() == f"{word}\n"
        assert (folder / f".{FILE}.tmp").exists() == (when == "torn")
    assert word == shown
    _shown_in(home, shown)
    assert (folder / FILE).read_text() == f"{shown}\n"


@tmux_needed
@LONG
def test_killed_before_the_first_write_twice_the_table_resumes_in_the_environments(
        tmp_path: Path) -> None:
    """Killed twice before the table ever wrote its word (``--lang de``): no file, and the
    English environment decides."""
    home = _home(tmp_path)
    _killed(home, ["--lang", "de", "play", *GAME], "language-before:1")
    _killed(home, ["--lang", "de", "resume", *GAME[:1], "--bot-delay", "0"],
            "language-before:1")
    folder = _folder(home)
    assert not (folder / FILE).exists()
    _shown_in(home, "en")
    assert (folder / FILE).read_text() == "en\n"


def _damage(folder: Path, kind: str) -> None:
    path = folder / FILE
    path.unlink(missing_ok=True)
    if kind == "directory":
        path.mkdir()
    elif kind == "unreadable":  # a loop of links: cannot be read even by root
        path.symlink_to(FILE)
    elif kind == "fifo":  # reading it would wait for a writer for ever
        os.mkfifo(path)
    else:
        path.write_bytes({"xx": b"xx\n", "empty": b"", "no text": b"\xff\xfe\x00d"}[kind])


DAMAGED = ["xx", "empty", "no text", "directory", "unreadable", "fifo"]


@pytest.mark.parametrize("kind", DAMAGED)
def test_a_damaged_language_file_is_ignored_and_written_anew(tmp_path: Path,
                                                            kind: str) -> None:
    _damage(tmp_path, kind)
    assert recalled(tmp_path) is None
    resume_language(tmp_path, None)
    assert i18n.language() == "en"
    i18n.set_language("de")
    remember(tmp_path)  # raises nothing
    path = tmp_path / FILE
    assert path.is_dir() if kind == "directory" else path.read_text() == "de\n"


@pytest.mark.parametrize("kind", [  # CI budget: some 3 s each; LANCARDS_LONG=1 runs all
    pytest.param(kind, marks=() if kind in ("no text", "directory") else LONG)
    for kind in DAMAGED])
def test_lancards_resume_opens_a_table_whose_language_file_is_damaged(tmp_path: Path,
                                                                     kind: str) -> None:
    """The session starts and plays (its journal holds a move) in the environment's English,
    and writes its word anew where it can."""
    home = _home(tmp_path)
    _killed(home, ["--lang", "de", "play", *GAME], "language-after:1")
    folder = _folder(home)
    _damage(folder, kind)
    told = _opened(home, ["resume", *GAME[:1], "--bot-delay", "0"])
    assert told == f"resuming table {folder.name[:8]} (8s Rule!, with Ada, Bram)\n"
    path = folder / FILE
    assert path.is_dir() if kind == "directory" else path.read_text() == "en\n"
