"""What a terminal shows while a table opens without its screen yet: ``lancards resume``
restarts every peer of this machine from its journal, checking every move again, and a game
that follows another (play again, another game) opens its peers before its screen. Both took
seconds on a blank terminal, or under the last lines printed, which no longer said what was
going on (the new-user trial of session 28: 5 to 8 s of nothing after ``lancards resume``).

The lines are printed on standard output before the full-screen table takes the terminal,
wrapped at a space (:func:`lancards.cli.tui.fit.echo`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext


def moves_in(folder: Path) -> int:
    """The moves (signed actions, not shuffles, key or decryption shares) in the journal of
    this seat's table folder, which a resume checks again."""
    from lancards.p2p.net.store import TableStore

    return sum(1 for kind, line in TableStore(folder).read().lines
               if kind == "entry" and isinstance(line, dict)
               and (line.get("payload") or {}).get("t") == "action")


def record_moves(record: Any) -> int:
    """The moves (``action`` entries) a record holds: the count every line of this program
    says (the resume's checking line, the catching-up line, the watcher's and the audit's
    verdicts), not the record's entries, which count shuffles, keys and decryption shares
    too: a trial read moves at the resume and entries in the table's note and the audit,
    two counts for one game)."""
    return sum(1 for e in record.entries if e.payload.get("t") == "action")


def checking_words(moves: int) -> str:
    """``"checking 253 moves played so far…"``: what ``lancards resume`` does before the
    table shows (before the first move: the deal)."""
    if moves == 0:
        return _("checking the deal…")
    return ngettext("checking {count} move played so far…",
                    "checking {count} moves played so far…", moves).format(count=moves)


def next_table_words(session: Any, status: int, again: int, other: int) -> str | None:
    """What the terminal says while the table of the game that follows opens: ``"opening
    game 2 (Level 8 Master, with Bram, Ada, Cleo)…"`` after every player said "play again"
    (``status == again``), ``"opening a table of 8s Rule! (with Bram, Ada)…"`` after another
    game was chosen (``status == other``), else None (the screen closed for good)."""
    if status == again:
        table = session.again.started() if getattr(session, "again", None) else None
        if table is None:
            return None
        names = ", ".join(m.nick for m in table.seats  # the players of the new table
                          if m.public_key != session.core.me.public_key)
        number = int(table.statement.get("follows", {}).get("game", 2))
        if number == 1:  # another game, agreed at a host/join table: a new series
            return _("opening a table of {game} (with {names})…").format(
                game=game_title(table.spec.game), names=names or "?")
        return _("opening game {number} ({game}, with {names})…").format(
            number=number, game=game_title(session.rule_set), names=names or "?")
    if status == other and getattr(session, "other_rule_set", None):
        left = set(session.core.left_seats())  # as other_session seats them
        names = ", ".join(m.nick for i, m in enumerate(session.core.players)
                          if i != session.seat and i not in left)
        return _("opening a table of {game} (with {names})…").format(
            game=game_title(session.other_rule_set), names=names or "?")
    return None
