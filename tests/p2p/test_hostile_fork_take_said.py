"""A fork of an "I'll take that!" choice names the card taken (the LAN trial with a seated
attacker: the banner read ``dan signed two different moves for the same turn: take a card
(I'll take that!) and take none of the shown cards (I'll take that!)`` while the log above it
said ``dan took bea's R14 (I'll take that!)``), on the banner, the log, in ``lancards audit``
and at the end of ``lancards replay``, which ended on one of the two moves as if it were the
only one (``the game is not finished``).

Level 8 Master, 3 seats, in memory: ann (seat 1) signs her choice of the shown O8 (entry 31)
and, to cyd only, a choice of none.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.peer_words import halt_words, notice_words
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import GameCore, Output, Send
from tests.p2p.core_harness import ForkingNetwork, entry_of, make_table

NAMES = ["cyd", "ann", "bob"]
TAKE = "take O8 (I'll take that!)"
NONE = "take none of the shown cards (I'll take that!)"
NEHMEN = "O8 nehmen („Die nehm’ ich!“)"
KEINE = "keine der gezeigten Karten nehmen („Die nehm’ ich!“)"


class ChoiceForking(ForkingNetwork):
    """:class:`ForkingNetwork` forking the hostile seat's first "I'll take that!" choice of a
    shown card."""

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        if sender == self.hostile.me.public_key and self.fork is None:
            chosen = [e["seq"] for o in outputs if isinstance(o, Send) and o.to is None
                      and (e := entry_of(o.data)) is not None
                      and ": choose #" in str(e["payload"].get("a", ""))]
            self.at = chosen[0] if chosen else 10 ** 9
        super().post(sender, outputs)


@pytest.fixture(scope="module")
def forked() -> Iterator[tuple[list[GameCore], ChoiceForking]]:
    ids, table = make_table(3, "level8-master")
    cores = [GameCore(me, table, SeededRandomBytes(f"t-{i}")) for i, me in enumerate(ids)]
    net = ChoiceForking(cores, 1, 10 ** 9, group_b=[0])
    net.start()
    net.run(limit=200_000)
    assert [m.nick for m in cores[0].players] == NAMES
    assert net.fork is not None and [e["payload"]["a"] for e in net.fork] == [
        "1: choose #145", "1: choose none"]
    assert [c.halt_kind for c in cores] == ["equivocation"] * 3
    yield cores, net
    i18n.set_language("en")


def _moves(first: str, second: str) -> str:
    return f"ann signed two different moves for the same turn: {first} and {second}"


def _zuege(first: str, second: str) -> str:
    return f"ann hat an derselben Stelle zwei verschiedene Züge signiert: {first} und {second}"


def test_the_banner_and_the_log_name_the_card_taken(forked: Any) -> None:
    (cyd, _ann, bob), net = forked
    notices = net.notices
    for core, said in ((cyd, _moves(NONE, TAKE)), (bob, _moves(TAKE, NONE))):
        assert halt_words(core, NAMES) == said  # the banner, each peer's own version first
        assert [notice_words(core, n, NAMES) for n in notices[core.me.public_key]
                if n.kind == "cheat"] == [said]  # the log's line
    i18n.set_language("de")
    assert halt_words(cyd, NAMES) == _zuege(KEINE, NEHMEN)
    assert halt_words(bob, NAMES) == _zuege(NEHMEN, KEINE)
    i18n.set_language("en")


def test_the_audit_and_the_replay_name_both_moves_and_the_card(
        forked: Any, tmp_path: Path, capsys: Any) -> None:
    cyd = forked[0][0]
    path = tmp_path / "r.jsonl"
    write_record(cyd.record, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines()[1:] == [
        "cheat caught at entry 31: " + _moves(NONE, TAKE)]
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == [
        "  19  ann took none of the shown cards (I'll take that!)",
        "      round 1 · levels 1/1/1 · hands 10/10/10 · draw pile 69 · discard tops G11 B12 "
        "P13 · melds 0",
        "stopped: " + _moves(NONE, TAKE)]  # no longer "the game is not finished"
    try:
        assert main(["--lang", "de", "replay", str(path)]) == 0
    finally:
        i18n.set_language("en")
    assert capsys.readouterr().out.splitlines()[-1] == "angehalten: " + _zuege(KEINE, NEHMEN)


def test_history_names_the_card_taken(forked: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """``lancards history`` said the fork with ``take a card (I'll take that!)`` where the
    table and the audit named the O8: the halting seat's ``halted.json`` now keeps the card its
    view knew (``detail.known``), and history names it; a folder without it, as before."""
    from lancards.cli.halted_table import HALTED, save_halt
    from lancards.cli.history import read_game, result_words
    from lancards.cli.play import stopped_words
    from tests.p2p.test_hostile_halt import table_folder

    cyd = forked[0][0]
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    folder = table_folder(cyd, tmp_path, "level8-master")
    write_record(cyd.record, folder / "record.jsonl")
    (folder / "finished").touch()
    assert result_words(read_game(folder)) == "stopped: " + _moves(
        NONE, "take a card (I'll take that!)")  # no halted.json: the card is not known
    save_halt(folder, cyd)
    assert json.loads((folder / HALTED).read_text())["detail"] == {
        "known": {"cards": {"145": "O8"}, "tops": {}}}
    assert result_words(read_game(folder)) == "stopped: " + _moves(NONE, TAKE)
    assert stopped_words(folder) == "stopped: " + _moves(NONE, TAKE)
    i18n.set_language("de")
    try:
        assert result_words(read_game(folder)) == "angehalten: " + _zuege(KEINE, NEHMEN)
    finally:
        i18n.set_language("en")
