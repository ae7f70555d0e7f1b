"""Record files on disk: the adapter that writes and reads what
:mod:`lancards.p2p.protocol.record` formats and verifies (``docs/protocol.md``, "Game record").
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from lancards.p2p.net.store import RESUME, storage_error
from lancards.p2p.protocol.errors import RecordFileError
from lancards.p2p.protocol.record import Record, Validator, verify_bytes


def write_record(record: Record, path: str | os.PathLike[str]) -> None:
    """Write the whole record file of ``record`` (to a temporary file beside it, fsync, then
    rename, so a crash or a failed write leaves the old file or the new one, and no temporary
    file).

    Raises:
        StorageError: the file cannot be written (one line naming it; a table folder not yet
            marked ``finished`` is resumed with ``lancards resume``, which writes it again).
    """
    file = Path(path)
    tmp = file.with_name(file.name + ".tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(b"".join(line + b"\n" for line in record.to_lines()))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, file)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise storage_error(exc, file, "write", RESUME) from None


def read_record(
    path: str | os.PathLike[str],
    validator: Validator | None = None,
    genesis_check: Callable[[Record], None] | None = None,
) -> Record:
    """Read and verify a record file (:func:`lancards.p2p.protocol.record.verify_bytes`).

    Raises:
        RecordFileError: the file cannot be read, or a byte of it does not verify.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordFileError(0, None, f"cannot read {path}: {exc.strerror}").with_code(
            "unreadable", path=str(path)) from None
    return verify_bytes(data, validator, genesis_check)
