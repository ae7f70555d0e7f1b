"""The joint-key phase (epoch 0): commit, then reveal with a Schnorr proof of knowledge.

Every seat ``i`` draws a key share ``x_i``, publishes the commitment to ``X_i = x_i*G``, and
only once every commitment is in reveals ``X_i`` with a proof of knowledge of ``x_i``. The joint
key is ``PK = X_0 + ... + X_{n-1}``. The commitment stops a peer from choosing its share after
seeing the others' (the rogue-key attack ``X_j = Y - sum of the others``), and the proof of
knowledge stops it even without commitments (Boneh-Shoup, "A Graduate Course in Applied
Cryptography", v0.6, section 22.4). Nobody knows the joint secret ``sum x_i``.
"""

from __future__ import annotations

from lancards.p2p.crypto.deck import Debt, Seat, TableParams
from lancards.p2p.crypto.errors import DeckError, DeckUsageError, ProtocolViolationError
from lancards.p2p.crypto.group import Point, RandomBytes, mul_base, point_sum
from lancards.p2p.crypto.messages import KeyCommit, KeyReveal
from lancards.p2p.crypto.proofs import check_key, key_commitment, prove_key
from lancards.p2p.crypto.transcript import ProofContext


class KeyPhase:
    """One seat's view of the joint-key phase.

    Args:
        params: the table.
        seat: this seat.
        secret: this seat's key share ``x`` (1 to n-1).
        random_bytes: the source of the proof's nonce.
    """

    def __init__(
        self, params: TableParams, seat: Seat, secret: int, random_bytes: RandomBytes
    ) -> None:
        self.params = params
        self.seat = seat
        self._secret = secret
        self._random = random_bytes
        self.key_share = mul_base(secret)
        self.commitments: dict[Seat, bytes] = {}
        self.keys: dict[Seat, Point] = {}
        self.joint_key: Point | None = None

    def _context(self, seat: Seat) -> ProofContext:
        return ProofContext(self.params.game_id, self.params.table_id, 0, seat)

    def make_commit(self) -> KeyCommit:
        """This seat's commitment; recorded locally."""
        commitment = key_commitment(self._context(self.seat), self.key_share)
        self.commitments[self.seat] = commitment
        return KeyCommit(self.seat, commitment)

    def make_reveal(self) -> tuple[KeyReveal, bool]:
        """This seat's key share and proof; recorded locally.

        Returns:
            The message, and whether the joint key just became known.

        Raises:
            DeckUsageError: some seat's commitment has not arrived yet.
        """
        missing = [s for s in range(self.params.n_seats) if s not in self.commitments]
        if missing:
            raise DeckUsageError(
                f"cannot reveal the key share before the commitments of seats {missing}"
            )
        if self.seat not in self.keys:
            self.keys[self.seat] = self.key_share
        proof = prove_key(self._context(self.seat), self._secret, self._random)
        return KeyReveal(self.seat, self.key_share, proof), self._finish()

    def accept_commit(self, sender: Seat, message: KeyCommit) -> None:
        """Record a commitment (a repeat of the same one is ignored).

        Raises:
            ProtocolViolationError: a second, different commitment.
            DeckUsageError: our own commitment, replayed, does not match our secret key.
        """
        known = self.commitments.get(sender)
        if sender == self.seat and message.commitment != key_commitment(
            self._context(self.seat), self.key_share
        ):
            raise DeckUsageError("our own key commitment does not match our secret key")
        if known is not None and known != message.commitment:
            raise ProtocolViolationError(
                f"seat {sender} sent a second, different key commitment", seat=sender, epoch=0
            )
        self.commitments[sender] = message.commitment

    def accept_reveal(self, sender: Seat, message: KeyReveal) -> bool:
        """Check and record a key share.

        Returns:
            True when the joint key just became known.

        Raises:
            ProtocolViolationError: no commitment from ``sender`` yet, or the key share does
                not match it (a key chosen after the commitments: rogue key).
            ProofError: the proof of knowledge fails.
        """
        commitment = self.commitments.get(sender)
        if commitment is None:
            raise ProtocolViolationError(
                f"seat {sender} revealed its key share before committing to it",
                seat=sender,
                epoch=0,
            )
        context = self._context(sender)
        if key_commitment(context, message.key) != commitment:
            raise ProtocolViolationError(
                f"the key share of seat {sender} does not match its commitment (rogue key)",
                seat=sender,
                epoch=0,
            )
        check_key(context, message.key, message.proof)
        self.keys[sender] = message.key
        return self._finish()

    def _finish(self) -> bool:
        if self.joint_key is not None or len(self.keys) < self.params.n_seats:
            return False
        joint = point_sum(self.keys[s] for s in range(self.params.n_seats))
        if joint.is_identity:  # pragma: no cover - needs a discrete logarithm
            raise DeckError("the joint key is the identity")
        self.joint_key = joint
        return True

    def debts(self) -> list[Debt]:
        """Seats that still owe a commitment, else those that still owe a key share."""
        n = self.params.n_seats
        if len(self.commitments) < n:
            return [Debt(s, "key_commit", 0) for s in range(n) if s not in self.commitments]
        return [Debt(s, "key_reveal", 0) for s in range(n) if s not in self.keys]
