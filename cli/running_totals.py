"""Each player's running figure after the last finished round, kept beside the journal, so
that ``lancards history`` lists an unfinished game with its totals (8s Rule!) or levels
(Level 8) without replaying its record, which takes seconds a game (the new-user trial of
2026-12-07 read an unfinished 8s Rule! game listed with its players alone).

``tables/<id>/totals.json``::

    {"round": 3, "scores": [40, 25, 10], "journal": {"bytes": 812345, "sha256": "..."}}

``round`` rounds are finished; ``scores`` is each seat's total (8s Rule!) or level (Level 8)
after them; ``journal`` the journal's durable bytes when it was written and their SHA-256.
:class:`RunningTotals` writes it whenever those figures change (at each round's end, or
when a voided move takes a round back), from this seat's state after the journal lines that
led there are durable; never on a paused seat (a failed write: its state holds lines the
journal lost). It is replaced atomically (a temporary file, ``fsync``, rename), so a kill -9
leaves the old file or the new one, never a part; best effort, never a fault: a write that
fails stops the writing, the journal stays the record.

:func:`read_totals` believes the file only while the journal still begins with the bytes it
names and no ``void`` line follows them (a move voided after it may have taken its round
back). A kill -9 between a round's last journal line and this file leaves the file of the
round before (or none): the listing then says the figures after that round, "after round
N", which stay true; a missing file, one that cannot be read or one the journal does not
bear out gives no figures at all (``docs/client.md``, "lancards history").
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lancards.p2p.net.store import replace_file

FILE = "totals.json"
"""The file's name in the table folder."""


@dataclass(frozen=True)
class Running:
    """The figures of :data:`FILE`: ``scores`` after ``round`` finished rounds."""

    round: int
    scores: tuple[int, ...]


def after_rounds(game: str, state: Any) -> Running | None:
    """The finished rounds of ``state`` and each seat's figure after them: 8s Rule!'s running
    totals, Level 8's levels; ``None`` before the first round ends, and for a Level 8 game
    over (its last round may have been cut short by leaves: the figures of the round before
    stay)."""
    if game == "eights":
        return Running(len(state.results), tuple(state.totals())) if state.results else None
    if game.startswith("level8"):
        from lancards.engine.level8.state import Phase

        if state.phase is Phase.OVER or state.phase is Phase.DEALER:
            return None
        # the levels move at the round's end: in KEEP the round is done, else the round
        # being played began after round - 1 of them
        done = state.round if state.phase is Phase.KEEP else state.round - 1
        return Running(done, tuple(state.levels)) if done >= 1 else None
    return None


class RunningTotals:
    """The writer of one table folder's :data:`FILE` (``store``: this seat's
    :class:`~lancards.p2p.net.store.TableStore`; ``None``: nothing is written)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.written: Running | None = None

    def note(self, game: str, state: Any) -> None:
        """Write the figures of ``state`` if they differ from the last written (call it
        only when every journal line ``state`` was built from is durable)."""
        if self.store is None or self.store.fault is not None:
            return
        now = after_rounds(game, state)
        if now is None or now == self.written:
            return
        size, digest = self.store.durable_prefix()
        data = json.dumps({"round": now.round, "scores": list(now.scores),
                           "journal": {"bytes": size, "sha256": digest}}).encode()
        try:
            replace_file(Path(self.store.folder) / FILE, data, 0o600)
        except OSError:
            self.store = None  # best effort: the journal stays the record
            return
        self.written = now


def read_totals(folder: Path) -> Running | None:
    """The figures of ``folder``'s :data:`FILE` if its journal bears them out (see the
    module docstring), else ``None``; never raises."""
    try:
        data = json.loads((folder / FILE).read_bytes())
        journal = data["journal"]
        size, digest = journal["bytes"], journal["sha256"]
        number, scores = data["round"], data["scores"]
        if not (isinstance(size, int) and isinstance(number, int) and number >= 1
                and isinstance(scores, list)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in scores)):
            return None
        raw = (folder / "journal.jsonl").read_bytes()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not 0 <= size <= len(raw) or hashlib.sha256(raw[:size]).hexdigest() != digest:
        return None
    if b'{"kind":"void"' in raw[size:]:
        return None
    return Running(number, tuple(scores))


__all__ = ["FILE", "Running", "RunningTotals", "after_rounds", "read_totals"]
