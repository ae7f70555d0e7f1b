"""A halt that leaves no evidence line in the record file is still said to be a cheat (the LAN
trial of 2026-12-08, left over): a bad proof of shuffle halts the table naming its prover, but
the record file holds no ``cheat`` or ``equivocation`` line, so ``lancards history`` read
``finished (lancards audit tells the result)`` and ``lancards resume`` said only that it was
finished (a headless seat's folder was not even marked finished: resume reopened it). The
halting peer now writes ``halted.json`` (the cheater's key, the halt's kind) before the
``finished`` marker, for every kind of halt; history and resume read it, and say the cheat in
the table's words (``detail``: here none beyond the kind, ``ann's shuffle proof does not
hold``); a file written before ``detail`` existed says the cheater alone.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from lancards.cli import i18n
from lancards.cli.halted_table import HALTED
from lancards.cli.history import read_game, result_words
from lancards.cli.lobby.started_table import write_records
from lancards.cli.main import main
from lancards.cli.play import stopped_words
from lancards.cli.record_tools import replay_end
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.audit import audit_lines
from tests.p2p.test_core_pipeline import forge_proof, table_of


@pytest.fixture
def halted_folder(tmp_path, monkeypatch):
    """Seat 1 of 3 signs a bad proof of shuffle; seat 0 halts on it, and writes its table
    folder as a headless seat does (``write_records``)."""
    cores, net = table_of(3, seed="bad-history")
    forge_proof(cores[1])
    net.start()
    net.run()
    honest = cores[0]
    assert (honest.halt_kind, list(honest.cheaters)) == ("proof", [1])
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    folder = tmp_path / "tables" / honest.table_id
    folder.mkdir(parents=True)
    (folder / "table.json").write_text(json.dumps({
        "statement": honest.table.statement, "me": honest.me.public_key.hex(),
        "rule_set": "eights"}))
    (folder / "journal.jsonl").write_bytes(b"")
    write_records(SimpleNamespace(core=honest, store=TableStore(folder)), None)
    names = [p.nick for p in honest.players]
    return folder, names[1], honest


def test_the_record_holds_no_evidence_line_but_the_folder_says_who(halted_folder):
    folder, _cheater, honest = halted_folder
    record = (folder / "record.jsonl").read_bytes()
    assert b'"kind":"cheat"' not in record and b'"kind":"equivocation"' not in record
    assert (folder / "finished").exists()
    assert json.loads((folder / HALTED).read_text()) == {
        "seat": 1, "key": honest.players[1].public_key.hex(), "kind": "proof", "detail": {}}
    assert not (folder / (HALTED + ".tmp")).exists()


def old_halted(folder):
    """``folder``'s ``halted.json`` as written before its ``detail`` (seat, key and kind)."""
    halted = json.loads((folder / HALTED).read_text())
    del halted["detail"]
    (folder / HALTED).write_text(json.dumps(halted))


def test_history_and_resume_say_the_table_stopped_on_a_cheat(halted_folder, capsys):
    folder, cheater, _honest = halted_folder
    game = read_game(folder)
    assert (game.status, game.cheater) == ("finished", 1)
    said = f"stopped: {cheater}'s shuffle proof does not hold"  # as the table said it
    assert result_words(game) == said
    assert stopped_words(folder) == said
    capsys.readouterr()
    assert main(["resume", "--autoplay", folder.name]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        f"lancards resume: error: table {folder.name}: {said}; nothing to resume"
    i18n.set_language("de")
    try:
        assert result_words(read_game(folder)) == \
            f"angehalten: der Mischbeweis von {cheater} stimmt nicht"
    finally:
        i18n.set_language("en")
    old_halted(folder)  # a halted.json written before its detail: the cheater alone
    assert result_words(read_game(folder)) == \
        f"stopped: {cheater} was caught cheating (lancards audit shows how)"
    (folder / HALTED).unlink()  # a folder written before halted.json: as before
    assert result_words(read_game(folder)) == "finished (lancards audit tells the result)"



def test_replay_ends_naming_the_cheater_the_folder_names(halted_folder):
    """The re-check trial of 2026-12-09: ``lancards replay`` of a halted table ended ``the game
    is not finished`` where history and resume said who was caught. A record with no ``cheat``
    line (its lines before the bad proof here) is said by its folder's ``halted.json``."""
    folder, cheater, honest = halted_folder
    lines = (folder / "record.jsonl").read_bytes().split(b"\n")[:8]
    report = audit_lines(lines)
    assert (report.ok, report.outcome, report.cheats) == (True, None, [])
    keys = [p.public_key.hex() for p in honest.players]
    names = [p.nick for p in honest.players]
    assert replay_end(report, folder, keys, names) == \
        f"stopped: {cheater}'s shuffle proof does not hold"  # as history says it
    i18n.set_language("de")
    try:
        assert replay_end(report, folder, keys, names) == \
            f"angehalten: der Mischbeweis von {cheater} stimmt nicht"
    finally:
        i18n.set_language("en")
    old_halted(folder)
    assert replay_end(report, folder, keys, names) == \
        f"stopped: {cheater} was caught cheating (lancards audit shows how)"
    (folder / HALTED).unlink()  # nothing names the cheater: as before
    assert replay_end(report, folder, keys, names) == "the game is not finished"


def test_replay_of_a_table_halted_on_a_bad_proof_plays_up_to_it_and_names_the_prover(
        halted_folder, capsys):
    """``lancards replay`` of the whole record refused it (``the record does not verify: ...
    proof of shuffle by seat 1 in epoch 1 rejected``) where history, resume and audit say the
    table stopped and why: the bad proof is an ordinary entry line (taken before its check).
    The replay now plays the entries before it and ends as a cheat-halted table's does, even
    without the folder's ``halted.json`` (the signed entry names its author)."""
    folder, cheater, honest = halted_folder
    path = folder / "record.jsonl"
    (folder / HALTED).unlink()
    seats = ", ".join(str(p) for p in honest.table.seats)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"8s Rule!: {seats}",
        "             cyd shuffles and proves the shuffle",
        f"stopped: {cheater} was caught cheating (lancards audit shows how)"]
    assert cheater == "ann"
    i18n.set_language("de")
    try:
        assert main(["--lang", "de", "replay", str(path)]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == \
            f"angehalten: {cheater} wurde beim Betrug erwischt (lancards audit zeigt, wie)"
    finally:
        i18n.set_language("en")
    # a changed byte in the bad entry's signature: no longer the author's entry, still refused
    lines = path.read_bytes().split(b"\n")
    bad = lines[8]
    at = bad.index(b'"sig":"') + 7
    lines[8] = bad[:at] + (b"0" if bad[at:at + 1] != b"0" else b"1") + bad[at + 1:]
    path.write_bytes(b"\n".join(lines))
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "lancards replay: error: the record does not verify: record file line 9 (entry 8): "
        "rejected message from record file (entry 8): bad-signature: signature by "
        f"{honest.table.seats[1]} (seat 2) does not verify")


def test_audit_of_a_table_halted_on_a_bad_proof_names_the_prover_as_unfinished(
        halted_folder, capsys):
    """``lancards audit`` of an honest seat's record closed after a halt on a bad proof of
    shuffle said ``REJECTED: ... proof of shuffle by seat 1 in epoch 1 rejected: ...`` (exit 1,
    the cheater only inside the peer layer's sentence and counted from 0; the LAN trial with a
    seated attacker, h1): the record is the table's, and its closing line binds the bad entry.
    Now ``UNFINISHED`` (exit 3) with the cheat in words; a changed closing line is still
    rejected."""
    folder, cheater, honest = halted_folder
    path = folder / "record.jsonl"
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    bad = 8  # the prover's entry (line 9), then cyd's shuffle taken unchecked, the closing line
    assert [json.loads(line)["kind"] for line in lines[bad:]] == ["entry", "entry", "close"]
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines() == [
        "UNFINISHED: 8s Rule!, verified, no move played; the table halted on a cheat",
        f"cheat caught at entry {bad}: {cheater}'s shuffle proof does not hold"]
    report = audit_lines(lines)
    assert (report.status, report.closed_by, [c["seat"] for c in report.cheats]) == (
        "unfinished", str(honest.table.seats[0]) + " (seat 1)", [1])
    closing = json.loads(lines[-1])
    closing["entries"] -= 1  # a closing line that does not bind the bad entry
    forged = [*lines[:-1], json.dumps(closing, separators=(",", ":"), sort_keys=True).encode()]
    assert audit_lines(forged).status == "rejected"
    assert audit_lines(lines[:-1]).status == "rejected"  # no closing line: as before
