"""A :class:`lancards.cli.session.Session` in one process: the engine, a seeded chance and bots.

The engine holds the full state (every identity); chance comes from
:class:`lancards.cli.driver.SeededChance`; every seat but the player's is played by the game's
standard bot (``game.bot()``) through the one bot driver, :func:`lancards.p2p.net.node.drive_bot`,
woken by the table's changes and paced per turn (:mod:`lancards.cli.pacing`: one pause before
a bot's turn, none for the steps within it or out of turn) so a person can follow. The
screens see only ``game.view(state, seat)``, exactly as with the networked session. Used by the
screen tests and by ``lancards play --local`` (and, until the networked session lands, by every
``lancards play``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lancards.cli.bot_choice import seat_levels
from lancards.cli.driver import SeededChance
from lancards.cli.i18n import _
from lancards.cli.pacing import DEFAULT_DELAY, BotPacer
from lancards.cli.session import Banner, LogLine, TableSnapshot
from lancards.cli.tui.controller import shown_names
from lancards.cli.tui.narrate import ROUND_MARK, face_up_words, narrate
from lancards.engine.core import (
    CHANCE,
    Bot,
    EngineError,
    IllegalActionError,
    Leave,
    Seat,
)
from lancards.engine.options import OptionValue, RuleSetSpec
from lancards.engine.rulesets import REFERENCE_BOT_LEVEL, make_bot
from lancards.engine.rulesets import rule_set as get_rule_set
from lancards.p2p.net.node import drive_bot

LOG_KEEP = 20_000
"""How many log lines a snapshot carries (the most recent; a whole game fits)."""

CHAT_MAX = 200
"""Characters of a chat line that are kept (``Session.send_chat``)."""

BOT_NAMES: tuple[str, ...] = ("Ada", "Bram", "Cleo", "Dov", "Edda", "Fay")
"""Default nicknames of the bot seats, in seat order skipping the player's seat: those of the
networked ``lancards play`` (``net_session.BOT_NICKS``), and one more for a player who took one
of them."""


def default_names(n_seats: int, seat: Seat, name: str) -> tuple[str, ...]:
    """``name`` at ``seat`` and a bot nickname at every other seat (length ``n_seats``). The
    players panel says which seats are bots, and at what level (``bot, normal``), so the names
    carry no ``(bot)`` (the trial of 2026-12-05 read ``Ada (bot)`` beside ``bot, normal``)."""
    bots = iter(n for n in BOT_NAMES if n != name)
    return tuple(name if s == seat else next(bots) for s in range(n_seats))


class LocalSession:
    """One seat at a table whose other seats are bots, all in this process.

    Args:
        rule_set: a rule-set name (``level8-master``, ``level8``, ``level8-en``, ``eights``).
        options: rule options (``--option`` values, file options already read as text).
        seat: the player's seat, 0-based.
        names: one nickname per seat; its length is the seat count. ``None``: the player is
            ``"You"`` and ``bots + 1`` seats are named from :data:`BOT_NAMES`.
        bots: how many bot seats (the seat count is ``bots + 1``); ignored when ``names`` is
            given.
        seed: seed of the chance generator (deals, shuffles, first dealer).
        bot_delay: seconds a bot waits before its turn in :meth:`run` (0 in tests;
            :class:`lancards.cli.pacing.BotPacer`); :attr:`bot_delay` may be changed while
            the table runs.
        state: start from this full-knowledge state instead of a new game (tests build exact
            positions); its seat count must match.
        autoplay: the player's seat is played by a bot as well (``lancards play --autoplay``).
        bot_level: the level of every bot (``docs/bots.md``; default the reference
            ``greedy``, ``lancards play`` asks for ``normal``); each bot's randomness is its own
            ``random.Random`` seeded from ``seed`` and its seat, never the deal's.
        bot_levels: the level of each other seat, in the order they play after ``seat``
            (``lancards play --bot-level easy,hard,normal``); ``bot_level`` is then the level
            of the player's own seat under ``autoplay`` only.

    Raises:
        RulesError: an unknown rule set, option or value, or a seat count the game does not
            allow.
        EngineError: ``seat`` is not a seat of the table, or ``state`` has another seat count.
    """

    def __init__(
        self,
        rule_set: str,
        options: Mapping[str, OptionValue] | None = None,
        seat: Seat = 0,
        names: Sequence[str] | None = None,
        bots: int = 3,
        seed: int = 0,
        bot_delay: float = DEFAULT_DELAY,
        *,
        state: Any = None,
        autoplay: bool = False,
        bot_level: str = REFERENCE_BOT_LEVEL,
        bot_levels: Sequence[str] | None = None,
    ) -> None:
        self.spec: RuleSetSpec = get_rule_set(rule_set)
        self.game = self.spec.game
        n_seats = len(names) if names is not None else bots + 1
        if not 0 <= seat < n_seats:
            raise EngineError(f"seat {seat} is not a seat of a table of {n_seats}")
        self.seat = seat
        self.names = tuple(names) if names is not None else default_names(n_seats, seat, "You")
        self.pacer = BotPacer(bot_delay)
        self.chance = SeededChance(seed)
        if state is None:
            state = self.game.new_game(self.spec.make_rules(dict(options or {})), n_seats)
        elif getattr(state, "n", n_seats) != n_seats:
            raise EngineError(f"the given state has {state.n} seats, the names {n_seats}")
        self.state: Any = state
        self.bot_level = bot_level
        self.levels = seat_levels(n_seats, seat, bot_levels or [bot_level] * (n_seats - 1))
        """Seat -> level of every other seat (a bot)."""
        self.bots: dict[Seat, Bot[Any, Any]] = {
            s: make_bot(self.game, self.levels.get(s, bot_level),
                        random.Random(f"bot-{seed}-{s}"))
            for s in range(n_seats) if s != seat or autoplay
        }
        self.history: list[Any] = []
        self._log: list[LogLine] = []
        self._callbacks: list[Callable[[], None]] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._cached: TableSnapshot | None = None

    # -- Session protocol ------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        """The table as this seat sees it (cached until the next change)."""
        if self._cached is None:
            view = self.game.view(self.state, self.seat)
            to_act = self.game.to_act(self.state)
            legal = self.game.legal_actions(view, self.seat) if to_act == self.seat else []
            outcome = self.game.outcome(self.state)
            banners: list[Banner] = []
            if outcome is not None:
                who = [_("You") if self.names[s] == "You" else self.names[s]
                       for s in outcome.winners]  # the default nickname is said as "you"
                won = _(" and ").join(who)
                banners.append(Banner("result", (
                    _("game over: You won") if who == [_("You")] else
                    _("game over: {name} won") if len(who) == 1 else
                    _("game over: {names} won")).format(name=won, names=won)))
            self._cached = TableSnapshot(
                game=self.game,
                rule_set=self.spec.name,
                seat=self.seat,
                names=shown_names(self.names, self.seat),
                view=view,
                to_act=to_act,
                legal=tuple(legal),
                log=tuple(self._log[-LOG_KEEP:]),
                banners=tuple(banners),
                progress="",
                outcome=outcome,
                extra={"left": self.seat in self.game.left_seats(self.state),
                       "bots": {s: self.levels[s] for s in self.bots if s != self.seat}},
            )
        return self._cached

    def submit(self, action: Any) -> None:
        """Check ``action`` against the engine and play it for this seat at once.

        Raises:
            EngineError: ``action`` is malformed, not this seat's, or illegal now
                (``InvalidActionError`` / ``IllegalActionError``); nothing is played.
        """
        actor = getattr(action, "seat", None)
        if actor != self.seat:
            raise IllegalActionError(
                f"{self.names[self.seat]} plays seat {self.seat}, not seat {actor!r}"
            )
        self.game.check(self.state, action)
        self._apply(action)

    def leave_for_good(self) -> None:
        """This seat leaves for good (the engine's ``Leave``, rulings D-1..D-4); the bots play
        on. ``snapshot().extra["left"]`` is then true.

        Raises:
            EngineError: the game is over, or this seat left already.
        """
        self.game.check(self.state, Leave(self.seat))
        self._apply(Leave(self.seat))

    def send_chat(self, text: str) -> None:
        """Add a chat line from this seat (at most :data:`CHAT_MAX` characters are kept)."""
        text = " ".join(text.split())[:CHAT_MAX]
        if text:
            me = shown_names(self.names, self.seat)[self.seat]  # "Du" for "You" in German
            self._add_log(LogLine(f"{me}: {text}", self.seat, chat=True))
            self._changed()

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` after every change of the snapshot."""
        self._callbacks.append(callback)

    async def run(self) -> None:
        """Play chance and the bots until the game is over or :meth:`close` is called.

        Each bot seat is played by :func:`lancards.p2p.net.node.drive_bot`, which waits
        :attr:`bot_delay` seconds before its turn (no other move waits); chance acts at
        once. While the player is to act, nothing moves until :meth:`submit`.
        """
        drivers = [asyncio.create_task(drive_bot(_BotSeat(self, seat), self._chooser(seat),
                                                 delay=self._pause(seat)))
                   for seat in self.bots]
        for task in drivers:
            task.add_done_callback(lambda _: self._wake.set())
        try:
            while not self._closed and self.game.to_act(self.state) is not None:
                for task in drivers:
                    if task.done() and task.exception() is not None:
                        raise RuntimeError("a bot driver failed") from task.exception()
                if self.game.to_act(self.state) == CHANCE:
                    await asyncio.sleep(0)
                    if not self._closed and self.game.to_act(self.state) == CHANCE:
                        self._apply(self.chance.resolve(self.game, self.state))
                    continue
                await self.next_change()
        finally:
            for task in drivers:
                task.cancel()
            await asyncio.gather(*drivers, return_exceptions=True)

    async def next_change(self) -> None:
        """Wait for the table's next change (a move, a chat line) or :meth:`close`."""
        self._wake.clear()
        await self._wake.wait()

    async def close(self) -> None:
        """Stop :meth:`run` (a local game keeps no record)."""
        self._closed = True
        self._wake.set()

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before its turn (:class:`lancards.cli.pacing.BotPacer`)."""
        return self.pacer.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.pacer.delay = max(0.0, seconds)

    def _pause(self, seat: Seat) -> Callable[[], float]:
        return lambda: self.pacer.pause(self.state, seat)

    # -- local driving ---------------------------------------------------------------------

    def step(self) -> bool:
        """Play one chance or bot action now; False when the player is to act or it is over."""
        actor = self.game.to_act(self.state)
        if actor is None or self._waiting_for_player():
            return False
        if actor == CHANCE:
            action = self.chance.resolve(self.game, self.state)
        else:
            action = self._chooser(actor)(self._legal(actor))
        self._apply(action)
        return True

    def advance(self, max_actions: int = 100_000) -> int:
        """Play chance and bots without delay until the player is to act or the game is over.

        Returns:
            How many actions were played.

        Raises:
            EngineError: the game did not stop within ``max_actions`` actions.
        """
        for count in range(max_actions):
            if not self.step():
                return count
        raise EngineError(f"no stop after {max_actions} actions")

    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return self.game.to_act(self.state) is None

    def _legal(self, seat: Seat) -> Sequence[Any]:
        """``seat``'s legal actions from its own view when it is to act, else ``[]``."""
        if self.game.to_act(self.state) != seat:
            return []
        return self.game.legal_actions(self.game.view(self.state, seat), seat)

    def _chooser(self, seat: Seat) -> Callable[[Sequence[Any]], Any]:
        """The bot of ``seat`` choosing from the seat's own view."""
        bot = self.bots[seat]
        return lambda legal: bot.choose(self.game.view(self.state, seat), seat, legal)

    def _waiting_for_player(self) -> bool:
        return self.game.to_act(self.state) == self.seat and self.seat not in self.bots

    def _apply(self, action: Any) -> None:
        before = self.game.view(self.state, self.seat)
        self.state = self.game.apply(self.state, action)
        self.history.append(action)
        after = self.game.view(self.state, self.seat)
        seat = None if action.seat == CHANCE else action.seat
        for text in narrate(self.game.name, before, action, after, self.names, self.seat):
            self._add_log(LogLine(text, seat, mark=text.startswith(ROUND_MARK)))
        face_up = face_up_words(self.game.name, after, self.names, self.seat) \
            if seat is None else ""  # the card turned at the round's start (a chance step)
        if face_up:
            self._add_log(LogLine(face_up, None))
        self._changed()

    def _add_log(self, line: LogLine) -> None:
        number = self._log[-1].index + 1 if self._log else 1
        self._log.append(LogLine(line.text, line.seat, line.chat, line.mark, number))
        del self._log[:-LOG_KEEP]
        self._wake.set()

    def _changed(self) -> None:
        self._cached = None
        self._wake.set()
        for callback in list(self._callbacks):
            callback()



class _BotSeat:
    """A bot seat of a :class:`LocalSession` as :func:`lancards.p2p.net.node.drive_bot` plays it
    (the :class:`lancards.p2p.net.node.Turns` methods)."""

    def __init__(self, session: LocalSession, seat: Seat) -> None:
        self.session = session
        self.seat = seat

    def turn(self) -> Sequence[Any]:
        return [] if self.session._closed else self.session._legal(self.seat)

    async def next_turn(self) -> Sequence[Any]:
        while not self.session._closed and not self.session.over:
            legal = self.turn()
            if legal:
                return legal
            await self.session.next_change()
        return []

    async def next_change(self) -> None:
        await self.session.next_change()

    def submit(self, action: Any) -> None:
        self.session._apply(action)
