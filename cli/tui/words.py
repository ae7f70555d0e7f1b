"""Sentences of the table screen that do not depend on its layout: the deck's progress, a log
line, and the line printed once the window closed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lancards.cli.i18n import N_, _
from lancards.cli.session import Session, TableSnapshot
from lancards.cli.tui.cards import strip_slots
from lancards.cli.tui.controller import KeyHelp
from lancards.cli.tui.fit import Lines, titled_panel
from lancards.cli.tui.width import pad, text_width

GLOBAL_HELP: tuple[KeyHelp, ...] = (
    ("?", N_("show or hide this list of keys")),
    ("o", ""),  # the game's own words: BaseController.goal_help
    ("g", N_("the rules of this game in short: the objective, a turn, the special cards, "
             "how a round and the game end (Esc, q or g closes)")),
    ("r", N_("the progress of every player after the last round")),
    (N_("PgUp / PgDn"), N_("scroll the log back / forward through the whole game (also - and +)")),
    ("< / >", N_("scroll the table up / down when it does not fit")),
    ("h", N_("hint: what the strongest bot would play now and why, in one line; it plays "
             "nothing, but puts the cursor on the card it names")),
    ("c", N_("chat: type a line, Enter sends, Esc cancels")),
    ("b", N_("bot speed: each bot waits 0.5 s, 1 s, 2 s, 0.2 s or not at all before its turn")),
    ("q", N_("leave the table: pause, or leave for good (asks first while the game runs)")),
    (N_("Enter / Esc"), N_("close a result panel (Up/Down scroll a long one)")),
)
"""The keys of every table (each game adds its own: ``BaseController.help``)."""


def keys_panel(own: Sequence[KeyHelp], goal_help: str, width: int = 0,
               rows: int | None = None) -> Lines:
    """The ``?`` panel: the game's own keys, then :data:`GLOBAL_HELP` (``o`` in the game's
    words, ``goal_help``), in the player's language, the keys in one column. A row of ``own``
    without a key is a heading (``in the lay-down builder (l):``): it and the rows after it
    come last, below the keys of every table, so that the builder's ``1-9`` and ``Enter`` are
    not read as the table's (the trial of 2026-12-06). Its title names the scroll keys only
    when it is taller than its ``rows`` at ``width`` columns (:func:`titled_panel`)."""
    first = next((i for i, (k, _what) in enumerate(own) if not k), len(own))
    ordered = (*own[:first], *GLOBAL_HELP, *own[first:])
    keys = [(_(k) if k else "", _(v or goal_help)) for k, v in ordered]
    key_w = max(text_width(k) for k, _what in keys)
    body: Lines = [[("", f" {pad(k, key_w)}  {v}")] if k else [("class:header", f" {v}")]
                   for k, v in keys]
    return titled_panel(_("keys (any key closes)"),
                        _("keys (Up/Down scroll, any other key closes)"), body, width, rows)


_PROGRESS = re.compile(r"shuffle (\d+) of (\d+), (waiting|proving|verified)")


def progress_words(progress: str) -> str:
    """The deck's progress (``shuffle 2 of 4, verified``, from the protocol core) in words:
    every player shuffles the deck in turn and proves it; each shuffle is checked."""
    match = _PROGRESS.fullmatch(progress)
    if match is None:
        return progress
    k, n, state = int(match[1]), int(match[2]), match[3]
    if state == "waiting":
        return _("shuffling the deck: every player shuffles it in turn (0 of {n} done)").format(
            n=n)
    if state == "proving":
        return _("shuffling the deck: your shuffle ({k} of {n}) and its proof").format(k=k, n=n)
    return _("shuffling the deck: {k} of {n} shuffles done and checked").format(k=k, n=n)


def log_text(line: Any, names: tuple[str, ...]) -> str:
    """A log line for the screen. Sessions tell moves in words already
    (:mod:`lancards.cli.tui.narrate`); a line still in notation (a fallback) gets the name for
    its seat number and loses its slot ids."""
    if line.chat:
        return str(line.text)
    text = strip_slots(str(line.text))
    head, sep, rest = text.partition(": ")
    if sep and head.isdigit() and int(head) < len(names):
        return f"{names[int(head)]}: {rest}"
    if sep and head == "*":
        return f"* {rest.replace(' ?', '')}"
    return text


def farewell(session: Session, again: bool = False) -> str:
    """What is printed once the table's window closed (issue 25, item 9): how this seat left
    and how to come back; after the game's end (``q`` at the game-over panel, at ``lancards
    play``, ``host`` and ``join``), the game-over panel's lines, the result and from the second
    game of the evening on the evening (the new-user trial read nothing there, but the result
    after a leave); ``""`` when the next game's table follows (``again``); after a leave whose
    game's end this machine saw (``lancards play``'s bots played it out), that line and the
    result's. The printed winner line names its game (``8s Rule!: You win with the lowest
    total``): the new-user trial of 2026-12-07 read ``result: ...`` of an 8s Rule! game right
    under ``resuming table ... (Level 8 Master ...)``, a game played before it."""
    from lancards.cli.tui.results import ended_early, game_over_lines

    snap = session.snapshot()
    if snap.outcome is not None and snap.extra.get("left"):  # the others played it out
        # the line before said "you left the table for good" (the trial read it twice); a
        # leave that itself ended the game (too few left, ruling D-3) is not "went on"
        left = snap.outcome.detail.get("left", [])
        ended = bool(left) and left[-1] == snap.seat and ended_early(snap.outcome,
                                                                      snap.game.name)
        head = _("the game ended with your leave:") if ended else \
            _("the game went on without you:")
        return "\n".join([head, *game_over_lines(snap, titled=True)])
    if snap.outcome is not None:  # q at the game-over panel: a seat's, not a watcher's
        quiet = again or snap.extra.get("removed_me") or snap.extra.get("watching")
        return "" if quiet else "\n".join(game_over_lines(snap, titled=True))
    if snap.extra.get("removed_me"):
        return ""
    if snap.extra.get("watching"):
        return _("you stopped watching the table")
    if snap.extra.get("left"):
        return _("you left the table for good; the game goes on without you")
    halted = halted_text(snap)
    if halted is not None:  # nothing waits at a table stopped by a proven cheat
        return _("the game was stopped ({reason}); it cannot go on").format(reason=halted)
    if getattr(session, "resumable", False):
        return _("paused: the game waits for you; lancards resume brings you back")
    return _("the game stopped (a table of this machine alone is not kept)")


def leave_panel() -> Lines:
    """The panel asking to leave for good (rulings D-1..D-4): what it costs, and the keys."""
    return [[("class:picker.title", " " + _("leave for good") + " ")],
            [("", " " + _("Leave for good? You cannot come back: your hand goes out of "
                          "play face down, unopened, and you rank last. The others "
                          "play on."))],
            [("class:hints", " " + _("y: leave for good   n: stay"))]]


def halted_text(snap: TableSnapshot) -> str | None:
    """The banner of a table halted on a proven cheat (``"cheating caught: Cyd signed a move
    the rules do not allow: ..."``), else None."""
    return next((b.text for b in snap.banners if b.kind == "cheat"), None)


def over_fragment(snap: TableSnapshot) -> tuple[str, str]:
    """The title's words when nobody is to act: ``game over``, or ``game stopped`` at a table
    halted on a proven cheat before its end (the LAN trial with a seated attacker read
    "game over" there, beside a banner and a ``q`` dialog saying it was stopped)."""
    if snap.outcome is None and halted_text(snap) is not None:
        return ("class:result", _("game stopped"))
    return ("class:result", _("game over"))


def quit_line(halted: str | None) -> str:
    """``q``'s question in one line (a window below the table's least size)."""
    if halted is not None:
        return _("The game was stopped. y: close the window  n: stay")
    return _("Leave the table? y: pause  l: leave for good  n: stay")


def quit_panel(can_leave: bool, halted: str | None = None) -> Lines:
    """The panel of ``q`` while the game runs: pause, or (``can_leave``) leave for good. At a
    table ``halted`` on a proven cheat (its banner) nothing waits: only closing the window is
    offered, with why (the LAN trial of 2026-12-08 was offered a pause there)."""
    if halted is not None:
        return [[("class:picker.title", " " + _("quit") + " ")],
                [("", " " + _("The game was stopped ({reason}): it cannot go on, and nothing "
                              "waits for you.").format(reason=halted))],
                [("class:hints", " " + _("y: close the window   n: stay"))]]
    lines: Lines = [[("class:picker.title", " " + _("quit") + " ")],
                    [("", " " + _("Leave the table?"))],
                    [("", " " + _("y or p: pause: the game waits for you "
                                  "(lancards resume brings you back)"))]]
    if can_leave:
        lines.append([("", " " + _("l: leave for good: the game goes on without you"))])
    lines.append([("class:hints", " " + _("n: stay"))])
    return lines


def key_line(keys: str, width: int, hint: bool) -> str:
    """The key line under the hand: ``keys`` (what does something now), then ``? keys``,
    ``q quit``, ``h hint`` (``hint``: on the own move) and ``o goal`` where the line has room
    in ``width`` columns (the rest is in the ``?`` list). ``q quit`` is never left out, it is
    how a person leaves (a LAN trial's German line after the draw dropped it at 80 columns):
    its room is kept first, then the others take what is left in that order. So on the
    table's line, a picker's and the builder's alike (they dropped it at 80 columns, German
    ``... · Esc bricht ab · ? Tasten · o Ziel``): their ``keys`` leave it room at 80 columns
    in every language, so the line stays one line (the builder's rows are counted)."""
    extras = [_(" · ? keys"), _(" · q quit"), *((_(" · h hint"),) if hint else ()),
              _(" · o goal")]
    kept = {1}
    used = text_width(" " + keys) + text_width(extras[1])
    for index, extra in enumerate(extras):
        if index not in kept and used + text_width(extra) <= width:
            kept.add(index)
            used += text_width(extra)
    return " " + keys + "".join(extra for index, extra in enumerate(extras) if index in kept)


def too_small_words(columns: int, rows: int, min_columns: int, min_rows: int) -> str:
    """What a window below the table's least size shows (two lines)."""
    return _("The window is {columns}x{rows}; the table needs {min_columns}x{min_rows}.\n"
             " Enlarge it, or q to leave.").format(columns=columns, rows=rows,
                                                   min_columns=min_columns, min_rows=min_rows)


HAND_KEYS = N_("the whole hand: Esc, or a taller window")
"""The hand panel's "more below" mark: the hand does not scroll (the trial of 2026-12-05 read
"PgUp/PgDn" there, which scroll the log); a list of moves open above it takes its rows."""


__all__ = ["GLOBAL_HELP", "HAND_KEYS", "farewell", "halted_text", "key_line", "keys_panel",
           "leave_panel", "log_text", "over_fragment", "progress_words", "quit_line",
           "quit_panel", "too_small_words"]
