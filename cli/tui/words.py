"""Sentences of the table screen that do not depend on its layout: the deck's progress, a log
line, and the line printed once the window closed."""

from __future__ import annotations

import re
from typing import Any

from lancards.cli.session import Session
from lancards.cli.tui.cards import strip_slots
from lancards.cli.tui.controller import KeyHelp

GLOBAL_HELP: tuple[KeyHelp, ...] = (
    ("?", "show or hide this list of keys"),
    ("o", "the full text of the current level card / round objective"),
    ("r", "the progress of every player after the last round"),
    ("PgUp / PgDn", "scroll the log back / forward through the whole game (also - and +)"),
    ("< / >", "scroll the table up / down when it does not fit"),
    ("h", "hint: what the strongest bot would play now and why, in one line (it plays "
          "nothing: you still press the keys)"),
    ("c", "chat: type a line, Enter sends, Esc cancels"),
    ("b", "bot speed: each bot waits 0.5 s, 1 s, 2 s, 0.2 s or not at all before its turn"),
    ("q", "leave the table: pause, or leave for good (asks first while the game runs)"),
    ("Enter / Esc", "close a result panel (Up/Down scroll a long one)"),
)
"""The keys of every table (each game adds its own: ``BaseController.help``)."""

_PROGRESS = re.compile(r"shuffle (\d+) of (\d+), (waiting|proving|verified)")


def progress_words(progress: str) -> str:
    """The deck's progress (``shuffle 2 of 4, verified``, from the protocol core) in words:
    every player shuffles the deck in turn and proves it; each shuffle is checked."""
    match = _PROGRESS.fullmatch(progress)
    if match is None:
        return progress
    k, n, state = int(match[1]), int(match[2]), match[3]
    if state == "waiting":
        return f"shuffling the deck: every player shuffles it in turn (0 of {n} done)"
    if state == "proving":
        return f"shuffling the deck: your shuffle ({k} of {n}) and its proof"
    return f"shuffling the deck: {k} of {n} shuffles done and checked"


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


def farewell(session: Session) -> str:
    """The one line printed once the table's window closed (issue 25, item 9): how this seat
    left and how to come back, or ``""`` after the game's end."""
    snap = session.snapshot()
    if snap.outcome is not None or snap.extra.get("removed_me"):
        return ""
    if snap.extra.get("watching"):
        return "you stopped watching the table"
    if snap.extra.get("left"):
        return "you left the table for good; the game goes on without you"
    if getattr(session, "resumable", False):
        return "paused: the game waits for you; lancards resume brings you back"
    return "the game stopped (a table of this machine alone is not kept)"


__all__ = ["GLOBAL_HELP", "farewell", "log_text", "progress_words"]
