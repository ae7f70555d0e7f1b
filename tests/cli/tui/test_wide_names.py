"""Text widths as the terminal shows them (issue 25, item 11): wide nicknames (CJK,
fullwidth letters, an emoji) keep every column of the players panel aligned, a 16-character
CJK name is shown whole, and no line passes 80 columns."""

from __future__ import annotations

import re

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.fit import wrap_line
from lancards.cli.tui.results import eights_chart, level8_chart
from lancards.cli.tui.width import cut, pad, text_width
from tests.cli.tui.harness import driven

pytestmark = pytest.mark.timeout(60)

LONG = "一二三四五六七八九十一二三四五六"  # 16 characters, 32 columns
NAMES = ("山田太郎", "ＡＢＣＤ", "Bo😀", LONG)


def column(row: str, token: str) -> int:
    """The terminal column where ``token`` starts in ``row`` (a screen line)."""
    return text_width(row[:row.index(token)])


def rows_of(screen: str, names: tuple[str, ...]) -> list[str]:
    lines = screen.splitlines()
    return [next(line for line in lines if f" {i + 1} {name} " in line)
            for i, name in enumerate(names)]


def test_widths_count_wide_characters_twice_and_cut_with_a_sign():
    assert [text_width(n) for n in NAMES] == [8, 8, 4, 32]
    assert pad("山田太郎", 9) == "山田太郎 " and cut("山田太郎", 5) == "山田…"
    pieces = wrap_line([("", "ab 山田太郎 " * 8)], 20)
    assert all(text_width("".join(t for _, t in p)) <= 20 for p in pieces)


@pytest.mark.parametrize("game,token,header", [("level8-master", "4 pairs", "requirement"),
                                               ("eights", "15      0", "hand")])
def test_the_players_panel_stays_aligned_with_wide_names(game, token, header):
    session = LocalSession(game, names=NAMES, seed=3, bot_delay=60)
    session.advance()
    with driven(session, 80, 24) as d:
        screen = d.text()
    rows = rows_of(screen, NAMES)  # every name whole, LONG not cut to 14 characters
    head = next(line for line in screen.splitlines() if " # player" in line)
    want = column(head, header) + (0 if game == "level8-master" else 2)  # "  15" under "hand"
    assert [column(row, token) for row in rows] == [want] * 4, screen
    assert all(text_width(line) <= 80 for line in screen.splitlines()), screen


def test_the_result_charts_align_wide_names():
    lines = level8_chart(NAMES, [(1, (2, 1, 3, 1))])[1:]
    assert [text_width(re.split(r"[#.]", line)[0]) for line in lines] == [34] * 4, lines
    lines = eights_chart(NAMES, [(1, (10, 0, 20, 5))])[2:]
    assert [text_width(line.rstrip("+- ")) for line in lines] == [32 + 1 + 6] * 4, lines


def test_a_chart_begun_after_round_1_says_rounds_came_before() -> None:
    """The trial of 2026-12-05: resumed in round 2, the chart read ``You ##...... level 3
    (3 3)`` as if the game had begun at level 3. A tracker that first sees a later round (a
    resume, a watcher who came later) begins the steps with ``…``; one that saw round 1 not."""
    from types import SimpleNamespace

    from lancards.cli.tui.results import RoundTracker

    def view(number: int, levels: tuple[int, ...], over: bool = False) -> SimpleNamespace:
        return SimpleNamespace(round=number, levels=levels,
                               phase=SimpleNamespace(value="over" if over else "play"))

    names = ("You", "Cleo")
    late = RoundTracker(names)
    late.observe("level8", view(2, (3, 1)))
    [report] = late.observe("level8", view(3, (3, 3)))
    assert report.lines[-2:] == ("You   ##......  level 3  (… 3 3)",
                                 "Cleo  ##......  level 3  (… 1 3)")
    whole = RoundTracker(names)
    whole.observe("level8", view(1, (1, 1)))
    whole.observe("level8", view(2, (3, 1)))
    [report] = whole.observe("level8", view(3, (3, 3)))
    assert report.lines[-2:] == ("You   ##......  level 3  (1 3 3)",
                                 "Cleo  ##......  level 3  (1 1 3)")


def test_the_level_chart_s_win_is_said_in_the_player_s_language() -> None:
    """The German trial of 2026-12-07 read ``Bram  ########  Sieg     (1 2 4 6 6 6 7 8 8 W)``:
    the step of the win is a letter of the language's word (``W`` win, German ``S`` Sieg)."""
    from lancards.cli import i18n
    from lancards.cli.tui.results import WIN_LEVEL

    history = [(1, (3, 2)), (2, (WIN_LEVEL, 3))]
    assert level8_chart(("Bram", "Ada"), history)[1:] == (
        "Bram  ########  WIN      (1 3 W)", "Ada   ##......  level 3  (1 2 3)")
    i18n.set_language("de")
    try:
        assert level8_chart(("Bram", "Ada"), history)[1:] == (
            "Bram  ########  Sieg     (1 3 S)", "Ada   ##......  Stufe 3  (1 2 3)")
    finally:
        i18n.set_language("en")


def test_a_level8_round_report_says_who_left_rather_than_stays() -> None:
    """A LAN trial: after bob and ann left for good in round 1, eve's round panel read "bob:
    level 1 -> level 1 (stays)" and "ann: level 1 -> level 1 (stays)"."""
    from types import SimpleNamespace

    from lancards.cli.tui.results import RoundTracker

    tracker = RoundTracker(("eve", "bob", "ann"))
    tracker.observe("level8", SimpleNamespace(round=1, levels=(1, 1, 1), left=(),
                                              phase=SimpleNamespace(value="play")))
    [report] = tracker.observe("level8", SimpleNamespace(
        round=1, levels=(1, 1, 1), left=(1, 2), phase=SimpleNamespace(value="over")))
    assert report.summary == "round 1: eve level 1, bob left, ann left"
    assert report.lines[:3] == ("eve: level 1 -> level 1 (stays)",
                                "bob: level 1 (left the table)",
                                "ann: level 1 (left the table)")
