"""The last English texts in German (issue 28): an identity file's fault on the command line, a
refused checkpoint's reason on ``lancards node``'s ``restored`` line, and the cheat notices that
do not halt the table (a bad private share, a bad key escrow part). Each in German with its
exact words, and English unchanged (the peer layer's own sentence)."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.peer_errors import CHECKPOINT_WORDS, checkpoint_words, error_words
from lancards.cli.peer_words import cheat_notice_words, notice_kind
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.net.identity_file import (
    IDENTITY_PROBLEMS,
    load_identity,
    load_or_create_identity,
)
from lancards.p2p.protocol.checkpoint import CheckpointRefused, load, resume_point
from lancards.p2p.protocol.core import Notice
from lancards.p2p.protocol.errors import IdentityError, Refusal
from tests.p2p.core_harness import make_cores


def _fault(call: Any) -> IdentityError:
    with pytest.raises(IdentityError) as caught:
        call()
    return caught.value


def _file(path: Path, text: str) -> Path:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, text.encode())
    os.close(fd)
    return path


SEED = "00" * 32

BAD_FILES = [
    ("not json", "not-json", "sie ist kein JSON", "it is not JSON"),
    ('{"format": "other", "v": 1}', "not-v1", "sie ist keine lancards-Identität der Version 1",
     "it is not a version 1 lancards identity"),
    ('{"format": "lancards-identity", "v": 1, "ed25519_seed": "00", "nick": "a"}', "seed",
     "ihr Schlüssel (ed25519_seed) ist nicht 32 Bytes lang (hexadezimal)",
     "its seed (ed25519_seed) is not 32 bytes in hexadecimal"),
    ('{"format": "lancards-identity", "v": 1, "ed25519_seed": "' + SEED + '", "nick": ""}',
     "nick", "ihr Spitzname fehlt oder ist ungültig", "its nickname is missing or not valid"),
]
"""(the file, its problem code, the German words of the problem, the English words)."""


@pytest.mark.parametrize(("text", "problem", "words", "english"), BAD_FILES,
                         ids=[case[1] for case in BAD_FILES])
def test_an_identity_file_that_is_not_valid_in_german_and_in_english(german, tmp_path, text,
                                                                     problem, words, english):
    path = _file(tmp_path / "identity.json", text)
    exc = _fault(lambda: load_identity(path))
    assert (exc.code, exc.params["problem"]) == ("identity-invalid", problem)
    assert error_words(exc) == (
        f"die Identitätsdatei {path} ist ungültig: {words} (schiebe sie beiseite, dann legt "
        "lancards eine neue Identität mit einem neuen Schlüssel an: Tische, die unter dem alten "
        "Schlüssel gespeichert sind, lassen sich nicht fortsetzen)")
    i18n.set_language("en")
    assert error_words(exc) == (  # words, not the parser's message (that is --verbose's)
        f"identity file {path} is not valid: {english} (move it away and lancards makes a new "
        "identity, with a new key: tables saved under the old key cannot be resumed)")


def test_every_identity_problem_has_words():
    from lancards.cli.peer_errors import IDENTITY_PROBLEM_WORDS

    assert set(IDENTITY_PROBLEM_WORDS) == set(IDENTITY_PROBLEMS)


def test_an_identity_file_others_may_read_and_one_missing_in_german(german, tmp_path):
    path = tmp_path / "identity.json"
    load_or_create_identity(path, nick="ann")
    os.chmod(path, 0o644)
    exc = _fault(lambda: load_identity(path))
    assert error_words(exc) == (
        f"die Identitätsdatei {path} hat die Rechte 0644; andere Benutzer können sie lesen "
        f"(beheben mit: chmod 600 {path})")
    missing = _fault(lambda: load_identity(tmp_path / "gone.json"))
    assert error_words(missing) == (
        "die Identitätsdatei kann nicht gelesen werden: Datei oder Ordner fehlt (gelöscht oder "
        f"ausgehängt?): {tmp_path / 'gone.json'} ist nicht lesbar; stelle es wieder her und "
        "versuche es noch einmal")
    i18n.set_language("en")
    assert error_words(exc) == str(exc) == (
        f"identity file {path} has mode 0644; other users may read it (fix with: chmod 600 "
        f"{path})")
    assert error_words(missing) == str(missing) == (
        "the identity file cannot be read: no such file or folder (deleted or unmounted?): "
        f"cannot read {tmp_path / 'gone.json'}; restore it and try again")


def test_an_identity_file_that_cannot_be_created_on_the_command_line_in_german(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "file").write_text("not a folder")
    home = tmp_path / "file" / "home"
    monkeypatch.setenv("LANCARDS_HOME", str(home))
    try:
        assert main(["play", "--autoplay", "--lang", "de"]) == 2
    finally:
        i18n.set_language("en")
    captured = capsys.readouterr()
    assert captured.err == (
        "lancards play: Fehler: die Identitätsdatei kann nicht angelegt werden: wo ein Ordner "
        f"sein sollte, steht eine Datei: {home / 'identity.json'} kann nicht angelegt werden; "
        "räume sie weg oder setze LANCARDS_HOME auf einen beschreibbaren Ordner\n")
    assert captured.out == ""


CHECKPOINTS = [
    ("checkpoint-format", {}, "not a checkpoint of this format",
     "kein Prüfpunkt dieses Formats"),
    ("checkpoint-mac", {}, "its MAC does not check (damaged, or not this seat's)",
     "sein MAC stimmt nicht (beschädigt oder nicht von diesem Platz)"),
    ("checkpoint-unreadable", {"error": "EOFError"}, "it cannot be read back (EOFError)",
     "er lässt sich nicht zurücklesen (EOFError)"),
    ("checkpoint-lines", {"covered": 40, "lines": 39}, "it covers 40 lines of a journal of 39",
     "er umfasst 40 Zeilen eines Journals von 39"),
    ("checkpoint-entries", {"entries": 12, "journal": 13},
     "it holds 12 entries, the journal 13 there", "er enthält 12 Einträge, das Journal dort 13"),
    ("checkpoint-entry", {"entry": 11}, "its entry 11 is not the journal's",
     "sein Eintrag 11 ist nicht der des Journals"),
    ("checkpoint-state", {"entry": 11}, "its state does not hash to entry 11's state hash",
     "sein Zustand passt nicht zum Zustands-Hash von Eintrag 11"),
]
"""(code, values, the peer layer's sentence, the German words) of every refusal."""


@pytest.mark.parametrize(("code", "params", "english", "words"), CHECKPOINTS,
                         ids=[case[0] for case in CHECKPOINTS])
def test_a_refused_checkpoint_in_german_and_in_english(german, code, params, english, words):
    refused = Refusal(english, code, **params)
    assert checkpoint_words(refused) == words
    i18n.set_language("en")
    assert checkpoint_words(refused) == english == CHECKPOINT_WORDS[code].format(**params)


def test_every_checkpoint_refusal_has_words():
    source = (Path(__file__).resolve().parents[2] / "p2p/protocol/checkpoint.py").read_text()
    raised = {code for code in CHECKPOINT_WORDS if f'"{code}"' in source}
    assert raised == set(CHECKPOINT_WORDS) == {case[0] for case in CHECKPOINTS}
    assert source.count('with_code(') == source.count("raise CheckpointRefused(")


def test_the_core_keeps_the_refusals_code_for_the_restored_line(german):
    with pytest.raises(CheckpointRefused) as caught:
        load(None, b"junk", [])
    assert caught.value.code == "checkpoint-format"
    core = SimpleNamespace(checkpoint_refused=None)
    assert resume_point(core, b"junk", [("entry", {})]) == 0
    assert core.checkpoint_refused == "not a checkpoint of this format"
    assert i18n._(" (checkpoint refused: {reason})").format(
        reason=checkpoint_words(core.checkpoint_refused)) == \
        " (Prüfpunkt verworfen: kein Prüfpunkt dieses Formats)"


def test_a_bad_private_share_is_a_cheat_notice_in_german_and_in_english(german):
    """Seat 1 sends seat 0 (or 2) private shares whose values are swapped: the recipient names
    seat 1 (the table is not halted); the notice's code gives its German words."""
    cores, net = make_cores(3, "level8", seed="badshare")
    net.bots.clear()
    honest = cores[1].deck.make_shares

    def swapped(recipient: int, *rest: Any) -> Any:
        message = honest(recipient, *rest)
        if recipient != PUBLIC and message is not None and len(message["shares"]) >= 2:
            first, second = message["shares"][:2]
            first["share"], second["share"] = second["share"], first["share"]
        return message

    cores[1].deck.make_shares = swapped  # type: ignore[method-assign]
    net.start()

    def cheats() -> list[tuple[Any, Notice]]:
        return [(core, n) for core in cores for n in net.notices[core.me.public_key]
                if n.kind == "cheat"]

    while net.queue and not cheats():
        net.run(limit=net.delivered + 1)
    (core, notice), = cheats()
    names = [p.nick for p in core.players]
    assert (notice.seat, notice.code, core.halted) == (1, "bad-private-share", None)
    assert cheat_notice_words(notice_kind(core, notice), notice.seat, names, notice.text) == \
        f"{names[1]} hat einen falschen privaten Anteil geschickt"
    i18n.set_language("en")
    assert notice.text.startswith(f"{core.name(1)} sent a bad private share: decryption share "
                                  "proof by seat 1")
    assert cheat_notice_words(notice_kind(core, notice), notice.seat, names, notice.text) == \
        f"{names[1]} sent a bad private share"  # the detail counts seats from 0: --verbose


def test_a_bad_key_escrow_part_is_a_cheat_notice_in_german(german):
    core = SimpleNamespace(halted=None, halt_kind="")
    notice = Notice("cheat", "bob [X] dealt this seat a bad key escrow part (it cannot be "
                    "rescued): the sealed part does not match its commitment", 1,
                    code="bad-escrow-part")
    assert notice_kind(core, notice) == "bad-escrow-part"
    assert cheat_notice_words("bad-escrow-part", 1, ["ann", "bob"], notice.text) == (
        "bob hat diesem Platz einen falschen Teil der Schlüsselhinterlegung gegeben (er kann "
        "nicht gerettet werden)")
    i18n.set_language("en")
    # in English too, without the peer layer's detail (h1's trial read "key escrow by seat 3
    # in epoch 0 rejected: the sealed part does not match its commitment", seat 3 being the
    # fourth seat of the panel)
    assert cheat_notice_words("bad-escrow-part", 1, ["ann", "bob"], notice.text) == \
        "bob dealt this seat a bad key escrow part (it cannot be rescued)"


def test_a_refused_answer_to_a_start_fetch_in_german(german):
    """``started_table``'s ``ignored:`` line: the refused answer (``fetch_started`` gives the
    error itself) in words."""
    from lancards.p2p.protocol.errors import unexpected

    refused = unexpected("bob [X]", AttributeError("no such thing"))
    assert i18n._("ignored: {reason}").format(reason=error_words(refused)) == \
        "übergangen: Nachricht von bob [X] abgelehnt: ihre Verarbeitung schlug unerwartet fehl: " \
        "ein Fehler dieses Programms, nicht des Absenders; diese Nachricht wird übergangen, die " \
        "anderen werden angenommen (Einzelheiten: --verbose)"
    i18n.set_language("en")  # words in English too: the exception is for --verbose only
    assert i18n._("ignored: {reason}").format(reason=error_words(refused)) == \
        "ignored: message from bob [X] refused: handling it failed unexpectedly: a fault of " \
        "this program, not of the sender; this message is left out, the others are taken (the " \
        "details: --verbose)"


def test_the_default_nickname_is_shown_in_german_and_another_seat_called_you_is_not(german):
    """The person's default nickname ``You`` (``--name``'s default) reads "Du" on every screen
    of a German table (players panel, results, trick lines), while the record keeps "You"; a
    nickname another player chose is never translated."""
    from lancards.cli.local_session import LocalSession
    from lancards.cli.tui.controller import shown_names

    assert shown_names(("You", "Ada", "You"), 0) == ("Du", "Ada", "You")
    assert shown_names(("Tess", "Ada"), 0) == ("Tess", "Ada")
    session = LocalSession("eights", seed=3, bot_delay=60)
    assert session.names[0] == "You"
    assert session.snapshot().names == ("Du", "Ada", "Bram", "Cleo")
    i18n.set_language("en")
    assert LocalSession("eights", seed=3, bot_delay=60).snapshot().names[0] == "You"


def test_the_default_nickname_is_du_in_the_log_too(german):
    """The trial of 2026-12-05: the table said "Du" but the log said ``── Runde 1 · Geber You
    ──`` and the chat ``You: Hallo``. Another seat nicknamed "You" keeps its name."""
    from lancards.cli.local_session import LocalSession
    from lancards.cli.tui.eights_screen import EightsController
    from lancards.cli.tui.narrate import Words, round_marker

    words = Words(("You", "Ada", "You"), 0)
    assert (words.name(0), words.name(2)) == ("Du", "You")
    assert round_marker(1, words.name(0), True) == "── Runde 1 · du gibst ──"
    assert round_marker(1, words.name(2)) == "── Runde 1 · You gibt ──"
    for seed in range(40):  # a deal where the person deals round 1
        session = LocalSession("eights", seed=seed, bot_delay=60)
        while session.state.round < 1 and session.step():
            pass
        if session.state.dealer == 0:
            break
    assert session.state.dealer == 0
    assert "── Runde 1 · du gibst ──" in [line.text for line in session.snapshot().log]
    title = "".join(t for _s, t in EightsController(session).title(session.snapshot()))
    assert title.startswith(" 8s Rule! · Runde 1 von 8 · du gibst ")  # it read "Geber Du"
    session.send_chat("Hallo zusammen")
    assert session.snapshot().log[-1].text == "Du: Hallo zusammen"
    i18n.set_language("en")
    session.send_chat("hi")
    assert session.snapshot().log[-1].text == "You: hi"
