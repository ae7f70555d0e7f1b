"""A passive listener: every frame on every interface of this namespace, written as a pcap file.

Run it inside the bridge's namespace (``ip netns exec T-br python -m tests.e2e.sniff OUT``):
an ``AF_PACKET`` raw socket bound to no interface sees every frame that enters or leaves any
port of the bridge, that is, every packet between the hosts. The file is classic pcap
(magic ``0xa1b2c3d4``, link type 1, Ethernet), readable by tcpdump and Wireshark.

It stops on SIGTERM or SIGINT, or after ``--seconds``; it never sends anything.
"""

from __future__ import annotations

import argparse
import signal
import socket
import struct
import sys
import time
from types import FrameType

ETH_P_ALL = 0x0003
SNAPLEN = 65535
LINKTYPE_ETHERNET = 1
SO_RCVBUFFORCE = 33


def pcap_header() -> bytes:
    """The 24-byte global header of a classic pcap file (microsecond stamps, Ethernet)."""
    return struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, SNAPLEN, LINKTYPE_ETHERNET)


def pcap_record(stamp: float, frame: bytes) -> bytes:
    """One pcap record: 16-byte header, then the frame (cut at ``SNAPLEN``)."""
    data = frame[:SNAPLEN]
    seconds = int(stamp)
    return struct.pack("<IIII", seconds, int((stamp - seconds) * 1e6), len(data),
                       len(frame)) + data


def capture(out_path: str, seconds: float) -> int:
    """Write every frame seen until a signal or ``seconds`` pass; returns the frame count."""
    stop = False

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 16 << 20)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    sock.settimeout(0.2)
    count = 0
    end = time.monotonic() + seconds
    with open(out_path, "wb") as out:
        out.write(pcap_header())
        out.flush()
        print("listening", flush=True)
        while not stop and time.monotonic() < end:
            try:
                frame = sock.recv(SNAPLEN)
            except TimeoutError:
                continue
            except InterruptedError:
                continue
            out.write(pcap_record(time.time(), frame))
            count += 1
    sock.close()
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("out", help="the pcap file to write")
    parser.add_argument("--seconds", type=float, default=600.0, help="stop after (default 600)")
    args = parser.parse_args(argv)
    count = capture(args.out, args.seconds)
    print(f"frames: {count}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
