"""One process per table folder (issue 24): the lock a process holds for as long as it writes a
table folder, so that a seat never has two signers.

The lock is an operating-system lock (``flock`` on POSIX, ``LockFileEx`` on Windows) taken
through the cross-platform library ``filelock`` on the file ``lock`` of the folder; the kernel
releases it when its process ends in any way, ``kill -9`` included, so a crashed process never
leaves a table locked. Soft (pid-file) locks are refused: a file system without real locks
is a :class:`~lancards.p2p.net.store.StorageError`.

Beside the lock, the holder writes ``holder.json`` (atomically, mode 0600)::

    {"command": "lancards resume", "pid": 4242, "proc_start": 123456, "since": 1718000000.5}

``since`` is when it took the lock (seconds since the epoch), ``proc_start`` its start time in
clock ticks since boot where ``/proc`` tells it (Linux), else ``null``. The file only names the
holder for the message of a process that finds the folder taken; it never decides who holds
the lock. A holder killed with ``kill -9`` leaves its ``holder.json`` behind, so the file is
believed only while its process is alive (and, where ``/proc`` tells it, started at
``proc_start``: a reused pid does not count); otherwise the message says "another process".
The holder removes the file when it lets the lock go.

A folder's lock covers its sub-folders (``bots/``: the bots a ``play`` or ``host`` process
runs there).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock

from lancards.p2p.net.store import AGAIN, StorageError, make_folder, storage_error
from lancards.p2p.protocol.errors import PeerError

LOCK_NAME = "lock"
"""The lock file's name in a table folder."""
HOLDER_NAME = "holder.json"
"""The name of the file that says who holds the lock."""
LOCK_WAIT_S = 1.0
"""Seconds a process waits for a taken lock before saying who holds it (a process just killed
may take a moment to be gone)."""
HOLDER_WAIT_S = 1.0
"""Seconds a refused process waits for the holder to write a believable ``holder.json``."""


class FolderBusy(PeerError):
    """Another process holds the table folder's lock: the message says which (pid, command,
    since when) or, when that cannot be told for sure, "another process"; exit status 2.

    Attributes:
        folder: the table folder; ``holder``: what its ``holder.json`` said, when believed.
    """

    def __init__(self, folder: Path, holder: Holder | None) -> None:
        who = ("another process (it has not said which)" if holder is None
               else f"process {holder.pid} ({holder.command}, started {holder.started()})")
        super().__init__(f"the table folder {folder} is in use by {who}; one process at a time "
                         "may play a seat: wait for it to end, or stop it")
        self.folder = folder
        self.holder = holder


@dataclass(frozen=True, slots=True)
class Holder:
    """What ``holder.json`` says: ``pid``, ``command`` (``"lancards resume"``), ``since``
    (seconds since the epoch) and ``proc_start`` (clock ticks since boot, or ``None``)."""

    pid: int
    command: str
    since: float
    proc_start: int | None

    def started(self) -> str:
        """When it took the lock, local time: ``"2025-06-01 14:02:07"``."""
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.since))

    def alive(self) -> bool:
        """Whether the process is still running (and, where ``/proc`` tells, is the same
        process: started at ``proc_start``). Without a way to ask (Windows), ``True``."""
        if os.name != "posix":
            return True  # os.kill(pid, 0) would end the process on Windows
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # alive, another user's
        except OSError:
            return False
        now = proc_start(self.pid)
        return self.proc_start is None or now is None or now == self.proc_start


def proc_start(pid: int) -> int | None:
    """The start time of process ``pid`` in clock ticks since boot (``/proc/PID/stat`` field
    22, proc(5)), or ``None`` where there is no ``/proc``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text("ascii", "replace")
        return int(text[text.rindex(")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def read_holder(folder: Path) -> Holder | None:
    """The holder ``folder``'s ``holder.json`` names, if it is readable and well formed."""
    try:
        data: Any = json.loads((folder / HOLDER_NAME).read_bytes())
        start = data.get("proc_start")
        return Holder(int(data["pid"]), str(data["command"])[:80], float(data["since"]),
                      None if start is None else int(start))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def live_holder(folder: Path) -> Holder | None:
    """The holder ``folder``'s ``holder.json`` names while that process still runs
    (:meth:`Holder.alive`): a table open in another window; None for none, a stale file or
    one that cannot be read."""
    holder = read_holder(folder)
    return holder if holder is not None and holder.alive() else None


def _believed_holder(folder: Path, wait: float) -> Holder | None:
    """The holder of a taken lock, believed only while its process lives (a new holder may
    still be writing the file a killed one left: it is read again for ``wait`` s)."""
    deadline = time.monotonic() + wait
    while True:
        holder = read_holder(folder)
        if holder is not None and holder.alive():
            return holder
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


class FolderLock:
    """The lock of one table folder, held by this process (:func:`lock_folder`)."""

    def __init__(self, folder: Path, lock: filelock.BaseFileLock) -> None:
        self.folder = folder
        self._lock = lock

    @property
    def held(self) -> bool:
        """Whether this process still holds it."""
        return bool(self._lock.is_locked)

    def release(self) -> None:
        """Remove ``holder.json`` and let the lock go (idempotent)."""
        if not self._lock.is_locked:
            return
        holder = read_holder(self.folder)
        if holder is not None and holder.pid == os.getpid():
            with contextlib.suppress(OSError):
                (self.folder / HOLDER_NAME).unlink()
        with contextlib.suppress(OSError):
            self._lock.release(force=True)
        with contextlib.suppress(ValueError):
            _HELD.remove(self)

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


_HELD: list[FolderLock] = []


def lock_folder(folder: str | os.PathLike[str], command: str, *,
                wait: float = LOCK_WAIT_S) -> FolderLock:
    """Take the lock of the table ``folder`` (created, mode 0700, if missing) for this process
    and write ``holder.json``: this also checks, before anything is advertised or signed, that
    the folder can be written.

    Args:
        folder: the table folder (``tables/<table id>`` under the data folder).
        command: what this process is, for the message of another (``"lancards resume"``).
        wait: seconds to wait for a taken lock.

    Returns:
        The lock; held until :meth:`FolderLock.release` (or :func:`release_all`, or the
        end of the process).

    Raises:
        FolderBusy: another process holds it (the message names it, see :class:`FolderBusy`).
        StorageError: the folder, the lock or ``holder.json`` cannot be created or written
            (read-only, full, permission, a file in the way, no file locks there).
    """
    path = make_folder(folder)
    lock_path = path / LOCK_NAME
    lock = filelock.FileLock(lock_path, thread_local=False, fallback_to_soft=False)
    try:
        lock.acquire(timeout=wait)
    except filelock.Timeout:
        raise FolderBusy(path, _believed_holder(path, HOLDER_WAIT_S)) from None
    except OSError as exc:
        raise storage_error(exc, lock_path, "lock") from None
    held = FolderLock(path, lock)
    holder = {"command": command, "pid": os.getpid(), "proc_start": proc_start(os.getpid()),
              "since": time.time()}
    tmp = path / (HOLDER_NAME + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(json.dumps(holder))
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path / HOLDER_NAME)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        with contextlib.suppress(OSError):
            lock.release(force=True)
        raise storage_error(exc, path / HOLDER_NAME, "write", AGAIN) from None
    _HELD.append(held)
    return held


def release_all() -> None:
    """Let go every folder lock this process holds (the command line's way out)."""
    for held in list(_HELD):
        held.release()


__all__ = ["HOLDER_NAME", "LOCK_NAME", "LOCK_WAIT_S", "FolderBusy", "FolderLock", "Holder",
           "StorageError", "live_holder", "lock_folder", "proc_start", "read_holder", "release_all"]
