"""The disk adapter: a table's journal, its deck key share and the exported record.

Layout under the user's data folder (``platformdirs``; ``LANCARDS_HOME`` overrides)::

    tables/<table id>/table.json      the start statement, its signatures, this seat's key,
                                      addresses (no signatures yet: this seat signed the
                                      start but has not seen it started)
    tables/<table id>/secret.json     this seat's deck key share (mode 0600)
    tables/<table id>/journal.jsonl   every Persist line of the protocol core, in order
    tables/<table id>/checkpoint.bin  this peer's checkpoint of its replayed journal
                                      (:mod:`lancards.p2p.protocol.checkpoint`), optional
    tables/<table id>/lock            the folder's lock, holder.json who holds it
                                      (:mod:`lancards.p2p.net.folder_lock`)

Journal lines (``docs/protocol.md``, "Journal"): ``canonical({"kind": ..., "line": {...}})``,
one space, the CRC-32 (ISO-HDLC, :func:`zlib.crc32`) of those JSON bytes as 8 lowercase hex
digits, and ``\n``. Each line is written and made durable with ``fsync`` before the core's
next ``Send`` goes out (the lines of one batch of outputs share one ``fsync``), so a peer killed
at any moment finds on restart everything it had acted on (design: "Durability").

A crash can leave only the *tail* unfinished: bytes after the last ``\n``. Before the first
append the store cuts that torn tail off and syncs the file, so new lines never glue onto torn
bytes. A complete line whose checksum or JSON is wrong is damage, not a crash: reading refuses
with :class:`JournalDamaged` naming the file and the line number; nothing is silently dropped.

Envelope numbers: lines of kind ``mark`` (``{"env": N}``) lease envelope sequence numbers.
Before this peer sends an envelope numbered ``s`` a mark with ``N > s`` is durable
(:meth:`TableStore.lease_envelopes`), and a restarted peer numbers from the highest mark, so a
peer never signs two envelopes with one number and the numbering never reads the clock. Entry
numbers need no mark: an entry line is durable before the entry is sent.

Storage faults (issue 24): a write that fails (a full disk, a read-only or vanished folder, an
I/O error) raises :class:`StorageError`, one line naming the path and what to do. A journal
write that fails is cut back to the last complete line (``ftruncate``, which needs no space),
and the store refuses every later write of this process: nothing of the failed batch was sent
(each batch is durable before the sends after it), so the peer pauses its seat and ``lancards
resume`` continues once the disk has room. The folder's lock, one process per table folder, is
:mod:`lancards.p2p.net.folder_lock`'s.

Checkpoints (issue 24, situation 7): ``checkpoint.bin`` is the line ``lancards-journal-prefix/1
{"bytes": B, "sha256": H}`` (the journal's durable prefix when it was taken) and the core's
checkpoint; replaced atomically; given back only while the journal begins with that prefix.

Crash points (tests only): ``LANCARDS_TEST_CRASH_AT=WHEN:N`` kills this process with SIGKILL at
its ``N``-th durable write (:mod:`lancards.p2p.net.crash_hook`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lancards.p2p.net.crash_hook import crash as _crash
from lancards.p2p.net.storage_faults import AGAIN as AGAIN
from lancards.p2p.net.storage_faults import RESUME as RESUME
from lancards.p2p.net.storage_faults import StorageError as StorageError
from lancards.p2p.net.storage_faults import describe_fault as describe_fault
from lancards.p2p.net.storage_faults import fault_case as fault_case
from lancards.p2p.net.storage_faults import storage_error as storage_error
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.wire import canonical

CHECKPOINT_HEAD = b"lancards-journal-prefix/1 "
"""The first bytes of ``checkpoint.bin`` (see the module docstring)."""
LEASE_BLOCK = 256
"""Envelope numbers leased by one ``mark`` line (one ``fsync`` per this many envelopes)."""


class JournalDamaged(LocalProtocolError):
    """A complete journal line is not what this store wrote (bad checksum or JSON): the
    journal cannot be trusted and the table is not resumed from it. Its ``code`` is
    ``journal-damaged`` (``path``, ``line``: 1-based) or ``table-file-damaged`` (``path``);
    the English text adds what was wrong (for ``--verbose``)."""


@dataclass
class JournalState:
    """What a journal holds.

    Attributes:
        lines: the ``(kind, line)`` pairs for :meth:`GameCore.restore`, marks left out.
        next_envelope: the first envelope sequence number this peer may use (the highest
            leased mark; 0 for a new journal).
        valid_bytes: the length of the complete lines; anything after is a torn tail.
        torn: how many bytes of torn tail follow them.
    """

    lines: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    next_envelope: int = 0
    valid_bytes: int = 0
    torn: int = 0




def encode_line(kind: str, line: dict[str, Any]) -> bytes:
    """One journal line: canonical JSON, a space, its CRC-32 in 8 hex digits, ``\n``."""
    body = canonical({"kind": kind, "line": line})
    return body + b" %08x\n" % zlib.crc32(body)


def read_journal(raw: bytes, path: str | os.PathLike[str] = "journal") -> JournalState:
    """Parse journal bytes (see the module docstring).

    Raises:
        JournalDamaged: a complete line has a wrong checksum or is not a journal line; the
            message names ``path`` and the line number (1-based).
    """
    state = JournalState()
    end = raw.rfind(b"\n") + 1
    state.valid_bytes, state.torn = end, len(raw) - end
    for number, text in enumerate(raw[:end].split(b"\n")[:-1], start=1):
        body, _, crc = text.rpartition(b" ")
        try:
            if len(crc) != 8 or int(crc, 16) != zlib.crc32(body):
                raise ValueError("checksum mismatch")
            item = json.loads(body)
            kind, line = str(item["kind"]), item["line"]
            if not isinstance(line, dict):
                raise ValueError("not a journal line")
        except (ValueError, KeyError, TypeError) as exc:
            raise JournalDamaged(
                f"the journal {path} is damaged at line {number} ({exc}); not resuming from it"
            ).with_code("journal-damaged", path=str(path), line=number) from None
        if kind == "mark":
            state.next_envelope = max(state.next_envelope, int(line.get("env", 0)))
        else:
            state.lines.append((kind, line))
    return state


def data_home() -> Path:
    """The folder for tables and records (``LANCARDS_HOME`` or the platform's data folder)."""
    override = os.environ.get("LANCARDS_HOME")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("lancards", appauthor=False))


def make_folder(folder: str | os.PathLike[str]) -> Path:
    """Create ``folder`` and its parents (mode 0700) if missing.

    Raises:
        StorageError: it cannot be created (read-only, permission, a file in the way, full).
    """
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise storage_error(exc, path, "create") from None
    if not path.is_dir():
        raise storage_error(OSError(errno.ENOTDIR, "Not a directory"), path, "create")
    return path


def check_writable(folder: str | os.PathLike[str]) -> Path:
    """Create ``folder`` if missing and check that a file can be written in it (one small
    probe file, written, synced and removed): a command that will keep a table there says
    so before it joins anyone (issue 24).

    Raises:
        StorageError: it cannot be created or written (read-only, full, permission).
    """
    path = make_folder(folder)
    probe = path / f".write-check-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"lancards\n")
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise storage_error(exc, path, "write in") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return path


def replace_file(path: Path, data: bytes, mode: int,
                 torn: Callable[[int], None] | None = None) -> None:
    """Write ``data`` to ``path`` through ``path.tmp`` beside it (created with ``mode``):
    write, ``fsync``, rename, so a kill -9 or a failed write leaves the old file or the new one,
    never a part (``torn``, a crash hook of the tests, gets the temporary file's descriptor
    first).

    Raises:
        OSError: the write, the ``fsync`` or the rename failed (the temporary file removed).
    """
    tmp = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            if torn is not None:
                torn(fd)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


class TableStore:
    """One table's files.

    Args:
        folder: the table's folder (created with mode 0700 if missing).

    Raises:
        StorageError: the folder cannot be created.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = make_folder(folder)
        self.journal_path = self.folder / "journal.jsonl"
        self._fd: int | None = None
        self._leased = 0
        self._size = 0  # the journal's durable bytes, their SHA-256 and non-mark lines
        self._digest = hashlib.sha256()
        self._lines = 0
        self._raw: bytes | None = None  # the journal as read(), for load_checkpoint()
        self.fault: StorageError | None = None
        """The write that failed, once one did: every later write raises it again."""

    @classmethod
    def for_table(cls, table_id: str, home: Path | None = None) -> TableStore:
        """The store of ``table_id`` under ``home`` (default :func:`data_home`)."""
        return cls((home or data_home()) / "tables" / table_id)

    # -- the table ----------------------------------------------------------------------------

    def save_table(self, data: dict[str, Any],
                   torn: Callable[[], bool] | None = None) -> None:
        """Write ``table.json`` (replaced atomically, made durable with ``fsync``; one durable
        write for the crash hook). A seat writes it before its start signature leaves
        (``docs/protocol.md``, 11.5, "What is persisted when, around the start"). ``torn``
        (tests only: a crash point of a side file, ``evening-torn:N``) is asked once the
        temporary file is open; true: half of the text is written to it, then the kill.

        Raises:
            StorageError: it cannot be written (the old file, if any, is left as it was).
        """
        self._write_atomic(self.folder / "table.json", json.dumps(data, indent=1), 0o600, AGAIN,
                           torn)

    def save_outcome(self, outcome: dict[str, Any]) -> None:
        """Write ``outcome.json``: the finished game's result (the engine's ``Outcome`` as
        JSON: ``winners``, ``scores``, ``detail``; ``lancards history`` lists it without
        verifying the record again). Written before the ``finished`` marker, atomically.

        Raises:
            StorageError: it cannot be written.
        """
        self._write_atomic(self.folder / "outcome.json", json.dumps(outcome), 0o600, RESUME)

    def load_table(self) -> dict[str, Any]:
        """Read ``table.json``.

        Raises:
            StorageError: it cannot be read (missing, vanished, permission, I/O error).
            JournalDamaged: it is not a JSON object.
        """
        path = self.folder / "table.json"
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise storage_error(exc, path, "read") from None
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise JournalDamaged(
                f"the table file {path} is damaged ({exc}); not resuming from it"
            ).with_code("table-file-damaged", path=str(path)) from None
        return data

    def save_secret(self, x_hex: str) -> None:
        """Write this seat's deck key share, readable by this user only.

        Raises:
            StorageError: it cannot be written (during a game: pause and resume).
        """
        self._write_atomic(self.folder / "secret.json", json.dumps({"x": x_hex}), 0o600, RESUME)

    def load_secret(self) -> int | None:
        """This seat's deck key share, or ``None`` if none was saved."""
        try:
            return int(json.loads((self.folder / "secret.json").read_text("utf-8"))["x"], 16)
        except (OSError, ValueError, KeyError):
            return None

    def keep_record_path(self, path: str) -> None:
        """Remember the ``--record`` file the game's record goes to (``record-path``, the
        absolute path), so that ``lancards resume`` writes it at the game's end without being
        told again (the trial of 2026-12-05: the file was written at a pause, short, and never
        completed). Outside the crash points: a kill before it loses only that memory.

        Raises:
            StorageError: it cannot be written.
        """
        file = self.folder / "record-path"
        tmp = file.with_name(file.name + ".tmp")
        try:
            tmp.write_text(os.path.abspath(path), encoding="utf-8")
            os.replace(tmp, file)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise storage_error(exc, file, "write", RESUME) from None

    def kept_record_path(self) -> str | None:
        """The ``--record`` file :meth:`keep_record_path` remembered, or ``None``."""
        try:
            return (self.folder / "record-path").read_text("utf-8").strip() or None
        except (OSError, UnicodeDecodeError):
            return None

    def mark(self, name: str) -> None:
        """Leave the empty marker file ``name`` in the folder (``finished``, ``not-started``:
        what ``lancards resume`` skips).

        Raises:
            StorageError: it cannot be created (the table stays resumable).
        """
        try:
            (self.folder / name).touch()
        except OSError as exc:
            raise storage_error(exc, self.folder / name, "write", RESUME) from None

    # -- the journal --------------------------------------------------------------------------

    def read(self) -> JournalState:
        """The journal's complete lines, envelope lease and torn-tail length.

        Raises:
            JournalDamaged: a complete line is damaged (names the file and line number).
            StorageError: the journal exists but cannot be read.
        """
        try:
            raw = self.journal_path.read_bytes()
        except FileNotFoundError:
            return JournalState()
        except OSError as exc:
            raise storage_error(exc, self.journal_path, "read") from None
        state = read_journal(raw, self.journal_path)
        self._leased = max(self._leased, state.next_envelope)
        if self._fd is None:
            self._size, self._digest = state.valid_bytes, hashlib.sha256(raw[:state.valid_bytes])
            self._lines, self._raw = len(state.lines), raw[:state.valid_bytes]
        return state

    @property
    def lines(self) -> int:
        """How many journal lines (marks not counted) are durable: what a checkpoint covers."""
        return self._lines

    def durable_prefix(self) -> tuple[int, str]:
        """The journal's durable bytes now (as this store wrote or read them) and their
        SHA-256 in hex: what a side file written from the state after them names, so that a
        reader believes it only while the journal still begins with those bytes."""
        return self._size, self._digest.hexdigest()

    def save_checkpoint(self, blob: bytes, *, counted: bool = False) -> bool:
        """Replace ``checkpoint.bin`` with ``blob`` (the core's checkpoint of the :attr:`lines`
        durable now), tagged with the journal's length and SHA-256 now.
        Atomic (temporary file, ``fsync``, rename); one durable write for the crash hook
        (``counted``: the caller already counted it, in the peer before forking the child
        that writes it, :mod:`~lancards.p2p.net.checkpoint_writer`).

        Returns:
            Whether it was written; a failure (full disk, ...) leaves the old checkpoint and
            is not a fault of the store (the journal alone is the truth).
        """
        if self.fault is not None:
            return False
        head = CHECKPOINT_HEAD + json.dumps(
            {"bytes": self._size, "sha256": self._digest.hexdigest()}).encode() + b"\n"
        try:
            self._replace(self.folder / "checkpoint.bin", head + blob, 0o600, checkpoint=True,
                          counted=counted)
        except OSError:
            return False
        return True

    def load_checkpoint(self) -> bytes | None:
        """The core's checkpoint blob, if ``checkpoint.bin`` exists and the journal (as the
        last :meth:`read` found it) still begins with the bytes it was taken after; else
        ``None`` (replay everything). Never raises."""
        raw, self._raw = self._raw, None
        try:
            data = (self.folder / "checkpoint.bin").read_bytes()
            head, _, blob = data.partition(b"\n")
            if raw is None or not head.startswith(CHECKPOINT_HEAD):
                return None
            info = json.loads(head[len(CHECKPOINT_HEAD):])
            size = int(info["bytes"])
            if size > len(raw) or hashlib.sha256(raw[:size]).hexdigest() != info["sha256"]:
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return blob

    def journal(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The journal's lines in order, marks left out (a torn tail is not a line).

        Raises:
            JournalDamaged: a complete line is damaged.
        """
        yield from self.read().lines

    def next_envelope(self) -> int:
        """The first envelope sequence number this peer may use (see the module docstring).

        Raises:
            JournalDamaged: a complete line is damaged.
        """
        self.read()
        return self._leased

    def lease_envelopes(self, upto: int) -> None:
        """Make sure envelope numbers below ``upto`` are leased by a durable ``mark`` line
        (writes one when needed, leasing :data:`LEASE_BLOCK` more).

        Raises:
            StorageError: the mark cannot be written (nothing numbered ``upto`` may leave).
        """
        if upto > self._leased:
            self.append("mark", {"env": upto + LEASE_BLOCK})
            self._leased = upto + LEASE_BLOCK

    def append(self, kind: str, line: dict[str, Any]) -> None:
        """Append one journal line and make it durable (``fsync``); see :meth:`append_all`.

        Raises:
            JournalDamaged: the journal was damaged before this append.
            StorageError: the line cannot be made durable (see :meth:`append_all`).
        """
        self.append_all([(kind, line)])

    def append_all(self, lines: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Append journal lines in order and make them durable with one ``fsync`` (a line of
        kind ``secret`` goes to ``secret.json`` instead, after the lines before it are durable).

        The first append of this store cuts a torn tail back to the last complete line (and
        syncs the file) so that nothing is written after torn bytes. A crash during the write
        leaves complete lines and at most one torn tail, exactly as one line at a time would:
        nothing of the batch was sent before the ``fsync``.

        A write or ``fsync`` that fails (ENOSPC, EROFS, EIO, ...) cuts the journal back to its
        length before the batch and raises :class:`StorageError` ("... free space and run
        `lancards resume`"); from then on every append of this store raises it again, so this
        process never writes after a failed write (issue 24).

        Raises:
            JournalDamaged: the journal was damaged before this append.
            StorageError: the batch cannot be made durable, now or earlier.
        """
        batch: list[bytes] = []
        for kind, line in lines:
            if kind == "secret":
                self._write_lines(batch)
                batch = []
                self.save_secret(str(line["x"]))
            else:
                batch.append(encode_line(kind, line))
        self._write_lines(batch)

    def _write_lines(self, encoded: list[bytes]) -> None:
        if self.fault is not None:
            raise self.fault
        if not encoded:
            return
        if self._fd is None:
            self._open_for_append()
        assert self._fd is not None
        data = b"".join(encoded)
        again = any(line.startswith(b'{"kind":"rematch"') for line in encoded)
        if _crash.reached("before", rematch=again):
            _crash.die()
        if _crash.reached("torn", rematch=again):
            os.write(self._fd, data[: max(1, len(data) // 2)])
            _crash.die()
        start = os.lseek(self._fd, 0, os.SEEK_CUR)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError as exc:
            self._fail(exc, self.journal_path, start)
        self._size += len(data)
        self._digest.update(data)
        self._lines += sum(1 for line in encoded if not line.startswith(b'{"kind":"mark"'))
        if _crash.reached("after", rematch=again):
            _crash.die()

    def _fail(self, exc: OSError, path: Path, start: int) -> None:
        """A journal write failed: cut the batch off (best effort: ``ftruncate`` needs no
        space), close the file and refuse every later write with one :class:`StorageError`."""
        assert self._fd is not None
        try:
            os.ftruncate(self._fd, start)
            os.fsync(self._fd)
        except OSError:
            pass  # a torn tail is cut by the next resume's first append
        self.close()
        self.fault = storage_error(exc, path, "write", RESUME)
        raise self.fault from None

    def _open_for_append(self) -> None:
        state = self.read()
        try:
            fd = os.open(self.journal_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            self.fault = storage_error(exc, self.journal_path, "write", RESUME)
            raise self.fault from None
        self._fd = fd
        self._raw = None
        if state.torn:
            try:
                os.ftruncate(fd, state.valid_bytes)
                os.fsync(fd)
            except OSError as exc:
                self._fail(exc, self.journal_path, state.valid_bytes)
        os.lseek(fd, 0, os.SEEK_END)

    def close(self) -> None:
        """Close the journal file."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):  # every line that counts was fsynced before
                os.close(fd)

    def _replace(self, path: Path, data: bytes, mode: int, checkpoint: bool = False,
                 counted: bool = False) -> None:
        """Write ``path`` through a temporary file beside it, ``fsync``, rename (one durable
        write for the crash hook, unless ``counted`` already; ``torn`` dies with half of the
        temporary file written)."""
        if not counted and _crash.reached("before", checkpoint):
            _crash.die()

        def torn(fd: int) -> None:
            if _crash.reached("torn", checkpoint):
                os.write(fd, data[: max(1, len(data) // 2)])
                _crash.die()

        replace_file(path, data, mode, torn)
        if _crash.reached("after", checkpoint):
            _crash.die()

    def _write_atomic(self, path: Path, text: str, mode: int, then: str,
                      torn: Callable[[], bool] | None = None) -> None:
        """Write ``path`` through a temporary file beside it, ``fsync``, rename: a crash or a
        failed write leaves the old file or the new one, never a part (issue 24). ``torn``:
        see :meth:`save_table`; the crash hook's ``torn`` writes half of the text to the
        temporary file and dies there too (no rename)."""
        if self.fault is not None:
            raise self.fault
        tmp = path.with_name(path.name + ".tmp")
        name = path.name.removesuffix(".json")  # the crash hook's STORE_FILES
        if _crash.reached("before", file=name):
            _crash.die()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                if (torn is not None and torn()) or _crash.reached("torn", file=name):
                    file.write(text[: max(1, len(text) // 2)])
                    file.flush()
                    _crash.die()
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            self.fault = storage_error(exc, path, "write", then)
            raise self.fault from None
        if _crash.reached("after", file=name):
            _crash.die()
