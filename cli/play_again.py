"""Play again with the same players, for a table whose peers all run in this process
(``lancards play``): every peer's agreement (:class:`lancards.p2p.protocol.rematch.Rematch`),
the bots' answers (always "yes", and "go on" after a decline while enough are left), and the
words the screens show: who is awaited, who declined, the next game's dealer, the evening so
far (issue 27; ``docs/client.md``, "Play again").

The agreement's messages go through the real envelope codec between the peers' agreements
(every peer checks every answer and the statement itself); the links of the finished game are
closed by then, and the next game's peers open their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import NO_BREAK, _, ngettext
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import LocalProtocolError, RemoteProtocolError
from lancards.p2p.protocol.rematch import Finished, Rematch, series_totals
from lancards.p2p.protocol.statement import StartedTable
from lancards.p2p.protocol.table import Outgoing


def finished_of(core: GameCore) -> Finished | None:
    """The finished game of ``core``, or ``None`` when it is not over (or halted)."""
    outcome = core.game.outcome(core.state)
    if outcome is None or core.halted or not len(core.record):
        return None
    left = set(core.left_seats())
    present = tuple(m.public_key for i, m in enumerate(core.players) if i not in left)
    return Finished(core.table, core.record.head, tuple(outcome.winners), tuple(outcome.scores),
                    core.first_dealer, present)


def pending_again(folder: Path) -> bool:
    """Whether ``folder`` is a finished table whose "play again" this seat joined and which has
    not ended (the ``again`` marker without ``again-over``; ``docs/protocol.md`` 6.1). The
    ``again`` marker is only written once the game is over, maybe before the ``finished`` one:
    another peer of the same process (a host's bot seat) may have answered first. A seat that
    left for good (the ``left`` marker) has none: its bots' answers after the leave are theirs
    (the trial of 2026-12-05: such a table was counted as paused by every later ``play``)."""
    return ((folder / "again").exists() and not (folder / "again-over").exists()
            and not (folder / "left").exists())


def evening_line(totals: Sequence[Mapping[str, Any]], game_name: str, me: str = "") -> str:
    """``evening so far: You: 1 win, 80 points · Ada: 0 wins, 215 points`` (8s Rule!: the
    points summed over the games too; Level 8: the games won only, ``Ada: 0 wins``).
    ``me``: this player's key in hex (named "You"). The trial of 2026-12-05 read the earlier
    ``Ada 0 won`` as a score of 0. Each player's entry and the ``·`` before the next are joined
    by no-break spaces (:data:`lancards.cli.i18n.NO_BREAK`): a wrap at 80 columns cuts between
    the entries only (the trial of 2026-12-07 read ``... Ada: 0 wins,`` then ``   465 points``);
    :func:`lancards.cli.tui.fit.echo` prints them as spaces."""
    parts = []
    for t in totals:
        nick = _("You") if t["pk"] == me else str(t["nick"])
        won = int(t["won"])
        if game_name == "eights":
            text = ngettext("{name}: {won} win, {points} points",
                            "{name}: {won} wins, {points} points", won).format(
                name=nick, won=won, points=int(t["score"]))
        else:
            text = ngettext("{name}: {won} win", "{name}: {won} wins", won).format(
                name=nick, won=won)
        parts.append(text.replace(" ", NO_BREAK))
    return _("evening so far: {totals}").format(totals=f"{NO_BREAK}· ".join(parts))


Evening = Sequence[Mapping[str, Any]]
"""The games of the evening before a series, of other rule sets (another game with the same
players, :mod:`lancards.cli.tui.other_game`): each ``{"game": rule set, "games": how many,
"totals": the totals of its series}`` (``session_series.evening_after``)."""


def _evening(before: Evening, game_name: str, totals: Sequence[Mapping[str, Any]],
             ) -> tuple[list[dict[str, Any]], str]:
    """The evening's totals: ``before``'s and this series' ``totals`` summed by player (games
    won; points where every game was 8s Rule!: the points of other games do not compare),
    and the rule set whose words :func:`evening_line` uses."""
    out: list[dict[str, Any]] = []
    at: dict[str, dict[str, Any]] = {}
    for part in [*before, {"game": game_name, "totals": totals}]:
        for t in part["totals"]:
            entry = at.get(str(t["pk"]))
            if entry is None:  # in the order they first came
                entry = at[str(t["pk"])] = {"pk": t["pk"], "won": 0, "score": 0}
                out.append(entry)
            entry["nick"] = t["nick"]
            entry["won"] += int(t["won"])
            entry["score"] += int(t["score"])
    same = all(part["game"] == game_name for part in before)
    return out, game_name if same or game_name != "eights" else ""


def evening_of(finished: Finished | None, game_name: str, me: str = "",
               before: Evening = ()) -> str | None:
    """:func:`evening_line` through ``finished`` (after the games of ``before``: the evening's
    other rule sets), from the second game of the evening on; ``None`` for a first game (or
    none): a line that sums an evening of one game is noise (the new-user trial read
    ``evening so far: You: 0 wins, 0 points`` under a game's result). The new-user trial of
    2026-12-07 read no evening after Level 8 Master then Level 8: an evening is the evening,
    whatever its games."""
    if finished is None or finished.number + sum(int(b["games"]) for b in before) < 2:
        return None
    totals, shown = _evening(before, game_name, finished.totals())
    return evening_line(totals, shown, me)


def evening_next(finished: Finished | None, game_name: str, before: Evening,
                 statement: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The evening before the series of the next table (``statement``) after the ``finished``
    game (of rule set ``game_name``) at a host/join table, which ``before`` preceded:
    ``before`` when the next game goes on with the same series, else (another game: its
    ``follows.game`` is 1) with this series through its game appended, as
    :func:`~lancards.cli.session_series.evening_after` does at a ``lancards play`` table. Each
    seat keeps it locally (its ``table.json``'s ``evening``); it is not signed."""
    follows = statement.get("follows") or {}
    kept = tuple(dict(game) for game in before)
    if int(follows.get("game", 1)) != 1 or finished is None:
        return kept
    return (*kept, {"game": game_name, "games": finished.number,
                      "totals": finished.totals(), "table": finished.table.spec.table})


def series_record(path: str | None, number: int) -> str | None:
    """Where ``--record FILE`` puts game ``number`` of a series: ``FILE`` for the first,
    ``STEM-gameN.SUFFIX`` for the others (every record stays, each its own file)."""
    if not path or number <= 1:
        return path
    from pathlib import Path

    p = Path(path)
    return str(p.with_name(f"{p.stem.split('-game')[0]}-game{number}{p.suffix}"))


def series_words(table: StartedTable, game_name: str, me: bytes,
                 before: Evening = ()) -> list[str]:
    """The lines a rematch's table shows from its start: which game of the evening (counting
    ``before``'s), who deals round 1 and why, the evening before it from game 3 on
    (:func:`evening_of`). A first game of its series says which game of the evening it is
    when ``before`` holds games (another game with the same players: ``game 2 of the evening:
    Level 8``; it said nothing, while ``a`` said ``game 3 of the evening: ...``); else it is
    empty."""
    follows = table.statement.get("follows")
    earlier = sum(int(b["games"]) for b in before)
    if not follows or int(follows["game"]) == 1:  # a first game, maybe of another game
        if not earlier:
            return []
        line = _("game {number} of the evening: {game}").format(
            number=earlier + 1, game=game_title(table.spec.game))
        if earlier + 1 < 3:  # the evening before game 2 is one game: no evening line
            return [line]
        totals, shown = _evening(before[:-1], str(before[-1]["game"]), before[-1]["totals"])
        return [line, evening_line(totals, shown, me.hex())]
    follows = {**follows, "game": int(follows["game"]) + earlier}
    option = "first_dealer" if "first_dealer" in table.spec.options else "dealer"
    dealer = table.seats[int(table.spec.options.get(option, 0))]
    why = (_("the winner of the last game deals") if game_name == "eights"
           else _("the player left of the last game's first dealer deals"))
    first = (_("game {number} of the evening: You deal round 1 ({why})")
             if dealer.public_key == me else
             _("game {number} of the evening: {name} deals round 1 ({why})")).format(
        number=follows["game"], name=dealer.nick, why=why)
    if int(follows["game"]) < 3:  # the evening before game 2 is one game: no evening line
        return [first]
    totals, shown = _evening(before, game_name, series_totals(table))
    return [first, evening_line(totals, shown, me.hex())]


def other_games(rule_set: str, players: int) -> dict[str, str]:
    """The other rule sets the same ``players`` may play next, by the key that picks one
    (``"1"``, ``"2"``...), in the rule sets' order (``engine.rulesets.RULE_SETS``): "play
    again" at a ``lancards play`` table offers them beside the same game (a new table)."""
    from lancards.engine.rulesets import RULE_SETS

    names = [spec.name for spec in RULE_SETS if spec.name != rule_set
             and spec.min_players <= players <= min(spec.max_players, 6)]
    return {str(i + 1): name for i, name in enumerate(names)}


def others_words(others: Mapping[str, str], only: bool = False) -> str:
    """The game-over panel's line of the other games: ``or another game with them: 1: Level 8
    · 2: 8s Rule!`` (each game and the ``·`` before the next joined by no-break spaces);
    ``""`` when there are none."""
    if not others:
        return ""
    # no-break spaces: a wrap at 80 columns cuts between the games only, never inside
    # "3: 8s Rule!" (the trial of 2026-12-07 read "... · 3:" then "   8s Rule!")
    games = f"{NO_BREAK}· ".join(f"{key}: {game_title(name)}".replace(" ", NO_BREAK)
                             for key, name in others.items())
    if only:  # the game that ended is not for the players left: "another game", no "or"
        return _("another game with them: {games}").format(games=games)
    return _("or another game with them: {games}").format(games=games)


def again_status(r: Rematch) -> dict[str, Any]:
    """What the screen shows of one seat's agreement: ``asked`` (the person has not answered,
    or must say whether to go on without those who declined), ``waiting`` (names),
    ``declined`` (names), ``failed`` (why there is no next game, in English; ``failed_code``:
    its code and values, ``Rematch.failed_code``), ``started``, ``too_few_for``: the game that
    ended when too few players are left for it (another game fits them: ``Rematch.games``),
    else ``""``; ``ended``: the rule set of the game that ended (``a`` plays it again)."""
    if not r.possible():
        return {}  # too few players left at the table for any game: nothing to offer
    ended = r.finished.table.spec.game
    mine = r.my_answer()
    gone = sorted(k.hex() for k in r.declined())
    asked = mine is None or (mine.yes and mine.without != gone and r.failed is None
                             and r.statement is None)
    undecided = [k for k in r.undecided() if k != r.me.public_key]
    people = [k for k in undecided if not _is_bot(r, k)]  # the bots follow them
    waiting = [r.nick(k) for k in (people or undecided)]
    others = wants(r)  # once a "yes" names another game, "a" chose the one that ended: said
    chose = "" if mine is None or not mine.yes else mine.game or (
        r.finished.table.spec.game if others else "")
    return {"asked": asked and (mine is None or mine.yes), "waiting": waiting,
            "declined": [r.nick(k) for k in r.declined()], "failed": r.failed,
            "failed_code": r.failed_code, "wants": others, "mine": chose,
            "started": r.started is not None,
            "too_few_for": "" if ended in r.games() else ended, "ended": ended}


def _is_bot(r: Rematch, key: bytes) -> bool:
    member = next((m for m in r.finished.table.seats if m.public_key == key), None)
    return bool(member is not None and member.bot)


def wants(r: Rematch) -> list[tuple[str, str]]:
    """Who of the others chose which game, ``(nick, rule set)`` in seat order, once any "yes"
    (this seat's too) names another game than the one that ended (another game with the same
    players at a host/join table, ``docs/protocol.md`` 6.1); else empty: "play again" as
    before."""
    ended = r.finished.table.spec.game
    yes = [(k, a[0]) for k, a in r.answers.items() if a[0].yes]
    if not any(ans.game for _, ans in yes):
        return []
    chosen = {k: ans.game or ended for k, ans in yes}
    return [(r.nick(k), chosen[k]) for k in r.present if k in chosen and k != r.me.public_key]


def follow_answer(r: Rematch) -> tuple[bool, str] | None:
    """What a bot seat at a host/join table answers now, following the people
    (:func:`bot_answer`'s "yes" once every person still at the table answered, naming the
    game their "yes" chose; the same game when there are no people, or they chose
    differently, which no bot can mend); ``None``: nothing to say yet. A seat its table counts
    as a person's (``resume --autoplay --games N``) answers at once, the same game: the bots
    wait for it, and two such seats waiting for each other would wait for ever."""
    if not bot_answer(r):
        return None
    mine = r.my_answer()
    if mine is not None:  # "go on without" those who declined: its choice stays
        return True, mine.game
    if not _is_bot(r, r.me.public_key):
        return True, ""
    people = [k for k in r.present if k != r.me.public_key and not _is_bot(r, k)]
    if any(k not in r.answers for k in people):
        return None
    games = {r.answers[k][0].game for k in people if r.answers[k][0].yes}
    return True, next(iter(games)) if len(games) == 1 else ""


def bot_answer(r: Rematch) -> bool | None:
    """What a bot answers now: "yes" at first and again after each decline (the others go
    on without those who declined); ``None`` when it has nothing to say."""
    if r.failed is not None or r.signed:
        return None
    mine = r.my_answer()
    gone = sorted(k.hex() for k in r.declined())
    return True if mine is None or (mine.yes and mine.without != gone) else None


class PlayAgain:
    """The agreements of every peer of this process after a finished game (see the module
    docstring). ``player`` is the person's agreement; the others are the bots'."""

    def __init__(self, cores: Sequence[GameCore], player: GameCore | None, *,
                 new_table: Any = None, stores: Mapping[bytes, Any] | None = None,
                 restore: Mapping[bytes, list[dict[str, Any]]] | None = None,
                 main: bytes | None = None) -> None:
        self.rematches: dict[bytes, Rematch] = {}
        self.notices: list[str] = []
        self.stores = dict(stores or {})
        """Each peer's table store (its journal takes the agreement's lines, kind
        ``rematch``, before its messages go to the others; ``docs/protocol.md`` 6.1)."""
        self._main = main if main is not None else (None if player is None
                                                    else player.me.public_key)
        self.main = None if self._main is None else self.stores.get(self._main)
        """The person's seat's store (its folder gets the ``again`` markers)."""
        for core in cores:
            done = finished_of(core)
            if done is None:
                continue
            kwargs = {} if new_table is None else {"new_table": new_table}
            self.rematches[core.me.public_key] = Rematch(core.me, done,
                                                         seq=core.next_envelope_seq, **kwargs)
        self.player = None if player is None else self.rematches.get(player.me.public_key)
        self._bots = [r for r in self.rematches.values() if r is not self.player]
        for key, lines in (restore or {}).items():  # a resume inside the agreement
            if key in self.rematches:
                self._deliver(self.rematches[key], self.rematches[key].restore(lines))
        self._bots_answer()

    @property
    def finished(self) -> Finished | None:
        return None if not self.rematches else next(iter(self.rematches.values())).finished

    def answer(self, yes: bool) -> None:
        """The person's answer (``yes``: play again, or go on without those who declined).

        Raises:
            LocalProtocolError: as :meth:`Rematch.answer`.
        """
        if self.player is None:
            raise LocalProtocolError("this seat is not at the table any more")
        self._deliver(self.player, self.player.answer(yes))
        self._bots_answer()

    def started(self) -> StartedTable | None:
        """The next game's started table, once the person's peer holds every signature."""
        who = self.player or (self._bots[0] if self._bots else None)
        return None if who is None else who.started

    def status(self) -> dict[str, Any]:
        """What the screen shows (:func:`again_status`); while the person has not answered,
        ``others``: the other games the same players may start instead (:func:`other_games`:
        every seat is a peer of this process, so a new table needs no agreement)."""
        if self.player is None:
            return {}
        status = again_status(self.player)
        if status.get("asked") and self.player.my_answer() is None:
            finished = self.player.finished
            status["others"] = other_games(finished.table.spec.game, len(self.player.present))
        return status

    def _bots_answer(self) -> None:
        for bot in self._bots:
            if bot_answer(bot):
                self._deliver(bot, bot.answer(True))

    def _deliver(self, sender: Rematch, outs: list[Outgoing]) -> None:
        self._journal(sender, outs)
        queue = [(sender.me.public_key, out) for out in outs]
        while queue:
            key, out = queue.pop(0)
            for to in out.to:
                peer = self.rematches.get(to)
                if peer is None:
                    continue
                try:
                    got = peer.receive_bytes(key, out.envelope.encode())
                except RemoteProtocolError as exc:
                    self.notices.append(str(exc))
                    got = []
                self._journal(peer, got)
                queue += [(to, o) for o in got]
        self._over()

    def _journal(self, r: Rematch, outs: Sequence[Outgoing]) -> None:
        """``r``'s new lines durable in its peer's journal (the ``again`` marker in the
        person's folder first), its envelope numbers leased, before its messages go on."""
        store = self.stores.get(r.me.public_key)
        lines = r.take_lines()
        if store is None:
            return
        if lines:
            if self.main is not None and not (self.main.folder / "again").exists():
                self.main.mark("again")
            store.append_all([("rematch", line) for line in lines])
        if outs:
            store.lease_envelopes(max(o.envelope.seq for o in outs) + 1)

    def _over(self) -> None:
        """The person's folder marked ``again-over`` once its agreement ended."""
        r = None if self._main is None else self.rematches.get(self._main)
        if (self.main is not None and r is not None and (r.started or r.failed)
                and (self.main.folder / "again").exists()
                and not (self.main.folder / "again-over").exists()):
            self.main.mark("again-over")


def wants_words(status: Mapping[str, Any]) -> str:
    """Who chose which game (``again_status``'s ``mine`` and ``wants``): ``you chose 8s Rule!;
    Ada wants 8s Rule!``; ``""`` when no "yes" names another game."""
    return "; ".join(([_("you chose {game}").format(game=game_title(status["mine"]))]
                      if status.get("mine") else []) + [
        _("{name} wants {game}").format(name=name, game=game_title(game))
        for name, game in status.get("wants", [])])


def again_words(status: Mapping[str, Any]) -> str:
    """The banner of "play again" (``PlayAgain.status()``), in words."""
    if not status:
        return ""
    if status.get("started"):
        return _("the next game is starting")
    if status.get("failed"):
        from lancards.cli.peer_errors import rematch_words

        reason = rematch_words(status.get("failed_code"), str(status["failed"]))
        return _("no next game: {reason}; q to leave").format(reason=reason)
    declined = _(" and ").join(status.get("declined", []))
    waiting = _(" and ").join(status.get("waiting", []))
    chosen = wants_words(status)
    if status.get("asked") and declined:
        # by the number who declined: German "cy spielt ... ohne cy", "... spielen ... ohne sie"
        return ngettext("{names} will not play again. a: go on without them · q: stop",
                        "{names} will not play again. a: go on without them · q: stop",
                        len(status.get("declined", []))).format(names=declined)
    if status.get("asked") and status.get("too_few_for"):  # another game only
        return _("too few players left for {game}: another game with them? · q: leave").format(
            game=game_title(status["too_few_for"]))
    if status.get("asked") and status.get("wants") and status.get("ended"):
        # once another player chose another game, "a" is the game that ended again: said so
        # (the trial of 2026-12-08 pressed a after "ann wants 8s Rule!" and ended the evening)
        return _("play again with the same players? a: {game} again · q: leave").format(
            game=game_title(status["ended"]))
    if status.get("asked"):
        return _("play again with the same players? a: play again · q: leave")
    if chosen and waiting:  # "Ada wants 8s Rule!; waiting for Cyd"
        return _("{chosen}; waiting for {names}").format(chosen=chosen, names=waiting)
    if waiting:
        return _("play again: waiting for {names} to answer").format(names=waiting)
    return _("play again: the next game is being signed")
