"""The table's log as this seat told it, kept beside its journal, so that ``lancards resume``
shows the same log as before a crash (issue 25, item 10).

The journal holds the moves but not the words: a move's cards are told from this seat's view
just before it (which a checkpointed restore never rebuilds), chat lines are not in the record,
and round headers go where the moves put them. So :class:`lancards.cli.net_session.
NetworkSession` appends every log line it tells to ``tables/<id>/log.jsonl`` (one JSON object
a line, :class:`SavedLine`; a line completed later, such as the card of an own draw, is written
again with the same number) and, restored from its journals, reads them back; only the moves
after the last saved line are told again.

Best effort, never a fault: a write that fails stops the saving (the journal stays the
record); a damaged or torn line ends the reading there (the lines before it are kept); a line
that covers more entries than the restored journal holds is dropped with every line after it.
The file holds what this seat's screen showed (its own cards included), like its journal.

Each line is kept in every language (``said``, :func:`lancards.cli.i18n.in_each_language`:
the session says each line once per language when it tells it), and read back in the
language of the session that reads it: a table played in English and resumed with
``--lang de`` shows its whole log in German (the re-check trial of session 27 read the old
lines in English, the new ones in German). Re-telling the old lines from the record instead
cannot work: a checkpointed restore has no views from before it, and chat lines and notices
are not in the record. A line saved without ``said`` (a log written before, or a line of this
machine's news, :meth:`lancards.cli.session.NewsMixin.tell`) is shown as it was written.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

from lancards.cli.i18n import language
from lancards.cli.session import LogLine

FILE = "log.jsonl"
"""The saved log's file name in the table folder."""


class SavedLine(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One saved log line.

    Attributes:
        i: the line's number in the log, from 1 (a second line with the same number
            replaces the first).
        text, seat, chat, mark: as in :class:`lancards.cli.session.LogLine`.
        at: how many record entries had been told when the line was written.
        said: the line in each language (``{"en": ..., "de": ...}``; None: the same in every
            language, or not known), ``text`` being one of them.
    """

    i: int
    text: str
    seat: int | None
    chat: bool
    mark: bool
    at: int
    said: dict[str, str] | None = None


_DECODER = msgspec.json.Decoder(SavedLine)
_ENCODER = msgspec.json.Encoder()


class SavedLog:
    """The log file of one table folder (``None``: nothing is saved or read)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE
        self.written = 0
        """How many lines of the log are in the file."""
        self.said: dict[int, Mapping[str, str]] = {}
        """The lines in each language by their number (the session adds each line's words as
        it tells it, :meth:`say`; :meth:`load` reads them back)."""

    def say(self, number: int, said: Mapping[str, str]) -> None:
        """Keep the words of line ``number`` in each language (``said``, from
        :func:`lancards.cli.i18n.in_each_language`) to be saved with it; nothing when they
        are the same in every language."""
        if len(set(said.values())) > 1:
            self.said[number] = dict(said)
        else:
            self.said.pop(number, None)

    def load(self, entries: int) -> tuple[list[LogLine], int]:
        """The saved lines (numbered from 1, in order) and how many record entries they
        tell, keeping only lines that tell at most ``entries`` entries (the restored record's
        length). A missing file gives ``([], 0)``; see the module docstring for damage."""
        if self.path is None or not self.path.is_file():
            return [], 0
        try:
            raw = self.path.read_bytes()
        except OSError:
            return [], 0
        saved: dict[int, SavedLine] = {}
        for row in raw.split(b"\n"):
            if not row.strip():
                continue
            try:
                line = _DECODER.decode(row)
            except msgspec.DecodeError:
                break  # a torn last line (a crash while writing) or damage: stop here
            if not 1 <= line.i <= len(saved) + 1:
                break
            saved[line.i] = line
        lines: list[LogLine] = []
        told = 0
        for i in range(1, len(saved) + 1):
            line = saved[i]
            if line.at > entries:
                break  # told after entries the journal did not keep
            text = line.text
            if line.said:  # in this session's language (issue: --lang de on a resume)
                self.said[i] = line.said
                text = line.said.get(language(), text)
            lines.append(LogLine(text, line.seat, line.chat, line.mark, i))
            told = max(told, line.at)
        self.written = len(lines)
        if len(lines) < len(saved):
            self._rewrite(lines, told)
        return lines, told

    def save(self, log: Sequence[LogLine], at: int, again: Sequence[int] = ()) -> None:
        """Append the lines of ``log`` not written yet and the lines numbered ``again``
        (completed since), all marked as telling ``at`` entries; a failed write stops the
        saving for good."""
        if self.path is None or (self.written >= len(log) and not again):
            return
        rows = [log[i - 1] for i in again if 1 <= i <= self.written]
        rows += list(log[self.written:])
        data = b"".join(_ENCODER.encode(self._saved(line, at)) + b"\n" for line in rows)
        try:
            with self.path.open("ab") as out:
                out.write(data)
        except OSError:
            self.path = None
            return
        self.written = len(log)

    def _rewrite(self, lines: Sequence[LogLine], at: int) -> None:
        """Write the file anew with ``lines`` only (after dropping lines on load)."""
        assert self.path is not None
        data = b"".join(_ENCODER.encode(self._saved(line, at)) + b"\n" for line in lines)
        with contextlib.suppress(OSError):
            self.path.write_bytes(data)

    def _saved(self, line: LogLine, at: int) -> SavedLine:
        said = self.said.get(line.index)
        return SavedLine(line.index, line.text, line.seat, line.chat, line.mark, at,
                         None if said is None else dict(said))


def told_this_round(log: Sequence[LogLine], text: str) -> bool:
    """Whether ``text`` is among ``log``'s lines since its last round mark: a resumed log holds
    the lines told before the crash, and the card turned face up at a round's start (told
    once a round) was told again after a resume at that moment (the new-user trial read
    ``P13 is face up on Cleo's discard pile`` twice in a row)."""
    for line in reversed(log):
        if line.text == text:
            return True
        if line.mark:
            return False
    return False
