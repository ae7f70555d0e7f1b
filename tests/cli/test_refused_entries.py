"""A refused record entry in the player's words: the move the rules refuse and why (every
reason of Level 8, Level 8 Master and 8s Rule!), an entry that a fault of this program could
not handle, the record file or the journal as the sender, and ``lancards audit``'s line for a
bad line of a record file. German lines said only the reason (``die Regeln erlauben es nicht``)
with the detail in ``--verbose``, or named a local file in English (``Nachricht von record
file abgelehnt``)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.peer_errors import error_words
from lancards.cli.refusal_words import move_refused
from lancards.engine.core import EngineError
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.errors import Reason, RecordError, TableError, unexpected
from tests.cli.test_refusal_words import CASES, NAMES, _codes_and_uncoded
from tests.level8.scenario import G

NUMBERED = "die Regeln erlauben es nicht"


def other_seat() -> EngineError:
    """Cyd signs Ann's draw (the peer layer's ``other-seat``, ``p2p/protocol/core.py``)."""
    action = G.parse_action("0: draw")
    return EngineError("seat 3 signed a move of seat 1").with_code("other-seat", action=action,
                                                                   seat=0)


MOVES: dict[Any, tuple[str, str]] = {case: (name, german) for case, (name, _e, german) in
                                     CASES.items()}
MOVES[other_seat] = ("Cyd", "vom Nachziehstapel ziehen (er ist als Zug von Ann geschrieben)")
"""Every refusal of a move, with its author and the halt line's German words (the other
players named)."""


def refused_entry(case: Any) -> RecordError:
    """The refusal of the entry holding ``case``'s move, as ``GameCore``'s validator raises it
    (entry seq 4, its author named by the record with a seat)."""
    cause = case()
    seat = NAMES.index(MOVES[case][0])
    return RecordError(f"{NAMES[seat]} [AB12-CD34] (seat {seat + 1})", Reason.ILLEGAL,
                       str(cause), 4).with_code("rules-refused", error=cause)


def test_the_walk_meets_every_code_of_a_refused_move():
    codes, _uncoded = _codes_and_uncoded()
    assert codes - {case().code for case in MOVES} == set()


@pytest.mark.parametrize("case", list(MOVES), ids=lambda c: c.__name__)
def test_each_refused_move_is_said_in_german(case, german):
    """The move and why, as the halt line says it; the other players by their seat (the line
    knows only its sender's name)."""
    name, words = MOVES[case]
    seat = NAMES.index(name)
    for index, other in enumerate(NAMES):
        if other != name:
            words = words.replace(other, f"Platz {index + 1}")
    assert error_words(refused_entry(case), move_refused) == (
        f"Nachricht von {name} [AB12-CD34] abgelehnt (Platz {seat + 1}, Eintrag 5): "
        f"{NUMBERED}: {words}")


def test_two_refused_moves_exactly_in_german_and_one_in_english(german):
    from tests.cli.test_refusal_words import e_others_move, l8_draw_first

    assert error_words(refused_entry(l8_draw_first), move_refused) == (
        "Nachricht von Cyd [AB12-CD34] abgelehnt (Platz 3, Eintrag 5): die Regeln erlauben es "
        "nicht: R5 ablegen (Cyd muss zuerst ziehen)")
    assert error_words(refused_entry(e_others_move), move_refused) == (
        "Nachricht von Cyd [AB12-CD34] abgelehnt (Platz 3, Eintrag 5): die Regeln erlauben es "
        "nicht: G5 spielen (Platz 1 ist am Zug)")
    i18n.set_language("en")
    assert error_words(refused_entry(l8_draw_first), move_refused) == (
        "message from Cyd [AB12-CD34] refused (seat 3, entry 5): the rules do not allow it: "
        "discard R5 (Cyd must draw first)")  # no engine syntax, no ruling id (--verbose's)


def test_a_move_without_a_code_keeps_the_reason_alone(german):
    uncoded = EngineError("seat 3: something new")
    refused = RecordError("Cyd [AB12-CD34] (seat 3)", Reason.ILLEGAL, str(uncoded), 4
                          ).with_code("rules-refused", error=uncoded)
    assert error_words(refused, move_refused) == \
        "Nachricht von Cyd [AB12-CD34] abgelehnt (Platz 3, Eintrag 5): die Regeln erlauben es nicht"


def test_an_unexpected_failure_names_the_sender_in_words_in_both_languages(german, caplog):
    """An exception no door expected (``unexpected``, a fault of this program reached by a
    peer's bytes): who sent the message and what happened, in words; the exception's name and
    text in ``--verbose`` only, in English too."""
    refused = unexpected("bob [WYXI-M75C] (seat 2)", KeyError("seats"))
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert error_words(refused) == (
            "Nachricht von bob [WYXI-M75C] (Platz 2) abgelehnt: ihre Verarbeitung schlug "
            "unerwartet fehl: ein Fehler dieses Programms, nicht des Absenders; diese Nachricht "
            "wird übergangen, die anderen werden angenommen (Einzelheiten: --verbose)")
        i18n.set_language("en")
        assert error_words(refused) == (
            "message from bob [WYXI-M75C] (seat 2) refused: handling it failed unexpectedly: a "
            "fault of this program, not of the sender; this message is left out, the others are "
            "taken (the details: --verbose)")
    assert caplog.messages == [
        "rejected message from bob [WYXI-M75C] (seat 2): unexpected: KeyError: 'seats'"] * 2


def test_a_local_file_as_the_sender_is_said_in_german(german):
    """The record file, the journal, this seat's own record, an unknown link and an entry's
    author not yet checked, as the peer layer names them."""
    journal = TableError("the journal", Reason.MALFORMED, "a rematch line").with_code(
        "rematch-line")
    assert error_words(journal) == ("Nachricht von dem Journal abgelehnt: fehlerhaft aufgebaut: "
                                    "eine Zeile zum nächsten Spiel")
    lines = {sender: error_words(RecordError(sender, Reason.OUT_OF_ORDER, "an entry after the "
                                             "cheat line", 7).with_code("after-cheat-line"))
             for sender in ("record file", "the local record", "unknown peer",
                            "bob [WYXI-M75C] (seat 2) (unverified)")}
    assert lines == {
        "record file": "Nachricht von der Protokolldatei abgelehnt (Eintrag 8): in falscher "
                       "Reihenfolge: ein Eintrag nach der Betrugszeile",
        "the local record": "Nachricht von dem eigenen Protokoll dieses Platzes abgelehnt "
                            "(Eintrag 8): in falscher Reihenfolge: ein Eintrag nach der "
                            "Betrugszeile",
        "unknown peer": "Nachricht von einem unbekannten Teilnehmer abgelehnt (Eintrag 8): in "
                        "falscher Reihenfolge: ein Eintrag nach der Betrugszeile",
        "bob [WYXI-M75C] (seat 2) (unverified)":
            "Nachricht von bob [WYXI-M75C] (Platz 2) (nicht geprüft) abgelehnt (Eintrag 8): in "
            "falscher Reihenfolge: ein Eintrag nach der Betrugszeile"}


def test_audit_says_the_bad_lines_sender_entry_and_move_in_both_languages(tmp_path, capsys):
    """A record file whose entry line holds cyd's signed move the rules refuse (not a cheat
    line): the audit names the file's line, the entry it should hold, who signed it and which
    entry it is, counted from 1, the move and why; and a line whose signature does not verify
    names the record file as its sender and the player with a seat in German."""
    from tests.p2p.test_hostile_halt import quiet_table
    from tests.p2p.test_hostile_situations import envelope, forge

    cores, _net = quiet_table()
    cyd, ann = cores[0], cores[1]
    bad = forge(cyd, {"a": "0: discard R5#114", "open": [], "t": "action"}, len(ann.record),
                ann.record.head, "00" * 32)
    ann.receive(cyd.me.public_key, envelope(cyd, "record.entry", {"entry": bad.to_dict()}))
    path = tmp_path / "r.jsonl"
    write_record(ann.record, path)
    lines = path.read_bytes().split(b"\n")[:-3]  # the header and entries 1 to 12
    entry = json.dumps({"entry": bad.to_dict(), "kind": "entry"}, sort_keys=True,
                       separators=(",", ":")).encode()
    illegal = tmp_path / "illegal.jsonl"
    illegal.write_bytes(b"\n".join([*lines, entry, b""]))
    line = lines[5]
    at = line.index(b'"sig":"') + 7
    signed = tmp_path / "signed.jsonl"
    signed.write_bytes(b"\n".join([*lines[:5], line[:at] + (b"0" if line[at:at + 1] != b"0"
                                                           else b"1") + line[at + 1:],
                                   *lines[6:], b""]))
    author = ann.record.name(bytes.fromhex(json.loads(line)["entry"]["author"]))
    cyd_name = ann.record.name(cyd.me.public_key).removesuffix(" (seat 1)")
    capsys.readouterr()
    try:
        assert main(["--lang", "de", "audit", str(illegal)]) == 1
        assert capsys.readouterr().out == (
            f"ABGELEHNT: Protokoll Zeile 14 (Eintrag 13): Nachricht von {cyd_name} abgelehnt "
            "(Platz 1, Eintrag 13): die Regeln erlauben es nicht: R5 ablegen (cyd muss zuerst "
            "ziehen)\n")
        assert main(["--lang", "de", "audit", str(signed)]) == 1
        assert capsys.readouterr().out == (
            "ABGELEHNT: Protokoll Zeile 6 (Eintrag 5): Nachricht von der Protokolldatei "
            "abgelehnt (Eintrag 5): die Signatur stimmt nicht: die Signatur von "
            f"{author.replace('(seat ', '(Platz ')}\n")
    finally:
        i18n.set_language("en")
    assert main(["audit", str(illegal)]) == 1
    assert capsys.readouterr().out == (
        f"REJECTED: record file line 14 (entry 13): rejected message from {cyd_name} (seat 1, "
        "entry 13): illegal: seat 0: illegal '0: discard R5#114': it is seat 0's move (draw) "
        "(ruling L8-3)\n")


def test_a_watched_cheat_is_said_in_words_in_english_too(caplog):
    """``lancards watch --plain`` printed the peer layer's sentence in English for an illegal
    move (``cheating caught: rejected message from ... illegal '2: ...'``); the words now, the
    sentence in ``--verbose``."""
    from lancards.cli.peer_errors import cheat_error_words

    refused = RecordError("cyd", Reason.ILLEGAL, "seat 2: illegal '2: discard R5#4'", 4)
    sentence = str(refused)
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert cheat_error_words(refused, sentence) == "cyd signed a move the rules do not allow"
    assert sentence in caplog.messages
    assert cheat_error_words(None, "the table halted") == "the table halted"
