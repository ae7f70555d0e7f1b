"""The language a table was last shown in, so that ``lancards resume`` without ``--lang`` goes
on in it.

A new-user trial (session 27) played ``lancards --lang de play``, pressed Ctrl-C and ran
``lancards resume``: the new lines came in the environment's English under the German ones.
Each session that shows a table writes the language it shows into ``tables/<id>/language``
(:func:`remember`, called where the session starts its log); ``lancards resume`` reads it when
its command line names no ``--lang`` (:func:`resume_language`). An explicit ``--lang`` wins,
and is the one remembered from then on; the environment (``LANG`` / ``LC_ALL``) decides only
for a table that never wrote the file (one played before this existed).

Best effort, never a fault: the file is one word, written atomically (a kill -9 leaves the old
word or the new one); a file that cannot be written leaves the table as it is, and one that
cannot be read, is empty, is no text or names no language this program has is ignored (and
written anew, where it can be). The crash tests kill the process at this write
(``LANCARDS_TEST_CRASH_AT=language-WHEN:N``, :mod:`lancards.p2p.net.crash_hook`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from lancards.cli.i18n import LANGUAGES, language, set_language
from lancards.p2p.net.crash_hook import crash

FILE = "language"
"""The file's name in the table folder."""


def remember(folder: Path) -> None:
    """Write the current language (``"en"``, ``"de"``) into ``folder``'s :data:`FILE`.

    Raises nothing: an ``OSError`` (a full disk, a read-only folder) is swallowed."""
    if recalled(folder) == language():  # a garbage file (no text) is no fault: written anew
        return
    with contextlib.suppress(OSError):
        if crash.reached("before", side="language"):
            crash.die()
        temporary = folder / f".{FILE}.tmp"
        if crash.reached("torn", side="language"):
            temporary.write_text(language()[:1], encoding="ascii")
            crash.die()
        temporary.write_text(language() + "\n", encoding="ascii")
        os.replace(temporary, folder / FILE)
        if crash.reached("after", side="language"):
            crash.die()


def recalled(folder: Path) -> str | None:
    """The language ``folder``'s :data:`FILE` names, or None (no file, not a regular file,
    unreadable, or no language of :data:`lancards.cli.i18n.LANGUAGES`)."""
    path = folder / FILE
    try:  # a FIFO or a device in its place would block the read or never end: not a file
        word = path.read_text(encoding="ascii").strip() if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return None
    return word if word in LANGUAGES else None


def resume_language(folder: Path, asked: str | None) -> None:
    """Use the table's remembered language for ``lancards resume`` when ``asked`` (the command
    line's ``--lang``) is None; an asked language was set already and stays."""
    if asked is not None:
        return
    word = recalled(folder)
    if word is not None and word != language():
        set_language(word)
