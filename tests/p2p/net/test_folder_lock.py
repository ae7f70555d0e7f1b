"""One process per table folder (issue 24, situation 1): the folder lock, who holds it, and a
lock left by a process killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.net.folder_lock import (
    HOLDER_NAME,
    LOCK_NAME,
    FolderBusy,
    Holder,
    lock_folder,
    proc_start,
    read_holder,
)
from lancards.p2p.net.store import StorageError

ROOT = Path(__file__).resolve().parents[3]

HOLD = """
import sys, time
from lancards.p2p.net.folder_lock import lock_folder
lock_folder(sys.argv[1], "lancards resume")
print("locked", flush=True)
time.sleep(60)
"""
"""A process that takes a folder's lock with :func:`lock_folder` and keeps it."""

HOLD_SILENTLY = """
import sys, time, filelock
lock = filelock.FileLock(sys.argv[1] + "/lock", fallback_to_soft=False)
lock.acquire(timeout=5)
print("locked", flush=True)
time.sleep(60)
"""
"""A process that holds the OS lock but has not written ``holder.json`` (yet)."""


def holding(folder: Path, script: str = HOLD) -> subprocess.Popen[str]:
    """Start a process holding ``folder``'s lock; returns once it says so (10 s bound)."""
    proc = subprocess.Popen([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "locked\n"
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


def message(folder: Path, holder: Holder) -> str:
    return (f"the table folder {folder} is in use by process {holder.pid} (lancards resume, "
            f"started {holder.started()}); one process at a time may play a seat: wait for it "
            "to end, or stop it")


@pytest.mark.timeout(60)
def test_a_second_process_is_refused_naming_the_holder_pid_command_and_start(tmp_path):
    folder = tmp_path / "tables" / "0123456789abcdef"
    proc = holding(folder)
    try:
        holder = read_holder(folder)
        assert holder is not None and holder.pid == proc.pid
        assert holder.command == "lancards resume"
        assert abs(holder.since - time.time()) < 30
        started = time.monotonic()
        with pytest.raises(FolderBusy) as caught:
            lock_folder(folder, "lancards play", wait=0.3)
        assert str(caught.value) == message(folder, holder)
        assert caught.value.holder == holder
        assert time.monotonic() - started < 5
    finally:
        stop(proc)


@pytest.mark.timeout(60)
def test_a_lock_left_by_a_process_killed_with_sigkill_is_taken_over(tmp_path):
    folder = tmp_path / "t"
    proc = holding(folder)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    left = read_holder(folder)
    assert left is not None and left.pid == proc.pid and not left.alive()  # stale, left behind
    with lock_folder(folder, "lancards resume") as lock:
        assert lock.held
        mine = read_holder(folder)
        assert mine is not None and mine.pid == os.getpid()
        assert mine.proc_start == proc_start(os.getpid())
    # Released: the holder file is gone, the lock file stays (waiters share its inode).
    assert not (folder / HOLDER_NAME).exists() and (folder / LOCK_NAME).exists()
    with lock_folder(folder, "lancards resume"):
        pass


@pytest.mark.timeout(60)
def test_a_holder_file_left_by_a_dead_process_never_names_it(tmp_path):
    """A new holder took the lock but has not written its holder file yet: the one a killed
    process left must not be believed, and the message says "another process"."""
    folder = tmp_path / "t"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, timeout=30)
    dead_pid = int(dead.stdout)
    folder.mkdir()
    (folder / HOLDER_NAME).write_text(json.dumps(
        {"command": "lancards resume", "pid": dead_pid, "proc_start": None, "since": 1.0}))
    proc = holding(folder, HOLD_SILENTLY)
    try:
        with pytest.raises(FolderBusy) as caught:
            lock_folder(folder, "lancards play", wait=0.2)
        assert str(caught.value) == (
            f"the table folder {folder} is in use by another process (it has not said which); "
            "one process at a time may play a seat: wait for it to end, or stop it")
        assert caught.value.holder is None
    finally:
        stop(proc)


@pytest.mark.timeout(60)
@pytest.mark.skipif(proc_start(os.getpid()) is None, reason="needs /proc (Linux)")
def test_a_reused_pid_with_another_start_time_is_not_believed(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    alive = os.getpid()  # alive, but not the process that wrote the file
    (folder / HOLDER_NAME).write_text(json.dumps(
        {"command": "lancards resume", "pid": alive, "proc_start": proc_start(alive) - 1,
         "since": 1.0}))
    assert read_holder(folder) is not None and not read_holder(folder).alive()
    proc = holding(folder, HOLD_SILENTLY)
    try:
        with pytest.raises(FolderBusy, match="in use by another process"):
            lock_folder(folder, "lancards play", wait=0.2)
    finally:
        stop(proc)


@pytest.mark.timeout(30)
def test_a_folder_that_cannot_be_created_is_a_storage_error(tmp_path):
    (tmp_path / "file").write_text("x")
    folder = tmp_path / "file" / "tables" / "t"
    with pytest.raises(StorageError) as caught:
        lock_folder(folder, "lancards host")
    assert str(caught.value) == (
        f"a file stands where a folder should be: cannot create {folder}; move it away or "
        "set LANCARDS_HOME to a writable folder")
