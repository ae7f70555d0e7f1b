"""Probing a listener's key for a join by address (:func:`probe_key`): one hello, no link."""

from __future__ import annotations

import asyncio
import os

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from lancards.p2p.net.failure_words import failure
from lancards.p2p.protocol.errors import HandshakeError, Reason, TransportError
from lancards.p2p.protocol.handshake import MAX_HELLO_BYTES, HelloHandshake
from lancards.p2p.protocol.identity import Identity


async def probe_key(host: str, port: int, identity: Identity, timeout: float = 5.0) -> bytes:
    """The Ed25519 key of the peer listening at ``host:port`` (for a join by address).

    Sends a hello and checks the listener's signed reply; the key is then proven again by the
    real link's handshake. The link is closed at once (the proof is never sent).

    Raises:
        TransportError: nothing answers (code ``no-answer``, ``address`` and ``why``, a
            :class:`~lancards.p2p.net.failure_words.Failure`), or the answer is not a valid
            hello (``bad-hello``, ``no-hello``, with ``address``).
    """
    url = f"ws://{host}:{port}/" if ":" not in host else f"ws://[{host}]:{port}/"
    hs = HelloHandshake.dialer(identity, os.urandom(32), f"{host}:{port}",
                               ephemeral=os.urandom(32), expected=None)
    try:
        async with asyncio.timeout(timeout):
            async with connect(url, compression=None, proxy=None, open_timeout=timeout,
                               max_size=MAX_HELLO_BYTES) as ws:
                first = hs.start()
                assert first is not None
                await ws.send(first)
                data = await ws.recv()
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed) as exc:
        why = failure(exc, timeout=timeout)  # the exception: the --verbose log only
        raise TransportError(
            f"no lancards table answers at {host}:{port} ({why.english()}), or it takes no "
            "more players (full or started)").with_code(
                "no-answer", address=f"{host}:{port}", why=why) from None
    try:
        hs.receive(data if isinstance(data, bytes) else data.encode())
    except HandshakeError as exc:
        if exc.reason is Reason.BAD_SIGNATURE:
            raise TransportError(
                f"{host}:{port} answered with a hello that does not verify").with_code(
                    "bad-hello", address=f"{host}:{port}") from None
        raise TransportError(f"{host}:{port} did not answer with a lancards hello").with_code(
            "no-hello", address=f"{host}:{port}") from None
    assert hs.peer is not None
    return hs.peer


__all__ = ["probe_key"]
