"""Play again with the same players: the agreement that starts the next game of a series, as a
sans-I/O state machine (issue 27; ``docs/protocol.md`` 6.1).

At a game's end every player still at the table answers "play again with the same players?"
with a signed answer (:func:`lancards.p2p.protocol.series.sign_answer`), sent to every other
such player as ``rematch.answer``. A "yes" names the players its signer agrees to go on without
(``without``: those who declined, none at first); a "no" is final. Every player passes each
other player's answer it takes on to the others once, so that a player who says "yes" to some
and "no" to others is seen by all to have said "no" (a statement that seats a player whose "no"
a seat holds is dropped there; the proposer proposes again). Once every player answered
and every "yes" goes on without exactly the players who said "no", and they are enough for the
rule set, the *proposer* (the first of them in the last game's seat order) builds the next
game's start statement: a fresh table id, the same game and options but the first dealer the
rules give (:func:`lancards.p2p.protocol.series.next_dealer`), the players who said "yes" in
the series' seat order, and ``follows`` (the game it follows, the series, every seat's signed
"yes", the totals so far). It signs it and sends ``rematch.sign`` (the statement and the
signatures it holds) to every seat; every seat checks the statement against its own finished
game (:meth:`Rematch.check_statement`), signs it and sends ``rematch.sign`` to every seat in
turn, so every seat sees every signature, and any two different statements. The next game has
started for a seat once it holds every seat's signature (:attr:`Rematch.started`). A "yes" may
name another rule set: the first game of a new series (:mod:`.rematch_game`, the games night).

Refused, naming who: a statement from a peer that is not the proposer; one that names another
game than the one that ended here, or a forged record head (``wrong-table``); another dealer,
game, options, seats or totals than this seat's own finished game gives (``table-rules``); an
answer about another game (an old acceptance replayed: ``wrong-table``) or not signed by its
player (``bad-signature``); a seat put in without its "yes" (``malformed``); two different
statements from the proposer for the same seats (``equivocation``: the agreement fails and
the proposer is named); a signature by a player who declined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.rematch_game import (
    Finished,
    check_choice,
    check_same_choice,
    fitting_games,
    game_range,
    members_of,
    series_totals,
    verifies,
)
from lancards.p2p.protocol.rematch_statement import StatementChecks
from lancards.p2p.protocol.schemas import conform
from lancards.p2p.protocol.series import (
    check_answer,
    sign_answer,
)
from lancards.p2p.protocol.series_schemas import RematchAnswer, RematchAnswerMsg, RematchSign
from lancards.p2p.protocol.statement import (
    START_TAG,
    RulesCheck,
    StartedTable,
    new_table_id,
    registry_rules_check,
    sign_statement,
    statement_hash,
    verify_started,
)
from lancards.p2p.protocol.table import Outgoing
from lancards.p2p.protocol.wire import (
    MESSAGE_TYPES,
    Envelope,
    ReplayGuard,
    canonical,
    decode_envelope,
    sign_envelope,
)

REMATCH_TYPES = ("rematch.answer", "rematch.sign")
"""The message types of the agreement (bodies in :mod:`lancards.p2p.protocol.series_schemas`)."""

_TYPES = {t: MESSAGE_TYPES[t] for t in REMATCH_TYPES}


class Rematch(StatementChecks):
    """One player's "play again?" after ``finished`` (see the module docstring).

    Attributes:
        started: the next game's started table once every seat signed, else ``None``.
        failed: why no next game will start with this seat (the proposer equivocated, too few
            players are left), else ``None``; in English, for logs.
        failed_code: the same as a code and its values, for words in the player's language:
            ``("stopped", {})``, ``("two-statements", {"name": ...})``, ``("too-few", {"yes":
            ..., "least": ..., "game": ...})``; ``None`` while ``failed`` is.
    """

    def __init__(self, me: Identity, finished: Finished, *, seq: int = 0,
                 new_table: Callable[[], str] = new_table_id,
                 rules_check: RulesCheck = registry_rules_check) -> None:
        self.me = me
        self.finished = finished
        self.seq = seq
        self.new_table = new_table
        self.rules_check = rules_check
        self._members = {m.public_key: m for m in finished.table.seats}
        self.present = finished.present or tuple(self._members)
        self.answers: dict[bytes, tuple[RematchAnswer, dict[str, Any]]] = {}
        self.statement: dict[str, Any] | None = None
        self.sigs: dict[str, str] = {}
        self.signed = False
        self.started: StartedTable | None = None
        self.failed: str | None = None
        self.failed_code: tuple[str, dict[str, Any]] | None = None
        self.lines: list[dict[str, Any]] = []
        """Journal lines not yet taken (:meth:`take_lines`): every answer and statement this
        seat signed or took, to make durable before the outputs of the same call are sent."""
        self._restoring = False
        self._guard = ReplayGuard(self.name)
        self._relays: list[dict[str, Any]] = []  # others' answers taken, to pass on once
        self._held: tuple[dict[str, Any], dict[str, str], str] | None = None
        """A statement whose answers name a "no" this seat has not received yet (it waits
        for it, passed on by the others, instead of blaming the proposer)."""

    # -- what the screen shows -----------------------------------------------------------------

    def name(self, key: bytes) -> str:
        member = self._members.get(key)
        return str(member) if member is not None else describe(key)

    def nick(self, key: bytes) -> str:
        member = self._members.get(key)
        return member.nick if member is not None else describe(key)

    def declined(self) -> tuple[bytes, ...]:
        """The players who said "no", in the last game's seat order."""
        return tuple(k for k in self.present if k in self.answers and not self.answers[k][0].yes)

    def undecided(self) -> tuple[bytes, ...]:
        """The players whose answer is still to come, or who said "yes" but not yet to going on
        without every player who said "no"."""
        gone = sorted(k.hex() for k in self.declined())
        return tuple(k for k in self.present if k not in self.answers
                     or (self.answers[k][0].yes and self.answers[k][0].without != gone))

    def possible(self) -> bool:
        """Whether this seat is still at the table with enough players for a next game: the
        same one, or another whose range of players holds them (:func:`fitting_games`)."""
        return self.me.public_key in self.present and bool(self.games())

    def games(self) -> tuple[str, ...]:
        """The games the players still at the table may play next (:func:`fitting_games`)."""
        return fitting_games(self.finished, len(self.present), self.rules_check)

    def my_answer(self) -> RematchAnswer | None:
        got = self.answers.get(self.me.public_key)
        return None if got is None else got[0]

    # -- local actions -------------------------------------------------------------------------

    def answer(self, yes: bool, game: str | None = None) -> list[Outgoing]:
        """This player's answer: ``yes`` plays again, going on without every player who said
        "no" so far; ``no`` stops (final). ``game``: another rule set this "yes" agrees to
        (another game with the same players); ``None`` keeps this seat's earlier choice, else
        the same game. A choice is final.

        Raises:
            LocalProtocolError: this seat is not at the table any more, it signed a statement
                already, it said "no" before, it chose another game before, or the rules
                refuse ``game`` for the players at the table.
        """
        if self.me.public_key not in self.present:
            raise LocalProtocolError("this seat is not at the table any more")
        if self.signed:
            raise LocalProtocolError("this seat has signed the next game's start already")
        mine = self.my_answer()
        if mine is not None and not mine.yes:
            raise LocalProtocolError("this seat said no")
        chosen = "" if game is None or game == self.finished.table.spec.game else game
        if mine is not None and game is None:
            chosen = mine.game
        if mine is not None and chosen != mine.game:
            raise LocalProtocolError("this seat chose its game already")
        raw = sign_answer(self.me, self.table_id, self.finished.head, yes,
                          self.declined() if yes else (), chosen if yes else "")
        ans = check_answer(raw, "self", self.name)
        try:
            check_choice(ans, self.finished, len(self.present), self.rules_check, "self",
                         "self")
        except TableError as exc:
            raise LocalProtocolError(str(exc)) from None
        self.answers[self.me.public_key] = (ans, raw)
        self.lines.append({"answer": dict(raw)})
        out = [self._out(self._others(self.present), "rematch.answer", {"answer": raw})]
        if not yes:
            self.failed = "you stopped"
            self.failed_code = ("stopped", {})
        return out + self._progress()

    # -- receiving -----------------------------------------------------------------------------

    def receive_bytes(self, sender: bytes, data: bytes) -> list[Outgoing]:
        """Decode and handle one message from the authenticated link of ``sender``.

        Raises:
            RemoteProtocolError: the envelope is refused (``malformed``, ``bad-signature``,
                ``replayed``, ``unknown-type``...), or as :meth:`receive`.
        """
        env = decode_envelope(data, self.name(sender), expected_sender=sender, types=_TYPES)
        self._guard.accept(env)
        return self.receive(env)

    def receive(self, env: Envelope) -> list[Outgoing]:
        """Handle one verified ``rematch.*`` envelope (after ``decode_envelope`` and a replay
        guard).

        Raises:
            TableError: the message is refused (see the module docstring), naming who; the
                agreement is unchanged, except that an equivocation fails it.
        """
        who = self.name(env.sender)
        if env.sender not in self.present:
            raise TableError(who, Reason.NOT_SEATED, "is not at the table that ended"
                             ).with_code("not-at-ended-table")
        if env.table != self.table_id:
            raise TableError(who, Reason.WRONG_TABLE, f"message about table {env.table}"
                             ).with_code("other-table", table=env.table)
        if env.type == "rematch.answer":
            conform(env.body, RematchAnswerMsg, who, "rematch.answer", error=TableError)
            self._take_answer(env.body["answer"], who, env.sender)
            return self._pass_on() + self._take_held() + self._progress()
        if env.type == "rematch.sign":
            body = conform(env.body, RematchSign, who, "rematch.sign", error=TableError)
            out = self._take_statement(body.statement, body.sigs, who)
            return sorted(self._pass_on() + out, key=lambda o: o.envelope.seq)  # as numbered
        raise TableError(who, Reason.UNKNOWN_TYPE, f"{env.type!r} is no rematch message"
                         ).with_code("not-rematch", type=env.type)

    def _take_answer(self, raw: Any, who: str, sender: bytes | None) -> RematchAnswer:
        ans = check_answer(raw, who, self.name)
        key = bytes.fromhex(ans.by)
        if (ans.tbl, ans.head) != (self.table_id, self.finished.head):
            raise TableError(who, Reason.WRONG_TABLE,
                             f"the answer of {self.name(key)} is about table {ans.tbl} (entry "
                             f"{ans.head[:12]}), not the game that ended here").with_code(
                                 "answer-other-game", name=self.name(key), table=ans.tbl,
                                 head=ans.head[:12])
        if key not in self.present:
            raise TableError(who, Reason.NOT_SEATED,
                             f"an answer of {self.name(key)}, not at the table that ended"
                             ).with_code("answer-not-seated", name=self.name(key))
        check_choice(ans, self.finished, len(self.present), self.rules_check, who,
                     self.name(key))
        old = self.answers.get(key)
        if old is not None and not old[0].yes:
            return old[0]  # a "no" is final
        if old is not None:
            try:
                check_same_choice(old[0], ans, who, self.name(key),
                                  self.finished.table.spec.game)
            except TableError:
                self.failed = f"{self.name(key)} chose two different games"
                self.failed_code = ("two-games", {"name": self.name(key)})
                raise
        if old is None or not ans.yes or set(old[0].without) <= set(ans.without):
            if old is None or old[1] != raw:
                self.lines.append({"answer": dict(raw)})
                if key != self.me.public_key and not self._restoring:
                    self._relays.append(dict(raw))
            self.answers[key] = (ans, dict(raw))
        return ans

    def _take_statement(self, statement: dict[str, Any], sigs: dict[str, str],
                        who: str) -> list[Outgoing]:
        if self.failed is not None or self.started is not None:
            return []
        host = statement.get("host")
        proposer = bytes.fromhex(host) if isinstance(host, str) and len(host) == 64 else b""
        message = START_TAG + canonical(statement)
        good = {k: s for k, s in sigs.items() if verifies(k, s, message)}
        if set(good) != set(sigs):
            bad = next(k for k in sigs if k not in good)
            raise TableError(who, Reason.BAD_SIGNATURE,
                             f"the start signature of {self.name(bytes.fromhex(bad))} is bad"
                             ).with_code("start-signature-of", name=self.name(bytes.fromhex(bad)))
        if proposer.hex() not in good:
            raise TableError(who, Reason.UNSIGNED, "the statement lacks its proposer's signature"
                             ).with_code("proposer-unsigned")
        self._check_follows(statement, who)
        if self._stale(statement):
            return []  # it seats a player who said "no": a successor comes (6.1, "Answers")
        if self.statement is None and self._unheard(statement):
            self._held = (statement, sigs, who)
            return []
        other = self.statement is None or statement_hash(statement) != statement_hash(
            self.statement)
        if other and proposer != self.proposer():  # before two statements: a player who is
            raise TableError(who, Reason.TABLE_RULES,  # not the proposer cannot stop the game
                             f"the statement is proposed by {self.name(proposer)}, not by "
                             f"{self.name(self.proposer() or b'')}").with_code(
                                 "wrong-proposer", name=self.name(proposer),
                                 expected=self.name(self.proposer() or b""))
        if self.statement is not None and other:
            if self._successor(statement):
                self.statement, self.sigs, self.signed = None, {}, False
            else:
                self.failed = (f"{self.name(proposer)} offered two different statements for the "
                               "next game")
                self.failed_code = ("two-statements", {"name": self.name(proposer)})
                raise TableError(self.name(proposer), Reason.EQUIVOCATION,
                                 f"offered two different statements for the next game (tables "
                                 f"{self.statement['tbl']} and {statement.get('tbl')})"
                                 ).with_code("two-statements", first=self.statement["tbl"],
                                             second=statement.get("tbl"))
        if self.statement is None:
            self.check_statement(statement, who)
            self.statement = statement
        for key in good:
            k = bytes.fromhex(key)
            if k in self.answers and not self.answers[k][0].yes:
                raise TableError(self.name(k), Reason.TABLE_RULES, "declined and signed"
                                 ).with_code("declined-and-signed")
        seated = {m["pk"] for m in statement["seats"]}
        new = {k: s for k, s in good.items() if k in seated and self.sigs.get(k) != s}
        self.sigs.update(new)
        if new:
            self._note_statement()
        return self._progress()

    def _successor(self, statement: dict[str, Any]) -> bool:
        """Whether ``statement`` legitimately replaces the one held: fewer seats, the seats
        dropped being players whose "no" this seat holds or whom every new seat's signed answer
        goes on without."""
        assert self.statement is not None
        old = {m["pk"] for m in self.statement["seats"]}
        new = {m.get("pk") for m in statement.get("seats", []) if isinstance(m, dict)}
        if not new < old:
            return False
        answers = statement.get("follows", {}).get("accepts", [])
        dropped = old - new
        return all(isinstance(a, dict) and dropped <= set(a.get("without", []))
                   for a in answers)

    # -- progress ------------------------------------------------------------------------------

    def _progress(self) -> list[Outgoing]:
        """Propose (the proposer), sign (a seat whose answer is "yes") and start once every
        signature is in."""
        if self.failed is not None or self.started is not None or self._restoring:
            return []
        if self.statement is not None and self._stale(self.statement):
            self.statement, self.sigs, self.signed = None, {}, False  # a "no" came after it
        out: list[Outgoing] = []
        me = self.me.public_key
        mine = self.my_answer()
        if mine is None or not mine.yes:
            return out
        if not self.undecided():
            yes = [k for k in self.present if self.answers[k][0].yes]
            try:
                game = self.agreed(yes)
            except LocalProtocolError as exc:
                self.failed = str(exc)
                self.failed_code = ("games-differ", {"pairs": exc.params["pairs"]})
                return out
            if game == self.finished.table.spec.game:
                try:
                    _, lo, _ = self.rules_check(game, {
                        k: v for k, v in self.finished.table.spec.options.items()
                        if k != "dealer"})
                except Exception:  # the options were good for the last game
                    lo = 2
            else:
                lo = game_range(game, self.rules_check)[0] or 2
            if len(yes) < lo:
                self.failed = (f"too few players to go on: {len(yes)} of the at least {lo} "
                               f"{game} needs")
                self.failed_code = ("too-few", {"yes": len(yes), "least": lo, "game": game})
                return out
        if self.statement is None and self.proposer() == me and not self.undecided():
            self.statement = self.expected(self.new_table())
        if self.statement is None or self.signed:
            return self._maybe_started(out)
        seats = [bytes.fromhex(m["pk"]) for m in self.statement["seats"]]
        if me not in seats:
            return out
        self.signed = True
        self.sigs[me.hex()] = sign_statement(self.me, self.statement).hex()
        self._note_statement()
        body = {"statement": self.statement, "sigs": dict(self.sigs)}
        out.append(self._out(self._others(seats), "rematch.sign", body))
        return self._maybe_started(out)

    def _maybe_started(self, out: list[Outgoing]) -> list[Outgoing]:
        if self.statement is None:
            return out
        seats = [m["pk"] for m in self.statement["seats"]]
        if all(k in self.sigs for k in seats) and self.signed:
            self.started = verify_started(self.statement, self.sigs, "rematch")
        return out

    # -- the journal (docs/protocol.md 6.1, "Journal") ------------------------------------------

    def take_lines(self) -> list[dict[str, Any]]:
        """The journal lines of this agreement not taken yet, oldest first, each
        ``{"answer": A}`` (a signed answer this seat made or took) or ``{"statement": S,
        "sigs": {key hex: signature hex}}`` (the statement held and every signature of it held,
        this seat's own once it signed). The adapter makes them durable before it sends the
        outputs of the call that made them, so a restarted seat never sends anything that
        contradicts what it sent before (one answer, one signature, one statement)."""
        out, self.lines = self.lines, []
        return out

    def restore(self, lines: Sequence[Any]) -> list[Outgoing]:
        """Replay the journal lines of :meth:`take_lines` (a seat restarted inside the
        agreement), checking each again as if received, then carry on: the outputs are what
        this seat decided after its last durable line (the proposer's statement, its signature
        of a statement it took), never a repeat of a line's decision; a repeat of what it sent
        before goes by :meth:`again_to`.

        Raises:
            TableError: a line does not verify (a corrupt journal), naming "the journal".
        """
        self._restoring = True
        try:
            for line in lines:
                if not isinstance(line, dict):
                    raise TableError("the journal", Reason.MALFORMED, "a rematch line"
                                     ).with_code("rematch-line")
                if "answer" in line:
                    self._take_answer(line["answer"], "the journal", None)
                elif "statement" in line:
                    body = conform(line, RematchSign, "the journal", "rematch line",
                                   error=TableError)
                    self._take_statement(body.statement, body.sigs, "the journal")
        finally:
            self._restoring = False
        self.lines = []
        mine = self.my_answer()
        if mine is not None and not mine.yes:
            self.failed = "you stopped"
            self.failed_code = ("stopped", {})
        self.signed = self.statement is not None and self.me.public_key.hex() in self.sigs
        return self._progress() + self._maybe_started([])

    def again_to(self, peer: bytes) -> list[Outgoing]:
        """What this seat sends ``peer`` when a link to it comes (back) up: its answer and,
        once signed, the statement with the signatures it holds (receivers take a repeat as
        the same; the envelopes are new, numbered on)."""
        mine = self.answers.get(self.me.public_key)
        outs: list[Outgoing] = []
        if mine is not None and peer in self.present:
            outs.append(self._out((peer,), "rematch.answer", {"answer": mine[1]}))
        if self.signed and self.statement is not None:
            outs.append(self._out((peer,), "rematch.sign",
                                  {"statement": self.statement, "sigs": dict(self.sigs)}))
        return outs

    def take_started(self, table: StartedTable, who: str) -> None:
        """The next game's started table as a seat of it told (``table.told``, after
        :func:`lancards.p2p.protocol.start_fetch.check_told`): a restarted seat whose
        signature reached every seat before it died, which started without it.

        Raises:
            TableError: ``table-rules``, naming ``who``: another statement than the one this
                seat signed (or none signed).
        """
        if not self.signed or self.statement is None or (
                statement_hash(table.statement) != statement_hash(self.statement)):
            raise TableError(who, Reason.TABLE_RULES,
                             "tells the start of another statement than the one this seat "
                             "signed").with_code("told-other-statement")
        self.sigs.update(table.sigs)
        self._note_statement()
        self.started = table

    def _note_statement(self) -> None:
        if not self._restoring and self.statement is not None:
            self.lines.append({"statement": self.statement, "sigs": dict(self.sigs)})

    # -- answers passed on (docs/protocol.md 6.1, "Answers") --------------------------------

    def _pass_on(self) -> list[Outgoing]:
        """Every other player's answer taken since the last call, to the players at the table
        but its signer: a player who says "yes" to some and "no" to others is then seen by all
        to have said "no" (the LAN trial of 2026-12-08: the agreement hung)."""
        relays, self._relays = self._relays, []
        if self.failed is not None or self.started is not None:
            return []
        return [self._out(tuple(k for k in self._others(self.present) if k.hex() != raw["by"]),
                          "rematch.answer", {"answer": raw}) for raw in relays]

    def _stale(self, statement: dict[str, Any]) -> bool:
        """Whether ``statement`` seats a player whose "no" this seat holds."""
        declined = {k.hex() for k in self.declined()}
        seats = statement.get("seats")
        return isinstance(seats, list) and any(
            isinstance(m, dict) and m.get("pk") in declined for m in seats)

    def _unheard(self, statement: dict[str, Any]) -> bool:
        """Whether an answer in ``statement`` goes on without a player whose "no" this seat
        has not received yet (it is on its way: every player passes each answer on)."""
        follows = statement.get("follows")
        accepts = follows.get("accepts") if isinstance(follows, dict) else None
        declined = {k.hex() for k in self.declined()}
        return isinstance(accepts, list) and any(
            isinstance(a, dict) and isinstance(a.get("without"), list)
            and not set(map(str, a["without"])) <= declined for a in accepts)

    def _take_held(self) -> list[Outgoing]:
        """The statement held for a "no" not received yet, once it is."""
        if self._held is None or self._unheard(self._held[0]):
            return []
        held, self._held = self._held, None
        return self._take_statement(*held)

    # -- helpers -------------------------------------------------------------------------------

    def _others(self, keys: Sequence[bytes]) -> tuple[bytes, ...]:
        return tuple(k for k in keys if k != self.me.public_key)

    def _out(self, to: tuple[bytes, ...], type: str, body: dict[str, Any]) -> Outgoing:
        env = sign_envelope(self.me, type, self.table_id, self.seq, body)
        self.seq += 1
        return Outgoing(to, env)


__all__ = ["REMATCH_TYPES", "Finished", "Rematch", "members_of", "series_totals"]
