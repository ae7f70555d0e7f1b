"""The identity file's repair of a saved nickname ``You`` (cli/identity.py ``kept_identity``)
under kill -9, and identity files that are damaged: the person keeps their key whatever happens
(a lost key loses every seat it holds). The repair is killed just before, halfway through (its
temporary file torn) and just after its write (``LANCARDS_TEST_CRASH_AT=identity-WHEN:1``,
p2p/net/crash_hook.py), twice in a row where the file still holds ``You``; the next ``lancards
play`` sits down with the same key under the login name. A damaged file is refused in one line
and left as it is: no new key is made over it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.protocol.identity import Identity

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
PLAY = ["play", "--autoplay", "--game", "eights", "--seed", "5", "--bots", "2", "--bot-delay",
        "0"]
KEPT = Identity(b"\x05" * 32, "You")
"""The identity ``lancards play`` saved under ``You`` before the new-user trial of 2026-12-07."""


def _home(tmp_path: Path, text: str | None = None) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "identity.json"
    path.write_text(KEPT.to_json() if text is None else text)
    path.chmod(0o600)
    return home


def _run(home: Path, crash: str = "", lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update({"LANG": "C.UTF-8", "LOGNAME": "ann", "LANCARDS_HOME": str(home),
                CRASH_ENV: crash})
    return subprocess.run([sys.executable, "-m", "lancards", "--lang", lang, *PLAY], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)


def _kept(home: Path) -> tuple[str, str]:
    """The identity file's seed and nickname."""
    data = json.loads((home / "identity.json").read_text())
    return data["ed25519_seed"], data["nick"]


@pytest.mark.parametrize("when", ["before", "torn", "after"])
def test_the_repair_killed_twice_keeps_the_key(tmp_path: Path, when: str) -> None:
    home = _home(tmp_path)
    seed = KEPT.to_json().split('"ed25519_seed": "')[1][:64]
    for _ in range(1 if when == "after" else 2):  # repaired once, nothing is left to repair
        done = _run(home, f"identity-{when}:1")
        assert (done.returncode, done.stdout, done.stderr) == (-signal.SIGKILL, "", "")
        assert _kept(home) == (seed, "ann" if when == "after" else "You")
        assert (home / "identity.json.tmp").exists() == (when == "torn")
        assert not (home / "tables").exists()  # killed before any table was made
    # the next play repairs the nickname (if still to do) and sits down with the same key;
    # killed at its first durable write (the table's start)
    done = _run(home, "after:1")
    assert (done.returncode, done.stderr) == (-signal.SIGKILL, "")
    assert _kept(home) == (seed, "ann")
    assert not (home / "identity.json.tmp").exists()
    assert (home / "identity.json").stat().st_mode & 0o777 == 0o600
    [table] = home.glob("tables/*/table.json")
    assert KEPT.public_key.hex() in table.read_text()  # the seat is the kept key's


TAIL_EN = (" (move it away and lancards makes a new identity, with a new key: tables saved under "
           "the old key cannot be resumed)")
TAIL_DE = (" (schiebe sie beiseite, dann legt lancards eine neue Identität mit einem neuen "
           "Schlüssel an: Tische, die unter dem alten Schlüssel gespeichert sind, lassen sich "
           "nicht fortsetzen)")
DAMAGED = [
    ("empty", "", "lancards play: error: identity file {path} is not valid: it is not JSON"
     + TAIL_EN, "lancards play: Fehler: die Identitätsdatei {path} ist ungültig: sie ist kein JSON"
     + TAIL_DE),
    ("torn", KEPT.to_json()[:40], "lancards play: error: identity file {path} is not valid: it is "
     "not JSON" + TAIL_EN,
     "lancards play: Fehler: die Identitätsdatei {path} ist ungültig: sie ist kein JSON"
     + TAIL_DE),
    ("bad seed", KEPT.to_json().replace("05" * 32, "05"),
     "lancards play: error: identity file {path} is not valid: its seed (ed25519_seed) is not 32 "
     "bytes in hexadecimal" + TAIL_EN,
     "lancards play: Fehler: die Identitätsdatei {path} ist ungültig: ihr Schlüssel "
     "(ed25519_seed) ist nicht 32 Bytes lang (hexadezimal)" + TAIL_DE),
]
"""A damaged identity file holding ``You``: (its kind, its text, what ``lancards play`` says in
English, then in German)."""


@pytest.mark.parametrize(("kind", "text", "english", "german"), [  # CI budget: 2 s each;
    pytest.param(*case, marks=() if case[0] == "empty" else pytest.mark.long)  # LANCARDS_LONG=1
    for case in DAMAGED], ids=[case[0] for case in DAMAGED])
def test_a_damaged_identity_file_is_refused_and_left_as_it_is(
        tmp_path: Path, kind: str, text: str, english: str, german: str) -> None:
    home = _home(tmp_path, text)
    path = home / "identity.json"
    for lang, said in (("en", english), ("de", german)):
        done = _run(home, lang=lang)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines() == [said.format(path=path)]
        assert path.read_text() == text  # no new key over the old one
        assert sorted(p.name for p in home.iterdir()) == ["identity.json"]


def test_an_identity_file_that_is_a_directory_is_refused_and_left(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "identity.json").mkdir(parents=True)
    done = _run(home)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"lancards play: error: the identity file cannot be read: Is a directory: cannot read "
        f"{home / 'identity.json'}; try again"]
    assert (home / "identity.json").is_dir() and sorted(p.name for p in home.iterdir()) == [
        "identity.json"]


def test_a_left_over_temporary_file_that_cannot_be_replaced_keeps_the_key(
        tmp_path: Path) -> None:
    """A directory where the repair writes its temporary file: the repair is skipped (the
    login name used for this command), the file keeps ``You`` and the key."""
    home = _home(tmp_path)
    (home / "identity.json.tmp").mkdir()
    done = _run(home, "after:1")
    assert (done.returncode, done.stderr) == (-signal.SIGKILL, "")
    assert (home / "identity.json").read_text() == KEPT.to_json()
    [table] = home.glob("tables/*/table.json")
    assert KEPT.public_key.hex() in table.read_text()
