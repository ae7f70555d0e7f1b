"""Where host, join and their bots listen (issue 24): both families unless one address is given,
whatever the interfaces have when the table opens."""

from __future__ import annotations

import argparse
import socket

import pytest

from lancards.cli.lobby.common import listen_host
from lancards.p2p.net import addresses
from lancards.p2p.net.addresses import LocalAddress, any_address

FOUR = LocalAddress("eth0", 2, "10.231.0.11", 4, 24)
LINK = LocalAddress("eth0", 2, "fe80::11", 6, 64)


def args(*interface: str) -> argparse.Namespace:
    return argparse.Namespace(interface=list(interface) or None)


@pytest.mark.timeout(10)
def test_an_ipv4_only_machine_listens_on_both_families_unless_one_address_is_given() -> None:
    assert any_address() == ""  # this machine opens IPv6 sockets (CI's does)
    assert listen_host(args(), [FOUR]) == ""  # it may get only IPv6 later
    assert listen_host(args("eth0"), [FOUR]) == ""  # a name follows the interface
    assert listen_host(args("10.231.0.11"), [FOUR]) == "10.231.0.11"
    assert listen_host(args("fe80::11%eth0"), [LINK]) == "fe80::11%eth0"


@pytest.mark.timeout(10)
def test_a_machine_without_ipv6_sockets_listens_on_ipv4(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_ipv6(family: int = socket.AF_INET, *rest: object) -> socket.socket:
        if family == socket.AF_INET6:
            raise OSError(97, "Address family not supported by protocol")
        return real(family, *rest)  # type: ignore[arg-type]

    real = socket.socket
    monkeypatch.setattr(addresses.socket, "socket", no_ipv6)
    assert any_address() == "0.0.0.0"
    assert listen_host(args(), [FOUR]) == "0.0.0.0"
    monkeypatch.setattr(addresses.socket, "has_ipv6", False)
    assert any_address() == "0.0.0.0"
