"""A cheat's printed line and a move signed out of turn, in words (the LAN trial with a seated
attacker, Level 8 Master): ``lancards host --autoplay`` printed ``cheat: ... (rejected message
from dan [YWAB-...] (seat 3, entry 124): illegal: seat 2: illegal '2: swap-end': ... (ruling
L8-3))`` after the words, and an out-of-turn cheat was only ``dan signed a move out of turn``
on the banner, the log, the printed line and in ``lancards audit``, never which move nor whose
turn it was.

Level 8 Master, 3 seats, in memory (:func:`tests.p2p.test_hostile_halt.quiet_table`): cyd
(seat 0) is to draw; ann (seat 1) signs "draw" for the next place and ben receives it.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.lobby.started_table import _report
from lancards.cli.main import main
from lancards.cli.notice_lines import notice_line
from lancards.cli.peer_words import halt_words
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import Notice
from tests.p2p.test_hostile_halt import NAMES, WORDS, halted, quiet_table  # noqa: F401
from tests.p2p.test_hostile_situations import envelope, forge

SAID = "ann signed a move out of turn: draw from the draw pile, while it was cyd's move"
GESAGT = ("ann hat einen Zug außer der Reihe signiert: vom Nachziehstapel ziehen, während cyd "
          "am Zug war")


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


@pytest.fixture
def out_of_turn() -> tuple[Any, Notice]:
    """ben (seat 2) halted on ann's (seat 1) signed draw while cyd (seat 0) was to draw; the
    cheat notice."""
    cores, _net = quiet_table()
    cyd, ann, ben = cores
    assert cyd.expected()[0] == 0
    bad = forge(ann, {"a": "1: draw", "open": [], "t": "action"}, len(ben.record),
                ben.record.head, "00" * 32)
    out = ben.receive(ann.me.public_key,
                      envelope(ann, "record.entry", {"entry": bad.to_dict()}))
    [cheat] = [x for x in out if isinstance(x, Notice) and x.kind == "cheat"]
    assert (ben.halt_kind, cheat.seat) == ("out-of-turn", 1)
    return ben, cheat


def _printed(core: Any, notice: Notice, capsys: Any) -> list[str]:
    """What an autoplay seat prints at the end of a game that halted on ``notice``."""
    node = SimpleNamespace(core=core, notices=[notice])
    capsys.readouterr()
    assert _report(node, argparse.Namespace(record=None, games=1), False, NAMES) == 1
    return capsys.readouterr().out.splitlines()


def test_the_printed_cheat_line_is_words_only_the_sentence_goes_to_verbose(
        halted, capsys, caplog, english_after):  # noqa: F811
    _cores, _net, ann, _bad, out = halted
    [cheat] = [x for x in out if isinstance(x, Notice) and x.kind == "cheat"]
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert _printed(ann, cheat, capsys) == [
            "cheat: " + WORDS, "Level 8 Master: the table halted: " + WORDS]
    assert cheat.text in caplog.messages  # rejected message from cyd [...]: ... (ruling L8-3)
    i18n.set_language("de")
    assert _printed(ann, cheat, capsys) == [
        "Betrug: cyd hat einen Zug signiert, den die Regeln nicht erlauben: R5 ablegen (cyd "
        "muss zuerst ziehen)",
        "Level 8 Master: der Tisch hat angehalten: cyd hat einen Zug signiert, den die Regeln "
        "nicht erlauben: R5 ablegen (cyd muss zuerst ziehen)"]


def test_a_move_out_of_turn_is_said_with_the_move_and_whose_turn_it_was(
        out_of_turn, capsys, english_after):
    ben, cheat = out_of_turn
    assert halt_words(ben, NAMES) == SAID  # the banner
    assert notice_line(ben, cheat, NAMES, NAMES) == "! " + SAID  # the table's log
    assert _printed(ben, cheat, capsys) == ["cheat: " + SAID,
                                            "Level 8 Master: the table halted: " + SAID]
    i18n.set_language("de")
    assert halt_words(ben, NAMES) == GESAGT
    assert notice_line(ben, cheat, NAMES, NAMES) == "! " + GESAGT
    assert _printed(ben, cheat, capsys) == ["Betrug: " + GESAGT,
                                            "Level 8 Master: der Tisch hat angehalten: " + GESAGT]


def test_the_audit_says_the_move_out_of_turn_and_whose_turn_it_was(
        out_of_turn, tmp_path: Path, capsys, english_after):
    ben, _cheat = out_of_turn
    path = tmp_path / "r.jsonl"
    write_record(ben.record, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines() == [
        "UNFINISHED: Level 8 Master, verified, no move played; the table halted on "
        "a cheat",
        "cheat caught at entry 13: " + SAID]
    assert main(["--lang", "de", "audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines()[1:] == ["Betrug erkannt bei Eintrag 13: " + GESAGT]
    i18n.set_language("en")
    assert main(["audit", "--json", str(path)]) == 3  # the JSON as it was
    assert json.loads(capsys.readouterr().out)["cheats"] == [
        {"seat": 1, "entry": 12, "reason": "out-of-turn", "detail":
         "a 'action' entry by seat 2; the record waits for seat 1's action"}]


def test_the_player_whose_move_it_was_reads_your_move_on_the_banner_and_the_log(
        capsys, english_after) -> None:
    """The LAN trial's ann read "eve signed a move out of turn: draw from the draw pile, while
    it was ann's move" on her own screen, where the log calls her "You"."""
    cores, _net = quiet_table()
    cyd, ann, _ben = cores
    bad = forge(ann, {"a": "1: draw", "open": [], "t": "action"}, len(cyd.record),
                cyd.record.head, "00" * 32)
    out = cyd.receive(ann.me.public_key, envelope(ann, "record.entry", {"entry": bad.to_dict()}))
    [cheat] = [x for x in out if isinstance(x, Notice) and x.kind == "cheat"]
    said = "ann signed a move out of turn: draw from the draw pile, while it was your move"
    assert halt_words(cyd, NAMES) == said
    assert notice_line(cyd, cheat, NAMES, NAMES) == "! " + said
    assert _printed(cyd, cheat, capsys) == ["cheat: " + said,
                                            "Level 8 Master: the table halted: " + said]
    i18n.set_language("de")
    gesagt = ("ann hat einen Zug außer der Reihe signiert: vom Nachziehstapel ziehen, während du "
              "am Zug warst")
    assert halt_words(cyd, NAMES) == gesagt
    assert notice_line(cyd, cheat, NAMES, NAMES) == "! " + gesagt
