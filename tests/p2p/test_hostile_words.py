"""How a seated peer's bad messages are said (the LAN trial of 2026-12-08, findings 3, 4, 6):
an envelope's ``seq`` is a message number, not a record entry; msgspec's phrasing never reaches
the rejection line; a chat line's bidirectional controls are shown, not obeyed. In memory
through :class:`GameCore` (every message through the real codec)."""

from __future__ import annotations

import pytest

from lancards.cli.notice_lines import notice_line
from lancards.p2p.protocol.core import Notice
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import check_nickname
from lancards.p2p.protocol.schema_words import explain
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_cores

CYD = "rejected message from cyd [WYXI-M75C-6M5P-4YWV] (seat 1)"  # counted from 1


@pytest.fixture
def table():
    cores, _net = make_cores(3, "level8-master", seed="words")
    return cores


def said(table, type_: str, body: dict, seq: int) -> list[str]:
    cyd, ann = table[0], table[1]
    data = sign_envelope(cyd.me, type_, cyd.table_id, seq, body).encode()
    return [x.text for x in ann.receive(cyd.me.public_key, data) if isinstance(x, Notice)]


def test_a_replayed_chat_is_a_message_number_not_an_entry(table):
    assert said(table, "chat", {"text": "first"}, 100002) == ["first"]
    assert said(table, "chat", {"text": "first"}, 100002) == [
        f"{CYD[:-1]}, message 100002): replayed: 'chat' seq 100002 is not above the last accepted "
        "seq 100002"]


@pytest.mark.parametrize(("type_", "body", "words"), [
    ("chat", {"text": "A" * 200_000}, "'chat' body field 'text' is longer than 4000 characters"),
    ("chat", {"text": 5}, "'chat' body field 'text' is int, not str"),
    ("links", {"missing": [0, 1, 2, 3, 4, 5, 0]},
     "'links' body field 'missing' has more than 6 items"),
    ("presence", {"state": "zzz"}, "'presence' body field 'state' holds 'zzz', which it may not"),
    ("chat", {"text": "mid\x00dle"}, "'chat' body field 'text' holds NUL (U+0000)"),  # not $.
])
def test_a_bad_body_is_said_in_plain_words(table, type_, body, words):
    [line] = said(table, type_, body, 100100 + len(words))
    assert line == f"{CYD}: malformed: {words}"


@pytest.mark.parametrize(("message", "words"), [
    ("Expected `str` of length >= 3 - at `$.s`", "'x' body field 's' is shorter than 3 characters"),
    ("Expected `object` of length <= 1 - at `$.d`", "'x' body field 'd' has more than 1 keys"),
    ("Expected `int` >= 0 - at `$.seq`", "'x' body field 'seq' is below 0"),
    ("Expected `int` <= 5 - at `$.shares[3].seat`", "'x' body field 'shares'[3].seat is above 5"),
    ("Expected `str` matching regex '\\\\A[0-9a-f]{64}\\\\Z' - at `$.head`",
     "'x' body field 'head' is not of its form"),
    ("Expected `array` of length 2, got 1 - at `$.t`", "'x' body field 't' has 1 items, not 2"),
    ("Invalid value 'c' - at `$.t`", "'x' body field 't' holds 'c', which it may not"),
    ("Expected `int`, got `str` - at `$.l[1]`", "'x' body field 'l'[1] is str, not int"),
    ("Expected `object`, got `array`", "'x' body is list, not an object"),
    ("Object missing required field `a` - at `$.payload`",
     "'x' body field 'payload' lacks field 'a'"),
    ("Object contains unknown field `z` - at `$.p[2]`",
     "'x' body field 'p'[2] has unknown field 'z'"),
    ("Object missing required field `a`", "'x' body lacks field 'a'"),
    ("Something new - at `$.a.b`", "'x' body field 'a'.b: Something new"),
    ("Expected `str` matching regex '\\\\A[0-5]\\\\Z' - at `key` in `$.parts`",
     "a key of 'x' body field 'parts' is not of its form"),
])
def test_every_msgspec_message_shape_is_said_in_plain_words(message, words):
    assert explain(message, "'x' body") == words


def test_a_chat_line_shows_bidirectional_controls_instead_of_obeying_them(table):
    ann = table[1]
    text = "\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069i\u200ej\u200fk\u061cl"
    [chat] = said(table, "chat", {"text": text}, 100300)
    notice = Notice("chat", chat, 0)
    assert notice_line(ann, notice, ["cyd", "ann", "ben"], ["cyd", "Du", "ben"]) == (
        "cyd: <U+202A>a<U+202B>b<U+202C>c<U+202D>d<U+202E>e<U+2066>f<U+2067>g<U+2068>h"
        "<U+2069>i<U+200E>j<U+200F>k<U+061C>l")


@pytest.mark.parametrize("nick", ["Cyd\u202e", "Cy\u2066d", "\u200eCyd", "Cy\u061cd"])
def test_a_nickname_with_a_bidirectional_control_is_refused(nick):
    with pytest.raises(LocalProtocolError, match="holds a control character"):
        check_nickname(nick)


def _line(table, notices: list[Notice]) -> list[str | None]:
    """The table lines of ``notices`` as ann's screen shows them."""
    return [notice_line(table[1], n, ["cyd", "ann", "ben"], ["cyd", "You", "ben"])
            for n in notices]


def _notices(table, data: bytes) -> list[Notice]:
    cyd, ann = table[0], table[1]
    return [x for x in ann.receive(cyd.me.public_key, data) if isinstance(x, Notice)]


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_old_message_sent_again_and_a_bad_signature_are_said_in_words(table, language):
    """The LAN trial with a seated attacker: ann's table read ``received before: an entry of
    the game record; the last one taken was numbered 12`` and ``its signature does not verify:
    the signature by eve [FP] (seat 1)``. Now the table says what happened and who did it, in
    words; the peer layer's sentence stays for --verbose (the notice's text)."""
    from lancards.cli import i18n

    cyd = table[0]
    data = sign_envelope(cyd.me, "chat", cyd.table_id, 100400, {"text": "first"}).encode()
    assert [n.text for n in _notices(table, data)] == ["first"]
    [again] = _notices(table, data)
    assert "replayed" in again.text  # the peer layer's sentence, for --verbose
    forged = sign_envelope(cyd.me, "chat", cyd.table_id, 100401, {"text": "second"})
    tampered = forged.encode().replace(b'"second"', b'"SECOND"')
    [bad] = _notices(table, tampered)
    assert "does not verify" in bad.text
    i18n.set_language(language)
    try:
        assert _line(table, [again, bad]) == {
            "en": ["! cyd sent an earlier message again, one already received: ignored",
                   "! a message said to be cyd's does not carry cyd's signature: ignored"],
            "de": ["! cyd hat eine frühere Nachricht noch einmal geschickt, die schon da war: "
                   "ignoriert",
                   "! eine Nachricht, angeblich von cyd, trägt nicht die Signatur von cyd: "
                   "ignoriert"],
        }[language]
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_entry_sent_again_and_an_entry_with_a_bad_signature_are_said_in_words(table,
                                                                                   language):
    """A record entry already in the record, sent again, and one whose signature is not its
    claimed author's (the record's own refusals, ``entry-again``, ``entry-signature``)."""
    from lancards.cli import i18n
    from lancards.p2p.protocol.errors import Reason, RecordError

    eve = "eve [6J4G-VXMG-NOVI-RZH4] (seat 1)"
    again = RecordError(eve, Reason.REPLAYED, "entry 12 is already in the record", 11
                        ).with_code("entry-again", seq=12)
    forged = RecordError(eve + " (unverified)", Reason.BAD_SIGNATURE,
                         f"signature by {eve} does not verify", 11
                         ).with_code("entry-signature", name=eve)
    notices = [Notice("rejected", str(e), None, error=e) for e in (again, forged)]
    i18n.set_language(language)
    try:
        assert _line(table, notices) == {
            "en": ["! eve sent step 12 of the game again, which the table already has: ignored",
                   "! a message said to be eve's does not carry eve's signature: ignored"],
            "de": ["! eve hat Schritt 12 des Spiels noch einmal geschickt, den der Tisch schon "
                   "hat: ignoriert",
                   "! eine Nachricht, angeblich von eve, trägt nicht die Signatur von eve: "
                   "ignoriert"],
        }[language]
    finally:
        i18n.set_language("en")
