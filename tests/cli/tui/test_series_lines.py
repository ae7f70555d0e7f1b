"""A rematch's lines at the top of the table (``extra["series"]``: which game of the evening,
who deals round 1, from game 3 on the evening so far) show in the game's first round only: the
new-user trial of `lancards play --game eights` read them in round 8 of game 2 at 80x24, where
they left the layout one row (``the layout:`` / ``▼ 4 more below``); in Level 8 they hid the
combinations on the table. The log keeps them, the game-over panel says the evening."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.session import TableSnapshot
from lancards.engine.eights.state import Phase as EightsPhase
from tests.cli.tui.harness import driven
from tests.cli.tui.test_golden_screens import level8_mid_round, played_until

GAME_2 = ("game 2 of the evening: You deal round 1 (the winner of the last game deals)",)
GAME_3 = ("game 3 of the evening: You deal round 1 (the winner of the last game deals)",
          "evening so far: You: 1 win, 150 points · Ada: 1 win, 120 points · Bram: 0 wins, "
          "170 points · Cleo: 0 wins, 200 points")
LEVEL8_GAME_2 = ("game 2 of the evening: You deal round 1 (the player left of the last game's "
                 "first dealer deals)",)


class Rematch(LocalSession):
    """A seeded LocalSession whose snapshot carries a rematch's lines (:attr:`series`), as a
    :class:`~lancards.cli.net_session.NetworkSession` of a later game of the evening does."""

    series: tuple[str, ...] = ()

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        return dataclasses.replace(snap, extra={**snap.extra, "series": self.series})


def _rematch(rule_set: str, stop: Any, series: tuple[str, ...]) -> Rematch:
    session = played_until(rule_set, 5, stop)
    session.__class__ = Rematch
    assert isinstance(session, Rematch)
    session.series = series
    return session


def _round_8(state: Any) -> bool:
    return bool(state.round == 8 and state.turn == 0 and state.phase is EightsPhase.LAYOUT)


@pytest.mark.parametrize("series", [GAME_2, GAME_3])
def test_in_round_8_the_layout_has_its_rows_and_the_game_s_lines_are_gone(
        series: tuple[str, ...]) -> None:
    session = _rematch("eights", _round_8, series)
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()
    assert not any("of the evening" in row or "evening so far" in row for row in rows)
    at = rows.index(" the layout:")
    assert rows[at:at + 6] == [" the layout:",
                               "  Red    - (needs its 8)",
                               "  Blue   - (needs its 8)",
                               "  Yellow - (needs its 8)",
                               "  Green  - (needs its 8)",
                               " ▲ 496 more above (PgUp/PgDn)"]  # the log's (no Yellow row:
    # the hand holds no Yellow card, and a suit not held has no row)
    assert rows[1] == " round 8, the layout: +10 per card left, -25 for going out"


def test_in_round_1_the_lines_stand_under_the_title() -> None:
    session = _rematch("eights", lambda s: s.round == 1 and s.turn == 0
                       and s.phase is EightsPhase.TRICKS, GAME_3)
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()
    assert rows[1:5] == [
        " game 3 of the evening: You deal round 1 (the winner of the last game deals)",
        " evening so far: You: 1 win, 150 points · Ada: 1 win, 120 points · Bram: 0 wins,",
        "   170 points · Cleo: 0 wins, 200 points",
        " objective: No tricks: +10 per trick · lancards' own objectives · o lists them"]


def test_in_level_8_s_round_3_every_combination_on_the_table_is_shown() -> None:
    session = _rematch("level8-master", level8_mid_round, LEVEL8_GAME_2)
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()
    assert not any("of the evening" in row or "evening so far" in row for row in rows)
    at = rows.index(" on the table (6 combinations):")
    # the rest scroll with < / > above the log's seven rows (a mark line and six lines): no
    # series line takes a row
    assert rows[at + 1:at + 5] == ["  1 Tess: set of 1s: O1 P1 J1-5=1",
                                   "  2 Tess: set of 10s: Y10 G10",
                                   " ▼ 4 more below (< >)",
                                   " ▲ 75 more above (PgUp/PgDn)"]
