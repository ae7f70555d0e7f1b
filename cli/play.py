"""``lancards play``: sit at a table with bots and play in the full-screen client.

By default the table is real: the player and every bot are peers on 127.0.0.1, each with its
own key, websocket listener and mental-poker key share, and every peer verifies every move
(:class:`lancards.cli.net_session.NetworkSession`). ``--local`` runs the engine and bots in this
process
instead (:class:`lancards.cli.local_session.LocalSession`; no record). ``--autoplay`` lets a bot
play the player's seat with no screen and prints one line per round and the final result.
``lancards resume`` continues the last networked table after a crash.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any, TextIO

from lancards.cli.bot_choice import add_bot_level_argument, chosen_levels
from lancards.cli.errors import UsageError, checked_name
from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext, number_text
from lancards.cli.identity import player_identity
from lancards.cli.local_session import LocalSession, default_names
from lancards.cli.option_values import check_dealer
from lancards.cli.orphan_tables import remove_orphans
from lancards.cli.pacing import DEFAULT_DELAY, delay_seconds
from lancards.cli.peer_words import halt_words
from lancards.cli.selfplay import add_rules_arguments, rules_from_args
from lancards.cli.session import DEFAULT_NICK
from lancards.cli.tui.controller import shown_names
from lancards.cli.tui.fit import echo
from lancards.cli.tui.results import RoundTracker, final_lines, result_line

GAMES: tuple[str, ...] = ("level8-master", "level8", "level8-en", "eights")
"""The longest nickname accepted (characters)."""


def add_parser(sub: Any) -> None:
    """Register ``lancards play`` on the sub-command parsers."""
    parser = sub.add_parser(
        "play",
        help=_("play at a table with bots in the full-screen terminal client"),
        description=_("Sit at a table with N bots and play in the full-screen client "
          "(keys: ? in the game). --autoplay lets a bot play your seat without a screen."),
    )
    add_rules_arguments(parser, "level8-master")
    parser.add_argument("--bots", type=int, default=3, help=_("bot seats (default 3)"))
    parser.add_argument("--name", default=DEFAULT_NICK,
                        help=_("your name at this table (default You); your identity keeps "
                               "its nickname, the one host and join use"))
    parser.add_argument("--seed", type=int, default=None,
                        help=_("seed of the local deal (default: a random seed)"))
    parser.add_argument("--autoplay", action="store_true",
                        help=_("a bot plays your seat; no screen; one line per round"))
    parser.add_argument("--record", metavar="FILE", default=None,
                        help=_("write the signed game record to FILE when the game ends"))
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help=_("with --autoplay: play N games in a row with the same players "
                               "(the next dealer and the evening's totals by the rules; "
                               "default 1)"))
    parser.add_argument("--local", action="store_true",
                        help=_("engine and bots in this process: no peers, no mental poker"))
    parser.add_argument("--bot-delay", default=DEFAULT_DELAY, metavar="SECONDS",
                        help=_("seconds each bot waits before its turn; the steps of a turn "
                               "follow at once (default {default_delay}; b at the table "
                               "changes it)").format(
                            default_delay=number_text(DEFAULT_DELAY)))
    add_bot_level_argument(parser)
    parser.set_defaults(run=run)
    resume = sub.add_parser(
        "resume",
        help=_("continue a table after a pause or a crash, from the journals on disk"),
        description=_("Restart every peer of a table this machine played (the player and its "
          "bots) from their journals, verifying everything again, and continue the game."),
    )
    resume.add_argument("table", nargs="?", default=None,
                        help=_("the number lancards history shows or the start of a table id "
                               "(default: the most recent unfinished table)"))
    resume.add_argument("--autoplay", action="store_true",
                        help=_("a bot plays your seat; no screen; one line per round"))
    resume.add_argument("--record", metavar="FILE", default=None,
                        help=_("write the signed game record to FILE when the game ends"))
    resume.add_argument("--bot-delay", default=DEFAULT_DELAY, metavar="SECONDS",
                        help=_("seconds each bot waits before its turn (default "
                               "{default_delay})").format(
                            default_delay=number_text(DEFAULT_DELAY)))
    resume.set_defaults(run=run_resume)


def validate(args: argparse.Namespace) -> None:
    """Check the arguments that argparse cannot.

    Raises:
        UsageError: an unknown game name, a bad bot count, nickname, delay or record path.
        RulesError: an unknown option or invalid value (from the rule set), or options the
            seat count cannot play (a trial deal).
    """

    if args.game not in GAMES:
        raise UsageError(_("--game {game!r}: choose one of {list}").format(
            game=args.game, list=', '.join(GAMES)))
    spec, rules, raw = rules_from_args(args)
    table = [key for key in ("rescue", "patience") if key in raw]
    if table:
        raise UsageError(_("option {table}: the seats of a play table are this process's own "
                           "and never vanish; rescue and patience are for lancards host").format(
            table=table[0]))
    seats = args.bots + 1
    check_dealer(raw, seats)
    if "dealer" in raw and args.local:
        raise UsageError(_("option dealer: a --local table draws its first dealer; without "
                           "--local the option chooses it"))
    if not spec.min_players <= seats <= spec.max_players:
        raise UsageError(
            _("--bots {bots}: {name} is for {min_players} to {max_players} players, so use "
              "{least} to {most} bots").format(
                bots=args.bots, name=game_title(spec.name), min_players=spec.min_players,
                max_players=spec.max_players, least=spec.min_players - 1,
                most=spec.max_players - 1)
        )
    # a trial deal before any folder is made: the game's own seat rules (8s Rule!'s partners
    # need 4 or 6, ruling E-10; a level card option without its file). Refused later, the
    # folder stayed behind as an unfinished table nothing could resume (the trial of 2026-12-05)
    spec.game.new_game(rules, seats)  # raises RulesError: one line, exit 2
    args.name = checked_name(args.name) or DEFAULT_NICK
    args.bot_delay = delay_seconds(args.bot_delay)
    args.own_level, args.bot_levels = chosen_levels(spec, args.bot_level, args.bots)
    if not 1 <= args.games <= 20:
        raise UsageError(_("--games {games}: 1 to 20, with --autoplay on a networked table (at "
                           "the table, the end of a game offers to play again)").format(
            games=args.games))
    if args.games > 1 and (args.local or not args.autoplay):  # read as out of range, in a trial
        raise UsageError(_("--games {games} needs --autoplay, without --local: at the table, "
                           "the end of a game offers to play again").format(games=args.games))
    if args.record is not None:
        if args.local:
            raise UsageError(_("--record: a --local table keeps no signed record"))
        from pathlib import Path

        target = Path(args.record)
        if target.exists():
            raise UsageError(_("--record {record}: the file exists; nothing is written "
                               "over").format(record=args.record))
        if not target.parent.is_dir():
            raise UsageError(_("--record {record}: no folder {parent}").format(
                record=args.record, parent=target.parent))


def make_session(args: argparse.Namespace) -> LocalSession:
    """The session for the arguments: the one place where the networked session plugs in.

    Raises:
        RulesError: an invalid rule option.
    """
    import random

    _spec, _rules, raw = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    names = default_names(args.bots + 1, 0, args.name.strip())
    return LocalSession(args.game, raw, seat=0, names=names, seed=seed,
                        bot_delay=0.0 if args.autoplay else args.bot_delay,
                        autoplay=args.autoplay, bot_level=args.own_level,
                        bot_levels=args.bot_levels)


def autoplay(session: LocalSession, out: TextIO) -> int:
    """Play the whole game with a bot in the player's seat; print a line per round.

    Returns:
        0 when the game ended with a result, 1 otherwise.
    """
    names = shown_names(session.names, session.seat)  # "Du" in German, as the screens say
    tracker = RoundTracker(names)
    game_name = session.game.name
    title = game_title(session.spec.name)  # the result names its game, as the screen's end does
    while True:
        played = session.step()
        for report in tracker.observe(game_name, session.game.view(session.state, None)):
            print(report.summary, file=out)
        if not played:
            break
    outcome = session.game.outcome(session.state)
    if outcome is None:
        print(result_line(_("the game stopped without a result"), title), file=out)
        return 1
    for line in final_lines(outcome, names, game_name, title=title):
        print(line, file=out)
    return 0


async def make_network_session(args: argparse.Namespace) -> Any:
    """The networked session for the arguments (the player and bot peers on 127.0.0.1)."""
    from lancards.cli.net_session import NetworkSession

    _spec, _rules, raw = rules_from_args(args)
    return await NetworkSession.create(
        args.game, raw, player_identity(args.name.strip()), args.bots,
        bot_delay=0.0 if args.autoplay else args.bot_delay, autoplay=args.autoplay,
        record_path=args.record, seed=args.seed, bot_level=args.own_level,
        bot_levels=args.bot_levels,
    )


async def autoplay_network(session: Any, out: TextIO, games: int = 1) -> int:
    """Play a networked table with a bot in the player's seat; print a line per round. With
    ``games`` above 1, the same players play again (every bot accepts) that many games in all,
    each next game's first lines saying who deals and the evening so far (issue 27)."""
    status = await _autoplay_one(session, out, games > 1)
    number = 1
    while status == 0 and number < games:
        session.snapshot()  # the agreements to play again, every bot answering yes
        if session.again is None or session.again.started() is None:
            print(_("no next game: the players did not all agree"), file=out)
            return 1
        evening = session.snapshot().extra.get("evening")  # printed with the game's result
        session = await session.next_session()
        number += 1
        for line in session.series:
            if line != evening:  # not the same "evening so far" twice in a row (the trial)
                echo(line, out)  # the evening line's no-break spaces as spaces
        status = await _autoplay_one(session, out, True)
    return status


async def _autoplay_one(session: Any, out: TextIO, series: bool) -> int:
    names = shown_names(session.names, session.seat)  # "Du" in German, as the screens say
    tracker = RoundTracker(names)
    game_name = session.game.name

    def changed() -> None:
        view = session.game.view(session.core.state, None)
        for report in tracker.observe(game_name, view):
            print(report.summary, file=out, flush=True)

    session.subscribe(changed)
    try:
        await session.run()
    finally:
        await session.close()
    title = game_title(session.rule_set)  # the result names its game, as the screen's end does
    if session.core.halted:
        print(result_line(_("the table halted: {reason}").format(
            reason=halt_words(session.core, session.names)), title), file=out)
        return 1
    outcome = session.game.outcome(session.core.state)
    if outcome is None:
        print(result_line(_("the game stopped without a result"), title), file=out)
        return 1
    from lancards.cli.net_session import removed_seats

    for line in final_lines(outcome, names, game_name, removed_seats(session.core), title):
        echo(line, out)  # a terminal's width, at a space
    evening = session.snapshot().extra.get("evening")
    if evening and series:  # the evening with this game
        echo(evening, out)
    if session.record_path:
        print(_("record: {path}").format(path=session.record_path), file=out)
    return 0


async def _play_network(args: argparse.Namespace, greeting: str = "") -> int:
    session = await make_network_session(args)
    if args.autoplay:
        return await autoplay_network(session, sys.stdout, args.games)
    from lancards.cli.tui.app import run_table

    return await _tables(session, await run_table(session, greeting=greeting))


async def _tables(session: Any, status: int) -> int:
    """The tables that follow one whose screen closed with ``status``: every player said "play
    again" (issue 27), or the player chose another game; each said in words while it opens
    (:func:`lancards.cli.opening_words.next_table_words`); the last screen's status."""
    from lancards.cli.opening_words import next_table_words
    from lancards.cli.tui.app import STATUS_AGAIN, run_table
    from lancards.cli.tui.other_game import STATUS_OTHER, following

    while True:
        words = next_table_words(session, status, STATUS_AGAIN, STATUS_OTHER)
        if words:  # the table closed: not the last lines printed for seconds
            echo(words)
        if (session := await following(session, status, STATUS_AGAIN)) is None:
            return status
        status = await run_table(session)


def find_table(table: str | None) -> Any:
    """The folder of ``table`` (a table id, the number ``lancards history`` shows, or the start
    of a table id: :func:`lancards.cli.table_choice.chosen_game`) or of the most recent
    unfinished table.

    Raises:
        UsageError: no such table, several whose id begins with ``table``, or none left
            unfinished.
    """
    from lancards.p2p.net.store import data_home

    tables = data_home() / "tables"
    if table is not None:
        folder = tables / table
        if (folder / "table.json").is_file() and "/" not in table:
            return folder
        # the number lancards history shows or the start of a table id, as audit and replay
        # take them (the new-user trial of 2026-12-07: resume 25, 49c, 3)
        from lancards.cli.history import list_games
        from lancards.cli.table_choice import chosen_game

        chosen = chosen_game(table, list_games(tables))
        if chosen is None or not (chosen.folder / "table.json").is_file():
            raise UsageError(_("no table {argument}: give the number lancards history shows, "
                               "or the start of a table id").format(argument=table))
        return chosen.folder
    candidates = unfinished_tables(tables)
    if not candidates:
        raise UsageError(_("no unfinished table to resume in {tables}").format(tables=tables))
    # the most recent one not open in another window; if all are, the most recent (its
    # refusal names the process that holds it)
    candidates = [f for f in candidates if not in_play(f)] or candidates
    return max(candidates, key=lambda f: max(
        (f / n).stat().st_mtime for n in ("journal.jsonl", "table.json") if (f / n).exists()))


def chosen_words(folder: Path, count: int) -> str:
    """What ``lancards resume`` without a table id says of the table it chose among ``count``
    unfinished ones: ``"resuming table 3f2a1b0c (8s Rule!, with Ada, Bram)"`` (the others still
    at the table: not a seat that left for good or was removed), and with two or
    more, which one and how to choose another (the evening trial of 2026-12-06: a resume went
    on with a table it never named)."""
    from lancards.cli.game_titles import game_title
    from lancards.cli.history import read_game

    game = read_game(folder)
    title = game_title(game.game) if game.game else _("unknown game")
    # not the seats that left for good or were removed (read_game's gone_seats; the trial of
    # 2026-12-06 named bob, who had left)
    others = [n for i, n in enumerate(game.nicks) if i != game.me and i not in game.gone]
    words = _("resuming table {table} ({game}, with {names})").format(
        table=folder.name[:8], game=title, names=", ".join(others) or "?")
    if count < 2:
        return words
    return ngettext("{words}: the most recent of {count} unfinished table; "
                    "lancards history lists them, lancards resume TABLE takes another",
                    "{words}: the most recent of {count} unfinished tables; "
                    "lancards history lists them, lancards resume TABLE takes another",
                    count).format(words=words, count=count)


def unfinished_tables(tables: Path) -> list[Path]:
    """The table folders in ``tables`` that ``lancards resume`` can go on with (paused, or
    stopped by a crash); orphan folders of a crash at a new table's first write are removed
    first (:mod:`lancards.cli.orphan_tables`)."""
    from lancards.cli.play_again import pending_again

    remove_orphans(tables)

    # A table.json alone: a seat that signed the start and was killed before its journal; a
    # finished table whose "play again" this seat joined and did not see end (issue 27).
    return [
        f for f in tables.glob("*")
        if ((f / "journal.jsonl").is_file() or (f / "table.json").is_file())
        and ((not (f / "finished").exists() and not (f / "not-started").exists())
             or pending_again(f))
    ]


def in_play(folder: Path) -> bool:
    """Whether a live process holds ``folder`` (:func:`lancards.p2p.net.folder_lock.
    live_holder`): a table open in another window, not a paused one."""
    from lancards.p2p.net.folder_lock import live_holder

    return live_holder(folder) is not None


def paused_greeting() -> str:
    """The words that tell a person starting ``lancards play`` that unfinished tables wait
    (a new user never learned that ``q`` had paused one), or ``""``. A table open in another
    window (:func:`in_play`) is not waiting: the re-check trial of session 27 was told of one
    that was being played at that moment."""
    from lancards.p2p.net.store import data_home

    count = sum(1 for f in unfinished_tables(data_home() / "tables") if not in_play(f))
    return ngettext("a paused table waits for you: 'lancards resume' goes on with it",
                    "{count} paused tables wait for you: 'lancards resume' goes on with the "
                    "latest", count).format(count=count) if count else ""


def stopped_words(folder: Path) -> str | None:
    """What ``lancards history`` says of a table that halted on a proven cheat (``"stopped:
    Cyd was caught cheating (lancards audit shows how)"``), else None."""
    from lancards.cli.history import read_game, result_words

    game = read_game(folder)
    return result_words(game) if game.cheater is not None else None


def run_resume(args: argparse.Namespace) -> int:
    """Run ``lancards resume``.

    Raises:
        UsageError: no such table, none unfinished, or no terminal without ``--autoplay``.
        FolderBusy: another process holds the table folder (issue 24).
        StorageError: a file of the table cannot be read or written (issue 24).
        JournalDamaged: a complete journal line is damaged.
    """
    args.bot_delay = delay_seconds(args.bot_delay)
    if not args.autoplay and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise UsageError(_("the table needs a terminal; use --autoplay to play without one"))
    from lancards.cli.lobby.resume_again import agreement_folder
    from lancards.cli.play_again import pending_again

    folder = agreement_folder(find_table(args.table))
    from lancards.cli.table_language import resume_language

    resume_language(folder, getattr(args, "lang", None))  # the table's, unless --lang is given
    from lancards.p2p.net.folder_lock import lock_folder
    from lancards.p2p.net.store import TableStore

    # One process per table folder (issue 24): a second resume, or a play/host/join still
    # writing it, is refused in one line naming the holder; held until this command ends.
    lock_folder(folder, "lancards resume")
    if args.table is None:  # said once the folder is ours: a refusal stays one line; wrapped
        # at a space (the new-user trial of 2026-12-07 read "the most recent of 2 u" /
        # "nfinished tables" once the table it resumed had closed)
        echo(chosen_words(folder, len(unfinished_tables(folder.parent))))
    again = pending_again(folder)  # killed inside "play again" (issue 27)
    if again and TableStore(folder).load_table().get("mode") == "remote":
        from lancards.cli.lobby.resume_again import resume_again

        return asyncio.run(resume_again(folder, player_identity(), args))
    for marker in ("finished", "not-started") if not again else ():
        if (folder / marker).exists():  # another process ended it while this one waited
            stopped = stopped_words(folder) if marker == "finished" else None
            if stopped is not None:  # halted on a proven cheat: no table to reopen
                raise UsageError(_("table {name}: {stopped}; nothing to resume").format(
                    name=folder.name, stopped=stopped))
            text = _("table {name} is finished: nothing to resume") if marker == "finished" \
                else _("table {name} is not started: nothing to resume")
            raise UsageError(text.format(name=folder.name))
    if not args.autoplay:  # the peers check every move again before the screen shows: said
        # from the start (the trial of session 28 sat 5 to 8 s before a blank terminal)
        from lancards.cli.opening_words import checking_words, moves_in

        if args.table is not None:  # the table, as without TABLE (not a refusal: one line)
            echo(chosen_words(folder, 1))
        echo(checking_words(moves_in(folder)))
    if TableStore(folder).load_table().get("mode") == "remote":
        from lancards.cli.lobby.resume_again import resume_host

        return asyncio.run(resume_host(folder, player_identity(), args))

    async def go() -> int:
        from lancards.cli.net_session import NetworkSession

        session: Any = await NetworkSession.resume(
            folder, player_identity(), bot_delay=0.0 if args.autoplay else args.bot_delay,
            autoplay=args.autoplay, record_path=args.record)
        if args.autoplay:  # inside "play again": the agreement, then the next game
            return await autoplay_network(session, sys.stdout, 2 if again else 1)
        from lancards.cli.tui.app import run_table

        return await _tables(session, await run_table(session))

    return asyncio.run(go())


def run(args: argparse.Namespace) -> int:
    """Run ``lancards play``; returns the exit status."""
    validate(args)
    if not args.autoplay and (not sys.stdin.isatty() or not sys.stdout.isatty()):

        raise UsageError(_("the table needs a terminal; use --autoplay to play without one"))
    greeting = "" if args.autoplay else paused_greeting()  # before this table's own folder
    if not args.local:
        return asyncio.run(_play_network(args, greeting))
    session = make_session(args)
    if args.autoplay:
        return autoplay(session, sys.stdout)
    from lancards.cli.tui.app import run_table

    return asyncio.run(run_table(session, greeting=greeting))
