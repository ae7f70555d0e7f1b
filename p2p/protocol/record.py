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
line, then ``{"entry": {...}, "kind": "entry"}`` lines in order, then
``{"first": {...}, "kind": "equivocation", "second": {...}}`` lines for the evidence found, a
``{"entry": {...}, "kind": "cheat"}`` line for a signed entry the rules refuse
(:mod:`lancards.p2p.protocol.cheat_evidence`), then the closing line ``{"by", "entries",
"evidence", "head", "kind": "close", "sig"}``: the writer (a seated peer) signs the number of
entries, the head hash and the hash of every evidence line, so removing, adding or repeating an
entry or an evidence line fails the audit, and a file cut before its closing line is seen as
unfinished. :func:`verify_bytes` checks a whole file end to
end, byte for byte.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from lancards.engine.core import EngineError
from lancards.p2p.protocol.errors import (
    EquivocationError,
    LocalProtocolError,
    MessageError,
    PeerError,
    Reason,
    RecordError,
    RecordFileError,
)
from lancards.p2p.protocol.identity import Identity, describe, verify_signature
from lancards.p2p.protocol.schemas import (
    CheatLine,
    CloseLine,
    EntryLine,
    EntrySchema,
    EvidenceLine,
    HeaderLine,
    RecordLine,
    conform,
)
from lancards.p2p.protocol.wire import TABLE_ID, canonical, hex_field, parse_json

ENTRY_TAG: Final = b"lancards/v1/record-entry\x00"
"""Domain tag of record entry signatures."""

FORMAT: Final = "lancards-record"
"""The header's ``format`` value."""

CLOSE_TAG: Final = b"lancards/v1/record-close\x00"
"""Domain tag of the closing line's signature."""

MAX_LINE_BYTES: Final = 1 << 20
"""The longest record file line, in bytes (a 108-card shuffle entry is about 60 KB)."""

_STATE = re.compile(r"[0-9a-f]{2,128}")


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

    An entry is immutable (its payload is never changed after it is built), so its hash is
    computed once and kept.
    """

    table: str
    seq: int
    author: bytes
    prev: str
    payload: dict[str, Any] = field(hash=False)
    state: str
    sig: bytes
    _hash: str | None = field(default=None, init=False, repr=False, compare=False)

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
        """``SHA-256(canonical(to_dict()))`` in hex: what the next entry's ``prev`` holds
        (computed on first use, then kept).

        Raises:
            LocalProtocolError, UnicodeEncodeError: the payload is not canonical JSON (only a
                locally built entry can be so).
        """
        if self._hash is None:
            object.__setattr__(self, "_hash", sha256_hex(canonical(self.to_dict())))
        assert self._hash is not None
        return self._hash

    @classmethod
    def from_dict(cls, data: Any, sender: str) -> Entry:
        """Parse an entry's dict form (fields and encodings only; no signature check).

        Raises:
            RecordError: ``malformed`` (a missing, extra or mistyped field, bad hex) or
                ``unsigned`` (empty ``sig``).
        """
        raw: EntrySchema = conform(data, EntrySchema, sender, "record entry", error=RecordError)
        if raw.sig == "":
            raise RecordError(sender, Reason.UNSIGNED, "the entry has an empty signature", raw.seq
                              ).with_code("entry-unsigned")
        sig = hex_field(raw.sig, 64, sender, "signature", error=RecordError)
        return cls(raw.tbl, raw.seq, bytes.fromhex(raw.author), raw.prev, data["payload"],
                   raw.state, sig)

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

    @property
    def hash(self) -> str:
        """SHA-256 of the canonical evidence line, in hex (listed by the closing line)."""
        return sha256_hex(canonical(self.to_line_dict()))


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
        self.cheats: list[Any] = []  # a SignedCheat (p2p.protocol.cheat_evidence) at most
        self.signer: Identity | None = None
        """The seated peer that signs the closing line when the file is written (the protocol
        core sets it to itself); without one, the file has no closing line (unfinished)."""
        self.closed_by: bytes | None = None
        """Who signed the verified closing line of a file read back, else ``None``."""
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
        """How ``author`` is named in errors: nickname, fingerprint and seat when seated (the
        seat counted from 1, as the players panel numbers them: ``bob [...] (seat 2)``)."""
        seat = self._seat_of.get(author)
        if seat is None:
            return describe(author)
        return f"{describe(author, self.nicks[seat])} (seat {seat + 1})"

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
            ).with_code("entry-other-table", table=entry.table, here=self.table)
        if entry.author not in self._seat_of:
            raise RecordError(
                claimed,
                Reason.NOT_SEATED,
                f"author {describe(entry.author)} is not seated",
                entry.seq,
            ).with_code("author-not-seated", author=describe(entry.author))
        if not entry.verifies():
            raise RecordError(
                claimed,
                Reason.BAD_SIGNATURE,
                f"signature by {self.name(entry.author)} does not verify",
                entry.seq,
            ).with_code("entry-signature", name=self.name(entry.author))
        author = self.name(entry.author)
        if entry.seq < len(self._entries):
            settled = self._entries[entry.seq]
            if settled == entry:
                raise RecordError(
                    author,
                    Reason.REPLAYED,
                    f"entry {entry.seq + 1} is already in the record",
                    entry.seq,
                ).with_code("entry-again", seq=entry.seq + 1)
            if settled.author == entry.author:
                self._keep_evidence(Equivocation(settled, entry))
                raise EquivocationError(
                    author,
                    f"signed two different entries numbered {entry.seq + 1}",
                    entry.seq,
                    settled.to_dict(),
                    entry.to_dict(),
                ).with_code("equivocation", seq=entry.seq + 1)
            raise RecordError(
                author,
                Reason.OUT_OF_ORDER,
                f"entry {entry.seq + 1} is settled by {self.name(settled.author)}",
                entry.seq,
            ).with_code("entry-settled", seq=entry.seq + 1, name=self.name(settled.author))
        if entry.seq > len(self._entries):
            raise RecordError(
                author,
                Reason.OUT_OF_ORDER,
                f"entry {entry.seq + 1} leaves a gap: next is {len(self._entries) + 1}",
                entry.seq,
            ).with_code("entry-gap", seq=entry.seq + 1, next=len(self._entries) + 1)
        if entry.prev != self.head:
            raise RecordError(
                author,
                Reason.BROKEN_CHAIN,
                f"prev {entry.prev[:16]}... is not the hash of the entry before",
                entry.seq,
            ).with_code("broken-chain", prev=entry.prev[:16])
        if validator is not None:
            try:
                validator(self, entry)
            except RecordError:
                raise
            except (EngineError, PeerError) as exc:
                raise RecordError(author, Reason.ILLEGAL, str(exc), entry.seq).with_code(
                    "rules-refused", error=exc) from exc
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
            raise RecordError(sender, Reason.MALFORMED, "evidence entries do not conflict"
                              ).with_code("evidence-no-conflict")
        if a.table != self.table or a.author not in self._seat_of:
            raise RecordError(sender, Reason.WRONG_TABLE, "evidence is not about this table"
                              ).with_code("evidence-other-table")
        if not (a.verifies() and b.verifies()):
            raise RecordError(sender, Reason.BAD_SIGNATURE, "evidence signature does not verify"
                              ).with_code("evidence-signature")
        evidence = Equivocation(a, b)
        self._keep_evidence(evidence)
        return evidence

    def _keep_evidence(self, evidence: Equivocation) -> None:
        swapped = Equivocation(evidence.second, evidence.first)
        if evidence not in self.evidence and swapped not in self.evidence:
            self.evidence.append(evidence)

    # -- files -------------------------------------------------------------------------------

    def close_line(self, signer: Identity) -> dict[str, Any]:
        """The closing line ``signer`` signs: the number of entries, the head and the hash of
        every evidence line, so that no entry or evidence line can be removed, added or
        repeated without the audit seeing it."""
        line: dict[str, Any] = {
            "kind": "close",
            "by": signer.public_key.hex(),
            "entries": len(self._entries),
            "head": self.head,
            "evidence": self.evidence_hashes(),
        }
        line["sig"] = signer.sign(CLOSE_TAG + canonical(line)).hex()
        return line

    def evidence_hashes(self) -> list[str]:
        """The hash of every evidence line: equivocations, then the cheat line."""
        return [ev.hash for ev in (*self.evidence, *self.cheats)]

    def to_lines(self) -> list[bytes]:
        """The record file's lines (without ``\\n``): header, entries, evidence, then the
        closing line signed by :attr:`signer` (none without a signer)."""
        lines = [canonical(self.header())]
        lines += [canonical({"kind": "entry", "entry": e.to_dict()}) for e in self._entries]
        lines += [canonical(ev.to_line_dict()) for ev in (*self.evidence, *self.cheats)]
        if self.signer is not None:
            lines.append(canonical(self.close_line(self.signer)))
        return lines


def split_lines(data: bytes) -> list[bytes]:
    """A record file's bytes as lines, exactly: every line ends with one ``\\n``, no line is
    empty (so an added, removed or changed newline is an error).

    Raises:
        RecordFileError: an empty file, a last line without its newline, or an empty line.
    """
    if not data:
        raise RecordFileError(1, None, "the file is empty").with_code("empty")
    if not data.endswith(b"\n"):
        raise RecordFileError(data.count(b"\n") + 1, None, "the last line has no newline"
                              ).with_code("no-newline")
    lines = data[:-1].split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line:
            raise RecordFileError(number, None, "the line is empty").with_code("empty-line")
    return lines


def verify_bytes(
    data: bytes,
    validator: Validator | None = None,
    genesis_check: Callable[[Record], None] | None = None,
) -> Record:
    """Verify a whole record file given as bytes (:func:`split_lines`, then
    :func:`verify_lines`).

    Raises:
        RecordFileError: as :func:`split_lines` and :func:`verify_lines`.
    """
    return verify_lines(split_lines(data), validator, genesis_check)


def verify_lines(
    lines: Iterable[bytes],
    validator: Validator | None = None,
    genesis_check: Callable[[Record], None] | None = None,
) -> Record:
    """Verify a whole record end to end and rebuild it.

    Every line must be canonical JSON within :data:`MAX_LINE_BYTES` and the nesting limit and
    match its schema (:mod:`lancards.p2p.protocol.schemas`); the header must be well formed;
    ``genesis_check`` (e.g. :func:`lancards.p2p.protocol.table.check_record_genesis`) checks the
    header against its signed start statement; every entry passes :meth:`Record.append` (signature,
    numbering, chain, author, ``validator``); every evidence line holds a real equivocation and
    appears once; a closing line, when present, is the last line, is signed by a seated peer and
    lists exactly the entries and evidence lines before it. A file without a closing line verifies
    (``closed_by`` stays ``None``): the caller says it is unfinished.

    Args:
        lines: the file's lines, without newlines.

    Returns:
        The record, evidence included.

    Raises:
        RecordFileError: naming the first bad line (1-based) and, for an entry line, the entry
            number, with the underlying rejection as ``cause``.
    """
    from lancards.p2p.protocol.cheat_evidence import no_entry_after_cheat, take_cheat_line

    record: Record | None = None
    seen_evidence: set[str] = set()
    for number, line in enumerate(lines, start=1):
        expected = None if record is None else len(record)
        # Name the entry this line should hold unless it claims to be something else.
        entry_no = None if b'"kind":"equivocation"' in line or b'"kind":"close"' in line \
            or b'"kind":"cheat"' in line else expected
        try:
            if record is not None and record.closed_by is not None:
                raise RecordFileError(number, None, "a line after the closing line"
                                      ).with_code("after-close")
            data = parse_json(line, "record file", max_size=MAX_LINE_BYTES)
            if canonical(data) != line:
                raise RecordFileError(number, entry_no, "line is not canonical JSON"
                                      ).with_code("not-canonical")
            if record is None:
                record = _header_record(data, genesis_check)
                continue
            item = conform(data, RecordLine, "record file", "record line")
            if isinstance(item, EntryLine):
                no_entry_after_cheat(record)
                record.append(data["entry"], validator, link="record file")
            elif isinstance(item, CheatLine):
                take_cheat_line(record, Entry.from_dict(data["entry"], "record file"), validator)
            elif isinstance(item, EvidenceLine):
                evidence = record.add_evidence(data["first"], data["second"], link="record file")
                if evidence.hash in seen_evidence:
                    raise RecordFileError(number, None, "the evidence line is repeated"
                                          ).with_code("evidence-repeated")
                seen_evidence.add(evidence.hash)
            else:
                _check_close(record, item, data, number)
        except RecordFileError:
            raise
        except (MessageError, RecordError, LocalProtocolError) as exc:
            raise RecordFileError(number, entry_no, str(exc), exc).with_code("entry") from exc
    if record is None:
        raise RecordFileError(1, None, "the file is empty").with_code("empty")
    return record


def _check_close(record: Record, item: CloseLine, data: dict[str, Any], number: int) -> None:
    by = bytes.fromhex(item.by)
    if by not in record.seats:
        raise RecordFileError(number, None, f"closing line by {describe(by)}, who is not seated"
                              ).with_code("close-not-seated", name=describe(by))
    unsigned = {k: v for k, v in data.items() if k != "sig"}
    if not verify_signature(by, bytes.fromhex(item.sig), CLOSE_TAG + canonical(unsigned)):
        raise RecordFileError(number, None, f"closing line of {record.name(by)} is not signed "
                              "by it").with_code("close-unsigned", name=record.name(by))
    if item.entries != len(record) or item.head != record.head:
        raise RecordFileError(number, None, f"closing line of {record.name(by)} counts "
                              f"{item.entries} entries; the file holds {len(record)}").with_code(
            "close-count", name=record.name(by), counted=item.entries, held=len(record))
    if list(item.evidence) != record.evidence_hashes():
        raise RecordFileError(number, None, f"closing line of {record.name(by)} lists "
                              f"{len(item.evidence)} evidence lines; the file holds "
                              f"{len(record.evidence_hashes())} others").with_code(
            "close-evidence", name=record.name(by), listed=len(item.evidence),
            held=len(record.evidence_hashes()))
    record.closed_by = by


def _header_record(data: Any, genesis_check: Callable[[Record], None] | None) -> Record:
    header: HeaderLine = conform(data, HeaderLine, "record file", "header")
    if header.format != FORMAT or header.v != 1:
        raise RecordFileError(1, None, f"not a version 1 {FORMAT} file").with_code("not-v1")
    keys = [bytes.fromhex(s) for s in header.seats]
    record = Record(header.tbl, keys, list(header.nicks), data["genesis"])
    if genesis_check is not None:
        try:
            genesis_check(record)
        except PeerError as exc:
            raise RecordFileError(1, None, f"genesis does not verify: {exc}", exc).with_code(
                "genesis") from exc
    return record
