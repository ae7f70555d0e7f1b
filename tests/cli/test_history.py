"""``lancards history`` (issue 27): finished, unfinished, never started and damaged games,
newest first, each listed correctly and never a traceback; ``audit``/``replay`` take an entry."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from lancards.cli import i18n
from lancards.cli.main import main
from lancards.p2p.protocol.identity import Identity

T0 = 1_796_000_000  # 2026-11-30 00:53:20 UTC


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with one finished seeded 3-player 8s Rule! game of ``lancards play``
    (a fixed identity: the seats' order, so the deal, follow from the keys), and in
    ``kept-totals/round-N.json`` each ``totals.json`` the game wrote, as it was written."""
    from lancards.cli.running_totals import FILE, RunningTotals

    folder = tmp_path_factory.mktemp("history")
    (folder / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (folder / "identity.json").chmod(0o600)
    (folder / "kept-totals").mkdir()
    note = RunningTotals.note

    def keep(self: RunningTotals, game: str, state: object) -> None:
        before = self.written
        note(self, game, state)
        if self.written != before and self.written is not None:
            shutil.copy(self.store.folder / FILE,
                        folder / "kept-totals" / f"round-{self.written.round}.json")

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LANCARDS_HOME", str(folder))
        patch.setattr(RunningTotals, "note", keep)
        assert main(["play", "--autoplay", "--game", "eights", "--seed", "5", "--bots", "2",
                     "--bot-level", "greedy",  # the reference: its games stay the same
                     "--bot-delay", "0"]) == 0
    return folder


@pytest.fixture
def home(finished_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The finished game and copies of it made unfinished, damaged and never started, plus a
    folder of junk; the finished game the newest."""
    shutil.copytree(finished_game, tmp_path, dirs_exist_ok=True)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    tables = tmp_path / "tables"
    (done,) = list(tables.iterdir())
    for name, change in (("aaaa000000000001", "unfinished"), ("aaaa000000000002", "damaged"),
                         ("bbbb000000000003", "not-started")):
        copy = tables / name
        shutil.copytree(done, copy)
        for gone in ("finished", "outcome.json", "record.jsonl"):
            (copy / gone).unlink()
        if change == "damaged":
            journal = copy / "journal.jsonl"
            raw = bytearray(journal.read_bytes())
            raw[raw.index(b'"kind"', 2000) + 1] = ord("X")
            journal.write_bytes(bytes(raw))
        elif change == "not-started":
            (copy / "not-started").touch()
    (tables / "junk").mkdir()
    (tables / "junk" / "table.json").write_text('{"statement": ')
    order = [done.name, "aaaa000000000001", "aaaa000000000002", "bbbb000000000003", "junk"]
    for i, name in enumerate(order):
        for f in (tables / name).iterdir():
            os.utime(f, (T0 - 3600 * i, T0 - 3600 * i))
    yield tmp_path
    monkeypatch.delenv("TZ")
    time.tzset()


def test_history_lists_every_kind_of_game_newest_first(home: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["history"]) == 0
    done = next(f.name for f in (home / "tables").iterdir() if (f / "finished").exists())
    assert capsys.readouterr().out.splitlines() == [
        "  1  2026-11-30 00:53  8s Rule!: You won",
        f"     Ada 215, Bram 205, You 80 points · table {done[:8]}",
        "  2  2026-11-29 23:53  8s Rule!: unfinished",  # a copy: its journal is the whole game
        "     Ada 215, Bram 205, You 80 points after round 8 · lancards resume aaaa000000000001",
        "  3  2026-11-29 22:53  8s Rule!: damaged",
        "     the journal is damaged at line 6 (checksum mismatch)",
        "  4  2026-11-29 21:53  8s Rule!: never started",
        "     Ada, Bram, You · table bbbb0000",
        "  5  2026-11-29 20:53  unknown game: damaged",
        "     table.json cannot be read (not the JSON of a table)",
    ]
    assert main(["history", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["table"], r["status"], r["me"]) for r in rows] == [
        (done, "finished", 2), ("aaaa000000000001", "unfinished", 2),
        ("aaaa000000000002", "damaged", 2), ("bbbb000000000003", "not started", 2),
        ("junk", "damaged", None)]
    assert rows[0]["record"] == str(home / "tables" / done / "record.jsonl")
    assert (rows[0]["running"], rows[1]["running"]) == (
        None, {"round": 8, "scores": [215, 205, 80]})


def test_audit_and_replay_take_an_entry_of_the_history(home: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["audit", "1"]) == 0
    assert capsys.readouterr().out.startswith("OK: 8s Rule!, ")
    done = next(f.name for f in (home / "tables").iterdir() if (f / "finished").exists())
    assert main(["audit", "--json", done[:6]]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True
    assert main(["replay", "#1"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert len(told) > 100 and any("You" in line for line in told[-6:]), told[-6:]
    for argument, error in (
            ("2", "game aaaa000000000001 has no record: it is unfinished (lancards resume "
                  "aaaa000000000001 continues it)"),
            ("3", "game aaaa000000000002 has no record: it is damaged: the journal is "
                  "damaged at line 6 (checksum mismatch)"),
            ("9", "no table 9: give the number lancards history shows, or the start of a "
                  "table id"),
            ("aaaa", "2 tables begin with aaaa: aaaa000000000001, aaaa000000000002; give "
                     "more of the id")):
        assert main(["audit", argument]) == 2
        assert capsys.readouterr().err.strip() == f"lancards audit: error: {error}"


def test_audit_and_replay_without_an_argument_take_the_newest_game(home: Path, capsys,
                                                                  german: None) -> None:
    """The new-user trial of 2026-12-07: ``lancards replay`` alone said ``the following
    arguments are required: file``."""
    capsys.readouterr()
    done = next(f.name for f in (home / "tables").iterdir() if (f / "finished").exists())
    assert main(["audit"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith("OK: 8s Rule!, ")
    assert said.err == (f"the newest game of lancards history: 8s Rule!, You won "
                        f"(table {done[:8]})\n")
    assert main(["replay", "1"]) == 0
    first = capsys.readouterr().out
    assert main(["replay"]) == 0
    assert capsys.readouterr().out == first
    assert main(["--lang", "de", "audit", "--json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["finished"] is True
    assert said.err == (f"das neueste Spiel aus lancards history: 8s Rule!, Du hast gewonnen "
                        f"(Tisch {done[:8]})\n")
    for f in (home / "tables" / "aaaa000000000001").iterdir():  # the newest now: unfinished
        os.utime(f, (T0 + 60, T0 + 60))
    assert main(["replay"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "the newest game of lancards history: 8s Rule!, unfinished (table aaaa0000)",
        "lancards replay: error: game aaaa000000000001 has no record: it is unfinished "
        "(lancards resume aaaa000000000001 continues it)"]


def test_the_record_of_a_paused_game_is_said_to_end_at_its_pause(home: Path, capsys) -> None:
    """The new-user trial of 2026-12-07 replayed a game being played: its record, written at
    its last pause, stopped at ``the game is not finished`` while the screen had gone on. A
    record of an unfinished game is read with a line saying where it ends."""
    capsys.readouterr()
    done = next(f for f in (home / "tables").iterdir() if (f / "finished").exists())
    paused = home / "tables" / "aaaa000000000001"
    shutil.copy(done / "record.jsonl", paused / "record.jsonl")  # as a pause writes it
    os.utime(paused / "record.jsonl", (T0 - 3600, T0 - 3600))
    assert main(["replay", "2"]) == 0
    said = capsys.readouterr()
    assert said.err == ("game aaaa000000000001 is unfinished: its record ends where the game "
                        "last stopped (lancards resume aaaa000000000001 continues it)\n")
    assert "You" in said.out  # a finished game has no such line: the test above reads its err


def test_the_paused_record_s_line_wraps_at_a_space_in_a_terminal(home: Path, monkeypatch,
                                                                 capsys) -> None:
    """The new-user trial of 2026-12-07 read ``... where the game last stopped`` / ``
    (lancards resume ...`` cut at column 80 above ``lancards audit``'s verdict."""
    import io
    import os as os_module

    from lancards.cli.history import _say_paused_record

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr("shutil.get_terminal_size",
                        lambda fallback=(80, 24): os_module.terminal_size((80, 24)))
    _say_paused_record(home / "tables" / "aaaa000000000001", "aaaa000000000001")
    assert terminal.getvalue().splitlines() == [
        "game aaaa000000000001 is unfinished: its record ends where the game last stopped",
        "   (lancards resume aaaa000000000001 continues it)"]


def test_audit_and_replay_without_an_argument_or_a_game_say_how_to_begin(
        tmp_path, monkeypatch, capsys, german) -> None:  # english again after it
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    for command in ("audit", "replay"):
        assert main([command]) == 2
        assert capsys.readouterr().err == (f"lancards {command}: error: no game in lancards "
                                           "history yet: lancards play starts one (or give a "
                                           "record file)\n")
    assert main(["--lang", "de", "replay"]) == 2
    assert capsys.readouterr().err == ("lancards replay: Fehler: noch kein Spiel in lancards "
                                       "history: lancards play beginnt eines (oder gib eine "
                                       "Protokolldatei an)\n")


def test_history_of_an_empty_folder_says_how_to_begin(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["history"]) == 0
    assert capsys.readouterr().out == (f"no games yet in {tmp_path / 'tables'}: lancards play "
                                       "starts one\n")


def test_history_says_why_a_folder_is_damaged_in_german(home: Path, capsys) -> None:
    capsys.readouterr()
    try:
        assert main(["--lang", "de", "history"]) == 0
        lines = capsys.readouterr().out.splitlines()
    finally:
        i18n.set_language("en")
    assert lines[5] == "     das Journal ist in Zeile 6 beschädigt"
    # the person of a lancards play table is "You" in English only (trial of 2026-12-05)
    assert lines[0].endswith("8s Rule!: Du hast gewonnen"), lines[0]
    assert lines[1].startswith("     Ada: 215, Bram: 205, Du: 80 Punkte · "), lines[1]
    assert lines[3] == ("     Ada: 215, Bram: 205, Du: 80 Punkte nach Runde 8 · lancards resume "
                        "aaaa000000000001")
    assert lines[2].endswith("  8s Rule!: nicht beendet")  # never "unfertig" (the trial)
    assert lines[9] == "     table.json ist nicht lesbar (nicht das JSON eines Tisches)"


def test_history_says_you_left_with_the_result_when_it_came_and_without_when_not(
        home: Path, capsys) -> None:
    """The trial of 2026-12-05: a seat that left for good was listed as ``finished (lancards
    audit tells the result)`` while ``lancards audit`` said UNFINISHED (its record ends at the
    leave). The ``left`` marker says so; the result where this machine saw the game's end."""
    from lancards.cli import i18n

    done = next(f for f in (home / "tables").iterdir() if (f / "finished").exists())
    (done / "left").touch()
    capsys.readouterr()
    assert main(["history"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == \
        "  1  2026-11-30 00:53  8s Rule!: You won (you left the table)"
    try:  # whole within 80 columns in German too (the trial cut "(du hast den Tisch verl…")
        assert main(["--lang", "de", "history"]) == 0
        assert capsys.readouterr().out.splitlines()[0] == \
            "  1  2026-11-30 00:53  8s Rule!: Du hast gewonnen (du bist gegangen)"
    finally:
        i18n.set_language("en")
    (done / "outcome.json").unlink()  # the leave's record: no result came here
    assert main(["history"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == \
        "  1  2026-11-30 00:53  8s Rule!: you left the table"
    assert main(["history", "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (row["status"], row["left"], row["outcome"]) == ("finished", True, None)
    try:
        assert main(["--lang", "de", "history"]) == 0
        assert capsys.readouterr().out.splitlines()[0].endswith(
            "8s Rule!: du hast den Tisch verlassen")
    finally:
        i18n.set_language("en")


def test_a_game_is_listed_at_its_result_when_that_came_after_its_journal(
        home: Path, capsys) -> None:
    """The trial of 2026-12-05: a host whose person left while its bots played on gets the
    result in its folder at the game's end; the listing said the time of the leave."""
    done = next(f for f in (home / "tables").iterdir() if (f / "finished").exists())
    os.utime(done / "outcome.json", (T0 + 5400, T0 + 5400))  # 90 minutes after the leave
    capsys.readouterr()
    assert main(["history"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "  1  2026-11-30 02:23  8s Rule!: You won"


def test_a_table_cancelled_before_anything_was_written_is_not_listed(home: Path, capsys) -> None:
    """The trial of 2026-12-05: a host or guest that pressed q on its waiting screen left a
    folder with its lock alone, listed as "unknown game: damaged" and taken by ``audit 1``."""
    cancelled = home / "tables" / "84af000000000009"
    cancelled.mkdir()
    (cancelled / "lock").touch()
    (cancelled / "holder.json").write_text("{}")
    capsys.readouterr()
    assert main(["history", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "84af000000000009" not in [r["table"] for r in rows] and len(rows) == 5


def test_replay_tells_the_person_of_a_play_table_as_you(tmp_path: Path, monkeypatch, capsys
                                                        ) -> None:
    """The trial of 2026-12-05: ``replay`` of a ``lancards play`` game said ``You added B8 to
    combination 1 (You's run 9-11)``; the seat nicknamed "You" is told as the reader."""
    (tmp_path / "identity.json").write_text(Identity(b"\x05" * 32, "You").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["play", "--autoplay", "--game", "level8", "--seed", "5", "--bots", "2",
                 "--bot-level", "greedy", "--bot-delay", "0"]) == 0
    capsys.readouterr()
    assert main(["replay", "1"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert "   7  You added B8 to combination 1 (your run 9-11)" in told
    assert not any("You's" in line for line in told)


def test_audit_of_a_game_being_played_now_says_so(home: Path, capsys) -> None:
    """The trial of 2026-12-05: ``audit`` of a game open in another window said "lancards
    resume continues it", and resume was refused (the folder is in use)."""
    from lancards.p2p.net.folder_lock import proc_start

    folder = home / "tables" / "aaaa000000000001"
    (folder / "holder.json").write_text(json.dumps(
        {"pid": os.getpid(), "command": "lancards play", "since": T0,
         "proc_start": proc_start(os.getpid())}))
    capsys.readouterr()
    assert main(["audit", "2"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"lancards audit: error: game aaaa000000000001 has no record: it is being played now "
        f"(lancards play, process {os.getpid()}); its record is written when the game ends or "
        "pauses")
    (folder / "holder.json").write_text(json.dumps(  # its process is gone: resume goes on
        {"pid": 2**22 + 7, "command": "lancards play", "since": T0, "proc_start": 1}))
    assert main(["audit", "2"]) == 2
    assert "lancards resume aaaa000000000001 continues it" in capsys.readouterr().err


def test_a_table_id_of_digits_names_the_table_not_an_entry(tmp_path: Path, monkeypatch) -> None:
    """The trial of 2026-12-06: ``audit 0642`` (table 0642507d) read "there is no game 642"."""
    from types import SimpleNamespace

    from lancards.cli import history
    from lancards.cli.errors import UsageError

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    records = {t: tmp_path / f"{t}.jsonl" for t in ("0642507d00000001", "6589750000000002",
                                                     "aaaa000000000003")}
    for path in records.values():
        path.write_text("{}\n")
    games = [SimpleNamespace(table=t, record=p, status="finished") for t, p in records.items()]
    monkeypatch.setattr(history, "list_games", lambda tables: games)
    assert history.record_path("0642") == str(records["0642507d00000001"])
    assert history.record_path("6589") == str(records["6589750000000002"])  # no game 6589
    assert history.record_path("2") == str(records["6589750000000002"])  # entry 2 as before
    with pytest.raises(UsageError, match="no table 9: give the number lancards history"):
        history.record_path("9")


def test_history_lines_are_whole_in_a_pipe_and_fit_a_terminal_of_any_width(
        home: Path, capsys, monkeypatch) -> None:
    """The trial of 2026-12-06: ``history`` cut every line at 80 columns, even in a wider
    terminal. A pipe or a file now gets whole lines; a terminal gets lines cut to its width."""
    import io
    import os as os_module

    from lancards.cli import history

    games = history.list_games(home / "tables")
    whole = history.lines(games, 0)
    assert whole[1].startswith("     Ada 215, Bram 205, You 80 points · table ")
    assert history.lines(games, 30)[:4] == [  # the result under the date, as it is too long
        "  1  2026-11-30 00:53  8s Rul…", "     You won", "     Ada 215, Bram 205,",
        f"     You 80 points · table {games[0].table[:2]}…"]  # wrapped between players
    assert history.output_width() == 0  # pytest captures standard output: not a terminal

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr("shutil.get_terminal_size",
                        lambda fallback=(80, 24): os_module.terminal_size((30, 24)))
    assert history.output_width() == 30


def test_a_result_too_long_for_the_terminal_goes_whole_on_a_line_of_its_own(home: Path) -> None:
    """The persona suite read ``  1  2026-12-07 14:09  Level 8: stopped: cyd was caught
    cheating (lancards audi…`` at 80 columns: the command that tells how was cut. A result
    that does not fit beside the date and the game now has a line of its own under them; a
    result that fits stays beside them."""
    from dataclasses import replace

    from lancards.cli import history

    (game,) = [g for g in history.list_games(home / "tables") if g.status == "finished"]
    stopped = replace(game, outcome=None, cheater=1)  # the table halted on Bram's cheat
    assert history.lines([stopped], 80) == [
        "  1  2026-11-30 00:53  8s Rule!:",
        "     stopped: Bram was caught cheating (lancards audit shows how)",
        f"     Ada, Bram, You · table {game.table[:8]}"]
    assert history.lines([stopped], 0)[0] == (  # a pipe: one whole line, as before
        "  1  2026-11-30 00:53  8s Rule!: stopped: Bram was caught cheating (lancards audit "
        "shows how)")
    assert history.lines([game], 80)[0] == "  1  2026-11-30 00:53  8s Rule!: You won"


def test_a_cheat_said_in_the_tables_words_is_wrapped_between_words(home: Path) -> None:
    """A table halted on a move the rules refuse is said as its table said it, from the
    ``detail`` its ``halted.json`` keeps (the move by its notation, read again by the rules,
    and why): longer than a line at 80 columns, it is wrapped between words, not cut."""
    from dataclasses import replace

    from lancards.cli import history

    (game,) = [g for g in history.list_games(home / "tables") if g.status == "finished"]
    stopped = replace(game, outcome=None, cheater=1, halted={"seat": 1, "kind": "illegal",
                      "detail": {"cause": {"code": "off-layout", "params": {
                          "action": "1: play R6#40", "card": "R6#40"}}}})
    said = ("stopped: Bram signed a move the rules do not allow: play R6 (R6 does not fit the "
            "layout: play an 8, or the next card up or down in an opened suit)")
    assert history.result_words(stopped) == said
    assert history.lines([stopped], 80) == [
        "  1  2026-11-30 00:53  8s Rule!:",
        "     stopped: Bram signed a move the rules do not allow: play R6 (R6 does not",
        "     fit the layout: play an 8, or the next card up or down in an opened suit)",
        f"     Ada, Bram, You · table {game.table[:8]}"]
    assert history.lines([stopped], 0)[0] == f"  1  2026-11-30 00:53  8s Rule!: {said}"
    i18n.set_language("de")
    try:
        assert history.result_words(stopped) == (
            "angehalten: Bram hat einen Zug signiert, den die Regeln nicht erlauben: R6 spielen "
            "(R6 passt nicht an die Auslage: spiel eine 8 oder die nächste Karte auf- oder "
            "abwärts in einer eröffneten Farbe)")
    finally:
        i18n.set_language("en")


def test_resume_without_a_table_id_names_the_table_it_chose(home: Path, capsys) -> None:
    """The evening trial of 2026-12-06: ``lancards resume`` went on with the most recent
    unfinished table without naming it. It now says which, with whom, and how to choose
    another when there are several (here the unfinished copy, the damaged one and the junk
    folder: three; the unfinished copy is the most recent)."""
    from lancards.cli.play import chosen_words, find_table

    chosen = find_table(None)
    assert chosen.name == "aaaa000000000001"
    assert chosen_words(chosen, 3) == (
        "resuming table aaaa0000 (8s Rule!, with Ada, Bram): the most recent of 3 unfinished "
        "tables; lancards history lists them, lancards resume TABLE takes another")
    assert chosen_words(chosen, 1) == "resuming table aaaa0000 (8s Rule!, with Ada, Bram)"
    # lancards resume says it once the folder is locked (a refusal before stays one line)
    (home / "tables" / "junk").rename(home / "junk")  # no table.json to resume
    shutil.rmtree(home / "tables" / "aaaa000000000002")
    capsys.readouterr()
    assert main(["resume", "--autoplay"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "resuming table aaaa0000 (8s Rule!, with Ada, Bram)", out
    assert main(["resume", "--autoplay", "aaaa000000000001"]) == 2  # finished now
    assert "resuming" not in capsys.readouterr().out


def test_the_chosen_table_is_said_wrapped_at_a_space_in_a_terminal(home: Path,
                                                                    monkeypatch) -> None:
    """The new-user trial of 2026-12-07 read ``... the most recent of 2 u`` / ``nfinished
    tables`` in an 80-column terminal once the table it resumed had closed: the line was
    printed whole and the terminal cut it at its last column. It is now wrapped at a space,
    as the lines printed after a game are (``echo``)."""
    import io
    import os as os_module

    from lancards.cli import i18n
    from lancards.cli.play import chosen_words
    from lancards.cli.tui.fit import echo

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.setattr("shutil.get_terminal_size",
                        lambda fallback=(80, 24): os_module.terminal_size((60, 24)))
    assert main(["resume", "--autoplay"]) == 0
    assert terminal.getvalue().splitlines()[:3] == [
        "resuming table aaaa0000 (8s Rule!, with Ada, Bram): the most",
        "   recent of 3 unfinished tables; lancards history lists",
        "   them, lancards resume TABLE takes another"]
    i18n.set_language("de")
    try:
        german = Terminal()
        echo(chosen_words(home / "tables" / "aaaa000000000001", 2), german)
    finally:
        i18n.set_language("en")
    assert german.getvalue().splitlines() == [
        "Tisch aaaa0000 wird fortgesetzt (8s Rule!, mit Ada, Bram):",
        "   der jüngste von 2 offenen Tischen; lancards history zeigt",
        "   sie, lancards resume TABLE nimmt einen anderen"]


def test_an_unfinished_game_is_nicht_beendet_in_german(home: Path, capsys) -> None:
    """The trial of 2026-12-06: "es ist unfertig", "kein unfertiger Tisch" read badly; a game
    is "nicht beendet", a table to resume "offen"."""
    capsys.readouterr()
    try:
        assert main(["--lang", "de", "audit", "2"]) == 2
        assert capsys.readouterr().err.strip() == (
            "lancards audit: Fehler: Spiel aaaa000000000001 hat kein Protokoll: es ist nicht "
            "beendet (lancards resume aaaa000000000001 setzt es fort)")
        for name in ("aaaa000000000001", "aaaa000000000002", "bbbb000000000003", "junk"):
            shutil.rmtree(home / "tables" / name)
        assert main(["--lang", "de", "resume", "--autoplay"]) == 2
        assert capsys.readouterr().err.strip() == (
            f"lancards resume: Fehler: kein offener Tisch zum Fortsetzen in {home / 'tables'}")
    finally:
        i18n.set_language("en")


def _unfinished_at(home: Path, written: int, journal: int | None = None) -> Path:
    """The unfinished copy as it stood when the game had written ``totals.json`` after round
    ``written`` (``kept-totals``): its journal cut back to the bytes that file names, or to
    those the file of round ``journal`` names (a later moment), and that file in place."""
    from lancards.cli.running_totals import FILE

    folder = home / "tables" / "aaaa000000000001"
    kept = home / "kept-totals" / f"round-{written}.json"
    cut = json.loads((home / "kept-totals" / f"round-{journal or written}.json").read_text())
    raw = (folder / "journal.jsonl").read_bytes()
    (folder / "journal.jsonl").write_bytes(raw[:cut["journal"]["bytes"]])
    shutil.copy(kept, folder / FILE)
    return folder


def _second_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """The unfinished copy's two lines of ``lancards ARGS history`` (second in the list)."""
    for f in (Path(os.environ["LANCARDS_HOME"]) / "tables" / "aaaa000000000001").iterdir():
        os.utime(f, (T0 - 3600, T0 - 3600))
    capsys.readouterr()
    assert main([*args, "history"]) == 0
    return capsys.readouterr().out.splitlines()[2:4]


def test_an_unfinished_game_is_listed_with_its_totals_after_its_last_round(
        home: Path, capsys) -> None:
    """The new-user trial of 2026-12-07: an unfinished 8s Rule! game was listed with its
    players alone (a replay of its record to find the totals takes seconds a game). The
    game keeps them in ``totals.json`` at each round's end; here its journal as it was when
    round 3's were written (the autoplay's own line then: ``round 3: Ada 90, Bram 205, You
    90``)."""
    _unfinished_at(home, 3)
    assert _second_lines(capsys) == [
        "  2  2026-11-29 23:53  8s Rule!: unfinished",
        "     Ada 90, Bram 205, You 90 points after round 3 · lancards resume aaaa000000000001"]
    try:
        assert _second_lines(capsys, "--lang", "de") == [
            "  2  2026-11-29 23:53  8s Rule!: nicht beendet",
            "     Ada: 90, Bram: 205, Du: 90 Punkte nach Runde 3 · lancards resume "
            "aaaa000000000001"]
    finally:
        i18n.set_language("en")


def test_a_crash_around_the_totals_write_never_shows_wrong_totals(home: Path, capsys) -> None:
    """A kill -9 just before ``totals.json`` is written at round 4's end leaves round 3's
    beside a journal gone past it: the totals after round 3, said so; just after, round 4's;
    during it, a torn temporary file beside the old one. A missing file, or one the journal
    does not bear out (shorter than the bytes it names, or a move voided after them), gives
    no totals."""
    from lancards.cli.running_totals import FILE
    from lancards.p2p.net.store import encode_line

    resume = " · lancards resume aaaa000000000001"
    folder = _unfinished_at(home, 3, journal=4)  # killed before the write
    assert _second_lines(capsys)[1] == f"     Ada 90, Bram 205, You 90 points after round 3{resume}"
    (folder / (FILE + ".tmp")).write_bytes(b'{"round": 4, "scores": [140, 2')  # during it
    assert _second_lines(capsys)[1] == f"     Ada 90, Bram 205, You 90 points after round 3{resume}"
    shutil.copy(home / "kept-totals" / "round-4.json", folder / FILE)  # after it
    assert _second_lines(capsys)[1] == (
        f"     Ada 140, Bram 235, You 90 points after round 4{resume}")
    with (folder / "journal.jsonl").open("ab") as journal:  # a move of this seat voided
        journal.write(encode_line("void", {"from": 1000}))
    assert _second_lines(capsys)[1] == f"     Ada, Bram, You{resume}"
    _unfinished_at(home, 4, journal=3)  # a journal shorter than the file says
    assert _second_lines(capsys)[1] == f"     Ada, Bram, You{resume}"
    (folder / FILE).unlink()
    assert _second_lines(capsys)[1] == f"     Ada, Bram, You{resume}"


def test_an_unfinished_level_8_game_is_listed_with_its_levels(home: Path, capsys) -> None:
    """The same file for Level 8 holds the levels (history showed none for an unfinished
    game either): ``ann level 3`` as a finished game's list says them."""
    import hashlib

    from lancards.cli.running_totals import FILE

    folder = home / "tables" / "aaaa000000000001"
    data = json.loads((folder / "table.json").read_text())
    (folder / "table.json").write_text(json.dumps({**data, "rule_set": "level8-master"}))
    raw = (folder / "journal.jsonl").read_bytes()
    (folder / FILE).write_text(json.dumps({"round": 2, "scores": [3, 2, 1], "journal": {
        "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}}))
    assert _second_lines(capsys) == [
        "  2  2026-11-29 23:53  Level 8 Master: unfinished",
        "     Ada level 3, Bram level 2, You level 1 after round 2 · lancards resume "
        "aaaa000000000001"]
