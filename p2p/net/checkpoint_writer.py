"""Checkpoints written off the event loop (issue 23: the move latency tail).

Pickling a late game's core takes 0.1 to 0.3 s on two shared cores (a 5 MB checkpoint after
640 entries of a 6-peer Level 8 Master table); done by the peer itself, every message that
arrived meanwhile waited that long, and those waits were the slowest moves of
``lancards bench net --peers 6`` (``docs/benchmarks.md``). On Linux the peer forks: the child
process holds a copy-on-write image of the core as it is at that moment, pickles it, writes
``checkpoint.bin`` (temporary file, ``fsync``, rename: :meth:`TableStore.save_checkpoint`) at
the lowest scheduling priority (nice 19: it uses the cores only when the peers leave them
idle) and ends; the peer goes on at once (a fork of a 150 MB process took 2 to 3 ms here).

The child never touches the event loop, the links or the journal: it only pickles, writes the
one file and leaves with ``os._exit`` (no ``atexit`` handler, no buffered output of the
parent's). It dies with its parent (``PR_SET_PDEATHSIG``): a peer killed while its child
writes leaves the old checkpoint or a torn temporary file, never a writer that outlives it,
exactly as a checkpoint written in the peer itself (issue 24, situation 7). A checkpoint is
best effort either way: the journal alone is the truth, and a failed one is written again
:data:`~lancards.p2p.net.node.CHECKPOINT_EVERY` entries later.

Elsewhere (no ``fork``, or not Linux) the peer writes the checkpoint itself, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import warnings
from collections.abc import Callable

from lancards.p2p.net.crash_hook import crash as _crash
from lancards.p2p.net.store import TableStore

_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when the thread that forked it ends
(linux/prctl.h)."""
CHILD_NICE = 19
"""The nice value of a checkpoint child (the lowest priority)."""


def forking_possible() -> bool:
    """Whether checkpoints are written by a child process on this system (Linux)."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


class CheckpointWriter:
    """Writes one table folder's checkpoints, at most one at a time.

    Args:
        store: the table folder's store.
        fork: write in a child process (default: :func:`forking_possible`).
    """

    def __init__(self, store: TableStore, *, fork: bool | None = None) -> None:
        self.store = store
        self.fork = forking_possible() if fork is None else fork
        self._child: int | None = None
        self.written = 0
        """Checkpoints known to be written (a child's counted once it has ended well)."""

    @property
    def busy(self) -> bool:
        """Whether a child is still writing (one that ended is reaped here)."""
        if self._child is None:
            return False
        try:
            pid, status = os.waitpid(self._child, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere: nothing to wait for
            self._child = None
            return False
        if pid == 0:
            return True
        self._child = None
        self.written += os.waitstatus_to_exitcode(status) == 0
        return False

    def write(self, make_blob: Callable[[], bytes]) -> None:
        """Write the checkpoint ``make_blob()`` returns (the core's
        :func:`~lancards.p2p.protocol.checkpoint.snapshot`, called in the child when
        forking, so the peer does not pickle). Does nothing while a child still writes
        (:attr:`busy`). Never raises for a failed write (:meth:`TableStore.save_checkpoint`)."""
        if self.busy:
            return
        if not self.fork:
            self.written += self.store.save_checkpoint(make_blob())
            return
        if _crash.reached("before", checkpoint=True):  # counted here, where the peer lives
            _crash.die()
        parent = os.getpid()
        with warnings.catch_warnings():
            # Python 3.12+ warns of fork() in a process with threads (a lock another thread
            # held stays held in the child). The child takes no such lock: it pickles plain
            # data, writes one file with os calls and leaves with os._exit.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            code = 2
            try:
                _die_with(parent)
                os.nice(CHILD_NICE)
                _crash.parent = parent  # a crash point reached here kills the peer too
                code = 0 if self.store.save_checkpoint(make_blob(), counted=True) else 1
            finally:
                os._exit(code)
        self._child = pid

    async def finish(self, timeout: float) -> bool:
        """Wait until the child (if any) ended, at most ``timeout`` seconds (then kill it);
        whether it ended by itself. For the end of a program: a checkpoint being written is
        finished rather than lost."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.busy and loop.time() < end:
            await asyncio.sleep(0.01)
        if self._child is not None:
            with contextlib.suppress(OSError):
                os.kill(self._child, signal.SIGKILL)
                os.waitpid(self._child, 0)
            self._child = None
            return False
        return True


def _die_with(parent: int) -> None:  # pragma: no cover - runs in the child
    """Ask the kernel to kill this child when its parent ends; end now if it already has."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(3)


__all__ = ["CHILD_NICE", "CheckpointWriter", "forking_possible"]
