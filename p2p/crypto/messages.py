"""The deck's messages as plain JSON values, with validated decoders.

Every message is a ``dict`` of strings, ints, ``None`` and lists, so that the peer layer can
put it on the wire unchanged (``json.dumps(message, sort_keys=True)``). Points are 66 lowercase
hex characters (SEC 1 compressed), scalars 64, commitments 64. Decoding is strict: a missing or
extra key, a wrong type, upper-case or odd-length hex, a scalar not below the group order, an
invalid point or the identity point is an
:class:`~lancards.p2p.crypto.errors.InvalidMessageError` that names the sender.
``docs/mental-poker.md`` lists every field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from lancards.p2p.crypto.elgamal import Ciphertext
from lancards.p2p.crypto.errors import EncodingError, InvalidMessageError
from lancards.p2p.crypto.group import Point, decode_point, decode_scalar, encode_scalar
from lancards.p2p.crypto.proofs import PUBLIC, SigmaProof
from lancards.p2p.crypto.shuffle import ShuffleProof

Message = dict[str, Any]
"""A message as a JSON-serialisable value."""

MAX_LIST: Final[int] = 4096
"""Longest list a message may hold (a bound on the work a peer can cause)."""

_HEX = re.compile(r"[0-9a-f]*")


@dataclass(frozen=True, slots=True)
class KeyCommit:
    """A peer's commitment to its key share (joint-key phase, step 1)."""

    seat: int
    commitment: bytes


@dataclass(frozen=True, slots=True)
class KeyReveal:
    """A peer's key share with its Schnorr proof of knowledge (joint-key phase, step 2)."""

    seat: int
    key: Point
    proof: SigmaProof


@dataclass(frozen=True, slots=True)
class ShuffleMessage:
    """One peer's turn in a shuffle epoch: the ``N`` output ciphertexts and the proof."""

    seat: int
    epoch: int
    outputs: tuple[Ciphertext, ...]
    proof: ShuffleProof


@dataclass(frozen=True, slots=True)
class Share:
    """One decryption share: its author, the slot and the point ``D = x*b``."""

    seat: int
    slot: int
    share: Point


@dataclass(frozen=True, slots=True)
class SharesMessage:
    """Decryption shares by ``seat`` for ``recipient`` (a seat, or ``PUBLIC``), one per slot,
    with one batched Chaum-Pedersen proof for them all (``None`` only when there is no share:
    a leave with nothing hidden)."""

    seat: int
    recipient: int
    shares: tuple[Share, ...]
    proof: SigmaProof | None


@dataclass(frozen=True, slots=True)
class OpenMessage:
    """A holder opens a card it knows: the card index and, per seat, a proven batch of shares
    for the holder that holds that seat's share of the slot (the holder's own batch is fresh,
    of that slot alone; the others are the batches the holder received, forwarded whole)."""

    seat: int
    slot: int
    card: int
    batches: tuple[SharesMessage, ...]


DeckMessage = KeyCommit | KeyReveal | ShuffleMessage | SharesMessage | OpenMessage


# ---------------------------------------------------------------------------------------------
# Encoding.


def _proof(proof: SigmaProof) -> Message:
    return {"c": encode_scalar(proof.challenge).hex(), "z": encode_scalar(proof.response).hex()}


def _shares(message: SharesMessage) -> list[Message]:
    return [{"slot": s.slot, "share": s.share.hex()} for s in message.shares]


def _batch(message: SharesMessage) -> Message:
    assert message.proof is not None  # an opening forwards batches of one share or more
    return {"seat": message.seat, "shares": _shares(message), "proof": _proof(message.proof)}


def _shuffle_proof(proof: ShuffleProof) -> Message:
    def points(values: Sequence[Point]) -> list[str]:
        return [p.hex() for p in values]

    def scalars(values: Sequence[int]) -> list[str]:
        return [encode_scalar(s).hex() for s in values]

    return {
        "commitments": points(proof.commitments),
        "chain": points(proof.chain),
        "t": points((proof.t1, proof.t2, proof.t3, proof.t41, proof.t42)),
        "t_hat": points(proof.t_hat),
        "s": scalars((proof.s1, proof.s2, proof.s3, proof.s4)),
        "s_hat": scalars(proof.s_hat),
        "s_prime": scalars(proof.s_prime),
    }


def encode_message(message: DeckMessage) -> Message:
    """The JSON value of a message (see the module docstring)."""
    if isinstance(message, KeyCommit):
        return {"type": "key_commit", "seat": message.seat, "commitment": message.commitment.hex()}
    if isinstance(message, KeyReveal):
        return {
            "type": "key_reveal",
            "seat": message.seat,
            "key": message.key.hex(),
            "proof": _proof(message.proof),
        }
    if isinstance(message, ShuffleMessage):
        return {
            "type": "shuffle",
            "seat": message.seat,
            "epoch": message.epoch,
            "outputs": [[e.a.hex(), e.b.hex()] for e in message.outputs],
            "proof": _shuffle_proof(message.proof),
        }
    if isinstance(message, SharesMessage):
        out: Message = {
            "type": "shares",
            "seat": message.seat,
            "recipient": None if message.recipient == PUBLIC else message.recipient,
            "shares": _shares(message),
        }
        if message.proof is not None:
            out["proof"] = _proof(message.proof)
        return out
    return {
        "type": "open",
        "seat": message.seat,
        "slot": message.slot,
        "card": message.card,
        "batches": [_batch(b) for b in message.batches],
    }


# ---------------------------------------------------------------------------------------------
# Decoding.

T = TypeVar("T")


class _Reader:
    """Strict field access that raises InvalidMessageError naming the sender."""

    def __init__(self, sender: int) -> None:
        self.sender = sender

    def fail(self, what: str, problem: str) -> InvalidMessageError:
        return InvalidMessageError(
            f"seat {self.sender} sent a bad {what}: {problem}", seat=self.sender
        )

    def fields(self, value: Any, what: str, keys: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(what, f"expected an object, got {type(value).__name__}")
        missing = [k for k in keys if k not in value]
        extra = sorted(str(k) for k in value if k not in keys)
        if missing or extra:
            raise self.fail(what, f"missing keys {missing}, unexpected keys {extra}")
        return value

    def integer(self, value: Any, what: str, lo: int = 0) -> int:
        if type(value) is not int or not lo <= value < 1 << 31:
            raise self.fail(what, f"expected an integer from {lo} to 2**31 - 1, got {value!r}")
        return value

    def hex_bytes(self, value: Any, what: str, length: int | None = None) -> bytes:
        if not isinstance(value, str) or len(value) % 2 or _HEX.fullmatch(value) is None:
            raise self.fail(what, f"expected lowercase hex, got {str(value)[:80]!r}")
        data = bytes.fromhex(value)
        if length is not None and len(data) != length:
            raise self.fail(what, f"expected {length} bytes, got {len(data)}")
        return data

    def point(self, value: Any, what: str) -> Point:
        try:
            return decode_point(self.hex_bytes(value, what))
        except EncodingError as exc:
            raise self.fail(what, str(exc)) from None

    def scalar(self, value: Any, what: str) -> int:
        try:
            return decode_scalar(self.hex_bytes(value, what))
        except EncodingError as exc:
            raise self.fail(what, str(exc)) from None

    def items(
        self, value: Any, what: str, read: Callable[[Any, str], T], length: int | None = None
    ) -> tuple[T, ...]:
        if not isinstance(value, list) or not 0 < len(value) <= MAX_LIST:
            raise self.fail(what, f"expected a list of 1 to {MAX_LIST} entries")
        if length is not None and len(value) != length:
            raise self.fail(what, f"expected {length} entries, got {len(value)}")
        return tuple(read(item, f"{what}[{i}]") for i, item in enumerate(value))

    def proof(self, value: Any, what: str) -> SigmaProof:
        fields = self.fields(value, what, ("c", "z"))
        return SigmaProof(
            self.scalar(fields["c"], f"{what}.c"), self.scalar(fields["z"], f"{what}.z")
        )

    def ciphertext(self, value: Any, what: str) -> Ciphertext:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(what, "a ciphertext is a list of two points")
        return Ciphertext(self.point(value[0], f"{what}.a"), self.point(value[1], f"{what}.b"))

    def share(self, value: Any, what: str, seat: int) -> Share:
        fields = self.fields(value, what, ("slot", "share"))
        return Share(
            seat,
            self.integer(fields["slot"], f"{what}.slot"),
            self.point(fields["share"], f"{what}.share"),
        )

    def shares(self, value: Any, what: str, seat: int, recipient: int) -> SharesMessage:
        """A batch: ``{shares, proof}`` (``seat`` and ``recipient`` given), distinct slots."""
        shares = self.items(value["shares"], f"{what}.shares",
                            lambda v, w: self.share(v, w, seat))
        if len({s.slot for s in shares}) != len(shares):
            raise self.fail(what, "a slot appears twice")
        return SharesMessage(seat, recipient, shares, self.proof(value["proof"], f"{what}.proof"))

    def batch(self, value: Any, what: str, recipient: int) -> SharesMessage:
        """A batch forwarded in an opening: ``{seat, shares, proof}``, for the opener."""
        fields = self.fields(value, what, ("seat", "shares", "proof"))
        return self.shares(fields, what, self.integer(fields["seat"], f"{what}.seat"), recipient)

    def shuffle_proof(self, value: Any, n: int | None) -> ShuffleProof:
        fields = self.fields(
            value, "proof", ("commitments", "chain", "t", "t_hat", "s", "s_hat", "s_prime")
        )
        t = self.items(fields["t"], "proof.t", self.point, 5)
        s = self.items(fields["s"], "proof.s", self.scalar, 4)
        return ShuffleProof(
            commitments=self.items(fields["commitments"], "proof.commitments", self.point, n),
            chain=self.items(fields["chain"], "proof.chain", self.point, n),
            t1=t[0],
            t2=t[1],
            t3=t[2],
            t41=t[3],
            t42=t[4],
            t_hat=self.items(fields["t_hat"], "proof.t_hat", self.point, n),
            s1=s[0],
            s2=s[1],
            s3=s[2],
            s4=s[3],
            s_hat=self.items(fields["s_hat"], "proof.s_hat", self.scalar, n),
            s_prime=self.items(fields["s_prime"], "proof.s_prime", self.scalar, n),
        )


def decode_message(value: Any, sender: int, *, shuffle_size: int | None = None) -> DeckMessage:
    """Decode and validate a message received from ``sender``.

    Args:
        value: the JSON value as received.
        sender: the seat the peer layer authenticated as the message's author (named in errors).
        shuffle_size: the expected ``N`` of a shuffle message (every list of its proof and its
            outputs must have exactly ``N`` entries); ``None`` accepts any length.

    Raises:
        InvalidMessageError: anything malformed; names ``sender``.
    """
    reader = _Reader(sender)
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise reader.fail("message", "expected an object with a string 'type'")
    kind = value["type"]
    if kind == "key_commit":
        fields = reader.fields(value, kind, ("type", "seat", "commitment"))
        return KeyCommit(
            reader.integer(fields["seat"], "seat"),
            reader.hex_bytes(fields["commitment"], "commitment", 32),
        )
    if kind == "key_reveal":
        fields = reader.fields(value, kind, ("type", "seat", "key", "proof"))
        return KeyReveal(
            reader.integer(fields["seat"], "seat"),
            reader.point(fields["key"], "key"),
            reader.proof(fields["proof"], "proof"),
        )
    if kind == "shuffle":
        fields = reader.fields(value, kind, ("type", "seat", "epoch", "outputs", "proof"))
        return ShuffleMessage(
            reader.integer(fields["seat"], "seat"),
            reader.integer(fields["epoch"], "epoch"),
            reader.items(fields["outputs"], "outputs", reader.ciphertext, shuffle_size),
            reader.shuffle_proof(fields["proof"], shuffle_size),
        )
    if kind == "shares":
        fields = reader.fields(value, kind, ("type", "seat", "recipient", "shares", "proof"))
        seat = reader.integer(fields["seat"], "seat")
        recipient = fields["recipient"]
        return reader.shares(
            fields, "shares", seat,
            PUBLIC if recipient is None else reader.integer(recipient, "recipient"),
        )
    if kind == "open":
        fields = reader.fields(value, kind, ("type", "seat", "slot", "card", "batches"))
        opener = reader.integer(fields["seat"], "seat")
        return OpenMessage(
            opener,
            reader.integer(fields["slot"], "slot"),
            reader.integer(fields["card"], "card"),
            reader.items(fields["batches"], "batches",
                         lambda v, w: reader.batch(v, w, opener)),
        )
    raise reader.fail("message", f"unknown type {kind[:40]!r}")
