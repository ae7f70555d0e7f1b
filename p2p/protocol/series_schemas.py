"""The shapes of "play again" (:mod:`lancards.p2p.protocol.rematch`) and of a rematch
statement's ``follows`` (:mod:`lancards.p2p.protocol.series`; ``docs/protocol.md`` 6.1)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from lancards.p2p.protocol.schema_types import (
    MAX_INT,
    MAX_SEATS,
    Hex32,
    Object,
    Seq,
    TableId,
    _Strict,
)


class RematchAnswer(_Strict):
    """A signed answer to "play again with the same players?" about a finished game
    (:mod:`lancards.p2p.protocol.series`): ``tbl`` and ``head`` (its record's last entry hash)
    name the game, ``yes`` accepts (``game``: another rule set it agrees to), ``without`` lists
    the players (keys) the signer agrees to go
    on without (those who declined), ``sig`` covers
    :func:`lancards.p2p.protocol.series.answer_bytes`."""

    tbl: TableId
    head: Hex32
    by: Hex32
    yes: bool
    without: Annotated[list[Hex32], Meta(max_length=MAX_SEATS)]
    sig: Annotated[str, Meta(pattern=r"\A[0-9a-f]{128}\Z")]
    game: Annotated[str, Meta(pattern=r"\A[a-z0-9][a-z0-9-]{0,39}\Z")] = ""
    """The rule set a "yes" agrees to when it is another than the game that ended (another
    game with the same players, ``docs/protocol.md`` 6.1); absent (``""``): the same game. An
    explicit empty string or ``null`` is refused."""


class SeriesTotal(_Strict):
    """One player's evening so far: games won and the sum of the games' scores."""

    pk: Hex32
    nick: Annotated[str, Meta(max_length=64)]
    won: Seq
    score: Annotated[int, Meta(ge=-MAX_INT, le=MAX_INT)]


class Follows(_Strict):
    """A rematch statement's ``follows``: the game it follows (``tbl``, ``head``), the series
    (the first game's table id, which orders the seats), this game's number in it, every seat's
    signed answer, the totals through the game it follows; ``game`` 1: the first game of a new
series, another rule set than the game it follows, ``series`` its own table id."""

    tbl: TableId
    head: Hex32
    series: TableId
    game: Annotated[int, Meta(ge=1, le=MAX_INT)]
    accepts: Annotated[list[RematchAnswer], Meta(min_length=2, max_length=MAX_SEATS)]
    totals: Annotated[list[SeriesTotal], Meta(max_length=64)]
    seating: TableId = ""
    """The id whose seat order the seats keep (:func:`~lancards.p2p.protocol.statement.
    seat_order`) when it is not ``series``: the first series of an evening that went on with
    another game (``game`` 1 of a new series)."""


class RematchAnswerMsg(_Strict):
    answer: RematchAnswer


class RematchSign(_Strict):
    statement: Object
    sigs: Annotated[dict[str, str], Meta(max_length=MAX_SEATS)]
