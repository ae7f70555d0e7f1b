"""A file or folder of this peer that cannot be written or read (issue 24): the error, its one
line of words (what happened, the path, what to do) and its code for the players' language
(issue 28, ``cli/peer_errors.py``). Split out of :mod:`lancards.p2p.net.store`, which re-exports
it; nothing here touches the disk."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from lancards.p2p.protocol.errors import PeerError

RESUME = "run `lancards resume`"
"""What to do after a fault during a game (:func:`describe_fault`'s ``then``)."""
AGAIN = "try again"
"""What to do after a fault before anything was signed or sent."""



class StorageError(PeerError):
    """A file or folder of this peer cannot be written or read (issue 24): a full disk, a
    read-only, missing or vanished folder, an I/O error. The message is one line naming the
    path and what to do (:func:`describe_fault`); the command exits with status 2.

    Attributes:
        path: the file or folder.
        errno: the operating system's error number (``None`` when there is none).
    """

    def __init__(self, message: str, path: str | os.PathLike[str], code: int | None) -> None:
        super().__init__(message)
        self.path = Path(path)
        self.errno = code


def describe_fault(exc: OSError, path: str | os.PathLike[str], doing: str = "write",
                   then: str = AGAIN) -> str:
    """One line for a failed file operation: what happened, ``cannot DOING PATH``, and what
    to do, ending with ``then`` (:data:`AGAIN` before a game, :data:`RESUME` during one).

    ``"the disk is full: cannot write /h/tables/t/journal.jsonl; free space and run `lancards
    resume`"``. The cases, by ``exc.errno``: ENOSPC and EDQUOT (full), EROFS (read-only),
    EACCES and EPERM (permission), ENOENT (missing: deleted or unmounted), ENOTDIR and EEXIST
    (a file where a folder should be), EIO (the disk failed); any other names ``strerror``.
    """
    cannot = f"cannot {doing} {path}"
    home = "set LANCARDS_HOME to a writable folder"
    case = fault_case(exc)
    if case == "full":
        return f"the disk is full: {cannot}; free space and {then}"
    if case == "read-only":
        return f"the disk is read-only: {cannot}; make it writable or {home}, and {then}"
    if case == "denied":
        return (f"permission denied: {cannot}; make it yours and writable or {home}, "
                f"and {then}")
    if case == "missing":
        return f"no such file or folder (deleted or unmounted?): {cannot}; restore it and {then}"
    if case == "file-for-folder":
        return f"a file stands where a folder should be: {cannot}; move it away or {home}"
    if case == "io":
        return f"the disk failed (input/output error): {cannot}; check the disk, then {then}"
    return f"{exc.strerror or exc}: {cannot}; {then}"


def fault_case(exc: OSError) -> str:
    """The case of :func:`describe_fault` for ``exc``: ``full``, ``read-only``, ``denied``,
    ``missing``, ``file-for-folder``, ``io`` or ``other``."""
    code = exc.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "full"
    if code == errno.EROFS:
        return "read-only"
    if code in (errno.EACCES, errno.EPERM):
        return "denied"
    if code == errno.ENOENT:
        return "missing"
    if code in (errno.ENOTDIR, errno.EEXIST):
        return "file-for-folder"
    if code == errno.EIO:
        return "io"
    return "other"


def storage_error(exc: OSError, path: str | os.PathLike[str], doing: str = "write",
                  then: str = AGAIN) -> StorageError:
    """The :class:`StorageError` of ``exc`` (:func:`describe_fault`), with the code
    ``storage-CASE`` (:func:`fault_case`) and ``path``, ``doing``, ``then``, ``strerror``."""
    return StorageError(describe_fault(exc, path, doing, then), path, exc.errno).with_code(
        f"storage-{fault_case(exc)}", path=str(path), doing=doing, then=then,
        strerror=str(exc.strerror or exc))
