"""Table folders a crash left before anything of the table was written, removed.

A process killed at a new table's first write (the crash tests' ``before`` and ``torn``, or a
real ``kill -9`` or power cut at that moment) leaves a folder under ``tables/`` with no
``table.json`` and no journal: empty, or holding only the folder lock's files (``lock``,
``holder.json``) and half a ``table.json.tmp``. ``lancards history`` and ``lancards resume``
skip such a folder, since there is no table in it, but nothing removed it, so they piled up.

:func:`remove_orphans` removes one only when every check says nothing can still need it:

- it holds nothing but those leftovers (:data:`LEFTOVERS`): a folder with ``table.json``, a
  journal, a share, a log or any other file is kept;
- it and everything in it are older than this process (:data:`STARTED`), so it is never a
  folder this process is making;
- no running process holds it (``holder.json``, :func:`lancards.p2p.net.folder_lock.live_holder`),
  and its lock can be taken at once (``filelock``, as a table's process takes it): a process
  that is just making the table holds that lock from before its first write.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Final

import filelock

from lancards.p2p.net.folder_lock import HOLDER_NAME, LOCK_NAME, live_holder, proc_start


def _process_start() -> float:
    """When this process started (seconds since the epoch): from ``/proc`` where it tells
    (the boot time plus the start in clock ticks, proc(5)), else now (the module's import)."""
    ticks = proc_start(os.getpid())
    with contextlib.suppress(OSError, ValueError, AttributeError, StopIteration):
        boot = next(int(line.split()[1]) for line in
                    Path("/proc/stat").read_text("ascii").splitlines() if line.startswith("btime "))
        if ticks is not None:
            return boot + ticks / os.sysconf("SC_CLK_TCK")  # btime floored: up to 1 s early
    return time.time()


STARTED: Final = _process_start()
"""When this process started: folders younger (or with anything younger in them) are kept."""

LEFTOVERS: Final = frozenset({LOCK_NAME, HOLDER_NAME, HOLDER_NAME + ".tmp", "table.json.tmp"})
"""The files an orphan folder may hold: the lock's and half of a first ``table.json``."""


def _leftovers_only(folder: Path, aged: bool = True) -> bool:
    """Whether ``folder`` holds only :data:`LEFTOVERS` (and, ``aged``: it and they are older
    than this process; under the lock, which may have just made the ``lock`` file, not asked)."""
    entries = list(folder.iterdir())
    return all(e.name in LEFTOVERS and e.is_file() and not e.is_symlink() for e in entries) and \
        (not aged or all(p.lstat().st_mtime < STARTED for p in [folder, *entries]))


def _remove(folder: Path) -> bool:
    if not _leftovers_only(folder) or live_holder(folder) is not None:
        return False
    lock = filelock.FileLock(folder / LOCK_NAME, thread_local=False, fallback_to_soft=False)
    try:
        lock.acquire(timeout=0)
    except (filelock.Timeout, OSError):
        return False  # held: a process is at this table (or cannot tell: keep it)
    try:
        if not _leftovers_only(folder, aged=False) or live_holder(folder) is not None:
            return False
        for entry in folder.iterdir():
            if entry.name != LOCK_NAME:
                entry.unlink()
    finally:
        lock.release(force=True)
    (folder / LOCK_NAME).unlink(missing_ok=True)
    folder.rmdir()  # fails, and keeps the folder, if anything came in meanwhile
    return True


def remove_orphans(tables: Path) -> list[Path]:
    """Remove the orphan table folders in ``tables`` (see the module's docstring); a folder
    that cannot be looked at or removed is left as it is.

    Returns:
        The folders removed.
    """
    try:
        folders = sorted(f for f in tables.iterdir() if f.is_dir() and not f.is_symlink())
    except OSError:
        return []
    removed = []
    for folder in folders:
        with contextlib.suppress(OSError):
            if _remove(folder):
                removed.append(folder)
    return removed


__all__ = ["LEFTOVERS", "STARTED", "remove_orphans"]
