"""Keys typed on one screen never act on the next (issue 25): what the terminal holds unread is
dropped when a screen opens and when it closes."""

from __future__ import annotations

import sys
from typing import Any


def flush_typeahead(stream: Any = None) -> None:
    """Drop the keys the terminal ``stream`` (default stdin) holds unread, so that a key typed
    on one screen never acts on the next (``termios.tcflush(fd, TCIFLUSH)``, POSIX).

    Nothing happens when ``stream`` is not a terminal or the platform lacks termios.
    """
    stream = sys.stdin if stream is None else stream
    try:
        import termios

        fd = stream.fileno()
        if not stream.isatty():
            return
        termios.tcflush(fd, termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):
        return


__all__ = ["flush_typeahead"]
