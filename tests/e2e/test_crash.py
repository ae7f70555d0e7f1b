"""The host's process is killed with SIGKILL mid-game and restarted with ``lancards resume``:
it reconnects from its journal and the game finishes for everyone (design: "Durability")."""

from __future__ import annotations

import os
import signal

import pytest

from tests.e2e.peers import finish, logs, open_table, seat_peers, wait_for

pytestmark = pytest.mark.e2e

KILL_AT = 120
"""Journal entries the host has before it is killed (a level8 game has about 300)."""


def test_host_killed_and_resumed_finishes(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 4)
    host = peers[0]
    open_table(peers, "level8")
    wait_for(lambda: host.journal_entries() >= KILL_AT, 90, "the game did not get going", peers)
    assert host.proc is not None
    os.killpg(host.proc.pid, signal.SIGKILL)
    assert host.proc.wait(10) == -signal.SIGKILL
    killed_at = host.journal_entries()
    assert not host.record.exists()
    # The others wait for the host; nobody gives up or finishes without it.
    others = peers[1:]
    assert all(p.proc is not None and p.proc.poll() is None for p in others), logs(peers)
    host.start(["resume", "--autoplay", "--record", str(host.record)])
    codes = finish(peers, 150)
    assert codes == [0, 0, 0, 0], logs(peers)
    # One record but for the closing line each peer signs itself.
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert all(r == records[0] for r in records), "records differ after the resume"
    verdict = host.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    assert verdict["entries"] > killed_at
    results = {[x for x in p.output().splitlines() if x.startswith("result: ")][-1]
               for p in peers}
    assert len(results) == 1, results
