"""Key escrow for the rescue of a seat that vanished (issue 17; ruling D-5).

At the start of a table of 3 or more seats with the option ``rescue`` on, each seat ``i``
splits its deck key share ``x_i`` additively among the other seats: parts ``s_ij`` with
``sum_j s_ij = x_i (mod n)``, public commitments ``S_ij = s_ij*G`` that must add up to its public
key share ``X_i``, each part sealed to its holder ``j``, who checks ``s_ij*G = S_ij`` (a bad part
or commitments that do not add up name the dealer ``i``). This is an n-of-n additive sharing
(no threshold): to remove a seat ``v`` that vanished, every remaining seat ``j`` publishes
``s_vj*b`` for each hidden card outside ``v``'s hand with one batched Chaum-Pedersen proof
against ``S_vj`` (:func:`~lancards.p2p.crypto.proofs.prove_shares` with the rescue recipient
:func:`rescue_recipient`), and the sum of the parts is ``x_v*b``, ``v``'s decryption share: the
layer is stripped as for a leave. The trade-off, shown in the lobby: all the other seats
together could open one seat's hand.

After a removal the parts that the vanished seat held are gone, so every remaining seat deals
its key share again among the remaining others (:func:`deal_escrow` once more), and a later
departure can be survived too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from lancards.p2p.crypto.deck import Seat
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import ORDER, Point, RandomBytes, mul_base, point_sum, random_scalar

ESCROW: Final[str] = "key escrow"
"""The name of the check a bad escrow deal fails (in :class:`ProofError`)."""

RESCUE_BASE: Final[int] = -1000
"""Rescue shares of vanished seat ``v`` are proven for recipient ``RESCUE_BASE - v``, so they can
never pass for a public or private decryption share of the same slot."""


def rescue_recipient(vanished: Seat) -> int:
    """The recipient value hashed into the proofs of rescue shares for seat ``vanished``."""
    return RESCUE_BASE - vanished


def deal_escrow(
    secret: int, holders: Iterable[Seat], random_bytes: RandomBytes
) -> tuple[dict[Seat, Point], dict[Seat, int]]:
    """Split ``secret`` additively among ``holders``.

    Args:
        secret: the dealer's key share ``x`` (1..n-1).
        holders: the other seats, 1 or more.
        random_bytes: the source of every part but the last.

    Returns:
        The public commitments ``{holder: s*G}`` and the secret parts ``{holder: s}``, whose sum
        is ``secret`` mod the group order (every part non-zero).

    Raises:
        ValueError: no holder.
    """
    seats = sorted(set(holders))
    if not seats:
        raise ValueError("a key share needs at least one holder to be escrowed")
    while True:
        parts = {seat: random_scalar(random_bytes) for seat in seats[:-1]}
        last = (secret - sum(parts.values())) % ORDER
        if last:
            parts[seats[-1]] = last
            break
    return {seat: mul_base(part) for seat, part in parts.items()}, parts


def check_commitments(
    dealer: Seat, key_share: Point, commitments: Mapping[Seat, Point], holders: Iterable[Seat]
) -> None:
    """Check a dealer's public commitments: one per holder, none the identity, adding up to
    the dealer's key share ``X``.

    Raises:
        ProofError: the dealer (``seat``) dealt to the wrong seats or the sum is not ``X``.
    """
    expected = sorted(set(holders))
    if sorted(commitments) != expected:
        raise ProofError(ESCROW, f"parts for seats {sorted(commitments)}, not {expected}",
                         seat=dealer, epoch=0)
    if any(c.is_identity for c in commitments.values()):
        raise ProofError(ESCROW, "a part commitment is the identity", seat=dealer, epoch=0)
    if point_sum(commitments.values()) != key_share:
        raise ProofError(ESCROW, "the part commitments do not add up to the key share",
                         seat=dealer, epoch=0)


def check_part(dealer: Seat, part: int, commitment: Point) -> None:
    """Check the part a dealer sealed to this seat against its public commitment.

    Raises:
        ProofError: ``part*G`` is not the commitment (names the dealer).
    """
    if not 0 < part < ORDER or mul_base(part) != commitment:
        raise ProofError(ESCROW, "the sealed part does not match its commitment", seat=dealer,
                         epoch=0)
