"""Joining a table that is full and started, by its address: the key that answered, the join
asking for a seat (``--autoplay`` prints its waiting screen's lines), then one error line
saying it started and how to watch it, exit 2, nothing kept."""

from __future__ import annotations

import re

import pytest

from tests.e2e.peers import finish, host_args, join_args, logs, seat_peers, wait_for

pytestmark = pytest.mark.e2e


def test_join_by_address_a_started_table_is_refused(lan, tmp_path):
    ann, bob, cyd = seat_peers(lan, tmp_path, 3)
    ann.start(host_args(ann, "level8", 2))
    wait_for(lambda: "lancards join --game level8" in ann.output(), 30, "ann's table", [ann])
    target = re.search(r"(\w{16}@[\d.]+:\d+)", ann.output())
    assert target, ann.output()
    bob.start(join_args(bob))
    wait_for(lambda: bob.journal_entries() > 5, 60, "the game under way", [ann, bob])
    cyd.start(["join", "--autoplay", "--name", cyd.nick, "--interface", cyd.address,
               "--game", "level8", target.group(1)])
    assert cyd.proc is not None and cyd.proc.wait(60) == 2
    out = cyd.output().strip().splitlines()
    address = target.group(1).split("@")[1]
    assert len(out) == 3 and out[0].startswith("host: [") and out[0].endswith(f"at {address}")
    host = out[0].removeprefix("host: ").removesuffix(f" at {address}")
    assert out[1] == f"asking the table of {host} at {address} for a seat..."  # --autoplay's
    assert out[2] == (f"lancards join: error: the table at {address} has started: nobody can "
                      f"join it now (lancards watch {target.group(1)} watches it)"), out
    assert not list(cyd.home.glob("tables/*"))  # nothing kept for a table it never sat at
    assert finish([ann, bob], 240) == [0, 0], logs([ann, bob])
