"""With 10% packet loss and 50 ms delay on every link (``tc netem``), a game still finishes.

Where the kernel has no netem qdisc (``sch_netem``), the same loss and delay per frame come from
a user-space forwarder that replaces the bridge (:mod:`tests.e2e.impair`).
"""

from __future__ import annotations

import pytest

from tests.e2e.netns import netem_unavailable
from tests.e2e.peers import finish, logs, open_table, seat_peers

pytestmark = pytest.mark.e2e


@pytest.mark.slow  # a whole game at 50 ms a hop: a two-player game keeps it near a minute
@pytest.mark.long  # loss and delay only slow a game down: LANCARDS_LONG=1 plays it
def test_lossy_slow_links_game_finishes(lan, tmp_path):
    how = lan.impair(loss_percent=10, delay_ms=50, log=tmp_path / "impair.txt")
    assert how == ("netem" if netem_unavailable() is None else "user space")
    peers = seat_peers(lan, tmp_path, 2)
    open_table(peers, "level8", timeout=60)
    codes = finish(peers, 360)
    assert codes == [0, 0], logs(peers)
    # One record but for the closing line each peer signs itself.
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers]
    assert all(r == records[0] for r in records)
    verdict = peers[0].audit()
    assert verdict["ok"] and verdict["finished"], verdict
