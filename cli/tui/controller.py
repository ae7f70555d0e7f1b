"""What the game screens share: the picker (a short list to choose from), messages, submitting.

A controller turns key names (``"left"``, ``"enter"``, ``"x"``...) into actions for the session
and draws its parts of the screen as prompt-toolkit formatted text. Controllers never wait:
``Session.submit`` returns at once, and an ``EngineError`` becomes the message line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.session import Session, TableSnapshot
from lancards.cli.tui.cards import card_style, strip_slots
from lancards.engine.core import EngineError

KeyHelp = tuple[str, str]
"""(keys, what they do) for the ``?`` screen."""


@dataclass
class Picker:
    """A list of choices shown above the hand: up/down (or 1-9) and Enter pick, Esc cancels.

    Attributes:
        title: what is being chosen.
        labels: one line per choice.
        on_pick: called with the index chosen.
        index: the highlighted choice.
        cancellable: whether Esc closes it (a choice the rules force cannot be cancelled).
    """

    title: str
    labels: list[str]
    on_pick: Callable[[int], None]
    index: int = 0
    cancellable: bool = True

    def handle(self, key: str) -> bool | None:
        """Returns True when picked, False when cancelled, None to stay open."""
        if key in ("up", "k"):
            self.index = (self.index - 1) % len(self.labels)
        elif key in ("down", "j"):
            self.index = (self.index + 1) % len(self.labels)
        elif key == "enter":
            self.on_pick(self.index)
            return True
        elif key.isdigit() and 1 <= int(key) <= min(9, len(self.labels)):
            self.index = int(key) - 1
            self.on_pick(self.index)
            return True
        elif key == "escape" and self.cancellable:
            return False
        return None

    def render(self, height: int) -> StyleAndTextTuples:
        """The title and a window of at most ``height - 1`` choices around the highlight."""
        rows = max(1, height - 1)
        start = min(max(0, self.index - rows // 2), max(0, len(self.labels) - rows))
        out: StyleAndTextTuples = [("class:picker.title", f" {self.title} "),
                                   ("", "  (up/down, 1-9, Enter; Esc cancels)\n")]
        for i in range(start, min(len(self.labels), start + rows)):
            mark = ">" if i == self.index else " "
            style = "class:picker.selected" if i == self.index else ""
            number = f"{i + 1}." if i < 9 else "  "
            out.append((style, f" {mark} {number} "))
            out.extend(styled_cards(self.labels[i], style))
            out.append(("", "\n"))
        return out


def styled_cards(text: str, base: str = "") -> StyleAndTextTuples:
    """Fragments of ``text`` with every card-like word in its colour style."""
    out: StyleAndTextTuples = []
    for index, word in enumerate(text.split(" ")):
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

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the message line."""
        self.message, self.error = text, error

    def submit(self, action: Any) -> bool:
        """Submit ``action``; an ``EngineError`` becomes the (error) message. True if sent."""
        try:
            self.session.submit(action)
        except EngineError as exc:
            self.say(str(exc), error=True)
            return False
        text = strip_slots(str(action)).split(": ", 1)[-1]
        self.say(f"you played {text.removeprefix('play ')}")
        self.marks.clear()
        return True

    def open_picker(self, title: str, labels: Sequence[str], on_pick: Callable[[int], None],
                    cancellable: bool = True) -> None:
        """Open a picker (see :class:`Picker`)."""
        self.picker = Picker(title, list(labels), on_pick, 0, cancellable)

    def menu_of_moves(self, snap: TableSnapshot) -> None:
        """Open a picker of every legal move in notation (the fallback for any situation)."""
        legal = list(snap.legal)
        if not legal:
            self.say("you have no move now", error=True)
            return
        labels = [strip_slots(str(a)).split(": ", 1)[-1] for a in legal]
        self.open_picker("every legal move", labels, lambda i: self._submit_later(legal[i]))

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
    return f"{name} (you)" if seat == snap.seat and not name.lower().startswith("you") else name

def not_now(snap: TableSnapshot) -> str:
    """Why a move key does nothing now, naming the peer the table waits for."""
    waiting = snap.extra.get("waiting")
    if snap.to_act == snap.seat:
        return f"your move is pending: {waiting}" if waiting else \
            "your move is pending: a card you drew is still being revealed"
    if waiting:
        return f"not your move: {waiting}"
    who = "nobody" if snap.to_act is None or snap.to_act < 0 else snap.names[snap.to_act]
    return f"not your move: waiting for {who}"


def pending_text(snap: TableSnapshot) -> str:
    """``" + 1 pending"`` while cards of the hand are still hidden from this seat."""
    pending = int(snap.extra.get("pending", 0))
    return f" + {pending} pending" if pending else ""
