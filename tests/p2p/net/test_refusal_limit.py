"""A stranger's junk connections on the LAN, as the table tells them (``p2p/net/refusal_limit.py``):
the re-check trial with a seated attacker read 15 lines ``! rejected message from
10.236.0.13:43340: handshake: bad JSON at char 0: expecting value``, one per connection. Now one
line a minute per remote host; the rest go to the ``--verbose`` log."""

from __future__ import annotations

import logging

import pytest

from lancards.cli import i18n
from lancards.cli.peer_errors import error_words
from lancards.p2p.net.refusal_limit import RefusalLimit, remote_host
from lancards.p2p.net.transport import Rejected
from lancards.p2p.protocol.errors import FrameError, HandshakeError, Reason
from lancards.p2p.protocol.identity import fingerprint
from tests.p2p.core_harness import make_cores

JUNK = "bad JSON at char 0: expecting value"


def junk(port: int, host: str = "10.236.0.13") -> Rejected:
    address = f"{host}:{port}"
    return Rejected(address, HandshakeError(address, Reason.HANDSHAKE, JUNK))


def test_fifteen_junk_connections_are_one_line_a_minute_per_host(
        caplog: pytest.LogCaptureFixture) -> None:
    cores, _net = make_cores(4)
    limit = RefusalLimit()
    caplog.set_level(logging.DEBUG, logger="lancards.net")
    told = [limit.notice(junk(43340 + i), cores[0], 100.0 + i) for i in range(15)]
    texts = [n.text for n in told if n is not None]
    assert texts == [f"rejected message from 10.236.0.13:43340: handshake: {JUNK}"]
    hidden = [r.getMessage() for r in caplog.records if r.name == "lancards.net"]
    assert len(hidden) == 14
    assert hidden[0] == ("not on the table (one line a minute per address): rejected message "
                         f"from 10.236.0.13:43341: handshake: {JUNK}")
    i18n.set_language("de")
    try:  # the table's line, in German as in English: one for the 15
        assert [error_words(n.error) for n in told if n is not None and n.error] == [
            "Nachricht von 10.236.0.13:43340 abgelehnt: die Begrüßung der Verbindung schlug fehl"]
    finally:
        i18n.set_language("en")
    text = HandshakeError("10.236.0.13:43355", Reason.HANDSHAKE, "hello must be a binary frame")
    assert limit.notice(Rejected("10.236.0.13:43355", text), cores[0], 159.9) is None
    again = limit.notice(junk(43356), cores[0], 160.0)  # a minute after the first line
    assert again is not None and again.text == \
        f"rejected message from 10.236.0.13:43356: handshake: {JUNK}"
    other = limit.notice(junk(5000, "10.236.0.14"), cores[0], 160.5)  # another host
    assert other is not None and other.text == \
        f"rejected message from 10.236.0.14:5000: handshake: {JUNK}"


def test_an_unseated_key_counts_by_host_and_a_seated_peer_is_always_told() -> None:
    cores, _net = make_cores(4)
    limit = RefusalLimit()
    stranger = bytes(range(32))
    name = f"[{fingerprint(stranger)}] at 10.0.0.9:4000"
    assert remote_host(name) == "10.0.0.9" and remote_host("10.0.0.9:4001") == "10.0.0.9"
    frame = Rejected(name, FrameError(name, Reason.BAD_FRAME, "x"), stranger)
    assert limit.notice(frame, cores[0], 0.0) is not None
    assert limit.notice(junk(4001, "10.0.0.9"), cores[0], 1.0) is None
    dee = cores[3].me.public_key
    seated = f"[{fingerprint(dee)}] at 10.0.0.9:4002"
    told = [limit.notice(Rejected(seated, FrameError(seated, Reason.OVERSIZED, "y"), dee),
                         cores[0], 2.0 + i) for i in range(3)]
    assert [n.seat for n in told if n is not None] == [3, 3, 3]
