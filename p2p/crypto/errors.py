"""Errors of the mental-poker deck: one root, split by cause.

Every error says who is at fault. :class:`DeckUsageError` is ours (the caller misused the API,
like h11's ``LocalProtocolError``); every :class:`PeerFaultError` names the seat of the peer that
broke the protocol (like ``RemoteProtocolError``), with the epoch the message belonged to, so that
the peer layer can show the evidence and keep the record.
"""

from __future__ import annotations

Seat = int
"""A seat number, 0-based, in seat order (the same as ``engine.core.Seat``)."""


class DeckError(Exception):
    """Root of every error of ``p2p.crypto``.

    Attributes:
        seat: the seat at fault, or ``None`` when no peer is (a local mistake).
        epoch: the epoch concerned (0: the joint-key phase), or ``None`` when none is.
    """

    def __init__(self, message: str, *, seat: Seat | None = None, epoch: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.epoch = epoch


class DeckUsageError(DeckError):
    """The local caller misused the API (a step out of order, an unknown slot, a bad argument)."""


class PeerFaultError(DeckError):
    """A peer broke the protocol; :attr:`seat` names it."""

    seat: Seat

    def __init__(self, message: str, *, seat: Seat, epoch: int | None = None) -> None:
        super().__init__(message, seat=seat, epoch=epoch)


class InvalidMessageError(PeerFaultError):
    """A malformed message: wrong shape or type, a bad hex string, a value out of range, an
    invalid point encoding or the identity point where a proper point is expected."""


class ProofError(PeerFaultError):
    """A proof that does not verify.

    Attributes:
        proof: the proof's name (``"proof of shuffle"``, ``"key proof of knowledge"``,
            ``"decryption share proof"``, ``"card opening"``).
    """

    def __init__(self, proof: str, message: str, *, seat: Seat, epoch: int | None) -> None:
        super().__init__(
            f"{proof} by seat {seat} in epoch {epoch} rejected: {message}", seat=seat, epoch=epoch
        )
        self.proof = proof


class ProtocolViolationError(PeerFaultError):
    """A well-formed message that the protocol does not allow now: out of turn, a duplicate, a
    key that does not match its commitment, a wrong epoch, an unknown slot."""


class EncodingError(DeckError):
    """Bytes that are not a valid encoding of a group element or scalar (origin unknown).

    The message layer turns it into an :class:`InvalidMessageError` that names the sender.
    """
