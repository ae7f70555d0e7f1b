"""Network failures in words (issue 25, item 14: "(ConnectionClosedOK)" in a join error): the
real exceptions of websockets, the sockets and python-zeroconf, each said in a sentence, its
class only in the ``--verbose`` log."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket

import pytest
import zeroconf
from websockets.datastructures import Headers
from websockets.exceptions import (
    ConnectionClosedError,
    ConnectionClosedOK,
    InvalidStatus,
    InvalidURI,
)
from websockets.frames import Close
from websockets.http11 import Response

from lancards.cli.bench.net import free_ports
from lancards.p2p.net.failure_words import failure_words
from lancards.p2p.net.transport import probe_key
from lancards.p2p.protocol.errors import TransportError
from lancards.p2p.protocol.identity import Identity
from tests.p2p.net.closing_server import closing_server

CASES = [
    (ConnectionClosedOK(Close(1000, ""), Close(1000, ""), True),
     "the host closed the connection"),
    (ConnectionClosedError(None, None), "the host closed the connection"),
    (TimeoutError(), "the host did not answer in time"),
    (InvalidStatus(Response(503, "Service Unavailable", Headers())),
     "the host did not answer as a lancards table does"),
    (InvalidURI("ws://[::1", "bad"), "the host is not an address this machine can dial"),
    (ConnectionRefusedError(errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED)),
     "the host refused the connection: nothing listens at that port"),
    (OSError(errno.EHOSTUNREACH, os.strerror(errno.EHOSTUNREACH)),
     "the host cannot be reached from this machine (no route)"),
    (OSError(errno.ENETDOWN, "Network is down"), "cannot reach the host: network is down"),
    (OSError("unreachable"), "the network failed on the way to the host"),
    (socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
     "the name of the host is not known on this network"),
    (zeroconf.NonUniqueNameException(), "multicast DNS (mDNS) failed on this network"),
    (TransportError("no lancards table answers at 10.0.0.2:4000"),
     "no lancards table answers at 10.0.0.2:4000"),
    (KeyError("x"), "an unexpected failure on the way to the host"),
]


@pytest.mark.parametrize(("exc", "words"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_each_failure_in_words_and_its_class_in_the_log(caplog, exc, words):
    with caplog.at_level(logging.DEBUG, logger="lancards.net"):
        assert failure_words(exc) == words
    assert caplog.messages == [f"{words} ({type(exc).__name__}: {exc})"]


def test_a_timeout_names_the_seconds_waited_and_the_other_end():
    assert failure_words(TimeoutError(), "10.0.0.2:4000", 15) == \
        "10.0.0.2:4000 did not answer within 15 s"
    assert failure_words(TimeoutError(), timeout=2.5) == "the host did not answer within 2.5 s"


def test_a_probe_the_host_closes_says_so_in_words(caplog):
    me = Identity(bytes(32), "ann")
    with closing_server() as port, caplog.at_level(logging.DEBUG, logger="lancards.net"), \
            pytest.raises(TransportError) as caught:
        asyncio.run(probe_key("127.0.0.1", port, me, timeout=5))
    assert str(caught.value) == (
        f"no lancards table answers at 127.0.0.1:{port} (the host closed the "
        "connection), or it takes no more players (full or started)")
    assert "ConnectionClosedOK" in caplog.text  # for --verbose only


def test_a_probe_where_nothing_listens_says_so_in_words():
    [port] = free_ports(1)
    with pytest.raises(TransportError) as caught:
        asyncio.run(probe_key("127.0.0.1", port, Identity(bytes(32), "ann"), timeout=5))
    assert str(caught.value) == (
        f"no lancards table answers at 127.0.0.1:{port} (the host refused the connection: "
        "nothing listens at that port), or it takes no more players (full or started)")
