"""The shapes of a record file's lines after the header (``docs/protocol.md`` section 7): an
entry, a piece of evidence (two entries of one author with one number, or one signed entry
the rules refuse) and the closing line. :mod:`lancards.p2p.protocol.schemas` re-exports them."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from lancards.p2p.protocol.schema_types import Hex32, Object, Seq, _Strict


class EntryLine(_Strict, tag_field="kind", tag="entry"):
    entry: Object


class EvidenceLine(_Strict, tag_field="kind", tag="equivocation"):
    first: Object
    second: Object


class CheatLine(_Strict, tag_field="kind", tag="cheat"):
    """A signed entry a seated author sent for the next place of the record, which the rules
    refuse (``illegal``, ``out-of-turn``, ``wrong-state-hash``, a payload that breaks its
    schema): the evidence of the cheat that halted the table."""

    entry: Object


class CloseLine(_Strict, tag_field="kind", tag="close"):
    """The last line: the writer's signature over the record's head and its evidence."""

    by: Hex32
    entries: Seq
    head: Hex32
    evidence: Annotated[list[Hex32], Meta(max_length=64)]
    sig: Annotated[str, Meta(pattern=r"\A[0-9a-f]{128}\Z")]


RecordLine = EntryLine | EvidenceLine | CheatLine | CloseLine
"""Any line of a record file after the header."""


__all__ = ["CheatLine", "CloseLine", "EntryLine", "EvidenceLine", "RecordLine"]
