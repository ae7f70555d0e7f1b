"""mDNS discovery: TXT keys (pure), and two peers in network namespaces the test creates.

The namespace test builds two namespaces joined by a veth pair (10.213.0.1/24 and
10.213.0.2/24), advertises a table in one and browses in the other, each side a subprocess
bound to its namespace's address: nothing is multicast on the machine's real interfaces.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lancards.p2p.discovery import SERVICE_TYPE, TableAdvert, advert_to_txt, txt_to_advert
from lancards.p2p.errors import LocalProtocolError, MessageError, Reason

ROOT = Path(__file__).resolve().parents[3]
HELPER = Path(__file__).with_name("mdns_peer.py")
PK = bytes(range(32))


def test_txt_round_trip() -> None:
    advert = TableAdvert("00112233aabbccdd", "level8-master", 3, "ann", PK, 4000, ("10.0.0.1",))
    txt = advert_to_txt(advert)
    assert txt == {
        "v": "1",
        "tbl": "00112233aabbccdd",
        "game": "level8-master",
        "seats": "3",
        "nick": "ann",
        "pk": PK.hex(),
    }
    props = {k.encode(): v.encode() for k, v in txt.items()}
    assert txt_to_advert(props, "x", 4000, ["10.0.0.1"]) == advert
    assert advert.instance_name == f"00112233aabbccdd-00010203.{SERVICE_TYPE}"


@pytest.mark.parametrize(
    ("change", "detail"),
    [
        ({"v": b"2"}, "protocol version '2'"),
        ({"tbl": b"xyz"}, "table id 'xyz'"),
        ({"seats": b"9"}, "seats '9'"),
        ({"seats": b"-1"}, "seats '-1'"),
        ({"nick": b""}, "nick ''"),
        ({"nick": b"\xff"}, "not UTF-8"),
        ({"pk": b"00"}, "pk '00'"),
        ({"game": None}, "'game' is missing"),
    ],
)
def test_malformed_txt_is_rejected(change: dict[str, bytes | None], detail: str) -> None:
    props: dict[bytes, bytes | None] = {
        b"v": b"1",
        b"tbl": b"00112233aabbccdd",
        b"game": b"eights",
        b"seats": b"2",
        b"nick": b"bob",
        b"pk": PK.hex().encode(),
    }
    props.update({k.encode(): v for k, v in change.items()})
    with pytest.raises(MessageError) as info:
        txt_to_advert(props, "t._lancards._tcp.local.")
    assert (info.value.reason, info.value.sender) == (Reason.MALFORMED, "t._lancards._tcp.local.")
    assert detail in info.value.detail


def test_cannot_advertise_bad_values() -> None:
    with pytest.raises(LocalProtocolError, match="nick"):
        advert_to_txt(TableAdvert("00112233aabbccdd", "eights", 2, "x" * 30, PK))


# ---------------------------------------------------------------------------------------------
# Two namespaces.


def sh(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=10)


@pytest.fixture
def namespaces() -> Iterator[tuple[str, str]]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("needs root to create network namespaces")
    if shutil.which("ip") is None:
        pytest.skip("needs the ip command (iproute2) to create network namespaces")
    tag = f"{os.getpid() % 100000}"
    ns_a, ns_b = f"lcmdA{tag}", f"lcmdB{tag}"
    veth_a, veth_b = f"lcva{tag}", f"lcvb{tag}"
    try:
        try:
            sh("ip", "netns", "add", ns_a)
            sh("ip", "netns", "add", ns_b)
            sh(
                "ip",
                "link",
                "add",
                veth_a,
                "netns",
                ns_a,
                "type",
                "veth",
                "peer",
                "name",
                veth_b,
                "netns",
                ns_b,
            )
        except subprocess.CalledProcessError as exc:
            pytest.skip(f"cannot create network namespaces here: {exc.stderr.decode().strip()}")
        for ns, veth, addr in ((ns_a, veth_a, "10.213.0.1/24"), (ns_b, veth_b, "10.213.0.2/24")):
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "addr", "add", addr, "dev", veth)
            sh("ip", "-n", ns, "link", "set", veth, "up", "multicast", "on")
        yield ns_a, ns_b
    finally:
        for ns in (ns_a, ns_b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


class Side:
    """A helper process in a namespace, its output lines read by a thread into a queue."""

    def __init__(self, ns: str, role: str, address: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, sys.executable, str(HELPER), role, address],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def expect(self, event: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            try:
                got = self.lines.get(timeout=timeout)
            except queue.Empty:
                self.proc.kill()
                _, err = self.proc.communicate(timeout=5)
                raise AssertionError(f"no {event!r} within {timeout} s; stderr: {err}") from None
            if got["event"] == event:
                return got

    def tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=5)


@pytest.mark.e2e
def test_table_found_updated_and_withdrawn_across_namespaces(
    namespaces: tuple[str, str],
) -> None:
    ns_a, ns_b = namespaces
    browser = Side(ns_b, "browse", "10.213.0.2")
    advertiser: Side | None = None
    try:
        browser.expect("browsing")
        advertiser = Side(ns_a, "advertise", "10.213.0.1")
        advertiser.expect("advertised")
        found = browser.expect("found")
        assert found == {
            "event": "found",
            "tbl": "00112233aabbccdd",
            "game": "level8-master",
            "seats": 3,
            "nick": "ann",
            "pk": PK.hex(),
            "port": 40123,
            "addresses": ["10.213.0.1"],
        }
        advertiser.tell("update 1")
        updated = browser.expect("updated")
        assert (updated["seats"], updated["tbl"]) == (1, "00112233aabbccdd")
        advertiser.tell("withdraw")
        advertiser.expect("withdrawn")
        removed = browser.expect("removed")
        assert removed["name"] == f"00112233aabbccdd-00010203.{SERVICE_TYPE}"
    finally:
        browser.stop()
        if advertiser is not None:
            advertiser.stop()
