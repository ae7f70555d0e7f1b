"""The websockets adapter: a full mesh of authenticated links that only moves bytes.

Every pair of peers keeps one WebSocket (RFC 6455) link; the peer with the lower Ed25519 public
key (bytewise) dials, the other listens, and the dialer reconnects with exponential backoff
when the link drops. Frames are binary, uncompressed, at most ``max_size`` bytes; keepalive pings
go every ``ping_interval`` seconds. Each peer has an outgoing queue capped at ``queue_cap``
messages that survives reconnections (a message being sent when a link drops is sent again:
delivery is at least once; the protocol core drops duplicates by sequence number).

Who dials: the peer with the lower key dials whenever no link is up (a lobby may ask a joiner to
dial the host first: ``add_peer(dial=True)``; calling :meth:`Mesh.add_peer` again with the
default sets the rule back). The other side dials too once no link has been up for
``fallback_after`` seconds: an address is only a hint (an address book from another peer may be
false), so when the lower key cannot reach the higher, the higher, which may hold the lower's
true address, reaches it. A listener accepts a link from any key added with
:meth:`Mesh.add_peer` or :meth:`Mesh.admit` at any time, e.g. a seated member that restarted
after a crash, whichever key is lower. A newer link from the same peer replaces the older one,
except that a link dialled by the higher key never replaces one dialled by the lower key (both
ends decide alike, so two links crossing each other settle on one).

Addresses: each peer has up to :data:`MAX_CANDIDATES` candidate addresses, tried in turn; the
one that answered moves to the front, and so does what the peer itself tells: the host its link
came from and the port its hello says it listens on (``docs/protocol.md``, "Transport").

Hello handshake: :class:`lancards.p2p.protocol.handshake.HelloHandshake` (sans-I/O); the mesh only
moves its bytes, bounded by ``handshake_timeout``. Every later frame carries a tag under the
keys of that handshake (:class:`lancards.p2p.protocol.channel.LinkChannel`: ChaCha20-Poly1305 over
the message, a counter per direction); a frame whose tag fails closes the link (code 1008) and is
reported as :class:`Rejected` (reason ``bad-frame``), and nothing of it reaches
:attr:`Mesh.events` as data.

The adapter hands everything to the sans-I/O core as :data:`TransportEvent` values on
:attr:`Mesh.events` (a bounded ``asyncio.Queue``): :class:`Connected`, :class:`Disconnected`,
:class:`Received` (bytes, not yet decoded) and :class:`Rejected` (a failed handshake).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.connection import Connection
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from lancards.p2p.net.addresses import link_host
from lancards.p2p.net.link_refusal import link_refusal
from lancards.p2p.protocol.channel import TAG_BYTES, LinkChannel
from lancards.p2p.protocol.errors import (
    FrameError,
    HandshakeError,
    LocalProtocolError,
    QueueFullError,
    Reason,
    TransportError,
)
from lancards.p2p.protocol.handshake import HelloHandshake
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.wire import MAX_MESSAGE_BYTES


@dataclass(frozen=True, slots=True)
class TransportConfig:
    """Limits and timings of a mesh. Times in seconds, sizes in bytes.

    Attributes:
        max_size: the largest frame accepted (a bigger one closes the link with code 1009).
        ping_interval: keepalive ping period.
        ping_timeout: a link whose pong is this late is closed.
        open_timeout: bound on opening a TCP connection and the WebSocket handshake.
        handshake_timeout: bound on the hello handshake.
        close_timeout: bound on closing a link.
        queue_cap: the most messages queued for one peer.
        event_cap: the most events waiting in :attr:`Mesh.events`.
        backoff_initial: the first reconnection delay.
        backoff_max: the longest reconnection delay.
        fallback_after: seconds without a link after which the side that the key rule does
            not make dial dials too (``None``: never).
    """

    max_size: int = MAX_MESSAGE_BYTES
    ping_interval: float = 3.0
    ping_timeout: float = 6.0
    open_timeout: float = 5.0
    handshake_timeout: float = 5.0
    close_timeout: float = 2.0
    queue_cap: int = 512
    event_cap: int = 4096
    backoff_initial: float = 0.05
    backoff_max: float = 5.0
    fallback_after: float | None = 2.0


DROP_CODE = 4000
"""The close code of a link :meth:`Mesh.drop` closed (its reason is a word the peer shows)."""

MAX_CANDIDATES = 4
"""The most addresses kept for one peer (tried in turn; the latest confirmed first)."""

Address = tuple[str, int]
"""(host, port)."""


@dataclass(frozen=True, slots=True)
class Connected:
    """An authenticated link to ``peer`` (32-byte key) is up."""

    peer: bytes


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The link to ``peer`` went down; ``reason`` says why (e.g. ``"closed 1009: ..."``)."""

    peer: bytes
    reason: str


@dataclass(frozen=True, slots=True)
class Received:
    """One binary message from ``peer`` (its authenticated key)."""

    peer: bytes
    data: bytes


@dataclass(frozen=True, slots=True)
class Rejected:
    """A connection that failed the hello handshake, or a frame of a link that failed its
    authentication, was larger than the limit or was a text frame (the link is then closed):
    ``error`` names who and why."""

    address: str
    error: HandshakeError | FrameError
    peer: bytes | None = None
    """The link's peer (its key) when the hello completed: a frame refused on a link."""


TransportEvent = Connected | Disconnected | Received | Rejected


@dataclass(slots=True)
class _Link:
    """One link that is up: its websocket, its channel, and whether the lower key dialled it."""

    ws: Connection
    channel: LinkChannel
    canonical: bool


class _Outbox:
    """A peer's outgoing queue: capped, survives reconnections, one consumer at a time."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.items: deque[bytes] = deque()
        self.ready = asyncio.Event()

    def put(self, data: bytes, name: str) -> None:
        if len(self.items) >= self.cap:
            raise QueueFullError(f"queue to {name} is full ({self.cap} messages)")
        self.items.append(data)
        self.ready.set()

    def push_front(self, data: bytes) -> None:
        self.items.appendleft(data)
        self.ready.set()

    async def get(self) -> bytes:
        while not self.items:
            self.ready.clear()
            await self.ready.wait()
        return self.items.popleft()


class Mesh:
    """This peer's side of the full mesh.

    Args:
        identity: this peer's identity (signs the handshake).
        config: limits and timings.
        accept: whether to accept a listener-side link from a key that was not added with
            :meth:`add_peer` (a lobby host accepts newcomers); default: known peers only.
    """

    def __init__(
        self,
        identity: Identity,
        config: TransportConfig | None = None,
        *,
        accept: Callable[[bytes], bool] | None = None,
    ) -> None:
        self.identity = identity
        self.config = config or TransportConfig()
        self.events: asyncio.Queue[TransportEvent] = asyncio.Queue(self.config.event_cap)
        self.accept = accept
        """Whether to let in a link from a key not added (see ``accept`` above); may be set."""
        self._server: Server | None = None
        self._addresses: dict[bytes, list[Address]] = {}
        self._outboxes: dict[bytes, _Outbox] = {}
        self._links: dict[bytes, _Link] = {}
        self._dialers: dict[bytes, asyncio.Task[None]] = {}
        self._dial: dict[bytes, bool] = {}
        self._down: dict[bytes, asyncio.Event] = {}
        self._up: dict[bytes, asyncio.Event] = {}
        self._down_at: dict[bytes, float] = {}
        self._admitted: set[bytes] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._rng = random.Random(os.urandom(8))
        self.remote_hosts: dict[bytes, str] = {}
        """The address each listener-side link came from, a link-local one with its scope (a lobby
        host learns joiners' hosts)."""

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen for links; returns the port (an ephemeral one when ``port`` is 0).

        Raises:
            TransportError: the address cannot be bound.
        """
        cfg = self.config
        try:
            self._server = await serve(
                self._serve_link,
                host,
                port,
                max_size=cfg.max_size + TAG_BYTES,
                compression=None,
                ping_interval=cfg.ping_interval,
                ping_timeout=cfg.ping_timeout,
                open_timeout=cfg.open_timeout,
                close_timeout=cfg.close_timeout,
            )
        except OSError as exc:
            raise TransportError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        return self.port

    @property
    def port(self) -> int:
        """The listening port.

        Raises:
            LocalProtocolError: :meth:`start` was not called.
        """
        if self._server is None:
            raise LocalProtocolError("the mesh is not listening")
        return int(next(iter(self._server.sockets)).getsockname()[1])

    async def close(self) -> None:
        """Close every link, stop reconnecting, stop listening; waits at most a few
        ``close_timeout`` seconds."""
        self._closing = True
        for task in [*self._dialers.values(), *self._tasks]:
            task.cancel()
        links = [link.ws for link in self._links.values()]
        if links:
            await asyncio.wait(
                [asyncio.ensure_future(ws.close()) for ws in links],
                timeout=self.config.close_timeout,
            )
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.config.close_timeout * 2):
                    await self._server.wait_closed()
        pending = [*self._dialers.values(), *self._tasks]
        if pending:
            await asyncio.wait(pending, timeout=self.config.close_timeout)

    # -- peers -------------------------------------------------------------------------------

    def add_peer(self, peer: bytes, host: str, port: int, *, dial: bool | None = None) -> None:
        """Keep a link to ``peer``, with ``host:port`` as its first address to try (calling
        again puts that address first and updates who dials; a link that is up stays up).

        Args:
            peer: its Ed25519 key, 32 bytes.
            dial: whether this side dials when no link is up; default: when this peer's key is
                the lower one. Either way the other side dials after ``fallback_after``.

        Raises:
            LocalProtocolError: ``peer`` is not a 32-byte key or is this peer's own.
        """
        if len(peer) != 32 or peer == self.identity.public_key:
            raise LocalProtocolError(f"cannot add peer {describe(peer)}")
        self._prefer(peer, (host, port))
        self._outbox(peer)
        should_dial = self.identity.public_key < peer if dial is None else dial
        self._dial[peer] = should_dial
        self._down_at.setdefault(peer, self._now())
        task = self._dialers.get(peer)
        wanted = should_dial or self.config.fallback_after is not None
        if wanted and (task is None or task.done()) and not self._closing:
            self._dialers[peer] = asyncio.create_task(self._dial_loop(peer))

    def addresses(self, peer: bytes) -> list[Address]:
        """The addresses this mesh tries for ``peer``, first the one it tries next (at most
        :data:`MAX_CANDIDATES`; empty when none is known)."""
        return list(self._addresses.get(peer, ()))

    def _prefer(self, peer: bytes, address: Address) -> None:
        """Put ``address`` first among ``peer``'s candidates (at most :data:`MAX_CANDIDATES`)."""
        known = [a for a in self._addresses.get(peer, []) if a != address]
        self._addresses[peer] = [address, *known][:MAX_CANDIDATES]

    def admit(self, peers: Iterable[bytes]) -> None:
        """Accept listener-side links from ``peers`` at any time, with or without an address
        (the seated members of a started table)."""
        self._admitted.update(p for p in peers if p != self.identity.public_key)
        for peer in self._admitted:
            self._outbox(peer)

    def connected(self, peer: bytes) -> bool:
        """Whether the link to ``peer`` is up."""
        return peer in self._links

    def queued(self, peer: bytes) -> int:
        """How many messages wait in the queue to ``peer``."""
        box = self._outboxes.get(peer)
        return 0 if box is None else len(box.items)

    def send(self, peer: bytes, data: bytes) -> None:
        """Queue ``data`` for ``peer`` (sent as one binary message when the link is up).

        Raises:
            LocalProtocolError: ``data`` exceeds ``max_size``, or the peer is unknown.
            QueueFullError: ``queue_cap`` messages already wait for ``peer``.
            TransportError: the mesh is closed.
        """
        if self._closing:
            raise TransportError("the mesh is closed")
        if len(data) > self.config.max_size:
            raise LocalProtocolError(f"message of {len(data)} bytes exceeds {self.config.max_size}")
        box = self._outboxes.get(peer)
        if box is None:
            raise LocalProtocolError(f"no link to unknown peer {describe(peer)}")
        box.put(data, describe(peer))

    def drop(self, peer: bytes, reason: str) -> None:
        """Close the link to an unseated ``peer`` (an observer) with code :data:`DROP_CODE` and
        ``reason`` (a word, at most 100 bytes) as the close reason, and forget it: its queue and
        what was kept of its link (it is never dialled; called again once the link is down, it
        forgets the rest). Does nothing for a seated member's key."""
        if peer in self._addresses or peer in self._admitted:
            return
        self._outboxes.pop(peer, None)
        for kept in (self.remote_hosts, self._down_at, self._down, self._up):
            kept.pop(peer, None)
        link = self._links.get(peer)
        if link is not None:
            task = asyncio.ensure_future(link.ws.close(DROP_CODE, reason[:100]))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def next_event(self, timeout: float) -> TransportEvent:
        """The next event, waiting at most ``timeout`` seconds.

        Raises:
            TransportError: no event within ``timeout``.
        """
        try:
            async with asyncio.timeout(timeout):
                return await self.events.get()
        except TimeoutError:
            raise TransportError(f"no transport event within {timeout} s") from None

    # -- internals ---------------------------------------------------------------------------

    def _outbox(self, peer: bytes) -> _Outbox:
        if peer not in self._outboxes:
            self._outboxes[peer] = _Outbox(self.config.queue_cap)
        return self._outboxes[peer]

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    def _own_port(self) -> int:
        """The port told in this side's hello (0 when not listening)."""
        return 0 if self._server is None else self.port

    async def _stays_down(self, peer: bytes) -> bool:
        """For the side that does not dial by the key rule: wait until no link to ``peer`` has
        been up for ``fallback_after`` seconds; ``False`` when a link came up meanwhile."""
        assert self.config.fallback_after is not None
        wait = self._down_at.get(peer, self._now()) + self.config.fallback_after - self._now()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._link_up(peer).wait()
        return peer not in self._links

    async def _dial_loop(self, peer: bytes) -> None:
        cfg = self.config
        delay = cfg.backoff_initial
        turn = 0  # which candidate address is next
        while not self._closing:
            if peer in self._links:  # a link is up (either side dialed): wait until it drops
                await self._link_down(peer).wait()
                delay = cfg.backoff_initial
                continue
            if not self._dial.get(peer):
                if cfg.fallback_after is None:
                    return
                if not await self._stays_down(peer):
                    continue
            candidates = self._addresses[peer]
            host, port = candidates[turn % len(candidates)]
            address = f"{host}:{port}"
            try:
                ws = await connect(
                    f"ws://{host}:{port}/" if ":" not in host else f"ws://[{host}]:{port}/",
                    max_size=cfg.max_size + TAG_BYTES,
                    compression=None,
                    proxy=None,
                    ping_interval=cfg.ping_interval,
                    ping_timeout=cfg.ping_timeout,
                    open_timeout=cfg.open_timeout,
                    close_timeout=cfg.close_timeout,
                )
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
                ws = None
            turn += 1
            if ws is not None:
                try:
                    channel = await self._hello_as_dialer(ws, peer, address)
                except HandshakeError as exc:
                    await ws.close()
                    await self.events.put(Rejected(address, exc))
                except (ConnectionClosed, TimeoutError, OSError):
                    await ws.close()
                else:
                    delay = cfg.backoff_initial
                    turn = 0
                    self._prefer(peer, (host, port))  # it answered: tried first from now on
                    await self._run_link(ws, peer, channel, dialed=True)
            if self._closing:
                break
            await asyncio.sleep(delay * (0.75 + 0.5 * self._rng.random()))
            delay = min(delay * 2, cfg.backoff_max)

    async def _serve_link(self, ws: ServerConnection) -> None:
        address = "{}:{}".format(*ws.remote_address[:2])
        try:
            hs = await self._hello_as_listener(ws, address)
        except HandshakeError as exc:
            await self.events.put(Rejected(address, exc))
            return
        except (ConnectionClosed, TimeoutError, OSError):
            return
        assert hs.peer is not None
        peer = hs.peer
        host = link_host(ws.remote_address)  # fe80::12%eth0: dialled again as it is
        self.remote_hosts[peer] = host
        if hs.peer_port and peer in self._addresses:
            # What the peer itself tells: the host it came from, the port it listens on.
            self._prefer(peer, (host, hs.peer_port))
        await self._run_link(ws, peer, hs.channel(), dialed=False)

    def _link_down(self, peer: bytes) -> asyncio.Event:
        event = self._down.get(peer)
        if event is None:
            event = self._down[peer] = asyncio.Event()
        if peer in self._links:
            event.clear()
        else:
            event.set()
        return event

    def _link_up(self, peer: bytes) -> asyncio.Event:
        event = self._up.get(peer)
        if event is None:
            event = self._up[peer] = asyncio.Event()
        if peer in self._links:
            event.set()
        else:
            event.clear()
        return event

    def _known(self, peer: bytes) -> bool:
        return (peer in self._addresses or peer in self._admitted
                or (self.accept is not None and self.accept(peer)))

    async def _recv_frame(self, ws: Connection, hs: HelloHandshake) -> bytes:
        data = await ws.recv()
        if isinstance(data, str):
            raise HandshakeError(hs.address, Reason.HANDSHAKE, "hello must be a binary frame"
                                 ).with_code("hello-text")
        return data

    async def _hello_as_dialer(self, ws: Connection, expected: bytes,
                               address: str) -> LinkChannel:
        hs = HelloHandshake.dialer(self.identity, os.urandom(32), address,
                                   ephemeral=os.urandom(32), expected=expected,
                                   port=self._own_port())
        async with asyncio.timeout(self.config.handshake_timeout):
            first = hs.start()
            assert first is not None
            await ws.send(first)
            proof = hs.receive(await self._recv_frame(ws, hs))
            assert proof is not None and hs.complete
            await ws.send(proof)
        return hs.channel()

    async def _hello_as_listener(self, ws: Connection, address: str) -> HelloHandshake:
        hs = HelloHandshake.listener(self.identity, os.urandom(32), address,
                                     ephemeral=os.urandom(32), is_known=self._known,
                                     port=self._own_port())
        async with asyncio.timeout(self.config.handshake_timeout):
            reply = hs.receive(await self._recv_frame(ws, hs))
            assert reply is not None
            await ws.send(reply)
            hs.receive(await self._recv_frame(ws, hs))
        assert hs.complete and hs.peer is not None
        return hs

    async def _run_link(self, ws: Connection, peer: bytes, channel: LinkChannel, *,
                        dialed: bool) -> None:
        canonical = dialed == (self.identity.public_key < peer)
        old = self._links.get(peer)
        if old is not None and old.canonical and not canonical:
            # Both sides dialed at once: the lower key's link stays (the other end keeps the
            # same one, whichever came up first there).
            await ws.close(1000, "the link dialled by the lower key is up")
            return
        link = self._links[peer] = _Link(ws, channel, canonical)
        self._link_down(peer)
        self._link_up(peer)
        if old is not None:
            await old.ws.close(1000, "replaced by a newer link")
        outbox = self._outbox(peer)
        sender = asyncio.create_task(self._pump_out(link, outbox))
        self._tasks.add(sender)
        await self.events.put(Connected(peer))
        reason = "closed"
        try:
            async for message in ws:
                if isinstance(message, str):
                    await ws.close(1003, "binary frames only")
                    reason = "closed: a text frame"
                    await self.events.put(Rejected(channel.name, link_refusal(channel, "text"),
                                                   peer))
                    break
                try:
                    data = channel.open(message)
                except FrameError as exc:
                    await ws.close(1008, "a frame failed its authentication")
                    reason = f"closed 1008: {exc.detail}"
                    await self.events.put(Rejected(channel.name, exc, peer))
                    break
                await self.events.put(Received(peer, data))
        except ConnectionClosed as exc:
            reason = f"closed {exc.rcvd.code if exc.rcvd else 1006}: " + (
                exc.rcvd.reason if exc.rcvd and exc.rcvd.reason else str(exc)
            )
            if exc.sent is not None and exc.sent.code == 1009 and not exc.rcvd_then_sent:
                reason = f"closed 1009: {describe(peer)} sent an oversized message"
                if not self._closing:  # one line a link: it is closed
                    await self.events.put(Rejected(channel.name, link_refusal(
                        channel, "oversized", self.config.max_size), peer))
            elif exc.rcvd is not None and exc.rcvd.code in (1003, 1009):
                # The other end refused a frame of ours (its line names us): no blame here,
                # the reason only (--verbose; the LAN trial's sender blamed the receiver).
                reason = f"closed {exc.rcvd.code}: {describe(peer)} refused a frame of ours"
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
            self._tasks.discard(sender)
            if self._links.get(peer) is link:
                del self._links[peer]
                self._down_at[peer] = self._now()
                self._link_down(peer)
                self._link_up(peer)
                if not self._closing:
                    await self.events.put(Disconnected(peer, reason))

    async def _pump_out(self, link: _Link, outbox: _Outbox) -> None:
        while True:
            data = await outbox.get()
            try:
                await link.ws.send(link.channel.seal(data))
            except ConnectionClosed:
                outbox.push_front(data)
                return
            except asyncio.CancelledError:
                outbox.push_front(data)
                raise
