"""How a seated peer's bad messages are said (the LAN trial of 2026-12-08, findings 3, 4, 6):
an envelope's ``seq`` is a message number, not a record entry; msgspec's phrasing never reaches
the rejection line; a chat line's bidirectional controls are shown, not obeyed. In memory
through :class:`GameCore` (every message through the real codec)."""

from __future__ import annotations

import pytest

from lancards.p2p.protocol.core import Notice
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_cores

CYD = "rejected message from cyd [WYXI-M75C-6M5P-4YWV] (seat 0)"


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
        f"{CYD} (message 100002): replayed: 'chat' seq 100002 is not above the last accepted "
        "seq 100002"]
