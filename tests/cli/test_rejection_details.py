"""A refused message in German says what was wrong, as the English line does
(``cli/rejection_details.py``). The LAN trial with a seated attacker: cyd read ``Nachricht von
eve [...] abgelehnt: fehlerhaft aufgebaut`` where English said ``malformed: ciphertext of 1
bytes``, and ``abgelehnt: von jemandem ohne Platz am Tisch`` where English said ``a removal
vote signed by a peer not at the table``. Each refusal here is made by the peer layer itself,
from the bytes a hostile seat sends."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.peer_errors import error_words
from lancards.p2p.protocol.core import Notice
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.sealed import seal
from lancards.p2p.protocol.votes import sign_vote
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_cores

pytestmark = pytest.mark.usefixtures("german")


def _refused(outputs: list) -> Notice:
    [notice] = [o for o in outputs if isinstance(o, Notice) and o.kind == "rejected"]
    assert notice.error is not None
    return notice


def _both(notice: Notice) -> tuple[str, str]:
    """The refusal's German and English lines, each from its reason on (who sent it, and how
    a seat is numbered, are ``cli/peer_errors.py``'s, tested there)."""
    assert notice.error is not None
    german = error_words(notice.error)
    i18n.set_language("en")
    try:
        said = error_words(notice.error)
    finally:
        i18n.set_language("de")
    sender = notice.error.sender
    english = str(notice.error)  # the peer layer's sentence: --verbose's
    assert english.startswith(f"rejected message from {sender}: ")
    assert said.startswith(f"message from {sender} refused: ")  # the table's English: words
    assert german.startswith(  # the seat as German says it (cli/peer_errors.py)
        f"Nachricht von {sender.replace('(seat ', '(Platz ')} abgelehnt: ")
    return german.split(" abgelehnt: ", 1)[1], english.split(f"{sender}: ", 1)[1]


def test_a_sealed_message_of_one_byte_says_so_in_german() -> None:
    cores, _net = make_cores(3)
    ann, cyd = cores[0], cores[2]
    payload = seal(cyd.me, ann.players[0], cyd.table_id, "deck.shares", b"{}").to_dict()
    payload["ct"] = "00"
    data = sign_envelope(cyd.me, "sealed", cyd.table_id, 5, {"payload": payload}).encode()
    german, english = _both(_refused(ann.receive(cyd.me.public_key, data)))
    assert english == "malformed: ciphertext of 1 bytes"
    assert german == ("fehlerhaft aufgebaut: eine versiegelte Nachricht, deren verschlüsselter "
                      "Teil 1 Byte lang ist")


def test_a_vote_signed_by_someone_not_at_the_table_says_who_signed_what() -> None:
    cores, _net = make_cores(4, "level8", options={"rescue": "on", "patience": 10})
    ann, dee = cores[0], cores[3]
    stranger = Identity(bytes([9]) * 32, "zed")
    vote = sign_vote(stranger, ann.table_id, 1, len(ann.record), ann.record.head, 0)
    data = sign_envelope(dee.me, "record.vote", dee.table_id, 5, {"vote": vote}).encode()
    german, english = _both(_refused(ann.receive(dee.me.public_key, data)))
    assert english == "not-seated: a removal vote signed by a peer not at the table"
    assert german == ("eine Stimme zum Entfernen, signiert von jemandem, der nicht am Tisch "
                      "ist")



def test_a_vote_on_ones_own_removal_speaks_of_a_person() -> None:
    """The re-check trial with a seated attacker read ``eve [FP] voted to remove itself``: a
    player is a person, not "itself"."""
    cores, _net = make_cores(4, "level8", options={"rescue": "on", "patience": 10})
    ann, dee = cores[0], cores[3]
    vote = sign_vote(dee.me, ann.table_id, 3, len(ann.record), ann.record.head, 0)
    data = sign_envelope(dee.me, "record.vote", dee.table_id, 5, {"vote": vote}).encode()
    german, english = _both(_refused(ann.receive(dee.me.public_key, data)))
    name = ann.name(3)
    assert english == f"illegal: {name} voted to remove themselves"
    assert german == f"{name} hat für das eigene Entfernen gestimmt"

def test_a_message_that_breaks_its_schema_names_its_kind_in_german() -> None:
    cores, _net = make_cores(3)
    ann, cyd = cores[0], cores[2]
    data = sign_envelope(cyd.me, "chat", cyd.table_id, 5, {"text": 7}).encode()
    german, english = _both(_refused(ann.receive(cyd.me.public_key, data)))
    assert english == "malformed: 'chat' body field 'text' is int, not str"
    assert german == "fehlerhaft aufgebaut (eine Chat-Zeile)"
