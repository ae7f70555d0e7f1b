"""A table halted on a move signed out of turn is said in ``lancards history`` (and ``resume``,
``replay``) as the table and the audit said it (the LAN trial with a seated attacker: history
read ``stopped: ann was caught cheating (lancards audit shows how)`` while the banner and the
audit said which move and whose turn it was). The halting seat's ``halted.json`` keeps what the
words need (``detail``: the refusal, the signed move); written atomically, a kill -9 leaves no
file, the one there before, or the new one whole.

Level 8 Master, 3 seats, in memory (:func:`tests.p2p.test_hostile_halt.quiet_table`): cyd
(seat 0) is to draw; ann (seat 1) signs "draw" for the next place and ben receives it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.halted_table import HALTED, save_halt
from lancards.cli.history import read_game, result_words
from lancards.cli.main import main
from lancards.cli.play import stopped_words
from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.net.record_file import write_record
from tests.p2p.test_hostile_halt import quiet_table, table_folder
from tests.p2p.test_hostile_out_of_turn_said import GESAGT, SAID
from tests.p2p.test_hostile_situations import envelope, forge

ROOT = Path(__file__).resolve().parents[2]
OLD = "stopped: ann was caught cheating (lancards audit shows how)"


def out_of_turn_core() -> Any:
    """ben (seat 2), halted on ann's (seat 1) signed draw while cyd (seat 0) was to draw."""
    cores, _net = quiet_table()
    _cyd, ann, ben = cores
    bad = forge(ann, {"a": "1: draw", "open": [], "t": "action"}, len(ben.record),
                ben.record.head, "00" * 32)
    ben.receive(ann.me.public_key, envelope(ann, "record.entry", {"entry": bad.to_dict()}))
    assert ben.halt_kind == "out-of-turn"
    return ben


def write_halt(home: str) -> None:
    """The crash tests' child: ben's halt saved into its table folder under ``home``."""
    ben = out_of_turn_core()
    save_halt(Path(home) / "tables" / ben.table_id, ben)


@pytest.fixture(scope="module")
def ben() -> Any:
    return out_of_turn_core()


@pytest.fixture
def folder(ben: Any, tmp_path: Path, monkeypatch: Any) -> Any:
    """ben's table folder as its program leaves it: the record, ``halted.json``, finished."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    folder = table_folder(ben, tmp_path, "level8-master")
    write_record(ben.record, folder / "record.jsonl")
    save_halt(folder, ben)
    (folder / "finished").touch()
    yield folder
    i18n.set_language("en")


def old_halted(folder: Path) -> None:
    """``folder``'s ``halted.json`` as written before its ``detail``."""
    halted = json.loads((folder / HALTED).read_text())
    del halted["detail"]
    (folder / HALTED).write_text(json.dumps(halted))


def test_halted_json_keeps_the_refusal_and_the_move(folder: Path) -> None:
    detail = json.loads((folder / HALTED).read_text())["detail"]
    assert detail["payload"] == {"a": "1: draw", "t": "action"}
    assert (detail["cause"]["code"], detail["cause"]["params"]["due_seat"],
            detail["cause"]["params"]["due_entry"]) == ("out-of-turn", 1, "action")
    assert detail["known"] == {"cards": {}, "tops": {}}  # a draw names no card


def test_history_resume_and_replay_say_the_move_and_whose_turn_it_was(
        folder: Path, capsys: Any) -> None:
    game = read_game(folder)
    assert (game.status, game.cheater) == ("finished", 1)
    assert result_words(game) == "stopped: " + SAID
    assert stopped_words(folder) == "stopped: " + SAID
    capsys.readouterr()
    assert main(["resume", "--autoplay", folder.name]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        f"lancards resume: error: table {folder.name}: stopped: {SAID}; nothing to resume"
    assert main(["replay", str(folder / "record.jsonl")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "stopped: " + SAID
    i18n.set_language("de")
    assert result_words(read_game(folder)) == "angehalten: " + GESAGT
    assert main(["--lang", "de", "replay", str(folder / "record.jsonl")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "angehalten: " + GESAGT


def test_an_old_halted_json_says_the_cheater_alone(folder: Path) -> None:
    old_halted(folder)
    assert result_words(read_game(folder)) == OLD
    (folder / "record.jsonl").unlink()
    assert result_words(read_game(folder)) == OLD  # halted.json names the cheater
    i18n.set_language("de")
    assert result_words(read_game(folder)) == \
        "angehalten: ann wurde beim Betrug erwischt (lancards audit zeigt, wie)"


def _killed(home: Path, when: str) -> None:
    env = {**os.environ, "LANCARDS_HOME": str(home), CRASH_ENV: f"halted-{when}:1"}
    code = f"from {__name__} import write_halt; write_halt({str(home)!r})"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (-signal.SIGKILL, "")


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("when", "before"), [
    ("before", "none"), ("torn", "none"), ("after", "none"), ("torn", "old"), ("after", "old")])
def test_a_kill_during_the_write_leaves_a_whole_file_or_none(
        folder: Path, tmp_path: Path, when: str, before: str) -> None:
    """Killed before, halfway through (the temporary file torn) and just after the write of
    ``halted.json``, into a folder with none or with one written before its ``detail``: the
    file is the one there before (none, or the old one, said as before) or the new one whole
    (said in the table's words); never a part."""
    new = (folder / HALTED).read_bytes()  # what save_halt writes for this table
    if before == "none":
        (folder / HALTED).unlink()
    else:
        old_halted(folder)
    old = (folder / HALTED).read_bytes() if before == "old" else None
    _killed(tmp_path, when)
    assert (folder / (HALTED + ".tmp")).exists() == (when == "torn")
    kept = (folder / HALTED).read_bytes() if (folder / HALTED).exists() else None
    assert kept == (new if when == "after" else old)
    if kept is not None:  # the finished marker follows the write; the history reads it
        assert result_words(read_game(folder)) == \
            ("stopped: " + SAID if when == "after" else OLD)


def test_a_draw_from_a_discard_pile_out_of_turn_names_the_card(
        tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    """ann signs a draw from bob's discard pile while cyd is to draw: the pile's top card (R14,
    turned up at the deal: public) is named where it read ``draw the top card``, on the banner,
    in the audit and, from ``halted.json``, in the history."""
    from lancards.cli.peer_words import halt_words

    cores, _net = quiet_table()
    _cyd, ann, ben = cores
    bad = forge(ann, {"a": "1: draw-discard 2", "open": [], "t": "action"}, len(ben.record),
                ben.record.head, "00" * 32)
    ben.receive(ann.me.public_key, envelope(ann, "record.entry", {"entry": bad.to_dict()}))
    said = "ann signed a move out of turn: draw R14 from bob's discard pile, while it was cyd's " \
        "move"
    gesagt = "ann hat einen Zug außer der Reihe signiert: R14 vom Ablagestapel von bob ziehen, " \
        "während cyd am Zug war"
    assert [p.nick for p in ben.players] == ["cyd", "ann", "bob"]  # ben is bob's core here
    assert halt_words(ben, ["cyd", "ann", "bob"]) == said
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    folder = table_folder(ben, tmp_path, "level8-master")
    write_record(ben.record, folder / "record.jsonl")
    save_halt(folder, ben)
    (folder / "finished").touch()
    assert json.loads((folder / HALTED).read_text())["detail"]["known"] == {
        "cards": {}, "tops": {"2": "R14"}}
    capsys.readouterr()
    assert main(["audit", str(folder / "record.jsonl")]) == 3
    assert capsys.readouterr().out.splitlines()[-1] == "cheat caught at entry 13: " + said
    assert result_words(read_game(folder)) == "stopped: " + said
    i18n.set_language("de")
    try:
        assert result_words(read_game(folder)) == "angehalten: " + gesagt
    finally:
        i18n.set_language("en")
