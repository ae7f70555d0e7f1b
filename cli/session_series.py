"""The series side of a networked session (issue 27): "play again" at the game's end, the
next game's session, what the screen shows of it. Mixed into
:class:`lancards.cli.net_session.NetworkSession`."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lancards.cli.pacing import BotPacer
from lancards.cli.play_again import (
    PlayAgain,
    again_words,
    evening_of,
    finished_of,
    series_record,
)
from lancards.cli.session import Banner
from lancards.p2p.protocol.errors import LocalProtocolError


def derive(label: str) -> bytes:
    """32 bytes from a label: the keys and table ids of a seeded demo table (never with
    people: whoever knows the seed knows every card)."""
    return hashlib.sha256(f"lancards/v1/demo/{label}".encode()).digest()


def same_places_table(members: Sequence[Any], label: str | None = None) -> str:
    """A new table id whose seat order (:func:`lancards.p2p.protocol.statement.seat_order`,
    by a hash of the id and each key) puts ``members`` (identities, in the order they sit)
    in the places they have: another game with the same players keeps them where they sat
    (the new-user trial of 2026-12-07: Level 8 Master ``1 Bram, 2 Ada, 3 Cleo, 4 You``
    became ``1 Cleo, 2 Ada, 3 Bram, 4 You`` at Level 8). Ids are drawn until one does (for
    6 players 720 draws on average, a few milliseconds); ``label``: drawn from it instead,
    for a seeded demo table."""
    from lancards.p2p.protocol.statement import new_table_id, seat_order

    wanted = [m.public_key for m in members]
    for attempt in itertools.count():
        table = new_table_id() if label is None else derive(f"{label}-{attempt}").hex()[:16]
        if [m.public_key for m in seat_order(table, members)] == wanted:
            return table
    raise AssertionError("unreachable")  # pragma: no cover


def evening_after(session: Any) -> tuple[dict[str, Any], ...]:
    """The evening before the next table when ``session``'s players choose another game:
    its evening before, and its series through its game (``play_again.Evening``; ``table``:
    the id of its last table, whose "play again" :func:`end_offer` ends)."""
    finished = finished_of(session.core)
    if finished is None:
        return tuple(session.evening_before)
    return (*session.evening_before, {"game": session.game.name, "games": finished.number,
                                      "totals": finished.totals(),
                                      "table": finished.table.spec.table})


def end_offer(tables: Path, before: Sequence[dict[str, Any]]) -> None:
    """At a resume of a table another game opened: the "play again" of the table that game
    was chosen at is over (its ``again-over`` marker), if a kill -9 came between this table's
    first write and the "no" said there (:meth:`SeriesMixin.other_session`); otherwise
    ``lancards resume`` offered that game's end again once this one was over."""
    from lancards.cli.play_again import pending_again

    for game in before:
        folder = tables / str(game.get("table", ""))
        if game.get("table") and "/" not in str(game["table"]) and pending_again(folder):
            with contextlib.suppress(OSError):
                (folder / "again-over").touch()


def keep_evening(session: Any, before: Sequence[dict[str, Any]]) -> Any:
    """``session`` with ``before`` as its evening before (its first lines counting them). Its
    ``table.json`` holds them from the table's first write on (``evening``, for a resume:
    ``NetworkSession._open``'s ``evening``): written after it, a kill -9 between the two left a
    table that had lost its evening (the crash test of the evening's write)."""
    session.evening_before = tuple(before)
    if before:
        from lancards.cli.play_again import series_words

        session.series = series_words(session.core.table, session.game.name,
                                      session.core.me.public_key, before)
    return session


class SeriesMixin:
    """"Play again" for :class:`~lancards.cli.net_session.NetworkSession` (its attributes:
    ``nodes``, ``node``, ``core``, ``game``, ``again``, ``series``, ``seed``, ``ran``...)."""

    nodes: Any
    node: Any
    core: Any
    game: Any
    again: Any
    again_lines: dict[bytes, list[dict[str, Any]]] | None
    series: list[str]
    seed: int | None
    ran: bool
    autoplay: bool
    record_path: str | None
    rule_set: str
    home: Path
    pacer: BotPacer
    bot_level: str
    bot_seats: dict[int, str]
    evening_before: tuple[dict[str, Any], ...] = ()
    """The games of the evening before this series, of other rule sets (``play_again.
    Evening``): an evening is the evening, whatever its games."""
    said_no: Callable[[], None] | None = None
    """Called when this player says no to playing again, before the answer leaves: a host's
    ``--bots`` seats say no with it (:meth:`lancards.cli.lobby.host_bots.HostGone.said_no`)."""

    def _changed(self) -> None:  # pragma: no cover - NetworkSession defines it
        raise NotImplementedError

    def keeps_links(self) -> bool:
        """Whether the links stay open for the next game (a host/join seat whose next game
        has started)."""
        return bool(self.again is not None and getattr(self.again, "link", None) is not None
                    and self.again.started() is not None)

    def play_again(self, yes: bool, game: str | None = None) -> None:
        """This player's answer to "play again with the same players?" at the game's end (or,
        after someone declined, whether to go on without them); the bots say yes
        (:class:`lancards.cli.play_again.PlayAgain`). ``game``: at a host/join table, another
        rule set this "yes" agrees to (the game-over panel's number keys).

        Raises:
            LocalProtocolError: the game is not over, or this seat cannot answer (it left, it
                said no).
        """
        if self.again is None:
            raise LocalProtocolError("the game is not over").with_code("not-over")
        if not yes and self.said_no is not None:
            self.said_no()  # a host's --bots say no with it, never yes after it
        if game is None:
            self.again.answer(yes)
        else:  # another game at a host/join table (its RemoteAgain)
            self.again.answer(yes, game)
        self._changed()

    def choose_other(self, rule_set: str) -> None:
        """Another game, ``rule_set``, with the same players instead of playing this one
        again (:mod:`lancards.cli.tui.other_game`): :meth:`other_session` opens its table,
        then says "no" to the same game, as ``q`` does. Not before: a kill -9 between the
        durable "no" and the new table's first write lost the other game and its evening
        (``lancards resume`` found no table); now it shows this game's end again."""
        self.other_rule_set = rule_set

    async def other_session(self) -> Any:
        """A new table of the game :meth:`choose_other` chose, with the players still at this
        one: this player, the same bots (keys and names) each at its level, the same pace;
        a new series (its signed totals count one game's rules) in the same evening
        (:func:`keep_evening`).

        Raises:
            LocalProtocolError: no other game was chosen.
        """
        rule_set = getattr(self, "other_rule_set", None)
        if rule_set is None:
            raise LocalProtocolError("no other game was chosen").with_code("no-next-game")
        from lancards.p2p.protocol.table import start_local

        left = set(self.core.left_seats())
        keys = {m.public_key for i, m in enumerate(self.core.players) if i not in left}
        bots = [n.core.me for n in self.nodes if n is not self.node
                and n.core.me.public_key in keys]
        finished = finished_of(self.core)
        number = finished.number + 1 if finished is not None else 2
        seated = {m.public_key: m for m in [self.core.me, *bots]}
        table_id = same_places_table(  # each player in the place they had
            [seated[m.public_key] for m in self.core.players if m.public_key in seated],
            None if self.seed is None else f"table-{self.seed}-{rule_set}-{number}")
        table = start_local([self.core.me, *bots], rule_set, {}, table=table_id)
        before = evening_after(self)  # its first lines say "game 2 of the evening: Level 8"
        session = await type(self)._open(  # type: ignore[attr-defined]
            table, self.core.me, bots, rule_set, self.home, seed=self.seed,
            bot_delay=self.pacer.delay, autoplay=self.autoplay,
            record_path=series_record(self.record_path, number), bot_level=self.bot_level,
            bot_levels={self.core.players[s].public_key: level
                        for s, level in self.bot_seats.items()}, evening_before=before)
        self._decline_same()  # the new table is written: "no" to this one now
        return keep_evening(session, before)

    def _decline_same(self) -> None:
        """"No" to playing this game again, once another game's table is written (its session
        may be closed: its folder is locked again for the write)."""
        from lancards.p2p.net.folder_lock import FolderBusy, lock_folder
        from lancards.p2p.net.store import StorageError

        lock = getattr(self, "lock", None)
        again = None
        if lock is not None and not lock.held:
            # another process holds it (it answers), or the folder cannot be locked now (the
            # new table is written: the old one's question ends at its resume, end_offer)
            with contextlib.suppress(FolderBusy, StorageError):
                again = lock_folder(self.home / "tables" / self.core.table.spec.table,
                                    "lancards play")
            if again is None:
                return
        try:
            with contextlib.suppress(LocalProtocolError):
                self.play_again(False)
        finally:
            if again is not None:
                again.release()

    async def next_session(self) -> Any:
        """The session of the next game of the series, once every seat signed its start.

        Raises:
            LocalProtocolError: no next game has started.
        """
        table = None if self.again is None else self.again.started()
        if table is None:
            raise LocalProtocolError("no next game has started").with_code("no-next-game")
        number = int(table.statement["follows"]["game"])
        record = series_record(self.record_path, number)
        keys = {m.public_key for m in table.seats}
        bots = [n.core.me for n in self.nodes if n is not self.node
                and n.core.me.public_key in keys]
        return keep_evening(await type(self)._open(  # type: ignore[attr-defined]
            table, self.core.me, bots, self.rule_set, self.home, seed=self.seed,
            bot_delay=self.pacer.delay, autoplay=self.autoplay, record_path=record,
            bot_level=self.bot_level, bot_levels={  # each bot keeps its level (play --bot-level)
                self.core.players[s].public_key: level for s, level in self.bot_seats.items()},
            evening_before=self.evening_before), self.evening_before)

    def _offer_again(self, outcome: Any, extra: dict[str, Any], banners: list[Banner]) -> None:
        """Once every peer's game is over: the agreements to play again, and what the screen
        shows of them (``extra["again"]``, ``extra["evening"]``, a banner)."""
        from lancards.cli.net_log import add_said
        from lancards.cli.remote_again import RemoteAgain

        extra["series"] = self.series
        if outcome is None or self.core.halted:
            return
        finished = finished_of(self.core)
        local = len(self.nodes) == len(self.core.players)  # every seat a peer of ours
        if finished is not None and (local or self.series or self.ran):
            extra["evening"] = evening_of(finished, self.game.name,  # from game 2 on
                                          self.core.me.public_key.hex(), self.evening_before)
        if self.again is None and local and all(finished_of(n.core) is not None
                                                for n in self.nodes):
            new_table = None if self.seed is None else (lambda: derive(
                f"table-{self.seed}-{finished.number + 1 if finished else 2}").hex()[:16])
            self.again = PlayAgain([n.core for n in self.nodes],
                                   None if self.autoplay else self.core, new_table=new_table,
                                   stores={n.core.me.public_key: n.store for n in self.nodes
                                           if n.store is not None},
                                   restore=self.again_lines,
                                   main=self.core.me.public_key)
        elif self.again is None and not local and finished is not None:
            lines = (self.again_lines or {}).get(self.core.me.public_key)
            self.again = RemoteAgain(self.node, changed=self._changed,  # over the links
                                     restore=lines)  # a resume inside it: its journal lines
        if self.ran and getattr(self.again, "task", True) is None:
            self.again.start()  # the node has served the end: the agreement takes the links
        status = self.again.status() if self.again is not None else {}
        if isinstance(self.again, RemoteAgain):  # its refused messages, in words, on the log
            for said in self.again.refusal_lines():
                add_said(self, said)
        if status:
            extra["again"] = status
            banners.append(Banner("again", again_words(status)))

