"""A lossy, slow bridge in user space, for kernels without ``sch_netem``.

Run inside the bridge's namespace once the ports have left ``br0``
(:meth:`tests.e2e.netns.Lan.impair`): each frame that a host sends into its port is dropped
with probability ``--loss`` percent, else forwarded to every other port ``--delay`` ms later.
That is what ``netem loss L% delay D ms`` on every host's ``eth0`` egress does to a frame, with
flooding in place of MAC learning (harmless on a handful of ports). A seeded ``random.Random``
makes the drops reproducible. Stops on SIGTERM.
"""

from __future__ import annotations

import argparse
import array
import contextlib
import heapq
import random
import select
import signal
import socket
import struct
import sys
import time
from types import FrameType

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


def _ones_complement_sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\x00"
    total = sum(array.array("H", data))  # native order; byte-swapped once at the end
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def fix_checksum(frame: bytes) -> bytes:
    """The frame with its TCP or UDP checksum (RFC 793, RFC 768) computed afresh.

    A veth hands frames to packet sockets before the checksum is filled in (checksum offload,
    ``CHECKSUM_PARTIAL``); sent as they are, the receiver would drop them.
    """
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return frame
    ihl = (frame[14] & 0x0F) * 4
    total = struct.unpack_from("!H", frame, 16)[0]
    proto = frame[23]
    offset = {6: 16, 17: 6}.get(proto)
    start, end = 14 + ihl, 14 + total
    if offset is None or end > len(frame) or end - start < offset + 2:
        return frame
    segment = bytearray(frame[start:end])
    segment[offset : offset + 2] = b"\x00\x00"
    pseudo = frame[26:34] + struct.pack("!BBH", 0, proto, len(segment))
    folded = _ones_complement_sum(pseudo + bytes(segment))
    checksum = ~socket.ntohs(folded) & 0xFFFF
    if proto == 17 and checksum == 0:
        checksum = 0xFFFF
    struct.pack_into("!H", segment, offset, checksum)
    return frame[:start] + bytes(segment) + frame[end:]


def forward(ports: list[str], loss: float, delay: float, seed: int) -> tuple[int, int]:
    """Forward frames between ``ports`` until SIGTERM; returns (frames forwarded, dropped)."""
    stop = False

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    rng = random.Random(seed)
    socks = {}
    for port in ports:
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.bind((port, 0))
        s.setblocking(False)
        socks[port] = s
    by_fd = {s.fileno(): port for port, s in socks.items()}
    queue: list[tuple[float, int, str, bytes]] = []
    counter = forwarded = dropped = 0
    print("forwarding", flush=True)
    while not stop:
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else 0.2
        ready, _, _ = select.select(list(by_fd), [], [], min(timeout, 0.2))
        for fd in ready:
            port = by_fd[fd]
            while True:
                try:
                    frame, address = socks[port].recvfrom(65535)
                except BlockingIOError:
                    break
                if address[2] == PACKET_OUTGOING:
                    continue
                if rng.random() * 100 < loss:
                    dropped += 1
                    continue
                counter += 1
                heapq.heappush(queue, (time.monotonic() + delay / 1000, counter, port,
                                       fix_checksum(frame)))
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, source, frame = heapq.heappop(queue)
            for port, s in socks.items():
                if port != source:
                    with contextlib.suppress(OSError):
                        s.send(frame)
            forwarded += 1
    return forwarded, dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("ports", nargs="+", help="the interfaces to bridge")
    parser.add_argument("--loss", type=float, default=10.0, help="percent of frames dropped")
    parser.add_argument("--delay", type=float, default=100.0, help="ms added to each frame")
    parser.add_argument("--seed", type=int, default=7, help="seed of the drops")
    args = parser.parse_args(argv)
    forwarded, dropped = forward(args.ports, args.loss, args.delay, args.seed)
    print(f"forwarded {forwarded}, dropped {dropped}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
