"""The protocol core: one peer's game, sans-I/O (bytes and events in, bytes and events out).

A :class:`GameCore` ties together the signed game record (:mod:`lancards.p2p.record`), the game
engine (every peer replays every move) and the mental-poker deck
(:mod:`lancards.p2p.crypto.coordinator`). It never touches a socket, a file or the clock: the
adapter feeds it bytes from authenticated links (:meth:`GameCore.receive`), local moves
(:meth:`GameCore.submit`) and link events, and carries out the :data:`Output` items it returns
**in order**: ``Persist`` items must be durable before any later ``Send`` goes out (the design's
"written to disk before being acted on").

The record is one linear log; who appends next follows from the record alone
(:mod:`lancards.p2p.schedule`). Cards dealt or drawn to a seat are revealed privately: every
other seat sends the holder its decryption shares sealed to it (X25519 + HKDF +
ChaCha20-Poly1305), beside the log.

Every message is decoded against its declared schema (:mod:`lancards.p2p.schemas`) where its
bytes are decoded; a violation is a ``rejected`` notice naming the sender. Every entry is
checked on arrival with the engine and the deck; the state hash it carries must equal the
receiver's (:func:`lancards.engine.digest.state_digest`). A signed entry that breaks the rules
proves its author cheated: the author is named with the evidence, the entry is not recorded,
the entry is passed on to every other peer (it names its author wherever it arrives), and the
table halts. Every accepted entry is acknowledged to the other seats (consistent broadcast,
:mod:`lancards.p2p.agreement`), so that an author who signs two entries with one number is found
within one round trip by every honest peer; the two entries are the evidence, journaled
(``Persist("evidence")``), broadcast and kept in the record file. Buffers are bounded: early
entries (checked before they are held, :data:`FUTURE_WINDOW`, :data:`FUTURE_PER_AUTHOR`), early
private shares (:data:`EARLY_PER_SENDER`), and catch-up (each entry once per link-up).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from lancards.engine.core import (
    ALL_SEATS,
    CHANCE,
    EngineError,
    Game,
    RandomInt,
    RandomIntRequest,
    Reveal,
    RevealRequest,
    Seat,
    Shuffle,
    ShuffleRequest,
    SlotId,
    seat_bit,
)
from lancards.engine.digest import state_digest
from lancards.engine.options import rule_set
from lancards.p2p.agreement import Agreement
from lancards.p2p.crypto.coordinator import OBSERVER, DeckCoordinator
from lancards.p2p.crypto.deck import (
    CardLearned,
    CardOpened,
    CardRevealed,
    DeckEvent,
    EpochComplete,
    ShuffleVerified,
    TableParams,
)
from lancards.p2p.crypto.errors import DeckError
from lancards.p2p.crypto.group import RandomBytes
from lancards.p2p.crypto.proofs import PUBLIC
from lancards.p2p.errors import (
    EquivocationError,
    LocalProtocolError,
    Reason,
    RecordError,
    RemoteProtocolError,
)
from lancards.p2p.identity import Identity, PublicIdentity
from lancards.p2p.record import Entry, Record
from lancards.p2p.schedule import WAITING_WHAT, EntryKind, Waiting, next_author, private_debts
from lancards.p2p.schemas import ActionPayload, OpenPayload, Payload, PrivateShares, conform
from lancards.p2p.sealed import MAX_PLAINTEXT, SealedPayload, open_sealed, seal
from lancards.p2p.table import StartedTable
from lancards.p2p.wire import (
    MESSAGE_TYPES,
    Envelope,
    ReplayGuard,
    decode_envelope,
    parse_json,
    sign_envelope,
)

GAME_TYPES: dict[str, Any] = {
    t: s for t, s in MESSAGE_TYPES.items() if t.startswith("record.") or t in ("sealed", "chat")
}
"""Message types the game core accepts (bodies: :data:`lancards.p2p.schemas.MESSAGE_SCHEMAS`)."""

SHARES_PURPOSE = "deck.shares"
"""The sealed-payload purpose of private decryption shares."""

FUTURE_WINDOW = 32
"""Entries numbered at most this far beyond the record's length are held while a gap fills
(after their signature and author are checked); later ones are dropped and fetched again."""

FUTURE_PER_AUTHOR = 8
"""The most early entries held per author."""

EARLY_PER_SENDER = 8
"""The most private-shares messages held per sender for cards not yet dealt (an honest sender
may be one entry ahead of this peer); more are dropped."""


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``data`` to the peer with key ``to``, or to every other seated peer (``None``)."""

    to: bytes | None
    data: bytes


@dataclass(frozen=True, slots=True)
class Persist:
    """Make ``line`` durable before anything later is sent.

    ``kind``: ``secret`` (this seat's deck key share, before anything is sent; keep it in a
    file only this user can read), ``entry`` (a record entry, in order), ``private`` (the
    decryption shares received privately, with the record length when they arrived),
    ``evidence`` (equivocation evidence).
    """

    kind: Literal["secret", "entry", "private", "evidence"]
    line: dict[str, Any]


NoticeKind = Literal["cheat", "rejected", "chat", "info", "over", "progress"]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to show people: a cheater named, a rejected message, chat, the game's end."""

    kind: NoticeKind
    text: str
    seat: Seat | None = None
    evidence: dict[str, Any] | None = None


Output = Send | Persist | Notice


def _no_randomness(count: int) -> bytes:
    raise LocalProtocolError("an observer draws no randomness")


def joint_random(table: str, joint_key: bytes, counter: int, n: int) -> int:
    """A joint random integer in ``range(n)`` (the first dealer).

    Every seat committed to its key share before any was revealed, so no seat chooses the joint
    key alone; the value is ``SHA-256(tag, table, joint key, counter) mod n`` (bias below
    ``n / 2**256``).
    """
    digest = hashlib.sha256(
        b"lancards/v1/random\x00" + table.encode() + joint_key + counter.to_bytes(4, "big")
    ).digest()
    return int.from_bytes(digest, "big") % n


class GameCore:
    """One peer's game at a started table.

    Args:
        me: this peer's identity (must be seated), or ``None`` for an auditor that replays a
            record as an observer (:mod:`lancards.p2p.audit`): it verifies everything, appends
            nothing.
        table: the started table (seats, game, options).
        random_bytes: the source of every random input of the deck.
        secret_key: this seat's deck key share when restoring; drawn anew when omitted.
        bot: a strategy that plays this seat automatically (``game.bot()``), or ``None``.
        envelope_seq: the first envelope sequence number this peer uses.

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
        bot: Any = None,
        envelope_seq: int = 0,
    ) -> None:
        self._me = me
        self._random = random_bytes
        self.table = table
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
        self.rules = spec.make_rules(table.spec.options)
        self.faces: Sequence[Any] = self.game.canonical_deck(self.rules)
        params = TableParams(spec.name, self.table_id, self.n, len(self.faces))
        self.deck = DeckCoordinator(params, self.seat, random_bytes, secret_key=secret_key)
        self.record: Record = table.new_record()
        self.record.signer = me
        self._state: Any = self.game.view(self.game.new_game(self.rules, self.n), self.view_seat)
        self.bot = bot
        self._pending: Any = None
        self._halted: str | None = None
        self.cheaters: dict[Seat, str] = {}
        self._env_seq = envelope_seq
        self._random_counter = 0
        self._requested: set[SlotId] = set()
        self._private_for: dict[Seat, set[SlotId]] = {s: set() for s in range(self.n)}
        self._future: dict[int, tuple[Entry, str]] = {}
        self._early: list[tuple[Seat, PrivateShares]] = []
        self._agree = Agreement(self.n)
        self._epoch_begun_for: tuple[int, ...] | None = None
        self._out: list[Output] = []
        self._guard = ReplayGuard(self._name)
        self._secret_saved = secret_key is not None
        self._replaying = False
        self.progress = ""

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
                raise RemoteProtocolError(link, Reason.NOT_SEATED, "the sender is not seated")
            env = decode_envelope(data, link, expected_sender=sender, types=GAME_TYPES)
            if env.table != self.table_id:
                raise RemoteProtocolError(link, Reason.WRONG_TABLE, f"table {env.table}")
            self._guard.accept(env)
            self._dispatch(env, link)
        except RemoteProtocolError as exc:
            self._notice("rejected", str(exc), self._seat_of.get(sender))
        return self._flush()

    def submit(self, action: Any) -> list[Output]:
        """Play ``action`` for this seat (checked at once against the local engine).

        Raises:
            EngineError: the action is malformed or illegal now.
            LocalProtocolError: the table is halted or it is not this seat's move.
        """
        if self._halted:
            raise LocalProtocolError(f"the table is halted: {self._halted}")
        if self.game.to_act(self._state) != self.seat:
            raise LocalProtocolError("it is not this seat's move")
        if getattr(action, "seat", self.seat) != self.seat:
            raise LocalProtocolError(f"an action of seat {action.seat}, not of this seat")
        self.game.check(self._state, action)
        self._pending = action
        self._advance()
        return self._flush()

    def peer_connected(self, key: bytes) -> list[Output]:
        """A link to ``key`` is up: ask it for the entries this peer lacks."""
        if key in self._seat_of:
            self._agree.link_up(self._seat_of[key])
            self._send(key, "record.sync", {"have": len(self.record)})
        return self._flush()

    def chat(self, text: str) -> list[Output]:
        """Send a chat line (at most 200 characters) to every other peer."""
        text = text.strip()[:200]
        if text:
            self._send(None, "chat", {"text": text})
            self._notice("chat", text, self.seat)
        return self._flush()

    # -----------------------------------------------------------------------------------------
    # Queries.

    def to_act(self) -> Seat | None:
        """The engine's seat to act (``CHANCE`` = -1 while the deck works, None when over)."""
        return None if self._halted else self.game.to_act(self._state)

    def expected(self) -> tuple[Seat, EntryKind] | None:
        """The seat that must append the next entry and what kind, or ``None``
        (:func:`lancards.p2p.schedule.next_author`)."""
        if self._halted:
            return None
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

    # -----------------------------------------------------------------------------------------
    # Restoring after a crash.

    def restore(self, lines: Sequence[tuple[str, dict[str, Any]]]) -> list[Output]:
        """Replay what was persisted (``Persist`` lines in their order), verifying everything.

        Args:
            lines: ``(kind, line)`` pairs as the ``Persist`` items gave them.

        Raises:
            PeerError: the persisted data does not verify (a corrupt store).
        """
        self._replaying = True
        try:
            self._replay(lines)
        finally:
            self._replaying = False
        self._out = [o for o in self._out if not isinstance(o, Persist | Send)]
        return self.start()

    def _replay(self, lines: Sequence[tuple[str, dict[str, Any]]]) -> None:
        for kind, line in lines:
            if kind == "entry":
                entry = Entry.from_dict(line, "the local record")
                self.record.append(entry, self._validator("the local record"))
                self._after_append()
            elif kind == "private":
                shares = conform(line["payload"], PrivateShares, "the local record",
                                 "private shares")
                self._accept_private(int(line["from"]), shares)
            elif kind == "evidence":
                found = self.record.add_evidence(line["first"], line["second"],
                                                 link="the local record")
                self._cheat(self._seat_of.get(found.first.author), self._equivocated(found),
                            found.to_line_dict())

    # -----------------------------------------------------------------------------------------
    # Dispatch.

    def _dispatch(self, env: Envelope, link: str) -> None:
        sender_seat = self._seat_of[env.sender]
        body = env.body
        if self._halted is not None and env.type in ("record.entry", "record.ack", "sealed"):
            return  # the table stopped: nothing more is checked against a halted state
        if env.type == "record.entry":
            self._on_entry(env.sender, body["entry"], link)
        elif env.type == "sealed":
            self._on_sealed(sender_seat, body["payload"], link)
        elif env.type == "record.sync":
            self._on_sync(env.sender, body["have"])
        elif env.type == "record.ack":
            self._on_ack(sender_seat, body["seq"], body["hash"])
        elif env.type == "record.evidence":
            found = self.record.add_evidence(body["first"], body["second"], link=link)
            if self._halted is None or found.first.author not in self._cheater_keys():
                self._out.append(Persist("evidence", found.to_line_dict()))
                self._cheat(self._seat_of.get(found.first.author), self._equivocated(found),
                            found.to_line_dict())
        elif env.type == "chat":
            self._notice("chat", body["text"][:200], sender_seat)
        else:
            raise RemoteProtocolError(link, Reason.UNKNOWN_TYPE, f"{env.type!r} during a game")

    def _cheater_keys(self) -> set[bytes]:
        return {self.players[s].public_key for s in self.cheaters}

    def _equivocated(self, found: Any) -> str:
        return (f"{self._name(found.first.author)} signed two different entries numbered "
                f"{found.first.seq} (equivocation)")

    def _on_sealed(self, sender_seat: Seat, data: Any, link: str) -> None:
        payload = SealedPayload.from_dict(data, link)
        plaintext = open_sealed(self.me, payload, self.players[sender_seat], table=self.table_id,
                                purpose=SHARES_PURPOSE, link=link)
        try:
            message = conform(parse_json(plaintext, link, max_size=MAX_PLAINTEXT),
                              PrivateShares, link, "sealed shares")
        except RemoteProtocolError:
            # Ask again at once: a sender that is honest but garbled resends (bounded).
            self._send(self.players[sender_seat].public_key, "record.sync",
                       {"have": len(self.record)})
            raise
        self._accept_private(sender_seat, message)

    def _on_sync(self, sender: bytes, have: int) -> None:
        seat = self._seat_of[sender]
        for number in self._agree.catch_up(seat, have, len(self.record)):
            self._send(sender, "record.entry", {"entry": self.record.entries[number].to_dict()})
        slots = sorted(s for s in self._private_for[seat] if self._owes_private(s))
        if slots and self._agree.may_resend_shares(seat, len(self.record)):
            self._send_shares(seat, slots)

    def _on_ack(self, seat: Seat, seq: int, digest: str) -> None:
        if seq < len(self.record):
            mine = self.record.entries[seq]
            if mine.hash != digest and self._agree.may_reply(seat):
                self._send(self.players[seat].public_key, "record.entry",
                           {"entry": mine.to_dict()})
            return
        for other in self._agree.hold(seat, seq, digest, len(self.record)):
            self._send(self.players[other].public_key, "record.sync", {"have": seq})
        if self._agree.ask_gap(seq, len(self.record)):
            self._send(self.players[seat].public_key, "record.sync", {"have": len(self.record)})

    def _ack(self, entry: Entry) -> None:
        """Consistent broadcast: tell every seat but the author the hash accepted."""
        if self._replaying or self.view_seat is None:
            return
        body = {"seq": entry.seq, "hash": entry.hash}
        for member in self.players:
            if member.public_key not in (entry.author, self.me.public_key):
                self._send(member.public_key, "record.ack", body)

    def _on_entry(self, sender: bytes, data: Any, link: str) -> None:
        entry = Entry.from_dict(data, link)
        if entry.seq > len(self.record):
            self._hold_future(sender, entry, link)
            return
        self._append_remote(entry, link)
        while not self._halted and self._future:
            settled = [s for s in self._future if s < len(self.record)]
            for number in settled:  # held, but another entry took its number: compare them
                held, held_link = self._future.pop(number)
                if held != self.record.entries[number] and not self._halted:
                    self._append_remote(held, held_link)
            if len(self.record) not in self._future:
                break
            entry, link = self._future.pop(len(self.record))
            self._append_remote(entry, link)

    def _hold_future(self, sender: bytes, entry: Entry, link: str) -> None:
        """Hold an entry that arrived early, checked first; ask the link for the gap."""
        if entry.table != self.table_id or entry.author not in self._seat_of:
            raise RecordError(link, Reason.NOT_SEATED, "an early entry by an unseated author",
                              entry.seq)
        if not entry.verifies():
            raise RecordError(link, Reason.BAD_SIGNATURE, "an early entry's signature does "
                              "not verify", entry.seq)
        held = self._future.get(entry.seq)
        if held is not None and held[0] != entry:
            if held[0].author == entry.author:
                self._found_equivocation(self.record.add_evidence(held[0], entry, link=link))
            return
        per_author = sum(1 for e, _ in self._future.values() if e.author == entry.author)
        if entry.seq < len(self.record) + FUTURE_WINDOW and per_author < FUTURE_PER_AUTHOR:
            self._future[entry.seq] = (entry, link)
        self._send(sender, "record.sync", {"have": len(self.record)})

    def _found_equivocation(self, found: Any) -> None:
        line = found.to_line_dict()
        self._out.append(Persist("evidence", line))
        self._send(None, "record.evidence", {"first": found.first.to_dict(),
                                             "second": found.second.to_dict()})
        self._cheat(self._seat_of[found.first.author], self._equivocated(found), line)

    def _append_remote(self, entry: Entry, link: str) -> None:
        try:
            self.record.append(entry, self._validator(link), link=link)
        except EquivocationError:
            self._found_equivocation(self.record.evidence[-1])
            return
        except RecordError as exc:
            if exc.reason in (Reason.REPLAYED, Reason.OUT_OF_ORDER, Reason.BROKEN_CHAIN):
                # A retransmission, or an entry built on another branch of a fork: the fork is
                # found through the acks (p2p.agreement); its author is not at fault.
                return
            author = self._seat_of.get(entry.author)
            signed = author is not None and entry.verifies()
            if signed and exc.reason in (Reason.ILLEGAL, Reason.OUT_OF_TURN, Reason.WRONG_STATE,
                                         Reason.MALFORMED):
                self._cheat(author, str(exc), {"entry": entry.to_dict()})
                # Every other peer must see it too: it is signed, so it names its author
                # wherever it arrives (at another position it is an equivocation).
                self._send(None, "record.entry", {"entry": entry.to_dict()})
            else:
                self._notice("rejected", str(exc), None)
            return
        self._out.append(Persist("entry", entry.to_dict()))
        self._ack(entry)
        self._after_append()

    def _after_append(self) -> None:
        last = self.record.entries[-1]
        for seat in self._agree.settled(last.seq, last.hash):
            self._send(self.players[seat].public_key, "record.entry", {"entry": last.to_dict()})
        if self._early:
            early, self._early = self._early, []
            for seat, message in early:
                self._accept_private(seat, message)
        self._advance()

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
            kind = entry.payload.get("t")
            if expected is None or expected[0] != author or expected[1] != kind:
                wanted = "nothing" if expected is None else f"seat {expected[0]}'s {expected[1]}"
                raise RecordError(name, Reason.OUT_OF_TURN,
                                  f"a {kind!r} entry by seat {author}; the record waits for "
                                  f"{wanted}", entry.seq)
            payload = conform(entry.payload, Payload, name, "entry payload", error=RecordError,
                              seq=entry.seq)
            try:
                self._apply_payload(author, payload)
            except (DeckError, EngineError) as exc:
                raise RecordError(name, Reason.ILLEGAL, str(exc), entry.seq) from exc
            digest = self.state_hash()
            if digest != entry.state:
                raise RecordError(name, Reason.WRONG_STATE,
                                  f"state hash {entry.state[:16]}... differs from this peer's "
                                  f"{digest[:16]}...", entry.seq)

        return validate

    def _apply_payload(self, author: Seat, payload: Payload) -> None:
        if not isinstance(payload, ActionPayload):
            self.deck.accept(author, payload.msg)
            self._take_deck_events(opened_ok=isinstance(payload, OpenPayload))
            return
        action = self.game.parse_action(payload.a)
        if getattr(action, "seat", None) != author:
            raise EngineError(f"seat {author} signed a move of seat {action.seat}")
        before = self.game.knowledge(self._state)
        state = self.game.apply(self._state, action)
        revealed = self._revealed(before, self.game.knowledge(state))
        self._state = state
        for message in payload.open:
            self.deck.accept(author, message)
        self._take_deck_events()
        for slot in revealed:
            card = self.deck.card(slot) if self.deck.is_public(slot) else None
            claimed = self.game.identity(self._state, slot)
            if card is None:
                raise DeckError(f"card #{slot} was made public without an opening")
            if claimed != self.faces[card]:
                raise DeckError(f"seat {author} claimed #{slot} is {claimed}, "
                                f"but the opening shows {self.faces[card]}")
        self._after_engine_change()

    @staticmethod
    def _revealed(before: Any, after: Any) -> list[SlotId]:
        return sorted(s for s, m in after.items() if m == ALL_SEATS and before.get(s) != ALL_SEATS)

    def _take_deck_events(self, opened_ok: bool = False) -> None:
        for event in self.deck.take_events():
            self._on_deck_event(event, opened_ok)

    def _on_deck_event(self, event: DeckEvent, opened_ok: bool) -> None:
        if isinstance(event, EpochComplete):
            self._state = self._engine(Shuffle(None))
            self.progress = ""
            self._after_engine_change()
        elif isinstance(event, CardRevealed) or (isinstance(event, CardOpened) and opened_ok):
            self._state = self._engine(Reveal(event.slot, self.faces[event.card]))
            self._after_engine_change()
        elif isinstance(event, CardLearned):
            self._state = self.game.learn(self._state, event.slot, self.faces[event.card])
        elif isinstance(event, ShuffleVerified):
            self.progress = f"shuffle {event.seat + 1} of {self.n}, verified"

    def _engine(self, action: Any) -> Any:
        return self.game.view(self.game.apply(self._state, action), self.view_seat)

    def _after_engine_change(self) -> None:
        """Request the private reveals the engine's last step calls for (deal, draw)."""
        for slot, mask in self.game.knowledge(self._state).items():
            if mask == 0 or mask == ALL_SEATS or mask & (mask - 1):
                continue
            if slot in self._requested or self.deck.is_public(slot):
                continue
            if self.deck.ciphertext(slot) is None:
                continue
            holder = mask.bit_length() - 1
            self._requested.add(slot)
            self._private_for[holder].add(slot)
            self.deck.request_private([slot], holder)
        self._state = self.game.view(self._state, self.view_seat)

    def _holder(self, slot: SlotId) -> Seat | None:
        mask = self.game.knowledge(self._state).get(slot, 0)
        if mask and mask != ALL_SEATS and not mask & (mask - 1):
            return mask.bit_length() - 1
        return None

    # -----------------------------------------------------------------------------------------
    # Private shares.

    def _owes_private(self, slot: SlotId) -> bool:
        return not self.deck.is_public(slot) and self.deck.ciphertext(slot) is not None

    def _send_shares(self, recipient: Seat, slots: Sequence[SlotId]) -> None:
        message = self.deck.make_shares(recipient, slots)
        if message is None:
            return
        plaintext = json.dumps(message, sort_keys=True, separators=(",", ":")).encode()
        payload = seal(self.me, self.players[recipient], self.table_id, SHARES_PURPOSE, plaintext,
                       random_bytes=self._random)
        self._send(self.players[recipient].public_key, "sealed", {"payload": payload.to_dict()})

    def _accept_private(self, sender: Seat, message: PrivateShares) -> None:
        """Take private shares (schema-checked); hold them (bounded) when the entry that deals
        the cards is still to come; persist them when the deck accepts them."""
        slots = [item.slot for item in message.shares]
        if any(s not in self._requested for s in slots):
            if sum(1 for s, _ in self._early if s == sender) < EARLY_PER_SENDER:
                self._early.append((sender, message))
            return
        if all(self.deck.ciphertext(s) is None for s in slots):
            return  # too late: the cards went back into the deck (or are public by now)
        raw = msgspec.to_builtins(message)
        try:
            self.deck.accept(sender, raw)
        except DeckError as exc:
            self._notice("cheat", f"{self.name(sender)} sent a bad private share: {exc}", sender)
            return
        self._out.append(Persist("private", {"from": sender, "payload": raw,
                                             "at": len(self.record)}))
        self._take_deck_events()
        self._advance()

    # -----------------------------------------------------------------------------------------
    # Producing this seat's entries.

    def _prepare_chance(self) -> None:
        """Start what the engine's chance request needs (idempotent; the same on every peer)."""
        while self.deck.joint_key is not None and self.game.to_act(self._state) == CHANCE:
            request = self.game.chance_request(self._state)
            if isinstance(request, RandomIntRequest):
                assert self.deck.joint_key is not None
                value = joint_random(self.table_id, self.deck.joint_key.encode(),
                                     self._random_counter, request.n)
                self._random_counter += 1
                self._state = self._engine(RandomInt(value, request.n))
                self._after_engine_change()
                continue
            if isinstance(request, ShuffleRequest):
                key = (request.first_new_slot, *request.slots)
                if self._epoch_begun_for != key:
                    self._epoch_begun_for = key
                    unseen = {
                        s: s for s in request.slots
                        if s < len(self.faces) and self.deck.card(s) is None
                        and self.deck.ciphertext(s) is None
                    }
                    self.deck.begin_shuffle(request.slots, request.first_new_slot, unseen,
                                            abandon_reveals=True)
                    self.progress = f"shuffle 1 of {self.n}, waiting"
            elif (
                isinstance(request, RevealRequest)
                and self._holder(request.slot) is None
                and request.slot not in self._requested
            ):
                self._requested.add(request.slot)
                self.deck.request_public([request.slot])
            return

    def _advance(self) -> None:
        """Append every entry this seat owes now, and send the private shares it owes."""
        while not self._halted and not self._replaying:
            self._send_owed_private()
            self._prepare_chance()
            expected = self.expected()
            if expected is None or expected[0] != self.seat:
                return
            kind = expected[1]
            payload = self._make_payload(kind)
            if payload is None:
                return
            digest = self.state_hash()
            entry = self.record.next_entry(self.me, payload, digest)
            self.record.append(entry)
            self._out.append(Persist("entry", entry.to_dict()))
            self._send(None, "record.entry", {"entry": entry.to_dict()})
            self._agree.settled(entry.seq, entry.hash)

    def _send_owed_private(self) -> None:
        for debt in self.deck.owed():
            if debt.kind == "shares" and debt.seat == self.seat and debt.recipient is not None \
                    and debt.recipient not in (PUBLIC, self.seat):
                self._send_shares(debt.recipient, debt.slots)

    def _make_payload(self, kind: str) -> dict[str, Any] | None:
        if kind == "key":
            debts = [d for d in self.deck.owed() if d.seat == self.seat]
            if not debts:
                return None
            if debts[0].kind == "key_commit":
                message = self.deck.make_key_commit()
            else:
                message = self.deck.make_key_reveal()
            self._take_deck_events()
            return {"t": "key", "msg": message}
        if kind == "shuffle":
            self.progress = f"shuffle {self.seat + 1} of {self.n}, proving"
            message = self.deck.make_shuffle()
            self._take_deck_events()
            return {"t": "shuffle", "msg": message}
        if kind == "shares":
            shares = self.deck.make_shares(PUBLIC)
            if shares is None:
                return None
            self._take_deck_events()
            return {"t": "shares", "msg": shares}
        if kind == "open":
            request = self.game.chance_request(self._state)
            assert isinstance(request, RevealRequest)
            if not self.deck.can_open(request.slot):
                return None
            message = self.deck.make_open(request.slot)
            self._take_deck_events(opened_ok=True)
            return {"t": "open", "msg": message}
        return self._make_action()

    def _make_action(self) -> dict[str, Any] | None:
        if self._pending is None and self.bot is not None:
            legal = self.legal_actions()
            if legal:
                self._pending = self.bot.choose(self._state, self.seat, legal)
        action = self._pending
        if action is None or not self.hand_ready():
            return None
        self._pending = None
        before = self.game.knowledge(self._state)
        state = self.game.apply(self._state, action)
        opens = [
            self.deck.make_open(slot)
            for slot in self._revealed(before, self.game.knowledge(state))
            if not self.deck.is_public(slot)
        ]
        self.deck.take_events()
        self._state = state
        self._after_engine_change()
        return {"t": "action", "a": self.game.format_action(self.game.public_action(action)),
                "open": opens}

    # -----------------------------------------------------------------------------------------
    # Helpers.

    def _cheat(self, seat: Seat | None, text: str, evidence: dict[str, Any]) -> None:
        if seat is not None:
            self.cheaters[seat] = text
        self._halted = text
        self._notice("cheat", text, seat, evidence)

    def _notice(self, kind: NoticeKind, text: str, seat: Seat | None = None,
                evidence: dict[str, Any] | None = None) -> None:
        self._out.append(Notice(kind, text, seat, evidence))

    def _send(self, to: bytes | None, type: str, body: dict[str, Any]) -> None:
        env = sign_envelope(self.me, type, self.table_id, self._env_seq, body)
        self._env_seq += 1
        self._out.append(Send(to, env.encode()))

    def _name(self, key: bytes) -> str:
        seat = self._seat_of.get(key)
        if seat is None:
            return f"unseated peer {key.hex()[:16]}"
        return f"{self.players[seat]} (seat {seat})"

    def _flush(self) -> list[Output]:
        out, self._out = self._out, []
        return out


__all__ = ["GameCore", "Notice", "Output", "Persist", "Send", "joint_random"]
