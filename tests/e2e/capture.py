"""What a passive listener can read from a pcap file: TCP streams, then WebSocket messages.

Pure functions (no I/O but :func:`read_pcap`). The listener on the bridge sees each frame more
than once (entering one port, leaving another) and sees TCP retransmissions: reassembly keys
each segment by its sequence number, so copies collapse. WebSocket frames (RFC 6455 section
5.2) from the dialing side are masked with a 4-byte key (section 5.3); unmasking them is part of
what any eavesdropper does, so the search runs over unmasked payloads.
"""

from __future__ import annotations

import re
import struct
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


class CaptureError(ValueError):
    """The pcap file is not one this reader understands (the reason and the offset)."""


def read_pcap(path: Path) -> Iterator[bytes]:
    """The frames of a classic little-endian pcap file (Ethernet), in order.

    Raises:
        CaptureError: wrong magic number or link type. A record cut short at the end (the
            listener was killed mid-write) ends the iteration quietly.
    """
    data = path.read_bytes()
    if len(data) < 24:
        raise CaptureError(f"{path}: {len(data)} bytes, shorter than a pcap header")
    magic, _, _, _, _, _, link = struct.unpack_from("<IHHiIII", data, 0)
    if magic != 0xA1B2C3D4 or link != 1:
        raise CaptureError(f"{path}: magic {magic:#x}, link type {link}: not Ethernet pcap")
    offset = 24
    while offset + 16 <= len(data):
        _, _, caplen, _ = struct.unpack_from("<IIII", data, offset)
        if offset + 16 + caplen > len(data):
            return
        yield data[offset + 16 : offset + 16 + caplen]
        offset += 16 + caplen


@dataclass(frozen=True, slots=True)
class Segment:
    """A TCP segment (IPv4): its flow, sequence number, flags and payload."""

    src: tuple[str, int]
    dst: tuple[str, int]
    seq: int
    syn: bool
    payload: bytes


@dataclass(frozen=True, slots=True)
class Datagram:
    """A UDP datagram (IPv4)."""

    src: tuple[str, int]
    dst: tuple[str, int]
    payload: bytes


def _ip(raw: bytes) -> str:
    return ".".join(str(b) for b in raw)


def decode(frame: bytes) -> Segment | Datagram | None:
    """The TCP segment or UDP datagram in an Ethernet frame (IPv4 only), else ``None``."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[0] >> 4 != 4 or ihl < 20 or len(ip) < ihl:
        return None
    total = struct.unpack_from("!H", ip, 2)[0]
    proto = ip[9]
    src, dst = _ip(ip[12:16]), _ip(ip[16:20])
    body = ip[ihl:total]
    if proto == 6 and len(body) >= 20:
        sport, dport, seq = struct.unpack_from("!HHI", body, 0)
        offset = (body[12] >> 4) * 4
        return Segment((src, sport), (dst, dport), seq, bool(body[13] & 0x02), body[offset:])
    if proto == 17 and len(body) >= 8:
        sport, dport = struct.unpack_from("!HH", body, 0)
        return Datagram((src, sport), (dst, dport), body[8:])
    return None


Flow = tuple[tuple[str, int], tuple[str, int]]


def tcp_streams(frames: Iterable[bytes]) -> dict[Flow, bytes]:
    """Reassemble each direction of each TCP connection into its byte stream.

    Bytes are placed by their offset from the SYN's sequence number (modulo 2**32); copies and
    retransmissions overwrite the same bytes. A flow whose SYN was not seen starts at its
    lowest sequence number. Bytes never seen (a gap) are left out.

    Returns:
        ``{(src, dst): stream}`` for every direction that carried data.
    """
    isn: dict[Flow, int] = {}
    pieces: dict[Flow, dict[int, bytes]] = defaultdict(dict)
    for frame in frames:
        seg = decode(frame)
        if not isinstance(seg, Segment):
            continue
        flow = (seg.src, seg.dst)
        if seg.syn:
            isn.setdefault(flow, (seg.seq + 1) & 0xFFFFFFFF)
        if seg.payload:
            known = pieces[flow].get(seg.seq, b"")
            if len(seg.payload) > len(known):
                pieces[flow][seg.seq] = seg.payload
    streams: dict[Flow, bytes] = {}
    for flow, parts in pieces.items():
        base = isn.get(flow, min(parts))
        out = bytearray()
        for rel, payload in sorted(((seq - base) & 0xFFFFFFFF, p) for seq, p in parts.items()):
            if rel + len(payload) <= len(out):
                continue
            if rel > len(out):  # a gap: keep what follows, it is still readable
                out.extend(b"\x00" * (rel - len(out)))
            out.extend(payload[len(out) - rel :])
        streams[flow] = bytes(out)
    return streams


def websocket_messages(stream: bytes) -> list[bytes]:
    """The unmasked payloads of the WebSocket frames in one direction of a connection.

    The HTTP upgrade (request or response, up to the blank line) is skipped; continuation
    frames are joined to their message; control frames are left out. Parsing stops at a frame
    cut short.
    """
    if stream.startswith((b"GET ", b"HTTP/")):
        end = stream.find(b"\r\n\r\n")
        if end < 0:
            return []
        stream = stream[end + 4 :]
    messages: list[bytes] = []
    partial = bytearray()
    pos = 0
    while pos + 2 <= len(stream):
        b0, b1 = stream[pos], stream[pos + 1]
        fin, opcode, masked, length = b0 & 0x80, b0 & 0x0F, b1 & 0x80, b1 & 0x7F
        pos += 2
        if length == 126:
            if pos + 2 > len(stream):
                break
            length = struct.unpack_from("!H", stream, pos)[0]
            pos += 2
        elif length == 127:
            if pos + 8 > len(stream):
                break
            length = struct.unpack_from("!Q", stream, pos)[0]
            pos += 8
        key = b""
        if masked:
            key = stream[pos : pos + 4]
            pos += 4
        if pos + length > len(stream):
            break
        payload = stream[pos : pos + length]
        pos += length
        if masked and len(key) == 4:
            payload = bytes(c ^ key[i % 4] for i, c in enumerate(payload))
        if opcode >= 0x8:
            continue
        partial.extend(payload)
        if fin:
            messages.append(bytes(partial))
            partial.clear()
    return messages


def readable_text(frames: Sequence[bytes]) -> list[bytes]:
    """Everything a listener can read: every WebSocket message, every raw TCP stream, every
    UDP payload (mDNS), each as one item."""
    streams = tcp_streams(frames)
    items: list[bytes] = []
    for stream in streams.values():
        items.append(stream)
        items.extend(websocket_messages(stream))
    for frame in frames:
        dgram = decode(frame)
        if isinstance(dgram, Datagram):
            items.append(dgram.payload)
    return items


def token_pattern(token: str) -> re.Pattern[bytes]:
    """A card token such as ``R5#12``, not inside a longer token (``R5#123``, ``xR5#12``)."""
    return re.compile(rb"(?<![A-Za-z0-9])" + re.escape(token.encode()) + rb"(?![0-9])")


def tokens_seen(items: Iterable[bytes], tokens: Iterable[str]) -> set[str]:
    """The tokens that occur in any of ``items``."""
    blob = b"\n".join(items)
    return {t for t in tokens if token_pattern(t).search(blob)}
