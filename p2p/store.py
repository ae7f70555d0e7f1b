"""The disk adapter: a table's journal, its deck key share and the exported record.

Layout under the user's data folder (``platformdirs``; ``LANCARDS_HOME`` overrides)::

    tables/<table id>/table.json      the signed start statement, this seat's key, addresses
    tables/<table id>/secret.json     this seat's deck key share (mode 0600)
    tables/<table id>/journal.jsonl   every Persist line of the protocol core, in order

Each journal line is ``{"kind": ..., "line": {...}}`` (canonical JSON), appended and flushed
with ``fsync`` before the core's next ``Send`` goes out, so a peer killed at any moment finds on
restart everything it had acted on (design: "Durability"). A last line cut short by the crash is
ignored.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lancards.p2p.errors import LocalProtocolError
from lancards.p2p.wire import canonical


def data_home() -> Path:
    """The folder for tables and records (``LANCARDS_HOME`` or the platform's data folder)."""
    override = os.environ.get("LANCARDS_HOME")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("lancards", appauthor=False))


class TableStore:
    """One table's files.

    Args:
        folder: the table's folder (created with mode 0700 if missing).
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.journal_path = self.folder / "journal.jsonl"
        self._journal: Any = None

    @classmethod
    def for_table(cls, table_id: str, home: Path | None = None) -> TableStore:
        """The store of ``table_id`` under ``home`` (default :func:`data_home`)."""
        return cls((home or data_home()) / "tables" / table_id)

    # -- the table ----------------------------------------------------------------------------

    def save_table(self, data: dict[str, Any]) -> None:
        """Write ``table.json`` (replaced atomically)."""
        self._write_atomic(self.folder / "table.json", json.dumps(data, indent=1), 0o600)

    def load_table(self) -> dict[str, Any]:
        """Read ``table.json``.

        Raises:
            LocalProtocolError: missing or not JSON.
        """
        try:
            data: dict[str, Any] = json.loads((self.folder / "table.json").read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise LocalProtocolError(f"no readable table in {self.folder}: {exc}") from None
        return data

    def save_secret(self, x_hex: str) -> None:
        """Write this seat's deck key share, readable by this user only."""
        self._write_atomic(self.folder / "secret.json", json.dumps({"x": x_hex}), 0o600)

    def load_secret(self) -> int | None:
        """This seat's deck key share, or ``None`` if none was saved."""
        try:
            return int(json.loads((self.folder / "secret.json").read_text("utf-8"))["x"], 16)
        except (OSError, ValueError, KeyError):
            return None

    # -- the journal --------------------------------------------------------------------------

    def append(self, kind: str, line: dict[str, Any]) -> None:
        """Append one journal line and make it durable (``fsync``)."""
        if kind == "secret":
            self.save_secret(str(line["x"]))
            return
        if self._journal is None:
            self._journal = open(self.journal_path, "ab")  # noqa: SIM115 - kept open
        self._journal.write(canonical({"kind": kind, "line": line}) + b"\n")
        self._journal.flush()
        os.fsync(self._journal.fileno())

    def journal(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The journal's lines in order (a torn last line is skipped)."""
        try:
            raw = self.journal_path.read_bytes()
        except FileNotFoundError:
            return
        for text in raw.split(b"\n"):
            if not text.strip():
                continue
            try:
                item = json.loads(text)
            except ValueError:
                break  # a line cut short by a crash: nothing after it was acted on
            yield str(item["kind"]), dict(item["line"])

    def close(self) -> None:
        """Close the journal file."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    @staticmethod
    def _write_atomic(path: Path, text: str, mode: int) -> None:
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
