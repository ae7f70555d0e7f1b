"""``lancards host`` / ``join`` / ``resume`` processes on the test network, one per namespace.

A :class:`Peer` is one person's laptop: a host of the :class:`~tests.e2e.netns.Lan`, its own
``LANCARDS_HOME`` (identity and table journal), its log and its record file. No peer is given
an address: ``host`` advertises on its interface and every ``join`` finds the table by mDNS.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.netns import ROOT, Host, Lan

NICKS = ("ann", "bob", "cyd", "dee", "eve", "fay", "gus", "hal")


def lancards(*args: str) -> list[str]:
    """The command line of ``lancards ARGS`` with this interpreter."""
    return [sys.executable, "-m", "lancards", *args]


@dataclass
class Peer:
    """One ``lancards`` process (and its restarts) on one host.

    Attributes:
        lan: the network.
        host: where it runs.
        nick: its nickname.
        folder: its files: ``home/`` (LANCARDS_HOME), ``log.txt``, ``record.jsonl``, ``hand.txt``.
        env: extra environment (test hooks).
        proc: the running (or last) process.
    """

    lan: Lan
    host: Host
    nick: str
    folder: Path
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return self.host.address

    def public_key(self) -> str:
        """Its Ed25519 key (hex); creates its identity file in ``home`` on first use."""
        from lancards.p2p.net.identity_file import identity_path, load_or_create_identity

        path = identity_path(env={"LANCARDS_HOME": str(self.home)})
        return load_or_create_identity(path, nick=self.nick).public_key.hex()

    @property
    def home(self) -> Path:
        return self.folder / "home"

    @property
    def log(self) -> Path:
        return self.folder / "log.txt"

    @property
    def record(self) -> Path:
        return self.folder / "record.jsonl"

    @property
    def hand(self) -> Path:
        return self.folder / "hand.txt"

    def start(self, args: Sequence[str]) -> None:
        """Run ``lancards ARGS`` on this peer's host (output appended to its log)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        env = {"LANCARDS_HOME": str(self.home), "LANCARDS_TEST_DUMP_HAND": str(self.hand),
               "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = self.lan.spawn(self.host, lancards(*args), env=env, log=self.log)

    def output(self) -> str:
        """Everything the peer printed so far (all its runs)."""
        try:
            return self.log.read_text("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def journal_entries(self) -> int:
        """Entries in its table journal (0 before the table started)."""
        return sum(p.read_bytes().count(b'"kind":"entry"')
                   for p in self.home.glob("tables/*/journal.jsonl"))

    def hidden_hand(self) -> list[str]:
        """The ``CARD#SLOT`` tokens of its final hidden hand (``LANCARDS_TEST_DUMP_HAND``)."""
        return self.hand.read_text("utf-8").split()

    def audit(self) -> dict[str, object]:
        """``lancards audit RECORD --json`` (run outside the namespaces: it is offline)."""
        proc = subprocess.run(lancards("audit", "--json", str(self.record)), capture_output=True,
                              text=True, timeout=120, check=False, cwd=ROOT)
        verdict: dict[str, object] = json.loads(proc.stdout)
        verdict["exit"] = proc.returncode
        return verdict


def seat_peers(lan: Lan, folder: Path, count: int,
               env: Mapping[int, Mapping[str, str]] | None = None) -> list[Peer]:
    """``count`` peers, one per host, nicknames ``ann``, ``bob``, ...; ``env[i]`` for peer i."""
    return [Peer(lan, lan.hosts[i], NICKS[i], folder / NICKS[i], dict((env or {}).get(i, {})))
            for i in range(count)]


def host_args(peer: Peer, game: str, players: int) -> list[str]:
    return ["host", "--game", game, "--players", str(players), "--autoplay", "--name", peer.nick,
            "--interface", peer.host.address, "--record", str(peer.record)]


def join_args(peer: Peer, wait: float = 30.0) -> list[str]:
    return ["join", "--autoplay", "--name", peer.nick, "--interface", peer.host.address,
            "--wait", str(wait), "--record", str(peer.record)]


def wait_for(predicate: object, timeout: float, what: str, peers: Sequence[Peer] = ()) -> None:
    """Poll ``predicate()`` every 50 ms; fail naming ``what`` (and the peers' logs) on timeout.

    Raises:
        AssertionError: not true within ``timeout`` seconds, or a peer ended meanwhile.
    """
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while not predicate():
        ended = [p for p in peers if p.proc is not None and p.proc.poll() is not None]
        if ended or time.monotonic() > deadline:
            why = f"{ended[0].nick} exited {ended[0].proc.returncode}" if ended and ended[0].proc \
                else f"{timeout:.0f} s passed"
            raise AssertionError(f"{what}: {why}\n{logs(peers)}")
        time.sleep(0.05)


def logs(peers: Sequence[Peer], tail: int = 1500) -> str:
    """The end of every peer's log, for assertion messages."""
    return "\n".join(f"--- {p.nick} ({p.host.address})\n{p.output()[-tail:]}" for p in peers)


def open_table(peers: Sequence[Peer], game: str, timeout: float = 30.0,
               joins: Sequence[Peer] | None = None) -> str:
    """Start the host (``peers[0]``) of a table for ``len(peers)``, wait for its
    advertisement, start the joins of ``joins`` (default: every other peer).

    Returns:
        The table id the host printed.
    """
    first = peers[0]
    first.start(host_args(first, game, len(peers)))
    wait_for(lambda: "waiting for" in first.output(), timeout, "the host did not advertise",
             [first])
    table = first.output().split("table ", 1)[1].split()[0]
    for peer in peers[1:] if joins is None else joins:
        peer.start(join_args(peer))
    return table


def finish(peers: Sequence[Peer], timeout: float, *, fail_fast: bool = True) -> list[int]:
    """Wait for every peer's process to end; their exit codes in the order of ``peers``.

    Args:
        peers: the peers.
        timeout: seconds to wait in all.
        fail_fast: stop waiting as soon as one peer exits with a non-zero status.

    Raises:
        AssertionError: one still runs after ``timeout`` seconds, or (``fail_fast``) one failed
            (the logs say where).
    """
    deadline = time.monotonic() + timeout
    while True:
        codes = [p.proc.poll() if p.proc is not None else -1 for p in peers]
        failed = [p.nick for p, c in zip(peers, codes, strict=True) if c not in (None, 0)]
        if fail_fast and failed:
            raise AssertionError(f"{', '.join(failed)} failed: {codes}\n{logs(peers)}")
        if all(c is not None for c in codes):
            return [int(c) for c in codes if c is not None]
        if time.monotonic() > deadline:
            running = [p.nick for p, c in zip(peers, codes, strict=True) if c is None]
            raise AssertionError(f"{', '.join(running)} still run after {timeout:.0f} s\n"
                                 f"{logs(peers)}")
        time.sleep(0.1)
