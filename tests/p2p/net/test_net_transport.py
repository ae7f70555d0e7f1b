"""The websocket mesh on 127.0.0.1: 4 peers, a dropped link, refused and oversized peers.

Every wait is bounded; every server and link is closed in ``finally``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import pytest

from lancards.p2p.net.transport import (
    Connected,
    Disconnected,
    Mesh,
    Received,
    Rejected,
    TransportConfig,
    TransportEvent,
)
from lancards.p2p.protocol.errors import LocalProtocolError, QueueFullError, Reason, TransportError
from lancards.p2p.protocol.identity import Identity
from tests.p2p.protocol.helpers import people

T = TypeVar("T")

FAST = TransportConfig(
    ping_interval=1.0,
    ping_timeout=2.0,
    open_timeout=2.0,
    handshake_timeout=2.0,
    close_timeout=1.0,
    backoff_initial=0.02,
    backoff_max=0.2,
)


def run(main: Callable[[], Awaitable[None]], limit: float = 20.0) -> None:
    async def bounded() -> None:
        async with asyncio.timeout(limit):
            await main()

    asyncio.run(bounded())


async def until(
    mesh: Mesh,
    want: Callable[[TransportEvent], bool],
    timeout: float = 5.0,
) -> list[TransportEvent]:
    """Events of ``mesh`` up to and including the first one ``want`` accepts."""
    seen: list[TransportEvent] = []
    while True:
        event = await mesh.next_event(timeout)
        seen.append(event)
        if want(event):
            return seen


async def collect(mesh: Mesh, kind: type[T], n: int) -> list[T]:
    """The next ``n`` events of type ``kind`` (others are skipped)."""
    found: list[T] = []
    while len(found) < n:
        event = await mesh.next_event(5.0)
        if isinstance(event, kind):
            found.append(event)
    return found


async def start_mesh(ids: Sequence[Identity], config: TransportConfig = FAST) -> list[Mesh]:
    meshes = [Mesh(me, config) for me in ids]
    ports = [await m.start() for m in meshes]
    for a, mesh in enumerate(meshes):
        for b, other in enumerate(ids):
            if a != b:
                mesh.add_peer(other.public_key, "127.0.0.1", ports[b])
    return meshes


async def close_all(meshes: Sequence[Mesh]) -> None:
    await asyncio.gather(*(m.close() for m in meshes))


def test_four_peers_exchange_messages_in_order() -> None:
    ids = people(4)

    async def main() -> None:
        meshes = await start_mesh(ids)
        try:
            for mesh in meshes:
                await collect(mesh, Connected, 3)
            for a, mesh in enumerate(meshes):
                for b, other in enumerate(ids):
                    if a != b:
                        for k in range(5):
                            mesh.send(other.public_key, f"{a}->{b} #{k}".encode())
            for b, mesh in enumerate(meshes):
                got = await collect(mesh, Received, 15)
                for a, sender in enumerate(ids):
                    if a != b:
                        assert [r.data for r in got if r.peer == sender.public_key] == [
                            f"{a}->{b} #{k}".encode() for k in range(5)
                        ]
            assert all(
                m.connected(o.public_key)
                for m in meshes
                for o in ids
                if o.public_key != m.identity.public_key
            )
        finally:
            await close_all(meshes)

    run(main)


class Proxy:
    """A TCP relay on 127.0.0.1 whose connections the test can cut (a dropped Wi-Fi link)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


def test_dropped_link_reconnects_and_delivers_what_was_queued() -> None:
    low, high = sorted(people(2), key=lambda p: p.public_key)

    async def main() -> None:
        dialer, listener = Mesh(low, FAST), Mesh(high, FAST)
        proxy = Proxy(await listener.start())
        try:
            await dialer.start()
            listener.add_peer(low.public_key, "127.0.0.1", dialer.port)
            dialer.add_peer(high.public_key, "127.0.0.1", await proxy.start())
            await until(dialer, lambda e: isinstance(e, Connected))
            await until(listener, lambda e: isinstance(e, Connected))
            dialer.send(high.public_key, b"before")
            await until(listener, lambda e: isinstance(e, Received) and e.data == b"before")
            proxy.cut()
            (down,) = await collect(dialer, Disconnected, 1)
            assert down.peer == high.public_key
            await until(listener, lambda e: isinstance(e, Disconnected))
            dialer.send(high.public_key, b"during")  # queued while the link is down
            listener.send(low.public_key, b"back")
            await until(dialer, lambda e: isinstance(e, Connected), timeout=5.0)
            events = await until(listener, lambda e: isinstance(e, Received))
            assert [e.data for e in events if isinstance(e, Received)] == [b"during"]
            events = await until(dialer, lambda e: isinstance(e, Received))
            assert [e.data for e in events if isinstance(e, Received)] == [b"back"]
        finally:
            await close_all([dialer, listener])
            await proxy.close()

    run(main)


def test_unknown_peer_is_refused_in_the_handshake() -> None:
    ann, bob, mal = people(3)

    async def main() -> None:
        host, stranger = Mesh(ann, FAST), Mesh(mal, FAST)
        try:
            port = await host.start()
            await stranger.start()
            host.add_peer(bob.public_key, "127.0.0.1", 9)  # known, but not the stranger
            stranger.add_peer(ann.public_key, "127.0.0.1", port, dial=True)
            (rejected,) = await collect(host, Rejected, 1)
            error = rejected.error
            assert error.reason is Reason.NOT_SEATED
            assert error.sender.startswith(f"[{mal.fingerprint}] at 127.0.0.1:")
            assert not host.connected(mal.public_key)
        finally:
            await close_all([host, stranger])

    run(main)


def test_dialer_refuses_a_listener_with_another_key() -> None:
    ann, bob, cyd = sorted(people(3), key=lambda p: p.public_key)

    async def main() -> None:
        dialer, impostor = Mesh(ann, FAST), Mesh(cyd, FAST, accept=lambda pk: True)
        try:
            await dialer.start()
            port = await impostor.start()
            dialer.add_peer(bob.public_key, "127.0.0.1", port)  # bob's address, cyd answers
            (rejected,) = await collect(dialer, Rejected, 1)
            error = rejected.error
            assert error.reason is Reason.WRONG_SENDER
            assert f"expected [{bob.fingerprint}]" in error.detail
        finally:
            await close_all([dialer, impostor])

    run(main)


def test_oversized_message_closes_the_link_naming_the_sender() -> None:
    low, high = sorted(people(2), key=lambda p: p.public_key)
    small = dataclasses.replace(FAST, max_size=4096)

    async def main() -> None:
        sender, receiver = Mesh(low, FAST), Mesh(high, small)
        meshes = [sender, receiver]
        try:
            await sender.start()
            sender.add_peer(high.public_key, "127.0.0.1", await receiver.start())
            receiver.add_peer(low.public_key, "127.0.0.1", sender.port)
            await until(receiver, lambda e: isinstance(e, Connected))
            sender.send(high.public_key, b"x" * 10_000)
            events = await until(receiver, lambda e: isinstance(e, Disconnected))
            # One line naming the sender (the LAN trial of 2026-12-08: the log said nothing).
            [rejected] = [e for e in events if isinstance(e, Rejected)]
            assert rejected.error.reason is Reason.OVERSIZED
            text = str(rejected.error)
            assert text.startswith(f"rejected message from [{low.fingerprint}] at 127.0.0.1:")
            assert text.endswith(": oversized: a frame larger than 4096 bytes closed the link")
            reason = events[-1].reason
            assert reason == f"closed 1009: [{low.fingerprint}] sent an oversized message"
            assert rejected.peer == low.public_key  # the node names it by its nickname
            # The sender's own frame was refused: it blames nobody (the LAN trial with a
            # seated attacker: the sender read "rejected message from [receiver]: oversized").
            mine = await until(sender, lambda e: isinstance(e, Disconnected))
            assert not [e for e in mine if isinstance(e, Rejected)]
            assert mine[-1].reason == f"closed 1009: [{high.fingerprint}] refused a frame of ours"
            await until(receiver, lambda e: isinstance(e, Connected))
            sender.send(high.public_key, b"small")
            (received,) = await collect(receiver, Received, 1)
            assert received.data == b"small"
        finally:
            await close_all(meshes)

    run(main)


def test_a_text_frame_closes_the_link_with_one_line_naming_the_sender() -> None:
    low, high = sorted(people(2), key=lambda p: p.public_key)

    async def main() -> None:
        sender, receiver = Mesh(low, FAST), Mesh(high, FAST)
        try:
            await sender.start()
            sender.add_peer(high.public_key, "127.0.0.1", await receiver.start())
            receiver.add_peer(low.public_key, "127.0.0.1", sender.port)
            await until(receiver, lambda e: isinstance(e, Connected))
            await until(sender, lambda e: isinstance(e, Connected))
            await sender._links[high.public_key].ws.send("text frame")
            events = await until(receiver, lambda e: isinstance(e, Disconnected))
            [rejected] = [e for e in events if isinstance(e, Rejected)]
            assert rejected.error.reason is Reason.BAD_FRAME
            text = str(rejected.error)
            assert text.startswith(f"rejected message from [{low.fingerprint}] at 127.0.0.1:")
            assert text.endswith(": bad-frame: a text frame closed the link (every frame is "
                                 "binary)")
            assert events[-1].reason == "closed: a text frame"
        finally:
            await close_all([sender, receiver])

    run(main)


def test_queue_cap_and_local_limits() -> None:
    ann, bob = people(2)

    async def main() -> None:
        mesh = Mesh(ann, TransportConfig(queue_cap=3, max_size=100, backoff_initial=0.05))
        try:
            await mesh.start()
            mesh.add_peer(bob.public_key, "127.0.0.1", 9, dial=True)  # nobody listens there
            for i in range(3):
                mesh.send(bob.public_key, bytes([i]))
            assert mesh.queued(bob.public_key) == 3
            with pytest.raises(QueueFullError, match=r"full \(3 messages\)"):
                mesh.send(bob.public_key, b"4")
            with pytest.raises(LocalProtocolError, match="exceeds 100"):
                mesh.send(bob.public_key, bytes(101))
            with pytest.raises(LocalProtocolError, match="unknown peer"):
                mesh.send(people(3)[2].public_key, b"x")
            with pytest.raises(TransportError, match=r"no transport event within 0\.1 s"):
                await mesh.next_event(0.1)
        finally:
            await mesh.close()
        with pytest.raises(TransportError, match="closed"):
            mesh.send(bob.public_key, b"late")

    run(main)


def test_a_seated_member_that_restarted_gets_back_in_whichever_key_is_lower() -> None:
    """Issue 12, situation 1: after the start a listener still accepts seated members (here a
    host whose lobby no longer admits newcomers), so a restarted joiner with the lower key
    dials back in; with the higher key, the host redials it."""
    low, high = sorted(people(2), key=lambda p: p.public_key)

    async def restart_of(joiner: Identity, host_key: bytes, host_port: int, port: int) -> Mesh:
        again = Mesh(joiner, FAST)
        await again.start("127.0.0.1", port)
        again.add_peer(host_key, "127.0.0.1", host_port)  # the default rule: lower key dials
        return again

    async def main() -> None:
        for joiner_id, host_id in ((low, high), (high, low)):
            host = Mesh(host_id, FAST, accept=lambda pk: False)  # the lobby is closed
            joiner = Mesh(joiner_id, FAST)
            meshes = [host, joiner]
            try:
                host_port = await host.start()
                joiner_port = await joiner.start()
                host.admit([joiner_id.public_key])
                joiner.add_peer(host_id.public_key, "127.0.0.1", host_port, dial=True)  # lobby
                await until(host, lambda e: isinstance(e, Connected))
                # The game starts: both sides take the lower-key rule.
                host.add_peer(joiner_id.public_key, "127.0.0.1", joiner_port)
                joiner.add_peer(host_id.public_key, "127.0.0.1", host_port)
                await joiner.close()  # kill -9: the kernel closes its sockets
                (down,) = await collect(host, Disconnected, 1)
                assert down.peer == joiner_id.public_key
                meshes[1] = await restart_of(joiner_id, host_id.public_key, host_port,
                                             joiner_port)
                (up,) = await collect(host, Connected, 1)
                assert up.peer == joiner_id.public_key
                await until(meshes[1], lambda e: isinstance(e, Connected))
                host.send(joiner_id.public_key, b"welcome back")
                await until(meshes[1], lambda e: isinstance(e, Received)
                            and e.data == b"welcome back")
            finally:
                await close_all(meshes)

    run(main, limit=40.0)


# Issue 23, situation 11: a relay between two peers ---------------------------------------------


class WsRelay:
    """A hostile relay on 127.0.0.1: a websocket server that forwards every frame to the real
    listener and back (the hello included, so the link comes up "authenticated as" the peer),
    and can inject frames of its own or alter one it forwards."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.upstream: list[object] = []  # connections to the listener, latest last
        self.forwarded = 0
        self.alter_next = False
        self.server: object | None = None

    async def start(self) -> int:
        from websockets.asyncio.server import serve

        self.server = await serve(self._relay, "127.0.0.1", 0, compression=None)
        return int(next(iter(self.server.sockets)).getsockname()[1])  # type: ignore[attr-defined]

    async def _relay(self, down: object) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        async with connect(f"ws://127.0.0.1:{self.target_port}/", compression=None,
                           proxy=None) as up:
            self.upstream.append(up)

            async def pipe(src: object, dst: object, alter: bool) -> None:
                try:
                    async for frame in src:  # type: ignore[attr-defined]
                        if alter and self.alter_next:  # set once the hello went through
                            self.alter_next = False
                            frame = bytes([frame[0] ^ 0x01]) + frame[1:]
                        self.forwarded += 1
                        await dst.send(frame)  # type: ignore[attr-defined]
                except ConnectionClosed:
                    pass
                finally:
                    await dst.close()  # type: ignore[attr-defined]

            await asyncio.gather(pipe(down, up, True), pipe(up, down, False))

    async def inject(self, frame: bytes) -> None:
        """Send ``frame`` to the listener as if it came from the dialer."""
        await self.upstream[-1].send(frame)  # type: ignore[attr-defined]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()  # type: ignore[attr-defined]


def test_a_relay_carries_the_link_but_cannot_inject_or_alter_a_frame() -> None:
    low, high = sorted(people(2), key=lambda p: p.public_key)
    ack = (b'{"body":{"hash":"' + b"ab" * 32 + b'","seq":3},"from":"'
           + low.public_key.hex().encode()
           + b'","seq":0,"sig":"","tbl":"0123456789abcdef","type":"record.ack","v":1}')

    async def main() -> None:
        dialer, listener = Mesh(low, FAST), Mesh(high, FAST)
        relay = WsRelay(await listener.start())
        try:
            await dialer.start()
            listener.admit([low.public_key])  # no address: only the relayed link reaches it
            dialer.add_peer(high.public_key, "127.0.0.1", await relay.start())
            await until(dialer, lambda e: isinstance(e, Connected))
            await until(listener, lambda e: isinstance(e, Connected))
            dialer.send(high.public_key, b"genuine")
            events = await until(listener, lambda e: isinstance(e, Received))
            assert [e.data for e in events if isinstance(e, Received)] == [b"genuine"]
            assert relay.forwarded == 4  # the hello's three messages, then the frame
            # 1. Injection: an unsigned ack in the clear, as the relay would have sent it as
            #    the dialer before frames were sealed.
            await relay.inject(ack)
            events = await until(listener, lambda e: isinstance(e, Disconnected))
            assert not [e for e in events if isinstance(e, Received)]
            [rejected] = [e for e in events if isinstance(e, Rejected)]
            assert rejected.error.reason is Reason.BAD_FRAME
            assert rejected.error.sender.startswith(f"[{low.fingerprint}] at 127.0.0.1:")
            assert "frame 1 of the link fails its authentication" in rejected.error.detail
            assert events[-1].reason.startswith("closed 1008: frame 1 of the link")
            # 2. Alteration: the dialer redials (through the relay again); the relay flips one
            #    bit of the next frame it forwards.
            await until(listener, lambda e: isinstance(e, Connected))
            relay.alter_next = True
            dialer.send(high.public_key, b"altered on the way")
            events = await until(listener, lambda e: isinstance(e, Disconnected))
            assert not [e for e in events if isinstance(e, Received)]
            [rejected] = [e for e in events if isinstance(e, Rejected)]
            assert rejected.error.reason is Reason.BAD_FRAME
            assert "frame 0 of the link" in rejected.error.detail
            # What the relay forwards faithfully still arrives, and only that.
            await until(listener, lambda e: isinstance(e, Connected))
            dialer.send(high.public_key, b"after")
            events = await until(listener, lambda e: isinstance(e, Received))
            assert [e.data for e in events if isinstance(e, Received)] == [b"after"]
        finally:
            await close_all([dialer, listener])
            await relay.close()

    run(main)


def test_the_higher_key_dials_when_the_lower_holds_a_dead_address_and_tells_its_own() -> None:
    """Issue 23, situation 11: an address is a hint. The lower key (the one that dials by the
    rule) holds a dead port for the higher; the higher dials after ``fallback_after`` and its
    hello tells the port it listens on, which then comes first among the lower's candidates."""
    low, high = sorted(people(2), key=lambda p: p.public_key)
    fallback = FAST.fallback_after
    assert fallback is not None

    async def main() -> None:
        dialer, listener = Mesh(low, FAST), Mesh(high, FAST)
        try:
            await dialer.start()
            await listener.start()
            dead = Mesh(people(3)[2], FAST)
            dead_port = await dead.start()
            await dead.close()  # nothing listens there now
            dialer.add_peer(high.public_key, "127.0.0.1", dead_port)
            listener.add_peer(low.public_key, "127.0.0.1", dialer.port)
            loop = asyncio.get_running_loop()
            began = loop.time()
            await until(dialer, lambda e: isinstance(e, Connected), timeout=fallback + 3)
            assert loop.time() - began >= fallback * 0.9  # the higher key waited first
            assert dialer.addresses(high.public_key) == [("127.0.0.1", listener.port),
                                                         ("127.0.0.1", dead_port)]
            dialer.send(high.public_key, b"through the link the higher key dialled")
            events = await until(listener, lambda e: isinstance(e, Received))
            assert [e.data for e in events if isinstance(e, Received)] == [
                b"through the link the higher key dialled"]
        finally:
            await close_all([dialer, listener])

    run(main)
