"""The harness itself: addresses, a bridge that carries unicast and multicast, the machine's own
interfaces untouched, and nothing left behind."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.e2e.netns import Lan

pytestmark = pytest.mark.e2e

RECEIVE = """
import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("", 9999))
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
             struct.pack("4s4s", socket.inet_aton("239.255.10.10"), socket.inet_aton("{me}")))
s.settimeout(5)
data, (addr, _) = s.recvfrom(100)
print(addr, data.decode())
"""
SEND = """
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("{me}"))
for _ in range(20):
    s.sendto(b"hello lan", ("239.255.10.10", 9999)); time.sleep(0.1)
"""


def root_links() -> str:
    return subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True,
                          check=True).stdout


def netns_list() -> str:
    return subprocess.run(["ip", "netns", "list"], capture_output=True, text=True,
                          check=True).stdout


def test_addresses_multicast_and_cleanup(netns_ok):
    lan = Lan(4)
    short = lan.tag.replace("-", "")
    try:
        assert [h.address for h in lan.hosts] == [f"10.231.0.{i}" for i in (11, 12, 13, 14)]
        for host in lan.hosts:
            shown = lan.run(host, ["ip", "-o", "-4", "addr", "show", "dev", "eth0"]).stdout
            assert f"inet {host.address}/24" in shown
            routes = lan.run(host, ["ip", "route", "show"]).stdout
            assert "224.0.0.0/4 dev eth0" in routes and "default" not in routes
        a, d = lan.hosts[0], lan.hosts[3]
        receiver = lan.run(d, [sys.executable, "-c", "import time"])  # warm the interpreter
        assert receiver.returncode == 0
        listen = subprocess.Popen(
            ["ip", "netns", "exec", d.netns, sys.executable, "-c", RECEIVE.format(me=d.address)],
            stdout=subprocess.PIPE, text=True)
        sent = lan.run(a, [sys.executable, "-c", SEND.format(me=a.address)])
        assert sent.returncode == 0, sent.stderr
        assert listen.communicate(timeout=10)[0].split() == [a.address, "hello", "lan"]
        # The machine's own namespace gained no interface (others may add theirs meanwhile).
        assert short not in root_links()
        assert lan.bridge_ns in netns_list()
    finally:
        lan.close()
    assert lan.tag not in netns_list()
    assert short not in root_links()


def test_close_ends_processes_left_running(netns_ok):
    lan = Lan(1)
    proc = lan.spawn(lan.hosts[0], ["sleep", "300"])
    lan.close()
    assert proc.poll() is not None
    assert lan.tag not in netns_list()
