"""The protocol core's parts shared by its modules: outputs, bounds, state and helpers.

:class:`~lancards.p2p.protocol.core.GameCore` is assembled from :class:`CoreParts` (this peer's
state, as attributes, and the helpers every part uses),
:class:`~lancards.p2p.protocol.inbound.Inbound` (what arrives from peers) and
:class:`~lancards.p2p.protocol.outbound.Outbound` (what this seat appends and sends). The outputs
(:data:`Output`) are what the adapter carries out, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lancards.engine.core import ALL_SEATS, Game, Seat, SlotId
from lancards.p2p.crypto.coordinator import DeckCoordinator
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.group import RandomBytes
from lancards.p2p.protocol.agreement import Agreement
from lancards.p2p.protocol.errors import PeerError, Reason, RecordError
from lancards.p2p.protocol.identity import Identity, PublicIdentity
from lancards.p2p.protocol.record import Entry, Record
from lancards.p2p.protocol.schemas import PrivateShares
from lancards.p2p.protocol.table import StartedTable
from lancards.p2p.protocol.wire import ReplayGuard, sign_envelope

FUTURE_WINDOW = 32
"""Entries numbered at most this far beyond the record's length are held while a gap fills
(after their signature and author are checked); later ones are dropped and fetched again."""

FUTURE_PER_AUTHOR = 8
"""The most early entries held per author."""

EARLY_PER_SENDER = 8
"""The most private-shares messages held per sender for cards not yet dealt (an honest sender
may be one entry ahead of this peer); more are dropped."""

TOLD_KEPT = 8
"""Pieces of evidence a peer keeps to send again to links that come up (one cheat halts it)."""


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
    ``evidence`` (equivocation evidence), ``cheat-entry`` (a signed entry the rules refuse, which
    halted the table: :mod:`lancards.p2p.protocol.cheat_evidence`), ``vote`` (a removal vote
    this peer signed or received, ruling D-5), ``unvote`` (a withdrawal this peer signed, or
    a rescuer's that voids a round).
    """

    kind: Literal["secret", "entry", "private", "evidence", "cheat-entry", "vote", "unvote",
                  "void"]
    line: dict[str, Any]


class DeferredProofError(RecordError):
    """A proof of shuffle taken in before it was checked (pipelined shuffles,
    ``docs/mental-poker.md``) failed when the epoch's checks ran before the epoch's last
    shuffle entry was hashed. It names the prover (:attr:`prover`, :attr:`sender`), not the
    author of the entry whose validation ran the check (that author did nothing wrong).

    Attributes:
        prover: the seat whose proof of shuffle failed.
        error: the deck's :class:`~lancards.p2p.crypto.errors.ProofError`.
    """

    def __init__(self, prover_name: str, error: ProofError, seq: int | None) -> None:
        super().__init__(prover_name, Reason.ILLEGAL, str(error), seq)
        self.with_code("proof", proof=error.proof, seat=error.seat)
        self.prover: Seat = error.seat
        self.error = error


NoticeKind = Literal["cheat", "rejected", "chat", "info", "over", "progress", "presence"]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to show people: a cheater named, a rejected message, chat, the game's end."""

    kind: NoticeKind
    text: str
    seat: Seat | None = None
    evidence: dict[str, Any] | None = None
    error: PeerError | None = None
    """For a ``rejected`` notice, the refusal itself (its reason code, sender, entry: the command
    line says it in the player's language, issue 28); ``text`` is its English ``str``."""
    code: str = ""
    """What happened, a stable code (issue 28; ``text`` is its English sentence, with the
    detail): a ``cheat`` notice's is its halt kind (``GameCore.halt_kind``), or
    ``bad-private-share`` and ``bad-escrow-part`` (cheats that do not halt the table); an
    ``info`` notice's is ``vote`` (this seat voted to remove ``seat``), ``vote-void``, ``left``,
    ``removed``, ``voided`` or ``catching-up`` (no screen shows these: a screen says the same
    from the core's state, in banners). ``seat`` is the seat named."""
    voters: tuple[Seat, ...] = ()
    """For a ``vote-void`` notice, the seats whose votes of the void round this peer held (who
    asked to remove ``seat``): a screen tells a vote against a player who is connected."""


Output = Send | Persist | Notice


class CoreParts:
    """This peer's game state (set by :class:`~lancards.p2p.protocol.core.GameCore`) and the helpers
    the core's parts share. Not used alone."""

    _me: Identity | None
    _random: RandomBytes
    table: StartedTable
    table_id: str
    players: tuple[PublicIdentity, ...]
    seat: Seat
    view_seat: Seat | None
    n: int
    _seat_of: dict[bytes, Seat]
    game: Game[Any, Any]
    rules: Any
    faces: Sequence[Any]
    deck: DeckCoordinator
    record: Record
    _state: Any
    _pending: Any
    _leaving: bool
    _leave_heard: set[Seat]
    _halted: str | None
    halt_kind: str = ""
    """What halted the table, as a code (the screens say it: ``cli/peer_words.py``): ``""`` (not
    halted, or ``halt``), ``"equivocation"``, ``"proof"`` (a shuffle proof failed), ``"unvote"``
    (a removal round voided, then begun), or the :class:`Reason` value of a refused signed entry
    (``"illegal"``, ``"out-of-turn"``, ``"wrong-state-hash"``, ``"malformed"``)."""
    halt_cause: BaseException | None = None
    """What refused the signed entry that halted the table, when its refusal had a cause: the
    engine's error (an :class:`~lancards.engine.core.EngineError` whose ``code`` and ``params``
    say why the rules refuse the move, and name it), or the deck's; for an ``out-of-turn``
    entry the refusal itself (its ``params`` name the seat whose entry was due:
    :func:`~lancards.p2p.protocol.cheat_evidence.refused_by`). ``None`` otherwise."""
    cheaters: dict[Seat, str]
    _told: list[tuple[str, dict[str, Any]]]
    _env_seq: int
    _random_counter: int
    first_dealer: Seat | None = None
    """The seat the first dealer draw gave (Level 8, ruling L8-2; a rematch's names it, L8-17);
    ``None`` before it, and in games that draw none (8s Rule! cuts, ruling E-2)."""
    _requested: set[SlotId]
    _private_for: dict[Seat, set[SlotId]]
    _future: dict[tuple[int, bytes], tuple[Entry, str]]
    _early: list[tuple[Seat, PrivateShares]]
    _agree: Agreement
    _epoch_begun_for: tuple[int, ...] | None
    _out: list[Output]
    _guard: ReplayGuard
    _secret_saved: bool
    _replaying: bool
    pipeline: bool
    checks_when_idle: bool
    progress: str
    peer_has: dict[Seat, int]
    _sync_wait: set[Seat] | None

    @property
    def me(self) -> Identity:  # pragma: no cover - GameCore defines it
        raise NotImplementedError

    def _shuffle_progress(self, seat: Seat | None, state: str) -> str:
        """``"shuffle K of N, STATE"``: K the place of ``seat`` (``None``: the first) among the
        seats still at the table, N their number (a removed or departed seat shuffles no
        more; the persona suite saw "0 of 4 done" at a table of three)."""
        present = list(self.deck.present)
        k = present.index(seat) + 1 if seat in present else 1
        return f"shuffle {k} of {len(present)}, {state}"

    @staticmethod
    def _revealed(before: Any, after: Any) -> list[SlotId]:
        return sorted(s for s, m in after.items() if m == ALL_SEATS and before.get(s) != ALL_SEATS)

    # Parts defined by the other modules (declared here for the type checker).

    def _validator(self, link: str) -> Callable[[Record, Entry], None]:  # pragma: no cover
        raise NotImplementedError

    def _take_deck_events(self, opened_ok: bool = False) -> None:  # pragma: no cover
        raise NotImplementedError

    def _after_engine_change(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def _advance(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def _may_submit(self) -> None:  # pragma: no cover - Inbound's
        raise NotImplementedError

    @property
    def syncing(self) -> bool:  # pragma: no cover - Inbound's
        raise NotImplementedError

    def _send_shares(self, recipient: Seat, slots: Sequence[SlotId]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _owes_private(self, slot: SlotId) -> bool:  # pragma: no cover
        raise NotImplementedError

    def _accept_private(self, sender: Seat, message: PrivateShares) -> None:  # pragma: no cover
        raise NotImplementedError

    def _holder(self, slot: SlotId) -> Seat | None:  # pragma: no cover
        raise NotImplementedError

    def _engine(self, action: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _make_leave(self) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _make_escrow(self) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _make_rescue(self) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _writing_turn(self) -> tuple[Seat, Any] | None:  # pragma: no cover
        raise NotImplementedError

    def _on_vote(self, body: Any, link: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def _resend_votes(self, key: bytes) -> None:  # pragma: no cover
        raise NotImplementedError

    def _on_unvote(self, body: Any, link: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def bound(self) -> tuple[Seat, int] | None:  # pragma: no cover - Rescue's
        raise NotImplementedError

    def _hold_bound(self, entry: Entry, link: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def votes_for(self, seat: Seat) -> tuple[Seat, ...]:  # pragma: no cover - Rescue's
        raise NotImplementedError

    def _withdraw(self, key: tuple[Seat, int, str, int]) -> None:  # pragma: no cover
        raise NotImplementedError

    def _append_remote(self, entry: Entry, link: str) -> None:  # pragma: no cover - Inbound's
        raise NotImplementedError

    def _drain_future(self) -> None:  # pragma: no cover - Inbound's
        raise NotImplementedError

    @property
    def removing(self) -> Seat | None:  # pragma: no cover - Rescue's
        raise NotImplementedError

    def _refuse_voted_out(self, author: Seat, name: str, seq: int,
                          kind: Any = None) -> None:  # pragma: no cover
        raise NotImplementedError

    def hand_ready(self) -> bool:  # pragma: no cover
        raise NotImplementedError

    def legal_actions(self) -> Sequence[Any]:  # pragma: no cover
        raise NotImplementedError

    def state_hash(self) -> str:  # pragma: no cover
        raise NotImplementedError

    def expected(self) -> tuple[Seat, Any] | None:  # pragma: no cover
        raise NotImplementedError

    def name(self, seat: Seat) -> str:  # pragma: no cover
        raise NotImplementedError

    # -----------------------------------------------------------------------------------------
    # Helpers.

    def _check_epoch_proofs(self) -> None:
        """Check every deferred proof of shuffle of a completed epoch (before this seat makes a
        decryption share: no share of its cards exists before every proof verified).

        Raises:
            DeferredProofError: a proof fails; names its prover and the prover's entry.
        """
        if not self.deck.checks_due:
            return
        try:
            self.deck.check_deferred(due_only=True)
        except ProofError as exc:
            raise self._deferred_error(exc) from exc

    def _deferred_error(self, exc: ProofError) -> DeferredProofError:
        entry = self._shuffle_entry(exc.seat)
        return DeferredProofError(self.name(exc.seat), exc, None if entry is None else entry.seq)

    def _shuffle_entry(self, seat: Seat) -> Entry | None:
        """The latest shuffle entry of ``seat`` in the record (the evidence of a bad proof)."""
        key = self.players[seat].public_key
        for entry in reversed(self.record.entries):
            if entry.author == key and entry.payload.get("t") == "shuffle":
                return entry
        return None

    def _deferred_failed(self, exc: DeferredProofError) -> None:
        """A deferred proof of shuffle failed: name its prover with its signed entry; halt.
        First every other peer is told to check that entry's proof now (``record.check``):
        it holds the same entry, perhaps unchecked, so it names the prover too instead of
        waiting for this halted peer (issue 23, situation 8)."""
        entry = self._shuffle_entry(exc.prover)
        if entry is not None and self.view_seat is not None and not self._replaying:
            self._tell_everyone("record.check", {"seq": entry.seq, "hash": entry.hash})
        self._cheat(exc.prover, str(exc), {} if entry is None else {"entry": entry.to_dict()},
                    "proof")

    def _verify_deferred(self, limit: int | None) -> None:  # pragma: no cover - GameCore's
        raise NotImplementedError

    def _cheat(self, seat: Seat | None, text: str, evidence: dict[str, Any],
               kind: str = "", cause: BaseException | None = None) -> None:
        if seat is not None:
            self.cheaters[seat] = text
        self._halted, self.halt_kind, self.halt_cause = text, kind, cause
        self._notice("cheat", text, seat, evidence, code=kind)

    def _notice(self, kind: NoticeKind, text: str, seat: Seat | None = None,
                evidence: dict[str, Any] | None = None, error: PeerError | None = None,
                code: str = "") -> None:
        self._out.append(Notice(kind, text, seat, evidence, error, code))

    @property
    def told(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """The evidence of a cheat this peer sent to every seat, oldest first (at most
        :data:`TOLD_KEPT`): ``("record.entry", {"entry"})``, a signed entry it refused naming
        its author, ``("record.evidence", {"first", "second"})``, a fork, or a
        ``record.check``; its observers are sent the signed entries
        (:class:`~lancards.p2p.protocol.watchers.Watchers`)."""
        return tuple(self._told)

    def _tell_everyone(self, type: str, body: dict[str, Any]) -> None:
        """Send evidence of a cheat (``record.evidence``, a signed bad ``record.entry``, a
        ``record.check``) to every seat, and keep it (at most :data:`TOLD_KEPT`) to send again
        to each link that comes up: a peer that halts on evidence makes sure every other peer
        gets it, even one whose link was down then (issue 23: an honest peer must never be
        left playing on with the cheater while the others halted)."""
        if len(self._told) < TOLD_KEPT:
            self._told.append((type, body))
        self._send(None, type, body)

    def _send(self, to: bytes | None, type: str, body: dict[str, Any]) -> None:
        env = sign_envelope(self.me, type, self.table_id, self._env_seq, body)
        self._env_seq += 1
        self._out.append(Send(to, env.encode()))

    def _name(self, key: bytes) -> str:
        seat = self._seat_of.get(key)
        if seat is None:
            return f"unseated peer {key.hex()[:16]}"
        return f"{self.players[seat]} (seat {seat + 1})"  # counted from 1, as the panel does

    def _flush(self) -> list[Output]:
        out, self._out = self._out, []
        return out


__all__ = [
    "EARLY_PER_SENDER",
    "FUTURE_PER_AUTHOR",
    "FUTURE_WINDOW",
    "CoreParts",
    "DeferredProofError",
    "Notice",
    "NoticeKind",
    "Output",
    "Persist",
    "Send",
]
