"""The evidence of a signed entry the rules refuse (``docs/protocol.md`` 11.4 and section 7).

A seated author's validly signed entry for the next place of the record that the receiver
refuses as ``illegal``, ``out-of-turn``, ``wrong-state-hash`` or ``malformed`` names its author
a cheater and halts the table. The receiver keeps the entry (:attr:`Record.cheats`), journals
it (``Persist("cheat-entry")``: a resumed peer halts again) and writes it into the record file as a
``{"entry": {...}, "kind": "cheat"}`` line, after the equivocation lines; the closing line lists
its hash with theirs. ``lancards audit`` checks the line (:func:`take_cheat_line`): signed by a
seated author, numbered for the place after the last entry on the record's head, and refused
by the rules there; so the audit names the cheater and the move, and no line can accuse an
honest seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from lancards.p2p.protocol.errors import Reason, RecordError
from lancards.p2p.protocol.wire import canonical

Entry = Any
"""A :class:`lancards.p2p.protocol.record.Entry` (:mod:`~lancards.p2p.protocol.record` reads
cheat lines through this module: no import of it here)."""

Record = Any
"""A :class:`lancards.p2p.protocol.record.Record`."""

CHEATS: Final = (Reason.ILLEGAL, Reason.OUT_OF_TURN, Reason.WRONG_STATE, Reason.MALFORMED)
"""Rejections of a validly signed entry that prove its author broke the rules (11.4)."""


@dataclass(frozen=True, slots=True)
class SignedCheat:
    """A signed entry the rules refuse at the place after the record's last entry.

    Attributes:
        entry: the signed entry.
        reason: the refusal's :class:`Reason` value (``"illegal"``); not part of the line.
        detail: the refusal in English (the engine's sentence, ruling and all); not part of
            the line.
        cause: what refused it (:func:`refused_by`: the engine's error, whose ``code`` and
            ``params`` say why in words, ``cli/refusal_words.py``; an out-of-turn refusal
            itself, whose ``params`` say whose entry was due), or ``None``; not part of the
            line.
    """

    entry: Entry
    reason: str = ""
    detail: str = ""
    cause: BaseException | None = None

    def to_line_dict(self) -> dict[str, Any]:
        """The evidence line of the record file."""
        return {"kind": "cheat", "entry": self.entry.to_dict()}

    @property
    def hash(self) -> str:
        """SHA-256 of the canonical evidence line, in hex (listed by the closing line)."""
        return hashlib.sha256(canonical(self.to_line_dict())).hexdigest()


def refused_by(refusal: RecordError) -> BaseException | None:
    """What refused a signed entry, for words: the refusal's cause (the engine's error, the
    deck's), or for an ``out-of-turn`` refusal the refusal itself (its ``code`` and ``params``:
    ``due_seat``, counted from 1, and ``due_entry``, what the record waited for; the move is
    the entry's own payload)."""
    return refusal if refusal.reason is Reason.OUT_OF_TURN else refusal.__cause__


def keep_cheat(record: Record, entry: Entry, refusal: RecordError) -> bool:
    """Keep ``entry`` as the record's cheat evidence; False when one is kept already (one cheat
    halts the table; the first one is the evidence)."""
    if record.cheats:
        return False
    record.cheats.append(SignedCheat(entry, refusal.reason.value, refusal.detail,
                                     refused_by(refusal)))
    return True


class _Allowed(Exception):
    """The validator took the entry: the line accuses its author of nothing."""


def take_cheat_line(record: Record, entry: Entry,
                    validator: Callable[[Record, Entry], None] | None) -> SignedCheat:
    """Check a record file's cheat line (its ``entry``) after its last entry and keep it.

    Raises:
        RecordError: the line is not evidence of a cheat: a second one, an entry that does not
            verify or is not for the place after the last entry, or one the rules allow.
    """
    name = record.name(entry.author)
    if record.cheats:
        raise RecordError(name, Reason.MALFORMED, "a second cheat line", entry.seq).with_code(
            "second-cheat-line")
    if entry.seq != len(record):
        raise RecordError(name, Reason.OUT_OF_ORDER, f"the cheat line's entry {entry.seq + 1} is "
                          f"not for the place after the last entry ({len(record)})", entry.seq
                          ).with_code("cheat-line-place", seq=entry.seq + 1, next=len(record))

    def judge(held: Record, taken: Entry) -> None:
        if validator is not None:
            validator(held, taken)
        raise _Allowed

    try:
        record.append(entry, judge, link="record file")
    except _Allowed:
        raise RecordError(name, Reason.MALFORMED, "the rules allow the cheat line's entry",
                          entry.seq).with_code("cheat-line-allowed") from None
    except RecordError as exc:
        if exc.reason not in CHEATS:
            raise
        kept = SignedCheat(entry, exc.reason.value, exc.detail, refused_by(exc))
        record.cheats.append(kept)
        return kept
    raise AssertionError("unreachable")  # pragma: no cover


def no_entry_after_cheat(record: Record) -> None:
    """Refuse an entry line after the cheat line (the cheat is the record's end).

    Raises:
        RecordError: the record holds a cheat line.
    """
    if record.cheats:
        raise RecordError("record file", Reason.OUT_OF_ORDER, "an entry after the cheat line",
                          len(record)).with_code("after-cheat-line")


__all__ = ["CHEATS", "SignedCheat", "keep_cheat", "no_entry_after_cheat", "refused_by",
           "take_cheat_line"]
