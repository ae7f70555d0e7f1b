"""The crash-point sweep's ``host`` kind (issue 12): ``lancards host`` and ``lancards join``
processes in network namespaces (mDNS, no address given). The host (a bot, ``--autoplay``) and
the last joiner (in games of even seed a person: the full-screen table in tmux, played by keys;
else a bot) are killed by the store's crash hook at random persist boundaries (the points
alternating between them, crashing again during a resume) while the others keep running: a
bot comes back with ``lancards resume --autoplay``, the person with ``lancards resume`` in tmux
(the table on screen again). After the last point the person plays on by keys, is killed once
more and a bot finishes the seat (``lancards resume --autoplay``); the game finishes for
everyone with identical, audited records (design: "Durability"). The games come from
:func:`tests.p2p.crash_sweep.schedule` (one in CI)."""

from __future__ import annotations

import dataclasses
import re
import shutil

import pytest

from lancards.p2p.net.crash_hook import CRASH_ENV
from tests.e2e.peers import NICKS, Peer, finish, logs, open_table
from tests.p2p.crash_sweep import TmuxRun, check_records, drive, schedule, tmux_server

pytestmark = pytest.mark.e2e

SWEEP = [g for g in schedule() if g.kind == "host"]


@pytest.mark.timeout(900)
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("planned", SWEEP, ids=lambda g: g.name)
def test_crash_point_sweep_host_and_joiner(lan, tmp_path, planned):
    sweep = dataclasses.replace(planned, crashes=[])
    peers = [Peer(lan, lan.hosts[i % len(lan.hosts)], NICKS[i], tmp_path / NICKS[i])
             for i in range(sweep.players)]
    host, joiner = peers[0], peers[-1]
    as_person = sweep.seed % 2 == 0  # else a bot plays the joiner: --autoplay
    victims = [0, sweep.players - 1]
    sweep.arm(victims, 360)
    host.env[CRASH_ENV] = sweep.next_crash(0) or ""
    joiner.env[CRASH_ENV] = "" if as_person else sweep.next_crash(victims[1]) or ""
    table = open_table(peers, sweep.game, joins=peers[1:-1] if as_person else None)
    runs: list[TmuxRun] = []
    prefix = f"ip netns exec {lan.namespace(joiner.host)}"

    def start_person(crash: str | None) -> TmuxRun:
        args = ["resume"] if runs else [
            "join", "--name", joiner.nick, "--interface", joiner.address, "--wait", "30", table]
        runs.append(TmuxRun(f"{lan.tag}-sweep-{len(runs)}", joiner.home, args, crash,
                            prefix))
        return runs[-1]

    def restart(seat: int, crash: str | None) -> object:
        if seat == victims[1] and as_person:
            return start_person(crash)
        peers[seat].env[CRASH_ENV] = crash or ""
        peers[seat].start(["resume", "--autoplay", "--record", str(peers[seat].record)])
        return peers[seat].proc

    procs: list[object] = [p.proc for p in peers]
    if as_person:
        joiner.home.mkdir(parents=True, exist_ok=True)
        procs[-1] = start_person(sweep.next_crash(victims[1]))
    with tmux_server(f"{lan.tag}-sweep"):
        try:
            drive(sweep, procs, restart,
                  lambda _: logs(peers) + (runs[-1].screen() if runs else ""), 600,
                  tick=lambda: runs[-1].play() if runs else None, until_spent=as_person)
            if as_person:
                runs[-1].play_on()  # the table again, played on by keys
        finally:
            for run in runs:
                run.kill()
    if as_person:
        joiner.env.pop(CRASH_ENV, None)
        joiner.start(["resume", "--autoplay", "--record", str(joiner.record)])
    assert finish(peers, 300) == [0] * sweep.players, logs(peers)
    report = check_records([p.record.read_bytes() for p in peers])
    verdict = host.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    assert verdict["entries"] == report.entries
    title = {"level8": "Level 8", "level8-master": "Level 8 Master", "level8-en":
             "Level 8 (English)", "eights": "8s Rule!"}[sweep.game]  # the result names its game
    results = {[x for x in p.output().splitlines() if x.startswith(f"{title}: ")][-1]
               for p in peers}
    assert len(results) == 1, results
    # Once every seat signed, the host names nobody it waits for (it printed an empty list).
    assert not re.search(r"start signatures of $", host.output(), re.MULTILINE)
