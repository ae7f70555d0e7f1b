"""Play again over the finished game's own links (issue 27): the adapter that moves the
agreement's messages (:class:`lancards.p2p.protocol.rematch.Rematch`) over a node's mesh once
its game is over.

While it runs, the mesh's messages go three ways: ``rematch.*`` about the finished table to the
agreement; the finished game's other traffic to its node (a peer still catching up with the end
asks for entries); anything about another table (the next game's first entries from a peer
that started it first) is kept, in order, for the next game's node. Before this seat's own
signature of the next game's statement leaves, ``before_sign`` makes the statement durable (a
seat killed then resumes like one that signed a lobby's start, ``docs/protocol.md`` 11.5).

Every answer and statement the agreement signed or took (:meth:`Rematch.take_lines`) is
journaled in the finished table's journal (kind ``rematch``, ``docs/protocol.md`` 6.1) before
the messages of the same step leave, with an ``again`` marker in its folder first (what
``lancards resume`` looks for) and envelope numbers leased (a ``mark`` line) before any
envelope numbered above the lease leaves; the folder is marked ``again-over`` once the
agreement ends (the next game's full ``table.json`` written, or no next game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.transport import Connected, Disconnected, Received, Rejected
from lancards.p2p.protocol.errors import PeerError, RemoteProtocolError, unexpected
from lancards.p2p.protocol.rematch import REMATCH_TYPES, Rematch
from lancards.p2p.protocol.start_fetch import ASK_EVERY_S, StartFetch
from lancards.p2p.protocol.table import Outgoing

STASH_MAX = 4096
"""The most messages of the next table kept while the agreement runs (the mesh's own bound)."""


REFUSALS_KEPT = 256
"""The refused messages kept for the screen (a flood is not kept for ever)."""


class RematchLink:
    """One seat's agreement over its node's mesh (see the module docstring).

    Attributes:
        stash: ``(peer, data)`` of the next table's messages that came meanwhile, in order.
        refused: each refused message, in words (named by sender and reason).
        linked: whether any link came up while :meth:`run` pumped (a restarted seat that
            stays alone is told so).

    A restarted seat (``ask_start``: given the statement it signed, the asks for the next
    table and the lease of their numbers) also asks every linked peer, every
    :data:`~lancards.p2p.protocol.start_fetch.ASK_EVERY_S` s, whether the next game started
    (``table.ask``): its signature may have reached every seat before it died, and they play.
    """

    def __init__(self, node: PeerNode, rematch: Rematch, *,
                 before_sign: Callable[[dict[str, Any]], None] | None = None,
                 changed: Callable[[], None] | None = None,
                 ask_start: Callable[[dict[str, Any]], tuple[StartFetch, Callable[[int], None]]]
                 | None = None, mark_first: Callable[[], None] | None = None) -> None:
        self.node = node
        self.rematch = rematch
        self.before_sign = before_sign
        self.changed = changed
        self.stash: list[tuple[bytes, bytes]] = []
        self.refused: list[str] = []
        self.refusals: list[RemoteProtocolError] = []
        """The same refusals as errors, for the player's words (``RemoteAgain.refusal_lines``;
        before, nothing read them: the LAN trial of 2026-12-08, h1)."""
        self.linked = False
        self.ask_start = ask_start
        self.mark_first = mark_first
        """Called before this seat's first ``again`` marker (a host's bot seat marks its
        host's folder too: ``lancards resume`` of the host finds the agreement by it)."""
        self._fetch: tuple[StartFetch, Callable[[int], None]] | None = None
        self._asked: dict[bytes, float] = {}

    def send(self, outs: Sequence[Outgoing]) -> None:
        """Journal what the agreement took and decided, then send its messages (the
        statement made durable before this seat's signature of it leaves).

        Raises:
            StorageError: a journal line or the lease cannot be written (nothing of ``outs``
                was sent).
        """
        self.journal()
        store = self.node.store
        if store is not None and outs:
            store.lease_envelopes(max(out.envelope.seq for out in outs) + 1)
        for out in outs:
            if out.envelope.type == "rematch.sign" and self.before_sign is not None:
                self.before_sign(dict(out.envelope.body["statement"]))
            data = out.envelope.encode()
            for peer in out.to:
                with contextlib.suppress(PeerError):  # queued for a link that comes back
                    self.node.mesh.send(peer, data)

    def journal(self) -> None:
        """Make the agreement's new lines durable (one ``fsync``), the ``again`` marker
        first."""
        lines = self.rematch.take_lines()
        store = self.node.store
        if not lines or store is None:
            return
        if not (store.folder / "again").exists():
            if self.mark_first is not None:
                self.mark_first()
            store.mark("again")
        store.append_all([("rematch", line) for line in lines])

    def answer(self, yes: bool, game: str | None = None) -> None:
        """This seat's answer (:meth:`Rematch.answer`; ``game``: another rule set a "yes"
        agrees to), sent to the others."""
        self.send(self.rematch.answer(yes, game))

    async def run(self, wait: float, alone: float | None = None) -> None:
        """Pump the mesh until the next game has started or cannot, or ``wait`` seconds (or
        ``alone`` seconds without any link up)."""
        loop = asyncio.get_running_loop()
        begun = loop.time()
        end = begun + wait
        mesh = self.node.mesh
        kept, self.node.kept[:] = list(self.node.kept), []
        for peer, data in kept:  # came while the node served the end of the game
            self._received(peer, data)
        while (left := end - loop.time()) > 0 and self.rematch.started is None \
                and self.rematch.failed is None:
            self.linked = self.linked or any(mesh.connected(k) for k in self.rematch.present
                                             if k != self.rematch.me.public_key)
            if alone is not None and not self.linked and loop.time() - begun > alone:
                return
            self._ask(loop.time())
            try:
                event = await mesh.next_event(min(left, 0.5))
            except PeerError:
                continue
            if not isinstance(event, Rejected) and self.node.watchers.is_observer(event.peer):
                self._observer(event)
                continue
            if isinstance(event, Connected):
                self.linked = True
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
            if self._fetch is not None and table == self._fetch[0].table_id \
                    and self._told(peer, data):
                return
            if len(self.stash) < STASH_MAX:
                self.stash.append((peer, data))
            return
        if kind not in REMATCH_TYPES:
            self.node.receive(peer, data)  # the finished game: a late peer catching up
            return
        try:
            self.send(self.rematch.receive_bytes(peer, data))
        except RemoteProtocolError as exc:
            self._refuse(exc)
        except Exception as exc:  # a bug at the door: one line, the others served
            self._refuse(unexpected(self.rematch.name(peer), exc))
        if self.changed is not None:
            self.changed()

    def _refuse(self, exc: RemoteProtocolError) -> None:
        if len(self.refusals) < REFUSALS_KEPT:
            self.refused.append(str(exc))
            self.refusals.append(exc)

    def _observer(self, event: Connected | Disconnected | Received) -> None:
        """An observer's link event: served by the finished game's watchers (it watched the
        end; ``watch.next`` follows once the next game started), its ask about the next table
        kept for the next game's node."""
        if isinstance(event, Received) and _table_of(event.data) not in (
                self.rematch.table_id, None):
            if len(self.stash) < STASH_MAX:
                self.stash.append((event.peer, event.data))
            return
        self.node.observer_event(event)

    def _ask(self, now: float) -> None:
        """A restarted seat that signed: ask the linked peers whether the next game started."""
        r = self.rematch
        if self.ask_start is None or not r.signed or r.statement is None:
            return
        if self._fetch is None or self._fetch[0].statement != r.statement:
            self._fetch = self.ask_start(dict(r.statement))
        fetch, lease = self._fetch
        for peer in fetch.seats:
            if (peer != r.me.public_key and self.node.mesh.connected(peer)
                    and now - self._asked.get(peer, -ASK_EVERY_S) >= ASK_EVERY_S):
                lease(fetch.next_seq + 1)
                with contextlib.suppress(PeerError):
                    self.node.mesh.send(peer, fetch.ask(peer))
                self._asked[peer] = now

    def _told(self, peer: bytes, data: bytes) -> bool:
        """A message about the next table while this restarted seat asks: whether it was the
        start it asked for (taken), else it is kept for the next game."""
        assert self._fetch is not None
        fetch = self._fetch[0]
        try:
            got = fetch.receive(peer, data)
            if got is None:
                return False
            self.rematch.take_started(got[0], fetch.name(peer))
        except RemoteProtocolError as exc:
            self._refuse(exc)
            return True
        self.journal()
        if self.changed is not None:
            self.changed()
        return True

    def _again_to(self, peer: bytes) -> None:
        """A link came back: this seat's answer and signature again (they may have been lost
        with the old link; receivers take a repeat as the same)."""
        self.send(self.rematch.again_to(peer))


def _table_of(data: bytes) -> str | None:
    """The ``tbl`` of an encoded envelope, ``None`` when it has none."""
    try:
        head = json.loads(data)
        return str(head["tbl"]) if isinstance(head, dict) and "tbl" in head else None
    except ValueError:
        return None
