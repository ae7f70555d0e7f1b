"""Rescue across namespaces (issue 17, ruling D-5): four peers at a Level 8 table with the
option ``rescue`` on and a patience of 10 s; one join is killed with SIGKILL mid-game and never
restarted; once the patience has passed, the three others (bots sign a removal by themselves)
vote it out, publish their rescue shares and finish the game with one record that audits."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from tests.e2e.netns import ROOT
from tests.e2e.peers import finish, host_args, join_args, lancards, logs, seat_peers, wait_for

pytestmark = pytest.mark.e2e


@pytest.mark.timeout(400)
def test_a_vanished_join_is_voted_out_and_the_others_finish(lan, tmp_path):
    peers = seat_peers(lan, tmp_path, 4)
    host, victim = peers[0], peers[3]
    host.start([*host_args(host, "level8", 4), "--option", "rescue=on",
                "--option", "patience=10"])
    wait_for(lambda: "waiting for" in host.output(), 30, "the host did not advertise", [host])
    for peer in peers[1:]:
        peer.start(join_args(peer))
    wait_for(lambda: victim.journal_entries() >= 60, 120, "the game did not get going", peers)
    assert victim.proc is not None
    os.killpg(victim.proc.pid, signal.SIGKILL)
    assert victim.proc.wait(10) == -signal.SIGKILL
    codes = finish(peers[:3], 300)
    assert codes == [0, 0, 0], logs(peers)
    records = [p.record.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[0] for p in peers[:3]]
    assert all(r == records[0] for r in records), "the records differ between hosts"
    verdict = host.audit()
    assert verdict["exit"] == 0 and verdict["ok"] and verdict["finished"], verdict
    lines = records[0].decode().splitlines()
    header = json.loads(lines[0])
    gone = header["nicks"].index(victim.nick)
    rescues = [json.loads(line)["entry"] for line in lines[1:] if '"t":"rescue"' in line]
    # One rescue entry by each of the three remaining players, about the vanished seat; the
    # first carries the three signed votes.
    assert sorted(e["author"] for e in rescues) == sorted(
        k for i, k in enumerate(header["seats"]) if i != gone)
    assert {e["payload"]["seat"] for e in rescues} == {gone}
    assert len(rescues[0]["payload"]["votes"]) == 3
    assert gone not in verdict["winners"]
    told = subprocess.run(lancards("replay", str(host.record)), capture_output=True, text=True,
                          timeout=120, check=True, cwd=ROOT).stdout
    assert f"{victim.nick} is removed from the table (the hand goes out of play unopened)" in told
