"""mDNS discovery: TXT keys (pure), and two peers in network namespaces the test creates.

The namespace test builds two namespaces joined by a veth pair (10.213.0.1/24 and
10.213.0.2/24), advertises a table in one and browses in the other, each side a subprocess
bound to its namespace's address: nothing is multicast on the machine's real interfaces.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zeroconf import ServiceStateChange

from lancards.p2p.net.addresses import (
    AddressError,
    LocalAddress,
    choose_addresses,
    local_addresses,
    mdns_interfaces,
)
from lancards.p2p.net.discovery import (
    SERVICE_TYPE,
    Browser,
    Ignored,
    Resolved,
    TableAdvert,
    TableRemoved,
    advert_to_txt,
    order_addresses,
    parse_txt,
    reachable_address,
    txt_to_advert,
)
from lancards.p2p.protocol.errors import LocalProtocolError, MessageError, Reason, TransportError

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
    rescued = replace(advert, rescue=True)  # a table with the option rescue on says so
    txt = advert_to_txt(rescued)
    assert txt["rescue"] == "on" and list(txt)[-1] == "rescue"
    assert txt_to_advert({k.encode(): v.encode() for k, v in txt.items()}, "x", 4000,
                         ["10.0.0.1"]) == rescued
    started = replace(advert, free_seats=0, started=True)  # for lancards watch (issue 27)
    txt = advert_to_txt(started)
    assert txt["state"] == "started" and "state" not in advert_to_txt(advert)
    assert txt_to_advert({k.encode(): v.encode() for k, v in txt.items()}, "x", 4000,
                         ["10.0.0.1"]) == started
    # the seats bots play (the LAN trial of 2026-12-06: a joiner saw nicknames only)
    botted = replace(advert, size=4, free_seats=1, players=("ann", "bot1", "bob"), bots=(1,))
    txt = advert_to_txt(botted)
    assert (txt["p2"], txt["bots"]) == ("bot1", "2") and "bots" not in advert_to_txt(advert)
    assert txt_to_advert({k.encode(): v.encode() for k, v in txt.items()}, "x", 4000,
                         ["10.0.0.1"]) == botted
    assert advert_to_txt(replace(botted, bots=(0, 1, 2)))["bots"] == "1,2,3"


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
        ({"game": None}, "'game' has no value"),
        ({"size": b"7"}, "size '7'"),
        ({"size": b"2", "seats": b"2", "p1": b"bob"}, "1 seated and 2 free exceed size 2"),
        ({"p1": b"\x07"}, "player '\\x07'"),
        ({"rescue": b"yes"}, "rescue 'yes'"),
        ({"state": b"over"}, "state 'over'"),
        ({"bots": b"1"}, "bots '1'"),  # no p1: no player 1 to be a bot
        ({"p1": b"bob", "bots": b"2"}, "bots '2'"),
        ({"p1": b"bob", "p2": b"bot1", "bots": b"2,1"}, "bots '2,1'"),  # not ascending
        ({"p1": b"bob", "p2": b"bot1", "bots": b"2,2"}, "bots '2,2'"),  # repeated
        ({"p1": b"bob", "bots": b"0"}, "bots '0'"),
        ({"p1": b"bob", "bots": b"1,"}, "bots '1,'"),
        ({"p1": b"bob", "bots": b" 1"}, "bots ' 1'"),
        ({"p1": b"bob", "bots": b"1" * 40}, "bots '11111111111111111111'"),
        ({"p1": b"bob", "bots": None}, "'bots' has no value"),
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


@settings(max_examples=int(os.environ.get("LANCARDS_FUZZ_EXAMPLES", "4")) * 50, deadline=None,
          database=None)
@given(players=st.lists(st.sampled_from(["ann", "bob", "bot1", "cyd"]), max_size=7),
       bots=st.binary(max_size=24) | st.lists(st.integers(0, 7), max_size=7).map(
           lambda ns: ",".join(map(str, ns)).encode()))
def test_any_bots_value_is_refused_in_one_line_or_names_only_listed_players(
        players: list[str], bots: bytes) -> None:
    """A hostile advertiser's TXT ``bots`` (any bytes, any numbers) never raises anything but
    ``malformed`` naming the advert, and what is read marks only listed players, ascending."""
    props: dict[bytes, bytes | None] = {
        b"v": b"1", b"tbl": b"00112233aabbccdd", b"game": b"eights", b"seats": b"0",
        b"nick": b"ann", b"pk": PK.hex().encode(), b"bots": bots}
    props.update({f"p{i}".encode(): p.encode() for i, p in enumerate(players, 1)})
    try:
        advert = txt_to_advert(props, "t._lancards._tcp.local.")
    except MessageError as exc:
        assert (exc.reason, exc.sender) == (Reason.MALFORMED, "t._lancards._tcp.local.")
        return
    assert list(advert.bots) == sorted(set(advert.bots))
    assert all(0 <= b < len(advert.players) for b in advert.bots)
    assert advert_to_txt(advert).get("bots", "").encode() == bots


def test_missing_key_is_named() -> None:
    with pytest.raises(MessageError, match="TXT key 'pk' is missing"):
        txt_to_advert({b"v": b"1", b"tbl": b"00112233aabbccdd", b"game": b"eights",
                       b"seats": b"2", b"nick": b"bob"})


def txt_record(*strings: bytes) -> bytes:
    """A raw TXT record: length-prefixed strings (RFC 6763 section 6.1)."""
    return b"".join(bytes([len(s)]) + s for s in strings)


GOOD = (b"v=1", b"tbl=00112233aabbccdd", b"game=eights", b"seats=1", b"nick=bob",
        b"pk=" + PK.hex().encode(), b"size=2", b"p1=bob")


def test_txt_keys_are_case_insensitive() -> None:
    # RFC 6763 section 6.4: "Case is ignored when interpreting a key".
    record = txt_record(*(s.split(b"=", 1)[0].upper() + b"=" + s.split(b"=", 1)[1]
                          for s in GOOD))
    advert = txt_to_advert(parse_txt(record), "x", 4000, ["10.0.0.1"])
    assert (advert.table, advert.game, advert.free_seats, advert.nick, advert.size,
            advert.players) == ("00112233aabbccdd", "eights", 1, "bob", 2, ("bob",))
    assert txt_to_advert({b"V": b"1", **{k: v for k, v in parse_txt(txt_record(*GOOD)).items()
                                        if k != b"v"}}).table == "00112233aabbccdd"


def test_the_first_of_a_repeated_key_wins() -> None:
    # RFC 6763 section 6.4: all but the first occurrence of a key are silently ignored.
    record = txt_record(*GOOD[:3], b"SEATS=0", *GOOD[3:], b"nick=mallory", b"Seats=1")
    advert = txt_to_advert(parse_txt(record))
    assert (advert.free_seats, advert.nick) == (0, "bob")


def test_empty_strings_and_empty_keys_are_skipped() -> None:
    # Section 6.1 (an empty string) and 6.4 (a string starting with '=' is ignored).
    assert parse_txt(txt_record(b"", b"=oops", b"flag", b"k=")) == {b"flag": None, b"k": b""}


@pytest.mark.parametrize(
    ("record", "reason", "detail"),
    [
        (txt_record(*GOOD, b"x=" + b"y" * 250, b"z=" + b"y" * 250, b"w=" + b"y" * 250,
                    b"u=" + b"y" * 250, b"t=" + b"y" * 250), Reason.OVERSIZED,
         "over 1300 (RFC 6763 section 6.2)"),
        (bytes([9]) + b"v=1", Reason.MALFORMED, "runs past the record's end"),
        (txt_record(b"k\xe9y=1"), Reason.MALFORMED, "not printable US-ASCII"),
        (txt_record(b"k\ty=1"), Reason.MALFORMED, "not printable US-ASCII"),
    ],
)
def test_txt_record_limits(record: bytes, reason: Reason, detail: str) -> None:
    with pytest.raises(MessageError) as info:
        parse_txt(record, "t._lancards._tcp.local.")
    assert info.value.reason is reason and detail in info.value.detail


def test_a_flood_of_adverts_is_capped() -> None:
    from lancards.p2p.net.discovery import MAX_TABLES

    async def main() -> tuple[int, list[object]]:
        browser = SlowBrowser()
        browser.events = asyncio.Queue(1000)  # room for every event (the default keeps 256)
        browser.release.set()
        for i in range(MAX_TABLES + 3):
            name = f"{i:016x}-00010203.{SERVICE_TYPE}"
            browser._on_change(None, SERVICE_TYPE, name, ServiceStateChange.Added)  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        events = [browser.events.get_nowait() for _ in range(browser.events.qsize())]
        return len(browser.tables), [e for e in events if isinstance(e, Ignored)]

    kept, ignored = asyncio.run(main())
    assert kept == MAX_TABLES and len(ignored) == 3
    assert all("more than 256 tables advertised" in str(e.error) for e in ignored)


def test_at_most_eight_addresses_are_tried() -> None:
    advert = TableAdvert("00112233aabbccdd", "eights", 1, "bob", PK, 4000,
                         tuple(f"10.0.0.{i}" for i in range(1, 21)))
    tried: list[str] = []

    async def nobody(host: str, port: int) -> bytes:
        tried.append(host)
        raise OSError("unreachable")

    with pytest.raises(LocalProtocolError):
        asyncio.run(reachable_address(advert, nobody))
    assert tried == [f"10.0.0.{i}" for i in range(1, 9)]


def test_addresses_are_tried_in_order_until_the_advertised_key_answers() -> None:
    advert = TableAdvert("00112233aabbccdd", "eights", 1, "bob", PK, 4000,
                         order_addresses(["fe80::1%eth0", "10.9.0.1", "fd00::1", "10.0.0.1"]))
    assert advert.addresses == ("10.9.0.1", "10.0.0.1", "fd00::1", "fe80::1%eth0")
    tried: list[str] = []

    async def probe(host: str, port: int) -> bytes:
        tried.append(f"{host}:{port}")
        if host == "10.9.0.1":
            raise TransportError("no lancards table answers at 10.9.0.1:4000")
        if host == "10.0.0.1":
            return bytes(32)  # another key: an impostor or another program
        return PK

    address, failed = asyncio.run(reachable_address(advert, probe))
    assert address == "fd00::1"
    assert tried == ["10.9.0.1:4000", "10.0.0.1:4000", "fd00::1:4000"]
    assert failed == ["10.9.0.1: no lancards table answers at 10.9.0.1:4000",
                      "10.0.0.1: answered with another key than the advertised one"]

    async def nobody(host: str, port: int) -> bytes:
        raise OSError("unreachable")

    with pytest.raises(LocalProtocolError, match="answers at none of its addresses"):
        asyncio.run(reachable_address(advert, nobody))


def resolved(seats: int = 1) -> Resolved:
    strings = [s if not s.startswith(b"seats=") else b"seats=%d" % seats for s in GOOD]
    return Resolved(txt_record(*strings), 4000, ("10.0.0.1",))


class SlowBrowser(Browser):
    """A browser whose resolutions wait for the test to release them (no network)."""

    def __init__(self) -> None:
        super().__init__([LocalAddress("lo", 1, "127.0.0.1", 4)])
        self.release = asyncio.Event()
        self.answer = resolved()

    async def _request(self, zeroconf: Any, name: str) -> Resolved | None:
        await self.release.wait()
        return self.answer


NAME = f"00112233aabbccdd-00010203.{SERVICE_TYPE}"


def test_a_goodbye_during_a_resolution_leaves_no_ghost() -> None:
    async def main() -> tuple[dict[str, TableAdvert], list[object]]:
        browser = SlowBrowser()
        browser._on_change(None, SERVICE_TYPE, NAME, ServiceStateChange.Added)  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        browser._on_change(None, SERVICE_TYPE, NAME, ServiceStateChange.Removed)  # type: ignore[arg-type]
        browser.release.set()
        await asyncio.sleep(0.05)
        return browser.tables, [browser.events.get_nowait() for _ in range(browser.events.qsize())]

    tables, events = asyncio.run(main())
    assert tables == {} and events == []


def test_a_table_added_again_after_its_goodbye_is_found() -> None:
    async def main() -> list[object]:
        browser = SlowBrowser()
        browser.release.set()
        for change in (ServiceStateChange.Added, ServiceStateChange.Removed,
                       ServiceStateChange.Added):
            browser._on_change(None, SERVICE_TYPE, NAME, change)  # type: ignore[arg-type]
            await asyncio.sleep(0.02)
        return [browser.events.get_nowait() for _ in range(browser.events.qsize())]

    events = asyncio.run(main())
    assert [type(e).__name__ for e in events] == ["TableFound", "TableRemoved", "TableFound"]


class FakeCache:
    def __init__(self, records: list[Any]) -> None:
        self.records = records

    def async_all_by_details(self, name: str, type_: int, class_: int) -> list[Any]:
        return self.records if type_ == 33 else []


class FakeRecord:
    def __init__(self, expired: bool, stale: bool) -> None:
        self.expired, self.stale = expired, stale

    def is_expired(self, now: float) -> bool:
        return self.expired

    def is_stale(self, now: float) -> bool:
        return self.stale


class FakeZeroconf:
    def __init__(self, records: list[Any]) -> None:
        self.cache = FakeCache(records)
        self.sent: list[Any] = []

    def async_send(self, out: Any) -> None:
        self.sent.append(out)


@pytest.mark.parametrize(("records", "kept", "queried"), [
    ([FakeRecord(expired=False, stale=False)], True, False),
    ([FakeRecord(expired=False, stale=True)], True, True),
    ([FakeRecord(expired=True, stale=True)], False, False),
    ([], False, False),
])
def test_sweep_refreshes_stale_records_and_drops_expired_tables(
        records: list[Any], kept: bool, queried: bool) -> None:
    async def main() -> tuple[Browser, FakeZeroconf]:
        browser = SlowBrowser()
        browser.release.set()
        browser._on_change(None, SERVICE_TYPE, NAME, ServiceStateChange.Added)  # type: ignore[arg-type]
        await asyncio.sleep(0.02)
        zc = FakeZeroconf(records)
        browser.sweep(zc)  # type: ignore[arg-type]
        return browser, zc

    browser, zc = asyncio.run(main())
    assert (NAME in browser.tables) is kept
    assert bool(zc.sent) is queried
    if queried:
        questions = {(q.name, q.type) for q in zc.sent[0].questions}
        host = "lancards-00112233aabbccdd-00010203.local."
        assert questions == {(NAME, 33), (NAME, 16), (host, 1), (host, 28)}
    if not kept:
        removed = [browser.events.get_nowait() for _ in range(browser.events.qsize())][-1]
        assert isinstance(removed, TableRemoved) and removed.name == NAME


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

    def __init__(self, ns: str, role: str, address: str, *extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, sys.executable, str(HELPER), role, address, *extra],
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

    def __enter__(self) -> Side:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.mark.e2e
def test_table_found_updated_and_withdrawn_across_namespaces(
    namespaces: tuple[str, str],
) -> None:
    ns_a, ns_b = namespaces
    with contextlib.ExitStack() as stack:  # every helper process stopped on the way out
        browser = stack.enter_context(Side(ns_b, "browse", "10.213.0.2"))
        browser.expect("browsing")
        advertiser = stack.enter_context(Side(ns_a, "advertise", "10.213.0.1"))
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
            "size": 0,
            "players": [],
        }
        advertiser.tell("update 1")
        updated = browser.expect("updated")
        assert (updated["seats"], updated["tbl"]) == (1, "00112233aabbccdd")
        advertiser.tell("withdraw")
        advertiser.expect("withdrawn")
        removed = browser.expect("removed")
        assert removed["name"] == f"00112233aabbccdd-00010203.{SERVICE_TYPE}"


# ---------------------------------------------------------------------------------------------
# Choosing addresses (fake interfaces: ifaddr's own types).


def adapters() -> list[Any]:
    import ifaddr

    def adapter(name: str, index: int, ips: list[Any]) -> Any:
        return ifaddr.Adapter(name.encode(), name, [ifaddr.IP(ip, 24, name) for ip in ips],
                              index=index)

    return [
        adapter("lo", 1, ["127.0.0.1", ("::1", 0, 0)]),
        adapter("eth0", 2, ["192.0.2.2", ("fd00::2", 0, 0), ("fe80::2", 0, 2)]),
        adapter("wlan0", 3, ["198.51.100.7", ("fe80::2", 0, 3)]),
    ]


def test_default_is_every_address_but_loopback_with_link_local_scoped() -> None:
    chosen = choose_addresses(None, adapters())
    assert [a.text for a in chosen] == ["192.0.2.2", "198.51.100.7", "fd00::2", "fe80::2%eth0",
                                        "fe80::2%wlan0"]
    assert [a.zeroconf_interface for a in chosen] == ["192.0.2.2", "198.51.100.7", 2, 2, 3]


def test_mdns_runs_on_an_ipv6_interface_by_its_link_local_address() -> None:
    # python-zeroconf binds an interface given by index to its first IPv6 address (fd00::2
    # here): answers from it carry no scope, and a new prefix takes it away (issue 24).
    import ifaddr

    def adapter(name: str, index: int, ips: list[Any]) -> Any:
        return ifaddr.Adapter(name.encode(), name, [ifaddr.IP(ip, 64, name) for ip in ips],
                              index=index)

    machine = local_addresses([
        adapter("eth0", 2, ["192.0.2.2", ("fd00::2", 0, 0), ("fe80::2", 0, 2)]),
        adapter("wlan0", 3, [("fd00::3", 0, 0), ("fe80::3", 0, 3)]),
        adapter("usb0", 4, [("fd00::4", 0, 0)]),
    ])
    assert mdns_interfaces(machine, machine) == ("192.0.2.2", "fe80::2", "fe80::3", 4)
    only_ula = [a for a in machine if a.ip == "fd00::3"]
    assert mdns_interfaces(only_ula, machine) == ("fe80::3",)
    # The same link-local address on two interfaces: by index (zeroconf would take the first).
    shared = local_addresses(adapters())
    assert mdns_interfaces(choose_addresses(None, adapters()), shared) == (
        "192.0.2.2", "198.51.100.7", 2, 3)


@pytest.mark.parametrize(("wanted", "texts"), [
    (["eth0"], ["192.0.2.2", "fd00::2", "fe80::2%eth0"]),
    (["wlan0", "192.0.2.2"], ["198.51.100.7", "192.0.2.2", "fe80::2%wlan0"]),
    (["fe80::2%wlan0"], ["fe80::2%wlan0"]),
    (["fe80::2%3"], ["fe80::2%wlan0"]),
    (["[fd00::2]"], ["fd00::2"]),
    (["lo"], ["127.0.0.1", "::1"]),
    (["127.0.0.1"], ["127.0.0.1"]),
])
def test_interface_by_name_or_address(wanted: list[str], texts: list[str]) -> None:
    assert [a.text for a in choose_addresses(wanted, adapters())] == texts


@pytest.mark.parametrize(("wanted", "message"), [
    (["1.2.3.4"], "--interface 1.2.3.4: no interface of this machine has this address "
                  "(its addresses: 127.0.0.1, 192.0.2.2, 198.51.100.7, ::1, fd00::2, "
                  "fe80::2%eth0, fe80::2%wlan0)"),
    (["fe80::1%eth0"], "--interface fe80::1%eth0: no interface of this machine has this "
                       "address"),
    (["fe80::2%eth9"], "--interface fe80::2%eth9: fe80::2 is on eth0, wlan0, not on eth9"),
    (["fe80::2"], "--interface fe80::2: a link-local address needs its interface, one of "
                  "fe80::2%eth0, fe80::2%wlan0"),
    (["wlan9"], "--interface wlan9: neither an interface of this machine (eth0, lo, wlan0) "
                "nor an IP address"),
])
def test_interface_errors_name_the_problem(wanted: list[str], message: str) -> None:
    with pytest.raises(AddressError) as info:
        choose_addresses(wanted, adapters())
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_only_loopback_is_an_error() -> None:
    with pytest.raises(AddressError, match=r"only loopback\): connect to a network, or use "
                                           r"--interface 127.0.0.1"):
        choose_addresses(None, adapters()[:1])


def test_addresses_on_a_network_of_this_machine_come_first() -> None:
    mine = [LocalAddress("eth0", 2, "10.232.0.12", 4, 24)]
    assert order_addresses(["10.231.0.11", "fe80::11%eth0", "10.232.0.11"], mine) == (
        "10.232.0.11", "10.231.0.11", "fe80::11%eth0")


def collect(side: Side, until: str, timeout: float) -> list[dict[str, Any]]:
    """Every line of ``side`` up to and including the first ``until`` event."""
    lines = []
    while True:
        try:
            got = side.lines.get(timeout=timeout)
        except queue.Empty:
            side.proc.kill()
            raise AssertionError(f"no {until!r} within {timeout} s; got {lines}") from None
        lines.append(got)
        if got["event"] == until:
            return lines


@pytest.mark.e2e
@pytest.mark.timeout(120)
def test_ten_tables_listed_with_their_seats_then_withdrawn_within_two_seconds(
    namespaces: tuple[str, str],
) -> None:
    from lancards.cli.tui.lobby import entries_from

    ns_a, ns_b = namespaces
    with contextlib.ExitStack() as stack:  # every helper process stopped on the way out
        browser = stack.enter_context(Side(ns_b, "browse", "10.213.0.2", "--keep", "--for", "40"))
        browser.expect("browsing")
        tables = stack.enter_context(Side(ns_a, "many", "10.213.0.1", "10", "--for", "30"))
        tables.expect("advertised")
        found: dict[str, TableAdvert] = {}
        while len(found) < 10:
            got = browser.expect("found", timeout=15)
            found[got["tbl"]] = TableAdvert(
                got["tbl"], got["game"], got["seats"], got["nick"], bytes.fromhex(got["pk"]),
                got["port"], tuple(got["addresses"]), got["size"], tuple(got["players"]))
        rows = entries_from({a.instance_name: (a, a.addresses[0]) for a in found.values()})
        assert [(r.table_id, r.taken, r.seats, r.players) for r in rows] == [
            (f"{i:016x}", 1 + min(i % 3, 1 + i % 5), 2 + i % 5,
             ("host", *(f"guest{j}" for j in range(min(i % 3, 1 + i % 5)))))
            for i in range(10)]
        assert all(not r.duplicate and r.address == f"10.213.0.1:{40000 + i}"
                   for i, r in enumerate(rows))
        tables.tell("withdraw")
        tables.expect("withdrawn")
        # Every goodbye is in once "withdrawn" is printed; each must have removed its table
        # within 2 s of it (the browser prints "removed" as each one is handled).
        removed = set()
        deadline = 2.0
        import time

        start = time.monotonic()
        while len(removed) < 10:
            left = deadline - (time.monotonic() - start)
            assert left > 0, f"only {len(removed)} of 10 tables removed within 2 s"
            removed.add(browser.expect("removed", timeout=left)["name"])
        assert removed == {a.instance_name for a in found.values()}


@pytest.mark.e2e
@pytest.mark.timeout(120)
def test_goodbyes_while_resolving_leave_no_ghost(namespaces: tuple[str, str]) -> None:
    ns_a, ns_b = namespaces
    with contextlib.ExitStack() as stack:  # every helper process stopped on the way out
        browser = stack.enter_context(Side(ns_b, "browse", "10.213.0.2", "--keep", "--for", "8"))
        browser.expect("browsing")
        # Ten tables registered and withdrawn at once: the goodbyes arrive while the browser is
        # still resolving the announcements.
        tables = stack.enter_context(Side(ns_a, "many", "10.213.0.1", "10", "--flash"))
        tables.expect("withdrawn")
        lines = collect(browser, "done", timeout=20)
        assert lines[-1] == {"event": "done", "tables": []}, lines


@pytest.mark.e2e
@pytest.mark.timeout(120)
def test_a_killed_advertiser_leaves_when_its_records_expire(namespaces: tuple[str, str]) -> None:
    # SIGKILL: no goodbye. python-zeroconf keeps PTR records at least 1125 s; the browser's own
    # SRV expiry check removes the table once its (here 4 s) records run out.
    import time

    ns_a, ns_b = namespaces
    with contextlib.ExitStack() as stack:  # every helper process stopped on the way out
        browser = stack.enter_context(Side(ns_b, "browse", "10.213.0.2", "--for", "40", "--sweep",
                                           "1"))
        browser.expect("browsing")
        advertiser = stack.enter_context(Side(ns_a, "advertise", "10.213.0.1", "--ttl", "4"))
        browser.expect("found")
        advertiser.proc.kill()
        advertiser.proc.wait(5)
        killed = time.monotonic()
        removed = browser.expect("removed", timeout=20)
        assert removed["name"] == f"00112233aabbccdd-00010203.{SERVICE_TYPE}"
        assert time.monotonic() - killed <= 4 + 1 + 2  # TTL + one sweep + slack


@pytest.mark.e2e
@pytest.mark.timeout(120)
def test_a_live_table_stays_listed_past_its_ttl(namespaces: tuple[str, str]) -> None:
    # Records of 4 s, a browser sweeping every second for 14 s: its refresh queries (RFC 6762
    # section 5.2) keep the table's SRV record alive, so the table is never dropped.
    ns_a, ns_b = namespaces
    with contextlib.ExitStack() as stack:  # every helper process stopped on the way out
        browser = stack.enter_context(Side(ns_b, "browse", "10.213.0.2", "--keep", "--for", "14",
                                           "--sweep", "1"))
        browser.expect("browsing")
        stack.enter_context(Side(ns_a, "advertise", "10.213.0.1", "--ttl", "4", "--for", "40"))
        lines = collect(browser, "done", timeout=30)
        name = f"00112233aabbccdd-00010203.{SERVICE_TYPE}"
        assert [e["event"] for e in lines] == ["found", "done"], lines
        assert lines[-1]["tables"] == [name]


@pytest.mark.parametrize(("address", "reached", "result"), [
    ("fe80::12%wlan0", "fe80::11%enp3s0", "fe80::12%enp3s0"),
    ("fe80::12", "fe80::11%eth1", "fe80::12%eth1"),
    ("fe80::12%wlan0", "10.0.0.1", "fe80::12%wlan0"),
    ("10.0.0.2", "fe80::11%eth1", "10.0.0.2"),
    ("fd00::2", "fe80::11%eth1", "fd00::2"),
    ("nonsense", "fe80::11%eth1", "nonsense"),
])
def test_rescope_a_link_local_address_to_this_machine(address: str, reached: str,
                                                      result: str) -> None:
    from lancards.p2p.net.addresses import rescope

    assert rescope(address, reached) == result


def test_followed_addresses_follow_a_name_and_keep_an_explicit_address() -> None:
    # Issue 24, situation 4: eth0 gets a new lease, wlan0 drops and comes back.
    import ifaddr

    from lancards.p2p.net.addresses import FollowedAddresses

    def machine(eth0: str | None, wlan0: str | None) -> list[Any]:
        def adapter(name: str, index: int, ip: str | None) -> Any:
            return ifaddr.Adapter(name.encode(), name,
                                  [ifaddr.IP(ip, 24, name)] if ip else [], index=index)
        return [adapter("eth0", 2, eth0), adapter("wlan0", 3, wlan0)]

    every = FollowedAddresses(None, machine("192.0.2.2", "198.51.100.7"))
    named = FollowedAddresses(["eth0"], machine("192.0.2.2", "198.51.100.7"))
    fixed = FollowedAddresses(["192.0.2.2"], machine("192.0.2.2", "198.51.100.7"))
    later = machine("192.0.2.99", None)
    assert every.read(later) and [a.text for a in every.current] == ["192.0.2.99"]
    assert named.read(later) and [a.text for a in named.current] == ["192.0.2.99"]
    assert not fixed.read(later) and [a.text for a in fixed.current] == ["192.0.2.2"]
    assert not every.read(later)  # unchanged
    # Nothing at all (the Wi-Fi is down): the last addresses are kept until one comes back.
    assert not named.read(machine(None, None)) and [a.text for a in named.current] == [
        "192.0.2.99"]
    assert every.read(machine(None, "198.51.100.8"))
    assert [a.text for a in every.current] == ["198.51.100.8"]
