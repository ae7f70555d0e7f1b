"""``lancards history``: this user's games, finished and unfinished, newest first (issue 27).

Every table this user played has a folder under ``DATA_HOME/tables/`` (``docs/protocol.md``
11.5): ``table.json`` (the signed start statement: game, options, seats and nicknames),
``journal.jsonl``, and once the game is over ``record.jsonl``, ``outcome.json`` (the engine's
result, written by this program just before the ``finished`` marker) and ``finished``. The list
is read from those files alone, without verifying the records again (that is what ``lancards
audit`` does); a folder whose files cannot be read is listed as damaged, with the reason, never
a traceback.

``lancards replay`` and ``lancards audit`` take an entry of the list (``1`` is the newest) or
the start of a table id as well as a path: :func:`record_path`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.halted_table import cheater_seat, fork_evidence, read_halted
from lancards.cli.i18n import _
from lancards.cli.orphan_tables import remove_orphans


def outcome_json(outcome: Any) -> dict[str, Any]:
    """An ``engine.core.Outcome`` as the JSON of ``outcome.json``."""
    return {"winners": list(outcome.winners), "scores": list(outcome.scores),
            "detail": dict(outcome.detail)}


@dataclass
class PlayedGame:
    """One table folder, as the history lists it.

    Attributes:
        folder: the table folder.
        table: the table id: the folder's name (what ``lancards resume TABLE`` takes).
        game: the rule set's name (``""`` when unknown).
        nicks: the players' nicknames in seat order.
        me: this user's seat (``None`` when unknown).
        started: when ``table.json`` was written (seconds since the epoch).
        last: when the game was last written: the journal, ``table.json`` or the result
            (:data:`LAST_WRITTEN`; seconds since the epoch).
        status: ``finished``, ``unfinished``, ``not started`` or ``damaged``.
        outcome: ``outcome.json``'s content for a finished game that has one.
        problem: why a damaged folder is damaged, in English (``history --json``);
            ``said``: the same in the player's language (issue 28), for the listing.
        series: the series it belongs to (the first game's table id; its own for a game that
            follows none), ``series_game`` its number there, ``follows`` the table id of the
            game it follows (``""``: none); ``link`` whether that game's folder holds a
            record whose signed closing line names the head the rematch's statement names
            (``None``: no such folder here).
    """

    folder: Path
    table: str
    game: str = ""
    nicks: list[str] = field(default_factory=list)
    me: int | None = None
    started: float = 0.0
    last: float = 0.0
    status: str = "damaged"
    outcome: dict[str, Any] | None = None
    problem: str = ""
    said: str = field(default="", compare=False)
    series: str = ""
    series_game: int = 1
    follows: str = ""
    link: bool | None = None
    in_series: bool = False
    """Another listed game follows this one (set by :func:`list_games`)."""
    left: bool = False
    """This user's seat left the table for good (the ``left`` marker): its record ends at
    the leave unless the game's end reached this machine (a host whose bots played on)."""
    cheater: int | None = None
    """The seat the record's evidence line names a cheater: the table halted on a proven
    cheat (:func:`lancards.cli.halted_table.cheater_seat`)."""
    fork: dict[str, Any] | None = None
    """The two entries the cheater signed for one place, when the record file holds that
    evidence (:func:`lancards.cli.halted_table.fork_evidence`): said as the audit says them."""
    halted: dict[str, Any] | None = field(default=None, compare=False)
    """The folder's ``halted.json`` (:func:`lancards.cli.halted_table.read_halted`), when the
    table halted on a cheat: the cheat said as the table said it."""
    gone: dict[int, str] = field(default_factory=dict)
    """The other seats that left the table for good in the record this folder holds
    (:func:`gone_seats`): ``"left"`` or ``"removed"``."""
    running: Any = None
    """An unfinished game's figures after its last finished round that this machine kept
    (:func:`lancards.cli.running_totals.read_totals`: a ``Running``), else ``None``."""
    holder: Any = None
    """The live process that holds an unfinished game's folder: the table is open in another
    window (:func:`lancards.p2p.net.folder_lock.live_holder`, a ``Holder``), else ``None``."""

    @property
    def record(self) -> Path:
        """The record file of a finished game."""
        return self.folder / "record.jsonl"

    def to_json(self) -> dict[str, Any]:
        """The entry as ``history --json`` prints it."""
        return {"table": self.table, "game": self.game, "players": self.nicks, "me": self.me,
                "started": self.started, "last": self.last, "status": self.status,
                "outcome": self.outcome, "problem": self.problem, "series": self.series,
                "series_game": self.series_game, "follows": self.follows or None,
                "follows_verified": self.link, "left": self.left, "cheater": self.cheater,
                "left_seats": sorted(s for s, how in self.gone.items() if how == "left"),
                "removed_seats": sorted(s for s, how in self.gone.items() if how == "removed"),
                "running": None if self.running is None else {
                    "round": self.running.round, "scores": list(self.running.scores)},
                "playing": None if self.holder is None else {
                    "command": self.holder.command, "pid": self.holder.pid},
                "record": str(self.record) if self.record.is_file() else None,
                "folder": str(self.folder)}


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


LAST_WRITTEN = ("journal.jsonl", "table.json", "outcome.json")
"""The files whose newest write is a game's time in the listing: ``outcome.json`` too, which
a host whose person left gets when its ``--bots`` finish the game (the trial of 2026-12-05:
such a game was listed at the host's leave, not at its end)."""


def read_game(folder: Path) -> PlayedGame:
    """What ``folder`` says of its game; never raises (a folder that cannot be read is
    ``damaged``, :attr:`PlayedGame.problem` says why)."""
    from lancards.p2p.net.store import JournalDamaged, StorageError, TableStore

    game = PlayedGame(folder, folder.name, started=_mtime(folder / "table.json"),
                      last=max(_mtime(folder / name) for name in LAST_WRITTEN))
    try:
        data = json.loads((folder / "table.json").read_text("utf-8"))
        statement = data["statement"]
        game.game = str(data.get("rule_set") or statement["game"])
        keys = [str(seat["pk"]) for seat in statement["seats"]]
        game.nicks = [str(seat["nick"]) for seat in statement["seats"]]
        game.me = keys.index(data["me"]) if data.get("me") in keys else None
        game.series = str(statement["tbl"])
        follows = statement.get("follows")
        if isinstance(follows, dict):  # a rematch (issue 27)
            game.series, game.series_game = str(follows["series"]), int(follows["game"])
            game.follows = str(follows["tbl"])
            game.link = _closing_head(folder.parent / game.follows, str(follows["head"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        game.problem = f"table.json cannot be read ({_why(exc)})"
        game.said = _("table.json cannot be read ({why})").format(why=_why_words(exc))
        return game
    game.left = (folder / "left").exists()
    if (folder / "finished").exists():
        game.status = "finished"
        try:
            outcome = json.loads((folder / "outcome.json").read_text("utf-8"))
            if isinstance(outcome, dict) and isinstance(outcome.get("scores"), list):
                game.outcome = outcome
        except (OSError, ValueError):
            pass  # finished before outcome.json was written: the audit tells the result
        if game.outcome is None and not game.left:  # halted on a cheat, or killed before
            game.cheater = cheater_seat(folder, keys)  # outcome.json was written
            if game.cheater is not None:
                game.fork = fork_evidence(folder, keys[game.cheater])
                halted = read_halted(folder)  # the cheat, as the table said it
                game.halted = halted if (halted or {}).get("key") == keys[game.cheater] else None
        detail = (game.outcome or {}).get("detail")
        if not (isinstance(detail, dict) and detail.get("left") == []):  # the engine's
            # outcome names every seat that left (rulings D-2, D-5): the record is read for
            # who left and how only when one did, or when the outcome does not say
            game.gone = _others(game, gone_seats(folder, "record.jsonl", "journal.jsonl"))
        return game
    if (folder / "not-started").exists():
        game.status = "not started"
        return game
    try:
        TableStore(folder).read()
    except JournalDamaged as exc:  # its message names the file: the folder is listed
        game.problem = str(exc).replace(f" {folder / 'journal.jsonl'}", "").removesuffix(
            "; not resuming from it")
        from lancards.cli.peer_errors import damaged_words

        game.said = damaged_words(exc, game.problem)
        return game
    except StorageError as exc:
        game.problem = str(exc)
        return game
    game.status = "unfinished"
    game.gone = _others(game, gone_seats(folder, "journal.jsonl"))
    from lancards.p2p.net.folder_lock import live_holder

    game.holder = live_holder(folder)  # as lancards play tells a table open elsewhere
    from lancards.cli.running_totals import read_totals

    game.running = read_totals(folder)  # kept at each round's end: no replay (seconds a game)
    return game


def _others(game: PlayedGame, gone: dict[int, str]) -> dict[int, str]:
    """``gone`` without this user's own leave (it is :attr:`PlayedGame.left`, said in the
    result). This user's removal by the others' votes stays: no marker says it, and the
    re-check trial of 2026-12-09 read ``bob, cyd, ann, eve`` in bob's own history where
    ann's said ``bob (removed by vote)`` (his record holds the removal: he watched on)."""
    return {seat: how for seat, how in gone.items() if seat != game.me or how == "removed"}


def gone_seats(folder: Path, *names: str) -> dict[int, str]:
    """The seats that left the table for good in the first of the files ``names`` of
    ``folder`` that can be read (a record file or a journal), in the order they left:
    ``"left"`` for a ``leave`` entry (rulings D-1..D-4), ``"removed"`` for a removal by the
    others' votes (ruling D-5: the first ``rescue`` entry, which carries every remaining seat's
    vote). Only the lines naming such an entry are decoded; one that cannot be read is skipped
    (``lancards audit`` verifies the record; the listing never fails on it)."""
    for name in names:
        try:
            raw = (folder / name).read_bytes()
            break
        except OSError:
            continue
    else:
        return {}
    gone: dict[int, str] = {}
    if b'"t":"leave"' not in raw and b'"t":"rescue"' not in raw:
        return gone
    for row in raw.split(b"\n"):
        if b'"t":"leave"' not in row and b'"t":"rescue"' not in row:
            continue
        try:  # a journal line ends in its checksum: " 1a2b3c4d"
            line = json.loads(row if row.endswith(b"}") else row.rsplit(b" ", 1)[0])
            entry = (line.get("entry") or line.get("line")) if line.get("kind") == "entry" else {}
            payload = entry["payload"]
            seat, kind = payload["seat"], payload["t"]
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        if not isinstance(seat, int) or seat in gone:
            continue
        if kind == "leave":
            gone[seat] = "left"
        elif kind == "rescue" and payload.get("votes"):
            gone[seat] = "removed"
    return gone


def _closing_head(folder: Path, head: str) -> bool | None:
    """Whether ``folder``'s record ends in a signed closing line naming ``head`` (``None``
    when it has no record file)."""
    try:
        last = (folder / "record.jsonl").read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        line = json.loads(last)
    except OSError:
        return None
    except ValueError:
        return False
    return isinstance(line, dict) and line.get("kind") == "close" and line.get("head") == head


def _why_words(exc: BaseException) -> str:
    """:func:`_why` in the player's language (the system's own words for an ``OSError``)."""
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if isinstance(exc, KeyError):
        return _("no {key}").format(key=repr(exc.args[0]))
    return _("not the JSON of a table")


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r}"
    return "not the JSON of a table"


def list_games(tables: Path) -> list[PlayedGame]:
    """Every table folder under ``tables``, the most recently played first (orphan folders of
    a crash at a new table's first write are removed first, :mod:`lancards.cli.orphan_tables`)."""
    remove_orphans(tables)
    try:
        folders = [f for f in tables.iterdir() if f.is_dir()
                   and ((f / "table.json").exists() or (f / "journal.jsonl").exists())]
    except OSError:  # a folder of a lock alone (a table cancelled before anything was
        return []    # written) is no game: it was listed as damaged (the trial of 2026-12-05)
    games = [read_game(f) for f in folders]
    followed = {g.follows for g in games if g.follows}
    for g in games:
        g.in_series = g.table in followed
    return sorted(games, key=lambda g: (g.last, g.table), reverse=True)


def result_words(game: PlayedGame) -> str:
    """The state or result of ``game`` in a few words: ``"Bram won"``, ``"unfinished"``,
    ``"damaged"``, ``"never started"``; an unfinished game open in another window
    (:attr:`PlayedGame.holder`): ``"being played now (lancards host, process 4242)"`` (the LAN
    trial of 2026-12-07 read ``unfinished`` for the table it played in another window)."""
    if game.status == "unfinished" and game.holder is not None:
        return _("being played now ({command}, process {pid})").format(
            command=game.holder.command, pid=game.holder.pid)
    if game.status != "finished":
        return {"unfinished": _("unfinished"), "damaged": _("damaged"),
                "not started": _("never started")}.get(game.status, game.status)
    if game.left:
        if game.outcome is None:  # its record ends at the leave: the result never came here
            return _("you left the table")
        return _("{result} (you left the table)").format(result=_won_words(game))
    if game.cheater is not None and game.cheater < len(game.nicks):
        from lancards.cli.peer_words import stored_halt_words

        return stored_halt_words(game.game, game.cheater, _names(game), game.fork, game.halted)
    if game.outcome is None:
        return _("finished (lancards audit tells the result)")
    return _won_words(game)


def _names(game: PlayedGame) -> tuple[str, ...]:
    """The players' names as the screens say them (``shown_names``: this user's seat under
    the default nickname in the player's language)."""
    from lancards.cli.tui.controller import shown_names

    return shown_names(game.nicks, -1 if game.me is None else game.me)


def _listed_names(game: PlayedGame) -> list[str]:
    """:func:`_names` with each other seat that left the table for good marked, as the
    players panel says it: ``"Bram (left the table)"``, ``"Bram (removed by vote)"``."""
    marks = {"left": _("left the table"), "removed": _("removed by vote")}
    return [_("{name} ({mark})").format(name=name, mark=marks[game.gone[seat]])
            if seat in game.gone else name for seat, name in enumerate(_names(game))]


def _won_words(game: PlayedGame) -> str:
    assert game.outcome is not None
    names = _names(game)
    winners = [names[s] for s in game.outcome.get("winners", [])
               if isinstance(s, int) and 0 <= s < len(names)]
    if not winners:
        return _("nobody won")
    if len(winners) == 1 and winners[0] != game.nicks[game.outcome["winners"][0]]:
        return _("You won")  # the default nickname, said in the player's language
    if len(winners) == 1:
        return _("{name} won").format(name=winners[0])
    return _("{names} and {last} won").format(names=", ".join(winners[:-1]), last=winners[-1])


def detail_words(game: PlayedGame) -> str:
    """The second line of ``game``: the scores and the table of a finished game, the
    players and how to go on for an unfinished one, the reason for a damaged one
    (:func:`detail_parts` joined by `` · ``)."""
    return " · ".join(detail_parts(game))


def detail_parts(game: PlayedGame) -> list[str]:
    """:func:`detail_words` in its parts: the figures (or the players), then for an unfinished
    game how it goes on (:func:`_go_on_words`), which :func:`lines` puts on a line of its own
    rather than cut it."""
    if game.status == "damaged":
        return [game.said or game.problem]
    if game.status == "unfinished":
        running = game.running
        if running is not None and len(running.scores) == len(game.nicks):
            return [_("{scores} after round {number}").format(
                scores=figure_words(game, list(running.scores)), number=running.round),
                _go_on_words(game)]
        return [", ".join(_listed_names(game)), _go_on_words(game)]
    return [_("{scores} · table {table}").format(scores=score_words(game), table=game.table[:8])]


def _go_on_words(game: PlayedGame) -> str:
    """How an unfinished game goes on: ``"lancards resume TABLE"``, or, while a live process
    holds its folder (:attr:`PlayedGame.holder`; its result says it is being played now), its
    id alone, ``"table TABLE"``: a resume would be refused as the folder is in use (the
    new-user trial of 2026-12-06), and it pauses in the window that plays it."""
    if game.holder is not None:
        return _("table {table}").format(table=game.table)
    return f"lancards resume {game.table}"


def series_words(game: PlayedGame) -> str:
    """`` · game 2 of series 6df135f7`` for a game of a series of two or more (a rematch,
    or a game a listed rematch follows), else ``""``."""
    if not (game.follows or game.series_game > 1 or game.in_series):
        return ""
    words = " · " + _("game {number} of series {series}").format(number=game.series_game,
                                                                 series=game.series[:8])
    if game.link is False:
        words += " " + _("(the record of the game before does not match)")
    return words


def score_words(game: PlayedGame) -> str:
    """Each player's final figure (``"ann level 5, bob WIN"``, ``"You 105, Ada 0 points"``),
    or the players alone when there is no result."""
    scores = (game.outcome or {}).get("scores")
    if not isinstance(scores, list) or len(scores) != len(game.nicks):
        return ", ".join(_listed_names(game))
    return figure_words(game, scores)


def figure_words(game: PlayedGame, scores: list[Any]) -> str:
    """Each player's figure in ``scores`` (one per seat): ``"ann level 5, bob WIN"``,
    ``"You 105, Ada 0 points"`` (a seat gone for good without one); German puts a colon after
    the name, ``"Ann: Stufe 3, Du: Sieg"``, ``"Du: 105, Ada: 0 Punkte"`` (a trial read "Du
    Sieg")."""
    names = _listed_names(game)
    if game.game.startswith("level8"):
        return ", ".join(_("{name} WIN").format(name=n) if v == 9 else
                         _("{name} level {level}").format(name=n, level=v)
                         for n, v in zip(names, scores, strict=True))
    own = {game.me} if game.left and game.me is not None else set()
    # a seat gone for good: no total, which read like the lowest (the new-user trial of
    # 2026-12-06), and after the unit, which read "You (left the table) points" (2026-12-07)
    gone = [_("{name} ({mark})").format(name=n, mark=_("left the table")) if s in own else n
            for s, n in enumerate(names) if s in own or s in game.gone]
    scored = [_("{name} {points}").format(name=n, points=v)  # German "Du: 80", not "Du 80"
              for s, (n, v) in enumerate(zip(names, scores, strict=True))
              if s not in own and s not in game.gone]
    return ", ".join(([_("{scores} points").format(scores=", ".join(scored))] if scored
                      else []) + gone)


def lines(games: Sequence[PlayedGame], width: int = 80) -> list[str]:
    """The history as printed: two lines per game, each cut to ``width`` columns (0: never
    cut); a result that does not fit beside the date and the game goes on lines of its own
    under them, wrapped between words (the persona suite read ``stopped: cyd was caught
    cheating (lancards audi…`` at 80 columns: what to run was cut; a cheat said in the table's
    words, the move and why, is longer than a line)."""
    from lancards.cli.game_titles import game_title
    from lancards.cli.tui.width import pad, text_width

    out = []
    for number, game in enumerate(games, 1):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.last)) if game.last \
            else pad(_("date unknown"), 15)
        title = game_title(game.game) if game.game else _("unknown game")
        head, result = f"{number:>3}  {when}  {title}:", f"{result_words(game)}" \
            f"{series_words(game)}"
        if width > 0 and text_width(f"{head} {result}") > width:
            out += [_cut(head, width), *_wrapped(result, width)]
        else:
            out.append(f"{head} {result}")
        out += _detail_lines(detail_parts(game), width)
    return out


def _detail_lines(parts: list[str], width: int) -> list[str]:
    """The detail of a game under its head, indented: one line when it fits in ``width``
    columns (0: always), else the figures wrapped between players and each further part (the
    table id, how to go on) on a line of its own, whole: the LAN trial of 2026-12-07 read
    ``Bram level 7, ann level 3, cy level 3, bea level 4, Ada level 4 after roun…`` at 80
    columns, cut before the id that ``lancards resume`` takes."""
    from lancards.cli.tui.width import text_width

    indent = "     "
    if width <= 0 or text_width(indent + " · ".join(parts)) <= width:
        return [indent + " · ".join(parts)]
    out = [indent]
    for piece in parts[0].split(", "):  # the figures: "ann level 3, bob WIN after round 2"
        joined = f"{out[-1]}, {piece}" if out[-1] != indent else indent + piece
        if out[-1] != indent and text_width(joined) > width:
            out[-1] += ","
            out.append(indent + piece)
        else:
            out[-1] = joined
    return [_cut(line, width) for line in out + [indent + part for part in parts[1:]]]


def _wrapped(text: str, width: int, indent: str = "     ") -> list[str]:
    """``text`` on lines of at most ``width`` columns, each after ``indent``, broken between
    words (a word longer than a line is cut)."""
    from lancards.cli.tui.width import text_width

    out = [indent]
    for word in text.split(" "):
        joined = f"{out[-1]} {word}" if out[-1] != indent else indent + word
        if out[-1] != indent and text_width(joined) > width:
            out.append(indent + word)
        else:
            out[-1] = joined
    return [_cut(line, width) for line in out]


def _cut(text: str, width: int) -> str:
    from lancards.cli.tui.width import cut

    return cut(text, width) if width > 0 else text


def output_width() -> int:
    """The columns ``history`` cuts its lines to: the terminal's width when standard output is
    one, else 0 (never cut: a pipe or a file gets whole lines). The trial of 2026-12-06 saw
    lines cut at 80 columns in a 120-column terminal."""
    import shutil

    if not sys.stdout.isatty():
        return 0
    return shutil.get_terminal_size((80, 24)).columns


def record_path(argument: str) -> str:
    """The record file that ``argument`` of ``replay``/``audit`` names: a path to a file
    that exists, else an entry of the history or the start of a table id
    (:func:`lancards.cli.table_choice.chosen_game`, which ``resume`` shares).

    Raises:
        UsageError: no such entry or table, an ambiguous table id, or a game without a
            record yet (unfinished, never started, damaged).
    """
    if Path(argument).exists() or "/" in argument or argument.endswith(".jsonl"):
        return argument
    from lancards.cli.table_choice import chosen_game
    from lancards.p2p.net.store import data_home

    chosen = chosen_game(argument, list_games(data_home() / "tables"))
    if chosen is None:
        return argument  # a path that does not exist: the command says so
    if not chosen.record.is_file():
        why = {"unfinished": _("it is unfinished (lancards resume {table} continues "
                               "it)").format(table=chosen.table),
               "damaged": _("it is damaged: {problem}").format(
                   problem=chosen.said or chosen.problem)}.get(
                   chosen.status) or _("it never started")
        if chosen.status == "unfinished":
            from lancards.p2p.net.folder_lock import live_holder

            holder = live_holder(chosen.folder)
            if holder is not None:  # the trial of 2026-12-05
                why = _("it is being played now ({command}, process {pid}); its record is "
                        "written when the game ends or pauses").format(command=holder.command,
                                                                        pid=holder.pid)
        raise UsageError(_("game {table} has no record: {why}").format(table=chosen.table, why=why))
    if chosen.status == "unfinished":  # a record written at a pause: the trial of 2026-12-07
        _say_paused_record(chosen.folder, chosen.table)  # read it as the whole game so far
    return str(chosen.record)


def _say_paused_record(folder: Path, table: str) -> None:
    """Say on standard error that the record of unfinished game ``table`` (in ``folder``)
    ends where the game last stopped (a pause, or a process killed: the final trial read
    "pause" for a crash): the new-user trial of 2026-12-07 replayed a game being played and
    read it stop 10 moves before the screen did, at ``the game is not finished``."""
    from lancards.p2p.net.folder_lock import live_holder

    holder = live_holder(folder)
    text = (_("game {table} is being played now ({command}, process {pid}): its record ends "
              "where the game last stopped") if holder is not None else
            _("game {table} is unfinished: its record ends where the game last stopped (lancards "
              "resume {table} continues it)"))
    from lancards.cli.tui.fit import echo

    echo(text.format(table=table, command=getattr(holder, "command", ""),  # wrapped at a space
                     pid=getattr(holder, "pid", 0)), file=sys.stderr)  # in a terminal (a trial)


def add_parser(sub: Any) -> None:
    history = sub.add_parser(
        "history", help=_("list your games, finished and unfinished, newest first"),
        description=_("List every game this user played (the tables in the data folder), "
          "newest first: when, which game, the result and each player's score. Give `lancards "
          "replay` or `lancards audit` the number of an entry (1 = newest) or a table id."))
    history.add_argument("--json", action="store_true", help=_("print one JSON object per game"))
    history.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``lancards history``."""
    from lancards.p2p.net.store import data_home

    tables = data_home() / "tables"
    games = list_games(tables)
    if args.json:
        for game in games:
            print(json.dumps(game.to_json()))
        return 0
    if not games:
        print(_("no games yet in {tables}: lancards play starts one").format(tables=tables))
        return 0
    for line in lines(games, output_width()):
        print(line)
    return 0


__all__ = ["PlayedGame", "add_parser", "gone_seats", "list_games", "outcome_json", "read_game",
           "record_path", "run"]
