"""Whole-screen panels of the table drawn from text alone: the quit and leave questions, and a
round's or the game's result (with, at the game's end, "play again with the same players?":
issue 27, :mod:`lancards.cli.play_again`)."""

from __future__ import annotations

from lancards.cli.play_again import again_words
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.controller import styled_cards
from lancards.cli.tui.fit import Lines
from lancards.cli.tui.results import RoundReport


def confirm_lines(leave: bool, can_leave: bool) -> Lines:
    """"Leave for good?" (``leave``), else "Leave the table?" (pause, or leave for good when
    ``can_leave``)."""
    if leave:
        return [[("class:picker.title", " leave for good ")],
                [("", " Leave for good? You cannot come back: your hand goes out of play "
                      "face down, unopened, and you rank last. The others play on.")],
                [("class:hints", " y: leave for good   n: stay")]]
    lines: Lines = [[("class:picker.title", " quit ")],
                    [("", " Leave the table?")],
                    [("", " y or p: pause: the game waits for you "
                          "(lancards resume brings you back)")]]
    if can_leave:
        lines.append([("", " l: leave for good: the game goes on without you")])
    lines.append([("class:hints", " n: stay")])
    return lines


def report_lines(report: RoundReport, snap: TableSnapshot) -> Lines:
    """A round's result (Enter continues), or the game's (its last line: play again, or q)."""
    title = "game over" if report.round == 0 else f"round {report.round} over"
    out: Lines = [[("class:picker.title", f" {title} ")]]
    if report.round == 0:
        out.append([("class:result", f" {report.summary}")])
    for line in report.lines:
        out.append([("", " "), *styled_cards(line)])
    more = "q: leave" if report.round == 0 else "Enter: continue"
    again = snap.extra.get("again") if report.round == 0 else None
    if again:
        more = again_words(again)
    out.append([("class:hints", f" {more}")])
    return out
