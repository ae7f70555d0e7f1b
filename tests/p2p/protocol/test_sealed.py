"""Sealed private payloads: only the recipient opens them; every binding is checked."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, SealedError
from lancards.p2p.protocol.sealed import SealedPayload, open_sealed, seal

from .helpers import TABLE, people

ANN, BOB, CYD = people(3)
SHARE = b'{"slot":17,"share":"02ab"}'


def test_recipient_opens_and_dict_form_round_trips() -> None:
    sealed = seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE)
    again = SealedPayload.from_dict(sealed.to_dict(), "ann")
    assert again == sealed
    assert open_sealed(BOB, again, ANN.public(), table=TABLE, purpose="share:deal:17") == SHARE
    # Fresh ephemeral key every time: the same plaintext never gives the same ciphertext.
    assert seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE).ciphertext != sealed.ciphertext


def test_payload_for_someone_else_fails_precisely() -> None:
    sealed = seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE)
    with pytest.raises(SealedError) as info:
        open_sealed(CYD, sealed, ANN.public(), table=TABLE, link="ann [link]")
    err = info.value
    assert (err.reason, err.sender) == (Reason.WRONG_RECIPIENT, "ann [link]")
    assert f"sealed to [{BOB.fingerprint}], not to cyd" in err.detail


def test_readdressed_payload_does_not_decrypt() -> None:
    # Ann seals to Bob, then relabels it as meant for Cyd: the tag binds the recipient.
    sealed = seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE)
    relabelled = dataclasses.replace(sealed, recipient=CYD.public_key)
    with pytest.raises(SealedError) as info:
        open_sealed(CYD, relabelled, ANN.public(), table=TABLE)
    assert info.value.reason is Reason.UNDECRYPTABLE
    assert info.value.sender == str(ANN.public())


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"purpose": "share:draw:17"}, Reason.UNDECRYPTABLE),  # purpose bound in the AD
        ({"table": "ffffffffffffffff"}, Reason.WRONG_TABLE),
        ({"sender": people(4)[3].public_key}, Reason.WRONG_SENDER),
        ({"ciphertext": b"\x00" * 40}, Reason.UNDECRYPTABLE),
        ({"epk": bytes(32)}, Reason.UNDECRYPTABLE),  # a low-order point
    ],
)
def test_tampering_is_detected(change: dict[str, Any], reason: Reason) -> None:
    sealed = dataclasses.replace(seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE), **change)
    with pytest.raises(SealedError) as info:
        open_sealed(BOB, sealed, ANN.public(), table=TABLE)
    assert info.value.reason is reason


def test_expected_purpose_and_impersonated_sender() -> None:
    sealed = seal(ANN, BOB.public(), TABLE, "share:deal:17", SHARE)
    with pytest.raises(SealedError) as info:
        open_sealed(BOB, sealed, ANN.public(), table=TABLE, purpose="share:deal:18")
    assert info.value.reason is Reason.WRONG_TABLE
    # Cyd seals in Ann's name: the static-static DH part fails.
    fake = dataclasses.replace(seal(CYD, BOB.public(), TABLE, "p", SHARE), sender=ANN.public_key)
    with pytest.raises(SealedError) as info:
        open_sealed(BOB, fake, ANN.public(), table=TABLE)
    assert info.value.reason is Reason.UNDECRYPTABLE


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        ({"sender": "00"}, "lacks field"),
        (
            {
                **dict.fromkeys(["sender", "recipient", "epk"], "00" * 32),
                "tbl": TABLE,
                "purpose": "BAD",
                "ct": "00" * 20,
            },
            "bad table or purpose",
        ),
        (
            {
                **dict.fromkeys(["sender", "recipient", "epk"], "00" * 32),
                "tbl": TABLE,
                "purpose": "p",
                "ct": "00" * 4,
            },
            "ciphertext of 4 bytes",
        ),
        (
            {
                **dict.fromkeys(["sender", "recipient"], "00" * 32),
                "epk": "zz",
                "tbl": TABLE,
                "purpose": "p",
                "ct": "00" * 20,
            },
            "epk",
        ),
    ],
)
def test_malformed_dict_form(data: dict[str, object], detail: str) -> None:
    with pytest.raises(SealedError) as info:
        SealedPayload.from_dict(data, "eve")
    assert (info.value.reason, info.value.sender) == (Reason.MALFORMED, "eve")
    assert detail in info.value.detail


def test_local_misuse() -> None:
    with pytest.raises(LocalProtocolError):
        seal(ANN, BOB.public(), TABLE, "Bad Purpose", SHARE)
    with pytest.raises(LocalProtocolError):
        seal(ANN, BOB.public(), TABLE, "p", bytes(70_000))
