"""The evening line sums two games or more (the new-user trial read ``evening so far: You: 0
wins, 0 points`` under the result of the only game of the evening): none after a first game,
none under game 2's first line (the evening before it is one game), the exact line from the
second game's end on."""

from __future__ import annotations

import dataclasses
import hashlib

from lancards.cli.i18n import NO_BREAK
from lancards.cli.play_again import evening_of, series_words
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.rematch import Finished
from lancards.p2p.protocol.table import start_local

HEAD = hashlib.sha256(b"the last entry").hexdigest()


def _game(number: int, totals: list[dict[str, object]]) -> Finished:
    """Game ``number`` of an evening of Ann, Ben and Cyd (seated by the table id), won by seat
    1 with the totals 40 / 20 / 60 by seat; ``totals``: the evening's before it."""
    people = [Identity(bytes([i + 1]) * 32, nick) for i, nick in enumerate(("Ann", "Ben", "Cyd"))]
    started = start_local(people, "eights", {}, table=f"{number:016x}")
    if number > 1:
        follows = {"game": number, "series": "0" * 16, "tbl": "1" * 16, "head": HEAD,
                   "totals": totals}
        started = dataclasses.replace(started, statement={**started.statement,
                                                          "follows": follows})
    return Finished(started, HEAD, (1,), (40, 20, 60), 0)


def test_no_evening_line_after_one_game() -> None:
    first = _game(1, [])
    assert first.number == 1
    assert evening_of(first, "eights") is None
    assert evening_of(None, "eights") is None


def test_the_evening_line_from_the_second_game_on() -> None:
    first = _game(1, [])
    second = _game(2, first.totals())
    me = second.table.seats[0].public_key  # Ben
    # game 1: Cyd 40, Ben 20 and the win, Ann 60; game 2: Ben 40, Ann 20 and the win, Cyd 60
    assert [m.nick for m in first.table.seats] == ["Cyd", "Ben", "Ann"]
    assert [m.nick for m in second.table.seats] == ["Ben", "Ann", "Cyd"]
    evening = evening_of(second, "eights", me.hex())
    assert evening is not None and evening.replace(NO_BREAK, " ") == (
        "evening so far: Cyd: 0 wins, 100 points · You: 1 win, 60 points · Ann: 1 win, "
        "80 points")
    assert str(evening_of(second, "level8", me.hex())).replace(NO_BREAK, " ") == (
        "evening so far: Cyd: 0 wins · You: 1 win · Ann: 1 win")
    # game 2's first lines: who deals, no evening of one game under it; game 3's have it
    assert len(series_words(second.table, "eights", me)) == 1
    third = _game(3, second.totals())
    lines = series_words(third.table, "eights", me)
    assert len(lines) == 2 and lines[1] == evening_of(second, "eights", me.hex())
