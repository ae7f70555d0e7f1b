"""The networked session: this seat at a table of real peers on this machine.

``lancards play`` starts one peer for the player and one for each bot, all in this process but
each with its own Ed25519 key, its own websocket listener on 127.0.0.1, its own mental-poker key
share and its own journal: every move travels over websockets, every shuffle is proven, every
peer verifies every move with its own engine. Bots are ordinary peers (moves from the game's bot).

Files: the player's identity (``p2p.identity``) and, per table, ``tables/<id>/`` under the data
folder (:mod:`lancards.p2p.net.store`) with the player's journal and ``bots/<n>/`` with each bot's,
so that ``lancards resume`` can restart the whole table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lancards.cli.bot_choice import key_levels
from lancards.cli.departure_banners import DepartureBanners
from lancards.cli.halted_table import save_halt
from lancards.cli.history import outcome_json
from lancards.cli.i18n import _
from lancards.cli.net_log import NetLogMixin
from lancards.cli.pacing import DEFAULT_DELAY, BotPacer
from lancards.cli.peer_words import catching_up_words, halt_words, waiting_banners, waiting_words
from lancards.cli.play_again import series_words
from lancards.cli.removal_words import removal_banners
from lancards.cli.running_totals import RunningTotals
from lancards.cli.session import REMOVED_BANNER, Banner, LogLine, NewsMixin, TableSnapshot
from lancards.cli.session_series import SeriesMixin, end_offer, keep_evening
from lancards.cli.session_series import derive as _derive
from lancards.cli.tui.controller import shown_names
from lancards.engine.core import Seat
from lancards.engine.options import OptionValue
from lancards.engine.rulesets import REFERENCE_BOT_LEVEL
from lancards.p2p.crypto.group import RandomBytes, SeededRandomBytes
from lancards.p2p.net.crash_hook import crash
from lancards.p2p.net.folder_lock import FolderLock, lock_folder
from lancards.p2p.net.node import PeerAddress, PeerNode, drive_bot, game_bot
from lancards.p2p.net.record_file import write_record
from lancards.p2p.net.store import TableStore, data_home
from lancards.p2p.net.transport import Mesh, TransportConfig
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.table import StartedTable, start_local, verify_started

BOT_NICKS = ("Ada", "Bram", "Cleo", "Dov", "Edda")
LOG_KEEP = 20_000
CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=8.0, backoff_max=1.0)


class NetworkSession(SeriesMixin, NetLogMixin, NewsMixin):
    """This seat at a table of peers on 127.0.0.1 (see the module docstring).

    Use :meth:`create` for a new table and :meth:`resume` to continue one from disk.
    """

    resumable = True
    """``lancards resume`` continues this table after the window closed (its journals)."""

    def __init__(self, nodes: list[PeerNode], seat: Seat, rule_set: str, home: Path,
                 *, bot_delay: float, autoplay: bool, record_path: str | None,
                 bot_level: str = REFERENCE_BOT_LEVEL,
                 bot_levels: Mapping[bytes, str] | None = None,
                 evening_before: Sequence[dict[str, Any]] = ()) -> None:
        self.nodes = nodes
        self.evening_before = tuple(evening_before)  # its first lines count those games
        self.bot_level = bot_level
        self.node = nodes[seat]
        self.seat = self.node.core.seat
        self.rule_set = rule_set
        self.home = home
        self.pacer = BotPacer(bot_delay)
        self.autoplay = autoplay
        self.record_path = record_path
        self.core = self.node.core
        self.game = self.core.game
        self.names = tuple(m.nick for m in self.core.players)
        self._callbacks: list[Callable[[], None]] = []
        self._totals = RunningTotals(self.node.store)
        self._log: list[LogLine] = []
        self._logged = 0
        self._bots = [n for n in nodes if n is not self.node or autoplay]
        levels = {m.public_key: m.bot for m in self.core.players if m.bot}  # as they said
        levels.update({n.core.me.public_key: bot_level for n in nodes if n is not self.node})
        levels.update(bot_levels or {})  # this machine's bots, each its own (play --bot-level)
        self.bot_seats: dict[Seat, str] = {
            seat: levels[m.public_key] for seat, m in enumerate(self.core.players)
            if m.public_key in levels and seat != self.seat}
        """The bot seats whose level this machine knows (its own bot peers, and a host's
        ``--bots``), with their levels, and the seats whose joins said a bot plays them
        (``PublicIdentity.bot``: a host's ``--bots``, a ``join --autoplay``)."""
        for node in nodes:
            node.on_change = self._changed
        for node in self._bots:
            node.auto_remove = True  # a bot signs a removal the rules allow (ruling D-5)
        self._declined: tuple[int, int] | None = None
        self.departures = DepartureBanners()  # "bob left the table", for a while
        self._stopped = False
        self.lock: FolderLock | None = None
        """The table folder's lock when this session took it (:meth:`create`); let go by
        :meth:`close`."""
        self._restored = False
        self.seed: int | None = None
        self.again_lines: dict[bytes, list[dict[str, Any]]] | None = None
        """Every peer's journaled agreement lines, for a resume inside "play again"."""
        self.again: Any = None
        """The agreements to play again once the game is over (issue 27): a
        :class:`~lancards.cli.play_again.PlayAgain` or a
        :class:`~lancards.cli.remote_again.RemoteAgain`."""
        self.ran = False
        """Whether :meth:`run` has ended (a host/join seat's agreement then takes the links)."""
        me = self.core.me.public_key
        self.series = series_words(self.core.table, self.game.name, me, self.evening_before)
        """A rematch's lines: the game of the evening, its first dealer, the evening before."""
        self._start_log()

    # -- construction -------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        rule_set: str,
        options: Mapping[str, OptionValue],
        me: Identity,
        bots: int,
        *,
        home: Path | None = None,
        bot_delay: float = DEFAULT_DELAY,
        autoplay: bool = False,
        record_path: str | None = None,
        seed: int | None = None,
        bot_level: str = REFERENCE_BOT_LEVEL,
        bot_levels: Sequence[str] | None = None,
    ) -> NetworkSession:
        """A new table: the player and ``bots`` bot peers, formed and started locally.

        With ``seed``, the bots' keys, the table id and every peer's deck randomness come
        from it, so a demo can be repeated (the player's own key still decides the seats).
        Never use a seed with people: whoever knows it knows every card.

        Raises:
            RulesError: an invalid game or option.
            TransportError: no port could be bound on 127.0.0.1.
            FolderBusy: another process holds the table folder (a seeded table played twice
                at once).
            StorageError: the table folder cannot be created or written (before any peer
                starts: one line naming the path and what to do).
        """
        home = home or data_home()
        if seed is None:
            bot_ids = [Identity.generate(BOT_NICKS[i % len(BOT_NICKS)]) for i in range(bots)]
            table_id = None
        else:
            bot_ids = [Identity(_derive(f"bot-{seed}-{i}"), BOT_NICKS[i % len(BOT_NICKS)])
                       for i in range(bots)]
            table_id = _derive(f"table-{seed}").hex()[:16]
        table = start_local([me, *bot_ids], rule_set, options, table=table_id)
        return await cls._open(table, me, bot_ids, rule_set, home, seed=seed,
                               bot_delay=bot_delay, autoplay=autoplay, record_path=record_path,
                               bot_level=bot_level, bot_levels=key_levels(
                                   [m.public_key for m in table.seats], me.public_key, bot_levels))

    @classmethod
    async def _open(cls, table: StartedTable, me: Identity, bot_ids: list[Identity],
                    rule_set: str, home: Path, *, seed: int | None, bot_delay: float,
                    autoplay: bool, record_path: str | None, bot_level: str,
                    bot_levels: Mapping[bytes, str] | None = None,
                    evening_before: Sequence[dict[str, Any]] = ()) -> NetworkSession:
        """The peers of a started table (a new one, or the next game of a series): the table
        folder locked and written, one node per identity, linked. ``evening_before``: the games
        of the evening before its series (``play_again.Evening``): its first lines count them,
        and its ``table.json`` holds them from its first write (the crash hook's
        ``evening-WHEN:N`` counts that write: ``before`` it, ``torn`` with half of its temporary
        file written, ``after`` it)."""
        lock = lock_folder(home / "tables" / table.spec.table, "lancards play")
        game_no = int(table.statement.get("follows", {}).get("game", 1))
        deck = "deck" if game_no == 1 else f"deck-game{game_no}"
        try:
            store = TableStore.for_table(table.spec.table, home)
            if evening_before and crash.reached("before", side="evening"):
                crash.die()
            store.save_table({
                "statement": table.statement,
                "sigs": table.sigs,
                "me": me.public_key.hex(),
                "bots": [{"seed": json.loads(b.to_json())["ed25519_seed"], "nick": b.nick}
                         for b in bot_ids],
                "rule_set": rule_set,
                "bot_level": bot_level,
                "bot_levels": {k.hex(): v for k, v in (bot_levels or {}).items()},
                **({"evening": [dict(game) for game in evening_before]}
                   if evening_before else {})},
                torn=lambda: bool(evening_before) and crash.reached("torn", side="evening"))
            if evening_before and crash.reached("after", side="evening"):
                crash.die()
            if record_path:
                store.keep_record_path(record_path)
            nodes = [
                await _node(p, table, _store_of(store, i), None,
                            None if seed is None else SeededRandomBytes(f"{deck}-{seed}-{i}"))
                for i, p in _in_seat_order(table, [me, *bot_ids])
            ]
            seat = [m.public_key for m in table.seats].index(me.public_key)
            session = cls(nodes, seat, rule_set, home, bot_delay=bot_delay, autoplay=autoplay,
                          record_path=record_path, bot_level=bot_level, bot_levels=bot_levels,
                          evening_before=evening_before)
        except BaseException:
            lock.release()
            raise
        session.lock = lock
        session.seed = seed
        session._connect()
        return session

    @classmethod
    async def resume(cls, folder: Path, me: Identity, *, bot_delay: float = DEFAULT_DELAY,
                     autoplay: bool = False, record_path: str | None = None) -> NetworkSession:
        """Continue the table stored in ``folder`` (after a crash): every peer of this machine
        restarts from its journal, verifying it all again.

        Raises:
            LocalProtocolError: the folder holds no table of this user.
            PeerError: a journal does not verify.
        """
        store = TableStore(folder)
        data = store.load_table()
        table = verify_started(data["statement"], data["sigs"], "the table file")
        if data.get("me") != me.public_key.hex():
            raise LocalProtocolError(
                f"the table in {folder} was played by another identity ({data.get('me')})"
            )
        member = next(m for m in table.seats if m.public_key == me.public_key)
        me = Identity(bytes.fromhex(json.loads(me.to_json())["ed25519_seed"]), member.nick)
        bots = [Identity(bytes.fromhex(b["seed"]), b["nick"]) for b in data["bots"]]
        nodes = []
        for i, identity in _in_seat_order(table, [me, *bots]):
            sub = _store_of(store, i)
            nodes.append(await _node(identity, table, sub, sub))
        seat = [m.public_key for m in table.seats].index(me.public_key)
        session = cls(nodes, seat, str(data["rule_set"]), folder.parent.parent,
                      bot_delay=bot_delay, autoplay=autoplay,
                      record_path=record_path or store.kept_record_path(),
                      bot_level=str(data.get("bot_level", REFERENCE_BOT_LEVEL)),
                      bot_levels={bytes.fromhex(k): v for k, v in data.get("bot_levels",
                                                                           {}).items()},
                      evening_before=data.get("evening", ()))
        session.restored = True
        keep_evening(session, data.get("evening", ()))  # other games' before it
        end_offer(folder.parent, data.get("evening", ()))
        from lancards.cli.play_again import pending_again

        if pending_again(folder):  # killed inside "play again": every peer's lines (issue 27)
            session.again_lines = {
                n.core.me.public_key: [line for kind, line in n.store.read().lines
                                       if kind == "rematch"]
                for n in nodes if n.store is not None}
        session._connect()
        return session

    def _connect(self) -> None:
        addresses = {n.core.me.public_key: PeerAddress("127.0.0.1", n.mesh.port)
                     for n in self.nodes}
        for node in self.nodes:
            node.connect(addresses)

    @property
    def restored(self) -> bool:
        """Whether the peers were restored from their journals. Set, they say "catching up"
        from the screen's first frame until current (:attr:`PeerNode.catching_up`): the first
        frame showed the table bare, the note came a moment later, once the peers ran, and a
        ``q`` meanwhile found the note over its dialog (the persona walk under load)."""
        return self._restored

    @restored.setter
    def restored(self, value: bool) -> None:
        self._restored = value
        for node in self.nodes:
            node.catching_up = value and not node.over()

    # -- Session ------------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        """The table as this seat knows it."""
        self._update_log()
        banners: list[Banner] = []
        if self.core.halted:  # the banner's mark says "CHEATER CAUGHT"
            banners.append(Banner("cheat", halt_words(self.core, self.names)))
        if self.node.catching_up:
            banners.append(Banner("info", catching_up_words(self.node, self.names,
                                                            time.monotonic())))
        wait = self.node.waiting()
        extra: dict[str, Any] = {"table": self.core.table_id, "pending": self._pending(),
                                 "left": getattr(self, "_left", False),
                                 "left_written": self.core.has_left(self.seat),
                                 "bots": self.bot_seats}
        removed = removed_seats(self.core)
        extra["removed"] = removed
        banners += self.departures.banners(self.core.left_seats(), removed, self.names,
                                           self.seat)  # each for a while (the log keeps it)
        if self.seat in removed:  # asleep past the patience (issue 24); once halted, stale
            extra["removed_me"] = True  # (nothing to watch: the cheat's banner says why)
            banners += [] if self.core.halted else [Banner("info", _(REMOVED_BANNER))]
        if wait is not None:
            patience = int(self.core.table.spec.options.get("patience", 120))
            text = waiting_words(wait, self.core.rescue, patience) or wait.text()
            banners += waiting_banners(wait, self.core.rescue, patience)  # none while thinking
            extra["waiting"] = text
        banners += removal_banners(self, extra)  # "remove NAME? (y/n)" (ruling D-5)
        outcome = self.game.outcome(self.core.state)
        self._offer_again(outcome, extra, banners)
        to_act = self.core.to_act()
        progress = self.core.progress if to_act == -1 else ""
        return TableSnapshot(
            game=self.game,
            rule_set=self.rule_set,
            seat=self.seat,
            names=shown_names(self.names, self.seat),
            view=self.core.state,
            to_act=to_act,
            legal=[] if self.autoplay or self.core.syncing else self.core.legal_actions(),
            log=tuple(self._log[-LOG_KEEP:]),
            banners=tuple(banners),
            progress=progress,
            outcome=outcome,
            extra=extra,
        )

    def _pending(self) -> int:
        """How many cards this seat holds whose face it does not know yet (private shares
        still to come): shown as pending, never as a missing card."""
        from lancards.engine.core import ALL_SEATS, seat_bit

        mine, game, state = seat_bit(self.seat), self.game, self.core.state
        return sum(1 for slot, mask in game.knowledge(state).items()
                   if mask & mine and mask != ALL_SEATS and game.identity(state, slot) is None)

    def submit(self, action: Any) -> None:
        """Play ``action`` (checked at once; raises ``EngineError`` when illegal)."""
        self.node.submit(action)

    def leave_for_good(self) -> None:
        """This seat leaves for good (rulings D-1..D-4; ``docs/protocol.md`` 11.8): the leave
        entry is appended now, or at this seat's next turn to write. ``snapshot().extra
        ["left"]`` becomes true once another peer has built on it (so it has reached the table)
        or, when the leave ended the game, a second after it was sent.

        Raises:
            LocalProtocolError: the game is over, the table halted, or it is not started.
        """
        self.node.leave()
        self._leave_task = asyncio.ensure_future(self._deliver_leave())

    async def _deliver_leave(self) -> None:
        if not await self.node.leave_delivered(lambda: self._stopped):
            return  # the game ended before this seat's turn to write came, or the table closed
        self._left = True
        self.write_record()
        if self.node.store is not None:
            self.node.store.mark("left")  # lancards history says so
            self.node.store.mark("finished")  # nothing to resume: this seat left for good
        self._changed()

    def vote_remove(self, seat: int) -> None:
        """Sign "remove ``seat``" (ruling D-5; :meth:`PeerNode.vote_remove`).

        Raises:
            LocalProtocolError: the player is connected and answering, or may not be removed.
        """
        self.node.vote_remove(seat)
        self._changed()

    def decline_removal(self, seat: int) -> None:
        """Answer "no" to "remove NAME?": not asked again until the record moves on (no vote
        is signed; without every remaining player's, nobody is removed)."""
        self._declined = (seat, len(self.core.record))
        self._changed()

    def send_chat(self, text: str) -> None:
        """Send a chat line to the table."""
        self.node.chat(text)

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` on every change."""
        self._callbacks.append(callback)

    async def run(self) -> None:
        """Run every peer and the bots until the game ends or :meth:`close` is called.

        Raises:
            StorageError: a peer's write failed (issue 24): every peer of this process stops
                at once (nothing more is written or sent), no record is written, and the
                table continues with ``lancards resume`` once the disk has room.
        """
        tasks = [asyncio.create_task(node.run(linger=0.5, restored=self.restored))
                 for node in self.nodes]
        bot_tasks = [asyncio.create_task(self._bot_loop(node)) for node in self._bots]
        try:
            await asyncio.gather(*tasks)
        finally:
            self.ran = True
            for task in bot_tasks:
                task.cancel()
            for task in tasks:
                task.cancel()
            for node in self.nodes:
                node.stop()
            if not any(node.fault for node in self.nodes):
                self.write_record()

    async def close(self) -> None:
        """Stop every peer (the journals stay on disk for ``lancards resume``) and let the
        table folder's lock go."""
        self._stopped = True
        await self._tell_paused()
        if self.again is not None and hasattr(self.again, "flush"):
            await self.again.flush()  # a "no" on its way to the others
        for node in self.nodes:
            node.stop()
        for node in self.nodes:
            with contextlib.suppress(Exception):
                if self.keeps_links():  # the next game goes on over them (issue 27)
                    if node.store is not None:
                        node.store.close()
                else:
                    await node.close()
        if self.lock is not None:
            self.lock.release()

    # -- helpers ------------------------------------------------------------------------------

    async def _tell_paused(self) -> None:
        """The person's seat closes its window mid-game: tell the others it paused (issue 25,
        item 9; ``presence``), waiting at most a second for the message to be written."""
        node = self.node
        if self.core.has_left(self.seat) or node.over() or node.fault:
            return
        with contextlib.suppress(Exception):
            node.pause()
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and any(node.mesh.queued(k) for k in node.connected):
                await asyncio.sleep(0.02)

    def write_record(self) -> None:
        """Write the signed record to ``record_path`` (and to the table folder), then mark a
        finished table's folder ``finished`` (last: a write that failed leaves it resumable).

        Raises:
            StorageError: a file cannot be written (one line; ``lancards resume`` writes it
                again once the disk has room).
        """
        store = self.node.store
        if store is not None and len(self.core.record):
            write_record(self.core.record, store.folder / "record.jsonl")
        if self.record_path and (self.node.over() or self.core.has_left(self.seat)):
            write_record(self.core.record, self.record_path)  # never a paused game's part
        if store is not None and len(self.core.record) and self.node.over():
            outcome = self.game.outcome(self.core.state)
            if outcome is not None:
                store.save_outcome(outcome_json(outcome))
            save_halt(store.folder, self.core)  # halted on a cheat: who, for history and resume
            store.mark("finished")

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before its turn (:class:`lancards.cli.pacing.BotPacer`); may be
        changed while the table runs."""
        return self.pacer.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.pacer.delay = max(0.0, seconds)

    async def _bot_loop(self, node: PeerNode) -> None:
        core = node.core
        await drive_bot(node, game_bot(core, self.bot_seats.get(core.seat, self.bot_level)),
                        delay=lambda: self.pacer.pause(core.state, core.seat))

    def _changed(self) -> None:
        if self.node.fault is None:  # every line of this seat's state is durable
            self._totals.note(self.game.name, self.core.state)  # lancards history reads it
        for callback in self._callbacks:
            callback()


def removed_seats(core: GameCore) -> tuple[Seat, ...]:
    """The seats removed by vote (ruling D-5; :meth:`GameCore.was_removed`), in the order they
    left the table."""
    return tuple(s for s in core.left_seats() if core.was_removed(s))


def _in_seat_order(table: StartedTable, people: list[Identity]) -> list[tuple[int, Identity]]:
    """(index in ``people``, identity) pairs in seat order (index 0 is the player)."""
    index = {p.public_key: i for i, p in enumerate(people)}
    return [(index[m.public_key], people[index[m.public_key]]) for m in table.seats]


def _store_of(store: TableStore, index: int) -> TableStore:
    return store if index == 0 else TableStore(store.folder / "bots" / str(index))


async def _node(identity: Identity, table: StartedTable, store: TableStore,
                restore_from: TableStore | None, random_bytes: RandomBytes | None = None,
                ) -> PeerNode:
    secret = restore_from.load_secret() if restore_from is not None else None
    journal = store.read()  # raises JournalDamaged before anything starts
    core = GameCore(identity, table, random_bytes or secrets.token_bytes, secret_key=secret,
                    envelope_seq=journal.next_envelope)
    mesh = Mesh(identity, CONFIG)
    await mesh.start("127.0.0.1", 0)
    node = PeerNode(core, mesh, store)
    if restore_from is not None:
        node.handle(core.restore(journal.lines, store.load_checkpoint()))
    return node
