"""The nickname kept with the identity: the login name, never ``lancards play``'s ``You`` (the
new-user trial of 2026-12-07: a first ``lancards play --autoplay`` stored ``You`` in a fresh
``identity.json``, and a host/join table later showed that person as ``You`` to everyone, its
log saying ``Bram drew O13 from You's discard pile``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from lancards.cli.identity import player_identity
from lancards.cli.main import build_parser, main
from lancards.cli.play import make_network_session, validate
from lancards.p2p.protocol.errors import IdentityError
from lancards.p2p.protocol.identity import Identity


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh ``LANCARDS_HOME`` on a machine whose login name is ``ann``."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    monkeypatch.setattr("getpass.getuser", lambda: "ann")
    return tmp_path


def _kept(home: Path) -> str:
    return str(json.loads((home / "identity.json").read_text())["nick"])


def _played_as(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Identity:
    """The identity ``lancards play ARGV`` sits down with (the networked table stopped at its
    creation)."""
    from lancards.cli.net_session import NetworkSession

    seen: list[Identity] = []

    async def create(*args: Any, **kwargs: Any) -> None:
        seen.append(args[2])

    monkeypatch.setattr(NetworkSession, "create", create)
    args = build_parser(("play",)).parse_args(["play", *argv])
    validate(args)
    asyncio.run(make_network_session(args))
    return seen[0]


def test_a_first_play_keeps_the_login_name_and_sits_as_you(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    me = _played_as(["--autoplay"], monkeypatch)
    assert me.nick == "You"  # the table's own mark for the person
    assert _kept(home) == "ann"  # was "You"
    assert player_identity().nick == "ann"  # what host and join name the person


def test_play_with_name_sits_under_it_and_keeps_the_login_name(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    me = _played_as(["--autoplay", "--name", "Ann"], monkeypatch)
    assert me.nick == "Ann"
    assert _kept(home) == "ann"
    again = _played_as(["--autoplay"], monkeypatch)
    assert (again.nick, again.public_key) == ("You", me.public_key)  # one key throughout


def test_an_identity_holding_you_is_repaired_on_load(home: Path) -> None:
    stored = Identity(b"\x05" * 32, "You")
    (home / "identity.json").write_text(stored.to_json())
    (home / "identity.json").chmod(0o600)
    me = player_identity()
    assert (me.nick, me.public_key) == ("ann", stored.public_key)
    assert _kept(home) == "ann"  # written back: the file holds the person's name
    assert player_identity("bob").nick == "bob"  # --name at host/join: this table only
    assert _kept(home) == "ann"


def test_a_you_that_cannot_be_written_back_is_still_not_used(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (home / "identity.json").chmod(0o600)

    def refuse(*args: Any) -> Identity:
        raise IdentityError("read-only")

    monkeypatch.setattr("lancards.cli.identity.save_nickname", refuse)
    assert player_identity().nick == "ann"
    assert _kept(home) == "You"


def test_another_kept_nickname_is_left_alone(home: Path) -> None:
    (home / "identity.json").write_text(Identity(b"\x05" * 32, "Youssef").to_json())
    (home / "identity.json").chmod(0o600)
    assert player_identity().nick == "Youssef"
    assert _kept(home) == "Youssef"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "--name NAME your name at this table (default You); your identity keeps its "
           "nickname, the one host and join use"),
    ("de", "--name NAME dein Name an diesem Tisch (Standard You, am Tisch „Du“); deine "
           "Identität behält ihren Spitznamen, den host und join verwenden"),
])
def test_play_help_says_what_name_does(lang: str, words: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from lancards.cli.i18n import set_language

    try:
        with pytest.raises(SystemExit):
            main(["--lang", lang, "play", "--help"])
    finally:
        set_language("en")
    assert words in " ".join(capsys.readouterr().out.split())
