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


def test_a_chat_line_with_control_characters_wraps_whole() -> None:
    """The LAN trial: the screen shows a control character as 2 to 8 characters (``^H``,
    ``^[``, ``<9b>``, ``<U+202E>``) but the wrap counted it as one or none, so the end of the
    line went past the panel's edge and was lost (`` tail`` of the first line, ``ED`` of the
    second): a sender could hide words. Written out before the wrap, every word shows."""
    from lancards.cli.tui.fit import wrap_text
    from lancards.cli.tui.width import text_width

    def wrapped(text: str) -> list[str]:
        line = notice_line(None, Notice("chat", text, 0), ["eve", "ann"], ["eve", "You"])
        assert line is not None
        return wrap_text(line, 80)

    ys, zs, ws = "y" * 60, "z" * 60, "w" * 60
    assert wrapped("B" + ys + " mid \x08\x08\x08BS tail") == [
        f"eve: B{ys} mid ^H^H^HBS", "   tail"]
    assert wrapped("C" + zs + " mid \x1b[31m RED tail") == [
        f"eve: C{zs} mid ^[[31m", "   RED tail"]
    assert wrapped("D" + ws + " mid \u202e\x9b\x7f\n\tend") == [
        f"eve: D{ws} mid", "   <U+202E><9b>^?^J^Iend"]
    for text in ("B" + ys + " mid \x08\x08\x08BS tail", "C" + zs + " mid \x1b[31m RED tail"):
        assert all(text_width(piece) == len(piece) <= 80 for piece in wrapped(text))
