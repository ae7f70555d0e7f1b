"""The game record: an append-only log of signed entries, as a sans-I/O value.

Each entry (``docs/protocol.md``, "Game record") is::

    {"author": "<64 hex>", "payload": {...}, "prev": "<64 hex>", "seq": 0,
     "sig": "<128 hex>", "state": "<hex>", "tbl": "<16 hex>"}

``seq`` numbers the entries 0, 1, 2, ... across all authors; ``prev`` is the hash of entry
``seq - 1`` (entry 0: the hash of the record header); ``state`` is the hash of the engine state
after the entry (opaque to this module: the caller computes it); ``sig`` is the author's Ed25519
signature of ``b"lancards/v1/record-entry\\x00" + canonical(entry without "sig")``. An entry's hash
is ``SHA-256(canonical(entry with "sig"))`` in lowercase hex.

:meth:`Record.append` checks, in order: the fields, the table id, that the author is seated, the
signature, the number (a replay, an equivocation, a settled position, a gap), the hash chain, and
last the caller's validator (the protocol core asks the engine and the deck: is this seat to act,
is the move legal, does the state hash match). Two validly signed, different entries with one
number from one author are kept as :class:`Equivocation` evidence.

The file format is JSON lines (one canonical JSON object per line, ``\\n`` after each): a header
line, then ``{"entry": {...}, "kind": "entry"}`` lines in order, with
``{"first": {...}, "kind": "equivocation", "second": {...}}`` lines wherever evidence was found.
:func:`verify_lines` checks a whole file end to end.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lancards.engine.core import EngineError
from lancards.p2p.errors import (
    EquivocationError,
    LocalProtocolError,
    MessageError,
    PeerError,
    Reason,
    RecordError,
    RecordFileError,
)
from lancards.p2p.identity import Identity, describe, verify_signature
from lancards.p2p.wire import TABLE_ID, canonical, hex_field, parse_json, require

ENTRY_TAG: Final = b"lancards/v1/record-entry\x00"
"""Domain tag of record entry signatures."""

FORMAT: Final = "lancards-record"
"""The header's ``format`` value."""

_STATE = re.compile(r"[0-9a-f]{2,128}")
_ENTRY_SCHEMA: Final = {
    "tbl": str,
    "seq": int,
    "author": str,
    "prev": str,
    "payload": dict,
    "state": str,
    "sig": str,
}
_HEADER_SCHEMA: Final = {
    "format": str,
    "v": int,
    "tbl": str,
    "seats": list,
    "nicks": list,
    "genesis": dict,
}


def sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` in lowercase hex (64 characters)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    """One record entry.

    Attributes:
        table: the table id.
        seq: the entry's number, 0-based.
        author: the author's Ed25519 key, 32 bytes.
        prev: the previous entry's hash (entry 0: the header's hash), 64 hex digits.
        payload: the move, proof or event (JSON object; its meaning is the protocol core's).
        state: the hash of the engine state after this entry, 2 to 128 lowercase hex digits.
        sig: the author's signature, 64 bytes.
    """

    table: str
    seq: int
    author: bytes
    prev: str
    payload: dict[str, Any] = field(hash=False)
    state: str
    sig: bytes

    def unsigned(self) -> dict[str, Any]:
        """The entry's fields without ``sig``."""
        return {
            "tbl": self.table,
            "seq": self.seq,
            "author": self.author.hex(),
            "prev": self.prev,
            "payload": self.payload,
            "state": self.state,
        }

    def signed_bytes(self) -> bytes:
        """The bytes the signature covers."""
        return ENTRY_TAG + canonical(self.unsigned())

    def to_dict(self) -> dict[str, Any]:
        """The entry as sent and stored (with ``sig``)."""
        return {**self.unsigned(), "sig": self.sig.hex()}

    @property
    def hash(self) -> str:
        """``SHA-256(canonical(to_dict()))`` in hex: what the next entry's ``prev`` holds."""
        return sha256_hex(canonical(self.to_dict()))

    @classmethod
    def from_dict(cls, data: Any, sender: str) -> Entry:
        """Parse an entry's dict form (fields and encodings only; no signature check).

        Raises:
            RecordError: ``malformed`` (a missing, extra or mistyped field, bad hex) or
                ``unsigned`` (empty ``sig``).
        """
        raw = require(data, _ENTRY_SCHEMA, sender, "record entry", error=RecordError)
        seq = raw["seq"]
        if seq < 0:
            raise RecordError(sender, Reason.MALFORMED, f"entry number {seq} is negative")
        if not TABLE_ID.fullmatch(raw["tbl"]):
            raise RecordError(sender, Reason.MALFORMED, f"table id {raw['tbl'][:40]!r} is bad", seq)
        if not _STATE.fullmatch(raw["state"]):
            raise RecordError(
                sender, Reason.MALFORMED, f"state hash {raw['state'][:40]!r} is not hex", seq
            )
        if raw["sig"] == "":
            raise RecordError(sender, Reason.UNSIGNED, "the entry has an empty signature", seq)
        author = hex_field(raw["author"], 32, sender, "author", error=RecordError)
        hex_field(raw["prev"], 32, sender, "prev", error=RecordError)
        sig = hex_field(raw["sig"], 64, sender, "signature", error=RecordError)
        return cls(raw["tbl"], seq, author, raw["prev"], raw["payload"], raw["state"], sig)

    def verifies(self) -> bool:
        """Whether :attr:`sig` is the author's valid signature of this entry."""
        return verify_signature(self.author, self.sig, self.signed_bytes())


def sign_entry(
    identity: Identity, table: str, seq: int, prev: str, payload: Mapping[str, Any], state: str
) -> Entry:
    """Build and sign an entry.

    Raises:
        LocalProtocolError: a bad table id, state hash or number, or a payload that is not
            canonical JSON.
    """
    if not TABLE_ID.fullmatch(table) or not _STATE.fullmatch(state) or seq < 0:
        raise LocalProtocolError(f"bad entry fields: table {table!r}, seq {seq}, state {state!r}")
    draft = Entry(table, seq, identity.public_key, prev, dict(payload), state, b"")
    return Entry(
        table,
        seq,
        identity.public_key,
        prev,
        dict(payload),
        state,
        identity.sign(draft.signed_bytes()),
    )


@dataclass(frozen=True, slots=True)
class Equivocation:
    """Proof that ``first.author`` signed two different entries with one number."""

    first: Entry
    second: Entry

    def to_line_dict(self) -> dict[str, Any]:
        """The evidence line of the record file."""
        return {
            "kind": "equivocation",
            "first": self.first.to_dict(),
            "second": self.second.to_dict(),
        }


Validator = Callable[["Record", Entry], None]
"""Checks an entry against the game: raises ``RecordError`` (e.g. reason ``illegal``) or an
``engine.core.EngineError`` to refuse it. Called with the record *before* the entry is added."""


class Record:
    """An append-only log of signed entries for one table.

    Args:
        table: the table id (16 lowercase hex digits).
        seats: the seated peers' Ed25519 keys (32 bytes each) in seat order, 2 to 6.
        nicks: their nicknames, same length (for naming people in errors).
        genesis: the signed start statement or other founding data (JSON object; checked by
            :func:`verify_lines`' ``genesis_check``, opaque here).

    Raises:
        LocalProtocolError: a bad table id, a seat key that is not 32 bytes, a repeated seat,
            or ``nicks`` of another length.
    """

    def __init__(
        self,
        table: str,
        seats: Sequence[bytes],
        nicks: Sequence[str],
        genesis: Mapping[str, Any] | None = None,
    ) -> None:
        if not TABLE_ID.fullmatch(table):
            raise LocalProtocolError(f"table id {table!r} is not 16 lowercase hex digits")
        if len(set(seats)) != len(seats) or any(len(pk) != 32 for pk in seats):
            raise LocalProtocolError("seats must be distinct 32-byte keys")
        if len(nicks) != len(seats):
            raise LocalProtocolError(f"{len(nicks)} nicknames for {len(seats)} seats")
        self.table = table
        self.seats: tuple[bytes, ...] = tuple(seats)
        self.nicks: tuple[str, ...] = tuple(nicks)
        self.genesis: dict[str, Any] = dict(genesis or {})
        self._entries: list[Entry] = []
        self.evidence: list[Equivocation] = []
        self._seat_of = {pk: i for i, pk in enumerate(self.seats)}

    # -- reading -----------------------------------------------------------------------------

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every accepted entry, in order (entry ``i`` has ``seq == i``)."""
        return tuple(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def header(self) -> dict[str, Any]:
        """The header (first line of the record file)."""
        return {
            "format": FORMAT,
            "v": 1,
            "tbl": self.table,
            "seats": [pk.hex() for pk in self.seats],
            "nicks": list(self.nicks),
            "genesis": self.genesis,
        }

    @property
    def head(self) -> str:
        """The hash the next entry's ``prev`` must hold."""
        return self._entries[-1].hash if self._entries else sha256_hex(canonical(self.header()))

    def seat_of(self, author: bytes) -> int | None:
        """The seat of ``author``, or ``None`` when not seated."""
        return self._seat_of.get(author)

    def name(self, author: bytes) -> str:
        """How ``author`` is named in errors: nickname, fingerprint and seat when seated."""
        seat = self._seat_of.get(author)
        if seat is None:
            return describe(author)
        return f"{describe(author, self.nicks[seat])} (seat {seat})"

    def next_entry(self, identity: Identity, payload: Mapping[str, Any], state: str) -> Entry:
        """Sign the entry that would come next (not appended: pass it to :meth:`append`)."""
        return sign_entry(identity, self.table, len(self._entries), self.head, payload, state)

    # -- appending ---------------------------------------------------------------------------

    def append(
        self,
        entry: Entry | Mapping[str, Any],
        validator: Validator | None = None,
        *,
        link: str | None = None,
    ) -> Entry:
        """Check ``entry`` and add it at the end.

        Args:
            entry: an :class:`Entry` or its dict form as received.
            validator: the game's checks (see :data:`Validator`), run last.
            link: the name of the peer that delivered the entry; errors found before the
                signature is verified name it, later errors name the entry's author.

        Returns:
            The entry added.

        Raises:
            RecordError: reason ``malformed``, ``unsigned``, ``wrong-table``, ``not-seated``,
                ``bad-signature``, ``replayed``, ``out-of-order``, ``broken-chain`` or
                ``illegal`` (or whatever reason the validator's ``RecordError`` gives).
            EquivocationError: a different, validly signed entry by the same author with the
                number of an accepted entry; both are kept in :attr:`evidence`.
        """
        if not isinstance(entry, Entry):
            entry = Entry.from_dict(dict(entry), link or "unknown peer")
        claimed = link or f"{self.name(entry.author)} (unverified)"
        if entry.table != self.table:
            raise RecordError(
                claimed,
                Reason.WRONG_TABLE,
                f"entry names table {entry.table}, not {self.table}",
                entry.seq,
            )
        if entry.author not in self._seat_of:
            raise RecordError(
                claimed,
                Reason.NOT_SEATED,
                f"author {describe(entry.author)} is not seated",
                entry.seq,
            )
        if not entry.verifies():
            raise RecordError(
                claimed,
                Reason.BAD_SIGNATURE,
                f"signature by {self.name(entry.author)} does not verify",
                entry.seq,
            )
        author = self.name(entry.author)
        if entry.seq < len(self._entries):
            settled = self._entries[entry.seq]
            if settled == entry:
                raise RecordError(
                    author,
                    Reason.REPLAYED,
                    f"entry {entry.seq} is already in the record",
                    entry.seq,
                )
            if settled.author == entry.author:
                self._keep_evidence(Equivocation(settled, entry))
                raise EquivocationError(
                    author,
                    f"signed two different entries numbered {entry.seq}",
                    entry.seq,
                    settled.to_dict(),
                    entry.to_dict(),
                )
            raise RecordError(
                author,
                Reason.OUT_OF_ORDER,
                f"entry {entry.seq} is settled by {self.name(settled.author)}",
                entry.seq,
            )
        if entry.seq > len(self._entries):
            raise RecordError(
                author,
                Reason.OUT_OF_ORDER,
                f"entry {entry.seq} leaves a gap: next is {len(self._entries)}",
                entry.seq,
            )
        if entry.prev != self.head:
            raise RecordError(
                author,
                Reason.BROKEN_CHAIN,
                f"prev {entry.prev[:16]}... is not the hash of the entry before",
                entry.seq,
            )
        if validator is not None:
            try:
                validator(self, entry)
            except RecordError:
                raise
            except (EngineError, PeerError) as exc:
                raise RecordError(author, Reason.ILLEGAL, str(exc), entry.seq) from exc
        self._entries.append(entry)
        return entry

    def add_evidence(
        self,
        first: Entry | Mapping[str, Any],
        second: Entry | Mapping[str, Any],
        *,
        link: str | None = None,
    ) -> Equivocation:
        """Check and keep equivocation evidence received from another peer.

        Raises:
            RecordError: the two entries are not validly signed, differing entries of this
                table with one number and one seated author (the *sender* of such bogus
                evidence is at fault: ``link`` is named).
        """
        sender = link or "unknown peer"
        a = first if isinstance(first, Entry) else Entry.from_dict(dict(first), sender)
        b = second if isinstance(second, Entry) else Entry.from_dict(dict(second), sender)
        if (a.table, a.seq, a.author) != (b.table, b.seq, b.author) or a == b:
            raise RecordError(sender, Reason.MALFORMED, "evidence entries do not conflict")
        if a.table != self.table or a.author not in self._seat_of:
            raise RecordError(sender, Reason.WRONG_TABLE, "evidence is not about this table")
        if not (a.verifies() and b.verifies()):
            raise RecordError(sender, Reason.BAD_SIGNATURE, "evidence signature does not verify")
        evidence = Equivocation(a, b)
        self._keep_evidence(evidence)
        return evidence

    def _keep_evidence(self, evidence: Equivocation) -> None:
        if evidence not in self.evidence:
            self.evidence.append(evidence)

    # -- files -------------------------------------------------------------------------------

    def to_lines(self) -> list[bytes]:
        """The record file's lines (without ``\\n``): header, entries, then evidence."""
        lines = [canonical(self.header())]
        lines += [canonical({"kind": "entry", "entry": e.to_dict()}) for e in self._entries]
        lines += [canonical(ev.to_line_dict()) for ev in self.evidence]
        return lines

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the whole record file (to a temporary file, fsync, then rename)."""
        file = Path(path)
        tmp = file.with_name(file.name + ".tmp")
        with open(tmp, "wb") as handle:
            handle.write(b"".join(line + b"\n" for line in self.to_lines()))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, file)


def read_record(
    path: str | os.PathLike[str],
    validator: Validator | None = None,
    genesis_check: Callable[[Record], None] | None = None,
) -> Record:
    """Read and verify a record file (see :func:`verify_lines`).

    Raises:
        RecordFileError: the file cannot be read, or a line does not verify.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordFileError(0, None, f"cannot read {path}: {exc.strerror}") from None
    if not data.endswith(b"\n"):
        raise RecordFileError(data.count(b"\n") + 1, None, "the last line has no newline")
    return verify_lines(data[:-1].split(b"\n"), validator, genesis_check)


def verify_lines(
    lines: Iterable[bytes],
    validator: Validator | None = None,
    genesis_check: Callable[[Record], None] | None = None,
) -> Record:
    """Verify a whole record end to end and rebuild it.

    Every line must be canonical JSON; the header must be well formed; ``genesis_check`` (e.g.
    :func:`lancards.p2p.table.check_record_genesis`) checks the header against its signed start
    statement; every entry passes :meth:`Record.append` (signature, numbering, chain, author,
    ``validator``); every evidence line holds a real equivocation.

    Args:
        lines: the file's lines, without newlines.

    Returns:
        The record, evidence included.

    Raises:
        RecordFileError: naming the first bad line (1-based) and, for an entry line, the entry
            number, with the underlying rejection as ``cause``.
    """
    record: Record | None = None
    for number, line in enumerate(lines, start=1):
        expected = None if record is None else len(record)
        # Name the entry this line should hold unless it claims to be evidence.
        entry_no = None if b'"kind":"equivocation"' in line else expected
        try:
            data = parse_json(line, "record file", max_size=1 << 24)
            if canonical(data) != line:
                raise RecordFileError(number, entry_no, "line is not canonical JSON")
            if record is None:
                record = _header_record(data, genesis_check)
                continue
            if not isinstance(data, dict) or data.get("kind") not in ("entry", "equivocation"):
                raise RecordFileError(number, entry_no, "line is neither an entry nor evidence")
            if data["kind"] == "entry":
                require(data, {"kind": str, "entry": dict}, "record file", "entry line")
                record.append(data["entry"], validator, link="record file")
            else:
                require(
                    data,
                    {"kind": str, "first": dict, "second": dict},
                    "record file",
                    "evidence line",
                )
                record.add_evidence(data["first"], data["second"], link="record file")
        except RecordFileError:
            raise
        except (MessageError, RecordError, LocalProtocolError) as exc:
            raise RecordFileError(number, entry_no, str(exc), exc) from exc
    if record is None:
        raise RecordFileError(1, None, "the file is empty")
    return record


def _header_record(data: Any, genesis_check: Callable[[Record], None] | None) -> Record:
    header = require(data, _HEADER_SCHEMA, "record file", "header")
    if header["format"] != FORMAT or header["v"] != 1:
        raise RecordFileError(1, None, f"not a version 1 {FORMAT} file")
    seats = header["seats"]
    nicks = header["nicks"]
    if not all(isinstance(s, str) for s in seats) or not all(isinstance(n, str) for n in nicks):
        raise RecordFileError(1, None, "header seats and nicks must be strings")
    keys = [hex_field(s, 32, "record file", "seat key") for s in seats]
    record = Record(header["tbl"], keys, nicks, header["genesis"])
    if genesis_check is not None:
        try:
            genesis_check(record)
        except PeerError as exc:
            raise RecordFileError(1, None, f"genesis does not verify: {exc}", exc) from exc
    return record
