"""The asyncio adapter: runs one :class:`~lancards.p2p.protocol.core.GameCore` over a websocket mesh
and a store.

It only moves bytes and events: transport events go into the core, the core's outputs go to
the store (``Persist``, made durable first), to the mesh (``Send``) and to listeners
(``Notice``). Key handlers of the terminal client call :meth:`PeerNode.submit`, which returns
at once.

A storage fault (a journal write that fails: full disk, read-only or vanished folder, I/O
error; :class:`~lancards.p2p.net.store.StorageError`) pauses the seat (issue 24): the node
carries out nothing more (no send, no write), makes no more entries, and :meth:`PeerNode.run`
raises the error, whose one line says what to do before ``lancards resume``. Nothing the node
sent was ever less durable than the journal: each batch is written before the sends after it.

Bots are played here, never inside the core: :func:`drive_bot` is the one driver, woken by the
table's own changes (:meth:`PeerNode.next_turn`; no polling), for every bot seat of every table
(a peer's seat, a bot seat of :class:`lancards.cli.local_session.LocalSession`: any
:class:`Turns`); tables in memory without asyncio take the same turns with :func:`bot_moves`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from lancards.p2p.net.bots import Chooser, Turns, bot_moves, drive_bot, game_bot, my_turn
from lancards.p2p.net.checkpoint_writer import CheckpointWriter
from lancards.p2p.net.reach import LinkReport
from lancards.p2p.net.refusal_limit import RefusalLimit
from lancards.p2p.net.sleep_watch import SleepWatch, only_the_gone_unanswered
from lancards.p2p.net.store import StorageError, TableStore
from lancards.p2p.net.transport import Connected, Disconnected, Mesh, Received, Rejected
from lancards.p2p.net.waiting import (
    SILENT_S,
    Waiting,
    back_notice,
    first_chance,
    table_wait,
    waiting_text,
)
from lancards.p2p.protocol.checkpoint import may_checkpoint, snapshot
from lancards.p2p.protocol.core import GameCore, Notice, Output, Persist, Send
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    PeerError,
    QueueFullError,
    Refusal,
    TransportError,
    unexpected,
)
from lancards.p2p.protocol.removal import RemovalPolicy
from lancards.p2p.protocol.watchers import Drop, Watchers, WatchOutput

HOLD_MAX_S = 30.0
"""Longest hold of a seat's entries after a sleep or restore (GameCore.hold_until_synced)."""
CHECKPOINT_EVERY = 128
"""Entries between two checkpoints of a peer (started while idle, :meth:`PeerNode.run`, and
written by a child process, :class:`CheckpointWriter`): a resume replays at most this many
entries after loading the checkpoint (0.24 to 0.55 s to be current on this machine). Every 32
entries, pickled in the peer, doubled the move latency p95 of a 6-peer table on two cores;
docs/benchmarks.md has the figures."""

@dataclass(frozen=True, slots=True)
class PeerAddress:
    """Where a seated peer listens."""

    host: str
    port: int


class PeerNode:
    """One peer: the game core, its mesh links and its store.

    Args:
        core: the protocol core (new, or restored from the store).
        mesh: the websocket mesh, already listening (:meth:`Mesh.start`).
        store: where the journal goes, or ``None`` (tests that keep nothing).
        on_change: called after every batch of outputs (to redraw a screen).
    """

    def __init__(self, core: GameCore, mesh: Mesh, store: TableStore | None = None, *,
                 on_change: Callable[[], None] | None = None) -> None:
        self.core = core
        core.checks_when_idle = True  # run() checks pipelined proofs while idle
        self.mesh = mesh
        self.store = store
        self.on_change = on_change
        self.notices: list[Notice] = []
        self.kept: list[tuple[bytes, bytes]] = []  # "play again" messages (issue 27)
        self.connected: set[bytes] = set()
        self._others = [m.public_key for m in core.players if m.public_key != core.me.public_key]
        mesh.admit(self._others)  # a seated member may (re)connect at any time
        self.watchers = Watchers(core)
        """This seat's observers (``docs/protocol.md`` 11.11): never waited for."""
        mesh.accept = self.watchers.may_link  # a bounded number of unseated links
        self._stop = asyncio.Event()
        self._changed = asyncio.Event()  # set after every batch of outputs and on stop
        self.timings: TextIO | None = None
        self._dealt = False
        self._clock = time.monotonic
        self.refusals = RefusalLimit()  # a stranger's refused links: one line a minute each
        self.sleep_watch = SleepWatch()  # see _after_wait
        self._held_at: float | None = None  # when a sleep began holding this seat's entries
        self._progress_at = self._clock()
        self.down_since: dict[bytes, float] = {k: self._progress_at for k in self._others}
        self._created_at = self._progress_at  # before run(): a restored screen's first frames
        self._dropped: dict[bytes, float] = {}  # when each link last dropped (back_notice)
        self._told_back: dict[bytes, int] = {}  # returns told, by peer (back_notice)
        self._back_at: dict[bytes, float] = {}  # when each peer's last return was told
        self._started_at: float | None = None  # when run() began (back_notice)
        self.link_report = LinkReport()  # the seats this one tells it has no link to
        self._length = len(core.record)
        self._checkpointed = len(core.record)  # the record's length at the last checkpoint
        self.checkpoints = None if store is None else CheckpointWriter(store)
        self.removal = RemovalPolicy(float(core.table.spec.options.get("patience", 120)))
        """When this peer says "no" to a removal round and may vote again (issue 23)."""
        self.auto_remove = False
        """Whether :meth:`run` signs every removal :meth:`removal_offer` allows without asking
        (a bot's seat; a person's screen asks "remove NAME? (y/n)")."""
        self.catching_up = False
        """Set by :meth:`run` for a restored peer (or one back from a sleep; by the session
        that restored it already, for its screen's first frame) until it is current:
        linked, its hold after a sleep ended (:meth:`_after_wait`), and its record as
        long as every length the peers reported (``record.sync``)."""
        self.fault: StorageError | None = None
        """The storage fault that paused this seat (issue 24), once one did."""

    def connect(self, addresses: Mapping[bytes, PeerAddress]) -> None:
        """Keep links to every other seated peer at ``addresses`` (the lower key dials)."""
        for key in self._others:
            address = addresses.get(key)
            if address is not None:
                self.mesh.add_peer(key, address.host, address.port)

    def handle(self, outputs: Sequence[Output]) -> None:
        """Carry out the core's outputs in order (durable writes before later sends; the
        journal lines before one send share one ``fsync``, :meth:`TableStore.append_all`).

        Before the first ``Send`` of a batch the store leases the envelope numbers the core
        has used so far (:meth:`TableStore.lease_envelopes`), so a restarted peer never signs
        an envelope number twice.

        A write that fails (:class:`StorageError`) pauses the seat: the sends after it in the
        batch, and every later batch, are dropped (never sent, never written), :attr:`fault`
        keeps the error and :meth:`stop` ends :meth:`run`, which raises it (issue 24).
        """
        if self.fault is not None:
            return  # paused: what was not made durable never leaves
        try:
            self._carry_out(outputs)
            if self.watchers.served:
                self._watch(self.watchers.top_up())
        except StorageError as exc:
            self.fault = exc
            self.stop()
            if self.on_change is not None:
                self.on_change()

    def _carry_out(self, outputs: Sequence[Output]) -> None:
        leased = False
        pending: list[tuple[str, dict[str, Any]]] = []  # durable with one fsync, before a send
        for out in outputs:
            if isinstance(out, Send):
                if self.store is not None:
                    self.store.append_all(pending)
                    pending.clear()
                    if not leased:
                        leased = True
                        self.store.lease_envelopes(self.core.next_envelope_seq)
                targets = self._others if out.to is None else [out.to]
                for key in targets:
                    try:
                        self.mesh.send(key, out.data)
                    except QueueFullError:  # the core's "sent once" no longer holds
                        self.core.send_dropped(key)
                    except PeerError:
                        pass
            elif isinstance(out, Persist):
                pending.append((out.kind, out.line))
                if self.timings is not None and out.kind == "entry":
                    self._timing({"seq": out.line["seq"], "author": out.line["author"][:16]})
            else:
                self.notices.append(out)
        if self.store is not None:
            self.store.append_all(pending)
        if len(self.core.record) != self._length:
            self._length = len(self.core.record)
            self._progress_at = self._clock()
        if self.timings is not None and not self._dealt:
            to_act = self.core.to_act()
            if to_act is not None and to_act >= 0 and self.core.hand_ready():
                self._dealt = True
                self._timing({"dealt": True})
        self._changed.set()
        if self.on_change is not None:
            self.on_change()

    def _watch(self, outputs: Sequence[WatchOutput]) -> None:
        """Carry out what :class:`Watchers` decided: queue the messages to observers (one
        whose queue is full is dropped: the table never waits for an observer) and close the
        links of those it dropped. Nothing of it is journaled or shown on the table."""
        for out in outputs:
            if isinstance(out, Drop):
                self.mesh.drop(out.key, out.reason)
                continue
            assert out.to is not None
            try:
                self.mesh.send(out.to, out.data)
            except QueueFullError:
                self._watch(self.watchers.queue_full(out.to))
            except PeerError:
                pass

    def next_table(self, table: Any) -> None:
        """Tell every observer served that the table plays again: ``table``, the next game's
        started table (``watch.next``, issue 27)."""
        self._watch(self.watchers.next_table(table))

    def observer_event(self, event: Connected | Disconnected | Received) -> None:
        """A transport event of an unseated key's link: an observer's."""
        if isinstance(event, Connected):
            self.watchers.link_up(event.peer)
        elif isinstance(event, Disconnected):
            self.watchers.link_down(event.peer)
            self.mesh.drop(event.peer, "gone")  # forgets its queue (no link to close)
        else:
            self._watch(self.watchers.receive(event.peer, event.data))

    def checkpoint_due(self) -> bool:
        """Whether :meth:`_checkpoint` would write now."""
        return (self.checkpoints is not None and not self.checkpoints.busy
                and len(self.core.record) >= self._checkpointed + CHECKPOINT_EVERY)

    def _checkpoint(self) -> None:
        """Every :data:`CHECKPOINT_EVERY` entries, when the core's state is what a replay of
        its journal gives (:func:`may_checkpoint`), replace the table folder's
        checkpoint (issue 24, situation 7: ``lancards resume`` then replays only the lines
        after it). Pickling takes 0.1 to 0.3 s late in a game, so a child process does it
        (:class:`CheckpointWriter`), and :meth:`run` starts it only while idle, after the links
        wrote what was sent: written inside :meth:`handle` it held every message just sent (the
        move latency p95 of a 6-peer table doubled)."""
        assert self.store is not None and self.checkpoints is not None
        if self.checkpoint_due() and may_checkpoint(self.core):
            self._checkpointed = len(self.core.record)
            core, lines = self.core, self.store.lines
            self.checkpoints.write(lambda: snapshot(core, lines))

    def turn(self) -> Sequence[Any]:
        """This seat's legal actions if it is to move now (:func:`my_turn`), else ``[]``."""
        return [] if self._stop.is_set() else my_turn(self.core)

    async def next_turn(self) -> Sequence[Any]:
        """Wait until this seat is to move: it has legal actions and no move of its own is
        still in flight; returns them. Returns an empty list once the game is over, the table
        halted, or :meth:`stop` was called. Woken by every batch of outputs (no polling): the
        one way bots are driven (:func:`drive_bot`)."""
        while True:
            if self.over() or self._stop.is_set():
                return []
            legal = my_turn(self.core)
            if legal:
                return legal
            await self.next_change()

    async def next_change(self) -> None:
        """Wait for the next batch of outputs (or :meth:`stop`)."""
        self._changed.clear()
        await self._changed.wait()

    def _timing(self, item: dict[str, object]) -> None:
        """Append a line to the timings file (benchmarks only): wall time ``t`` (seconds since
        the epoch) and this process's CPU time ``cpu`` (seconds)."""
        assert self.timings is not None
        self.timings.write(json.dumps({**item, "t": time.time(), "cpu": time.process_time()})
                           + "\n")
        self.timings.flush()  # read while the peer runs (lancards bench resume)

    def _check_fault(self) -> None:
        """Make no entry on a paused seat: raise its :attr:`fault`."""
        if self.fault is not None:
            raise self.fault

    def submit(self, action: object) -> None:
        """Play ``action`` for this seat (raises ``EngineError`` or ``LocalProtocolError``;
        :class:`StorageError` once a storage fault paused the seat: no entry is made)."""
        self._check_fault()
        self.handle(self.core.submit(action))

    def leave(self) -> None:
        """This seat leaves the table for good (:meth:`GameCore.leave`; raises
        ``LocalProtocolError`` when it cannot, :class:`StorageError` on a paused seat)."""
        self._check_fault()
        self.handle(self.core.leave())

    def pause(self) -> None:
        """Tell the others this person paused (:meth:`GameCore.pause`); then close the node."""
        self.handle(self.core.pause())

    def chat(self, text: str) -> None:
        """Send a chat line (:class:`StorageError` on a paused seat)."""
        self._check_fault()
        self.handle(self.core.chat(text))

    def waiting(self) -> Waiting | None:
        """The peer the table waits for, when it is disconnected or silent for
        :data:`SILENT_S` seconds; ``None`` when nothing waits on a missing peer
        (:func:`~lancards.p2p.net.waiting.table_wait`)."""
        now = self._clock()
        began = self._created_at if self._started_at is None else self._started_at
        return first_chance(self.core, table_wait(self.core, self.connected, self.down_since,
                                                  self._progress_at, now),
                            self.catching_up, self.down_since, began, now)

    def removal_refusal(self, seat: int) -> Refusal | None:
        """Why this peer refuses to vote for removing ``seat`` now (ruling D-5), or ``None``
        when it may: the table has the option ``rescue``, ``seat`` is another present seat the
        table waits for, its key share is escrowed among the others, and it has not been heard
        from for the table's ``patience`` (seconds, default 120; a silent link counts from the
        last entry, a lost one from when it dropped). Nobody may be removed while connected
        and answering. (:meth:`vote_remove` signs the vote when this allows it.) The refusal is
        its English sentence with a ``code`` and ``params``
        (:class:`~lancards.p2p.protocol.errors.Refusal`)."""
        core = self.core
        name = core.players[seat].nick if 0 <= seat < core.n else f"seat {seat}"
        if not core.rescue:
            return Refusal("the table has no rescue (its option rescue is off): it can only wait",
                           "no-rescue")
        if seat == core.seat or core.has_left(seat) or not 0 <= seat < core.n:
            return Refusal(f"{name} is not another player at the table", "not-another", name=name)
        wait = self.waiting()
        patience = int(core.table.spec.options.get("patience", 120))
        if wait is None or wait.seat != seat:
            # Another player may wait for its private shares (only that holder sees it): its
            # vote is the sign; this peer signs too once the link is down for the patience.
            key = core.players[seat].public_key
            down = None if key in self.connected else self._clock() - self.down_since.get(
                key, self._clock())
            if not core.votes_for(seat) or down is None or down < patience:
                return Refusal(f"the table is not waiting for {name}", "not-waiting", name=name)
            if not core.deck.can_rescue(seat):
                return Refusal(f"{name}'s key share is not escrowed among the others",
                               "not-escrowed", name=name)
            return None
        if not core.deck.can_rescue(seat):
            return Refusal(f"{name}'s key share is not escrowed among the others",
                           "not-escrowed", name=name)
        if wait.connected:
            # Its link is up and answers the transport's pings: a silent player may itself be
            # waiting for a vanished one's shares, and ruling D-5 never removes a connected one.
            seconds = f"{wait.seconds:.0f}"
            return Refusal(f"{name} is connected and answering: silent {seconds} s",
                           "connected", name=name, seconds=seconds)
        if wait.seconds < patience:
            seconds = f"{wait.seconds:.0f}"
            return Refusal(f"{name} is unreachable: silent {seconds} s of the table's "
                           f"patience {patience} s", "within-patience", name=name,
                           seconds=seconds, patience=patience)
        return None

    def waiting_text(self) -> str | None:
        """What the screen says of :meth:`waiting`: ``"waiting for bob (their move), 12 s"``;
        beyond the patience at a table without rescue (ruling D-5), ``"waiting for bob, 130 s;
        the table can only wait"``; ``None`` when nothing waits on a missing peer."""
        patience = int(self.core.table.spec.options.get("patience", 120))
        return waiting_text(self.waiting(), self.core.rescue, patience)

    def removal_offer(self) -> int | None:
        """The seat this peer may vote to remove now (:meth:`removal_refusal` allows it) and
        has not voted for at the record's current position: the seat the table waits for, or
        one another player voted to remove; ``None`` otherwise. The screen asks "remove
        NAME? (y/n)" for it."""
        core = self.core
        if not core.rescue or not core.has_say or core.removing is not None:
            return None
        wait = self.waiting()
        seats = ([wait.seat] if wait is not None else []) + [
            s for s in range(core.n) if core.votes_for(s)]
        patience = float(core.table.spec.options.get("patience", 120))
        for seat in seats:
            if (core.seat not in core.votes_for(seat) and not core.withdrew(seat)
                    and core.bound() is None and self.removal_refusal(seat) is None
                    and self.removal.may_vote(core, seat, self._clock(), patience)):
                return seat
        return None

    def withdraw_due(self) -> None:
        """Say "no" to every removal round :class:`RemovalPolicy` says this peer should now
        (the seat is connected to this peer, or the round outlived its life)."""
        if not self.core.has_say:
            return
        up = {s for s in range(self.core.n) if self.core.players[s].public_key in self.connected}
        for seat in self.removal.withdrawals(self.core, up.__contains__, self._clock()):
            self.handle(self.core.withdraw_vote(seat))

    def vote_remove(self, seat: int) -> None:
        """Sign "remove ``seat``" (ruling D-5; :meth:`GameCore.vote_remove`) if this peer may.

        Raises:
            LocalProtocolError: :meth:`removal_refusal` (e.g. the player is connected and
                answering), or the record's own refusal (no escrow, too few players).
        """
        refusal = self.removal_refusal(seat)
        if refusal is not None:
            raise LocalProtocolError(refusal).with_code(refusal.code, **refusal.params)
        self._check_fault()
        self.handle(self.core.vote_remove(seat))

    def waiting_for(self) -> str | None:
        """The nickname of the peer of :meth:`waiting`, if any."""
        wait = self.waiting()
        return None if wait is None else wait.nick

    async def leave_delivered(self, stopped: Callable[[], bool] = lambda: False,
                              grace: float = 1.0) -> bool:
        """After :meth:`leave`: wait until another peer built on this seat's leave entry or
        acknowledged it (so it reached the table), or ``grace`` s after the leave ended the
        game (no entry follows then). ``False`` when the game ended or halted before the leave
        was written (at this seat's turn to write, ``docs/protocol.md`` 11.8), or once
        ``stopped()`` holds."""
        core, ended_at = self.core, None
        loop = asyncio.get_running_loop()
        while not stopped():
            if not core.has_left(core.seat):
                if self.over():
                    return False
            else:
                seq = next(e.seq for e in core.record.entries
                           if e.payload.get("t") == "leave" and core.seat_of(e.author) == core.seat)
                if len(core.record) > seq + 1 or core.leave_heard():
                    return True
                if self.over():
                    ended_at = loop.time() if ended_at is None else ended_at
                    if loop.time() - ended_at >= grace:
                        return True
            await asyncio.sleep(0.1)
        return False

    def over(self) -> bool:
        """The game ended (or the table halted on a cheat)."""
        return self.core.halted is not None or self.core.to_act() is None

    def stop(self) -> None:
        """Ask :meth:`run` to return (and :meth:`next_turn` waiters to give up)."""
        self._stop.set()
        self._changed.set()

    def receive(self, peer: bytes, data: bytes) -> None:
        """Hand one message from ``peer``'s link to the core and carry out its outputs (once
        the game is over, "play again" messages are kept in :attr:`kept`, issue 27). Should a
        bug let a peer's bytes raise, one ``rejected`` notice names the sender (``unexpected``)
        and the node serves the others (issue 23; the fix belongs at the door that decoded)."""
        if b'"type":"rematch.' in data and self.over():
            self.kept.append((peer, data))
            return
        try:
            outputs = self.core.receive(peer, data)
        except Exception as exc:
            seat = self.core.seat_of(peer)
            who = (f"{self.core.name(seat)} (seat {seat + 1})" if seat is not None
                   else f"unseated peer {peer.hex()[:16]}")
            refused = unexpected(who, exc)
            self.notices.append(Notice("rejected", str(refused), seat, error=refused))
            outputs = []
        self.handle(outputs)

    async def run(self, *, restored: bool = False, linger: float = 1.0,
                  deadline: float | None = None) -> None:
        """Drive the core until the game is over (then ``linger`` seconds more so that the
        last entries reach everyone), :meth:`stop` is called, or ``deadline`` seconds pass.

        Args:
            restored: the core was restored from the store (its outputs were replayed).
            linger: seconds to keep serving peers after the end.
            deadline: an overall bound in seconds (``None``: none).

        Raises:
            StorageError: a write failed and paused the seat (:meth:`handle`; issue 24).
            TimeoutError: ``deadline`` passed.
        """
        await self._run(restored, linger, deadline)
        if self.fault is not None:
            raise self.fault

    async def _run(self, restored: bool, linger: float, deadline: float | None) -> None:
        loop = asyncio.get_running_loop()
        end = None if deadline is None else loop.time() + deadline
        self._started_at = self._clock()
        if self.timings is not None:
            self._timing({"started": True})
        if not restored:
            self.handle(self.core.start())
        elif not self.over():  # killed, maybe voted out meanwhile: as after a sleep
            self._held_at = self._clock()
            self.handle(self.core.hold_until_synced())
        self.catching_up = restored and not self.over()  # a finished game has all it needs
        over_at: float | None = None
        while not self._stop.is_set():
            now = loop.time()
            if self.catching_up and self.connected and self.core.peer_has and len(
                    self.core.record) >= max(self.core.peer_has.values()) and (
                    self._held_at is None):
                self.catching_up = False
                if self.timings is not None:
                    self._timing({"current": len(self.core.record)})
                self.handle([])
            if end is not None and now > end:
                raise TimeoutError(f"the game did not finish within {deadline} s")
            if self.over():
                over_at = now if over_at is None else over_at
                if now - over_at >= linger:
                    return
            self.withdraw_due()
            if self.auto_remove and self.removal_offer() is not None:
                with contextlib.suppress(LocalProtocolError):
                    self.vote_remove(self.removal_offer())  # type: ignore[arg-type]
            if self.core.deferred_proofs and self.mesh.events.empty():
                for _ in range(3):  # let the links write what was just sent
                    await asyncio.sleep(0)
                if self.mesh.events.empty():  # idle: check one pipelined proof of shuffle
                    self.handle(self.core.verify_deferred())
                    continue
            if self.checkpoint_due() and self.mesh.events.empty():
                for _ in range(3):  # let the links write what was just sent
                    await asyncio.sleep(0)
                if self.mesh.events.empty():  # idle: the checkpoint
                    self._checkpoint()
            try:
                event = await self.mesh.next_event(0.2)
            except TransportError:
                self._after_wait()
                continue
            self._after_wait()
            if not isinstance(event, Rejected) and self.watchers.is_observer(event.peer):
                self.observer_event(event)
            elif isinstance(event, Connected):
                self.connected.add(event.peer)
                self.down_since.pop(event.peer, None)
                back = back_notice(self.core, event.peer, self._dropped, self._clock(),
                                   self._told_back, self._back_at, self._started_at)
                self.notices += [back] if back is not None else []
                learned = self.mesh.addresses(event.peer)
                if learned:  # what the peer answered from or told: for 'table.told'
                    self.core.address_book[event.peer] = learned[0]
                self.handle(self.core.peer_connected(event.peer))
            elif isinstance(event, Disconnected):
                self.connected.discard(event.peer)
                self.down_since[event.peer] = self._clock()
                self._dropped.setdefault(event.peer, self._clock())  # the first drop since up
                self.handle([])
            elif isinstance(event, Received):
                self.receive(event.peer, event.data)
            elif isinstance(event, Rejected):
                told = self.refusals.notice(event, self.core, self._clock())
                self.notices += [told] if told is not None else []

    def _after_wait(self) -> None:
        """After each wait for an event, before what arrived is handled: after a sleep
        (:class:`~lancards.p2p.net.sleep_watch.SleepWatch`), hold this seat's entries until
        the others answered (:meth:`GameCore.hold_until_synced`), at most :data:`HOLD_MAX_S`
        seconds (issue 24, lids that close)."""
        mono = self._clock()
        missing = self.link_report.due(self.core, self.connected, self.down_since, mono)
        if missing is not None:
            self.handle(self.core.links(missing))
        if self.sleep_watch.woke() and not self.over():
            self._held_at, self.catching_up = mono, True
            self._started_at = mono  # the links that drop now were this peer's own absence
            self.notices.append(Notice("info", "back after a pause: catching up with the "
                                               "table", self.core.seat, code="catching-up"))
            self.handle(self.core.hold_until_synced())
        elif self._held_at is not None and (not self.core.syncing
                                            or mono - self._held_at >= HOLD_MAX_S
                                            or only_the_gone_unanswered(
                                                self.core, self.connected, self.down_since,
                                                self._held_at)):
            self._held_at = None
            self.handle(self.core.release_hold())

    async def close(self) -> None:
        """Close the mesh and the store (a checkpoint being written is given 5 s to end)."""
        await self.mesh.close()
        if self.checkpoints is not None:
            await self.checkpoints.finish(5.0)
        if self.store is not None:
            self.store.close()
        if self.timings is not None:
            self.timings.close()


__all__ = ["CHECKPOINT_EVERY", "HOLD_MAX_S", "SILENT_S", "Chooser", "PeerAddress", "PeerNode",
           "Turns", "bot_moves", "drive_bot", "game_bot", "my_turn"]
