"""Declared schemas of everything a peer receives, checked where the bytes are decoded.

One place answers "what may a peer send?": the envelope, every message body, every record
entry and entry payload kind, the sealed private-shares plaintext, the lobby messages and the
record file's lines are :mod:`msgspec` structs here (``docs/protocol.md`` lists them).
:func:`check_limits` runs on the raw bytes *before* any parser sees them (size, nesting depth),
and :func:`conform` checks a parsed JSON value against a struct; both turn every violation into a
:class:`~lancards.p2p.protocol.errors.RemoteProtocolError` of reason ``malformed`` (or
``oversized``) that names the sender: a peer's bad input is a rejection, never an exception of ours.

The deck's own messages (``msg`` of ``key``, ``shuffle``, ``shares``, ``open`` entries, and
every opening) are decoded by :func:`lancards.p2p.crypto.messages.decode_message`, which checks
each point and scalar; here they are only required to be objects.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from lancards.p2p.protocol.errors import MessageError, Reason, RemoteProtocolError
from lancards.p2p.protocol.record_lines import (
    CheatLine,
    CloseLine,
    EntryLine,
    EvidenceLine,
    RecordLine,
)
from lancards.p2p.protocol.schema_types import (
    MAX_DECK,
    MAX_DEPTH,
    MAX_INT,
    MAX_OPENS,
    MAX_SEATS,
    MAX_SHARES,
    MAX_SLOT_GENERATIONS,
    Hex32,
    Host,
    Object,
    Port,
    Seq,
    StateHash,
    TableId,
    _Strict,
)
from lancards.p2p.protocol.schema_words import explain
from lancards.p2p.protocol.series_schemas import (
    RematchAnswerMsg,
    RematchSign,
)

# ---------------------------------------------------------------------------------------------
# The envelope and the message bodies (``docs/protocol.md``, "Envelope", "Message types").


class EnvelopeSchema(_Strict, rename={"sender": "from"}):
    """The envelope; ``sig`` is checked further by
    :func:`lancards.p2p.protocol.wire.decode_envelope` (empty: ``unsigned``; not 128 hex digits:
    ``bad-signature``)."""

    v: int
    type: Annotated[str, Meta(pattern=r"\A[a-z][a-z0-9.\-]{0,39}\Z")]
    sender: Annotated[str, Meta(max_length=64)]
    tbl: Annotated[str, Meta(max_length=16)]
    seq: int
    body: Object
    sig: Annotated[str, Meta(max_length=128)]


class TableJoin(_Strict):
    """Its ``xpk`` is checked by :func:`lancards.p2p.protocol.table.member_from_dict` (hex,
    usable)."""

    nick: Annotated[str, Meta(max_length=64)]
    xpk: Annotated[str, Meta(max_length=64)]
    game: Annotated[str, Meta(max_length=40)]
    bot: Annotated[str, Meta(max_length=16)] = ""
    """The bot level playing the joiner's seat (``""`` or absent: none said); checked by
    :func:`lancards.p2p.protocol.statement.member_from_dict`."""


class TableLeave(_Strict):
    pass


REFUSALS: Final = ("wrong-game", "full", "started", "closed", "wrong-table")
"""Why a host refuses a ``table.join`` (``table.refused``; ``docs/protocol.md`` section 6)."""


class TableRefused(_Strict):
    """The host refuses a join (issue 25, item 5): ``reason`` one of :data:`REFUSALS`, and the
    game the host's table plays (its registry name)."""

    reason: Literal["wrong-game", "full", "started", "closed", "wrong-table"]
    game: Annotated[str, Meta(max_length=40)]


class TableRoster(_Strict):
    version: Seq
    members: Annotated[list[Object], Meta(max_length=MAX_SEATS)]
    spec: Object


class TableStart(_Strict):
    statement: Object


class TableSign(_Strict):
    statement_hash: Annotated[str, Meta(max_length=64)]
    sig: Annotated[str, Meta(max_length=128)]


class TableStarted(_Strict):
    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]


class TablePort(_Strict):
    """A seated member tells the host the port it listens on."""

    port: Port


class TableAddrs(_Strict):
    """The host's address book of the seated members: key (hex) -> [host, port]."""

    addrs: Annotated[dict[Hex32, tuple[Host, Port]], Meta(max_length=MAX_SEATS)]


class TableAsk(_Strict):
    """A seat that signed the start statement of hash ``statement_hash`` (SHA-256, hex) and was
    killed before the started table reached its disk asks a seated peer for it
    (:mod:`lancards.p2p.protocol.start_fetch`)."""

    statement_hash: Hex32


class TableTold(_Strict):
    """The answer to ``table.ask``: the started table (statement, every start signature) and
    the answering peer's address book of the seated members: key (hex) -> [host, port]."""

    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]
    addrs: Annotated[dict[Hex32, tuple[Host, Port]], Meta(max_length=MAX_SEATS)]


class RecordEntryMsg(_Strict):
    entry: Object


class RecordEvidenceMsg(_Strict):
    first: Object
    second: Object


class RecordSync(_Strict):
    """Ask for the entries from number ``have`` on."""

    have: Seq


class RecordAck(_Strict):
    """Consistent broadcast: the sender accepted entry ``seq`` whose hash is ``hash``."""

    seq: Seq
    hash: Hex32


class RecordCheck(_Strict):
    """"A proof of shuffle in entry ``seq`` (hash ``hash``) failed here: check yours now"
    (sent by a peer that halts on a deferred proof, so every peer names the prover; issue 23,
    situation 8)."""

    seq: Seq
    hash: Hex32


class SealedMsg(_Strict):
    payload: Object


Round = Annotated[int, Meta(ge=0, lt=64)]
"""A removal round at one record position (:data:`lancards.p2p.protocol.votes.MAX_ROUNDS`)."""


class RemovalVote(_Strict):
    """A signed vote "remove seat ``seat``" (ruling D-5; :mod:`lancards.p2p.protocol.rescue`): bound
    to the table, the seat, the record position it is about (``at``: the record's length, ``head``:
    the hash of its last entry) and the round there (a round the lowest other seat withdrew is void;
    the next vote there is of the next round); ``by`` is the signer's Ed25519 key, ``sig`` its
    signature of :func:`lancards.p2p.protocol.votes.vote_bytes`."""

    tbl: TableId
    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    at: Seq
    head: Hex32
    round: Round
    by: Hex32
    sig: Annotated[str, Meta(pattern=r"\A[0-9a-f]{128}\Z")]


class RemovalWithdrawal(_Strict):
    """A signed "no" to removing seat ``seat`` in round ``round`` at ``(at, head)`` (issue 23;
    :mod:`lancards.p2p.protocol.rescue`): the signer will not vote there, or withdraws its vote.
    Signed by the round's rescuer (the lowest present seat other than ``seat``, the only one that
    may begin the removal) it voids the round: every vote of it binds nobody any more. ``sig``
    covers :func:`lancards.p2p.protocol.votes.withdrawal_bytes`."""

    tbl: TableId
    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    at: Seq
    head: Hex32
    round: Round
    by: Hex32
    sig: Annotated[str, Meta(pattern=r"\A[0-9a-f]{128}\Z")]


class RecordVote(_Strict):
    """A removal vote travelling beside the record (:class:`RemovalVote`)."""

    vote: RemovalVote


class RecordUnvote(_Strict):
    """A removal withdrawal travelling beside the record (:class:`RemovalWithdrawal`)."""

    unvote: RemovalWithdrawal


class Chat(_Strict):
    text: Annotated[str, Meta(max_length=4000)]


class PresenceMsg(_Strict):
    """A person paused (``docs/protocol.md``, "Presence"); being back is told by the link."""

    state: Literal["paused"]


class LinksMsg(_Strict):
    """The seats this peer has had no link to for a while (``docs/protocol.md``, "Presence"):
    words for the others' waiting lines, never a record entry; at most ``MAX_SEATS`` seats."""

    missing: Annotated[list[Annotated[int, Meta(ge=0, lt=MAX_SEATS)]],
                       Meta(max_length=MAX_SEATS)]


class WatchAsk(_Strict):
    """An observer asks for the entries from ``have`` on, then each later one (11.11)."""

    have: Seq


class WatchTable(_Strict):
    """An observer's started table (its record's genesis), answering its first ask."""

    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]


class WatchNext(_Strict):
    """The watched table plays again (issue 27): the next game's started table, whose
    ``follows`` names the game the observer watched to its end (11.11)."""

    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]


MESSAGE_SCHEMAS: Final[dict[str, type[Struct]]] = {
    # Table formation (p2p.table).
    "table.join": TableJoin,
    "table.leave": TableLeave,
    "table.refused": TableRefused,
    "table.roster": TableRoster,
    "table.start": TableStart,
    "table.sign": TableSign,
    "table.started": TableStarted,
    "table.port": TablePort,
    "table.addrs": TableAddrs,
    "table.ask": TableAsk,
    "table.told": TableTold,
    # The game record (p2p.record, p2p.core) and private payloads (p2p.sealed).
    "record.entry": RecordEntryMsg,
    "record.evidence": RecordEvidenceMsg,
    "record.sync": RecordSync,
    "record.ack": RecordAck,
    "record.vote": RecordVote,
    "record.check": RecordCheck,
    "record.unvote": RecordUnvote,
    "sealed": SealedMsg,
    # Play again (p2p.rematch).
    "rematch.answer": RematchAnswerMsg,
    "rematch.sign": RematchSign,
    # People.
    "chat": Chat,
    "presence": PresenceMsg,
    "links": LinksMsg,
    # Observers (p2p.watchers, p2p.watching): link-only, never to or from a seat's core.
    "watch.ask": WatchAsk,
    "watch.table": WatchTable,
    "watch.next": WatchNext,
    "watch.entry": RecordEntryMsg,
}
"""The one table of message types: type -> body schema."""


# ---------------------------------------------------------------------------------------------
# Record entries and their payloads (``docs/protocol.md``, "Game record", "Entry payloads").


class EntrySchema(_Strict):
    tbl: TableId
    seq: Seq
    author: Hex32
    prev: Hex32
    payload: Object
    state: StateHash
    sig: Annotated[str, Meta(max_length=128)]


class KeyPayload(_Strict, tag_field="t", tag="key"):
    msg: Object


class ShufflePayload(_Strict, tag_field="t", tag="shuffle"):
    msg: Object


class SharesPayload(_Strict, tag_field="t", tag="shares"):
    msg: Object


class OpenPayload(_Strict, tag_field="t", tag="open"):
    msg: Object


class ActionPayload(_Strict, tag_field="t", tag="action"):
    a: Annotated[str, Meta(min_length=1, max_length=400)]
    open: Annotated[list[Object], Meta(max_length=MAX_OPENS)]


class LeaveShares(_Strict):
    """The deck's leave message: the leaver's public decryption shares (``recipient`` -1) of
    every hidden card outside its own hand (``recipient`` null: public); empty when no card
    is hidden. Its points and proofs are checked by the deck."""

    type: Literal["shares"]
    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    recipient: None
    shares: Annotated[list[ShareItem], Meta(max_length=MAX_SHARES)]
    proof: Object | UnsetType = UNSET
    """The batched proof of the shares; absent when there is none."""


class LeavePayload(_Strict, tag_field="t", tag="leave"):
    """Seat ``seat`` (the entry's author) leaves the table for good (rulings D-1..D-4)."""

    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    msg: LeaveShares


PointHex = Annotated[str, Meta(pattern=r"\A[0-9a-f]{66}\Z")]
"""A compressed secp256k1 point in lowercase hex (the deck checks it is on the curve)."""
SeatKey = Annotated[str, Meta(pattern=r"\A[0-5]\Z")]
"""A seat number as a JSON object key."""


class EscrowPayload(_Strict, tag_field="t", tag="escrow"):
    """The author's key share split among the other present seats (p2p/protocol/escrow_entries.py):
    one public part commitment and one sealed part per holder."""

    commitments: Annotated[dict[SeatKey, PointHex], Meta(min_length=1, max_length=MAX_SEATS)]
    parts: Annotated[dict[SeatKey, Object], Meta(min_length=1, max_length=MAX_SEATS)]


class EscrowPart(_Strict):
    """The plaintext of a ``deck.escrow`` sealed payload: the part, 64 lowercase hex."""

    part: Annotated[str, Meta(pattern=r"\A[0-9a-f]{64}\Z")]


class RescuePayload(_Strict, tag_field="t", tag="rescue"):
    """The author's rescue shares for removing seat ``seat`` (ruling D-5;
    :mod:`lancards.p2p.protocol.rescue`): its escrow part applied to every hidden card outside that
    seat's hand (``msg``, as a leave's, proven against the escrow commitment). The first rescue
    entry of a removal carries the votes of every remaining seat; the later ones none."""

    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    votes: Annotated[list[RemovalVote], Meta(max_length=MAX_SEATS - 1)]
    msg: LeaveShares


Payload = (
    KeyPayload | ShufflePayload | SharesPayload | OpenPayload | ActionPayload | LeavePayload
    | EscrowPayload | RescuePayload
)
"""An entry's payload, by its kind ``t``."""


# ---------------------------------------------------------------------------------------------
# Sealed private shares (``docs/protocol.md``, "Private shares").


class ShareItem(_Strict):
    # Slots are numbered on across reshuffles (every reshuffle of the discard pile gives its
    # cards new slots), so a long game passes 4096: the bound is the deck messages' (2**31).
    slot: Annotated[int, Meta(ge=0, lt=1 << 31)]
    share: Annotated[str, Meta(max_length=66)]


class PrivateShares(_Strict):
    """The plaintext of a ``deck.shares`` sealed payload (the deck checks the points)."""

    type: Literal["shares"]
    seat: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    recipient: Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
    shares: Annotated[list[ShareItem], Meta(min_length=1, max_length=MAX_SHARES)]
    proof: Object
    """One batched Chaum-Pedersen proof for all the shares (``docs/mental-poker.md``)."""


# ---------------------------------------------------------------------------------------------
# Record file lines (``docs/protocol.md``, "Record file").


class HeaderLine(_Strict):
    format: str
    v: int
    tbl: TableId
    seats: Annotated[list[Hex32], Meta(min_length=2, max_length=MAX_SEATS)]
    nicks: Annotated[list[Annotated[str, Meta(max_length=64)]], Meta(max_length=MAX_SEATS)]
    genesis: Object


class GenesisSchema(_Strict):
    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]


# ---------------------------------------------------------------------------------------------
# Checking.

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")
_PLAIN_STRING = re.compile(rb'"[^"]*"')
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP = [0] * 256
for _open in b"[{":
    _DEPTH_STEP[_open] = 1
for _close in b"]}":
    _DEPTH_STEP[_close] = -1

S = TypeVar("S", bound=Struct)


def nesting_depth(data: bytes) -> int:
    """The deepest nesting of JSON arrays and objects in ``data`` (brackets inside strings do
    not count; unbalanced input gives whatever depth it reaches)."""
    if b"\\" in data:
        depth = deepest = 0
        for bracket in _BRACKETS.findall(_STRING.sub(b'""', data)):
            if bracket in (b"[", b"{"):
                depth += 1
                deepest = max(deepest, depth)
            else:
                depth -= 1
        return deepest
    # Without a backslash a string runs from a quote to the next one: keep only the quotes and
    # brackets (the same strings, shorter). When every quote has its partner, drop two quotes
    # in a row (an empty string, or the nothing between two strings: the others pair up as
    # before). Then drop the strings and add up the steps.
    kept = data.translate(None, _NOT_STRUCTURE)
    if kept.count(b'"') % 2 == 0:
        kept = kept.replace(b'""', b"")
    outside = _PLAIN_STRING.sub(b"", kept)
    return max(0, max(accumulate(map(_DEPTH_STEP.__getitem__, outside)), default=0))


def check_limits(
    data: bytes,
    sender: str,
    *,
    max_size: int,
    max_depth: int = MAX_DEPTH,
    error: type[RemoteProtocolError] = MessageError,
) -> None:
    """Refuse ``data`` before parsing when it is too large or nested too deeply.

    Raises:
        RemoteProtocolError (``error``): ``oversized`` beyond ``max_size`` bytes, ``malformed``
            when nested deeper than ``max_depth``.
    """
    if len(data) > max_size:
        raise error(sender, Reason.OVERSIZED, f"{len(data)} bytes, limit {max_size}"
                    ).with_code("oversized", size=len(data), limit=max_size)
    depth = nesting_depth(data)
    if depth > max_depth:
        raise error(sender, Reason.MALFORMED, f"bad JSON: nested {depth} deep, limit {max_depth}"
                    ).with_code("too-deep", depth=depth, limit=max_depth)


def conform(
    value: Any,
    schema: Any,
    sender: str,
    where: str,
    *,
    error: type[RemoteProtocolError] = MessageError,
    seq: int | None = None,
) -> Any:
    """Check a parsed JSON value against ``schema`` (a struct type or a union of them).

    Returns:
        The value as the struct (a copy; the value itself is unchanged).

    Raises:
        RemoteProtocolError (``error``): ``malformed``, naming ``where``, the path and the
            offending type or value (``sender`` is named).
    """
    try:
        return msgspec.convert(value, schema, strict=True)
    except msgspec.ValidationError as exc:
        raise error(sender, Reason.MALFORMED, explain(str(exc), where), seq).with_code(
            "schema", where=where) from None  # the kind of message, for other languages


__all__ = [
    "MAX_DECK",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_OPENS",
    "MAX_SEATS",
    "MAX_SHARES",
    "MAX_SLOT_GENERATIONS",
    "MESSAGE_SCHEMAS",
    "ActionPayload",
    "CheatLine",
    "CloseLine",
    "EntryLine",
    "EntrySchema",
    "EnvelopeSchema",
    "EscrowPart",
    "EscrowPayload",
    "EvidenceLine",
    "HeaderLine",
    "LeavePayload",
    "LeaveShares",
    "Payload",
    "PrivateShares",
    "RecordLine",
    "RecordVote",
    "RemovalVote",
    "RescuePayload",
    "WatchAsk",
    "WatchNext",
    "WatchTable",
    "check_limits",
    "conform",
    "nesting_depth",
]
