"""The log at the table (issue 25, item 6): scrolled back it holds still while moves come, and
it follows new moves again once scrolled back to its end or after a move of one's own; at
80x24 a table of 8 combinations leaves the log a mark line and three lines."""

from __future__ import annotations

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

pytestmark = pytest.mark.timeout(60)

NAMES = ("Ann", "Ben", "Cat")


def log_rows(screen: str) -> list[str]:
    """The screen lines from the log's mark line to the hand header."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "(PgUp/PgDn)" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith(" your hand"))
    return lines[start:end]


def session_with_a_long_log() -> LocalSession:
    state = build("level8-master", [["R3", "O7", "B9"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.DRAW, pile_top=["G9"])
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
    for i in range(40):
        session.send_chat(f"line {i}")
    return session


def test_scrolled_back_the_log_holds_still_and_follows_again_at_its_end():
    session = session_with_a_long_log()
    with driven(session, 80, 24) as d:
        assert "Ann: line 39" in d.text()
        before = log_rows(d.press("pgup"))[1:]
        assert "Ann: line 39" not in "\n".join(before)
        session._add_log(session._log[-1].__class__("Ben: a new line", 1, chat=True))
        session._changed()
        d.settle()
        rows = log_rows(d.text())
        assert rows[1:] == before, rows  # the lines read stay where they were
        assert "more below" in rows[0]
        for _ in range(20):
            if "more below" not in log_rows(d.text())[0]:
                break
            d.press("pgdn")
        assert log_rows(d.text())[-1] == " Ben: a new line"
        session._add_log(session._log[-1].__class__("Cat: and another", 2, chat=True))
        session._changed()
        d.settle()
        assert log_rows(d.text())[-1] == " Cat: and another"  # at the end: it follows


def test_a_move_of_ones_own_brings_the_log_back_to_its_end():
    session = session_with_a_long_log()
    with driven(session, 80, 24) as d:
        d.press("pgup", "pgup")
        screen = d.press("d")
        assert log_rows(screen)[-1] == " You drew G9 from the draw pile" or \
            log_rows(screen)[-1].endswith("drew G9 from the draw pile"), log_rows(screen)


def test_at_80x24_eight_combinations_leave_the_log_six_lines():
    melds = [(i % 4, K.SET, [f"{c}{n}" for c in "ROY"]) for i, n in enumerate(range(2, 10))]
    state = build("level8-master", [["B12", "P12"], ["B13"], ["B14"], ["B15"]], turn=0,
                  phase=Phase.DRAW, melds=melds, down=(True, True, True, True))
    session = LocalSession("level8-master", names=(*NAMES, "Dov"), state=state, bot_delay=60)
    for i in range(10):
        session.send_chat(f"line {i}")
    with driven(session, 80, 24) as d:
        screen = d.text()
    assert "on the table (8 combinations)" in screen and "more below (< >)" in screen
    assert log_rows(screen)[1:] == [f" Ann: line {i}" for i in range(4, 10)], screen
