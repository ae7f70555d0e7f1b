"""The table's log of a networked session in words: each new record entry told from this
seat's view just before it, round marks, the card turned face up, notices and chat, kept in
``log.jsonl`` (:mod:`lancards.cli.saved_log`) and read back by a restored session. Mixed into
:class:`lancards.cli.net_session.NetworkSession`."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from lancards.cli.i18n import _, in_each_language, language
from lancards.cli.notice_lines import RefusalLimit, VoidVoteLimit, notice_line
from lancards.cli.play_again import series_words
from lancards.cli.saved_log import SavedLog, told_this_round
from lancards.cli.session import LogLine
from lancards.cli.table_language import remember
from lancards.cli.tui.controller import shown_names
from lancards.cli.tui.narrate import (
    ROUND_MARK,
    card_name,
    drew_from_pile,
    face_up_words,
    narrate,
    redealt,
    round_marker,
    scored_lines,
)
from lancards.cli.tui.narrate_batch import Replay
from lancards.cli.tui.narrate_take import drew_in_its_place
from lancards.engine.core import Leave


def removal_ends(entries: Any, seq: int) -> bool:
    """Whether ``entries[seq]`` (a record's entries) is the last ``rescue`` entry of a removal
    (ruling D-5), after which the seat is gone as after a leave: the removal's first entry
    carries one vote of every remaining seat, and each of them appends one rescue entry about
    the seat, one after the other (``docs/protocol.md`` 11.10)."""
    payload = entries[seq].payload
    if payload.get("t") != "rescue":
        return False
    for first in range(seq, max(-1, seq - 8), -1):
        head = entries[first].payload
        if head.get("t") != "rescue" or head.get("seat") != payload.get("seat"):
            return False
        votes = head.get("votes")
        if votes:
            return isinstance(votes, list) and len(votes) == seq - first + 1
    return False


def add_said(session: Any, said: dict[str, list[str]], seat: int | None = None, *,
             chat: bool = False, mark: bool | None = None) -> list[str]:
    """Append the lines ``said`` (by language, :func:`in_each_language`) to ``session``'s
    log in its language, each line's words in every language kept by its saved log
    (``session._saved``, when it has one); returns them. ``mark`` None: the lines that start
    with :data:`ROUND_MARK` are round marks."""
    log, saved = session._log, getattr(session, "_saved", None)
    lines = said[language()]
    for k, text in enumerate(lines):
        index = len(log) + 1
        log.append(LogLine(text, seat, chat, text.startswith(ROUND_MARK)
                           if mark is None else mark, index))
        if saved is not None:
            saved.say(index, {code: words[k] for code, words in said.items() if k < len(words)})
    return lines


def say_lines(session: Any, say: Callable[[], list[str]], seat: int | None = None, *,
              chat: bool = False, mark: bool | None = None) -> list[str]:
    """Append the lines ``say()`` gives (in the session's language) to ``session``'s log,
    kept in every language for a resume in another (:func:`add_said`,
    :mod:`lancards.cli.saved_log`); returns them."""
    return add_said(session, in_each_language(say), seat, chat=chat, mark=mark)


def tell_notices(session: Any) -> None:
    """A session's node notices as log lines (:func:`notice_line`; ``session``: a
    :class:`NetLogMixin`), a void vote against a player who is here at most once a minute per
    voters and player (:class:`VoidVoteLimit`), a seat's refused messages at most once a
    minute per sender and reason (:class:`RefusalLimit`)."""
    limit = getattr(session, "_void_votes", None)
    if limit is None:
        limit = session._void_votes = VoidVoteLimit()
    refusals = getattr(session, "_refusals", None)
    if refusals is None:
        refusals = session._refusals = RefusalLimit()
    for notice in session.node.notices:
        def say(notice: Any = notice) -> list[str]:
            text = notice_line(session.core, notice, session.names,
                               shown_names(session.names, session.seat), here=session._linked)
            return [] if text is None else [text]
        said = in_each_language(say)
        if said[language()] and limit.tell(notice) and refusals.tell(notice):
            add_said(session, said, notice.seat, chat=notice.kind == "chat", mark=False)
    session.node.notices.clear()


def removed(gone: int, names: tuple[str, ...], seat: int) -> list[str]:
    """The line of seat ``gone`` removed by the others' votes (ruling D-5), read by ``seat``."""
    if gone == seat:
        return [_("You were removed from the table by the others' votes (no answer for the "
                  "table's patience)")]
    return [_("{name} was removed from the table by the others' votes (no answer for the "
              "table's patience)").format(name=names[gone])]


def left(who: int, names: tuple[str, ...], seat: int) -> list[str]:
    """The line of seat ``who`` leaving the table, read by ``seat``."""
    return [_("{who} left the table").format(who=_("You") if who == seat else names[who])]


class NetLogMixin:
    """The log of :class:`~lancards.cli.net_session.NetworkSession` (its attributes:
    ``node``, ``core``, ``game``, ``names``, ``seat``, ``series``)."""

    node: Any
    core: Any
    game: Any
    names: tuple[str, ...]
    seat: int
    series: list[str]
    evening_before: tuple[dict[str, Any], ...]
    _log: list[LogLine]
    _logged: int

    def _start_log(self) -> None:
        """The log a session begins with: a restored one's as it was told before (issue 25),
        else a rematch's lines."""
        store = self.node.store
        self._saved = SavedLog(None if store is None else store.folder)
        if store is not None:
            remember(store.folder)  # lancards resume goes on in this language
        if len(self.core.record):  # restored: the log as it was told before (issue 25)
            self._log, self._logged = self._saved.load(len(self.core.record))
            marks = [m for line in self._log if line.mark
                     for m in re.findall(r"\d+", line.text)[:1]]  # in any language
            self._log_round = int(marks[-1]) if marks else 0
        else:
            self._log = []
            say_lines(self, lambda: series_words(self.core.table, self.game.name,
                                                 self.core.me.public_key,
                                                 self.evening_before), mark=True)


    def _linked(self, seat: int) -> bool:
        """Whether this peer's link to ``seat`` is up (``seat`` is here)."""
        return self.core.players[seat].public_key in self.node.connected

    @staticmethod
    def _drew(card: str | None = None) -> str:
        return drew_from_pile(_("You"), card)

    def _update_log(self) -> None:
        """Tell the new record entries in words (:mod:`lancards.cli.tui.narrate`), chat lines
        with their author; each move from this peer's view just before it (:class:`Replay`
        when several arrived since the last call: a trick taken in a batch is told in place)."""
        entries = self.core.record.entries
        ends = {id(entries[i]) for i in range(self._logged, len(entries))
                if removal_ends(entries, i)}  # (by identity: the entries of one record)
        new = [e for e in entries[self._logged:]
               if e.payload.get("t") in ("action", "leave") or id(e) in ends
               or (e.payload.get("t") == "rescue" and e.payload.get("votes"))]
        last = getattr(self, "_log_view", None)  # this seat's view when the log was told
        after = self.core.state
        moves = sum(1 for e in new if e.payload.get("t") != "rescue" or e.payload.get("votes"))
        replay, first = Replay(self.game, last, after, moves), len(self._log)
        again: list[int] = []  # saved lines completed since
        pending = getattr(self, "_log_pending", None)  # an own draw whose card was unknown
        if pending is not None:
            at, old_slots, tell = pending
            drawn = [s for s in after.hands[self.seat] if s not in old_slots]
            card = after.cards.get(drawn[0]) if drawn else None
            if card is not None:
                line = self._log[at]
                said = in_each_language(lambda: [tell(card_name(card))])
                text = said[language()][0]
                self._log[at] = LogLine(text, line.seat, line.chat, line.mark, line.index)
                self._saved.say(line.index, {code: w[0] for code, w in said.items()})
                self._log_pending = None
                again.append(at + 1)
        for entry in new:
            seat = self.core.seat_of(entry.author)
            if entry.payload.get("t") == "rescue":  # the first of a removal: every vote in
                gone = entry.payload.get("seat")
                known = isinstance(gone, int) and 0 <= gone < len(self.names)
                if entry.payload.get("votes"):
                    replay.lost()
                if entry.payload.get("votes") and known:
                    say_lines(self, partial(removed, int(gone), self.names, self.seat), mark=False)
                if id(entry) in ends and known:  # its last entry: gone, as after a leave
                    say_lines(self, partial(redealt, self.game, after, self.core.state,
                                            int(gone), self.names, self.seat))
                continue
            if entry.payload.get("t") == "leave" and seat is not None:
                replay.views(Leave(seat))
                say_lines(self, partial(left, seat, self.names, self.seat), seat, mark=False)
                say_lines(self, partial(redealt, self.game, after, self.core.state, seat,
                                        self.names, self.seat))
                continue
            try:
                action = self.game.parse_action(str(entry.payload["a"]))
                before, now = replay.views(action)
                said = in_each_language(partial(narrate, self.game.name, before, action, now,
                                                self.names, self.seat))
            except Exception:  # never lose a log line to a wording problem
                before, said = None, {language(): [str(entry.payload["a"])]}
            for k, text in enumerate(said[language()]):
                tell = next((f for f in (self._drew, drew_in_its_place) if text == f()), None)
                if tell is not None and before is not None:
                    self._log_pending = (len(self._log) + k, before.hands[self.seat], tell)
            add_said(self, said, seat)
        # rounds scored after the last move told with its view: by an opening (E-5), or untold
        say_lines(self, lambda: scored_lines(getattr(self.game, "name", ""), replay.told,
                                             after, self.names, self.seat), mark=False)
        number = getattr(after, "round", 0)
        if number >= 1 and number != getattr(self, "_log_round", 0):
            self._log_round = number  # a new round: marked even when its moves came in a batch
            marked = " " + _("round {number}").format(number=number)
            if not any(line.mark and marked in line.text for line in self._log[max(0, first - 8):]):
                dealer = getattr(after, "dealer", -1)

                def marker() -> list[str]:
                    shown = (*shown_names(self.names, self.seat), "")  # [-1]: no dealer
                    return [round_marker(number, shown[dealer], dealer == self.seat)]
                say_lines(self, marker, mark=True)
        said = in_each_language(lambda: [face_up_words(getattr(self.game, "name", ""), after,
                                                       self.names, self.seat)])
        face_up = said[language()][0]
        if face_up and getattr(self, "_face_up_round", 0) != number and \
                not told_this_round(self._log, face_up):  # once a round, once after a resume
            self._face_up_round = number
            add_said(self, said, mark=False)
        self._log_view = after
        self._logged = len(entries)
        tell_notices(self)
        self._saved.save(self._log, self._logged, again)
