"""Private payloads sealed to one recipient (decryption shares for a card's holder).

Construction (``docs/protocol.md``, "Sealed payloads"), in the manner of HPKE's authenticated
mode (RFC 9180 section 5.1.3) with fixed primitives:

1. The sender makes a fresh ephemeral X25519 key ``e`` (RFC 7748) and computes
   ``dh1 = X25519(e, R)`` and ``dh2 = X25519(s, R)``, with ``R`` the recipient's X25519 public
   key and ``s`` the sender's own X25519 key (so only the claimed sender could have sealed it).
2. ``okm = HKDF-SHA256(ikm = dh1 || dh2, salt = epk, info = "lancards/v1/sealed" || AD, L = 44)``
   (RFC 5869); ``key = okm[:32]``, ``nonce = okm[32:]``. The key is used once.
3. ``ct = ChaCha20-Poly1305(key).encrypt(nonce, plaintext, AD)`` (RFC 8439), where
   ``AD = "lancards/v1/sealed\\x00" || canonical({"epk", "purpose", "recipient", "sender", "tbl"})``
   binds the sender, the recipient (Ed25519 keys), the table id and the purpose.

The dict form sent inside a ``sealed`` message is
``{"ct": hex, "epk": hex, "purpose": str, "recipient": hex, "sender": hex, "tbl": str}``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, SealedError
from lancards.p2p.protocol.identity import Identity, PublicIdentity, describe
from lancards.p2p.protocol.wire import TABLE_ID, canonical, hex_field, require

AD_TAG: Final = b"lancards/v1/sealed\x00"
"""Domain tag that starts the associated data."""

KDF_INFO: Final = b"lancards/v1/sealed"
"""HKDF ``info`` prefix."""

MAX_PLAINTEXT: Final = 64 * 1024
"""The largest plaintext, in bytes."""

PURPOSE = re.compile(r"[a-z0-9][a-z0-9.:\-]{0,63}")
"""A purpose: 1 to 64 of ``a-z 0-9 . : -``, e.g. ``"share:deal:17"``."""

_SCHEMA: Final = {
    "sender": str,
    "recipient": str,
    "tbl": str,
    "purpose": str,
    "epk": str,
    "ct": str,
}


@dataclass(frozen=True, slots=True)
class SealedPayload:
    """A payload only ``recipient`` can open.

    Attributes:
        sender: the sender's Ed25519 key, 32 bytes.
        recipient: the recipient's Ed25519 key, 32 bytes.
        table: the table id.
        purpose: what it is for (e.g. ``"share:deal:17"``); the receiver says what it expects.
        epk: the ephemeral X25519 public key, 32 bytes.
        ciphertext: the ChaCha20-Poly1305 ciphertext with its 16-byte tag.
    """

    sender: bytes
    recipient: bytes
    table: str
    purpose: str
    epk: bytes
    ciphertext: bytes

    def associated_data(self) -> bytes:
        """The AEAD associated data (see the module docstring)."""
        return AD_TAG + canonical(
            {
                "epk": self.epk.hex(),
                "purpose": self.purpose,
                "recipient": self.recipient.hex(),
                "sender": self.sender.hex(),
                "tbl": self.table,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """The form sent in a ``sealed`` message."""
        return {
            "sender": self.sender.hex(),
            "recipient": self.recipient.hex(),
            "tbl": self.table,
            "purpose": self.purpose,
            "epk": self.epk.hex(),
            "ct": self.ciphertext.hex(),
        }

    @classmethod
    def from_dict(cls, data: Any, link: str) -> SealedPayload:
        """Parse the dict form.

        Raises:
            SealedError: ``malformed`` (fields, types, hex, table id, purpose, a ciphertext
                shorter than its tag or longer than the limit).
        """
        raw = require(data, _SCHEMA, link, "sealed payload", error=SealedError)
        if not TABLE_ID.fullmatch(raw["tbl"]) or not PURPOSE.fullmatch(raw["purpose"]):
            raise SealedError(link, Reason.MALFORMED, "sealed payload has a bad table or purpose"
                              ).with_code("schema", where="sealed payload")
        ct_len = len(raw["ct"]) // 2
        if not 16 <= ct_len <= MAX_PLAINTEXT + 16:
            raise SealedError(link, Reason.MALFORMED, f"ciphertext of {ct_len} bytes"
                              ).with_code("ciphertext-size", size=ct_len)
        return cls(
            hex_field(raw["sender"], 32, link, "sender", error=SealedError),
            hex_field(raw["recipient"], 32, link, "recipient", error=SealedError),
            raw["tbl"],
            raw["purpose"],
            hex_field(raw["epk"], 32, link, "epk", error=SealedError),
            hex_field(raw["ct"], ct_len, link, "ciphertext", error=SealedError),
        )


def _raw(public: X25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _key_nonce(dh1: bytes, dh2: bytes, epk: bytes, ad: bytes) -> tuple[bytes, bytes]:
    okm = HKDF(hashes.SHA256(), 44, salt=epk, info=KDF_INFO + ad).derive(dh1 + dh2)
    return okm[:32], okm[32:]


def seal(
    sender: Identity,
    recipient: PublicIdentity,
    table: str,
    purpose: str,
    plaintext: bytes,
    *,
    random_bytes: Callable[[int], bytes] = secrets.token_bytes,
) -> SealedPayload:
    """Encrypt ``plaintext`` so that only ``recipient`` can open it.

    Args:
        sender: this peer.
        recipient: the recipient's public identity (its X25519 key from its signed join).
        table: the table id.
        purpose: see :data:`PURPOSE`.
        plaintext: at most :data:`MAX_PLAINTEXT` bytes.
        random_bytes: the source of the ephemeral X25519 key (32 bytes; the protocol core
            passes its own, so the sans-I/O core draws no randomness of its own).

    Raises:
        LocalProtocolError: a bad table id or purpose, a too long plaintext, or a recipient
            X25519 key that gives no shared secret (a low-order point).
    """
    if not TABLE_ID.fullmatch(table) or not PURPOSE.fullmatch(purpose):
        raise LocalProtocolError(f"bad table id {table!r} or purpose {purpose!r}")
    if len(plaintext) > MAX_PLAINTEXT:
        raise LocalProtocolError(f"plaintext of {len(plaintext)} bytes exceeds {MAX_PLAINTEXT}")
    ephemeral = X25519PrivateKey.from_private_bytes(random_bytes(32))
    try:
        their = X25519PublicKey.from_public_bytes(recipient.x25519_public)
        dh1 = ephemeral.exchange(their)
        dh2 = sender.x25519_private.exchange(their)
    except ValueError as exc:
        raise LocalProtocolError(f"recipient {recipient} has an unusable X25519 key") from exc
    draft = SealedPayload(
        sender.public_key, recipient.public_key, table, purpose, _raw(ephemeral.public_key()), b""
    )
    ad = draft.associated_data()
    key, nonce = _key_nonce(dh1, dh2, draft.epk, ad)
    ct = ChaCha20Poly1305(key).encrypt(nonce, plaintext, ad)
    return SealedPayload(draft.sender, draft.recipient, table, purpose, draft.epk, ct)


def open_sealed(
    me: Identity,
    payload: SealedPayload,
    sender: PublicIdentity,
    *,
    table: str,
    purpose: str | None = None,
    link: str | None = None,
) -> bytes:
    """Decrypt a payload sealed to this peer.

    Args:
        me: this peer (the recipient).
        payload: what was received.
        sender: the claimed sender's public identity (from the table's seats).
        table: the table this peer expects.
        purpose: the purpose this peer expects, or ``None`` to accept any.
        link: the name of the peer that delivered it (default: the claimed sender).

    Returns:
        The plaintext.

    Raises:
        SealedError: ``wrong-recipient`` (sealed to another peer), ``wrong-sender`` (the
            payload's sender is not ``sender``), ``wrong-table`` (another table or purpose),
            or ``undecryptable`` (the tag does not verify: tampered, or not sealed by
            ``sender``).
    """
    who = link or str(sender)
    if payload.recipient != me.public_key:
        raise SealedError(
            who,
            Reason.WRONG_RECIPIENT,
            f"{payload.purpose!r} is sealed to {describe(payload.recipient)}, not to {me.nick}",
        ).with_code("sealed-to-other", purpose=payload.purpose,
                    recipient=describe(payload.recipient), me=me.nick)
    if payload.sender != sender.public_key:
        raise SealedError(
            who,
            Reason.WRONG_SENDER,
            f"payload names sender {describe(payload.sender)}, not {sender}",
        ).with_code("sealed-other-sender", named=describe(payload.sender), sender=str(sender))
    if payload.table != table or (purpose is not None and payload.purpose != purpose):
        raise SealedError(
            who,
            Reason.WRONG_TABLE,
            f"payload is for table {payload.table} purpose {payload.purpose!r}; expected "
            f"table {table} purpose {purpose!r}",
        ).with_code("sealed-other-table", table=payload.table, purpose=payload.purpose,
                    here=table, here_purpose=str(purpose))
    ad = payload.associated_data()
    try:
        epk = X25519PublicKey.from_public_bytes(payload.epk)
        dh1 = me.x25519_private.exchange(epk)
        dh2 = me.x25519_private.exchange(X25519PublicKey.from_public_bytes(sender.x25519_public))
        key, nonce = _key_nonce(dh1, dh2, payload.epk, ad)
        return ChaCha20Poly1305(key).decrypt(nonce, payload.ciphertext, ad)
    except (InvalidTag, ValueError):
        raise SealedError(
            who,
            Reason.UNDECRYPTABLE,
            f"{payload.purpose!r} does not decrypt (tampered or not sealed by {sender})",
        ).with_code("undecryptable", purpose=payload.purpose, sender=str(sender)) from None
