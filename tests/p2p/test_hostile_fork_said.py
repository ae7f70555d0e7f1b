"""A fork is said with both moves its author signed (the LAN trial: the banner read ``eve
signed two different entries for one place of the record`` and the two honest screens then
differed, one with eve's R6 played, the other with her R2, with no word why): the banner, the
log's line and ``lancards audit``, each peer's own version first.

Level 8, 3 seats, in memory (:class:`tests.p2p.core_harness.ForkingNetwork`): cyd (seat 0)
signs entry 12 (the 13th) twice, "draw" to ann and "draw from bob's discard pile" to bob, whose
top card is the P12 turned up at the deal: it is named (it read ``draw the top card from bob's
discard pile``), on ann's screen, whose record keeps the pile as it was, and on bob's, whose
record holds the draw (the view before it), in the audit and in ``lancards history``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.cli.peer_words import halt_words, notice_words
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import GameCore
from tests.p2p.core_harness import ForkingNetwork, make_table

NAMES = ["cyd", "ann", "bob"]
PILE = "draw from the draw pile"
DISCARD = "draw P12 from bob's discard pile"
STAPEL = "vom Nachziehstapel ziehen"
ABLAGE = "P12 vom Ablagestapel von bob ziehen"
TOP = "draw the top card from bob's discard pile"  # a folder written before halted.json


@pytest.fixture(scope="module")
def forked() -> Iterator[tuple[list[GameCore], ForkingNetwork]]:
    ids, table = make_table(3, "level8")
    cores = [GameCore(me, table, SeededRandomBytes(f"f-{i}")) for i, me in enumerate(ids)]
    net = ForkingNetwork(cores, 0, 12, group_b=[2])
    net.start()
    net.run(limit=30_000)
    assert [m.nick for m in cores[0].players] == NAMES
    assert [c.record.entries[12].payload["a"] for c in cores[1:]] == ["0: draw",
                                                                      "0: draw-discard 2"]
    yield cores, net
    i18n.set_language("en")


def _moves(first: str, second: str) -> str:
    return f"cyd signed two different moves for the same turn: {first} and {second}"


def _zuege(first: str, second: str) -> str:
    return f"cyd hat an derselben Stelle zwei verschiedene Züge signiert: {first} und {second}"


def test_the_banner_and_the_log_name_both_moves_each_peer_its_own_first(forked: Any) -> None:
    cores, net = forked
    ann, bob = cores[1], cores[2]
    for core, said in ((ann, _moves(PILE, DISCARD)), (bob, _moves(DISCARD, PILE))):
        assert core.halt_kind == "equivocation"
        assert halt_words(core, NAMES) == said
        assert [notice_words(core, n, NAMES) for n in net.notices[core.me.public_key]
                if n.kind == "cheat"] == [said]
    i18n.set_language("de")
    assert halt_words(ann, NAMES) == _zuege(STAPEL, ABLAGE)
    assert halt_words(bob, NAMES) == _zuege(ABLAGE, STAPEL)
    i18n.set_language("en")


def test_the_audit_says_the_fork_as_a_cheat_counting_entries_from_1(
        forked: Any, tmp_path: Path, capsys: Any) -> None:
    """One family of lines for both kinds of cheat (it read ``rule breach: equivocation: ...
    numbered 12`` beside ``cheat caught at entry N``), entries counted from 1 as seats are, in
    ``--json``'s sentences too (its number fields keep the record's, from 0)."""
    cores, _net = forked
    path = tmp_path / "r.jsonl"
    write_record(cores[2].record, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines() == [
        "UNFINISHED: Level 8, 1 move verified; the table halted on a cheat",
        "cheat caught at entry 13: " + _moves(DISCARD, PILE)]
    assert main(["--lang", "de", "audit", str(path)]) == 3
    assert capsys.readouterr().out.splitlines() == [
        "NICHT BEENDET: Level 8, 1 Zug geprüft; der Tisch wurde wegen Betrugs angehalten",
        "Betrug erkannt bei Eintrag 13: " + _zuege(ABLAGE, STAPEL)]
    i18n.set_language("en")
    assert main(["audit", "--json", str(path)]) == 3
    report = json.loads(capsys.readouterr().out)
    assert report["cheats"] == [] and len(report["breaches"]) == 1
    assert report["breaches"][0].endswith("(seat 1) signed two different entries numbered 13")


def test_a_watcher_says_the_fork_with_both_moves_its_record_holds_first(forked: Any) -> None:
    """``lancards watch`` said the fork in the generic words (``cyd signed two different
    entries for one place of the record``) while the seated screens named both moves."""
    from lancards.cli.lobby.watch_table import PlainTeller, TableWatcher
    from lancards.p2p.protocol.identity import Identity
    from lancards.p2p.protocol.watching import Watching
    from lancards.p2p.protocol.wire import link_envelope

    cores, _net = forked
    ann, bob = cores[1], cores[2]
    watching = Watching(Identity(b"\x41" * 32, "watcher"), ann.table_id, ann.me.public_key)

    def send(kind: str, body: dict[str, Any]) -> Any:
        return watching.receive(link_envelope(ann.me, kind, ann.table_id, body).encode())

    assert send("watch.table", {"statement": ann.table.statement,
                                "sigs": ann.table.sigs}).kind == "table"
    for entry in ann.record.entries[:13]:
        assert send("watch.entry", {"entry": entry.to_dict()}).kind == "entry"
    event = send("watch.entry", {"entry": bob.record.entries[12].to_dict()})
    assert event.kind == "cheat"
    said: list[str] = []
    teller = PlainTeller(watching, said.append)
    teller.tell(event)
    watcher = TableWatcher(ann.table_id, ann.me.public_key, "127.0.0.1", 1)
    watcher.lost = None
    teller.finish(watcher)
    assert said == ["cheating caught: " + _moves(PILE, DISCARD),
                    "Level 8: the table halted: " + _moves(PILE, DISCARD)]
    i18n.set_language("de")
    said.clear()
    teller.tell(event)
    assert said == ["Betrug erkannt: " + _zuege(STAPEL, ABLAGE)]
    i18n.set_language("en")


def test_the_watched_peer_sends_its_observer_the_other_entry_of_the_fork(forked: Any) -> None:
    """A watcher of ann is sent ann's record, then bob's entry 13 (the one ann's record does
    not hold), and stops on the fork naming cyd with both moves (before, ann's observers were
    sent the record only: the LAN trial's watcher read "eve to move" for ever)."""
    from lancards.cli.lobby.watch_table import PlainTeller
    from lancards.p2p.protocol.identity import Identity
    from lancards.p2p.protocol.watchers import Watchers
    from lancards.p2p.protocol.watching import Watching

    cores, _net = forked
    ann, bob = cores[1], cores[2]
    who = Identity(b"\x42" * 32, "watcher")
    watching = Watching(who, ann.table_id, ann.me.public_key)
    watchers = Watchers(ann)
    watchers.link_up(who.public_key)
    events = [watching.receive(out.data) for out in watchers.receive(who.public_key,
                                                                      watching.ask())]
    assert [e.kind for e in events] == ["table"] + ["entry"] * 13 + ["cheat"]
    said: list[str] = []
    PlainTeller(watching, said.append).tell(events[-1])
    assert said == ["cheating caught: " + _moves(PILE, DISCARD)]
    assert bob.record.entries[12].to_dict() != ann.record.entries[12].to_dict()


def test_history_names_both_moves_when_the_record_holds_the_fork(
        forked: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """``lancards history`` said ``stopped: cyd was caught cheating (lancards audit shows how)``
    of a table halted on a fork while the audit named both moves: it now says them in the
    audit's words, the record's own entry first, and the card drawn from a discard pile as the
    folder's ``halted.json`` keeps it; without the record's evidence, as the table said it;
    from a ``halted.json`` written before its ``detail``, the cheater alone, as before."""
    from lancards.cli.halted_table import save_halt
    from lancards.cli.history import read_game, result_words
    from tests.p2p.test_hostile_halt import table_folder

    cores, _net = forked
    bob = cores[2]
    folder = table_folder(bob, tmp_path, "level8")
    write_record(bob.record, folder / "record.jsonl")
    (folder / "finished").touch()
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    game = read_game(folder)
    assert (game.status, game.cheater) == ("finished", 0)
    assert result_words(game) == "stopped: " + _moves(TOP, PILE)  # no halted.json: no card
    save_halt(folder, bob)  # the pile's top card as bob's view held it before the draw
    assert json.loads((folder / "halted.json").read_text())["detail"] == {
        "known": {"cards": {}, "tops": {"2": "P12"}}}
    game = read_game(folder)
    assert result_words(game) == "stopped: " + _moves(DISCARD, PILE)
    i18n.set_language("de")
    try:
        assert result_words(game) == "angehalten: " + _zuege(ABLAGE, STAPEL)
    finally:
        i18n.set_language("en")
    (folder / "record.jsonl").write_bytes(b"")  # no evidence line: the table's own words
    assert result_words(read_game(folder)) == \
        "stopped: cyd signed two different entries for one place of the record"
    (folder / "halted.json").write_text(json.dumps({"seat": 0, "key": cores[0].me.public_key
                                                    .hex(), "kind": "equivocation"}))
    assert result_words(read_game(folder)) == \
        "stopped: cyd was caught cheating (lancards audit shows how)"  # old: as before
