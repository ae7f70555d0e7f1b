"""Real home networks in namespaces: no default route, IPv6 link-local only, two networks, a
table id advertised twice, the lobby's seats, and the goodbye on every way out.

Every process runs in namespaces the test builds (:mod:`tests.e2e.netns`); no ``--interface``
is given unless the test is about it, so the addresses come from the interfaces themselves.
The observer of the goodbyes is a second python-zeroconf process (``mdns_peer.py browse``);
``test_avahi_interop.py`` does the same with Avahi's ``avahi-browse``.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.netns import ROOT, Lan
from tests.e2e.peers import Peer, finish, logs, seat_peers, wait_for
from tests.names import tmux_argv

pytestmark = pytest.mark.e2e

HELPER = ROOT / "tests" / "p2p" / "net" / "mdns_peer.py"
FOUND = re.compile(r"found table (\w{16}) \((.+?)\) of (\S+): (\d) free seats? at (\S+) port "
                   r"(\d+)")  # the game by its name: "(8s Rule!)", "(Level 8 (English))"


def host_args(peer: Peer, game: str, players: int, *extra: str) -> list[str]:
    """``lancards host`` with no ``--interface``."""
    return ["host", "--game", game, "--players", str(players), "--autoplay", "--name",
            peer.nick, "--record", str(peer.record), *extra]


def join_args(peer: Peer, *extra: str) -> list[str]:
    """``lancards join`` with no table and no ``--interface``: the first table that answers."""
    return ["join", "--autoplay", "--name", peer.nick, "--wait", "30", "--record",
            str(peer.record), *extra]


def start_host(peer: Peer, args: list[str]) -> tuple[str, str]:
    """Start a host; (table id, the address it prints for joins by address)."""
    peer.start(args)
    wait_for(lambda: "waiting for" in peer.output(), 30, "the host did not advertise", [peer])
    line = peer.output().split("waiting for", 1)[1]
    match = re.search(r"lancards join --game \S+ (\w{16})@(\[[^\]]+\]|[^:\s]+):(\d+)", line)
    assert match, line
    return match.group(1), match.group(2)


def found(peer: Peer) -> tuple[str, ...]:
    match = FOUND.search(peer.output())
    assert match, peer.output()[-800:]
    return match.groups()


def same_records(peers: list[Peer], codes: list[int]) -> None:
    assert codes == [0] * len(peers), logs(peers)
    records = {p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers}
    assert len(records) == 1, "the records differ between hosts"
    verdict = peers[0].audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict


@pytest.mark.long  # CI budget: the other router-less tests of this file join by mDNS in CI
@pytest.mark.timeout(300)
def test_no_default_route_a_host_and_three_joins_without_interface(lan: Lan, tmp_path: Path):
    # Situation 1: no router on the network. The old guess (a UDP "connect" to 10.255.255.255)
    # failed here and advertised 127.0.0.1.
    routes = lan.run(lan.hosts[0], ["ip", "route", "show"]).stdout
    assert "default" not in routes
    peers = seat_peers(lan, tmp_path, 4)
    table, printed = start_host(peers[0], host_args(peers[0], "eights", 4))
    assert printed == "10.231.0.11"
    for peer in peers[1:]:
        peer.start(join_args(peer))
    same_records(peers, finish(peers, 200))
    for peer in peers[1:]:
        tbl, game, nick, _, address, _ = found(peer)
        assert (tbl, game, nick, address) == (table, "8s Rule!", "ann", "10.231.0.11")
        assert "host: ann [" in peer.output()


@pytest.mark.timeout(200)
def test_ipv6_link_local_only_host_and_join_by_mdns(netns_ok: None, tmp_path: Path):
    # Situation 2: two laptops on a cable, IPv6 link-local addresses only. The host names its
    # address with its scope; the joiner has no --interface and dials the scoped address it
    # received on its own eth0.
    with Lan(2, ipv4=False, ipv6=True) as lan:
        ann, bob = seat_peers(lan, tmp_path, 2)
        shown = lan.run(ann.host, ["ip", "-o", "addr", "show", "dev", "eth0"]).stdout
        assert "inet " not in shown and "fe80::11/64" in shown
        table, printed = start_host(ann, host_args(ann, "level8", 2, "--interface",
                                                   "fe80::11%eth0"))
        assert printed == "[fe80::11%eth0]"
        bob.start(join_args(bob))
        same_records([ann, bob], finish([ann, bob], 150))
        assert found(bob)[0] == table and found(bob)[4] == "fe80::11%eth0"


@pytest.mark.timeout(200)
def test_dual_stack_advertises_both_and_joins_over_ipv4(netns_ok: None, tmp_path: Path):
    # The usual home network: IPv4 and an IPv6 link-local address on every machine. Both are
    # advertised; the joiner tries IPv4 first.
    with Lan(2, ipv4=True, ipv6=True) as lan:
        ann, bob = seat_peers(lan, tmp_path, 2)
        table, printed = start_host(ann, host_args(ann, "level8", 2))
        assert printed == "10.231.0.11"
        assert "advertised at 10.231.0.11, fe80::11%eth0 port" in ann.output()
        bob.start(join_args(bob))
        same_records([ann, bob], finish([ann, bob], 150))
        assert found(bob)[0] == table and found(bob)[4] == "10.231.0.11"


@pytest.mark.long  # CI budget: the LAN tests in CI
@pytest.mark.timeout(240)
def test_a_host_on_two_networks_is_reached_from_each(netns_ok: None, tmp_path: Path):
    # Host a is on both bridges (eth0 10.231.0.11, eth1 10.232.0.11) and forwards between
    # them; b is on the first only, c on the second only. Each joiner dials the host's
    # address on its own network.
    with Lan(3, networks=[(0, 1), (0,), (1,)], routed=True) as lan:
        ann, bob, cyd = seat_peers(lan, tmp_path, 3)
        assert cyd.address == "10.232.0.13"
        start_host(ann, host_args(ann, "level8", 3))
        assert "advertised at 10.231.0.11, 10.232.0.11 port" in ann.output()
        bob.start(join_args(bob))
        cyd.start(join_args(cyd))
        same_records([ann, bob, cyd], finish([ann, bob, cyd], 200))
        assert found(bob)[4] == "10.231.0.11"
        assert found(cyd)[4] == "10.232.0.11"


@pytest.mark.timeout(120)
def test_a_table_id_advertised_by_two_keys_is_refused_naming_both(lan: Lan, tmp_path: Path):
    # Situation 5: an impostor advertises the real table's id under its own key (and answers
    # probes). `join TABLE-ID` names both hosts with their fingerprints instead of taking
    # whichever it saw first.
    from lancards.p2p.protocol.identity import fingerprint

    ann, bob, _ = seat_peers(lan, tmp_path, 3)
    table, _ = start_host(ann, host_args(ann, "level8", 2))
    impostor = Observer(lan, lan.hosts[2], "listen", "--table", table, "--for", "60")
    try:
        fake = impostor.expect("listening")
        bob.start(["join", "--autoplay", "--name", "bob", "--wait", "8", table])
        assert bob.proc is not None and bob.proc.wait(60) == 2, bob.output()
        error = [line for line in bob.output().splitlines() if line.startswith("lancards join")]
        assert len(error) == 1, bob.output()
        assert f"2 tables use the id {table}: " in error[0]
        real = fingerprint(bytes.fromhex(ann.public_key()))
        assert f"ann [{real}] at 10.231.0.11:" in error[0]
        assert f"ann [{fake['fingerprint']}] at 10.231.0.13:{fake['port']}" in error[0]
        assert "check the host's fingerprint and join by TABLE-ID@HOST:PORT" in error[0]
    finally:
        impostor.stop()


class Observer:
    """A ``mdns_peer.py`` process in a namespace; its JSON lines read by a thread."""

    def __init__(self, lan: Lan, host: Any, *args: str) -> None:
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", host.netns, sys.executable, str(HELPER), args[0],
             host.address, *args[1:]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=ROOT, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def expect(self, event: str, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                got = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {event!r} within {timeout} s") from None
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


@pytest.mark.timeout(120)
def test_join_table_id_says_why_a_table_seen_is_not_joined(lan: Lan, tmp_path: Path):
    # An advert where nothing answers, then the same advert with no free seat: `join TABLE-ID`
    # names that, not "no table found".
    bob = seat_peers(lan, tmp_path, 2)[1]
    ghost = Observer(lan, lan.hosts[2], "advertise", "--for", "60")
    try:
        ghost.expect("advertised")
        for expected in ("table 00112233aabbccdd of ann answers at none of its addresses "
                         "(10.231.0.13: no lancards table answers at 10.231.0.13:40123",
                         "table 00112233aabbccdd of ann [", ):
            before = len(bob.output())
            bob.start(["join", "--autoplay", "--name", "bob", "--wait", "6",
                       "00112233aabbccdd"])
            assert bob.proc is not None and bob.proc.wait(60) == 2
            errors = [line for line in bob.output()[before:].splitlines()
                      if line.startswith("lancards join: error: ")]
            assert len(errors) == 1 and expected in errors[0], bob.output()[before:]
            if expected.endswith("["):
                assert errors[0].endswith("] has no free seat"), errors[0]
            ghost.tell("update 0")
            ghost.expect("updated-sent")
    finally:
        ghost.stop()


@pytest.mark.timeout(180)
def test_every_way_out_sends_a_goodbye(lan: Lan, tmp_path: Path):
    # Situation 8 with a second python-zeroconf process as the observer: a host ended by
    # SIGTERM, SIGHUP (its terminal closed) or SIGINT (Ctrl-C) leaves the observer's list
    # within 2 s, and exits 128 + the signal's number.
    ann = seat_peers(lan, tmp_path, 1)[0]
    observer = Observer(lan, lan.hosts[3], "browse", "--keep", "--for", "150")
    try:
        observer.expect("browsing")
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            before = len(ann.output())
            ann.start(host_args(ann, "level8", 2))
            wait_for(lambda b=before: "waiting for" in ann.output()[b:], 30, "host", [ann])
            table = ann.output()[before:].split("table ", 1)[1].split()[0]
            seen = observer.expect("found")
            assert seen["tbl"] == table
            assert (seen["size"], seen["seats"], seen["players"]) == (2, 1, ["ann"])
            assert ann.proc is not None
            ann.proc.send_signal(sig)
            sent = time.monotonic()
            removed = observer.expect("removed", timeout=5)
            assert removed["name"].startswith(f"{table}-"), removed
            assert time.monotonic() - sent < 2.0, f"{sig.name}: goodbye too late"
            assert ann.proc.wait(10) == 128 + sig, (sig.name, ann.output()[-500:])
    finally:
        observer.stop()


@pytest.mark.timeout(120)
def test_a_killed_host_leaves_within_its_ttl(lan: Lan, tmp_path: Path):
    # Situation 8, SIGKILL: no goodbye is possible; the records (TTL shortened by the test
    # hook from 120 s to 5 s) run out and the table leaves; the next table of the same
    # machine is another instance on another host name, never confused with the dead one.
    ann = seat_peers(lan, tmp_path, 1)[0]
    ann.env["LANCARDS_TEST_MDNS_TTL"] = "5"
    observer = Observer(lan, lan.hosts[3], "browse", "--keep", "--for", "100", "--sweep", "1")
    try:
        observer.expect("browsing")
        first, _ = start_host(ann, host_args(ann, "level8", 2))
        assert observer.expect("found")["tbl"] == first
        assert ann.proc is not None
        ann.proc.kill()
        ann.proc.wait(10)
        killed = time.monotonic()
        assert observer.expect("removed", timeout=15)["name"].startswith(f"{first}-")
        assert time.monotonic() - killed < 5 + 1 + 3
        before = len(ann.output())
        ann.start(host_args(ann, "level8", 2))
        wait_for(lambda: "waiting for" in ann.output()[before:], 30, "second host", [ann])
        second = observer.expect("found")
        assert second["tbl"] != first
    finally:
        observer.stop()


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.timeout(120)
def test_the_lobby_counts_the_hosts_seat_and_shows_its_fingerprint(lan: Lan, tmp_path: Path):
    # Situation 7: a 2-seat table whose host is seated shows 1/2 and the host's name; the
    # selected table's host is shown with its full fingerprint before Enter joins; a table
    # that does not answer is not offered.
    from lancards.p2p.protocol.identity import fingerprint

    ann, bob = seat_peers(lan, tmp_path, 2)
    start_host(ann, host_args(ann, "level8", 2))
    # An advert where nothing answers (mdns_peer.py advertises port 40123 on cyd, no listener):
    # the lobby never offers it.
    ghost = Observer(lan, lan.hosts[2], "advertise", "--for", "60")
    ghost.expect("advertised")
    bob.folder.mkdir(parents=True, exist_ok=True)
    session = f"seats-{lan.tag}"
    command = (f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec {lan.namespace(bob.host)} "
               f"{sys.executable} -m lancards join --name bob")
    tmux = tmux_argv()
    subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30", "-s", session,
                    command], check=True, timeout=10)
    try:
        deadline = time.monotonic() + 30
        screen = ""
        while time.monotonic() < deadline and "host ann [" not in screen:
            time.sleep(0.2)
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True, timeout=10).stdout
        row = next((line for line in screen.splitlines() if "Level 8 " in line), "")
        # ann hosts with --autoplay: a bot plays her seat, and the row says so
        assert re.search(r"Level 8 +ann \w{4} +1/2 +ann \(bot\) +10\.231\.0\.11:\d+", row), \
            screen
        fp = fingerprint(bytes.fromhex(ann.public_key()))
        assert f"host ann [{fp}], table " in screen, screen
        time.sleep(4)  # more than the probe's bound: the ghost had its chance and failed
        screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", session],
                                capture_output=True, text=True, timeout=10).stdout
        assert "Level 8 Master" not in screen and "10.231.0.13" not in screen, screen
        subprocess.run([*tmux, "send-keys", "-t", session, "q"], timeout=10)
    finally:
        ghost.stop()
        subprocess.run([*tmux, "kill-session", "-t", session], capture_output=True, timeout=10)


@pytest.mark.timeout(150)
def test_the_advert_follows_the_seats_and_leaves_when_the_table_starts(lan: Lan, tmp_path: Path):
    ann, bob, cyd = seat_peers(lan, tmp_path, 3)
    observer = Observer(lan, lan.hosts[3], "browse", "--keep", "--for", "120")
    try:
        observer.expect("browsing")
        table, _ = start_host(ann, host_args(ann, "level8", 3))
        first = observer.expect("found")
        assert (first["tbl"], first["size"], first["seats"], first["players"]) == (
            table, 3, 2, ["ann"])
        bob.start(join_args(bob))
        update = observer.expect("updated", timeout=30)
        assert (update["seats"], sorted(update["players"])) == (1, ["ann", "bob"])
        cyd.start(join_args(cyd))
        # Full and started: the advert is withdrawn (the goodbye), nobody else can join.
        assert observer.expect("removed", timeout=30)["name"].startswith(f"{table}-")
        assert finish([ann, bob, cyd], 120) == [0, 0, 0]
    finally:
        observer.stop()


@pytest.mark.long  # CI budget: bot seats join in CI
@pytest.mark.timeout(150)
def test_a_bot_seat_joins_a_host_bound_to_one_address(lan: Lan, tmp_path: Path):
    # --interface ADDRESS makes the host listen on that address only: its bots dial it there
    # (they dialled 127.0.0.1, where nothing listened, and the table never filled).
    ann, bob = seat_peers(lan, tmp_path, 2)
    start_host(ann, host_args(ann, "level8", 3, "--bots", "1", "--interface", ann.address))
    bob.start(join_args(bob))
    same_records([ann, bob], finish([ann, bob], 120))
    header = json.loads(ann.record.read_text("utf-8").splitlines()[0])
    assert sorted(header["nicks"]) == ["Ada", "ann", "bob"]


@pytest.mark.long  # CI budget: link-local joins in CI
@pytest.mark.timeout(200)
def test_ipv6_link_local_three_laptops_with_different_interface_names(netns_ok: None,
                                                                       tmp_path: Path):
    # Three laptops on one IPv6-only link whose interfaces are named eth0, wlan0 and enp3s0: a
    # link-local address in the host's address book carries the host's interface name, which
    # the joiners re-scope to the interface they reached the host over (RFC 4007 section 6).
    with Lan(3, ipv4=False, ipv6=True, links=("eth0", "wlan0", "enp3s0")) as lan:
        ann, bob, cyd = seat_peers(lan, tmp_path, 3)
        assert (bob.address, cyd.address) == ("fe80::12%wlan0", "fe80::13%enp3s0")
        start_host(ann, host_args(ann, "level8", 3))
        bob.start(join_args(bob))
        cyd.start(join_args(cyd))
        same_records([ann, bob, cyd], finish([ann, bob, cyd], 150))
        assert found(bob)[4] == "fe80::11%wlan0" and found(cyd)[4] == "fe80::11%enp3s0"
