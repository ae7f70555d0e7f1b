"""Where a peer dials the others: the host a link came from (with its scope) and the host's
address book as a joiner dials it (the seats on the host's machine at the address that
answered). The e2e test of the same is ``tests/e2e/test_mixed_subnets.py``."""

from __future__ import annotations

import socket

import pytest

from lancards.p2p.net.addresses import book_addresses, link_host

HOST, BOT, BOB, CYD = (bytes([i]) * 32 for i in range(1, 5))


def test_a_link_local_peer_keeps_its_scope() -> None:
    # getpeername gives ('fe80::12', port, flowinfo, scope id): the host text alone cannot be
    # dialled, so a bot that got 'fe80::12' for the joiner from the host never reached it.
    lo = socket.if_indextoname(1)
    assert link_host(("fe80::12", 40688, 0, 1)) == f"fe80::12%{lo}"


@pytest.mark.parametrize("peer, host", [
    (("10.33.0.12", 40688), "10.33.0.12"),
    (("fd00::2", 40688, 0, 0), "fd00::2"),
    (("fe80::12%eth0", 40688, 0, 2), "fe80::12%eth0"),
    (("::ffff:10.33.0.12", 40688, 0, 0), "::ffff:10.33.0.12"),
])
def test_other_peer_hosts_are_kept_as_they_are(peer: tuple[object, ...], host: str) -> None:
    assert link_host(peer) == host


def test_the_hosts_bots_are_dialled_where_the_host_answered() -> None:
    # The trial: the host has 169.254.10.1/16 and fe80::11 on eth0, the joiner 10.33.0.12/24
    # and fe80::12. The host wrote its first address for itself and its bot (which came over
    # loopback); the joiner reached the host at fe80::11%eth0 only.
    book = {HOST: ("169.254.10.1", 4143), BOT: ("169.254.10.1", 40853),
            BOB: ("fe80::12%wlan0", 37212)}
    assert book_addresses(book, HOST, "fe80::11%eth0") == {
        HOST: ("fe80::11%eth0", 4143), BOT: ("fe80::11%eth0", 40853),
        BOB: ("fe80::12%eth0", 37212)}


def test_the_other_seats_keep_their_addresses() -> None:
    book = {HOST: ("10.33.0.11", 4143), BOB: ("10.33.0.12", 5000), CYD: ("192.0.2.7", 6000)}
    assert book_addresses(book, HOST, "10.33.0.21") == {
        HOST: ("10.33.0.21", 4143), BOB: ("10.33.0.12", 5000), CYD: ("192.0.2.7", 6000)}
    # A book without the host's own entry changes only the link-local scopes.
    assert book_addresses({BOB: ("fe80::12%eth1", 5000)}, HOST, "fe80::11%eth0") == {
        BOB: ("fe80::12%eth0", 5000)}
