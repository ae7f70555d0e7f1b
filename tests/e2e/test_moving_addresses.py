"""Addresses that follow the machine (issue 24, situations 4 and 5).

Situation 4: the host's interface loses its address and gets another (a new DHCP lease after
the Wi-Fi dropped): the advert lists the new address within a few seconds and a joiner joins at
it. Situation 5: on an IPv6-link-local-only network, a host's bot peers listen on IPv6 too, so a
joiner on another machine reaches them and the table starts.

A cable plugged in: a host on one interface gets a second one, on another network, and a joiner
that can reach only the new address joins there. An IPv6 address change (a new ULA address, the
old one removed): the advert follows and a joiner joins at the new one. A host with IPv4 only
that later has only IPv6 (and a bot): it still listens where the joiner reaches it.

Every address is changed with ``ip addr del/add`` (and a cable plugged with
:meth:`~tests.e2e.netns.Lan.plug`) inside the test's own namespaces (:mod:`tests.e2e.netns`);
nothing touches the machine's interfaces.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tests.e2e.netns import Lan
from tests.e2e.peers import Peer, finish, logs, seat_peers, wait_for
from tests.e2e.test_network import Observer, found, host_args, join_args, same_records, start_host

pytestmark = pytest.mark.e2e

NEW_ADDRESS = "10.231.0.21"


@pytest.mark.long  # CI budget: the new IPv6 address test runs the same re-advertising in CI
@pytest.mark.timeout(240)
def test_a_new_lease_is_advertised_within_seconds_and_joined_at(lan: Lan, tmp_path: Path):
    # Bob is seated before the host's address changes: his link is made again over the new
    # address (the host dials him back and its hello tells its port); cyd finds the table at
    # the new address only.
    ann, bob, cyd = seat_peers(lan, tmp_path, 3)
    observer = Observer(lan, lan.hosts[3], "browse", "--keep", "--for", "200")
    try:
        observer.expect("browsing")
        # An interface name follows that interface's addresses.
        table, printed = start_host(ann, host_args(ann, "level8", 3, "--interface", "eth0"))
        assert printed == "10.231.0.11"
        first = observer.expect("found", timeout=20)
        assert (first["tbl"], first["addresses"]) == (table, ["10.231.0.11"])
        bob.start(join_args(bob))
        wait_for(lambda: "waiting for 1 player" in ann.output(), 30, "bob was not seated",
                 [ann, bob])
        # The Wi-Fi drops for 5 s and comes back with another lease.
        lan.run(ann.host, ["ip", "addr", "del", "10.231.0.11/24", "dev", "eth0"], timeout=10)
        time.sleep(5)
        lan.run(ann.host, ["ip", "addr", "add", f"{NEW_ADDRESS}/24", "dev", "eth0"], timeout=10)
        moved_at = time.monotonic()
        seen: list[list[str]] = []
        while not seen or seen[-1] != [NEW_ADDRESS]:
            left = moved_at + 10 - time.monotonic()
            assert left > 0, f"the browser saw {seen}, never only {NEW_ADDRESS}\n{logs([ann])}"
            got = observer.expect("updated", timeout=left)
            assert got["tbl"] == table
            seen.append(got["addresses"])
        assert time.monotonic() - moved_at < 8
        assert (f"this machine's addresses changed: advertised at {NEW_ADDRESS} port"
                in ann.output())
        cyd.start(join_args(cyd))
        same_records([ann, bob, cyd], finish([ann, bob, cyd], 150))
        assert found(cyd)[0] == table and found(cyd)[4] == NEW_ADDRESS
        assert "freed the seat" not in ann.output()
    finally:
        observer.stop()


@pytest.mark.timeout(240)
def test_ipv6_link_local_only_host_with_a_bot_and_a_joiner_plays(netns_ok: None,
                                                                 tmp_path: Path):
    # The bot peers listened on IPv4 only: bob, on the other laptop, got the bot's address as
    # the host's fe80:: address and could not reach it, so the table never started ("waiting
    # for the start signatures of bob").
    with Lan(2, ipv4=False, ipv6=True) as lan:
        ann, bob = seat_peers(lan, tmp_path, 2)
        start_host(ann, host_args(ann, "level8", 3, "--bots", "1"))
        assert "advertised at" not in ann.output()  # one address: fe80::11%eth0
        bob.start(join_args(bob))
        same_records([ann, bob], finish([ann, bob], 150))
        header = json.loads(ann.record.read_text("utf-8").splitlines()[0])
        assert sorted(header["nicks"]) == ["Ada", "ann", "bob"]
        assert found(bob)[4] == "fe80::11%eth0"


def _watch_addresses(observer: Observer, table: str, want: list[str], since: float,
                     bound: float, host: Peer) -> list[list[str]]:
    """The address lists the browser saw for ``table`` until it saw exactly ``want``; fails
    when that takes ``bound`` s or more after ``since`` (monotonic)."""
    seen: list[list[str]] = []
    while not seen or seen[-1] != want:
        left = since + bound - time.monotonic()
        assert left > 0, f"the browser saw {seen}, never {want}\n{logs([host])}"
        got = observer.expect("updated", timeout=left)
        assert got["tbl"] == table
        seen.append(got["addresses"])
    return seen


@pytest.mark.timeout(120)
def test_a_cable_plugged_in_is_advertised_and_joined_at(netns_ok: None, tmp_path: Path):
    # Ann's laptop is on the first network only (eth0, 10.231.0.11); the host is started
    # without --interface. A cable to the second network is plugged in (eth1, 10.232.0.11):
    # the advert lists both, and cyd, on the second network only, joins at the new address.
    with Lan(3, networks=[(0,), (0,), (1,)]) as lan:
        ann, _, cyd = seat_peers(lan, tmp_path, 3)
        observer = Observer(lan, lan.hosts[1], "browse", "--keep", "--for", "100")
        try:
            observer.expect("browsing")
            table, printed = start_host(ann, host_args(ann, "level8", 2))
            assert printed == "10.231.0.11"
            first = observer.expect("found", timeout=20)
            assert (first["tbl"], first["addresses"]) == (table, ["10.231.0.11"])
            assert lan.plug(ann.host, 1) == "10.232.0.11"
            plugged_at = time.monotonic()
            _watch_addresses(observer, table, ["10.231.0.11", "10.232.0.11"], plugged_at, 8,
                             ann)
            moved = ("this machine's addresses changed: advertised at 10.231.0.11, "
                     "10.232.0.11 port ")
            wait_for(lambda: moved in ann.output(), 3, "the host did not say it moved", [ann])
            cyd.start(join_args(cyd))
            same_records([ann, cyd], finish([ann, cyd], 60))
            assert found(cyd)[0] == table and found(cyd)[4] == "10.232.0.11"
        finally:
            observer.stop()


def _addr(lan: Lan, peer: Peer, verb: str, address: str) -> None:
    """``ip addr add|del ADDRESS dev eth0`` on the peer's host (IPv6 without DAD)."""
    extra = ["nodad"] if verb == "add" and ":" in address else []
    done = lan.run(peer.host, ["ip", "addr", verb, address, "dev", "eth0", *extra], timeout=10)
    assert done.returncode == 0, done.stderr


@pytest.mark.timeout(120)
def test_a_new_ipv6_address_is_advertised_within_seconds_and_joined_at(netns_ok: None,
                                                                      tmp_path: Path):
    # An IPv6 network with a ULA prefix (fd00:1::/64, as a home router hands out besides
    # fe80::): ann's address changes (the new one added, the old one removed); the advert
    # lists the new one within seconds, and bob joins at it.
    with Lan(3, ipv4=False, ipv6=True) as lan:
        ann, bob, _ = seat_peers(lan, tmp_path, 3)
        _addr(lan, ann, "add", "fd00:1::11/64")
        _addr(lan, bob, "add", "fd00:1::12/64")
        observer = Observer(lan, lan.hosts[2], "browse", "--keep", "--for", "100")
        try:
            observer.expect("browsing")
            table, _ = start_host(ann, host_args(ann, "level8", 2))
            first = observer.expect("found", timeout=20)
            assert (first["tbl"], first["addresses"]) == (table, ["fd00:1::11",
                                                                  "fe80::11%eth0"])
            _addr(lan, ann, "add", "fd00:1::21/64")
            _addr(lan, ann, "del", "fd00:1::11/64")
            moved_at = time.monotonic()
            _watch_addresses(observer, table, ["fd00:1::21", "fe80::11%eth0"], moved_at, 8, ann)
            wait_for(lambda: "this machine's addresses changed: advertised at " in ann.output(),
                     3, "the host did not say it moved", [ann])
            bob.start(join_args(bob))
            same_records([ann, bob], finish([ann, bob], 60))
            assert found(bob)[0] == table and found(bob)[4] == "fd00:1::21"
        finally:
            observer.stop()


@pytest.mark.long  # CI budget: IPv6-only hosts in CI
@pytest.mark.timeout(150)
def test_an_ipv4_host_that_gets_only_ipv6_is_still_reached_with_its_bot(netns_ok: None,
                                                                       tmp_path: Path):
    # Ann's laptop has IPv4 only when she hosts (no --interface) with a bot; then the IPv4
    # address goes and only IPv6 comes (fe80::11). The host and its bot listened on 0.0.0.0:
    # bob found the table at fe80::11%eth0 and nothing answered there.
    with Lan(3, ipv4=True, ipv6=True) as lan:
        ann, bob, _ = seat_peers(lan, tmp_path, 3)
        _addr(lan, ann, "del", "fe80::11/64")
        observer = Observer(lan, replace(lan.hosts[2], address="fe80::13%eth0"), "browse",
                            "--keep", "--for", "120")
        try:
            observer.expect("browsing")
            table, printed = start_host(ann, host_args(ann, "level8", 3, "--bots", "1"))
            assert printed == "10.231.0.11"
            assert "advertised at" not in ann.output()  # one address: 10.231.0.11
            _addr(lan, ann, "del", "10.231.0.11/24")
            _addr(lan, ann, "add", "fe80::11/64")
            moved_at = time.monotonic()
            got = observer.expect("found", timeout=10)
            assert (got["tbl"], got["addresses"]) == (table, ["fe80::11%eth0"])
            assert time.monotonic() - moved_at < 8
            moved = "this machine's addresses changed: advertised at fe80::11%eth0 port "
            wait_for(lambda: moved in ann.output(), 3, "the host did not say it moved", [ann])
            bob.start(join_args(bob))
            same_records([ann, bob], finish([ann, bob], 90))
            assert found(bob)[0] == table and found(bob)[4] == "fe80::11%eth0"
            header = json.loads(ann.record.read_text("utf-8").splitlines()[0])
            assert sorted(header["nicks"]) == ["Ada", "ann", "bob"]
        finally:
            observer.stop()
