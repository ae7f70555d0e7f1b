"""The peer layer's errors, split by who is at fault and why.

Model: h11 and websockets. A :class:`LocalProtocolError` means this program misused the API (a
bug here, or a user's mistake such as joining a full table); a :class:`RemoteProtocolError`
means a peer broke the protocol: it always names the sender and carries a machine-readable
:class:`Reason`, so a receiver can reject, record and report the message and carry on. A bad
message from a peer never crashes a peer. The mental-poker package has its own errors under
``p2p.crypto``.
"""

from __future__ import annotations

import re
from enum import StrEnum

from lancards.engine.core import Coded


class Reason(StrEnum):
    """Why a peer's message was rejected (the ``reason`` of a :class:`RemoteProtocolError`).

    The values are stable strings; they appear in logs, in recorded rejections and in
    ``docs/protocol.md``.
    """

    MALFORMED = "malformed"
    """Not UTF-8, not JSON, a duplicate key, a float, or a field of the wrong type or shape."""
    OVERSIZED = "oversized"
    """More bytes than the receiver's limit."""
    UNKNOWN_TYPE = "unknown-type"
    """A message type the receiver does not know."""
    UNSIGNED = "unsigned"
    """The signature is missing or empty."""
    BAD_SIGNATURE = "bad-signature"
    """The signature does not verify under the claimed author's key."""
    WRONG_SENDER = "wrong-sender"
    """The claimed author is not the authenticated peer of the link, or not who was expected."""
    WRONG_TABLE = "wrong-table"
    """The message or entry names another table."""
    REPLAYED = "replayed"
    """A message or record entry that was already received."""
    OUT_OF_ORDER = "out-of-order"
    """A record entry whose sequence number leaves a gap or refers to a settled position."""
    BROKEN_CHAIN = "broken-chain"
    """A record entry whose ``prev`` is not the hash of the entry before it."""
    NOT_SEATED = "not-seated"
    """The author is not a seated peer of the table."""
    EQUIVOCATION = "equivocation"
    """Two validly signed, different record entries with one sequence number and one author."""
    ILLEGAL = "illegal"
    """The caller's validator (the engine, the deck) refused the entry."""
    OUT_OF_TURN = "out-of-turn"
    """The author is not the seat the engine says is to act (raised by the caller's validator)."""
    WRONG_STATE = "wrong-state-hash"
    """The entry's state hash differs from this peer's engine state (the caller's validator)."""
    WRONG_RECIPIENT = "wrong-recipient"
    """A sealed payload addressed to another peer."""
    UNDECRYPTABLE = "undecryptable"
    """A sealed payload whose authentication tag does not verify."""
    HANDSHAKE = "handshake"
    """The transport's hello handshake failed (wrong key, bad proof, wrong version)."""
    BAD_FRAME = "bad-frame"
    """A link frame whose authentication tag fails: injected, altered, replayed or reordered
    between the two ends of the link (``p2p.channel``)."""
    TABLE_RULES = "table-rules"
    """A table message that breaks the rules of table formation (full, started, mismatch)."""
    UNEXPECTED = "unexpected"
    """Handling the message raised an error this program did not expect (a bug reached by a
    peer's bytes): the last-resort guard of an adapter's loop reports it in one line naming
    the sender and goes on serving the others (:func:`unexpected`, issue 23)."""
    BOUND = "bound-by-vote"
    """An entry at a record position where this peer signed a removal vote that is not void:
    it takes only the removal there until the round is void (``docs/protocol.md`` 11.10;
    nobody is named)."""


class PeerError(Coded, Exception):
    """Root of every error the peer layer (``p2p`` outside ``p2p.crypto``) raises.

    Attributes:
        code: a stable code of what went wrong (``"no-answer"``, ``"journal-damaged"``; ``""``
            when the raising site gives none), with ``params``, its values (addresses, line
            numbers, a :class:`~lancards.p2p.net.failure_words.Failure`): the command line says
            the error in the player's language from these (``cli/peer_errors.py``, issue 28);
            the English text (``str``) is for logs, ``--verbose`` and English
            (:class:`~lancards.engine.core.Coded`).
    """


class Refusal(str):
    """Why something is refused, as a sentence (a removal vote, ruling D-5:
    ``PeerNode.removal_refusal``, ``GameCore.removal_problem``): its English text, with a
    stable ``code`` and its ``params`` for words in the player's language (issue 28)."""

    code: str
    params: dict[str, object]

    def __new__(cls, text: str, code: str, **params: object) -> Refusal:
        self = super().__new__(cls, text)
        self.code, self.params = code, params
        return self


class LocalProtocolError(PeerError):
    """This side misused the API or asked for something the protocol does not allow."""


class IdentityError(PeerError):
    """The identity file cannot be read, created or trusted (bad mode, bad contents)."""


class TransportError(PeerError):
    """A transport failure on this side: a timeout, a full queue, a closed mesh."""


class QueueFullError(TransportError):
    """A peer's outgoing queue is at its cap; the message was not queued."""


class RemoteProtocolError(PeerError):
    """A peer broke the protocol.

    Attributes:
        sender: who sent the offending bytes, as people see it (nickname and fingerprint, or
            the authenticated link's name when the claimed author cannot be trusted).
        reason: why, as a stable :class:`Reason`.
        detail: one lowercase sentence with the offending value.
        seq: the record entry's or message's sequence number when known, else ``None``: said
            ``(entry N)`` of a record entry (counted from 1: ``seq`` + 1), ``(message N)`` of
            an envelope's ``seq`` (:attr:`seq_word`; the LAN trial of 2026-12-08 read a
            chat's seq as an "entry"), in the sender's bracket (:func:`placed`).
    """

    seq_word = "entry"

    def __init__(self, sender: str, reason: Reason, detail: str, seq: int | None = None) -> None:
        self.sender = sender
        self.reason = reason
        self.detail = detail
        self.seq = seq
        super().__init__(f"rejected message from {placed(sender, self.seq_word, seq)}: "
                         f"{reason.value}: {detail}")


SEAT_SAID = re.compile(r"(.*) \(seat (\d+)\)", re.DOTALL)
"""The seat a seated sender's name ends in (``bob [...] (seat 2)``, counted from 1)."""


def placed(sender: str, word: str, seq: int | None) -> str:
    """``sender`` and where its message stands, in one bracket: ``"bob [FP] (seat 2, entry
    5)"``, ``"bob [FP] (seat 2, message 326)"``, ``"record file (entry 5)"`` (the LAN trial
    read ``(seat 3) (message 326)``). A record entry is counted from 1, as seats are (entry
    ``seq`` 4 is ``entry 5``); an envelope's ``seq`` (``word`` ``"message"``) is said as it
    is."""
    if seq is None:
        return sender
    where = f"{word} {seq + 1 if word == 'entry' else seq}"
    seat = SEAT_SAID.fullmatch(sender)
    if seat is None:
        return f"{sender} ({where})"
    return f"{seat[1]} (seat {seat[2]}, {where})"


class MessageError(RemoteProtocolError):
    """A message envelope was rejected (``p2p.wire``); its ``seq`` is the envelope's."""

    seq_word = "message"


def unexpected(sender: str, exc: BaseException) -> MessageError:
    """The rejection a last-resort guard reports when handling ``sender``'s message raised
    ``exc``, an exception no door turned into a :class:`RemoteProtocolError` (issue 23: the fix
    belongs at the door; the guard only keeps one peer's bytes from stopping an adapter's
    loop). Its text is one line: ``rejected message from <sender>: unexpected:
    <ExceptionType>: <message, at most 200 characters>``."""
    text = " ".join(str(exc).split())[:200]
    return MessageError(sender, Reason.UNEXPECTED, f"{type(exc).__name__}: {text}").with_code(
        "unexpected")  # the exception's name and text: --verbose only, in other languages


class RecordError(RemoteProtocolError):
    """A record entry was rejected (``p2p.record``)."""


class EquivocationError(RecordError):
    """Two validly signed entries with one sequence number from one author.

    Attributes:
        first: the entry already in the record (its dict form).
        second: the conflicting entry (its dict form). Both are kept as evidence.
    """

    def __init__(
        self,
        sender: str,
        detail: str,
        seq: int,
        first: dict[str, object],
        second: dict[str, object],
    ) -> None:
        super().__init__(sender, Reason.EQUIVOCATION, detail, seq)
        self.first = first
        self.second = second


class RecordFileError(PeerError):
    """A record file does not verify.

    Attributes:
        line: the 1-based line number of the first bad line.
        entry: the record entry's sequence number on that line, when the line is an entry
            (said counted from 1, ``(entry 5)`` for 4, as :func:`placed` says it).
        cause: the underlying rejection, when there is one.
    """

    def __init__(
        self, line: int, entry: int | None, detail: str, cause: PeerError | None = None
    ) -> None:
        self.line = line
        self.entry = entry
        self.cause = cause
        where = f"line {line}" + ("" if entry is None else f" (entry {entry + 1})")
        super().__init__(f"record file {where}: {detail}")


class SealedError(RemoteProtocolError):
    """A sealed private payload cannot be opened (``p2p.sealed``)."""


class TableError(RemoteProtocolError):
    """A table-formation message was rejected (``p2p.table``)."""


class HandshakeError(RemoteProtocolError):
    """The transport's hello handshake failed (``p2p.transport``)."""


class FrameError(RemoteProtocolError):
    """A link frame fails its authentication (reason ``bad-frame``, ``p2p.channel``): the link
    is closed and nothing of the frame reaches the core."""
