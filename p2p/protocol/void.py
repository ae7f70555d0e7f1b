"""An entry of this seat's own that never reached the table, voided by the removal the others
made at its position (issue 24, lids that close). Part of
:class:`~lancards.p2p.protocol.core.GameCore`.

A seat may journal an entry of its own and stop (a laptop's lid closed, SIGSTOP) before the
entry is written to any socket. If the table has rescue on, the others wait the patience, vote
the seat out and append the first ``rescue`` entry about it at that very position (ruling D-5).
When the seat wakes, its record holds its own entry there and theirs the removal: without this
part its record parts from theirs for good and it waits for ever.

The removal settles it: its votes are signed by every other seat still at the table about
that position and the head before it, so no other seat ever took the seat's entry (nor any of
its own entries after it: every entry from the position on must be by this seat). On such an
entry, this peer rebuilds its core from its record up to the position (its key share kept),
checks the removal there with the full validator, and only if it verifies adopts the rebuilt
state: the journal gets a ``void {"from": N}`` line, then the removal entry; a restore replays
the same (``void`` rebuilds at that line), so a kill -9 before the ``void`` line only means the
removal is met again after the resume, and one after it is replayed. What the voided entries
said was never seen by anyone; a removed seat owes and is owed nothing, so its own private
shares, lost with the rebuild, are not needed. ``docs/protocol.md``, "Back from a sleep".
"""

from __future__ import annotations

from typing import Any

from lancards.p2p.protocol.core_parts import Notice, Persist
from lancards.p2p.protocol.errors import PeerError
from lancards.p2p.protocol.presence import Presence
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.schemas import RemovalVote, conform
from lancards.p2p.protocol.votes import vote_problem

KEPT = ("_guard", "_env_seq", "peer_has", "address_book", "checks_when_idle", "paused",
        "_presence_told", "_told")
"""What a rebuild keeps of the core it replaces: the replay guard and envelope numbers (never
reused), what peers reported, and what the adapter set."""

VOIDED = ("your last move never reached the table: the others voted you out at its place "
          "while you were away")
"""The ``info`` notice of a void (told once, to this seat's person)."""


class Void(Presence):
    """Voiding an unseen entry of this seat's own (see the module docstring)."""

    def _voided_by(self, entry: Entry, link: str) -> bool:
        """Whether ``entry`` (at a position this record holds already) is a removal of this
        seat there that voids this seat's own entries from that position: if so it is taken
        (the core rebuilt, the ``void`` line and the entry journaled) and ``True`` returned.
        ``False`` leaves everything as it was. Never raises."""
        n, mine = entry.seq, self.me.public_key if self.view_seat is not None else b""
        own = self.record.entries[n:]
        if (not mine or self._halted or n == 0 or entry.author == mine
                or entry.payload.get("t") != "rescue" or entry.payload.get("seat") != self.seat
                or not entry.payload.get("votes") or any(e.author != mine for e in own)
                or entry.prev != self.record.entries[n - 1].hash or not entry.verifies()):
            return False
        if not self._votes_remove_me(entry.payload["votes"], n, link):
            return False  # checked before the costly rebuild: forged votes cost nothing here
        try:
            fresh = self._rebuilt(n)
            fresh.record.append(entry, fresh._validator(link), link=link)
        except PeerError:
            return False
        self._adopt(fresh, n)
        self._out.append(Persist("entry", entry.to_dict()))
        self._ack(entry)
        self._after_append()
        return True

    def _votes_remove_me(self, votes: Any, n: int, link: str) -> bool:
        """Whether ``votes`` hold a good vote (its signature verified) "remove this seat at
        entry ``n``" by every other seat still at the table."""
        head, want = self.record.entries[n - 1].hash, {
            self.players[s].public_key.hex() for s in self.deck.present if s != self.seat}
        good = set()
        try:
            for raw in votes if isinstance(votes, list) else ():
                vote = conform(raw, RemovalVote, link, "removal vote")
                if vote_problem(vote, self.table_id, self.seat, n, head) is None:
                    good.add(vote.by)
        except PeerError:
            return False
        return bool(want) and want <= good

    def _rebuilt(self, n: int) -> Any:
        """A core of this seat with the first ``n`` entries of this record (replayed, every
        proof checked), this seat's key share and what :data:`KEPT` names.

        Raises:
            PeerError: the entries do not replay (never, for a record this core accepted).
        """
        fresh = type(self)(self._me, self.table, self._random,  # type: ignore[call-arg]
                           secret_key=self.deck.secret_key, envelope_seq=self._env_seq,
                           pipeline=self.pipeline)
        for name in KEPT:
            setattr(fresh, name, getattr(self, name))
        fresh._replaying = True
        try:
            for entry in self.record.entries[:n]:
                fresh.record.append(entry, fresh._validator("the local record"))
                fresh._after_append()
        finally:
            fresh._replaying = self._replaying
        fresh._verify_deferred(None)
        fresh._out = []
        return fresh

    def _adopt(self, fresh: Any, n: int) -> None:
        out = self._out
        self.__dict__.update(fresh.__dict__)
        self._out = [*out, Persist("void", {"from": n})]
        if not self._replaying:
            self._out.append(Notice("info", VOIDED, self.seat, code="voided"))

    # Inbound's (declared here for the type checker).

    def _ack(self, entry: Entry) -> None:  # pragma: no cover
        raise NotImplementedError

    def _after_append(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def _replay_void(self, line: dict[str, Any]) -> None:
        """A ``void`` line of the journal: rebuild here as when it was written.

        Raises:
            PeerError: the journal does not replay.
        """
        n = int(line["from"])
        if not 0 < n <= len(self.record):
            raise PeerError(f"the journal's void line names entry {n + 1}, not one of entries 2 "
                            f"to {len(self.record) + 1}")  # counted from 1, as seats
        out = self._out
        self.__dict__.update(self._rebuilt(n).__dict__)
        self._out = out


__all__ = ["KEPT", "VOIDED", "Void"]
