"""The crash-point test hook of the stores (issue 12; aimed at checkpoints in issue 24).

``LANCARDS_TEST_CRASH_AT=WHEN:N`` kills this process with SIGKILL at its ``N``-th durable write
(1-based, counted over every store of the process: journal lines, ``table.json``,
``secret.json``, ``checkpoint.bin``). ``WHEN`` is ``before`` (nothing of that write reaches the
file), ``torn`` (half of the line or the temporary file is written, then the kill) or
``after`` (right after the ``fsync``). ``checkpoint-WHEN:N`` counts only the checkpoint writes
(:meth:`lancards.p2p.net.store.TableStore.save_checkpoint`): the ``N``-th checkpoint since this
process started; ``rematch-WHEN:N`` only the journal writes of "play again" (batches with a
``rematch`` line, issue 27). ``language-WHEN:N``, ``identity-WHEN:N`` and ``halted-WHEN:N``
count only the writes of a file beside the stores (:data:`SIDE_FILES`), which no other
``WHEN`` counts: the ``N``-th write of a table's ``language`` file
(``lancards.cli.table_language``), of the identity file's repaired nickname
(:func:`lancards.p2p.net.identity_file.save_nickname`), or of a halted table's
``halted.json`` (:func:`lancards.cli.halted_table.save_halt`).
``evening-WHEN:N`` counts only the first writes of new tables' ``table.json`` that hold the
evening before their series (``lancards.cli.net_session.NetworkSession._open``; ``torn``: half
of the text in ``table.json.tmp``, :meth:`lancards.p2p.net.store.TableStore.save_table`).
``table-WHEN:N``, ``secret-WHEN:N`` and ``outcome-WHEN:N`` (:data:`STORE_FILES`) count only the
writes of that file of the stores, which plain ``WHEN:N`` counts too: a test aims at it. A
``torn`` on any of these files (plain or aimed) leaves half of the text in ``FILE.tmp``, no
rename, then the kill, as on the journal. Unset
(every program but the crash tests), nothing is counted.
"""

from __future__ import annotations

import os
import signal

CRASH_ENV = "LANCARDS_TEST_CRASH_AT"
"""The environment variable of the crash-point test hook."""

SIDE_FILES = ("language", "identity", "halted", "evening")
"""Files written beside the stores, each counted only by a ``WHEN`` of its own prefix."""


STORE_FILES = ("table", "secret", "outcome")
"""The stores' replaced files (``table.json``, ...) a ``WHEN`` can aim at alone."""


class CrashPoint:
    """The ``LANCARDS_TEST_CRASH_AT`` hook: counts durable writes, kills the process at one."""

    def __init__(self, spec: str) -> None:
        self.when, self.at, self.count = "", 0, 0
        self.parent: int | None = None
        """Set in a checkpoint child (:mod:`lancards.p2p.net.checkpoint_writer`): the peer's
        process id, killed first by :meth:`die` (the crash is the peer's, not the child's)."""
        when, _, number = spec.partition(":")
        self.checkpoints_only = when.startswith("checkpoint-")
        self.rematch_only = when.startswith("rematch-")
        self.side = next((side for side in SIDE_FILES if when.startswith(f"{side}-")), "")
        """The side file whose writes alone are counted (:data:`SIDE_FILES`), or ``""``."""
        self.file = next((f for f in STORE_FILES if when.startswith(f"{f}-")), "")
        """The store file whose writes alone are counted (:data:`STORE_FILES`), or ``""``."""
        when = when.removeprefix("checkpoint-").removeprefix("rematch-")
        when = when.removeprefix(f"{self.side}-") if self.side else when
        when = when.removeprefix(f"{self.file}-") if self.file else when
        if when in ("before", "torn", "after") and number.isdigit():
            self.when, self.at = when, int(number)

    def reached(self, when: str, checkpoint: bool = False, rematch: bool = False,
                side: str = "", file: str = "") -> bool:
        """Called with ``"before"`` before each durable write (counting it) and with
        ``"torn"``/``"after"`` at those points (``checkpoint``: of a checkpoint write;
        ``side``: a write of that side file, :data:`SIDE_FILES`; ``file``: of that store file,
        :data:`STORE_FILES`); whether to die there."""
        if not self.at or side != self.side or (self.checkpoints_only and not checkpoint) or (
                self.rematch_only and not rematch) or (self.file and file != self.file):
            return False
        if when == "before":
            self.count += 1
        return self.count == self.at and when == self.when

    def die(self) -> None:
        sigkill = getattr(signal, "SIGKILL", None)
        if sigkill is not None:
            if self.parent is not None:
                os.kill(self.parent, sigkill)
            os.kill(os.getpid(), sigkill)
        os._exit(137)  # pragma: no cover - platforms without SIGKILL



crash = CrashPoint(os.environ.get(CRASH_ENV, ""))
"""This process's hook (from its environment at import)."""
