"""The listener's decoder on hand-made frames: pcap, TCP reassembly, WebSocket unmasking.

Pure and fast (no namespaces, no root): it runs in every suite run, so the passive-listener
test cannot pass because the decoder went blind.
"""

from __future__ import annotations

import struct

import pytest

from tests.e2e.capture import (
    CaptureError,
    Datagram,
    decode,
    read_pcap,
    tcp_streams,
    tokens_seen,
    websocket_messages,
)
from tests.e2e.sniff import pcap_header, pcap_record

A, B = ("10.231.0.11", 40000), ("10.231.0.12", 47000)


def ipv4(src: str, dst: str, proto: int, body: bytes) -> bytes:
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 0, 0, 64, proto, 0,
                         bytes(map(int, src.split("."))), bytes(map(int, dst.split("."))))
    return b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + header + body


def tcp(src, dst, seq: int, payload: bytes = b"", syn: bool = False) -> bytes:
    flags = 0x02 if syn else 0x18
    body = struct.pack("!HHIIBBHHH", src[1], dst[1], seq, 0, 5 << 4, flags, 65535, 0, 0)
    return ipv4(src[0], dst[0], 6, body + payload)


def udp(src, dst, payload: bytes) -> bytes:
    return ipv4(src[0], dst[0], 17, struct.pack("!HHHH", src[1], dst[1], 8 + len(payload), 0)
                + payload)


def ws_frame(payload: bytes, *, key: bytes | None = None, fin: bool = True,
             opcode: int = 2) -> bytes:
    head = bytes([(0x80 if fin else 0) | opcode])
    mask = 0x80 if key else 0
    n = len(payload)
    if n < 126:
        head += bytes([mask | n])
    elif n < 65536:
        head += bytes([mask | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask | 127]) + struct.pack("!Q", n)
    if key:
        return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))
    return head + payload


UPGRADE = b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\r\n"


def test_masked_message_split_reordered_and_duplicated():
    message = b'{"a":"2: discard R5#12","t":"action"}' * 10  # 370 bytes: 16-bit length
    stream = UPGRADE + ws_frame(message, key=b"\x8a\x01\xff\x10")
    isn = 0xFFFFFF00  # sequence numbers wrap inside the stream
    cut = [0, 30, 200, len(stream)]
    segments = [tcp(A, B, (isn + 1 + cut[i]) & 0xFFFFFFFF, stream[cut[i]:cut[i + 1]])
                for i in range(3)]
    frames = [tcp(A, B, isn, syn=True), segments[2], segments[0], segments[0], segments[1],
              segments[2]]
    streams = tcp_streams(frames)
    assert streams == {(A, B): stream}
    assert websocket_messages(streams[(A, B)]) == [message]
    assert message not in stream  # masked on the wire: only unmasking reveals it


def test_fragments_joined_control_frames_skipped_cut_frame_dropped():
    stream = (b"HTTP/1.1 101 Switching Protocols\r\n\r\n"
              + ws_frame(b"first ", fin=False) + ws_frame(b"", opcode=9)
              + ws_frame(b"half", fin=True, opcode=0) + ws_frame(b"x" * 70000)
              + ws_frame(b"cut short")[:-3])
    assert websocket_messages(stream) == [b"first half", b"x" * 70000]


def test_pcap_round_trip_and_errors(tmp_path):
    frames = [tcp(A, B, 7, b"hello"), udp(B, ("224.0.0.251", 5353), b"mdns")]
    path = tmp_path / "c.pcap"
    path.write_bytes(pcap_header() + b"".join(pcap_record(1.5, f) for f in frames)
                     + pcap_record(2.0, frames[0])[:-2])
    assert list(read_pcap(path)) == frames
    assert decode(frames[1]) == Datagram(B, ("224.0.0.251", 5353), b"mdns")
    assert decode(b"\x00" * 60) is None
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(b"\xa1\xb2\xc3\xd4" + pcap_header()[4:])  # big-endian: not read
    with pytest.raises(CaptureError, match="not Ethernet pcap"):
        list(read_pcap(bad))


@pytest.mark.parametrize(("text", "seen"), [
    (b"discard R5#12 now", {"R5#12"}),
    (b"discard R5#123", set()),
    (b"xR5#12", set()),
    (b'"J1-5#748=4"', {"J1-5#748"}),
    (b"R5#1", set()),
])
def test_token_boundaries(text, seen):
    assert tokens_seen([text], ["R5#12", "J1-5#748"]) == seen
