"""A home network on one machine: network namespaces joined by a bridge in a namespace of its own.

Layout for a LAN tagged ``T`` (``P-<pid>-<n>`` by default, ``P`` the run's prefix:
``LANCARDS_TEST_PREFIX``, default ``lc``, :mod:`tests.names`) with hosts ``a``, ``b``, ...::

    namespace T-br:  bridge br0 (10.231.0.1/24, IGMP snooping off)
    namespace T-a:   eth0 10.231.0.11/24  <- veth ->  T-br: port vTa of br0 (T without dashes)
    namespace T-b:   eth0 10.231.0.12/24  <- veth ->  T-br: port vTb of br0
    ...

Every link is created directly inside the namespaces (``ip -n NS link add ... netns OTHER``),
so the machine's own interfaces and routes are never touched, and nothing is ever sent on
them: every address lives in 10.231.0.0/24 inside namespaces this harness made. Each namespace
has ``lo`` up, IPv6 off (no duplicate-address detection, no v6 mDNS noise), multicast on and a
route for 224.0.0.0/4 on its ``eth0`` (mDNS, RFC 6762, needs both).

Variants (keyword arguments of :class:`Lan`): ``ipv4=False, ipv6=True`` gives every host only
an IPv6 link-local address, ``fe80::(11 + i)/64`` on ``eth0`` (no IPv4 at all: two laptops on a
cable); ``networks`` puts hosts on a second bridge ``br1`` (``10.232.0.0/24``, port
``w<T><letter>``): a host on both has ``eth0`` on ``br0`` and ``eth1`` on ``br1``, a host on
the second only has ``eth0`` there; ``routed=True`` lets the first host on both networks
forward between them (the other hosts get a route to the other /24 through it, still no default
route).

Processes run with ``ip netns exec``, each in a session of its own; :meth:`Lan.close` ends
every process it started (by process group), then every process still inside its namespaces
(``ip netns pids``), then deletes the namespaces, which deletes the veth pairs and the bridge.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final

from tests.names import PREFIX

SUBNET: Final = "10.231.0"
"""The /24 every address of the test network lies in."""

SUBNET2: Final = "10.232.0"
"""The /24 of the second network (``networks``)."""

BRIDGE_ADDRESS: Final = f"{SUBNET}.1"
"""The bridge's own address (its namespace runs ``dig`` and the passive listener)."""

LETTERS: Final = "abcdefgh"
"""Host names; host ``i`` has the address ``10.231.0.(11 + i)``."""

ROOT: Final = Path(__file__).resolve().parents[2]

_COUNTER = itertools.count(1)
_LIVE: set[Lan] = set()
"""Every LAN of this process not yet closed (closed at exit and on SIGTERM/SIGINT)."""


def close_all() -> None:
    """Close every LAN of this process (its processes and namespaces); idempotent."""
    for lan in list(_LIVE):
        with contextlib.suppress(Exception):
            lan.close()


def _on_signal(signum: int, frame: object) -> None:
    close_all()
    raise KeyboardInterrupt(f"signal {signum}")


def install_cleanup() -> None:
    """Close every LAN at exit and when SIGTERM or SIGINT stops the test run (then the run
    ends as if interrupted)."""
    atexit.register(close_all)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _on_signal)


class NetnsError(RuntimeError):
    """A step of building or tearing down the test network failed: the command and its stderr."""


def _ip(*args: str, check: bool = True, timeout: float = 10.0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=timeout,
                          check=False)
    if check and proc.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
    return proc


def unavailable() -> str | None:
    """Why network namespaces cannot be used here, or ``None`` when they can.

    Probes the real thing: creates and deletes a namespace with a veth pair.
    """
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "the e2e suite needs root (network namespaces)"
    if shutil.which("ip") is None:
        return "the e2e suite needs the 'ip' command (Debian package iproute2)"
    probe = f"{PREFIX}-{os.getpid()}-probe"
    try:
        _ip("netns", "add", probe)
        _ip("-n", probe, "link", "add", "p0", "type", "veth", "peer", "name", "p1")
    except (NetnsError, OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot create network namespaces with veth pairs here: {exc}"
    finally:
        _ip("netns", "del", probe, check=False)
    return None


def netem_unavailable() -> str | None:
    """Why ``tc qdisc ... netem`` cannot be used here, or ``None`` when it can."""
    if shutil.which("tc") is None:
        return "the 'tc' command is missing (Debian package iproute2)"
    probe = f"{PREFIX}-{os.getpid()}-netem"
    try:
        _ip("netns", "add", probe)
        proc = subprocess.run(
            ["tc", "-n", probe, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"],
            capture_output=True, text=True, timeout=10, check=False)
        if proc.returncode != 0:
            return f"the kernel has no netem qdisc (tc: {proc.stderr.strip()})"
    except (NetnsError, OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot probe netem: {exc}"
    finally:
        _ip("netns", "del", probe, check=False)
    return None


def _kill_inside(name: str) -> bool:
    """SIGKILL every process inside namespace ``name``; whether there was one."""
    pids = _ip("netns", "pids", name, check=False).stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)
    return bool(pids)


def remove_stale() -> list[str]:
    """Delete namespaces ``P-<pid>-*`` (``P``: this run's prefix) left by an earlier run whose
    process is gone, after killing every process still inside them. Namespaces of another
    prefix (another person's run on this machine) are left alone.

    Returns:
        The names deleted.
    """
    proc = _ip("netns", "list", check=False)
    gone = []
    for line in proc.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        parts = name.split("-")
        if len(parts) >= 3 and parts[0] == PREFIX and parts[1].isdigit():
            pid = int(parts[1])
            if pid != os.getpid() and not Path(f"/proc/{pid}").exists():
                if _kill_inside(name):
                    time.sleep(0.1)
                _ip("netns", "del", name, check=False)
                gone.append(name)
    return gone


@dataclass(frozen=True, slots=True)
class Host:
    """One machine of the test network.

    Attributes:
        letter: ``"a"``, ``"b"``, ...
        netns: its namespace name.
        address: its address on ``eth0`` (IPv4, or ``fe80::...%eth0`` on an IPv6-only LAN).
        port: the name of its veth end in the bridge namespace (a port of ``br0``).
        addresses: every address it has, one per network it is on.
    """

    letter: str
    netns: str
    address: str
    port: str
    addresses: tuple[str, ...] = ()


class Lan:
    """A bridge and ``size`` hosts; use as a context manager, or call :meth:`close`.

    Args:
        size: how many hosts, 1 to 8.
        tag: namespace name prefix (default ``P-<pid>-<n>``, unique in this process); the
            bridge's port names use it too, so it must be short (at most 13 characters).
        ipv4: give hosts IPv4 addresses (the default).
        ipv6: turn IPv6 on, with the link-local address ``fe80::(11 + i)`` on ``eth0`` (on a
            LAN without IPv4, that is the only address).
        networks: per host, the networks it is on (``0``: ``br0``, ``1``: ``br1``); default
            every host on ``br0`` only.
        routed: the first host on both networks forwards between them.
        links: per host, the name of its first interface (default ``eth0`` everywhere; other
            names model laptops whose Wi-Fi and Ethernet interfaces are named differently).

    Raises:
        NetnsError: a step failed (what was built so far is torn down first).
    """

    def __init__(self, size: int = 4, tag: str | None = None, *, ipv4: bool = True,
                 ipv6: bool = False, networks: Sequence[Sequence[int]] | None = None,
                 routed: bool = False, links: Sequence[str] | None = None) -> None:
        if not 1 <= size <= len(LETTERS):
            raise ValueError(f"a LAN has 1 to {len(LETTERS)} hosts (asked for {size})")
        if not (ipv4 or ipv6):
            raise ValueError("a LAN needs IPv4 or IPv6")
        self.tag = tag or f"{PREFIX}-{os.getpid()}-{next(_COUNTER)}"
        if len(self.tag) > 13:
            raise ValueError(f"tag {self.tag!r} is longer than 13 characters")
        short = self.tag.replace("-", "")
        self.bridge_ns = f"{self.tag}-br"
        self.ipv4, self.ipv6, self.routed = ipv4, ipv6, routed
        self.networks: tuple[tuple[int, ...], ...] = tuple(
            tuple(networks[i]) if networks is not None else (0,) for i in range(size))
        self.links: tuple[str, ...] = tuple(links) if links is not None else ("eth0",) * size

        def address(i: int, net: int) -> str:
            if not ipv4:
                return f"fe80::{11 + i}%{self.links[i]}"
            return f"{SUBNET if net == 0 else SUBNET2}.{11 + i}"

        self.hosts: tuple[Host, ...] = tuple(
            Host(c, f"{self.tag}-{c}", address(i, self.networks[i][0]), f"v{short}{c}",
                 tuple(address(i, n) for n in self.networks[i]))
            for i, c in enumerate(LETTERS[:size]))
        self._short = short
        self._procs: list[subprocess.Popen[bytes]] = []
        self._made: list[str] = []
        _LIVE.add(self)
        try:
            self._build()
        except BaseException:
            self.close()
            raise

    # -- building -------------------------------------------------------------------------------

    def _build(self) -> None:
        br = self.bridge_ns
        self._add_netns(br, ipv6=False)
        bridges = sorted({n for nets in self.networks for n in nets})
        for net in bridges:
            dev, subnet = f"br{net}", SUBNET if net == 0 else SUBNET2
            _ip("-n", br, "link", "add", dev, "type", "bridge", "mcast_snooping", "0")
            _ip("-n", br, "addr", "add", f"{subnet}.1/24", "dev", dev)
            _ip("-n", br, "link", "set", dev, "up", "multicast", "on")
            if net == 0:
                _ip("-n", br, "route", "add", "224.0.0.0/4", "dev", dev)
        router = next((i for i, nets in enumerate(self.networks) if len(nets) > 1), None)
        for i, host in enumerate(self.hosts):
            self._add_netns(host.netns, ipv6=self.ipv6)
            for k, net in enumerate(self.networks[i]):
                dev = self.links[i] if k == 0 else f"eth{k}"
                subnet = SUBNET if net == 0 else SUBNET2
                port = host.port if net == 0 else f"w{self._short}{host.letter}"
                _ip("-n", br, "link", "add", port, "type", "veth",
                    "peer", "name", dev, "netns", host.netns)
                _ip("-n", br, "link", "set", port, "master", f"br{net}")
                _ip("-n", br, "link", "set", port, "up", "multicast", "on")
                if self.ipv6:
                    _ip("-n", host.netns, "link", "set", dev, "addrgenmode", "none")
                    _ip("-n", host.netns, "addr", "add", f"fe80::{11 + i}/64", "dev", dev,
                        "nodad")
                if self.ipv4:
                    _ip("-n", host.netns, "addr", "add", f"{subnet}.{11 + i}/24", "dev", dev)
                _ip("-n", host.netns, "link", "set", dev, "up", "multicast", "on")
                if self.ipv4 and k == 0:
                    _ip("-n", host.netns, "route", "add", "224.0.0.0/4", "dev", dev)
        if self.routed and router is not None and self.ipv4:
            subprocess.run(["ip", "netns", "exec", self.hosts[router].netns, "sysctl", "-qw",
                            "net.ipv4.ip_forward=1"], capture_output=True, timeout=10,
                           check=False)
            for i, host in enumerate(self.hosts):
                if i == router:
                    continue
                net = self.networks[i][0]
                other, via = (SUBNET2, SUBNET) if net == 0 else (SUBNET, SUBNET2)
                _ip("-n", host.netns, "route", "add", f"{other}.0/24", "via",
                    f"{via}.{11 + router}")

    def _add_netns(self, name: str, ipv6: bool = False) -> None:
        _ip("netns", "add", name)
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")
        flag = "0" if ipv6 else "1"
        subprocess.run(["ip", "netns", "exec", name, "sysctl", "-qw",
                        f"net.ipv6.conf.all.disable_ipv6={flag}",
                        f"net.ipv6.conf.default.disable_ipv6={flag}"],
                       capture_output=True, timeout=10, check=False)

    def plug(self, host: Host, net: int, dev: str = "eth1") -> str:
        """Plug a cable into a running host: a new veth ``dev`` in its namespace whose other
        end (port ``p<T><letter>``) joins bridge ``br<net>`` (which must exist), up, with the
        host's address on that network (``10.23(1 + net).0.(11 + i)/24``; on a LAN without
        IPv4 only ``fe80::(11 + i)/64``, no duplicate-address detection). Everything happens
        inside the LAN's own namespaces.

        Returns:
            The new address (IPv4, or ``fe80::...%dev``).

        Raises:
            NetnsError: a step failed (the bridge does not exist, ``dev`` is taken).
        """
        i = self.hosts.index(host)
        port = f"p{self._short}{host.letter}"
        _ip("-n", self.bridge_ns, "link", "add", port, "type", "veth", "peer", "name", dev,
            "netns", host.netns)
        _ip("-n", self.bridge_ns, "link", "set", port, "master", f"br{net}")
        _ip("-n", self.bridge_ns, "link", "set", port, "up", "multicast", "on")
        if self.ipv6:
            _ip("-n", host.netns, "link", "set", dev, "addrgenmode", "none")
            _ip("-n", host.netns, "addr", "add", f"fe80::{11 + i}/64", "dev", dev, "nodad")
        address = f"fe80::{11 + i}%{dev}"
        if self.ipv4:
            address = f"{SUBNET if net == 0 else SUBNET2}.{11 + i}"
            _ip("-n", host.netns, "addr", "add", f"{address}/24", "dev", dev)
        _ip("-n", host.netns, "link", "set", dev, "up", "multicast", "on")
        return address

    # -- running --------------------------------------------------------------------------------

    def namespace(self, where: Host | str) -> str:
        """The namespace name of a host, or of ``"br"`` (the bridge)."""
        if isinstance(where, Host):
            return where.netns
        return self.bridge_ns if where == "br" else f"{self.tag}-{where}"

    def spawn(
        self,
        where: Host | str,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        log: Path | None = None,
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` inside a namespace, in a session of its own, in the project folder.

        Args:
            where: a host, or ``"br"`` for the bridge's namespace.
            argv: the command.
            env: extra environment variables (added to this process's environment).
            log: a file that receives stdout and stderr (default: discarded).
        """
        out: IO[bytes] | int = log.open("ab") if log is not None else subprocess.DEVNULL
        try:
            proc = subprocess.Popen(
                ["ip", "netns", "exec", self.namespace(where), *argv],
                cwd=ROOT, env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            if not isinstance(out, int):
                out.close()
        self._procs.append(proc)
        return proc

    def run(self, where: Host | str, argv: Sequence[str], *, timeout: float = 30.0,
            env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` inside a namespace to the end; stdout and stderr are captured as text."""
        return subprocess.run(["ip", "netns", "exec", self.namespace(where), *argv],
                              cwd=ROOT, env={**os.environ, **(env or {})},
                              capture_output=True, text=True, timeout=timeout, check=False)

    def impair(self, *, loss_percent: float, delay_ms: int, log: Path | None = None) -> str:
        """Lose ``loss_percent`` % of the packets on every link and delay the rest ``delay_ms``.

        With the kernel's netem: ``tc qdisc add dev eth0 root netem loss L% delay D ms`` on every
        host, so a packet leaves through exactly one impaired ``eth0``. Without netem, the ports
        leave ``br0`` and :mod:`tests.e2e.impair` forwards frames between them in user space
        with the same loss and delay per frame.

        Args:
            loss_percent: percent of packets dropped.
            delay_ms: milliseconds added to every packet.
            log: where the user-space forwarder's output goes.

        Returns:
            ``"netem"`` or ``"user space"``: which one is in place.

        Raises:
            NetnsError: the forwarder did not start.
        """
        if netem_unavailable() is None:
            for host in self.hosts:
                subprocess.run(
                    ["tc", "-n", host.netns, "qdisc", "add", "dev", "eth0", "root", "netem",
                     "loss", f"{loss_percent}%", "delay", f"{delay_ms}ms"],
                    capture_output=True, text=True, timeout=10, check=True)
            return "netem"
        for host in self.hosts:
            _ip("-n", self.bridge_ns, "link", "set", host.port, "nomaster")
            _ip("-n", self.bridge_ns, "link", "set", host.port, "promisc", "on")
        log = log or Path(os.devnull)
        proc = self.spawn("br", [sys.executable, "-m", "tests.e2e.impair",
                                 *(h.port for h in self.hosts), "--loss", str(loss_percent),
                                 "--delay", str(delay_ms)], log=log)
        deadline = time.monotonic() + 10
        while b"forwarding" not in (log.read_bytes() if log.exists() else b""):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise NetnsError(f"the user-space forwarder did not start (exit {proc.poll()})")
            time.sleep(0.05)
        return "user space"

    # -- teardown -------------------------------------------------------------------------------

    def stop(self, proc: subprocess.Popen[bytes], timeout: float = 5.0) -> int:
        """End one process started here (SIGTERM to its group, then SIGKILL); its exit code."""
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout)
        return proc.returncode

    def close(self) -> None:
        """End every process started here, then delete every namespace (idempotent)."""
        for proc in self._procs:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                self.stop(proc, timeout=2.0)
        self._procs.clear()
        for name in reversed(self._made):
            if _kill_inside(name):
                time.sleep(0.1)
            _ip("netns", "del", name, check=False)
        self._made.clear()
        _LIVE.discard(self)

    def __enter__(self) -> Lan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
