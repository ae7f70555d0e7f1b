"""A refused frame on a seated peer's link, as the node tells it (``p2p/net/link_refusal.py``):
the LAN trial with a seated attacker read ``! rejected message from [UHN7-AROK-ESHV-6XBN] at
10.231.0.14:35184: oversized: ...``, the fingerprint alone, where every other refusal line
names the nickname."""

from __future__ import annotations

from lancards.p2p.net.link_refusal import refusal_notice
from lancards.p2p.protocol.errors import FrameError, HandshakeError, Reason
from lancards.p2p.protocol.identity import fingerprint
from tests.p2p.core_harness import make_cores

DETAIL = "a frame larger than 262144 bytes closed the link"


def test_a_seated_peers_refused_frame_names_its_nickname_and_seat() -> None:
    cores, _net = make_cores(4)
    ann, dee = cores[0], cores[3]
    key = dee.me.public_key
    error = FrameError(f"[{fingerprint(key)}] at 10.231.0.14:35184", Reason.OVERSIZED, DETAIL)
    notice = refusal_notice(error, key, ann)
    assert notice.kind == "rejected" and notice.seat == 3
    assert notice.text == (f"rejected message from dee [{fingerprint(key)}] at "
                           f"10.231.0.14:35184: oversized: {DETAIL}")
    assert isinstance(notice.error, FrameError) and notice.error.reason is Reason.OVERSIZED


def test_a_stranger_or_a_failed_hello_keeps_its_fingerprint() -> None:
    cores, _net = make_cores(4)
    stranger = bytes(range(32))
    error = FrameError(f"[{fingerprint(stranger)}] at 10.0.0.9:4000", Reason.BAD_FRAME, "x")
    notice = refusal_notice(error, stranger, cores[0])
    assert notice.seat is None and notice.error is error
    hello = HandshakeError("10.0.0.9:4000", Reason.HANDSHAKE, "hello must be a binary frame")
    assert refusal_notice(hello, None, cores[0]).error is hello
