"""The protocol core: one peer's game, sans-I/O (bytes and events in, bytes and events out).

A :class:`GameCore` ties together the signed game record (:mod:`lancards.p2p.protocol.record`), the
game engine (every peer replays every move) and the mental-poker deck
(:mod:`lancards.p2p.crypto.coordinator`). It never touches a socket, a file or the clock: the
adapter feeds it bytes from authenticated links (:meth:`GameCore.receive`), local moves
(:meth:`GameCore.submit`) and link events, and carries out the :data:`Output` items it returns
**in order**: ``Persist`` items must be durable before any later ``Send`` goes out (the design's
"written to disk before being acted on"). It never chooses a move: a bot plays a seat from
outside, through :meth:`GameCore.submit` (:func:`lancards.p2p.net.node.drive_bot`).

The record is one linear log; who appends next follows from the record alone
(:mod:`lancards.p2p.protocol.schedule`). Cards dealt or drawn to a seat are revealed privately:
every other seat sends the holder its decryption shares sealed to it (X25519 + HKDF +
ChaCha20-Poly1305), beside the log.

Every message is decoded against its declared schema (:mod:`lancards.p2p.protocol.schemas`) where
its bytes are decoded; a violation is a ``rejected`` notice naming the sender. Every entry is
checked on arrival with the engine and the deck; the state hash it carries must equal the receiver's
(:func:`lancards.engine.digest.state_digest`). A signed entry that breaks the rules proves its
author cheated: the author is named with the evidence, the entry is not recorded, the entry is
passed on to every other peer (it names its author wherever it arrives), and the table halts. Every
accepted entry is acknowledged to the other seats (consistent broadcast,
:mod:`lancards.p2p.protocol.agreement`), so that an author who signs two entries with one number is
found within one round trip by every honest peer; the two entries are the evidence, journaled
(``Persist("evidence")``), broadcast and kept in the record file. Buffers are bounded: early entries
(checked before they are held, :data:`FUTURE_WINDOW`, :data:`FUTURE_PER_AUTHOR`), early private
shares (:data:`EARLY_PER_SENDER`), and catch-up (each entry once per link-up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lancards.engine.core import ALL_SEATS, EngineError, Game, Seat, SlotId, seat_bit
from lancards.engine.digest import state_digest
from lancards.engine.rulesets import rule_set
from lancards.p2p.crypto.coordinator import OBSERVER, DeckCoordinator
from lancards.p2p.crypto.deck import TableParams
from lancards.p2p.crypto.errors import DeckError, ProofError
from lancards.p2p.crypto.group import RandomBytes
from lancards.p2p.protocol.agreement import Agreement
from lancards.p2p.protocol.checkpoint import resume_point
from lancards.p2p.protocol.core_parts import (
    EARLY_PER_SENDER,
    FUTURE_PER_AUTHOR,
    FUTURE_WINDOW,
    Notice,
    NoticeKind,
    Output,
    Persist,
    Send,
)
from lancards.p2p.protocol.deck_events import DeckEvents
from lancards.p2p.protocol.departure import Departure
from lancards.p2p.protocol.errors import (
    LocalProtocolError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.protocol.escrow_entries import Escrow
from lancards.p2p.protocol.identity import Identity, PublicIdentity
from lancards.p2p.protocol.inbound import SHARES_PURPOSE, Inbound
from lancards.p2p.protocol.openings import accept_openings, check_openings
from lancards.p2p.protocol.outbound import Outbound, joint_random
from lancards.p2p.protocol.record import Entry, Record
from lancards.p2p.protocol.rescue import Rescue
from lancards.p2p.protocol.schedule import (
    WAITING_WHAT,
    EntryKind,
    Waiting,
    next_author,
    private_debts,
)
from lancards.p2p.protocol.schemas import (
    ActionPayload,
    EscrowPayload,
    LeavePayload,
    OpenPayload,
    Payload,
    PrivateShares,
    RescuePayload,
    ShufflePayload,
    conform,
)
from lancards.p2p.protocol.start_fetch import told_body
from lancards.p2p.protocol.statement import game_options
from lancards.p2p.protocol.table import StartedTable
from lancards.p2p.protocol.wire import (
    MESSAGE_TYPES,
    ReplayGuard,
    decode_envelope,
)

GAME_TYPES: dict[str, Any] = {
    t: s for t, s in MESSAGE_TYPES.items()
    if t.startswith("record.") or t in ("sealed", "chat", "presence", "links", "table.ask")
}
"""Message types the game core accepts (bodies:
:data:`lancards.p2p.protocol.schemas.MESSAGE_SCHEMAS`)."""

def _no_randomness(count: int) -> bytes:
    raise LocalProtocolError("an observer draws no randomness")


class GameCore(DeckEvents, Departure, Escrow, Rescue, Inbound, Outbound):
    """One peer's game at a started table.

    Args:
        me: this peer's identity (must be seated), or ``None`` for an auditor that replays a
            record as an observer (:mod:`lancards.p2p.protocol.audit`): it verifies everything,
            appends nothing.
        table: the started table (seats, game, options).
        random_bytes: the source of every random input of the deck.
        secret_key: this seat's deck key share when restoring; drawn anew when omitted.
        envelope_seq: the first envelope sequence number this peer uses.
        pipeline: pipelined shuffles (the default): this seat's offline shuffle phase starts
            when the epoch starts, and a received shuffle's output goes on before its proof is
            checked (:meth:`verify_deferred`; ``docs/mental-poker.md``, "Pipelined shuffles").
            ``False`` checks every proof on arrival and prepares nothing ahead (the records are
            the same either way; benchmarks compare the two).

    Raises:
        LocalProtocolError: ``me`` is not seated.
        RulesError: the table's game or options are invalid.
    """

    def __init__(
        self,
        me: Identity | None,
        table: StartedTable,
        random_bytes: RandomBytes,
        *,
        secret_key: int | None = None,
        envelope_seq: int = 0,
        pipeline: bool = True,
    ) -> None:
        self._me = me
        self._random = random_bytes
        self.table = table
        self.address_book: dict[bytes, tuple[str, int]] = {}
        """The seated peers' addresses, sent in ``table.told`` (p2p.protocol.start_fetch)."""
        self.table_id = table.spec.table
        self.players: tuple[PublicIdentity, ...] = table.seats
        keys = [m.public_key for m in table.seats]
        if me is None:
            self.seat = OBSERVER
        elif me.public_key in keys:
            self.seat = keys.index(me.public_key)
        else:
            raise LocalProtocolError("this peer is not seated at the table")
        self.view_seat: Seat | None = None if me is None else self.seat
        self.n = len(keys)
        self._seat_of = {k: i for i, k in enumerate(keys)}
        spec = rule_set(table.spec.game)
        self.rule_set = spec.name
        self.game: Game[Any, Any] = spec.game
        self.rules = spec.make_rules(game_options(table.spec.options))
        self.faces: Sequence[Any] = self.game.canonical_deck(self.rules)
        params = TableParams(spec.name, self.table_id, self.n, len(self.faces))
        self.deck = DeckCoordinator(params, self.seat, random_bytes, secret_key=secret_key)
        self.record: Record = table.new_record()
        self.record.signer = me
        self._state: Any = self.game.view(self.game.new_game(self.rules, self.n), self.view_seat)
        self._before_head: tuple[int, Any] | None = None
        self._pending: Any = None
        self._leaving = False
        self._leave_heard: set[Seat] = set()  # seats that acked this seat's leave entry
        self._init_rescue()
        self._init_presence()
        self._halted: str | None = None
        self._told: list[tuple[str, dict[str, Any]]] = []  # evidence, again to each link up
        self.cheaters: dict[Seat, str] = {}
        self._env_seq, self._random_counter = envelope_seq, 0
        self._requested: set[SlotId] = set()
        self._private_for: dict[Seat, set[SlotId]] = {s: set() for s in range(self.n)}
        self._future: dict[tuple[int, bytes], tuple[Entry, str]] = {}
        self._early: list[tuple[Seat, PrivateShares]] = []
        self._agree = Agreement(self.n)
        self._epoch_begun_for: tuple[int, ...] | None = None
        self._out: list[Output] = []
        self._guard = ReplayGuard(self._name)
        self._secret_saved = secret_key is not None
        self._replaying = False
        self.pipeline = pipeline and me is not None  # an auditor checks each proof at once
        self.checks_when_idle = False
        """Set by a driver that calls :meth:`verify_deferred` whenever it is idle (as
        :class:`~lancards.p2p.net.node.PeerNode` does): then this seat's decryption shares of a
        completed epoch wait for those calls, so its last shuffle entry leaves first; else
        the remaining proofs are checked at once before the first share."""
        self.progress = ""
        self.checkpoint_refused: str | None = None  # why restore() refused it (a Refusal)
        self.checkpoint_lines = 0  # the journal lines restore() took from it
        self.peer_has: dict[Seat, int] = {}
        """The record length each peer reported in its last ``record.sync`` (a resumed peer is
        current once its own record is as long)."""
        self._sync_wait: set[Seat] | None = None  # Inbound.hold_until_synced (issue 24)

    @property
    def next_envelope_seq(self) -> int:
        """The sequence number the next envelope this peer signs will carry (the adapter
        leases numbers on disk before sending: :meth:`TableStore.lease_envelopes`)."""
        return self._env_seq

    @classmethod
    def observer(cls, table: StartedTable) -> GameCore:
        """An auditor's core: no identity and no seat; it replays a record as a spectator
        (:meth:`validator`), verifying everything and appending nothing. It never needs
        randomness (a request for it raises ``LocalProtocolError``)."""
        return cls(None, table, _no_randomness)

    # -----------------------------------------------------------------------------------------
    # Read-only state.

    @property
    def me(self) -> Identity:
        """This peer's identity.

        Raises:
            LocalProtocolError: an observer has none.
        """
        if self._me is None:
            raise LocalProtocolError("an observer has no identity")
        return self._me

    @property
    def is_observer(self) -> bool:
        """Whether this core only replays and verifies (an auditor)."""
        return self._me is None

    @property
    def state(self) -> Any:
        """This seat's view of the engine state (read-only; an observer sees the public view)."""
        return self._state

    def state_before(self, seq: int) -> Any:
        """This seat's view of the state just before entry ``seq`` when it is the last entry
        checked (kept for that one only: a fork is caught at the record's head, and its words
        name the top card of a discard pile its moves draw from), else None."""
        kept = self._before_head
        return kept[1] if kept is not None and kept[0] == seq else None

    @property
    def halted(self) -> str | None:
        """Why the table halted (a cheat proven, or :meth:`halt`), or ``None`` while it runs."""
        return self._halted

    @property
    def pending_action(self) -> Any:
        """The move submitted for this seat and not yet appended (its cards still coming)."""
        return self._pending

    def seat_of(self, key: bytes) -> Seat | None:
        """The seat of the Ed25519 key ``key`` (32 bytes), or ``None`` when not seated."""
        return self._seat_of.get(key)

    def halt(self, reason: str) -> None:
        """Stop the table on this peer's own decision (nothing is appended or checked after)."""
        self._halted = reason

    # -----------------------------------------------------------------------------------------
    # Inputs.

    def start(self) -> list[Output]:
        """Begin (or, after :meth:`restore`, continue): append whatever this seat owes."""
        if not self._secret_saved:
            self._secret_saved = True
            self._out.append(Persist("secret", {"x": f"{self.deck.secret_key:064x}"}))
        self._advance()
        return self._flush()

    def receive(self, sender: bytes, data: bytes) -> list[Output]:
        """Handle one message from the authenticated link of ``sender``.

        Never raises for bad input: a rejected message becomes a ``Notice`` naming the sender
        and the reason (``rejected``), or, when a seated peer signed something against the
        rules, a ``cheat`` notice with the evidence.
        """
        link = self._name(sender)
        try:
            if sender not in self._seat_of:
                raise RemoteProtocolError(link, Reason.NOT_SEATED, "the sender is not seated"
                                          ).with_code("sender-not-seated")
            env = decode_envelope(data, link, expected_sender=sender, types=GAME_TYPES)
            if env.table != self.table_id:
                raise RemoteProtocolError(link, Reason.WRONG_TABLE, f"table {env.table}"
                                          ).with_code("other-table", table=env.table)
            if env.sig:  # unsigned link-only messages (acks) are idempotent: no replay check
                self._guard.accept(env)
            if env.type == "table.ask":  # a seat resuming from its signed statement
                self._send(sender, "table.told", told_body(
                    self.table, env.body["statement_hash"], link, self.address_book))
            else:
                self._dispatch(env, link)
        except RemoteProtocolError as exc:
            self._notice("rejected", str(exc), self._seat_of.get(sender), error=exc)
        return self._flush()

    def submit(self, action: Any) -> list[Output]:
        """Play ``action`` for this seat (checked at once against the local engine).

        Raises:
            EngineError: the action is malformed or illegal now.
            LocalProtocolError: halted, catching up (:meth:`hold_until_synced`), not its move
                (codes ``halted``, ``catching-up``, ``not-your-move``, ``not-your-seat``).
        """
        self._may_submit()  # halted, or back from a sleep and not synced yet
        if self.game.to_act(self._state) != self.seat:
            raise LocalProtocolError("it is not this seat's move").with_code("not-your-move")
        if (seat := getattr(action, "seat", self.seat)) != self.seat:
            raise LocalProtocolError(f"an action of seat {seat + 1}, not of this seat").with_code(
                "not-your-seat", seat=seat + 1)  # (seats said as the panel numbers them)
        self.game.check(self._state, action)
        self._pending = action
        self._advance()
        return self._flush()

    def peer_connected(self, key: bytes) -> list[Output]:
        """A link to ``key`` is up: what this peer sends a link that comes up
        (:meth:`~lancards.p2p.protocol.inbound.Inbound._link_up`)."""
        if key in self._seat_of:
            self._link_up(key)
        return self._flush()

    @property
    def deferred_proofs(self) -> int:
        """How many received proofs of shuffle wait to be checked (pipelined shuffles); the
        adapter calls :meth:`verify_deferred` while nothing else is to do."""
        return 0 if self._halted else self.deck.deferred_proofs

    def verify_deferred(self, limit: int | None = 1) -> list[Output]:
        """Check up to ``limit`` (``None``: all) proofs of shuffle taken in unchecked, oldest
        first (about 0.35 ms per card each). Call it when idle: a shuffler's output went on to
        the next shuffler before its proof was checked, and every proof of an epoch is checked
        at the latest before this seat makes a decryption share of its cards (with
        :attr:`checks_when_idle`, the shares wait for these calls), so this only moves the
        work off the critical path. A failing proof halts the table naming its prover (a
        ``cheat`` notice with the prover's signed shuffle entry as evidence). Never raises."""
        if self._halted is None and self.deck.deferred_proofs:
            self._verify_deferred(limit)
            if not self.deck.checks_due:
                self._advance()  # what waited for the checks (checks_when_idle)
        return self._flush()

    def _verify_deferred(self, limit: int | None) -> None:
        if self._halted is None and self.deck.deferred_proofs:
            try:
                self.deck.check_deferred(limit)
            except ProofError as exc:
                self._deferred_failed(self._deferred_error(exc))
            self._take_deck_events()

    # -----------------------------------------------------------------------------------------
    # Queries.

    def to_act(self) -> Seat | None:
        """The engine's seat to act (``CHANCE`` = -1 while the deck works, None when over)."""
        return None if self._halted else self.game.to_act(self._state)

    def expected(self) -> tuple[Seat, EntryKind] | None:
        """The seat that must append the next entry and what kind, or ``None``
        (:func:`lancards.p2p.protocol.schedule.next_author`)."""
        if self._halted:
            return None
        rescuer = self.removal_due()
        if rescuer is not None:
            return rescuer
        dealer = self.escrow_due()
        if dealer is not None:
            return dealer, EntryKind.ESCROW
        return next_author(self.game, self._state, self.deck, self._holder)

    def waiting_for(self) -> list[Waiting]:
        """Whom the table waits for and for what, as this peer can see it (for every screen).

        The seat due to append the next entry (a move, a shuffle, a key share, shares or an
        opening), and every seat that still owes this seat private decryption shares for its
        own cards (a deal or a draw): a seat that stays connected but silent is named as
        clearly as one that left. Empty when the game is over or halted, or when only
        private shares travelling to another seat are due (only that holder can see them).
        """
        if self._halted or self.view_seat is None:
            return []
        waits = private_debts(self.deck, self.seat)
        due = self.expected()
        if due is not None and (due[0] != self.seat or not waits):
            seat, kind = due
            waits.append(Waiting(seat, WAITING_WHAT[kind], kind))
        return waits

    def hand_ready(self) -> bool:
        """Whether this seat knows every card it holds (its private reveals are complete)."""
        if self.view_seat is None:
            return False
        mine = seat_bit(self.seat)
        knowledge = self.game.knowledge(self._state)
        return all(
            self.game.identity(self._state, slot) is not None
            for slot, mask in knowledge.items()
            if mask & mine and mask != ALL_SEATS
        )

    def legal_actions(self) -> Sequence[Any]:
        """This seat's legal actions now (empty unless it is to act and knows its hand)."""
        if self._halted or self.game.to_act(self._state) != self.seat or not self.hand_ready():
            return []
        return self.game.legal_actions(self._state, self.seat)

    def state_hash(self) -> str:
        """The digest of the public view (what the next entry's predecessor carries)."""
        return state_digest(self.game, self._state)

    def name(self, seat: Seat) -> str:
        """How people see ``seat``: nickname and fingerprint."""
        return str(self.players[seat])

    # -- Restoring after a crash. --------------------------------------------------------------
    def restore(self, lines: Sequence[tuple[str, dict[str, Any]]],
                checkpoint: bytes | None = None) -> list[Output]:
        """Replay what was persisted (``Persist`` lines in their order), verifying everything.
        Args:
            lines: ``(kind, line)`` pairs as the ``Persist`` items gave them.
            checkpoint: this peer's own checkpoint, if any (the lines after it are replayed;
                :func:`lancards.p2p.protocol.checkpoint.resume_point`).

        Raises:
            PeerError: the persisted data does not verify (a corrupt store).
        """
        self.checkpoint_lines = start = resume_point(self, checkpoint, lines)
        self._replaying = True
        try:
            self._replay(lines[start:])
        finally:
            self._replaying = False
        self._verify_deferred(None)  # every proof still unchecked: a bad one names its prover
        self._out = [o for o in self._out if not isinstance(o, Persist | Send)]
        return self.start()

    def _replay(self, lines: Sequence[tuple[str, dict[str, Any]]]) -> None:
        for kind, line in lines:
            if kind == "entry":
                entry = Entry.from_dict(line, "the local record")
                self.record.append(entry, self._validator("the local record"))
                self._after_append()
            elif kind == "vote":
                self._restore_vote(line)
            elif kind == "unvote":
                self._restore_unvote(line)
            elif kind == "private":
                shares = conform(line["payload"], PrivateShares, "the local record",
                                 "private shares")
                self._accept_private(int(line["from"]), shares)
            elif kind == "void":  # own entries no peer saw, voided by a removal (void.py)
                self._replay_void(line)
            elif kind == "cheat-entry":  # a signed entry the rules refuse: it halts again
                self._append_remote(Entry.from_dict(line["entry"], "the local record"),
                                    "the local record")
            elif kind == "evidence":
                found = self.record.add_evidence(line["first"], line["second"],
                                                 link="the local record")
                self._cheat(self._seat_of.get(found.first.author), self._equivocated(found),
                            found.to_line_dict(), "equivocation")

    # -----------------------------------------------------------------------------------------
    # Checking and applying entries.

    def validator(self, link: str) -> Callable[[Record, Entry], None]:
        """The check of every entry against the engine and the deck (for :func:`verify_lines`:
        an auditor replays a record file through it)."""
        return self._validator(link)

    def _validator(self, link: str) -> Callable[[Record, Entry], None]:
        def validate(record: Record, entry: Entry) -> None:
            author = self._seat_of[entry.author]
            name = self._name(entry.author)
            self._prepare_chance()
            expected = self.expected()
            self._entry_at = (entry.seq, entry.prev)
            self._check_author(author, name, entry.payload.get("t"), expected, entry.seq)
            payload = conform(entry.payload, Payload, name, "entry payload", error=RecordError,
                              seq=entry.seq)
            head = self._state  # a refused entry leaves the table as the record's head has it
            try:
                self._apply_payload(author, payload)
                digest = self.state_hash()
                if digest != entry.state:
                    raise RecordError(name, Reason.WRONG_STATE,
                                      f"state hash {entry.state[:16]}... differs from this "
                                      f"peer's {digest[:16]}...", entry.seq).with_code(
                                          "state-hash", theirs=entry.state[:16], ours=digest[:16])
                self._before_head = (entry.seq, head)
            except (DeckError, EngineError, RecordError) as exc:
                self._state = head
                if isinstance(exc, RecordError):
                    raise
                raise RecordError(name, Reason.ILLEGAL, str(exc), entry.seq).with_code(
                    "rules-refused", error=exc) from exc

        return validate

    def _apply_payload(self, author: Seat, payload: Payload) -> None:
        if isinstance(payload, LeavePayload):
            self._apply_leave(author, payload)
            return
        if isinstance(payload, EscrowPayload):
            self._apply_escrow(author, payload)
            return
        if isinstance(payload, RescuePayload):
            self._apply_rescue(author, payload)
            return
        if isinstance(payload, ShufflePayload) and self.pipeline:
            # Pipelined: the output is the next shuffler's input at once, and the epoch
            # completes with its last shuffle; the proofs are checked while waiting
            # (verify_deferred) and at the latest before this seat makes any decryption share
            # (docs/mental-poker.md, "Pipelined shuffles").
            self.deck.accept(author, payload.msg, defer_proof=True)
            self._take_deck_events()
            return
        if not isinstance(payload, ActionPayload):
            self.deck.accept(author, payload.msg)
            self._take_deck_events(opened_ok=isinstance(payload, OpenPayload))
            return
        action = self.game.parse_action(payload.a)
        if getattr(action, "seat", None) != author:
            raise EngineError(
                f"seat {author + 1} signed a move of seat {action.seat + 1}").with_code(
                "other-seat", action=action, seat=action.seat)
        before = self.game.knowledge(self._state)
        state = self.game.apply(self._state, action)
        revealed = self._revealed(before, self.game.knowledge(state))
        self._state = state
        accept_openings(self.deck, author, action, payload.open)
        self._take_deck_events()
        check_openings(self.deck, self.game, self._state, self.faces, author, action, revealed)
        self._after_engine_change()


__all__ = [
    "EARLY_PER_SENDER",
    "FUTURE_PER_AUTHOR",
    "FUTURE_WINDOW",
    "SHARES_PURPOSE",
    "GameCore",
    "Notice",
    "NoticeKind",
    "Output",
    "Persist",
    "Send",
    "joint_random",
]
