"""The hand's sort order at a Level 8 table (``s``: by number or by colour), kept in the table's
folder so that ``lancards resume``, after a pause (``q``) or a crash, shows the hand sorted as
the person left it (the new-user trial: it came back sorted by number).

``tables/<id>/hand-order.json`` holds ``{"by": "colour"}`` or ``{"by": "number"}``. It is
replaced whole (a temporary file beside it, ``fsync``, ``os.replace``): a crash leaves the old
choice or the new one, never a part. A missing, unreadable or damaged file means by number; a
write that fails is dropped (the order is a comfort, never a fault: the journal is the record).
The file is not part of the record and never sent. A table without a folder (``lancards play
--local``) keeps the choice for its window only.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

FILE = "hand-order.json"
"""The file's name in the table folder."""


def table_folder(session: object) -> Path | None:
    """The table folder of ``session``'s own seat (a networked session's store), or ``None``
    (a local session keeps no folder)."""
    store = getattr(getattr(session, "node", None), "store", None)
    folder = getattr(store, "folder", None)
    return folder if isinstance(folder, Path) else None


def load_by_colour(folder: Path | None) -> bool:
    """Whether the hand of the table in ``folder`` was last sorted by colour; ``False`` (by
    number) without a folder or a readable ``{"by": "colour"}``."""
    if folder is None:
        return False
    try:
        data = json.loads((folder / FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("by") == "colour"


def save_by_colour(folder: Path | None, by_colour: bool) -> None:
    """Keep the choice in ``folder`` (nothing without one; a failed write is dropped)."""
    if folder is None:
        return
    path = folder / FILE
    tmp = path.with_name(path.name + ".tmp")
    text = json.dumps({"by": "colour" if by_colour else "number"}) + "\n"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
