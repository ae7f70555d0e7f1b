"""The crash-point sweep's ``host`` kind (issue 12): ``lancards host`` and ``lancards join``
processes in network namespaces (mDNS, no address given); the host and the last joiner are
killed by the store's crash hook at random persist boundaries (the points alternating between
them, crashing again during a resume) and each time restarted with ``lancards resume
--autoplay`` while the others keep running; the game finishes for everyone with identical,
audited records (design: "Durability"). The games come from
:func:`tests.p2p.crash_sweep.schedule` (one in CI)."""

from __future__ import annotations

import dataclasses

import pytest

from lancards.p2p.store import CRASH_ENV
from tests.e2e.peers import NICKS, Peer, logs, open_table
from tests.p2p.crash_sweep import check_records, drive, schedule

pytestmark = pytest.mark.e2e

SWEEP = [g for g in schedule() if g.kind == "host"]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("planned", SWEEP, ids=lambda g: g.name)
def test_crash_point_sweep_host_and_joiner(lan, tmp_path, planned):
    sweep = dataclasses.replace(planned, crashes=[])
    peers = [Peer(lan, lan.hosts[i % len(lan.hosts)], NICKS[i], tmp_path / NICKS[i])
             for i in range(sweep.players)]
    victims = [0, sweep.players - 1]
    sweep.arm(victims, 360)

    def arm(peer: Peer, crash: str | None) -> None:
        peer.env.pop(CRASH_ENV, None)
        if crash:
            peer.env[CRASH_ENV] = crash

    for seat in victims:
        arm(peers[seat], sweep.next_crash(seat))
    open_table(peers, sweep.game)

    def restart(seat: int, crash: str | None) -> object:
        arm(peers[seat], crash)
        peers[seat].start(["resume", "--autoplay", "--record", str(peers[seat].record)])
        return peers[seat].proc

    drive(sweep, [p.proc for p in peers], restart, lambda _: logs(peers), 600)
    assert sweep.spent(), f"crash points reached: {sweep.crashes}"
    report = check_records([p.record.read_bytes() for p in peers])
    verdict = peers[0].audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    assert verdict["entries"] == report.entries
    results = {[x for x in p.output().splitlines() if x.startswith("result: ")][-1]
               for p in peers}
    assert len(results) == 1, results
