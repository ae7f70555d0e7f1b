"""A series of games among the same players: the signed answers to "play again?", the
``follows`` of a rematch's start statement, the next game's dealer and the series totals.

A game that follows another (a *rematch*, :mod:`lancards.p2p.protocol.rematch`) has a start
statement like any other table plus ``follows`` (``docs/protocol.md`` 6.1; shape
:class:`lancards.p2p.protocol.series_schemas.Follows`): the table id and final record entry
hash of the game it follows, the series id (the first game's table id: it orders the seats of
every game of the series, so the players keep their places round the table), this game's number
in the series, every seat's signed "yes", and the totals of the series through the game it
follows. Every seat signs the statement, so each of these is agreed by all; a verifier of the
record alone (``lancards audit``) checks every answer's signature.

The dealer of the next game (issue 27): 8s Rule! "the winner of the game deals Round 1 in the
next game" (ruling E-2; the option ``first_dealer``); Level 8: the player left of the last
game's first dealer (ruling L8-17, ``docs/rules-level8.md``; the table option ``dealer``,
which the protocol core uses in place of the joint random draw of ruling L8-2). A dealer who
is not at the next table passes the deal on to the next player left of them who is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from lancards.p2p.protocol.errors import LocalProtocolError, Reason, TableError
from lancards.p2p.protocol.identity import Identity, describe, verify_signature
from lancards.p2p.protocol.schemas import conform
from lancards.p2p.protocol.series_schemas import Follows, RematchAnswer
from lancards.p2p.protocol.wire import canonical

ANSWER_TAG: Final = b"lancards/v1/rematch\x00"
"""Domain tag of a signed answer to "play again?"."""


def answer_bytes(tbl: str, head: str, by: str, yes: bool, without: Sequence[str],
                 game: str = "") -> bytes:
    """What an answer's ``sig`` signs: the tag and the canonical ``{"by", "head", "tbl",
    "without", "yes"}``, with ``"game"`` when it names another game (an answer without one
    signs exactly what it signed before the games night)."""
    body: dict[str, Any] = {"tbl": tbl, "head": head, "by": by, "yes": yes,
                            "without": sorted(without)}
    if game:
        body["game"] = game
    return ANSWER_TAG + canonical(body)


def sign_answer(me: Identity, tbl: str, head: str, yes: bool,
                without: Sequence[bytes] = (), game: str = "") -> dict[str, Any]:
    """This player's signed answer about the finished game ``tbl`` whose record ends in
    ``head``: ``yes`` plays again (without the players ``without``, who declined; ``game``:
    another rule set, ``""`` the same game)."""
    by = me.public_key.hex()
    names = sorted(k.hex() for k in without)
    sig = me.sign(answer_bytes(tbl, head, by, yes, names, game)).hex()
    out: dict[str, Any] = {"tbl": tbl, "head": head, "by": by, "yes": yes, "without": names,
                           "sig": sig}
    if game:
        out["game"] = game
    return out


def check_answer(answer: Any, link: str,
                 name: Callable[[bytes], str] = describe) -> RematchAnswer:
    """Parse an answer and check its signature (``name`` names its signer in errors).

    Raises:
        TableError: ``malformed`` (its shape), ``bad-signature`` naming the signer.
    """
    ans: RematchAnswer = conform(answer, RematchAnswer, link, "rematch answer", error=TableError)
    if sorted(ans.without) != ans.without or len(set(ans.without)) != len(ans.without):
        raise TableError(link, Reason.MALFORMED, "rematch answer lists 'without' out of order"
                         ).with_code("without-order")
    if ans.game and not ans.yes:
        raise TableError(link, Reason.MALFORMED,
                         f"the answer of {name(bytes.fromhex(ans.by))} says no and names a game"
                         ).with_code("no-names-game", name=name(bytes.fromhex(ans.by)))
    if not verify_signature(bytes.fromhex(ans.by), bytes.fromhex(ans.sig),
                            answer_bytes(ans.tbl, ans.head, ans.by, ans.yes, ans.without,
                                         ans.game)):
        raise TableError(link, Reason.BAD_SIGNATURE,
                         f"the answer of {name(bytes.fromhex(ans.by))} is not its signature"
                         ).with_code("answer-signature", name=name(bytes.fromhex(ans.by)))
    return ans


def check_follows(follows: Any, seats: Sequence[bytes], table: str, link: str,
                  names: Mapping[bytes, str] | None = None, game: str = "") -> Follows:
    """Check a statement's ``follows`` on its own (what ``lancards audit`` can check without
    the game it follows): its shape, a fresh table id, and exactly one signed "yes" of every
    seat about the game it names, in seat order, each leaving out only players not seated.
    ``game`` (the statement's rule set): a first game of a new series (``follows.game`` 1,
    another game with the same players) has ``series`` = ``table``, no totals, and every
    answer naming ``game``; a later game (2, 3...) has no answer naming a game.

    Raises:
        TableError: ``malformed`` (shape, order, an answer of someone not seated, a seat
            without one, a "no", a game named against the rule above, ``seating`` equal to
            ``series``), ``bad-signature``, ``wrong-table`` (an answer about another game, or
            the table id of the game followed reused), each naming the seat.
    """
    got: Follows = conform(follows, Follows, link, "follows", error=TableError)
    first = got.game == 1
    if table == got.tbl or (table == got.series and not first):
        raise TableError(link, Reason.WRONG_TABLE,
                         f"the rematch reuses the table id {table} of a game of its series"
                         ).with_code("reused-table-id", table=table)
    if first and table != got.series:
        raise TableError(link, Reason.WRONG_TABLE,
                         f"game 1 of series {got.series} is table {table}, not its first game"
                         ).with_code("new-series-id", table=table, series=got.series)
    if got.seating == got.series or (first and got.totals):
        raise TableError(link, Reason.MALFORMED,
                         "a new series with totals, or seated by its own series id"
                         ).with_code("new-series-shape")
    def name(key: bytes) -> str:
        return (names or {}).get(key) or describe(key)

    keys = [k.hex() for k in seats]
    if [a.by for a in got.accepts] != keys:
        raise TableError(link, Reason.MALFORMED,
                         "the rematch's answers are not one per seat, in seat order"
                         ).with_code("answers-per-seat")
    for raw, ans in zip(follows["accepts"], got.accepts, strict=True):
        who = name(bytes.fromhex(ans.by))
        check_answer(raw, link, name)
        if (ans.tbl, ans.head) != (got.tbl, got.head):
            raise TableError(link, Reason.WRONG_TABLE,
                             f"the answer of {who} is about table {ans.tbl}, entry {ans.head[:12]}"
                             f", not the game this one follows ({got.tbl}, {got.head[:12]})"
                             ).with_code("answer-other-follows", name=who, table=ans.tbl,
                                         head=ans.head[:12], follows=got.tbl,
                                         follows_head=got.head[:12])
        if not ans.yes:
            raise TableError(link, Reason.MALFORMED, f"{who} declined; it cannot be seated"
                             ).with_code("declined-seated", name=who)
        if first and not ans.game:  # a "yes" to the same game, in another game's first
            raise TableError(link, Reason.MALFORMED,
                             f"the answer of {who} chose the same game again, not the new "
                             f"series' game ({game})").with_code(
                                 "answer-same-game-follows", name=who, game=game)
        if ans.game != (game if first else ""):
            raise TableError(link, Reason.MALFORMED,
                             f"the answer of {who} chose {ans.game or 'the same game'}, not "
                             f"game {got.game} of this series ({game})").with_code(
                                 "answer-game-follows", name=who, chose=ans.game or "-",
                                 number=got.game)
        if set(ans.without) & set(keys):
            raise TableError(link, Reason.MALFORMED,
                             f"{who} agreed to play without a player who is seated"
                             ).with_code("without-seated", name=who)
    if len({t.pk for t in got.totals}) != len(got.totals):
        raise TableError(link, Reason.MALFORMED, "the series totals repeat a player"
                         ).with_code("totals-repeat")
    return got


def add_game(totals: Sequence[Mapping[str, Any]], seats: Sequence[tuple[bytes, str]],
             winners: Sequence[int], scores: Sequence[int]) -> list[dict[str, Any]]:
    """The series totals after one more game: ``totals`` (earlier games, each ``{"pk",
    "nick", "won", "score"}``), plus the game's ``seats`` (key, nick) in seat order, its
    winning seats and its scores. Players keep their first place in the list; newcomers
    follow in seat order."""
    out = [dict(t) for t in totals]
    at = {t["pk"]: t for t in out}
    for seat, (key, nick) in enumerate(seats):
        entry = at.get(key.hex())
        if entry is None:
            entry = {"pk": key.hex(), "nick": nick, "won": 0, "score": 0}
            out.append(entry)
            at[key.hex()] = entry
        entry["nick"] = nick
        entry["won"] = int(entry["won"]) + (1 if seat in winners else 0)
        entry["score"] = int(entry["score"]) + int(scores[seat])
    return out


def next_dealer(uses_first_dealer: bool, old_seats: Sequence[bytes], first_dealer: int | None,
                winners: Sequence[int], new_seats: Sequence[bytes]) -> int:
    """The seat (of ``new_seats``) that deals first in the next game.

    Args:
        uses_first_dealer: 8s Rule! (the rule set has the option ``first_dealer``): the winner
            deals (ruling E-2; after a shared or team win ``-1``: the next game cuts, as
            ``outcome.detail["next_dealer"]`` says);
            otherwise Level 8: the player left of the last game's first dealer (L8-17).
        old_seats: the last game's seats in seat order.
        first_dealer: the last game's first dealer (Level 8).
        winners: the last game's winning seats.
        new_seats: the next game's seats in seat order (a sub-list of the series' order).

    Returns:
        A seat of ``new_seats``, or ``-1`` (8s Rule! after a shared win: the high cut).

    Raises:
        LocalProtocolError: the game's dealer is unknown (a Level 8 game ended before its
            first dealer was drawn) or no old seat is seated again.
    """
    if uses_first_dealer:
        if len(winners) != 1:
            return -1  # a shared or team win: the next game cuts (docs/rules-eights.md, E-2)
        start = winners[0]
    else:
        if first_dealer is None:
            raise LocalProtocolError("the last game's first dealer is unknown")
        start = first_dealer + 1
    n = len(old_seats)
    for step in range(n):
        key = old_seats[(start + step) % n]
        if key in new_seats:
            return list(new_seats).index(key)
    raise LocalProtocolError("no player of the last game is at the next table")


def dealer_option(options: Mapping[str, Any]) -> str:
    """The option that names the first dealer of a game: ``first_dealer`` where the rules
    have it (8s Rule!, ruling E-2), else the table option ``dealer`` (Level 8, L8-17)."""
    return "first_dealer" if "first_dealer" in options else "dealer"


__all__ = [
    "ANSWER_TAG",
    "add_game",
    "answer_bytes",
    "check_answer",
    "check_follows",
    "dealer_option",
    "next_dealer",
    "sign_answer",
]
