"""``lancards audit [FILE]`` and ``lancards replay [FILE]``: check or step through a game record
(without FILE, the newest game of ``lancards history``)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.game_titles import game_title
from lancards.cli.history import record_path
from lancards.cli.i18n import _, language, ngettext
from lancards.cli.peer_errors import record_words
from lancards.cli.tui.fit import echo
from lancards.p2p.protocol.audit import (
    AuditReport,
    audit_bytes,
    audit_lines,
    halted_lines,
    header_table,
    report_json,
)

EXIT_OK, EXIT_REJECTED, EXIT_UNREADABLE, EXIT_UNFINISHED = 0, 1, 2, 3
"""``lancards audit`` exit statuses."""


def _read_bytes(path: str) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {strerror}").format(
            path=path, strerror=exc.strerror)) from None
    if not data:
        raise UsageError(_("{path} is empty: not a game record").format(path=path))
    return data


def _read(path: str) -> list[bytes]:
    """The whole lines of a record file: a last line cut short (no newline) is left out, so
    ``replay`` shows what is there (``audit`` says it is cut)."""
    data = _read_bytes(path)
    if not data.endswith(b"\n") and b"\n" in data:
        data = data[:data.rindex(b"\n") + 1]
    return data.rstrip(b"\n").split(b"\n")


def add_parser(sub: Any) -> None:
    audit = sub.add_parser(
        "audit",
        help=_("verify a game record end to end and print a verdict"),
        description=_("Verify a game record: signatures, hash chain, every proof, every move "
          "replayed through the engine, reneges at round ends. Exit 0 when it verifies, 1 when "
          "it does not (REJECTED: some byte does not verify), 2 when the file cannot be read, 3 "
          "when everything verifies but the game is unfinished (halted on a cheat, abandoned, or "
          "the file stops before its signed closing line)."),
    )
    audit.add_argument("file", nargs="?", default=None,
                       help=_("the record file (from --record or the table folder), or a game of "
                              "lancards history: its number (1 = newest) or table id (default: "
                              "the newest game of lancards history)"))
    audit.add_argument("--json", action="store_true", help=_("print the verdict as JSON"))
    audit.add_argument("--verbose", action="store_true",
                       help=_("also print the full hashes the verdict names by a short id"))
    audit.set_defaults(run=run_audit)
    replay = sub.add_parser(
        "replay",
        help=_("step through a finished game in public view"),
        description=_("Print every move of a verified game record in public view; with --step, "
          "wait for Enter between moves; with --positions, the position text after each move."),
    )
    replay.add_argument("file", nargs="?", default=None,
                        help=_("the record file, or a game of lancards history: its number (1 = "
                               "newest) or table id (default: the newest game of lancards "
                               "history)"))
    replay.add_argument("--step", action="store_true",
                        help=_("wait for Enter after each move (q and Enter: stop)"))
    replay.add_argument("--positions", action="store_true",
                        help=_("print the whole public position (docs/engine.md) after every move"))
    replay.set_defaults(run=run_replay)


def chosen_record(argument: str | None) -> str:
    """The record file of ``argument`` (:func:`~lancards.cli.history.record_path`); without
    one, that of the newest game of ``lancards history``, said in a line on standard error
    (standard output stays the verdict, the JSON or the moves). The new-user trial of
    2026-12-07: ``lancards replay`` alone said ``the following arguments are required: file``.

    Raises:
        UsageError: no game in the history yet, or one :func:`record_path` refuses.
    """
    if argument is not None:
        return record_path(argument)
    from lancards.cli.history import list_games, result_words
    from lancards.p2p.net.store import data_home

    games = list_games(data_home() / "tables")
    if not games:
        raise UsageError(_("no game in lancards history yet: lancards play starts one (or give "
                           "a record file)"))
    newest = games[0]
    echo(_("the newest game of lancards history: {game}, {result} (table {table})").format(
        game=game_title(newest.game) if newest.game else _("unknown game"),
        result=result_words(newest), table=newest.table[:8]), file=sys.stderr)
    return record_path("#1")  # "#1": never a file of that name in the current folder


def followed_entries(path: str, follows: dict[str, Any] | None) -> int | None:
    """How many entries the record of the game a rematch ``follows`` holds, from its table
    folder beside the audited record's or in ``lancards history``'s tables, when its signed
    closing line names the head ``follows`` names; ``None`` when no such record is here."""
    if follows is None:
        return None
    from lancards.p2p.net.store import data_home

    table = str(follows["tbl"])
    for folder in (Path(path).resolve().parent.parent / table, data_home() / "tables" / table):
        try:
            last = json.loads((folder / "record.jsonl").read_bytes().rstrip(b"\n")
                              .rsplit(b"\n", 1)[-1])
        except (OSError, ValueError):
            continue
        if isinstance(last, dict) and last.get("kind") == "close" and \
                last.get("head") == follows["head"] and isinstance(last.get("entries"), int):
            return int(last["entries"])
    return None


def run_audit(args: argparse.Namespace) -> int:
    path = chosen_record(args.file)
    report = audit_bytes(_read_bytes(path))
    if args.json:
        print(json.dumps(report_json(report)))
    else:
        from lancards.cli.history import gone_seats

        file = Path(path)
        for line in verdict_lines(report, followed_entries(path, report.follows),
                                  getattr(args, "verbose", False),
                                  gone_seats(file.parent, file.name)):
            echo(line)
    return {"ok": EXIT_OK, "unfinished": EXIT_UNFINISHED}.get(report.status, EXIT_REJECTED)


_STOPS = re.compile(r"the record stops after line (\d+) without its signed closing line "
                    r"\(cut short, or still being played\)")
_CUT = re.compile(r"the record is cut in the middle of line (\d+) \(the (\d+) lines before it "
                  r"verify\)")
_EQUIVOCATION = re.compile(r"equivocation: (.+) signed two different entries numbered (\d+)")


def verdict_lines(report: AuditReport, followed: int | None = None,
                  verbose: bool = False, gone: dict[int, str] | None = None) -> list[str]:
    """The audit's verdict in the player's language: ``"OK: Level 8, N moves verified, game
    finished; winner: NAME; scores: Ann 3, Ben 5"`` (the game as people name it),
    ``"UNFINISHED: ..."`` or ``"REJECTED: REASON"`` (the reason is the peer layer's, naming
    the line), then one ``"rule breach: ..."`` line per breach the rules penalise (an 8s
    Rule! renege with its player), and :func:`cheat_lines`: one ``"cheat caught at entry N:
    ..."`` line per cheat (a fork with both its moves, the signed move the rules refuse that
    halted the table with its author and why). A rematch's first line names the game it
    follows by short ids, as ``lancards history`` does, and its record's last entry by its
    number (``followed``: how many entries that record holds, when it is here) and a short id:
    the new-user trial of 2026-12-07 read a 64-character hash there; ``verbose`` adds it.
    ``gone``: the seats that left for good, as :func:`outcome_words` takes them."""
    count = report.moves  # counted as ``lancards resume`` and the catching-up line count
    out = []
    if report.follows is not None and report.status != "rejected":
        f = report.follows
        head = str(f["head"])
        ids = {"game": f["game"], "series": str(f["series"])[:8], "table": str(f["tbl"])[:8],
               "entry": head[:8]}
        out.append(_("game {game} of series {series}: follows table {table}, whose record "
                     "ends in entry {number} ({entry})").format(number=followed, **ids)
                   if followed is not None else
                   _("game {game} of series {series}: follows table {table}, whose record "
                     "ends in entry {entry}").format(**ids))
        if verbose:
            out.append(_("  table {table}, series {series}, its record's last entry {head}")
                       .format(table=f["tbl"], series=f["series"], head=head))
    if report.status == "ok":
        out += [ngettext("OK: {game}, {count} move verified, game finished; {outcome}",
                        "OK: {game}, {count} moves verified, game finished; {outcome}",
                        count).format(game=game_title(report.game),
                                      count=count, outcome=outcome_words(report, gone))]
    elif report.status == "unfinished":
        text = _("UNFINISHED: {game}, verified, no move played; {why}") if not count \
            else ngettext("UNFINISHED: {game}, {count} move verified; {why}",
                          "UNFINISHED: {game}, {count} moves verified; {why}", count)
        out += [text.format(game=game_title(report.game), count=count,
                            why=unfinished_words(report))]
    else:
        # English: the peer layer's sentence, detail and all; another language: the code's words
        from lancards.cli.refusal_words import move_refused

        reason = report.error if report.problem is None or language() == "en" else \
            record_words(report.problem, move_refused)
        return [_("REJECTED: {reason}").format(reason=reason)]
    names = _nicks(report)
    reneges = list((report.outcome.detail if report.outcome else {}).get("reneges", []))
    for breach in report.breaches:
        if _EQUIVOCATION.fullmatch(breach):
            continue  # a fork: a cheat line below (report.forks)
        said = _breach_words(breach, reneges, names)
        out.append(_("rule breach: {breach}").format(breach=said))
    return out + cheat_lines(report, names)


def cheat_lines(report: AuditReport, names: list[str]) -> list[str]:
    """One ``"cheat caught at entry N: ..."`` line per cheat the record proves, entries
    counted from 1 (``--json`` keeps the record's numbers, from 0): each fork (``eve signed
    two different moves for the same turn: play R6 and play R2``), then the signed move the
    rules refuse that halted the table (its author, the move and why)."""
    from lancards.cli.fork_words import evidence_payloads, fork_words, known_cards, rules_named
    from lancards.cli.peer_words import cheat_notice_words

    out = []
    game = rules_named(report.game)
    for fork in report.forks:
        seat = fork["seat"]
        known = known_cards(game, evidence_payloads(fork), report.view, fork.get("before"))
        said = None if seat is None else fork_words(game, fork, seat, names, known)
        out.append(_("cheat caught at entry {entry}: {cheat}").format(
            entry=fork["entry"] + 1,
            cheat=said or cheat_notice_words("equivocation", seat, names, "?")))
    for index, cheat in enumerate(report.cheats):  # the signed move that halted the table
        out.append(_("cheat caught at entry {entry}: {cheat}").format(
            entry=cheat["entry"] + 1, cheat=cheat_said(report, index, names)))
    return out


def cheat_said(report: AuditReport, index: int, names: list[str]) -> str:
    """The signed entry the rules refuse of ``report.cheats[index]`` in the table's words (its
    author, the move and why: :func:`~lancards.cli.peer_words.cheat_notice_words`)."""
    from lancards.cli.fork_words import known_cards, rules_named, signed_move
    from lancards.cli.peer_words import cheat_notice_words

    game = rules_named(report.game)
    cheat = report.cheats[index]
    cause = report.cheat_causes[index] if index < len(report.cheat_causes) else None
    entry = report.cheat_entries[index] if index < len(report.cheat_entries) else None
    payload = (entry or {}).get("payload")  # refused in the last verified entry's state
    move = signed_move(game, entry, names, known_cards(game, [payload], report.view,
                                                       report.view)) \
        if cheat["reason"] == "out-of-turn" else None
    kind = "proof" if cheat["reason"] == "illegal" and isinstance(payload, dict) and \
        payload.get("t") == "shuffle" else cheat["reason"]  # a shuffle is no move (h1)
    return cheat_notice_words(kind, cheat["seat"], names, cheat["detail"], cause, move)


def _breach_words(breach: str, reneges: list[Any], names: list[str]) -> str:
    renege = next((r for r in reneges if str(r) == breach), None)
    if renege is not None and 0 <= renege.seat < len(names):
        from lancards.cli.tui.results import renege_text

        return renege_text(renege, names)
    return breach


def unfinished_words(report: AuditReport) -> str:
    """Why a verified record is unfinished (``report.unfinished``), in words."""
    text = report.unfinished or ""
    stops = _STOPS.fullmatch(text)
    if stops:
        return _("the record stops after line {line} without its signed closing line (cut "
                 "short, or still being played)").format(line=stops[1])
    cut = _CUT.fullmatch(text)
    if cut:
        return _("the record is cut in the middle of line {line} (the {lines} lines before it "
                 "verify)").format(line=cut[1], lines=cut[2])
    return {"the table halted on a cheat": _("the table halted on a cheat"),
            "the game stopped before its end": _("the game stopped before its end")}.get(
                text, text)


def person_seat(nicks: list[str]) -> int:
    """The seat of the person of a ``lancards play`` table: the one seat under the default
    nickname ("You"); -1 when no seat or several have it (then each keeps its nickname)."""
    from lancards.cli.session import DEFAULT_NICK

    return nicks.index(DEFAULT_NICK) if nicks.count(DEFAULT_NICK) == 1 else -1


def said_names(nicks: list[str]) -> list[str]:
    """``nicks`` as the screens say them: the person's default nickname in the player's
    language ("Du"; the trial of 2026-12-06 read "Punkte: Ada 55, Bram 180, You 225")."""
    from lancards.cli.tui.controller import shown_names

    return list(shown_names(nicks, person_seat(nicks)))


def _nicks(report: AuditReport) -> list[str]:
    """The players' nicknames as said (:func:`said_names`), without the fingerprints
    ``report.names`` gives them."""
    return said_names([name.split(" [")[0] for name in report.names])


def _keyed(report: AuditReport) -> list[str]:
    """``report.names`` (``"ann [FP]"``) with each nickname as said (:func:`said_names`)."""
    return [said + name[len(name.split(" [")[0]):]
            for said, name in zip(_nicks(report), report.names, strict=True)]


def outcome_words(report: AuditReport, gone: dict[int, str] | None = None) -> str:
    """``"winner: ann [FP]; scores: ann 1, bob 2"`` (``describe_outcome``, in the player's
    language; the winner with the key's fingerprint, the scores by nickname; a Level 8 win is
    ``WIN``, as ``lancards history`` says it, not level 9). A seat that left the table for good
    (the public view's ``left``; ``gone``: ``"left"`` or ``"removed"`` by seat, as
    :func:`lancards.cli.history.gone_seats` reads the record) is marked as history marks it:
    8s Rule! ``"Bram 230, Ada 205, You (left the table)"`` (its total, 0, read as the best in a
    game the lowest total wins: the new-user trial of 2026-12-08), Level 8 ``"Cleo (left the
    table) level 3"`` (a level said as one, as history says it: the second reading of
    2026-12-08 read ``ann 5, Ada WIN``)."""
    outcome = report.outcome
    if outcome is None:
        return _("the game is not finished")
    winners = ", ".join(_keyed(report)[s] for s in outcome.winners)
    won = str(report.game).startswith("level8")  # level 9 is the win: WIN, as history says it
    view = getattr(report, "view", None)
    left = {s: "left" for s in getattr(view, "left", ())} | (gone or {})
    marks = {"left": _("left the table"), "removed": _("removed by vote")}
    nicks = [_("{name} ({mark})").format(name=n, mark=marks.get(left[s], marks["left"]))
             if s in left else n for s, n in enumerate(_nicks(report))]
    figures = [(s, _("{name} WIN").format(name=nick) if won and score >= 9 else
                _("{name} level {level}").format(name=nick, level=score) if won else
                _("{name} {points}").format(name=nick, points=score)) for s, (nick, score)
               in enumerate(zip(nicks, outcome.scores, strict=False))]  # (a trial read
    # "Bram 9" under "Bram WIN" in lancards history; German "Bram: Sieg", "Ada: 55", as there)
    if not won:  # 8s Rule!: no total for a seat gone for good, listed last, as history does
        figures = [f for f in figures if f[0] not in left] + \
            [(s, nicks[s]) for s in left if s < len(nicks)]
    scores = ", ".join(f for _s, f in figures)
    return ngettext("winner: {names}; scores: {scores}", "winners: {names}; scores: {scores}",
                    len(outcome.winners)).format(names=winners, scores=scores)


def public_summary(state: Any) -> str:
    """One line of what everyone sees: hand sizes, and the round's public situation."""
    hands = "/".join(str(len(h)) for h in state.hands)
    if hasattr(state, "melds"):  # Level 8
        tops = " ".join(str(state.cards.get(d[-1], "?")) if d else "-" for d in state.discards)
        levels = "/".join(str(level) if level < 9 else _("WIN") for level in state.levels)
        return _("round {round} · levels {levels} · hands {hands} · draw pile {pile} · discard "
                 "tops {tops} · melds {melds}").format(
            round=state.round, levels=levels, hands=hands, pile=len(state.pile), tops=tops,
            melds=len(state.melds))
    totals = "/".join(str(t) for t in state.totals())
    return _("round {round} · hands {hands} · tricks {tricks} · totals {totals}").format(
        round=state.round, hands=hands, tricks=len(state.trick_winners), totals=totals)


def _told(observer: Any, before: Any, notation: str, names: list[str],
          viewer: int) -> list[str]:
    """A move of the record in words, cards by name as a spectator sees them
    (:func:`lancards.cli.tui.narrate.narrate`); the record's notation if it cannot be told.
    ``viewer``: the person of a ``lancards play`` table (:func:`person_seat`), told as "you",
    never "You's"."""
    from lancards.cli.tui.narrate import narrate
    from lancards.engine.core import EngineError

    game = observer.game
    try:
        action = game.parse_action(notation)
        return narrate(game.name, before, action, observer.state, names,
                       _viewer(names)) or [notation]
    except (EngineError, LookupError, TypeError, ValueError):
        return [notation]


def _viewer(names: list[str]) -> int:
    """The seat the replay tells as "you": the person of a lancards play table (nicknamed
    "You", told as "you", never "You's"), else nobody (-1)."""
    from lancards.cli.session import DEFAULT_NICK

    return names.index(DEFAULT_NICK) if names.count(DEFAULT_NICK) == 1 else -1


def _scored_by_opening(observer: Any, before: Any, names: list[str]) -> list[str]:
    """8s Rule!: the rounds that an entry which is no move scored, and the next round's
    marker: a round that ends early (ruling E-5) or round 8 (E-7) is scored when the audit
    has opened the last card left in a hand, so the replay went from the trick that ended it
    to the next round's shuffles without "round 3 scored: ..."."""
    from lancards.cli.tui.narrate import Words, round_marker, scored_lines

    after, viewer = observer.state, _viewer(names)
    lines = scored_lines(observer.game.name, before, after, names, viewer)
    if lines and after.round != before.round:
        dealer = Words(names, viewer).name(after.dealer) if after.dealer >= 0 else ""
        lines.append(round_marker(after.round, dealer))
    return lines


def face_up_line(observer: Any, names: list[str], told_round: int) -> str:
    """Level 8: the card turned up onto the dealer's discard pile at a round's start, as the
    table's log says it (``G4 is face up on Bram's discard pile``), once it is open and only
    if round ``told_round`` is not this one already; else ``""``. The replay left it out, and
    the next line ``Ada drew G4 from Bram's discard pile`` came from nowhere (the new-user
    trial of 2026-12-06)."""
    from lancards.cli.tui.narrate import face_up_words

    state = observer.state
    if getattr(state, "round", 0) == told_round:
        return ""
    return face_up_words(observer.game.name, state, names, _viewer(names))


def _next_move(move: int) -> bool:
    """Whether ``replay --step`` goes on after move ``move``: Enter goes on; ``q`` (and
    Enter), the end of input or Ctrl-C stop it, saying where."""
    try:
        answer = input(_("Enter: next move · q: stop ")).strip().lower()
    except (EOFError, KeyboardInterrupt):
        answer = "q"
        print()
    if answer[:1] != "q":
        return True
    echo(_("stopped after move {move}").format(move=move))
    return False


def shuffle_line(author: str) -> str:
    """The replay's line of a shuffle entry: the name right-aligned to column 16 (the names of
    the shuffle and rescue lines stand in one column), the verb agreeing with it ("You shuffle",
    "Du mischst"; the trial of 2026-12-06 read "You  shuffles", "Du  mischt")."""
    text = _("You shuffle and prove the shuffle") if author == _("You") else \
        _("{name} shuffles and proves the shuffle").format(name=author)
    return " " * max(6, 16 - len(author)) + text


def rescue_line(author: str, gone: str) -> str:
    """The replay's line of a rescue entry, its author in the column of :func:`shuffle_line`,
    the verb agreeing with it ("You publish your rescue shares for bob"; it read "You
    publishes its")."""
    text = _("You publish your rescue shares for {name}").format(name=gone) \
        if author == _("You") else _("{author} publishes its rescue shares for {name}").format(
            author=author, name=gone)
    return " " * max(6, 16 - len(author)) + text


def run_replay(args: argparse.Namespace) -> int:
    from lancards.engine.position import write_position
    from lancards.p2p.protocol.core import GameCore
    from lancards.p2p.protocol.record import Entry

    path = chosen_record(args.file)
    lines = _read(path)
    report = audit_lines(lines)
    halted = report.halted or halted_lines(lines, report)  # a bad proof of shuffle: played
    if halted is not None:  # up to it (audit reads a closed record so itself)
        lines, report = halted, audit_lines(halted)
    if not report.ok:
        raise UsageError(_("the record does not verify: {error}").format(error=report.error))
    table = header_table(lines[0])
    observer = GameCore.observer(table)
    record = table.new_record()
    viewer = person_seat([m.nick for m in table.seats])
    names = said_names([m.nick for m in table.seats])
    echo(f"{game_title(report.game)}: {', '.join(_keyed(report))}")
    move, face_up_round = 0, 0
    out: dict[int, str] = {}  # "left" or "removed" (by the others' votes), as history says
    for line in lines[1:]:
        item = json.loads(line)
        if item.get("kind") != "entry":
            continue
        entry = Entry.from_dict(item["entry"], "record file")
        before = observer.state
        record.append(entry, observer.validator("record file"))
        payload = entry.payload
        author = names[record.seat_of(entry.author) or 0]
        if payload.get("t") == "action":
            move += 1
            for sentence in _told(observer, before, str(payload["a"]), names, viewer):
                echo(f"{move:4d}  {sentence}")
            echo(f"      {public_summary(observer.state)}")
            if args.positions:
                print(write_position(observer.game, observer.state))
            if args.step and sys.stdin.isatty() and not _next_move(move):
                return 0
        elif payload.get("t") == "shuffle":
            echo(shuffle_line(author))
        elif payload.get("t") == "leave":
            echo("      " + (_("You leave the table (for good; the hand goes out of play "
                                "unopened)") if author == _("You") else  # not "You leaves"
                              _("{name} leaves the table (for good; the hand goes out of play "
                                "unopened)").format(name=author)))
            from lancards.cli.tui.narrate import redealt

            seat = record.seat_of(entry.author) or 0
            out.setdefault(seat, "left")
            for text in redealt(observer.game, observer.state, observer.state, seat, names):
                echo("      " + text)  # ruling D-1: an 8s round dealt again
            echo(f"      {public_summary(observer.state)}")
        elif payload.get("t") == "rescue":  # ruling D-5 (docs/protocol.md 11.10)
            gone = names[int(payload["seat"])]
            if payload.get("votes"):
                signers = [names[record.seat_of(bytes.fromhex(v["by"])) or 0]
                           for v in payload["votes"]]
                echo("      " + _("{names} signed the removal of {name}, who vanished").format(
                    names=", ".join(signers), name=gone))
            echo(rescue_line(author, gone))
            if observer.has_left(int(payload["seat"])):
                out.setdefault(int(payload["seat"]), "removed")  # ruling D-5: voted out
                echo("      " + _("{name} is removed from the table (the hand goes out of play "
                                   "unopened)").format(name=gone))
                from lancards.cli.tui.narrate import redealt

                for text in redealt(observer.game, observer.state, observer.state,
                                    int(payload["seat"]), names):
                    echo("      " + text)  # ruling D-1, as after a leave
                echo(f"      {public_summary(observer.state)}")
        if payload.get("t") not in ("action", "leave"):  # an opening of the audit (E-5, E-7)
            for text in _scored_by_opening(observer, before, names):
                echo("      " + text)
        face_up = face_up_line(observer, names, face_up_round)
        if face_up:  # the card turned up at the deal, once a round (ruling L8-2)
            face_up_round = observer.state.round
            echo("      " + face_up)
    echo(replay_end(report, Path(path).parent, [m.public_key.hex() for m in table.seats],
                     names, out))
    return 0


def replay_end(report: AuditReport, folder: Path, keys: list[str], names: list[str],
               gone: dict[int, str] | None = None) -> str:
    """The replay's last line: :func:`outcome_words`, or for a table halted on a proven cheat
    what ``lancards history`` and ``lancards resume`` say, in the table's words (``"stopped: dan
    signed a move out of turn: draw from the draw pile, while it was cy's move"``; the re-check
    trial of 2026-12-09 read ``the game is not finished``): what its table ``folder`` stored
    (``halted.json`` with its ``detail``: :func:`~lancards.cli.peer_words.stored_halt_words`),
    else the record's ``cheat`` line as the audit says it, else the cheater an old
    ``halted.json`` or an evidence line names (``"stopped: eve was caught cheating (lancards
    audit shows how)"``).
    A fork the record holds is said with both moves, as the audit says it (``"stopped: eve
    signed two different moves for the same turn: take R14 (I'll take that!) and take none of
    the shown cards (I'll take that!)"``: the replay's last move is one of them). ``keys``: the
    seats' keys in hex; ``names``: the seats as said; ``gone``: the seats that left for good,
    ``"left"`` or ``"removed"`` by the others' votes (a seat voted out read "left the table"
    in the replay's last line), as :func:`outcome_words` takes them."""
    from lancards.cli.halted_table import caught_fork_words, cheater_seat, read_halted
    from lancards.cli.peer_words import stored_halt_words

    if report.outcome is not None:
        return outcome_words(report, gone)
    for fork in report.forks:
        seat = fork.get("seat")
        said = None if seat is None or not 0 <= seat < len(names) else \
            caught_fork_words(report.game, fork, seat, names, report.view)
        if said is not None:
            return said
    halted = read_halted(folder)
    seat = cheater_seat(folder, keys)
    if halted is not None and "detail" in halted and seat is not None \
            and 0 <= seat < len(names) and halted.get("key") == keys[seat]:
        return stored_halt_words(report.game, seat, names, None, halted)  # as the table said
    index = next((i for i, c in enumerate(report.cheats)
                  if isinstance(c.get("seat"), int) and 0 <= c["seat"] < len(names)), None)
    cause = report.cheat_causes[index] if index is not None \
        and index < len(report.cheat_causes) else None
    if index is not None and (report.cheats[index]["reason"] == "out-of-turn"
                              or getattr(cause, "code", "")):  # which move, and why
        return _("stopped: {cheat}").format(cheat=cheat_said(report, index, names))
    if index is not None:  # a bad proof of shuffle read as a cheat line: its author
        seat = report.cheats[index]["seat"]
    if seat is None or not 0 <= seat < len(names):
        return outcome_words(report, gone)
    return stored_halt_words(report.game, seat, names)
