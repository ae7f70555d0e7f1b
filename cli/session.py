"""What the terminal client talks to: one seat at one table, local or over the network.

The screens never touch the engine's transitions or the network directly: they read a
:class:`TableSnapshot` and call :meth:`Session.submit`. Two implementations exist: a local one
(engine and bots in this process, for tests of the screens) and the networked one (real peers,
mental poker, the signed record). Key handlers never wait on the network: ``submit`` checks the
action against the local engine at once (raising ``EngineError`` for a bad one) and queues it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from lancards.cli.i18n import N_
from lancards.engine.core import Game, Outcome, Seat

BannerKind = Literal["info", "waiting", "cheat", "error", "result", "again"]

REMOVED_WHILE_AWAY = N_("you were voted out while away; the game goes on without you")
"""What a seat removed by a vote (ruling D-5) while it was asleep or cut off reads when it
comes back and catches up with the record (issue 24, lids that close): ``--autoplay``'s line."""

REMOVED_BANNER = N_("you were voted out while away; watch the rest, or q to quit")
"""The table's banner for the same (within 80 columns with its "NOTE: " mark)."""


@dataclass(frozen=True, slots=True)
class Banner:
    """A line shown prominently above the table (a missing peer, a cheater, a result)."""

    kind: BannerKind
    text: str


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the table's log: a move told in words, a round marker, or a chat line.

    Attributes:
        text: the line as shown (``"Ada took your O3 (I'll take that!)"``; a chat line is
            ``"NAME: text"``; see :mod:`lancards.cli.tui.narrate`).
        seat: the seat that made the move or wrote the line (None: chance, the table).
        chat: a chat line.
        mark: a round marker (``"── round 2 · dealer Ada ──"``).
        index: the line's number in the whole game's log, from 1 (0: not numbered).
    """

    text: str
    seat: Seat | None = None
    chat: bool = False
    mark: bool = False
    index: int = 0


DEFAULT_NICK = "You"
"""The person's nickname when ``--name`` gives none (``lancards play``); kept as is in the
record, shown in the players' language (:func:`lancards.cli.tui.controller.shown_names`)."""


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """Everything a screen draws, at one moment.

    Attributes:
        game: the engine (``engine.level8.LEVEL8`` or ``engine.eights.EIGHTS``).
        rule_set: the rule-set name (``level8-master``...).
        seat: this client's seat.
        names: one nickname per seat (length = seat count).
        view: the engine state as this seat knows it (``game.view(state, seat)``).
        to_act: the seat to act, -1 for chance (a shuffle or deal under way), None when over.
        legal: this seat's legal actions now (empty when it is not this seat's move).
        log: the most recent log lines, oldest first.
        banners: banners to show, most important first.
        progress: a progress line while the deck is shuffled and proven
            (``"shuffle 3 of 6, verifying"``), else ``""``.
        outcome: the outcome once the game is over.
    """

    game: Game[Any, Any]
    rule_set: str
    seat: Seat
    names: tuple[str, ...]
    view: Any
    to_act: Seat | None
    legal: Sequence[Any]
    log: Sequence[LogLine] = ()
    banners: Sequence[Banner] = ()
    progress: str = ""
    outcome: Outcome | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class NewsMixin:
    """This machine's own news in a table's log (:meth:`tell`): what happens outside the table
    (its addresses changed) is told in the log while the table's screen runs, never printed
    over it (the trial of 2026-12-06: a host's "addresses changed" line garbled the screen).
    Mixed into :class:`lancards.cli.net_session.NetworkSession`."""

    _log: list[LogLine]

    def _changed(self) -> None:  # pragma: no cover - the session defines it
        raise NotImplementedError

    def tell(self, text: str) -> None:
        """Add ``text`` (in the player's language) to the log, as the table's, and redraw."""
        self._log.append(LogLine(text, None, index=len(self._log) + 1))
        self._changed()


class Session(Protocol):
    """One seat at one table."""

    def snapshot(self) -> TableSnapshot:
        """The current state of the table for drawing (cheap; called on every redraw)."""
        ...

    def submit(self, action: Any) -> None:
        """Play ``action`` for this seat.

        Raises:
            EngineError: the action is malformed or illegal now (nothing is sent).
        """
        ...

    def send_chat(self, text: str) -> None:
        """Send a chat line to the table (at most 200 characters are kept)."""
        ...

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the event loop) whenever the snapshot changes."""
        ...

    async def run(self) -> None:
        """Drive the session until the game is over or :meth:`close` is called."""
        ...

    async def close(self) -> None:
        """Leave the table (the game record stays on disk for ``lancards resume``)."""
        ...
