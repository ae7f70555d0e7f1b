"""Play again at a host/join table (issue 27): this seat's agreement over the finished game's
links (:class:`lancards.p2p.net.rematch_link.RematchLink`), the next game's table folder made
durable before this seat's signature of its statement leaves, and what ``play_table`` needs to
start the next game on the same links (the handover: addresses, the messages of the next
table that came meanwhile).

The agreement is journaled in the finished table's journal (``docs/protocol.md`` 6.1,
"Journal"): a seat restarted inside it (``lancards resume``) is built with ``restore`` (the
journal's ``rematch`` lines) and asks the others whether the next game started without waiting
for it (``ask_start``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from lancards.cli.i18n import _, in_each_language
from lancards.cli.notice_lines import RefusalLimit
from lancards.cli.peer_errors import error_words
from lancards.cli.play_again import (
    again_status,
    evening_next,
    finished_of,
    follow_answer,
    other_games,
)
from lancards.p2p.net.folder_lock import lock_folder
from lancards.p2p.net.node import PeerAddress, PeerNode
from lancards.p2p.net.rematch_link import RematchLink
from lancards.p2p.net.storage_faults import StorageError
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.errors import RemoteProtocolError
from lancards.p2p.protocol.rematch import Rematch
from lancards.p2p.protocol.start_fetch import START_WAIT_S, StartFetch
from lancards.p2p.protocol.statement import StartedTable

AGREE_WAIT_S = 600.0
"""How long a seat waits for the others' answers and signatures (seconds)."""


def alone_bound() -> float:
    """Seconds a seat restarted inside the agreement waits for any link before it says nobody
    answered: :data:`~lancards.p2p.protocol.start_fetch.START_WAIT_S`, or
    ``LANCARDS_AGAIN_ALONE`` (tests: a shorter bound)."""
    return float(os.environ.get("LANCARDS_AGAIN_ALONE", START_WAIT_S))


def alone_words(table: str, wait: float) -> str:
    """Why a restarted seat has no next game when nobody linked to it within ``wait`` s."""
    return _("no player of table {table} answered within {wait:.0f} s (they stopped, or went "
             "on without you)").format(table=table, wait=wait)


def mark_host_again(folder: Path) -> None:
    """Before a seat's first ``again`` marker: when ``folder`` is a host's bot seat
    (``tables/<id>/bots/<key>``), its host's folder gets the ``again`` marker too (its own game
    may not be written yet), so that ``lancards resume`` of the host brings this seat back even
    when the host's own seat wrote nothing of the agreement yet; any other seat: nothing.

    Raises:
        StorageError: the marker cannot be written.
    """
    host = folder.parent.parent
    if folder.parent.name == "bots" and (host / "table.json").exists() \
            and not (host / "again").exists():
        TableStore(host).mark("again")



def _refusal_line(exc: RemoteProtocolError) -> list[str]:
    return ["! " + error_words(exc)]


class Handover:
    """What ``play_table`` takes for the next game (as from a lobby): every seat's address,
    ``table.json`` written already, the next table's messages that came meanwhile."""

    def __init__(self, addrs: dict[bytes, PeerAddress], stash: list[tuple[bytes, bytes]]) -> None:
        self.addrs = addrs
        self.saved = True
        self.stash = stash


class RemoteAgain:
    """This seat's "play again?" at a host/join table (see the module docstring); a bot seat
    (``bot``) answers by itself."""

    def __init__(self, node: PeerNode, *, bot: bool = False,
                 changed: Any = None, restore: list[dict[str, Any]] | None = None,
                 host_said_no: Callable[[], bool] | None = None) -> None:
        done = finished_of(node.core)
        if done is None or node.store is None:
            raise ValueError("the game is not over")
        self.node = node
        self.bot = bot
        self.host_said_no = host_said_no
        """A host's bot seat: whether its host's person said no to playing again
        (:class:`lancards.cli.lobby.host_bots.HostGone`); then it says no too, never yes."""
        self.old = node.store.load_table()
        self.folder = Path(node.store.folder)
        self.rematch = Rematch(node.core.me, done, seq=node.core.next_envelope_seq)
        self.locks: list[Any] = []
        self._changed = changed
        self._told = False
        self._shown = 0  # the refusals told so far (refusal_lines)
        self._saved: set[str] = set()  # the next tables whose folder this seat wrote
        self._limit = RefusalLimit()
        self.alone = None if restore is None else alone_bound()
        """A restarted seat's bound on waiting alone (seconds; :func:`alone_bound`)."""
        self.alone_text = ""
        """Why there is no next game once a restarted seat waited alone, in words."""
        self.link = RematchLink(node, self.rematch, before_sign=self._save,
                                changed=self._on_change,
                                ask_start=None if restore is None else self._ask_start,
                                mark_first=lambda: mark_host_again(self.folder))
        self.task: asyncio.Task[None] | None = None
        if restore is not None:
            self.link.send(self.rematch.restore(restore))
            if self.rematch.statement is not None and self.rematch.signed:
                self._save(self.rematch.statement)  # a kill between the line and the file
        if bot or restore is not None:
            self._on_change()

    def start(self, wait: float = AGREE_WAIT_S) -> None:
        """Pump the links in the background (the screen's loop)."""
        self.task = asyncio.ensure_future(self.run(wait))

    async def run(self, wait: float = AGREE_WAIT_S) -> None:
        """Pump the links until the next game started or cannot, ``wait`` s, or (a restarted
        seat) :attr:`alone` s without any link up: then :attr:`alone_text` says so."""
        await self.link.run(wait, alone=self.alone)
        r = self.rematch
        if self.alone is not None and not self.link.linked and r.started is None \
                and r.failed is None:
            self.alone_text = alone_words(r.table_id, self.alone)
            if self._changed is not None:
                self._changed()

    def refusal_lines(self) -> list[dict[str, list[str]]]:
        """The messages about the next game refused since the last call, each as one line
        ``! message from dora [...] refused: ...`` in every language (:func:`in_each_language`),
        at most one a minute per sender and reason (:class:`RefusalLimit`). Before, they were
        kept and never shown: the LAN trial of 2026-12-08 (h1), where dora's forged answers and
        statements were refused without a word on the others' tables."""
        new = self.link.refusals[self._shown:]
        self._shown += len(new)
        return [in_each_language(partial(_refusal_line, exc)) for exc in new
                if self._limit.tell(SimpleNamespace(kind="rejected", error=exc))]

    def answer(self, yes: bool, game: str | None = None) -> None:
        """The person's answer (``game``: another rule set a "yes" agrees to; ``None``: the
        choice made before, else the same game)."""
        self.link.answer(yes, game)
        self._on_change()

    def status(self) -> dict[str, Any]:
        """What the screen shows (:func:`~lancards.cli.play_again.again_status`; a restarted
        seat that waited alone: ``failed``, why in words); while the person has not answered,
        ``others``: the other games the same players may play, by the key that chooses one
        (:func:`~lancards.cli.play_again.other_games`), and ``choose``: the key answers "yes"
        naming that game here (another game with the same players, ``docs/protocol.md`` 6.1),
        the screen stays."""
        status = again_status(self.rematch)
        if status and self.alone_text:
            status.update(asked=False, failed=self.alone_text, failed_code=None)
        elif status.get("asked") and self.rematch.my_answer() is None:
            r = self.rematch  # the games the players who have not declined can play
            status["others"] = other_games(r.finished.table.spec.game,
                                           len(r.present) - len(r.declined()))
            status["choose"] = True
        return status

    def started(self) -> StartedTable | None:
        return self.rematch.started

    def no_game_words(self) -> str:
        """Why no next game started, in words (an ``--autoplay`` seat's ``no next game: ...``):
        the game by its name (``too few players to go on: 1 of the at least 3 8s Rule!
        needs``; it read the id ``eights``), or that nobody answered."""
        from lancards.cli.peer_errors import rematch_words

        r = self.rematch
        if self.alone_text:
            return self.alone_text
        if r.failed is not None:
            return rematch_words(r.failed_code, r.failed)
        return _("the others did not answer")

    def handover(self) -> Handover:
        peers = {bytes.fromhex(k): PeerAddress(str(v[0]), int(v[1]))
                 for k, v in self.old["peers"].items()}
        return Handover(peers, self.link.stash)

    def next_folder(self) -> Path:
        """The next table's folder for this seat: the finished one's with the next table id
        in place of its own (a host's bot seat: ``tables/<id>/bots/<n>``)."""
        table = self.rematch.started.spec.table if self.rematch.started is not None else (
            str(self.rematch.statement["tbl"]) if self.rematch.statement else "")
        return self._folder(table)

    async def flush(self, limit: float = 2.0) -> None:
        """Wait (at most ``limit`` s) until what this seat sent has left its links."""
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        mesh = self.node.mesh
        while loop.time() < end and any(mesh.queued(k) for k in self.rematch.present
                                        if k != self.rematch.me.public_key):
            await asyncio.sleep(0.05)

    def _folder(self, table: str) -> Path:
        parts = list(self.folder.parts)
        at = len(parts) - 1 - parts[::-1].index(self.rematch.table_id)
        parts[at] = table
        return Path(*parts)

    def follow_host(self) -> None:
        """A host's bot seat whose host's person said no to playing again (called at once by
        :meth:`~lancards.cli.lobby.host_bots.HostGone.said_no`): "no" too, as it closes with
        the host's process."""
        if self._no_after_host():
            self._on_change()

    def _no_after_host(self) -> bool:
        """Say "no" when this is a host's bot seat whose host said no, unless its agreement
        ended, it signed already or said no; whether it did."""
        r, mine = self.rematch, self.rematch.my_answer()
        if not (self.bot and self.host_said_no is not None and self.host_said_no()):
            return False
        if (r.possible() and not r.signed and r.failed is None and r.started is None
                and (mine is None or mine.yes)):
            self.link.answer(False)
            return True
        return False

    def _on_change(self) -> None:
        if self.bot and self.host_said_no is not None and self.host_said_no():
            self._no_after_host()  # never "yes" (or "go on without the host") after its "no"
        elif self.bot and self.rematch.possible() and (
                said := follow_answer(self.rematch)) is not None:
            self.link.send(self.rematch.answer(*said))  # the people's game
        if self.rematch.started is not None:
            self._save(self.rematch.started.statement, self.rematch.started.sigs)
            if not self._told:  # the watchers follow into the next game (watch.next)
                self._told = True
                self.node.next_table(self.rematch.started)
        if self.rematch.started is not None or self.rematch.failed is not None:
            self.over()
        if self._changed is not None:
            self._changed()

    def over(self) -> None:
        """Mark the finished table's folder ``again-over``: ``lancards resume`` no longer
        resumes its agreement (the next game's folder is a table of its own); and each folder
        of a statement this seat signed that will not start here ``not-started`` (a statement
        dropped for a "no" that came after it, or the agreement failed): ``lancards history``
        listed it as an unfinished game to resume (h1's trial)."""
        if self.node.store is not None and not (self.folder / "again-over").exists():
            self.node.store.mark("again-over")
        started = self.rematch.started
        for table in sorted(self._saved - {started.spec.table if started else ""}):
            with contextlib.suppress(StorageError):
                TableStore(self._folder(table)).mark("not-started")

    def _ask_start(self, statement: dict[str, Any]) -> tuple[StartFetch, Any]:
        """The asks of a restarted seat for the next table's start, numbered from the next
        table's own lease (its folder's journal)."""
        store = TableStore(self._folder(str(statement["tbl"])))
        return StartFetch(self.rematch.me, statement, store.next_envelope()), \
            store.lease_envelopes

    def _save(self, statement: dict[str, Any], sigs: dict[str, str] | None = None) -> None:
        """The next table's ``table.json``: without ``sigs`` before this seat signs (a seat
        killed then asks the others whether it started, as after a lobby), with them once
        every seat signed."""
        folder = self._folder(str(statement["tbl"]))
        self._saved.add(str(statement["tbl"]))
        if not self.locks:
            self.locks.append(lock_folder(folder, "lancards play again"))
        store = TableStore(Path(folder))
        data = {k: v for k, v in self.old.items() if k not in ("sigs", "evening")}
        data["statement"] = statement
        evening = evening_next(self.rematch.finished, self.node.core.game.name,
                               self.old.get("evening", ()), statement)
        if evening:  # the evening before the next series, kept by this seat (not signed)
            data["evening"] = [dict(game) for game in evening]
        if sigs is not None:
            data["sigs"] = dict(sigs)
        store.save_table(data)
