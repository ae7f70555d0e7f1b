"""Interop with Avahi (Debian's avahi-daemon and avahi-utils), a third-party mDNS stack.

Avahi runs inside one test namespace with a system bus of its own: a ``dbus-daemon`` with a
private socket under the test's folder (``DBUS_SYSTEM_BUS_ADDRESS`` points Avahi and its
tools at it) and ``allow-interfaces=eth0``, so it never sees the machine's real interfaces or
bus. ``avahi-browse -rpt _lancards._tcp`` must resolve a lancards table with its address, port,
per-table host name and TXT keys; a table published with ``avahi-publish`` (keys in capitals,
RFC 6763 section 6.4) must appear in our lobby, and a malformed one must be refused by name.
The goodbye on SIGTERM and SIGHUP and the expiry after SIGKILL are observed with
``avahi-browse`` too.

Avahi keeps its pid file at the global path ``/run/avahi-daemon/pid``: when the machine runs
an avahi-daemon of its own, these tests are skipped (saying so) and ``test_network.py`` covers
the goodbyes with a python-zeroconf observer.
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
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.netns import ROOT, Host, Lan
from tests.e2e.peers import Peer, seat_peers, wait_for
from tests.names import tmux_argv

pytestmark = pytest.mark.e2e

HELPER = ROOT / "tests" / "p2p" / "net" / "mdns_peer.py"

BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="signal"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
  </policy>
</busconfig>
"""

AVAHI_CONF = """[server]
use-ipv4=yes
use-ipv6=no
allow-interfaces=eth0
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
"""


def avahi_unavailable() -> str | None:
    """Why Avahi cannot run in a test namespace here, or ``None``."""
    for tool in ("avahi-daemon", "avahi-browse", "avahi-publish", "dbus-daemon"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (Debian packages avahi-daemon avahi-utils dbus; " \
                   ".ci/run installs them)"
    if Path("/run/avahi-daemon/pid").exists():
        return "an avahi-daemon already runs on this machine (its pid file " \
               "/run/avahi-daemon/pid is global, a second daemon refuses to start)"
    return None


class Avahi:
    """dbus-daemon and avahi-daemon inside ``host``'s namespace (stopped by :meth:`close`)."""

    def __init__(self, lan: Lan, host: Host, folder: Path) -> None:
        self.lan, self.host = lan, host
        folder.mkdir(parents=True, exist_ok=True)
        self.socket = folder / "bus"
        (folder / "bus.conf").write_text(BUS_CONF.format(socket=self.socket))
        (folder / "avahi.conf").write_text(AVAHI_CONF)
        self.env = {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.socket}"}
        self.log = folder / "avahi.log"
        self.bus = lan.spawn(host, ["dbus-daemon", "--nofork",
                                    f"--config-file={folder / 'bus.conf'}"],
                             log=folder / "dbus.log")
        wait_for(self.socket.exists, 10, "the test's dbus-daemon did not start")
        self.daemon = lan.spawn(host, ["avahi-daemon", "-f", str(folder / "avahi.conf"),
                                       "--no-drop-root", "--no-chroot", "--no-rlimits"],
                                env=self.env, log=self.log)
        wait_for(lambda: "Server startup complete" in self.log.read_text(), 15,
                 f"avahi-daemon did not start: {self.log}")

    def run(self, argv: list[str], timeout: float = 20) -> str:
        return self.lan.run(self.host, argv, env=self.env, timeout=timeout).stdout

    def spawn(self, argv: list[str], log: Path) -> subprocess.Popen[bytes]:
        return self.lan.spawn(self.host, argv, env=self.env, log=log)

    def close(self) -> None:
        self.lan.stop(self.daemon)
        self.lan.stop(self.bus)


@pytest.fixture
def avahi(lan: Lan, tmp_path: Path) -> Iterator[Avahi]:
    """Avahi on the LAN's last host (``d``, 10.231.0.14)."""
    reason = avahi_unavailable()
    if reason is not None:
        pytest.skip(reason)
    daemon = Avahi(lan, lan.hosts[3], tmp_path / "avahi")
    try:
        yield daemon
    finally:
        daemon.close()


def resolved_lines(text: str) -> list[list[str]]:
    """The ``=`` (resolved) lines of ``avahi-browse -p`` output, split at ``;``."""
    return [line.split(";") for line in text.splitlines() if line.startswith("=;")]


def txt_items(field: str) -> list[str]:
    """``"a=1" "b=2"`` (avahi-browse -p's TXT field) as ``["a=1", "b=2"]``."""
    return re.findall(r'"((?:[^"\\]|\\.)*)"', field)


def host_args(peer: Peer, players: int = 2) -> list[str]:
    return ["host", "--game", "level8", "--players", str(players), "--autoplay", "--name",
            peer.nick, "--record", str(peer.record)]


@pytest.mark.timeout(120)
def test_avahi_browse_resolves_our_table(lan: Lan, avahi: Avahi, tmp_path: Path):
    ann = seat_peers(lan, tmp_path, 1)[0]
    ann.start(host_args(ann))
    wait_for(lambda: "waiting for" in ann.output(), 30, "the host did not advertise", [ann])
    table, port = re.findall(r"(\w{16})@10\.231\.0\.11:(\d+)", ann.output())[0]
    pk = ann.public_key()
    lines: list[list[str]] = []
    deadline = time.monotonic() + 20
    while not lines and time.monotonic() < deadline:
        lines = resolved_lines(avahi.run(["avahi-browse", "-rpt", "_lancards._tcp"]))
    assert lines, "avahi-browse resolved nothing"
    [line] = lines
    _, iface, proto, name, stype, domain, hostname, address, got_port, txt = line[:10]
    assert (iface, proto, stype, domain) == ("eth0", "IPv4", "_lancards._tcp", "local")
    assert name == f"{table}-{pk[:8]}"
    assert hostname == f"lancards-{table}-{pk[:8]}.local"
    assert (address, got_port) == ("10.231.0.11", port)
    assert sorted(txt_items(txt)) == sorted([
        "v=1", f"tbl={table}", "game=level8", "seats=1", "nick=ann", f"pk={pk}", "size=2",
        "p1=ann", "bots=1"])  # --autoplay: a bot plays ann's seat


class Browse:
    """``avahi-browse -rp _lancards._tcp`` running, its lines read by a thread."""

    def __init__(self, avahi: Avahi, log: Path) -> None:
        self.log = log
        self.proc = avahi.spawn(["stdbuf", "-oL", "avahi-browse", "-rp", "_lancards._tcp"], log)

    def wait(self, pattern: str, timeout: float) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log.read_text() if self.log.exists() else ""
            match = re.search(pattern, text, re.MULTILINE)
            if match:
                return match
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} not seen within {timeout} s:\n{self.log.read_text()}")


@pytest.mark.timeout(150)
def test_avahi_sees_the_goodbye_on_sigterm_and_sighup_and_expiry_after_sigkill(
        lan: Lan, avahi: Avahi, tmp_path: Path):
    ann = seat_peers(lan, tmp_path, 1)[0]
    ann.env["LANCARDS_TEST_MDNS_TTL"] = "5"
    browse = Browse(avahi, tmp_path / "browse.txt")
    time.sleep(0.5)
    hostnames = []
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGKILL):
        before = len(ann.output())
        ann.start(host_args(ann))
        wait_for(lambda b=before: "waiting for" in ann.output()[b:], 30, "host", [ann])
        table = ann.output()[before:].split("table ", 1)[1].split()[0]
        seen = browse.wait(rf"^=;eth0;IPv4;({table}-\w+);_lancards\._tcp;local;([^;]+);", 20)
        hostnames.append(seen.group(2))
        assert ann.proc is not None
        ann.proc.send_signal(sig)
        sent = time.monotonic()
        # A goodbye: at once; SIGKILL: when the 5 s records expire (Avahi's cache).
        browse.wait(rf"^-;eth0;IPv4;{re.escape(seen.group(1))};", 3 if sig != signal.SIGKILL
                    else 15)
        limit = 2.0 if sig != signal.SIGKILL else 5 + 5
        assert time.monotonic() - sent < limit, f"{sig.name}: removal took too long"
        assert ann.proc.wait(10) == (128 + sig if sig != signal.SIGKILL else -signal.SIGKILL)
    # One host name per table: a dead table never resolves to the next table's address.
    assert len(set(hostnames)) == 3, hostnames
    lan.stop(browse.proc)


class Lines:
    """A ``mdns_peer.py`` process; its JSON lines read by a thread."""

    def __init__(self, host: Host, *args: str) -> None:
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", host.netns, sys.executable, str(HELPER), args[0],
             host.address, *args[1:]],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
            cwd=ROOT, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.lines: queue.Queue[dict[str, object]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def until(self, event: str, timeout: float) -> list[dict[str, object]]:
        got: list[dict[str, object]] = []
        deadline = time.monotonic() + timeout
        while not got or got[-1]["event"] != event:
            try:
                got.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"no {event!r} within {timeout} s: {got}") from None
        return got

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=5)


@pytest.mark.timeout(150)
def test_a_table_published_with_avahi_appears_in_our_lobby(lan: Lan, avahi: Avahi,
                                                           tmp_path: Path):
    from lancards.p2p.protocol.identity import fingerprint

    # A lancards listener on d (so that the lobby's probe gets the advertised key), published
    # by avahi-publish with keys in capitals (RFC 6763 section 6.4: case is ignored), and a
    # malformed table next to it.
    listener = Lines(lan.hosts[3], "listen", "--for", "100")
    publishers: list[subprocess.Popen[bytes]] = []
    try:
        info = listener.until("listening", 15)[-1]
        pk, port = str(info["pk"]), str(info["port"])
        good = ["avahi-publish", "-s", f"cafef00d12345678-{pk[:8]}", "_lancards._tcp", port,
                "V=1", "TBL=cafef00d12345678", "Game=level8", "SEATS=1", "NICK=dee",
                f"PK={pk}", "Size=2", "P1=dee", "nick=mallory"]
        bad = ["avahi-publish", "-s", "badbadbadbadbad0-00000000", "_lancards._tcp", "4000",
               "v=1", "tbl=not-a-table-id", "game=level8", "seats=1", "nick=eve",
               f"pk={'0' * 64}"]
        publishers = [avahi.spawn(good, tmp_path / "good.txt"),
                      avahi.spawn(bad, tmp_path / "bad.txt")]
        # Our browser (python-zeroconf) on a: the good table found, the bad one refused.
        browser = Lines(lan.hosts[0], "browse", "--keep", "--for", "8")
        try:
            events = browser.until("done", 30)
        finally:
            browser.stop()
        found = [e for e in events if e["event"] == "found"]
        assert [(e["tbl"], e["nick"], e["seats"], e["size"], e["players"], e["addresses"],
                 e["port"]) for e in found] == [
            ("cafef00d12345678", "dee", 1, 2, ["dee"], ["10.231.0.14"], int(port))]
        ignored = [e for e in events if e["event"] == "ignored"]
        assert ignored and all("badbadbadbadbad0-00000000" in str(e["name"]) for e in ignored)
        assert "TXT table id 'not-a-table-id' is invalid" in str(ignored[0]["error"])
        # The lobby (lancards join in a terminal, tmux) lists the good table, checked to answer.
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed: the lobby part is not checked")
        bob = seat_peers(lan, tmp_path, 2)[1]
        bob.folder.mkdir(parents=True, exist_ok=True)
        session = f"avahi-{lan.tag}"
        command = (f"cd {ROOT} && LANCARDS_HOME={bob.home} ip netns exec "
                   f"{lan.namespace(bob.host)} {sys.executable} -m lancards join --name bob")
        subprocess.run([*tmux_argv(), "new-session", "-d", "-x", "100", "-y", "30", "-s", session,
                        command], check=True, timeout=10)
        try:
            screen = ""
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and "host dee [" not in screen:
                time.sleep(0.2)
                screen = subprocess.run(tmux_argv("capture-pane", "-p", "-t", session),
                                        capture_output=True, text=True, timeout=10).stdout
            assert re.search(rf"Level 8 +dee \w{{4}} +1/2 +dee +10\.231\.0\.14:{port}", screen), \
                screen
            assert f"host dee [{fingerprint(bytes.fromhex(pk))}], table cafef00d12345678" \
                in screen
            assert not re.search(r"\beve\b", screen) and "not-a-table-id" not in screen
            assert len([line for line in screen.splitlines() if "Level 8 " in line]) == 1
        finally:
            subprocess.run(tmux_argv("kill-session", "-t", session), capture_output=True,
                           timeout=10)
    finally:
        for proc in publishers:
            lan.stop(proc)
        listener.stop()
