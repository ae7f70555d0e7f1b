"""Benchmark (not a test): how fast a table appears and leaves across two namespaces.

``python -m tests.e2e.bench_discovery [--runs N]`` (root). A python-zeroconf browser
(``tests/p2p/net/mdns_peer.py browse``) runs on host b; on host a, an advertiser starts, is
found, and withdraws, ``runs`` times. Times are taken in this process when each helper's line
arrives (its clock), so they include the helpers' pipe latency. Prints one JSON line:

- ``found_ms``: from the advertiser's "registering" line (before probing, RFC 6762 section
  8.1, then announcing, 8.3) to the browser's "found" (median, max);
- ``removed_ms``: from "withdraw" sent to the browser's "removed" (the goodbye), median, max.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

from tests.e2e.netns import ROOT, Host, Lan

HELPER = ROOT / "tests" / "p2p" / "net" / "mdns_peer.py"


class Helper:
    def __init__(self, host: Host, *args: str) -> None:
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", host.netns, sys.executable, str(HELPER), args[0],
             host.address, *args[1:]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=ROOT, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.lines: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), json.loads(line)))

    def expect(self, event: str, timeout: float = 20.0) -> float:
        deadline = time.monotonic() + timeout
        while True:
            at, got = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if got["event"] == event:
                return at

    def tell(self, line: str) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    found, removed = [], []
    with Lan(2) as lan:
        a, b = lan.hosts
        browser = Helper(b, "browse", "--keep", "--for", str(30 * args.runs))
        try:
            browser.expect("browsing")
            for _ in range(args.runs):
                advertiser = Helper(a, "advertise", "--for", "60")
                try:
                    start = advertiser.expect("registering")
                    found.append(browser.expect("found") - start)
                    advertiser.expect("advertised")
                    sent = advertiser.tell("withdraw")
                    removed.append(browser.expect("removed") - sent)
                    advertiser.expect("withdrawn")
                finally:
                    advertiser.stop()
        finally:
            browser.stop()
    print(json.dumps({
        "bench": "discovery", "runs": args.runs,
        "found_ms": [round(statistics.median(found) * 1000, 1), round(max(found) * 1000, 1)],
        "removed_ms": [round(statistics.median(removed) * 1000, 1),
                       round(max(removed) * 1000, 1)],
    }))


if __name__ == "__main__":
    main()
