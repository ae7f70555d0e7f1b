"""The peer layer's reasons in the player's language (issue 28): a refused message, an audit's
REJECTED line, a network failure, a busy seat folder, why there is no next game, the watch
mode's lines. Each in German with its exact words, and English unchanged (the peer layer's
own sentence)."""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.lobby.watch_table import PlainTeller, TableWatcher
from lancards.cli.peer_errors import (
    FAILURE_WORDS,
    REASON_WORDS,
    error_words,
    failure_text,
    failure_words,
    rematch_words,
    tried_words,
)
from lancards.cli.play_again import again_words
from lancards.cli.record_tools import verdict_lines
from lancards.p2p.net.failure_words import ENGLISH, Failure
from lancards.p2p.net.folder_lock import FolderBusy, Holder
from lancards.p2p.net.store import JournalDamaged, TableStore
from lancards.p2p.protocol.audit import audit_bytes
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    MessageError,
    Reason,
    RecordError,
    RecordFileError,
    Refusal,
    TransportError,
)
from lancards.p2p.protocol.watching import Event
from tests.p2p.net.test_failure_words import CASES


def test_every_reason_code_has_words():
    assert set(REASON_WORDS) == set(Reason)
    assert set(FAILURE_WORDS) | {"peer"} == set(ENGLISH)


@pytest.mark.parametrize(("exc", "words"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_the_english_failure_words_are_the_peer_layers_sentences(exc, words):
    assert failure_words(exc) == words


def test_a_network_failure_in_german(german, caplog):
    refused = ConnectionRefusedError(errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED))
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert failure_words(refused) == \
            "der Gastgeber hat die Verbindung abgelehnt: an diesem Port hört nichts"
    assert "ConnectionRefusedError" in caplog.text  # the class: --verbose only
    assert failure_words(TimeoutError(), "10.0.0.2:4000", 15) == \
        "10.0.0.2:4000 hat nicht innerhalb von 15 s geantwortet"
    assert failure_text(Failure("mdns", "the network")) == \
        "Multicast-DNS (mDNS) ist in diesem Netz fehlgeschlagen"


def test_a_probe_that_nothing_answers_and_the_addresses_tried_in_german(german):
    why = Failure("closed")
    probe = TransportError("no lancards table answers at 10.0.0.2:4000 (the host closed the "
                           "connection), or it takes no more players (full or started)"
                           ).with_code("no-answer", address="10.0.0.2:4000", why=why)
    assert error_words(probe) == (
        "unter 10.0.0.2:4000 antwortet kein lancards-Tisch (der Gastgeber hat die Verbindung "
        "geschlossen), oder er nimmt keine Spieler mehr (voll oder begonnen)")
    tried = [("10.9.0.1", Failure("peer", detail=str(probe), error=probe)), ("10.0.0.1", None)]
    assert tried_words(tried)[1] == \
        "10.0.0.1: hat mit einem anderen Schlüssel als dem angekündigten geantwortet"
    none = LocalProtocolError("table 00112233aabbccdd of bob answers at none of its addresses "
                              "(...)").with_code("no-address-answers", table="00112233aabbccdd",
                                                 nick="bob", tried=[])
    assert error_words(none) == \
        "Tisch 00112233aabbccdd von bob antwortet unter keiner seiner Adressen (keine angekündigt)"


def test_a_refused_message_in_german_and_in_english(german, caplog):
    refused = RecordError("bob [WYXI-M75C]", Reason.OUT_OF_TURN, "seat 1 is to act", 4)
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert error_words(refused) == \
            "Nachricht von bob [WYXI-M75C] abgelehnt (Eintrag 5): außer der Reihe"  # seq 4
    assert "seat 1 is to act" in caplog.text  # the detail: --verbose only
    i18n.set_language("en")
    assert error_words(refused) == "message from bob [WYXI-M75C] refused (entry 5): out of turn"
    assert str(refused) == ("rejected message from bob [WYXI-M75C] (entry 5): out-of-turn: seat "
                            "1 is to act")  # the peer layer's sentence: --verbose's


def test_an_error_without_words_is_one_generic_german_line(german):
    assert error_words(LocalProtocolError("some internal detail")) == \
        "die Peer-Schicht hat es abgelehnt (Einzelheiten: --verbose)"


def test_the_audit_rejected_line_in_german_and_in_english(german):
    report = audit_bytes(b'{"a":1}\n\n')
    assert verdict_lines(report) == ["ABGELEHNT: Protokoll Zeile 2: die Zeile ist leer"]
    entry = RecordFileError(5, 3, "...", RecordError("bob", Reason.ILLEGAL, "no", 3)
                            ).with_code("entry")
    report.problem, report.error = entry, str(entry)
    assert verdict_lines(report) == [  # the line, then who the entry is from and which it is
        "ABGELEHNT: Protokoll Zeile 5 (Eintrag 4): Nachricht von bob abgelehnt (Eintrag 4): die "
        "Regeln erlauben es nicht"]
    i18n.set_language("en")
    assert verdict_lines(audit_bytes(b'{"a":1}\n\n')) == \
        ["REJECTED: record file line 2: the line is empty"]


def test_a_damaged_journal_and_a_busy_folder_in_german(german, tmp_path: Path):
    (tmp_path / "journal.jsonl").write_text("not a journal line 00000000\n")
    with pytest.raises(JournalDamaged) as caught:
        TableStore(tmp_path).read()
    assert error_words(caught.value) == (
        f"das Journal {tmp_path / 'journal.jsonl'} ist in Zeile 1 beschädigt; es wird nicht "
        "daraus fortgesetzt")
    busy = FolderBusy(tmp_path, Holder(4242, "lancards play", 0.0, None))
    assert error_words(busy) == (
        f"der Tischordner {tmp_path} wird von Prozess 4242 benutzt (lancards play, gestartet "
        f"{busy.holder.started()}); nur ein Prozess zugleich darf einen Platz spielen: warte, "
        "bis er endet, oder beende ihn")
    i18n.set_language("en")
    assert error_words(busy) == str(busy)


def test_why_there_is_no_next_game_in_german(german):
    code = ("too-few", {"yes": 1, "least": 2, "game": "level8-en"})  # its name, not its id
    assert rematch_words(code, "x") == \
        "zu wenige Spieler zum Weitermachen: 1 von mindestens 2, die Level 8 (englisch) braucht"
    i18n.set_language("en")
    assert rematch_words(code, "x") == \
        "too few players to go on: 1 of the at least 2 Level 8 (English) needs"
    i18n.set_language("de")
    assert again_words({"failed": "you stopped", "failed_code": ("stopped", {})}) == \
        "kein nächstes Spiel: du hast aufgehört; q zum Gehen"


@pytest.mark.parametrize(("lang", "words"), [
    ("de", "Nachricht von bob abgelehnt: fehlerhaft aufgebaut: 2 Spieler können Level 8 "
           "(englisch) nicht spielen"),
    ("en", "message from bob refused: not well formed: 2 players cannot play Level 8 (English)")])
def test_a_refused_next_game_names_the_game_not_its_id(german, lang, words):
    """The game's name where a person reads it (``level8-en``: ``Level 8 (English)``)."""
    from lancards.p2p.protocol.errors import RemoteProtocolError

    i18n.set_language(lang)
    refused = RemoteProtocolError("bob", Reason.MALFORMED, "2 players are too few for level8-en"
                                  ).with_code("premature-few", players=2, game="level8-en")
    assert error_words(refused) == words


class _Watching:
    core = None
    cheat = None
    cheat_error = None
    cheat_entry = None


def test_the_watch_modes_plain_lines_in_german(german):
    said: list[str] = []
    teller = PlainTeller(_Watching(), said.append)  # type: ignore[arg-type]
    refused = RecordError("the watched peer bob", Reason.BROKEN_CHAIN, "prev", 7)
    teller.tell(Event("rejected", str(refused), error=refused))
    teller.tell(Event("rejected", "entry 3 again"))
    cheat = RecordError("cyd [ABCD]", Reason.OUT_OF_TURN, "not its turn", 9)
    teller.tell(Event("cheat", str(cheat), 9, cheat))
    watcher = TableWatcher("00112233aabbccdd", bytes(32), "127.0.0.1", 1)
    watcher.lost = None
    teller.finish(watcher)
    assert said == [
        "nicht übernommen: Nachricht von dem beobachteten Teilnehmer bob abgelehnt (Eintrag 8): "
        "schließt nicht an den Eintrag davor an",
        "nicht übernommen: Eintrag 3 noch einmal",
        "Betrug erkannt: cyd [ABCD] hat einen Zug außer der Reihe signiert",
        "das Zuschauen endete vor dem Spiel",
    ]


def test_a_refused_removal_vote_in_german(german):
    refusal = Refusal("bob is connected and answering: silent 40 s", "connected", name="bob",
                      seconds="40")
    assert refusal == "bob is connected and answering: silent 40 s"
    refused = LocalProtocolError(refusal).with_code(refusal.code, **refusal.params)
    assert error_words(refused) == "bob ist verbunden und antwortet: still seit 40 s"
    i18n.set_language("en")
    assert error_words(refused) == "bob is connected and answering: silent 40 s"


def test_the_moves_a_table_refuses_in_german(german):
    from lancards.cli.tui.controller import short_error

    late = LocalProtocolError("it is not this seat's move").with_code("not-your-move")
    assert short_error(error_words(late)) == "dieser Platz ist nicht am Zug"
    assert error_words(LocalProtocolError("x").with_code("halted")) == \
        "der Tisch ist angehalten: keine Züge mehr"


def test_a_storage_fault_in_german_and_in_english(german):
    from lancards.p2p.net.store import RESUME, storage_error

    full = storage_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
                         "/h/tables/t/journal.jsonl", "write", RESUME)
    assert error_words(full) == ("die Platte ist voll: /h/tables/t/journal.jsonl kann nicht "
                                 "geschrieben werden; schaffe Platz und führe „lancards resume“ "
                                 "aus")
    i18n.set_language("en")
    assert error_words(full) == str(full) == ("the disk is full: cannot write "
                                              "/h/tables/t/journal.jsonl; free space and run "
                                              "`lancards resume`")


def test_a_refused_message_names_the_seat_as_the_players_panel_counts_it(german):
    """The LAN trial: rejections said ``(seat 0)`` of the player the panel lists as ``1 eve``,
    and a German table read the English ``(seat 0)``. Seats are counted from 1 in every line a
    person reads (the ``--json`` fields keep their 0-based numbers); German says ``Platz``."""
    from tests.p2p.protocol.helpers import record_with
    from tests.p2p.protocol.test_record import rejection

    ids, record = record_with(3)
    refused = rejection(record, record.entries[0])  # the first seat's entry, again
    sender = f"{ids[0].nick} [{ids[0].fingerprint}]"
    assert refused.sender == f"{sender} (seat 1)"
    assert error_words(refused) == f"Nachricht von {sender} abgelehnt (Platz 1, Eintrag 1): " \
        "schon einmal erhalten: Eintrag 1 steht bereits im Protokoll"  # one bracket, from 1
    i18n.set_language("en")
    assert error_words(refused) == f"message from {sender} refused (seat 1, entry 1): " \
        "received before: entry 1 is already in the record"


def test_a_seat_and_a_message_number_stand_in_one_bracket(german):
    """The LAN trial read ``eve [...] (seat 3) (message 326)``, two brackets in a row."""
    chat = MessageError("eve [GOXQ-RTOB] (seat 3)", Reason.REPLAYED, "'chat' seq 326", 326)
    assert error_words(chat) == \
        "Nachricht von eve [GOXQ-RTOB] abgelehnt (Platz 3, Nachricht 326): schon einmal erhalten"
    unseated = MessageError("the watched peer bob", Reason.REPLAYED, "'chat' seq 9", 9)
    assert error_words(unseated) == "Nachricht von dem beobachteten Teilnehmer bob abgelehnt " \
        "(Nachricht 9): schon einmal erhalten"
    i18n.set_language("en")
    assert str(chat) == "rejected message from eve [GOXQ-RTOB] (seat 3, message 326): " \
        "replayed: 'chat' seq 326"
    assert str(RecordError("record file", Reason.ILLEGAL, "no", 4)) == \
        "rejected message from record file (entry 5): illegal: no"


def test_a_removal_vote_about_another_place_counts_entries_from_1(german):
    """A vote's ``at`` (the record's length when it was signed: the removal takes that entry's
    place) was said from 0 (``entry 12`` for the 13th) while refusals count entries from 1."""
    import msgspec

    from lancards.p2p.protocol.errors import RemoteProtocolError
    from lancards.p2p.protocol.identity import Identity
    from lancards.p2p.protocol.schemas import RemovalVote
    from lancards.p2p.protocol.votes import sign_vote, vote_problem

    ann = Identity(b"\x31" * 32, "ann")
    vote = msgspec.convert(sign_vote(ann, "00112233aabbccdd", 2, 12, "ab" * 32, 0), RemovalVote)
    problem = vote_problem(vote, "00112233aabbccdd", 2, 14, "cd" * 32)
    assert problem == "a vote about table 00112233aabbccdd, seat 3, entry 13 (abababababab...), " \
        "not seat 3 at entry 15 (cdcdcdcdcdcd...)"
    refused = RemoteProtocolError("bob", Reason.BAD_SIGNATURE, problem).with_code(
        problem.code, **problem.params)
    assert error_words(refused) == (
        "Nachricht von bob abgelehnt: die Signatur stimmt nicht: eine Stimme zum Entfernen zu "
        "Tisch 00112233aabbccdd, Platz 3, Eintrag 13 (abababababab...), nicht zu Platz 3 bei "
        "Eintrag 15 (cdcdcdcdcdcd...)")
