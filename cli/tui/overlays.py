"""Whole-screen panels of the table drawn from text alone: a round's or the game's result
(with, at the game's end, "play again with the same players?": issue 27,
:mod:`lancards.cli.play_again`), the objective in full (``o``)."""

from __future__ import annotations

from lancards.cli.i18n import _
from lancards.cli.play_again import again_words, others_words, wants_words
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.controller import styled_cards
from lancards.cli.tui.fit import Lines, titled_panel
from lancards.cli.tui.results import RoundReport


def report_lines(report: RoundReport, snap: TableSnapshot) -> Lines:
    """A round's result (Enter continues; ``q quit`` said too, as on the table's key line: a
    new-user trial of 2026-12-08 read only ``Enter: continue`` there), or the game's (its last
    line: play again, or q)."""
    title = _("game over") if report.round == 0 else \
        _("round {number} over").format(number=report.round)
    out: Lines = [[("class:picker.title", f" {title} ")]]
    if report.round == 0:
        out.append([("class:result", f" {report.summary}")])
    for line in report.lines:
        out.append([("", " "), *styled_cards(line)])
    more = _("q: leave") if report.round == 0 else _("Enter: continue") + _(" · q quit")
    again = snap.extra.get("again") if report.round == 0 else None
    if again:
        more = again_words(again)
    out.append([("class:hints", f" {more}")])
    others = others_words(again.get("others") or {}, bool(again.get("too_few_for"))) \
        if again and again.get("asked") else ""
    chosen = wants_words(again) if again and again.get("asked") else ""
    if chosen:  # what the others chose, before this player answers: "Ada wants 8s Rule!"
        out.append([("class:hints", f" {chosen}")])
    if others:  # another game: lancards play opens its table; a host/join table agrees on it
        out.append([("class:hints", f" {others}")])
    return out


def objective_panel(lines: list[str], width: int = 0, rows: int | None = None) -> Lines:
    """The ``o`` panel: its title, which names the keys that scroll it a page when it is
    taller than its ``rows`` at ``width`` columns (as the ``?`` panel's does:
    :func:`~lancards.cli.tui.fit.titled_panel`), then ``lines`` (the controller's
    ``objective``)."""
    return titled_panel(_("objective (any key closes)"),
                        _("objective (Up/Down scroll, any other key closes)"),
                        [[("", " " + line)] for line in lines], width, rows)
