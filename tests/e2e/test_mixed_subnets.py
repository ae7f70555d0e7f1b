"""A host and a joiner whose IPv4 networks differ, on one link with IPv6 link-local addresses
(the trial of 2026-12-06).

Ann's laptop has only ``169.254.10.1/16`` (IPv4 link-local, no DHCP server answered) and
``fe80::11`` on ``eth0``; bob's has only ``10.33.0.12/24`` and ``fe80::12``. Ann hosts with one
bot. Bob reaches the host over ``fe80::11%eth0`` only. The host's address book put the bot at
ann's first address, ``169.254.10.1``, and bob at ``fe80::12`` without its scope (the text of
``getpeername``), so neither bob nor the bot could dial the other: bob's hand stayed "0 cards +
10 pending" and the table waited for good. Now bob dials the bot where the host answered
(``fe80::11%eth0``) and the bot can dial bob at ``fe80::12%eth0``.

Everything runs inside the test's own namespaces (:mod:`tests.e2e.netns`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.netns import Lan
from tests.e2e.peers import seat_peers, wait_for
from tests.e2e.test_network import host_args, join_args, start_host

pytestmark = pytest.mark.e2e


def _readdress(lan: Lan, where: object, old: str, new: str) -> None:
    for verb, address in (("del", old), ("add", new)):
        done = lan.run(where, ["ip", "addr", verb, address, "dev", "eth0"], timeout=10)
        assert done.returncode == 0, done.stderr


@pytest.mark.timeout(150)
def test_a_joiner_on_another_ipv4_subnet_reaches_the_hosts_bot(netns_ok: None,
                                                              tmp_path: Path) -> None:
    with Lan(2, ipv4=True, ipv6=True) as lan:
        a, b = lan.hosts
        _readdress(lan, a, "10.231.0.11/24", "169.254.10.1/16")
        _readdress(lan, b, "10.231.0.12/24", "10.33.0.12/24")
        ann, bob = seat_peers(lan, tmp_path, 2)
        table, printed = start_host(ann, host_args(ann, "level8", 3, "--bots", "1"))
        assert printed == "169.254.10.1"
        bob.start(join_args(bob))
        # A round ends only once every seat's hand was dealt and everyone moved: bob got the
        # bot's decryption shares (the trial never got past "0 cards + 10 pending").
        wait_for(lambda: "round 1:" in bob.output(), 90,
                 "bob never finished round 1 (no link to the bot?)", [ann, bob])
        saved = json.loads(next(bob.home.glob(f"tables/{table}/table.json")).read_text("utf-8"))
        # The host and its bot are dialled where bob reached the host, not at 169.254.10.1.
        others = [v[0] for k, v in saved["peers"].items() if k != saved["me"]]
        assert others == ["fe80::11%eth0"] * 2, saved["peers"]
