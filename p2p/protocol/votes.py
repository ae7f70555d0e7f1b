"""Signed removal votes and withdrawals: their domain-separated bytes, signing and checks, and the
bounds of the removal state machine (``docs/protocol.md`` 11.10; ruling D-5). Used by
:class:`lancards.p2p.protocol.rescue.Rescue`.
"""

from __future__ import annotations

from typing import Any

from lancards.engine.core import Seat
from lancards.p2p.protocol.errors import Refusal
from lancards.p2p.protocol.identity import Identity, verify_signature
from lancards.p2p.protocol.schemas import RemovalVote, RemovalWithdrawal
from lancards.p2p.protocol.wire import canonical

VOTE_TAG = b"lancards/v1/remove\x00"
"""The domain tag of a removal vote's signed bytes (no other signed object starts with it)."""

UNVOTE_TAG = b"lancards/v1/unvote\x00"
"""The domain tag of a removal withdrawal's signed bytes."""

VOTES_PER_SIGNER = 4
"""The most removal votes kept per signer (about this position or later ones this peer has not
reached yet); more are dropped (an honest peer is at most a few entries ahead)."""

MIN_REMAINING = 2
"""A removal needs at least this many remaining seats (so 3 present: with two, the one other
seat would hold the whole escrowed key share, which is never dealt)."""

MAX_ROUNDS = 64
"""Removal rounds at one record position (schema ``Round``): a node votes again at most once
per patience after a void, so this is hours of waiting at one position."""

HELD_PER_AUTHOR = 1
"""Entries kept per author while this peer is bound at their position (taken once free)."""

VoteKey = tuple[Seat, int, str, int]
"""``(vanished seat, record position, head hash, round)``: what a vote is about."""


def vote_bytes(table: str, seat: Seat, at: int, head: str, by: bytes, round: int = 0) -> bytes:
    """The bytes a removal vote's signature covers: :data:`VOTE_TAG` and the canonical JSON of
    ``{"at", "by", "head", "round", "seat", "tbl"}`` (``by``: the signer's key, hex)."""
    return VOTE_TAG + canonical({"tbl": table, "seat": seat, "at": at, "head": head,
                                 "round": round, "by": by.hex()})


def withdrawal_bytes(table: str, seat: Seat, at: int, head: str, by: bytes, round: int) -> bytes:
    """The bytes a removal withdrawal's signature covers: :data:`UNVOTE_TAG` and the canonical
    JSON of ``{"at", "by", "head", "round", "seat", "tbl"}``."""
    return UNVOTE_TAG + canonical({"tbl": table, "seat": seat, "at": at, "head": head,
                                   "round": round, "by": by.hex()})


def sign_vote(identity: Identity, table: str, seat: Seat, at: int, head: str, round: int = 0
              ) -> dict[str, Any]:
    """A removal vote of ``identity`` for removing ``seat`` in ``round`` at record position
    ``at`` (the record's length) whose last entry hashes to ``head`` (JSON form of
    :class:`~lancards.p2p.protocol.schemas.RemovalVote`)."""
    signature = identity.sign(vote_bytes(table, seat, at, head, identity.public_key, round))
    return {"tbl": table, "seat": seat, "at": at, "head": head, "round": round,
            "by": identity.public_key.hex(), "sig": signature.hex()}


def sign_withdrawal(identity: Identity, table: str, seat: Seat, at: int, head: str, round: int
                    ) -> dict[str, Any]:
    """A withdrawal ("no") of ``identity`` from removing ``seat`` in ``round`` at ``(at,
    head)`` (JSON form of :class:`~lancards.p2p.protocol.schemas.RemovalWithdrawal`)."""
    signature = identity.sign(withdrawal_bytes(table, seat, at, head, identity.public_key,
                                               round))
    return {"tbl": table, "seat": seat, "at": at, "head": head, "round": round,
            "by": identity.public_key.hex(), "sig": signature.hex()}


def vote_problem(vote: RemovalVote, table: str, seat: Seat, at: int,
                 head: str) -> Refusal | None:
    """What is wrong with ``vote`` as a vote to remove ``seat`` at ``(at, head)`` of ``table``
    (its signature included), or ``None``."""
    if (vote.tbl, vote.seat, vote.at, vote.head) != (table, seat, at, head):
        return Refusal(f"a vote about table {vote.tbl}, seat {vote.seat + 1}, entry "
                       f"{vote.at + 1} ({vote.head[:12]}...), not seat {seat + 1} at entry "
                       f"{at + 1} ({head[:12]}...)", "vote-mismatch", table=vote.tbl,
                       seat=vote.seat + 1, seq=vote.at + 1, head=vote.head[:12],
                       here_seat=seat + 1, here_seq=at + 1,
                       here_head=head[:12])
    by = bytes.fromhex(vote.by)
    if not verify_signature(by, bytes.fromhex(vote.sig),
                            vote_bytes(vote.tbl, vote.seat, vote.at, vote.head, by, vote.round)):
        return Refusal("a vote whose signature does not verify", "vote-signature")
    return None


def withdrawal_verifies(unvote: RemovalWithdrawal) -> bool:
    """Whether ``unvote``'s signature verifies under its ``by`` key."""
    by = bytes.fromhex(unvote.by)
    return verify_signature(by, bytes.fromhex(unvote.sig), withdrawal_bytes(
        unvote.tbl, unvote.seat, unvote.at, unvote.head, by, unvote.round))


__all__ = ["HELD_PER_AUTHOR", "MAX_ROUNDS", "MIN_REMAINING", "UNVOTE_TAG", "VOTES_PER_SIGNER",
           "VOTE_TAG", "VoteKey", "sign_vote", "sign_withdrawal", "vote_bytes", "vote_problem",
           "withdrawal_bytes", "withdrawal_verifies"]
