"""A signed move the rules refuse halts the table, and everything after says so (the LAN
trial of 2026-12-08, finding 1): the screens name the move and why, the journal and the record
file keep the signed entry as evidence (a resumed peer halts again; the closing line binds it),
``lancards audit`` names the cheater and the move, ``lancards history`` says the table stopped
on a cheat and ``lancards resume`` does not reopen it.

Level 8 Master, 3 seats, in memory (:mod:`tests.p2p.core_harness`): cyd (seat 0) must draw
first and signs "discard R5" instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.peer_words import halt_words
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import GameCore, Notice, Persist
from tests.p2p.core_harness import make_cores
from tests.p2p.test_hostile_situations import envelope, forge

NAMES = ["cyd", "ann", "ben"]
WORDS = "cyd signed a move the rules do not allow: discard R5 (cyd must draw first)"
WORTE = "cyd hat einen Zug signiert, den die Regeln nicht erlauben: R5 ablegen (cyd muss zuerst " \
    "ziehen)"


@pytest.fixture
def german_too():
    """Switches the players' language to German when called; English again after the test."""
    yield lambda: i18n.set_language("de")
    i18n.set_language("en")


def table_folder(core: Any, home: Path, rule_set: str) -> Path:
    """``core``'s table folder under ``home`` as a seat's program leaves it (``table.json``
    and an empty journal), for history and resume to read."""
    folder = home / "tables" / core.table_id
    folder.mkdir(parents=True)
    (folder / "table.json").write_text(json.dumps({
        "statement": core.table.statement, "me": core.me.public_key.hex(),
        "rule_set": rule_set}))
    (folder / "journal.jsonl").write_bytes(b"")
    return folder


def quiet_table() -> tuple[list[Any], Any]:
    """Three Master cores at the first move, with no bots (the test moves), seed "cheat"."""
    cores, net = make_cores(3, "level8-master", seed="cheat")
    for core in cores:
        net.bots.pop(core)
    net.start()
    net.run()
    return cores, net


@pytest.fixture
def halted():
    """Seat 0 (cyd) is to draw; it signs a discard of its R5 for the next place instead, and
    ann (seat 1) receives it."""
    cores, net = quiet_table()
    cyd, ann = cores[0], cores[1]
    assert cyd.expected()[0] == 0 and [str(a) for a in cyd.legal_actions()] == [
        "0: draw", "0: draw-discard 2"]
    record = ann.record
    bad = forge(cyd, {"a": "0: discard R5#114", "open": [], "t": "action"}, len(record),
                record.head, "00" * 32)
    out = ann.receive(cyd.me.public_key,
                      envelope(cyd, "record.entry", {"entry": bad.to_dict()}))
    return cores, net, ann, bad, out


def test_the_halt_names_the_move_and_why_in_words(halted):
    _cores, _net, ann, _bad, out = halted
    assert ann.halted and ann.halt_kind == "illegal" and ann.cheaters.keys() == {0}
    assert halt_words(ann, NAMES) == WORDS
    [cheat] = [x for x in out if isinstance(x, Notice) and x.kind == "cheat"]
    assert cheat.seat == 0


def test_a_move_signed_for_another_seat_is_said_in_words(german_too):
    """cyd (seat 0, to draw) signs ann's draw: the halt line says whose move it is written as,
    in words (the refusal's code ``other-seat``), in English and German."""
    cores, _net = quiet_table()
    cyd, ann = cores[0], cores[1]
    bad = forge(cyd, {"a": "1: draw", "open": [], "t": "action"}, len(ann.record),
                ann.record.head, "00" * 32)
    ann.receive(cyd.me.public_key, envelope(cyd, "record.entry", {"entry": bad.to_dict()}))
    assert (ann.halt_kind, ann.halt_cause.code) == ("illegal", "other-seat")
    assert halt_words(ann, NAMES) == "cyd signed a move the rules do not " \
        "allow: draw from the draw pile (it is written as ann's move)"
    german_too()
    assert halt_words(ann, NAMES) == "cyd hat einen Zug signiert, den " \
        "die Regeln nicht erlauben: vom Nachziehstapel ziehen (er ist als Zug von ann " \
        "geschrieben)"


def test_the_signed_move_is_journaled_and_a_resumed_peer_halts_again(halted):
    _cores, net, ann, bad, out = halted
    assert [(x.kind, x.line) for x in out if isinstance(x, Persist)] == [
        ("cheat-entry", {"entry": bad.to_dict()})]
    lines = net.persisted[ann.me.public_key] + [
        (x.kind, x.line) for x in out if isinstance(x, Persist)]
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    reborn = GameCore(ann.me, ann.table, lambda n: bytes(n), secret_key=secret)
    reborn.restore(lines)
    assert reborn.halted == ann.halted and reborn.halt_kind == "illegal"
    assert halt_words(reborn, NAMES) == WORDS


def test_the_record_binds_the_evidence_and_audit_names_the_cheater_and_the_move(
        halted, tmp_path, capsys):
    _cores, _net, ann, bad, _out = halted
    path = tmp_path / "r.jsonl"
    write_record(ann.record, path)
    data = path.read_bytes().split(b"\n")
    assert data[-3] == json.dumps({"entry": bad.to_dict(), "kind": "cheat"}, sort_keys=True,
                                  separators=(",", ":")).encode()
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines() == [
        "UNFINISHED: Level 8 Master, verified, no move played; the table halted on "
        "a cheat",
        "cheat caught at entry 13: " + WORDS]  # counted from 1: the 13th, after 12 verified
    assert main(["audit", "--json", str(path)]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["cheats"] == [{"seat": 0, "entry": 12, "reason": "illegal", "detail":
                                 "seat 0: illegal '0: discard R5#114': it is seat 0's move "
                                 "(draw) (ruling L8-3)"}]
    removed = tmp_path / "removed.jsonl"  # the closing line lists the evidence line's hash
    removed.write_bytes(b"\n".join(data[:-3] + data[-2:]))
    assert main(["audit", str(removed)]) == 1
    doubled = tmp_path / "doubled.jsonl"
    doubled.write_bytes(b"\n".join(data[:-2] + data[-3:]))
    assert main(["audit", str(doubled)]) == 1



def test_replay_ends_saying_the_table_stopped_on_the_cheat(halted, tmp_path, capsys):
    """The re-check trial of 2026-12-09: ``lancards replay`` ended ``the game is not finished``
    where ``history`` and ``resume`` said who was caught; it now says what they and the table
    say (the record's ``cheat`` line: cyd, the move and why; the file outside any table
    folder)."""
    _cores, _net, ann, _bad, _out = halted
    path = tmp_path / "r.jsonl"
    write_record(ann.record, path)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "stopped: " + WORDS
    try:
        assert main(["--lang", "de", "replay", str(path)]) == 0
    finally:
        i18n.set_language("en")
    assert capsys.readouterr().out.splitlines()[-1] == "angehalten: " + WORTE

def test_a_cheat_line_holding_a_move_the_rules_allow_is_rejected(halted, tmp_path, capsys):
    """An honest seat's entry put in a cheat line (after the entries before it) accuses
    nobody: the audit replays it there, the rules allow it, the file is rejected."""
    _cores, _net, ann, _bad, _out = halted
    path = tmp_path / "r.jsonl"
    write_record(ann.record, path)
    lines = path.read_bytes().split(b"\n")[:-3]  # header and entries 0..11
    honest = json.loads(lines[-1])["entry"]
    framed = tmp_path / "framed.jsonl"
    framed.write_bytes(b"\n".join([*lines[:-1], json.dumps(
        {"entry": honest, "kind": "cheat"}, sort_keys=True, separators=(",", ":")).encode()])
        + b"\n")
    capsys.readouterr()
    assert main(["audit", str(framed)]) == 1
    author = ann.record.name(bytes.fromhex(honest["author"]))
    assert capsys.readouterr().out == (
        f"REJECTED: record file line 13: rejected message from {author.removesuffix(')')}, "
        "entry 12): "  # "bob [FP] (seat 3, entry 12)": one bracket, the entry seq 11 from 1
        "malformed: the rules allow the cheat line's entry\n")


def test_history_and_resume_say_the_table_stopped_on_a_cheat(halted, tmp_path, monkeypatch,
                                                             capsys):
    _cores, _net, ann, _bad, _out = halted
    folder = table_folder(ann, tmp_path, "level8-master")
    write_record(ann.record, folder / "record.jsonl")
    (folder / "finished").touch()
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    from lancards.cli.history import read_game, result_words

    game = read_game(folder)
    assert (game.status, game.cheater) == ("finished", 0)
    assert result_words(game) == \
        "stopped: cyd was caught cheating (lancards audit shows how)"
    from lancards.cli.play import stopped_words

    assert stopped_words(folder) == result_words(game)
    (folder / "record.jsonl").unlink()  # no evidence: as before
    assert result_words(read_game(folder)) == "finished (lancards audit tells the result)"
    assert stopped_words(folder) is None


def test_history_says_the_move_and_why_as_the_table_did(halted, tmp_path, monkeypatch):
    """``lancards history`` (and ``resume``, ``replay``) said ``stopped: cyd was caught cheating
    (lancards audit shows how)`` where the table and the audit said which move and why: the
    halting seat's ``halted.json`` now keeps what refused it (``detail``), and the history says
    the table's words from it, in the player's language, with no record file at all."""
    from lancards.cli.halted_table import HALTED, save_halt
    from lancards.cli.history import read_game, result_words
    from lancards.cli.play import stopped_words

    _cores, _net, ann, _bad, _out = halted
    folder = table_folder(ann, tmp_path, "level8-master")
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    save_halt(folder, ann)
    (folder / "finished").touch()
    stored = json.loads((folder / HALTED).read_text())
    assert (stored["kind"], stored["detail"]["cause"]) == ("illegal", {
        "code": "not-your-move", "params": {"action": "0: discard R5#114", "seat": 0,
                                            "phase": "draw"}})
    assert result_words(read_game(folder)) == "stopped: " + WORDS
    assert stopped_words(folder) == "stopped: " + WORDS
    i18n.set_language("de")
    try:
        assert result_words(read_game(folder)) == "angehalten: " + WORTE
    finally:
        i18n.set_language("en")
