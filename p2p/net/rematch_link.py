"""Play again over the finished game's own links (issue 27): the adapter that moves the
agreement's messages (:class:`lancards.p2p.protocol.rematch.Rematch`) over a node's mesh once
its game is over.

While it runs, the mesh's messages go three ways: ``rematch.*`` about the finished table to the
agreement; the finished game's other traffic to its node (a peer still catching up with the end
asks for entries); anything about another table (the next game's first entries from a peer
that started it first) is kept, in order, for the next game's node. Before this seat's own
signature of the next game's statement leaves, ``before_sign`` makes the statement durable (a
seat killed then resumes like one that signed a lobby's start, ``docs/protocol.md`` 11.5).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.transport import Connected, Received
from lancards.p2p.protocol.errors import PeerError, RemoteProtocolError, unexpected
from lancards.p2p.protocol.rematch import REMATCH_TYPES, Rematch
from lancards.p2p.protocol.table import Outgoing

STASH_MAX = 4096
"""The most messages of the next table kept while the agreement runs (the mesh's own bound)."""


class RematchLink:
    """One seat's agreement over its node's mesh (see the module docstring).

    Attributes:
        stash: ``(peer, data)`` of the next table's messages that came meanwhile, in order.
        refused: each refused message, in words (named by sender and reason).
    """

    def __init__(self, node: PeerNode, rematch: Rematch, *,
                 before_sign: Callable[[dict[str, Any]], None] | None = None,
                 changed: Callable[[], None] | None = None) -> None:
        self.node = node
        self.rematch = rematch
        self.before_sign = before_sign
        self.changed = changed
        self.stash: list[tuple[bytes, bytes]] = []
        self.refused: list[str] = []

    def send(self, outs: Sequence[Outgoing]) -> None:
        """Send the agreement's messages (the statement made durable before this seat's
        signature of it leaves)."""
        for out in outs:
            if out.envelope.type == "rematch.sign" and self.before_sign is not None:
                self.before_sign(dict(out.envelope.body["statement"]))
            data = out.envelope.encode()
            for peer in out.to:
                with contextlib.suppress(PeerError):  # queued for a link that comes back
                    self.node.mesh.send(peer, data)

    def answer(self, yes: bool) -> None:
        """This seat's answer (:meth:`Rematch.answer`), sent to the others."""
        self.send(self.rematch.answer(yes))

    async def run(self, wait: float) -> None:
        """Pump the mesh until the next game has started or cannot, or ``wait`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        mesh = self.node.mesh
        kept, self.node.kept[:] = list(self.node.kept), []
        for peer, data in kept:  # came while the node served the end of the game
            self._received(peer, data)
        while (left := end - loop.time()) > 0 and self.rematch.started is None \
                and self.rematch.failed is None:
            try:
                event = await mesh.next_event(min(left, 0.5))
            except PeerError:
                continue
            if isinstance(event, Connected):
                self.node.handle(self.node.core.peer_connected(event.peer))
                self._again_to(event.peer)
                continue
            if not isinstance(event, Received):
                continue
            self._received(event.peer, event.data)

    def _received(self, peer: bytes, data: bytes) -> None:
        try:
            head = json.loads(data)
            kind, table = str(head.get("type")), str(head.get("tbl"))
        except (ValueError, AttributeError):
            kind, table = "", self.rematch.table_id
        if table != self.rematch.table_id:
            if len(self.stash) < STASH_MAX:
                self.stash.append((peer, data))
            return
        if kind not in REMATCH_TYPES:
            self.node.receive(peer, data)  # the finished game: a late peer catching up
            return
        try:
            self.send(self.rematch.receive_bytes(peer, data))
        except RemoteProtocolError as exc:
            self.refused.append(str(exc))
        except Exception as exc:  # a bug at the door: one line, the others served
            self.refused.append(str(unexpected(self.rematch.name(peer), exc)))
        if self.changed is not None:
            self.changed()

    def _again_to(self, peer: bytes) -> None:
        """A link came back: this seat's answer and signature again (they may have been lost
        with the old link; receivers take a repeat as the same)."""
        r = self.rematch
        mine = r.answers.get(r.me.public_key)
        outs: list[Outgoing] = []
        if mine is not None:
            outs.append(r._out((peer,), "rematch.answer", {"answer": mine[1]}))
        if r.signed and r.statement is not None:
            outs.append(r._out((peer,), "rematch.sign",
                               {"statement": r.statement, "sigs": dict(r.sigs)}))
        with contextlib.suppress(PeerError):
            for out in outs:
                self.node.mesh.send(peer, out.envelope.encode())
