"""Every refusal the peer layer raises about another seat's message says in German what was
wrong, with the values of its English detail (``cli/rejection_details.py``): German lines said
only the reason's kind (``fehlerhaft aufgebaut``, ``die Regeln erlauben es nicht``) for about
170 refusals, and ``at HOST:PORT`` stayed English inside them.

The source walk finds each place in ``p2p/`` that builds a refusal (an error with a
:class:`Reason`), so a new refusal without a code, or with a code or a value German does not
say, fails here."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.i18n import _
from lancards.cli.peer_errors import error_words
from lancards.cli.rejection_details import (
    DETAIL_WORDS,
    ENTRY_WORDS,
    KIND_WORDS,
    PROOF_WORDS,
    PURPOSE_WORDS,
)
from lancards.engine.core import RulesError
from lancards.p2p.protocol.core import Notice
from lancards.p2p.protocol.errors import FrameError, Reason, RecordError, RemoteProtocolError
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.wire import MAX_MESSAGE_BYTES, sign_envelope
from tests.p2p.core_harness import make_cores

pytestmark = pytest.mark.usefixtures("german")

P2P = Path(__file__).resolve().parents[2] / "p2p"

REFUSALS = {"RemoteProtocolError", "MessageError", "RecordError", "SealedError", "TableError",
            "HandshakeError", "FrameError", "EquivocationError"}
"""The errors that refuse a peer's message (``p2p/protocol/errors.py``)."""

FORWARDED = {("wire.py", "_Reject"), ("votes.py", "Refusal"), ("rematch.py", "LocalProtocolError")}
"""Where a refusal takes its code from another error (``.with_code(exc.code, **exc.params)``):
the code is made there (a JSON value refused while parsing, a removal vote's problem, a next
game proposed too early)."""

SET_IN_INIT = {("core_parts.py", "DeferredProofError"), ("errors.py", "EquivocationError")}
"""The refusals built by a subclass's ``__init__``: their code is set beside it (a proof) or
where they are raised (an equivocation)."""


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(
        func, ast.Attribute) else ""


def _is_refusal(call: ast.Call) -> bool:
    """A call that builds a refusal: one of :data:`REFUSALS`, or any call given a
    ``Reason.X`` (``self._error(Reason.HANDSHAKE, ...)``, ``error(sender, Reason...)``)."""
    return _name(call) in REFUSALS or any(
        isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "Reason"
        for a in call.args)


def _code_of(coded: ast.Call) -> list[tuple[str, set[str] | None]]:
    """The codes a ``.with_code(...)`` call gives, with the names of their values (``None``
    when they are forwarded with ``**``)."""
    names = None if any(k.arg is None for k in coded.keywords) else {
        str(k.arg) for k in coded.keywords}
    firsts = [coded.args[0]]
    if isinstance(firsts[0], ast.IfExp):  # "after-lobby-closed" if ... else "...-started"
        firsts = [firsts[0].body, firsts[0].orelse]
    codes: list[tuple[str, set[str] | None]] = []
    for first in firsts:
        if isinstance(first, ast.Constant):
            codes.append((str(first.value), names))
        elif isinstance(first, ast.JoinedStr):  # f"unseated-{what}": each code of that prefix
            prefix = first.values[0]
            assert isinstance(prefix, ast.Constant)
            codes.append((f"{prefix.value}*", names))
        else:  # forwarded: made where FORWARDED says
            assert isinstance(first, ast.Attribute) and first.attr == "code", ast.unparse(coded)
    return codes


def _forwarded_codes() -> list[tuple[str, str, set[str] | None]]:
    """The codes made where :data:`FORWARDED` says."""
    found: list[tuple[str, str, set[str] | None]] = []
    for file, maker in FORWARDED:
        tree = ast.parse((P2P / "protocol" / file).read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            if _name(node) == maker and maker != "LocalProtocolError" and len(node.args) > 1:
                code = node.args[1]
                if isinstance(code, ast.Constant):
                    found.append((file, str(code.value), {str(k.arg) for k in node.keywords}))
            if (_name(node) == "with_code" and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Call)
                    and _name(node.func.value) == maker):
                found += [(file, *one) for one in _code_of(node)]
    assert found
    return found


def _all_codes() -> list[tuple[str, str, set[str] | None]]:
    return _codes_same_trees() + _forwarded_codes()


def _codes_same_trees() -> list[tuple[str, str, set[str] | None]]:
    found: list[tuple[str, str, set[str] | None]] = []
    unmarked: list[str] = []
    for path in sorted(P2P.rglob("*.py")):
        if "crypto" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        parents: dict[ast.AST, ast.AST] = {}
        owner: dict[ast.AST, str] = {}
        calls: dict[int, ast.Call] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
                owner[child] = (node.name if isinstance(
                    node, ast.FunctionDef | ast.ClassDef) else owner.get(node, ""))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                calls[id(node.func)] = node
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _is_refusal(node)):
                continue
            where = owner.get(node, "")
            if where == "_error":  # HelloHandshake's helper: its callers give the code
                continue
            if _name(node) == "__init__":  # super().__init__ of a refusal's subclass
                if (path.name, _class_of(node, parents)) not in SET_IN_INIT:
                    unmarked.append(f"{path.name}:{node.lineno}")
                continue
            parent = parents.get(node)
            if not (isinstance(parent, ast.Attribute) and parent.attr == "with_code"):
                unmarked.append(f"{path.name}:{node.lineno}")
                continue
            found += [(path.name, *one) for one in _code_of(calls[id(parent)])]
    assert unmarked == [], f"refusals without a code (.with_code): {unmarked}"
    return found


def _class_of(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.ClassDef):
            return node.name
    return ""


def _fields(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_refusal_in_p2p_has_a_code_with_german_words_for_each_value() -> None:
    codes = _all_codes()
    assert len(codes) > 150  # the walk sees the refusals (about 170 places)
    for file, code, names in codes:
        if code == "schema":  # a schema's kind of message (KIND_WORDS)
            continue
        keys = [k for k in DETAIL_WORDS if k.startswith(code[:-1])] if code.endswith("*") \
            else [code] if code in DETAIL_WORDS else []
        assert keys, f"{file}: code {code!r} has no words in DETAIL_WORDS"
        for key in keys:
            german = _(DETAIL_WORDS[key])
            words = "".join(text for text, *_rest in string.Formatter().parse(german))
            assert german != DETAIL_WORDS[key] or not words.strip(": "), f"{key!r}: no German"
            if names is not None:  # each value the site gives is in the German sentence
                assert names <= _fields(german), (file, key, names - _fields(german))
                assert _fields(german) - {"reason"} <= names, (file, key)


def _sample(field: str, number: int) -> tuple[object, str]:
    """A value for ``field`` and the German text it must show as."""
    tables = {"type": KIND_WORDS, "entry": ENTRY_WORDS, "due_entry": ENTRY_WORDS,
              "proof": PROOF_WORDS, "purpose": PURPOSE_WORDS, "here_purpose": PURPOSE_WORDS}
    if field in tables:
        key = sorted(tables[field])[number % len(tables[field])]
        return key, _(tables[field][key])
    if field == "error":
        error = RulesError("option dealer must be a seat 0 to 5, not 9").with_code(
            "table-dealer", value=9)
        return error, "9"
    return f"v{number}x", f"v{number}x"


@pytest.mark.parametrize("code", sorted(DETAIL_WORDS))
def test_each_refusal_code_reads_in_german_with_its_values(code: str) -> None:
    fields = sorted(_fields(DETAIL_WORDS[code]) - {"reason"})
    samples = {field: _sample(field, 101 + i) for i, field in enumerate(fields)}
    detail = "the English detail " + " ".join(str(v) for v, _shown in samples.values())
    exc = RemoteProtocolError("eve [AAAA-BBBB] (seat 3)", Reason.MALFORMED, detail).with_code(
        code, **{field: value for field, (value, _shown) in samples.items()})
    line = error_words(exc)
    assert line.startswith("Nachricht von eve [AAAA-BBBB] (Platz 3) abgelehnt: ")
    assert detail not in line and "rejected" not in line
    for field, (_value, shown) in samples.items():
        assert shown in line, (field, line)


# -- exact lines, each refusal made by the peer layer from a hostile seat's bytes ---------------


def _refused(outputs: list) -> str:
    [notice] = [o for o in outputs if isinstance(o, Notice) and o.kind == "rejected"]
    assert notice.error is not None
    return error_words(notice.error)


@pytest.fixture
def table() -> tuple:
    """ann and cyd of a new table (each test's own: the message numbers it sends count)."""
    cores, _net = make_cores(3)
    return cores[0], cores[2]


def test_an_old_message_number_says_the_last_one_taken(table: tuple) -> None:
    ann, cyd = table
    sender = "bob [NI4A-HVPQ-LGIC-UHDN]"
    [chat] = ann.receive(cyd.me.public_key, sign_envelope(
        cyd.me, "chat", cyd.table_id, 70, {"text": "hi"}).encode())
    assert isinstance(chat, Notice) and chat.kind == "chat"
    line = _refused(ann.receive(cyd.me.public_key, sign_envelope(
        cyd.me, "chat", cyd.table_id, 50, {"text": "hi"}).encode()))
    assert line == (f"Nachricht von {sender} abgelehnt (Platz 3, Nachricht 50): schon einmal "
                    "erhalten: eine Chat-Zeile; zuletzt angenommen war Nummer 70")


def test_a_wrong_signature_names_the_kind_of_message(table: tuple) -> None:
    ann, cyd = table
    data = sign_envelope(cyd.me, "chat", cyd.table_id, 80, {"text": "hi"}).encode()
    line = _refused(ann.receive(cyd.me.public_key, data.replace(b'"hi"', b'"Hi"')))
    assert line == ("Nachricht von bob [NI4A-HVPQ-LGIC-UHDN] abgelehnt (Platz 3, Nachricht "
                    "80): die Signatur stimmt nicht: eine Chat-Zeile")


def test_an_unknown_kind_of_message_is_named_as_it_came(table: tuple) -> None:
    ann, cyd = table
    line = _refused(ann.receive(cyd.me.public_key, sign_envelope(
        cyd.me, "zzz.what", cyd.table_id, 90, {}).encode()))
    assert line == ("Nachricht von bob [NI4A-HVPQ-LGIC-UHDN] (Platz 3) abgelehnt: von einer "
                    "Art, die dieses Programm nicht kennt: „zzz.what“")


def test_an_unknown_kind_of_message_is_quoted_in_english_quotation_marks(table: tuple) -> None:
    """The LAN trial with a seated attacker: an English table read „record.gossip“."""
    ann, cyd = table
    i18n.set_language("en")
    line = _refused(ann.receive(cyd.me.public_key, sign_envelope(
        cyd.me, "zzz.what", cyd.table_id, 90, {}).encode()))
    assert line == ("message from bob [NI4A-HVPQ-LGIC-UHDN] (seat 3) refused: of a kind this "
                    "program does not know: “zzz.what”")


def test_an_oversized_message_says_its_size_and_the_limit(table: tuple) -> None:
    ann, cyd = table
    data = sign_envelope(cyd.me, "chat", cyd.table_id, 95, {"text": "x"}).encode()
    data = data + b" " * (MAX_MESSAGE_BYTES + 1 - len(data))
    line = _refused(ann.receive(cyd.me.public_key, data))
    assert line == (f"Nachricht von bob [NI4A-HVPQ-LGIC-UHDN] (Platz 3) abgelehnt: zu groß: "
                    f"{MAX_MESSAGE_BYTES + 1} Byte, höchstens {MAX_MESSAGE_BYTES}")


def test_an_entry_out_of_turn_says_whose_entry_the_record_waits_for(table: tuple) -> None:
    """cyd (seat 3) signs a move where the record waits for seat 1's key."""
    ann, cyd = table
    record = cyd.record
    entry = Entry(record.table, len(record), cyd.me.public_key, record.head,
                  {"t": "action", "a": "1: draw", "open": []}, cyd.state_hash(), b"")
    entry = Entry(entry.table, entry.seq, entry.author, entry.prev, entry.payload, entry.state,
                  cyd.me.sign(entry.signed_bytes()))
    with pytest.raises(RecordError) as refused:
        ann.validator("test")(ann.record, entry)
    i18n.set_language("en")
    english = error_words(refused.value)
    i18n.set_language("de")
    assert english == ("message from bob [NI4A-HVPQ-LGIC-UHDN] refused (seat 3, entry 1): out of "
                       "turn: an entry 'move' by seat 3; the record waits for 'key' by seat 1")
    assert error_words(refused.value) == (
        "Nachricht von bob [NI4A-HVPQ-LGIC-UHDN] abgelehnt (Platz 3, Eintrag 1): außer der "
        "Reihe: ein Eintrag „Zug“ von Platz 3; das Protokoll wartet auf „Schlüssel“ von Platz 1")


def test_a_link_address_reads_german_in_a_german_line() -> None:
    """``at HOST:PORT`` (a refused frame or greeting) was left English in a German line."""
    refused = FrameError("eve [UHN7-AB12] at 10.236.0.13:43340", Reason.OVERSIZED,
                         "a frame larger than 262144 bytes closed the link").with_code(
                             "frame-size", limit=262144)
    assert error_words(refused) == ("Nachricht von eve [UHN7-AB12] über 10.236.0.13:43340 "
                                    "abgelehnt: zu groß: ein Teil größer als 262144 Byte hat die "
                                    "Verbindung beendet")
    bare = FrameError("[UHN7-AB12] at [fe80::1]:4000", Reason.BAD_FRAME, "a text frame closed "
                      "the link (every frame is binary)").with_code("text-frame")
    assert error_words(bare) == ("Nachricht von [UHN7-AB12] über [fe80::1]:4000 abgelehnt: "
                                 "unterwegs verändert: ein als Text gesendeter Teil hat die "
                                 "Verbindung beendet (jeder Teil besteht aus Bytes)")
