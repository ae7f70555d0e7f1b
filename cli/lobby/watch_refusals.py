"""A watcher's refused messages in the seated table's words (the last session's trials: the
watcher's screen said them the old way, ``refused: message from bob [FP] refused (seat 2,
entry 13): received before: ...``, while the seated table said ``! bob sent step 13 of the
game again, which the table already has: ignored``), and as rarely: the first of each sender
and reason, then at most one a minute each (:data:`~lancards.cli.notice_lines.REFUSAL_WINDOW_S`,
:class:`~lancards.cli.notice_lines.RefusalLimit` for a seat). Every refusal still goes to
``--verbose``."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from lancards.cli.notice_lines import REFUSAL_WINDOW_S
from lancards.cli.peer_errors import error_words, event_words
from lancards.cli.refusal_words import move_refused, plain_refusal
from lancards.p2p.net.failure_words import log as net_log
from lancards.p2p.net.throttle import Throttle


def refusal_words(error: Any, text: str) -> str:
    """Why a watcher refused a message (a ``Watching`` event's ``error`` and English ``text``)
    as a seated table says it (:func:`~lancards.cli.notice_lines.notice_line`): a message sent
    again or not signed by its author as a person would say it
    (:func:`~lancards.cli.refusal_words.plain_refusal`), a refused move with the move and why
    (:func:`~lancards.cli.refusal_words.move_refused`), the watcher's own refusals as before
    (:func:`~lancards.cli.peer_errors.event_words`)."""
    if error is None:
        return event_words(None, text)
    net_log.debug("%s", error)  # the peer layer's sentence, for --verbose
    plain = plain_refusal(error)
    return plain if plain is not None else error_words(error, move_refused)


_NUMBER = re.compile(r"\d+")


class WatchRefusals:
    """The refusals a watcher tells: the first of each (sender, reason), then at most one a
    minute each; a refusal of the watcher's own (no error: ``entry 13 again``) by its words
    with the numbers left out."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 window: float = REFUSAL_WINDOW_S) -> None:
        self.clock = clock
        self._keys = Throttle(window)

    def words(self, event: Any) -> str | None:
        """The words of a ``rejected`` event (:func:`refusal_words`), or ``None`` when the same
        refusal was told less than the window ago."""
        error = getattr(event, "error", None)
        key = (str(getattr(error, "sender", "")), str(getattr(error, "reason", ""))) \
            if error is not None else ("", _NUMBER.sub("N", event.text))
        if not self._keys.allow(key, self.clock()):
            net_log.debug("%s", error if error is not None else event.text)
            return None
        return refusal_words(error, event.text)


__all__ = ["WatchRefusals", "refusal_words"]
