"""What the game screens share: the picker (a short list to choose from), messages, submitting.

A controller turns key names (``"left"``, ``"enter"``, ``"x"``...) into actions for the session
and draws its parts of the screen as prompt-toolkit formatted text. Controllers never wait:
``Session.submit`` returns at once, and an ``EngineError`` becomes the message line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import N_, _
from lancards.cli.session import DEFAULT_NICK, Session, TableSnapshot
from lancards.cli.tui.cards import card_style, strip_slots
from lancards.cli.tui.fit import plain, wrap_all
from lancards.cli.tui.hint_follow import hinted_index
from lancards.cli.tui.hint_memo import ShownHint, shown_hint
from lancards.cli.tui.narrate import move_label
from lancards.cli.tui.reasons import reason_words
from lancards.cli.tui.width import cut, text_width
from lancards.engine.core import EngineError
from lancards.p2p.protocol.errors import LocalProtocolError

WATCHING = N_("you are watching: no moves or chat here; q quits")
"""The message line of a watcher's table (``lancards watch``) for a key that would act."""

WATCH_HINTS = N_("watching: public cards only · PgUp/PgDn the log")
"""The hints line of a watcher's table."""

ANY_TURN = "any turn"
""":attr:`BaseController.said_turn` of a message that stays whoever is to act (the greeting)."""

UNTOLD = "untold"
""":attr:`BaseController.said_turn` of an own move sent but not yet told by the log."""

KeyHelp = tuple[str, str]
"""(keys, what they do) for the ``?`` screen."""

_PREFIX = re.compile(r"^(seat \d+: )?(illegal|malformed) '[^']*': ")
_RULINGS = re.compile(r"\(ruling ([\w-]+)\)(?: \(ruling ([\w-]+)\))+")


def short_error(text: str) -> str:
    """An engine error for the message line: without the repeated action notation (the
    screen shows the cards), without slot ids, and without ruling ids (``(ruling L8-4)
    (ruling L8-5)`` becomes ``(rulings L8-4, L8-5)``, which :func:`reason_words` leaves off:
    players read words)."""
    text = strip_slots(_PREFIX.sub("", text))
    return reason_words(_RULINGS.sub(lambda m: "(rulings " + ", ".join(
        re.findall(r"ruling ([\w-]+)", m.group(0))) + ")", text))


def gone_words(snap: TableSnapshot) -> dict[int, str]:
    """The seats that are no longer at the table, with what the players panel says of them:
    ``"left the table"`` (rulings D-1..D-4) or ``"removed by vote"`` (ruling D-5)."""
    removed = snap.extra.get("removed", ())
    return {seat: _("removed by vote") if seat in removed else _("left the table")
            for seat in snap.game.left_seats(snap.view)}


def title_line(parts: Sequence[str], turn: tuple[str, str], width: int = 0
               ) -> StyleAndTextTuples:
    """The top line: ``parts`` (the game's name first, then round, dealer...) joined by " · ",
    then whose turn it is. With ``width`` (columns, 0: any), the last parts are left out
    until the line fits, the game's name and the turn never (a long "YOUR TURN: ..." at 80
    columns otherwise wrapped onto a second line)."""
    kept = list(parts)
    while width and len(kept) > 1 and text_width(
            " " + " · ".join(kept) + " " + "  " + turn[1]) > width:
        kept.pop()
    return [("class:title", " " + " · ".join(kept) + " "), ("", "  "), turn]


LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
               "greedy": N_("greedy")}
"""The bot levels (``--bot-level`` values, ``docs/bots.md``) as the players panel says them:
translated (German ``leicht``, ``normal``, ``schwer``, ``gierig``); the option keeps its
English value."""


def bot_words(snap: TableSnapshot) -> dict[int, str]:
    """The bot seats whose level this machine knows (``snapshot().extra["bots"]``: its own bot
    peers, a host's ``--bots``, and every seat whose join said a bot plays it, from the signed
    start statement), with what the players panel says of them: ``"bot, normal"`` (German
    ``"Bot, schwer"``: :data:`LEVEL_WORDS`). A seat that said nothing gets nothing."""
    bots = snap.extra.get("bots") or {}
    return {int(seat): _("bot, {level}").format(
        level=_(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level)
            for seat, level in bots.items() if seat != snap.seat}


@dataclass
class Picker:
    """A list of choices shown above the hand: up/down and Enter, or the choice's number, pick;
    Esc cancels.

    Attributes:
        title: what is being chosen.
        labels: one line per choice.
        on_pick: called with the index chosen.
        index: the highlighted choice (open on the likely one).
        cancellable: whether Esc closes it (a choice the rules force cannot be cancelled).
        numbers: the number shown and typed for each choice (default 1, 2, 3...): a picker of
            things numbered on the table (combinations, seats) uses the table's numbers, so a
            person sees one numbering.
    """

    title: str
    labels: list[str]
    on_pick: Callable[[int], None]
    index: int = 0
    cancellable: bool = True
    numbers: list[int] = field(default_factory=list)
    typed: str = ""

    def __post_init__(self) -> None:
        if len(self.numbers) != len(self.labels):
            self.numbers = list(range(1, len(self.labels) + 1))

    def handle(self, key: str) -> bool | None:
        """Returns True when picked, False when cancelled, None to stay open.

        A digit picks the choice of that number at once when no longer number starts with
        the digits typed; otherwise (``1`` among choices 1 to 12, or combinations 10, 11...)
        it highlights the choice (or the first that starts with them) and waits for the next
        digit or Enter (the trial of 2026-12-06: ``1`` on the way to ``12`` discarded at once).
        """
        if key in ("up", "k"):
            self.index = (self.index - 1) % len(self.labels)
        elif key in ("down", "j"):
            self.index = (self.index + 1) % len(self.labels)
        elif key == "enter":
            self.on_pick(self.index)
            return True
        elif key.isdigit():
            typed = self.typed + key
            texts = [str(n) for n in self.numbers]
            if not any(t.startswith(typed) for t in texts):
                typed = key
            matches = [i for i, t in enumerate(texts) if t.startswith(typed)]
            self.typed = typed
            if not matches:
                self.typed = ""
                return None
            exact = [i for i in matches if texts[i] == typed]
            self.index = exact[0] if exact else matches[0]
            if exact and len(matches) == 1:
                self.typed = ""
                self.on_pick(self.index)
                return True
        elif key == "escape" and self.cancellable:
            return False
        return None

    def render(self, height: int, width: int = 0) -> StyleAndTextTuples:
        """The title and a window of choices around the highlight, in ``height`` rows: all
        choices when they fit, else as many as fit and a line saying so.

        With ``width`` (columns), the rows are counted as the panel wraps them
        (:func:`~lancards.cli.tui.fit.wrap_all`): a title or a choice longer than the width
        takes two rows or more, and the highlighted choice stays in view whatever the list's
        length (issue 25). Without it, every line is one row.
        """
        how = _("(its number, or up/down and Enter; Esc cancels)") if self.cancellable else \
            _("(its number, or up/down and Enter)")
        if self.typed:  # waiting for a second digit: the final trial of 2026-12-07 saw nothing
            how = _("({typed}_: Enter picks {typed}, or type the next digit)").format(
                typed=self.typed)
        title: StyleAndTextTuples = [("class:picker.title", f" {self.title} ")]
        head: StyleAndTextTuples = [*title, ("", f"  {how}")]
        number_w = len(str(max(self.numbers, default=1)))
        lines: list[StyleAndTextTuples] = []
        for i, label in enumerate(self.labels):
            mark = ">" if i == self.index else " "
            style = "class:picker.selected" if i == self.index else ""
            lines.append([(style, f" {mark} {self.numbers[i]:>{number_w}}. "),
                          *styled_cards(label, style)])

        def rows_of(line: StyleAndTextTuples) -> int:
            return len(wrap_all([line], width)) if width > 0 else 1

        costs = [rows_of(line) for line in lines]
        if rows_of(head) + sum(costs) > height and rows_of(head) > 1:
            # the hints wrap and the rows are few: the title alone, on one line (the key bar
            # under the hand says the same keys)
            head = [(title[0][0], cut(title[0][1], width))]
        n = len(lines)
        more = rows_of([("", " " + shown(n, n, n) + " ")])
        fits = rows_of(head) + sum(costs) <= height
        if not fits and rows_of(head) + more + costs[self.index] > height:
            head = []  # a panel of two or three rows: the highlight first, then the count
        more = more if fits or more + costs[self.index] <= height else 0
        start, end = self._window(costs, max(1, height - (rows_of(head) if head else 0)), more)
        out: StyleAndTextTuples = [*head, ("", "\n")] if head else []
        for line in lines[start:end]:
            out.extend([*line, ("", "\n")])
        if end - start < len(lines) and more:
            out.append(("class:more", " " + shown(n, start + 1, end) + " \n"))
        return out

    def _window(self, costs: Sequence[int], room: int, more: int) -> tuple[int, int]:
        """The choices ``[start, end)`` shown in ``room`` rows (each choice taking its
        ``costs`` rows): all when they fit, else the highlight and as many of its neighbours
        as fit with ``more`` rows left for the "N choices" line, the highlight near the
        middle."""
        if sum(costs) <= room:
            return 0, len(costs)
        room = max(costs[self.index], room - more)
        start, end = self.index, self.index + 1
        used = costs[self.index]
        below = True
        while True:
            grew = False
            for side in (below, not below):
                if side and end < len(costs) and used + costs[end] <= room:
                    used, end, grew = used + costs[end], end + 1, True
                    break
                if not side and start > 0 and used + costs[start - 1] <= room:
                    used, start, grew = used + costs[start - 1], start - 1, True
                    break
            if not grew:
                return start, end
            below = not below


def shown(count: int, first: int, last: int) -> str:
    """The picker's "N choices, A-B shown" line (translated)."""
    return _("{count} choices, {first}-{last} shown: up/down for the others").format(
        count=count, first=first, last=last)


def styled_cards(text: str, base: str = "") -> StyleAndTextTuples:
    """Fragments of ``text`` with every card-like word in its colour style, its ruling
    references dropped first (:func:`~lancards.cli.tui.fit.plain`: split into words, a
    ``(ruling E-5)`` would no longer be found by the wrapping that drops the others)."""
    out: StyleAndTextTuples = []
    for index, word in enumerate(plain(text).split(" ")):
        if index:
            out.append((base, " "))
        core = word.rstrip(",;:)").lstrip("([")
        if core and _looks_like_card(core):
            head = word[: word.index(core)]
            tail = word[word.index(core) + len(core):]
            out.extend([(base, head), (f"{base} {card_style(core)}", core), (base, tail)])
        else:
            out.append((base, word))
    return out


def _looks_like_card(word: str) -> bool:
    if word in ("TAKE", "SWAP", "KEEP", "SKIP"):
        return True
    if word.startswith("J") and (word == "J" or word[1:2].isdigit() or word[1:2] == "="):
        return True
    return len(word) >= 2 and word[0] in "ROYGBP" and word[1:].split("=")[0].isdigit()


@dataclass
class BaseController:
    """State shared by the game controllers.

    Attributes:
        session: the seat's session.
        message: the last message (an engine error, a hint); shown on the status line.
        error: whether ``message`` is an error.
        picker: the open picker, if any.
    """

    session: Session
    message: str = ""
    error: bool = False
    picker: Picker | None = None
    marks: set[int] = field(default_factory=set)

    own_after: int | None = None
    said_round: Any = None
    """The round the message was said in (``view.round``): it is not shown in a later one."""
    said_turn: Any = None
    """The seat to act when the message was said (``to_act``; for an own move, once the log
    tells it): the message goes once another seat is to act (:meth:`state_changed`).
    :data:`ANY_TURN`: it stays whoever acts (the greeting); :data:`UNTOLD`: an own move the log
    does not tell yet."""
    _hint: ShownHint | None = None
    """The last hint (:mod:`~lancards.cli.tui.hint_memo`): kept for its view and what its
    words depend on (the builder, the hand's order); its move opens a Skip's picker on the
    hint's seat (:meth:`hinted`)."""
    hint_due: bool = False
    _after_told: str = ""
    """:meth:`told_words` of the own move sent last: said once the log tells it."""
    """``h`` was pressed while this seat's cards were arriving: the hint follows."""
    pending_said: bool = False
    """The message says this seat's move is pending (:meth:`say_not_now` on its own turn): it
    goes the moment the move can be made (:meth:`state_changed`)."""
    goal_help: ClassVar[str] = N_("the full text of the current level card / round objective")
    """What ``o`` shows at this game's table, for the ``?`` list (each game says its own)."""
    hold: Callable[[], bool] = lambda: False
    """Whether a move this client makes by itself waits (the screen's panel or dialog covers
    the table: :mod:`~lancards.cli.tui.skipped_turn`)."""

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the message line."""
        self.message, self.error = text, error
        self.own_after = None
        self.pending_said = False
        snap = self.session.snapshot()
        self.said_round = getattr(snap.view, "round", None)
        self.said_turn = snap.to_act

    def say_not_now(self, snap: TableSnapshot) -> None:
        """Say why a move key does nothing now (:func:`not_now`, an error)."""
        self.say(not_now(snap), error=True)
        self.pending_said = snap.to_act == snap.seat  # "your move is pending: ..."

    def greet(self, text: str) -> None:
        """Show ``text`` (if any) until this seat's first move or the next message, whatever
        the round: a networked table greets while its deck is shuffled (round 0)."""
        if text:
            self.say(text)
            self.said_round = None
            self.said_turn = ANY_TURN

    def shown_message(self, snap: TableSnapshot) -> str:
        """What the message line shows now: the message, or nothing once the log tells this
        seat's last move (:meth:`own_move`: the log, brought to its end by an own move, says
        it just above; the re-check trial of issue 26 read the same line twice at the host's
        table) or once the round it was said in is over (a new user read round 1's last words
        at the start of round 2). "Your move is pending: waiting for ..." is said anew each
        time, its seconds counting on with the ``WAITING`` line's (they stayed at the key's
        moment: the re-check trial of 2026-12-07)."""
        if self.said_round is not None and getattr(snap.view, "round", None) != self.said_round:
            return ""
        if self.pending_said and snap.to_act == snap.seat and snap.extra.get("waiting"):
            return not_now(snap)
        return "" if self.own_move(snap) else self.message

    def submit(self, action: Any) -> bool:
        """Submit ``action``; an ``EngineError`` or ``LocalProtocolError`` (the table halted,
        or it is catching up after a pause) becomes the (error) message. True if sent.

        Once sent, the message line says ``sent: ...`` until the session logs the move (a
        networked table tells it once every peer has it); then the log says it ("You drew P9
        from the draw pile") and the message line nothing (see :meth:`_told`).
        """
        before = self.session.snapshot()
        log = before.log
        after = log[-1].index if log else 0
        try:
            self.session.submit(action)
        except (EngineError, LocalProtocolError) as exc:  # illegal; halted, catching up
            from lancards.cli.peer_errors import error_words

            self.say(short_error(error_words(exc)), error=True)
            return False
        text = strip_slots(str(action)).split(": ", 1)[-1]
        self.say(_("sent: {move}").format(move=text.removeprefix("play ")))
        self.own_after = after
        self.said_round = getattr(before.view, "round", None)  # the move may have ended it
        self.said_turn = UNTOLD
        self._after_told = self.told_words(action)
        self._told(self.session.snapshot())  # a local session tells it at once
        self.marks.clear()
        return True

    def _told(self, snap: TableSnapshot) -> None:
        """Once the log tells this seat's last move, the message line's ``sent: ...`` goes: the
        log says the move (:meth:`shown_message`); :meth:`told_words`, if any, follow."""
        if self.said_turn == UNTOLD and self.own_move(snap):
            self.say(self._after_told)

    def told_words(self, action: Any) -> str:
        """What the message line says once the log tells this seat's ``action``: nothing (the
        log says the move), but Level 8 says what a discarded Skip does
        (:mod:`~lancards.cli.tui.skip_discard`)."""
        return ""

    def close(self) -> None:
        """The screen closed: a move waiting to be made by itself is not made."""

    def own_move(self, snap: TableSnapshot) -> str:
        """The log's words for this seat's last submitted move, once logged, else ``""``."""
        if self.own_after is None or self.error:
            return ""
        for line in snap.log:
            if line.index > self.own_after and line.seat == snap.seat and not line.chat:
                return str(line.text)
        return ""

    def state_changed(self, snap: TableSnapshot) -> None:
        """The turn or phase changed: a hint about the earlier state is stale, so it goes; any
        other message (an error too) goes once another seat is to act than when it was said
        (:attr:`said_turn`; the new-user trial read what it had done two turns ago). Said on
        this seat's turn, it stays for that turn; an own move's words stay while the seat
        after it acts; an error also goes at the next key (:class:`~.app.TableScreen`), and "your
        move is pending" the moment the move can be made (the shares of a player who paused came
        after its return: the seat's turn goes on). A hint asked for while this seat's cards
        were arriving is answered once they are here."""
        if self.hint_due:
            if snap.to_act != snap.seat:
                self.hint_due = False
            elif not cards_arriving(snap):
                self._answer_hint(snap)
                return
        if self._hint is not None and self.message == self._hint.line:
            self.say("")
            return
        if self.pending_said and not cards_arriving(snap):  # the shares came: it is gone
            self.say("")  # (a LAN trial read it after the draw went through, a key later)
            return
        self._told(snap)
        if self.said_turn not in (ANY_TURN, UNTOLD) and snap.to_act != self.said_turn:
            self.say("")

    def show_hint(self, snap: TableSnapshot) -> None:
        """``h``: the hint's one line on the message line (:mod:`lancards.cli.tui.hint`);
        never played; the cursor goes to the card it names. The line is kept for the view it
        was computed for and what its words depend on (:func:`~.hint_memo.shown_hint`: the
        hand re-sorted, it is said anew in the new order), so pressing ``h`` again costs
        nothing. On this seat's move while its
        cards are still arriving (a networked table deals them), the line says so and the
        hint follows once they are here (:meth:`state_changed`): the trial's ``h`` was lost."""
        if snap.extra.get("watching"):
            self.say(WATCHING)
            return
        if cards_arriving(snap):
            self.hint_due = True
            self.say(_("hint: your cards are still arriving; it follows once they are here"))
            return
        self._answer_hint(snap)

    def _answer_hint(self, snap: TableSnapshot) -> None:
        self.hint_due = False
        builder = self.builder_open()  # the lay-down hint names the builder's keys there
        ready = builder and self.builder_ready(snap)  # ... or Enter, when it holds a level
        self._hint = shown_hint(snap, self._hint, builder, ready, self.shown_slots(snap))
        self.say(self._hint.line)
        if self._hint.slot is not None:
            self.point_at(snap, self._hint.slot)
        self.follow_hint(snap, self._hint.move)

    def follow_hint(self, snap: TableSnapshot, move: Any) -> None:
        """After ``h``: make the keys that follow land on the hinted ``move``
        (:mod:`~lancards.cli.tui.hint_follow`; Level 8 marks the cards a show names)."""

    def hinted(self, snap: TableSnapshot) -> Any:
        """The move of the hint shown for this view, if any (None: no hint asked)."""
        return self._hint.move if self._hint is not None and self._hint.view is snap.view \
            else None

    def shown_slots(self, snap: TableSnapshot) -> list[Any]:
        """The own hand's slots in the order the screen shows them (Level 8): the hint names
        the cards it shows in that order."""
        return []

    def builder_open(self) -> bool:
        """Whether a lay-down builder is open (Level 8): the hint names its keys."""
        return False

    def builder_ready(self, snap: TableSnapshot) -> bool:
        """Whether the open lay-down builder holds a whole level that Enter lays down."""
        return False

    def point_at(self, snap: TableSnapshot, slot: Any) -> None:
        """Put the cursor on the own card in ``slot``, if the hand holds it (the hint's card:
        the trial pressed x after ``discard G8`` and discarded the card under the cursor)."""

    def objective(self, snap: TableSnapshot) -> list[str]:
        """The full text of what is played for now (the ``o`` panel)."""
        return []

    def open_picker(self, title: str, labels: Sequence[str], on_pick: Callable[[int], None],
                    cancellable: bool = True, start: int = 0) -> None:
        """Open a picker (see :class:`Picker`) on choice ``start``."""
        self.picker = Picker(title, list(labels), on_pick, start, cancellable)

    def open_numbered(self, title: str, labels: Sequence[str], numbers: Sequence[int],
                      on_pick: Callable[[int], None], start: int = 0) -> None:
        """Open a picker whose choices carry the table's own numbers (see :class:`Picker`)."""
        self.picker = Picker(title, list(labels), on_pick, start, True, list(numbers))

    def menu_of_moves(self, snap: TableSnapshot) -> None:
        """Open a picker of every legal move in notation (the fallback for any situation)."""
        legal = list(snap.legal)
        if not legal:
            self.say(_("you have no move now"), error=True)
            return
        labels = [move_label(snap.game.name, snap.view, a, snap.names, snap.seat)
                  for a in legal]
        # on the hint's move after h, as the other lists (a new-user trial read "hint: discard
        # Y2", pressed m and read "> 1. discard R3")
        self.open_picker(_("every legal move"), labels, lambda i: self._submit_later(legal[i]),
                         start=hinted_index(self.hinted(snap), legal))

    def _submit_later(self, action: Any) -> None:
        self.submit(action)

    def handle_picker(self, key: str) -> bool:
        """Give ``key`` to the open picker; True if it took the key."""
        if self.picker is None:
            return False
        picker = self.picker
        result = picker.handle(key)
        if result is not None and self.picker is picker:
            self.picker = None
        return True


def name_of(snap: TableSnapshot, seat: int) -> str:
    """The nickname of ``seat``, ``"you"``-marked for the own seat."""
    name = snap.names[seat]
    return _("{name} (you)").format(name=name) if seat == snap.seat and name != _(
        DEFAULT_NICK) and not name.lower().startswith("you") else name


def shown_names(names: Sequence[str], seat: int) -> tuple[str, ...]:
    """The nicknames as the screens show them: the person's own seat ``seat`` under the
    default nickname :data:`DEFAULT_NICK` in the players' language ("Du"), every other name as
    chosen (a nickname is never translated; the record keeps the chosen one). Shape: one name
    a seat, ``len(names)``."""
    return tuple(_(DEFAULT_NICK) if s == seat and name == DEFAULT_NICK else name
                 for s, name in enumerate(names))


def verb_for(name: str, singular: str, plural: str) -> str:
    """``"Ada leads"`` but ``"You lead"``: the verb agreeing with ``name``."""
    return f"{name} {plural if name == DEFAULT_NICK else singular}"


def not_now(snap: TableSnapshot) -> str:
    """Why a move key does nothing now, naming the peer the table waits for."""
    waiting = snap.extra.get("waiting")
    if snap.extra.get("watching"):
        return _(WATCHING)
    if snap.to_act == snap.seat:
        return _("your move is pending: {reason}").format(reason=waiting) if waiting else \
            _("your move is pending: a card you drew is still being revealed")
    if waiting:
        return _("not your move: {reason}").format(reason=waiting)
    if snap.to_act is None or snap.to_act < 0:
        return _("not your move: waiting for nobody")
    return _("not your move: waiting for {name}").format(name=snap.names[snap.to_act])


def watch_hand(snap: TableSnapshot) -> StyleAndTextTuples:
    """The hand panel of a watcher (``lancards watch``): nobody's hand, whose turn."""
    who = snap.names[snap.to_act] if snap.to_act is not None and snap.to_act >= 0 else None
    # in the player's language: it was English on a German screen (found 2026-12-06)
    turn = _("{name} to move").format(name=who) if who else _("the deck at work")
    if snap.to_act is None:  # the LAN trial's watcher of a halted table read "eve to move"
        stopped = any(b.kind == "cheat" for b in getattr(snap, "banners", ()))
        turn = _("game stopped") if stopped else _("game over")
    return [("class:header", " " + _("watching: no seat, the public cards only") + "\n"),
            ("class:dim", "  " + _("{turn}; q quits").format(turn=turn) + "\n")]


def cards_arriving(snap: TableSnapshot) -> bool:
    """Whether it is this seat's move while cards of its hand are still hidden from it (a
    networked table's deal: ``your hand (0 cards + 15 pending)``) or its moves are not known
    yet."""
    return snap.to_act == snap.seat and (int(snap.extra.get("pending", 0)) > 0 or not snap.legal)


def pending_text(snap: TableSnapshot) -> str:
    """``" + 1 pending"`` while cards of the hand are still hidden from this seat."""
    pending = int(snap.extra.get("pending", 0))
    return " + " + _("{count} pending").format(count=pending) if pending else ""
