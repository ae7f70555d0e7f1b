"""Fetching the started table for a resume over a mesh: the adapter around
:class:`lancards.p2p.protocol.start_fetch.StartFetch` (``docs/protocol.md``, "Resuming a seat
signed but not started").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping

from lancards.p2p.net.transport import Mesh, Received
from lancards.p2p.protocol.errors import PeerError, RemoteProtocolError, unexpected
from lancards.p2p.protocol.start_fetch import ASK_EVERY_S, START_WAIT_S, Addresses, StartFetch
from lancards.p2p.protocol.statement import StartedTable


async def fetch_started(
    mesh: Mesh,
    fetch: StartFetch,
    addresses: Mapping[bytes, tuple[str, int]],
    *,
    wait: float = START_WAIT_S,
    lease: Callable[[int], None] | None = None,
    refused: Callable[[RemoteProtocolError], None] | None = None,
) -> tuple[StartedTable, Addresses] | None:
    """Ask the seated peers for the started table until one answers well or ``wait`` s pass.

    Args:
        mesh: this seat's mesh, listening; every seat of the statement is admitted, the
            ``addresses`` known are dialled.
        fetch: the asks and their checks.
        addresses: the seated peers' addresses this seat knows (its ``table.json``).
        wait: the bound, in seconds.
        lease: called with the next envelope number before each ask is sent, to make it
            durable first (:meth:`lancards.p2p.net.store.TableStore.lease_envelopes`).
        refused: called with the error of each refused answer (its one-line ``str`` names the
            peer; its reason code, for the player's language: ``cli/peer_errors.py``);
            an exception no door expected is refused the same way (the last-resort guard,
            :func:`lancards.p2p.protocol.errors.unexpected`, issue 23) and the other peers are
            asked on.

    Returns:
        The started table and the answering peer's address book, or ``None``: no seated peer
        answered with the signed statement's start within ``wait`` s. The seated peers' other
        messages are put back at the head of ``mesh.events``, in order, for the game.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    mesh.admit(k for k in fetch.seats if k != fetch.me.public_key)
    for key, (host, port) in addresses.items():
        if key in fetch.seats and key != fetch.me.public_key:
            mesh.add_peer(key, host, port, dial=True)
    last_ask: dict[bytes, float] = {}
    stash: list[Received] = []

    def ask(peer: bytes) -> None:
        if lease is not None:
            lease(fetch.next_seq + 1)
        with contextlib.suppress(PeerError):
            mesh.send(peer, fetch.ask(peer))
        last_ask[peer] = loop.time()

    while (left := end - loop.time()) > 0:
        for peer in fetch.seats:
            if (peer != fetch.me.public_key and mesh.connected(peer)
                    and loop.time() - last_ask.get(peer, -ASK_EVERY_S) >= ASK_EVERY_S):
                ask(peer)
        try:
            event = await mesh.next_event(min(left, 0.5))
        except PeerError:
            continue
        if isinstance(event, Received):
            try:
                got = fetch.receive(event.peer, event.data)
            except RemoteProtocolError as exc:
                if refused is not None:
                    refused(exc)
                continue
            except Exception as exc:
                if refused is not None:
                    refused(unexpected(fetch.name(event.peer), exc))
                continue
            if got is not None:
                _give_back(mesh, stash)
                return got
            if len(stash) < mesh.config.event_cap:
                stash.append(event)
    _give_back(mesh, stash)
    return None


def _give_back(mesh: Mesh, stash: list[Received]) -> None:
    """Put the seated peers' other messages back at the head of ``mesh``'s events, in order
    (their game traffic, a ``record.sync`` among it, is for the game that follows)."""
    later = []
    while not mesh.events.empty():
        later.append(mesh.events.get_nowait())
    for event in [*stash, *later]:
        with contextlib.suppress(asyncio.QueueFull):  # beyond the mesh's bound: dropped
            mesh.events.put_nowait(event)
