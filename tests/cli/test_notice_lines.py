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


def test_format_characters_and_separators_in_chat_are_written_out() -> None:
    """The re-check trial of 2026-12-07: a chat line of family emoji (four emoji joined by
    ZERO WIDTH JOINER) left earlier text on the screen and stray characters at column 80 (the
    terminal drew one glyph where the wrap counted four), and U+2028 vanished. Every format
    character, separator, private-use and unassigned code point is written out; an emoji
    alone, an accent and a CJK character stay as they are."""
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    line = notice_line(None, Notice("chat", f"{family} a\u200bb\ufeff\U000E0041 x\u2028y\u2029"
                                    "z\ufff9\ue000\U000E0080 é 漢 \U0001F600", 0),
                       ["eve", "ann"], ["eve", "You"])
    assert line == ("eve: \U0001F468<U+200D>\U0001F469<U+200D>\U0001F467 a<U+200B>b<U+FEFF>"
                    "<U+E0041> x<U+2028>y<U+2029>z<U+FFF9><U+E000><U+E0080> é 漢 \U0001F600")


def test_a_void_vote_against_a_player_who_is_here_is_told_with_who_asked() -> None:
    """The LAN trial with a seated attacker: eve voted to remove cyd and ann, both connected;
    the rounds were voided and neither ann nor cyd saw that eve tried. The core's one
    ``vote-void`` notice of a round (with its voters) is one log line wherever the seat is
    here; a seat that is not connected here gets none (its removal may be right)."""
    from types import SimpleNamespace

    names = ["ann", "bob", "cyd", "eve"]
    void = Notice("info", "the vote to remove cyd (seat 2) is void (a player said no, or it "
                  "outlived its life)", 2, code="vote-void", voters=(3,))
    ann, cyd = SimpleNamespace(seat=0), SimpleNamespace(seat=2)
    at_ann, at_cyd = ["You", "bob", "cyd", "eve"], ["ann", "bob", "You", "eve"]
    assert notice_line(ann, void, names, at_ann, here=lambda seat: True) == \
        "eve asked to remove cyd, who is here: nothing happens"
    assert notice_line(cyd, void, names, at_cyd) == \
        "eve asked to remove you, but you are here: nothing happens"
    assert notice_line(ann, void, names, at_ann, here=lambda seat: False) is None
    both = Notice("info", void.text, 2, code="vote-void", voters=(1, 3))
    assert notice_line(ann, both, names, at_ann, here=lambda seat: True) == \
        "bob and eve asked to remove cyd, who is here: nothing happens"
    mine = Notice("info", void.text, 2, code="vote-void", voters=(0,))
    assert notice_line(ann, mine, names, at_ann, here=lambda seat: True) is None
    i18n.set_language("de")
    try:
        assert notice_line(ann, void, names, ["Du", "bob", "cyd", "eve"],
                           here=lambda seat: True) == \
            "eve wollte cyd vom Tisch entfernen lassen, doch cyd ist da: es passiert nichts"
        assert notice_line(cyd, void, names, ["ann", "bob", "Du", "eve"]) == \
            "eve wollte dich vom Tisch entfernen lassen, doch du bist da: es passiert nichts"
        assert notice_line(ann, both, names, ["Du", "bob", "cyd", "eve"],
                           here=lambda seat: True) == \
            "bob und eve wollten cyd vom Tisch entfernen lassen, doch cyd ist da: es " \
            "passiert nichts"
    finally:
        i18n.set_language("en")


def test_the_log_calls_a_seat_here_when_its_link_is_up() -> None:
    from types import SimpleNamespace

    from lancards.cli.net_log import NetLogMixin

    players = [SimpleNamespace(public_key=bytes([k]) * 32) for k in range(4)]
    session = SimpleNamespace(core=SimpleNamespace(players=players),
                              node=SimpleNamespace(connected={bytes([2]) * 32}))
    assert [NetLogMixin._linked(session, s) for s in range(4)] == [  # type: ignore[arg-type]
        False, False, True, False]


def test_thirty_void_votes_of_one_voter_against_one_player_are_one_line_a_minute() -> None:
    """The LAN re-check trial with a seated attacker: eve sent 30 votes to remove cyd, who was
    connected, each a new round; ann and cyd read 30 identical lines. The first is told, then at
    most one a minute per voters and player; another voter or player is told at once."""
    from types import SimpleNamespace

    from lancards.cli.net_log import tell_notices
    from lancards.cli.notice_lines import VoidVoteLimit

    now = [100.0]
    void = Notice("info", "the vote to remove cyd (seat 2) is void", 2, code="vote-void",
                  voters=(3,))

    def told(notices: list[Notice], seat: int = 0) -> list[str]:
        session = SimpleNamespace(core=SimpleNamespace(seat=seat), seat=seat,
                                  names=("ann", "bob", "cyd", "eve"), _log=[],
                                  node=SimpleNamespace(notices=list(notices)),
                                  _linked=lambda s: True, _void_votes=limit)
        tell_notices(session)
        assert session.node.notices == []
        return [line.text for line in session._log]

    limit = VoidVoteLimit(clock=lambda: now[0])
    assert told([void] * 30) == ["eve asked to remove cyd, who is here: nothing happens"]
    now[0] = 159.0
    assert told([void] * 5) == []
    other = Notice("info", void.text, 0, code="vote-void", voters=(3,))
    both = Notice("info", void.text, 2, code="vote-void", voters=(1, 3))
    assert told([other, both, Notice("chat", "hi", 3)]) == [
        "eve asked to remove you, but you are here: nothing happens",
        "bob and eve asked to remove cyd, who is here: nothing happens", "eve: hi"]
    now[0] = 160.0  # a minute after the first line
    assert told([void] * 3) == ["eve asked to remove cyd, who is here: nothing happens"]
    limit = VoidVoteLimit(clock=lambda: now[0])
    i18n.set_language("de")
    try:
        assert told([void] * 30, seat=2) == [
            "eve wollte dich vom Tisch entfernen lassen, doch du bist da: es passiert nichts"]
    finally:
        i18n.set_language("en")


def test_fourteen_old_messages_sent_again_are_one_line_a_minute() -> None:
    """The LAN trial with a seated attacker: eve sent 14 of her old messages again and ann's log
    read 14 lines "! message from eve [...] refused ...: received before: ...", which pushed the
    moves out of sight. A seat's refusals for one reason are told once, then at most once a
    minute; another reason or another sender is told at once; --verbose keeps every one."""
    import logging
    from types import SimpleNamespace

    from lancards.cli.net_log import tell_notices
    from lancards.cli.notice_lines import RefusalLimit
    from lancards.p2p.protocol.errors import MessageError, Reason

    now = [100.0]
    eve = "eve [6J4G-VXMG-NOVI-RZH4] (seat 2)"

    def refused(sender: str, reason: Reason, seq: int) -> Notice:
        error = MessageError(sender, reason, "chat: message 3, last 9", seq)
        return Notice("rejected", str(error), None, error=error)

    def told(notices: list[Notice]) -> list[str]:
        session = SimpleNamespace(core=SimpleNamespace(seat=0), seat=0, names=("ann", "eve"),
                                  _log=[], node=SimpleNamespace(notices=list(notices)),
                                  _linked=lambda s: True, _refusals=limit)
        tell_notices(session)
        return [line.text for line in session._log]

    limit = RefusalLimit(clock=lambda: now[0])
    replays = [refused(eve, Reason.REPLAYED, n) for n in range(14)]
    lines = told(replays)
    assert len(lines) == 1 and lines[0].startswith("! message from eve"), lines
    now[0] = 159.0
    assert told(replays[:3]) == []
    other = told([refused(eve, Reason.BAD_SIGNATURE, 20),
                  refused("bob [NI4A-HVPQ-LGIC-UHDN] (seat 3)", Reason.REPLAYED, 1)])
    assert len(other) == 2, other
    now[0] = 160.0  # a minute after the first line
    assert len(told(replays[:3])) == 1
    logger = logging.getLogger("lancards.net")
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        now[0] = 170.0
        assert told(replays[:5]) == []
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    assert len([s for s in seen if "rejected message from eve" in s]) >= 5  # --verbose: all
