"""The next game's start statement of a play-again agreement: the one a seat would build from
its own finished game and the answers it holds, and the checks of one proposed to it
(``docs/protocol.md`` 6.1, "The statement"; the state machine is
:class:`lancards.p2p.protocol.rematch.Rematch`, which this base class serves).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import PublicIdentity
from lancards.p2p.protocol.rematch_game import Finished, agreed_game, choices
from lancards.p2p.protocol.series import dealer_option, next_dealer
from lancards.p2p.protocol.series_schemas import RematchAnswer
from lancards.p2p.protocol.statement import (
    RulesCheck,
    StartedTable,
    TableSpec,
    seat_order,
    start_statement,
)


class StatementChecks:
    """The statement part of :class:`~lancards.p2p.protocol.rematch.Rematch`: what it builds
    and checks, from the state the agreement keeps (declared here, set by ``Rematch``)."""

    finished: Finished
    present: tuple[bytes, ...]
    answers: dict[bytes, tuple[RematchAnswer, dict[str, Any]]]
    rules_check: RulesCheck
    _members: dict[bytes, PublicIdentity]

    @property
    def table_id(self) -> str:
        """The finished game's table id (the envelopes' ``tbl``)."""
        return self.finished.table.spec.table

    def nick(self, key: bytes) -> str:  # pragma: no cover - Rematch's
        raise NotImplementedError

    def undecided(self) -> tuple[bytes, ...]:  # pragma: no cover - Rematch's
        raise NotImplementedError

    def _take_answer(self, raw: Any, who: str, sender: bytes | None) -> RematchAnswer:
        raise NotImplementedError  # pragma: no cover - Rematch's

    # -- the statement -------------------------------------------------------------------------

    def proposer(self) -> bytes | None:
        """The player who builds the statement: the first, in the last game's seat order, of
        those who said "yes"."""
        yes = [k for k in self.present if k in self.answers and self.answers[k][0].yes]
        return yes[0] if yes else None

    def expected(self, table: str) -> dict[str, Any]:
        """The statement this seat would sign for the next game with table id ``table``, from
        its own finished game and the answers it holds.

        Raises:
            LocalProtocolError: the answers do not make a table yet (someone undecided, too
                few players, options the smaller table cannot take).
        """
        if self.undecided():
            names = ", ".join(self.nick(k) for k in self.undecided())
            raise LocalProtocolError(f"waiting for {names} to answer").with_code(
                "premature-waiting", names=names)
        keys = [k for k in self.present if self.answers[k][0].yes]
        old = self.finished.table
        game = self.agreed(keys)
        other = game != old.spec.game  # another game: the first of a new series
        option = dealer_option(old.spec.options)
        options = {} if other else {k: v for k, v in old.spec.options.items() if k != "dealer"}
        try:
            values, lo, hi = self.rules_check(game, options)
        except Exception as exc:
            raise LocalProtocolError(f"the rules refuse the next game: {exc}").with_code(
                "premature-rules", error=exc) from None
        if not lo <= len(keys) <= hi:
            raise LocalProtocolError(f"{len(keys)} players cannot play {game}"
                                     ).with_code("premature-few", players=len(keys), game=game)
        seats = seat_order(self.finished.seating, [self._members[k] for k in keys])
        new_keys = [m.public_key for m in seats]
        if not other:
            values[option] = next_dealer(option == "first_dealer",
                                         [m.public_key for m in old.seats],
                                         self.finished.first_dealer, self.finished.winners,
                                         new_keys)
        try:
            values, lo, hi = self.rules_check(game, values)
        except Exception as exc:
            raise LocalProtocolError(f"the rules refuse the next game: {exc}").with_code(
                "premature-rules", error=exc) from None
        proposer = self.proposer()
        assert proposer is not None
        spec = TableSpec(table, game, values, proposer, lo, min(hi, 6))
        accepts = [self.answers[k][1] for k in new_keys]
        follows: dict[str, Any] = {
            "tbl": old.spec.table, "head": self.finished.head, "accepts": accepts,
            "series": table if other else self.finished.series,
            "game": 1 if other else self.finished.number + 1,
            "totals": [] if other else self.finished.totals()}
        if self.finished.seating != follows["series"]:
            follows["seating"] = self.finished.seating
        return start_statement(spec, seats, follows)

    def agreed(self, keys: Sequence[bytes]) -> str:
        """The rule set every "yes" of ``keys`` chose (the game that ended when none named
        another).

        Raises:
            LocalProtocolError: ``premature-games``: they chose different games.
        """
        ended = self.finished.table.spec.game
        return agreed_game(choices({k: self.answers[k][0] for k in keys}, list(keys), ended),
                           self.nick)

    def check_statement(self, statement: Any, who: str) -> StartedTable | None:
        """Check a proposed statement against this seat's own view: every field but the table
        id is the one :meth:`expected` gives (the seats' answers may be newer ones than this
        seat holds: each is checked and taken first).

        Returns:
            ``None`` (the statement is well formed; its signatures are checked elsewhere).

        Raises:
            TableError: as the module docstring says, naming ``who`` (the deliverer) or the
                proposer.
        """
        self._check_follows(statement, who)
        try:
            expected = self.expected(str(statement.get("tbl", "")))
        except LocalProtocolError as exc:
            raise TableError(who, Reason.TABLE_RULES, f"the statement is premature: {exc}"
                             ).with_code(exc.code, **exc.params) from None  # premature-...
        if statement.get("game") != expected["game"]:
            raise TableError(who, Reason.TABLE_RULES,
                             f"the statement plays {str(statement.get('game'))[:40]}, but the "
                             f"answers chose {expected['game']}").with_code(
                                 "statement-other-game", game=str(statement.get("game"))[:40],
                                 chose=expected["game"])
        if statement != expected:
            diff = sorted(k for k in set(expected) | set(statement)
                          if statement.get(k) != expected.get(k))
            raise TableError(who, Reason.TABLE_RULES,
                             f"the statement differs from this player's view in {diff}"
                             ).with_code("statement-differs-in", fields=", ".join(diff))
        return None

    def _check_follows(self, statement: Any, who: str) -> None:
        """The statement follows the game that ended here and every answer in it verifies and
        is about that game (each is taken, as if received).

        Raises:
            TableError: ``malformed``, ``wrong-table``, ``bad-signature``, naming ``who``.
        """
        if not isinstance(statement, dict) or not isinstance(statement.get("follows"), dict):
            raise TableError(who, Reason.MALFORMED, "a rematch statement without 'follows'"
                             ).with_code("no-follows")
        follows = statement["follows"]
        if (follows.get("tbl"), follows.get("head")) != (self.table_id, self.finished.head):
            raise TableError(who, Reason.WRONG_TABLE,
                             f"the statement follows table {follows.get('tbl')} (entry "
                             f"{str(follows.get('head'))[:12]}), not the game that ended here "
                             f"({self.table_id}, entry {self.finished.head[:12]})").with_code(
                                 "follows-other-game", table=follows.get("tbl"),
                                 head=str(follows.get("head"))[:12], here=self.table_id,
                                 here_head=self.finished.head[:12])
        for raw in follows.get("accepts", []) if isinstance(follows.get("accepts"), list) else []:
            self._take_answer(raw, who, None)
