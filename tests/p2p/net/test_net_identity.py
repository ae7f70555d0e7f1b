"""Identity files: created 0600 on first use, reused, refused when others may read them."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lancards.p2p.net.identity_file import (
    identity_path,
    load_identity,
    load_or_create_identity,
    save_nickname,
)
from lancards.p2p.protocol.errors import IdentityError, LocalProtocolError
from lancards.p2p.protocol.identity import Identity, fingerprint


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_created_with_mode_0600_then_reused(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "identity.json"
    first = load_or_create_identity(path, nick="ann")
    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700
    again = load_or_create_identity(path, nick="ignored")
    assert again.public_key == first.public_key
    assert again.x25519_public == first.x25519_public
    assert again.nick == "ann"


def test_location_explicit_then_env_then_config_dir(tmp_path: Path) -> None:
    explicit = tmp_path / "x.json"
    assert identity_path(explicit, {"LANCARDS_HOME": "/elsewhere"}) == explicit
    assert identity_path(None, {"LANCARDS_HOME": str(tmp_path)}) == tmp_path / "identity.json"
    assert identity_path(None, {}).name == "identity.json"
    made = load_or_create_identity(None, nick="bob", env={"LANCARDS_HOME": str(tmp_path)})
    assert load_identity(tmp_path / "identity.json").public_key == made.public_key


def test_readable_by_others_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "identity.json"
    load_or_create_identity(path, nick="ann")
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError, match=r"mode 0644.*chmod 600"):
        load_identity(path)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("not json", "not valid"),
        ('{"format": "other", "v": 1}', "not a version 1"),
        ('{"format": "lancards-identity", "v": 1, "ed25519_seed": "00", "nick": "a"}', "32 bytes"),
        (
            '{"format": "lancards-identity", "v": 1, "ed25519_seed": "'
            + "00" * 32
            + '", "nick": ""}',
            "nickname",
        ),
    ],
)
def test_bad_file_contents(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "identity.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, text.encode())
    os.close(fd)
    with pytest.raises(IdentityError, match=problem):
        load_identity(path)


def test_fingerprint_and_derived_x25519_are_fixed_by_the_seed() -> None:
    a = Identity(bytes(32), "ann")
    # RFC 8032 section 7.1 test 1 uses another seed; the key of the all-zero seed is fixed:
    assert a.public_key.hex() == "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"
    assert a.fingerprint == fingerprint(a.public_key)
    assert len(a.fingerprint) == 19 and a.fingerprint.count("-") == 3
    assert set(a.fingerprint.replace("-", "")) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    b = Identity(bytes(32), "other nick")
    assert (b.fingerprint, b.x25519_public) == (a.fingerprint, a.x25519_public)
    assert Identity(bytes([1]) * 32, "ann").fingerprint != a.fingerprint


def test_nickname_rules(tmp_path: Path) -> None:
    with pytest.raises(LocalProtocolError, match="longer than 24"):
        Identity.generate("x" * 25)
    with pytest.raises(LocalProtocolError, match="control character"):
        Identity.generate("a\x1bb")
    path = tmp_path / "identity.json"
    ann = load_or_create_identity(path, nick="ann")
    renamed = save_nickname(path, "annie")
    assert (renamed.public_key, renamed.nick, mode(path)) == (ann.public_key, "annie", 0o600)
