"""A peer's notices as lines of the table's log (``cli/notice_lines.py``), in the player's
language: the move a table change made stale (``move-dropped``)."""

from __future__ import annotations

from lancards.cli import i18n
from lancards.cli.notice_lines import notice_line
from lancards.p2p.protocol.core import Notice

DROPPED = Notice("info", "this seat's move 0: choose #121 no longer fits the table: ...", 0,
                 code="move-dropped")
"""What the core says when entries taken while a move's cards came (a leave that took the
shown card it names) made the move illegal: it is dropped and the seat chooses again
(``p2p/protocol/outbound.py``, the adversary campaign of 2026-12-06)."""


def test_a_dropped_move_is_told_in_words_and_the_engine_sentence_is_not() -> None:
    names = ["ann", "bob"]
    assert notice_line(None, DROPPED, names, ["You", "bob"]) == \
        "your move no longer fits the table, which changed meanwhile: choose again"
    i18n.set_language("de")
    try:
        assert notice_line(None, DROPPED, names, ["Du", "bob"]) == \
            "dein Zug passt nicht mehr, der Tisch hat sich inzwischen geändert: wähle neu"
    finally:
        i18n.set_language("en")
    other = Notice("info", "shuffle 3 of 6, verified", 0, code="")
    assert notice_line(None, other, names, ["You", "bob"]) is None  # the banners say those
