"""``lancards audit`` and ``lancards replay`` on a real record (in-memory peers, mental poker)."""

from __future__ import annotations

import io
import json
import os
import re
import sys

import pytest

from lancards.cli.main import main
from lancards.cli.tui import fit
from lancards.p2p.net.record_file import write_record
from tests.p2p.core_harness import make_cores


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    cores, net = make_cores(2, "level8", seed="audit-cli")
    net.start()
    net.run()
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    write_record(cores[0].record, path)
    return path, cores[0]


def test_audit_accepts_the_record(record_file, capsys):
    path, core = record_file
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    winner = core.game.outcome(core.state).winners[0]
    # moves, as a resume counts them: 241 of the record's 273 entries (shuffles, keys, shares)
    assert len(core.record) == 273
    assert out.startswith("OK: Level 8, 241 moves verified, game finished")
    assert f"winner: {core.players[winner]}" in out
    named = ", ".join(f"{p.nick} {'WIN' if s == 9 else f'level {s}'}" for p, s in zip(
        core.players, core.game.outcome(core.state).scores, strict=True))
    assert out.rstrip("\n").endswith(f"; scores: {named}")  # by nickname, not a list
    # the winner's level 9 is said as history says it (a trial read "Bram 9" beside "Bram WIN")
    assert f"{core.players[winner].nick} WIN" in out and " 9" not in out.split("scores:")[1]


def test_audit_rejects_one_changed_byte_naming_the_entry(record_file, tmp_path, capsys):
    path, _core = record_file
    lines = path.read_bytes().split(b"\n")
    target = 30  # line 31 of the file holds entry 30
    entry = json.loads(lines[target + 1])["entry"]
    assert entry["seq"] == target
    line = lines[target + 1]
    i = line.index(b'"state":"') + 9
    lines[target + 1] = line[:i] + (b"0" if line[i:i + 1] != b"0" else b"1") + line[i + 1:]
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    assert main(["audit", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"REJECTED: record file line {target + 2} (entry {target + 1})")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_audit_and_replay_in_an_80_column_terminal_wrap_at_a_space(record_file, capsys,
                                                                    monkeypatch):
    """The new-user trial of 2026-12-07 read ``winner: Bram [YQI2-TJEK`` / ``-K272-SZPY]`` and
    replay's ``... discard tops`` / `` Y12 R15 - KEEP · melds 0`` at 80 columns: in a terminal
    every line wraps at a space under its own indent; into a pipe it stays whole."""
    path, _core = record_file
    piped, shown_lines = {}, {}
    for command in ("audit", "replay"):
        main([command, str(path)])
        piped[command] = capsys.readouterr().out.splitlines()
    monkeypatch.setattr(fit.shutil, "get_terminal_size",
                        lambda *a, **k: os.terminal_size((80, 24)))
    for command in ("audit", "replay"):
        shown = _Terminal()
        monkeypatch.setattr(sys, "stdout", shown)
        main([command, str(path)])
        monkeypatch.undo()
        lines = shown.getvalue().splitlines()
        assert max(len(line) for line in lines) <= 80
        # cut only at spaces, nothing lost: the same words in the same order
        assert shown.getvalue().split() == "\n".join(piped[command]).split()
        shown_lines[command] = lines
    verdict = piped["audit"][0]
    assert len(verdict) > 80 and re.search(r"winner: \w+ \[[A-Z0-9-]{19}\]", verdict)
    summary = next(line for line in piped["replay"] if len(line) > 80)
    assert summary.startswith("      round 1 · levels 1/1 · hands ")
    # its rest goes on under "round", three further in
    at = shown_lines["replay"].index(summary[:summary.rindex(" ", 0, 81)])
    assert shown_lines["replay"][at + 1] == "         " + summary[summary.rindex(" ", 0, 81) + 1:]
    assert shown_lines["audit"][0].startswith("OK: Level 8, ")
    assert shown_lines["audit"][1].startswith("   ")


def test_audit_json_and_replay(record_file, capsys):
    path, core = record_file
    assert main(["audit", "--json", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["entries"] == len(core.record)
    assert verdict["winners"] == list(core.game.outcome(core.state).winners)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    actions = [e.payload["a"] for e in core.record.entries if e.payload["t"] == "action"]
    told = [(int(line[:4]), line[6:]) for line in out if line[:4].strip().isdigit()]
    # Every move told in words, in order, cards by name: never a slot number (issue 15).
    assert sorted({n for n, _ in told}) == list(range(1, len(actions) + 1))
    assert [n for n, _ in told] == sorted(n for n, _ in told)
    assert not any("#" in text for _, text in told)
    names = [m.nick for m in core.players]
    for number, notation in enumerate(actions, start=1):
        seat = int(notation.split(":")[0])
        sentences = [text for n, text in told if n == number]
        assert sentences[0].lower().startswith(names[seat].lower()), (notation, sentences)
        if notation.endswith(": draw"):
            assert sentences[0].lower() == f"{names[seat]} drew from the draw pile".lower()
    summaries = [line.strip() for line in out if line.startswith("      round ")]
    assert len(summaries) == len(actions)
    final = core.game.view(core.state, None)
    levels = "/".join(str(v) if v < 9 else "WIN" for v in final.levels)
    assert summaries[-1].startswith(f"round {final.round} · levels {levels} · hands ")


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"), (b"", "is empty"),
])
def test_audit_unreadable_files_exit_2(tmp_path, capsys, content, message):
    path = tmp_path / "x.jsonl"
    if content is not None:
        path.write_bytes(content)
    assert main(["audit", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_audit_rejects_a_file_that_is_not_a_record(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n')
    assert main(["audit", str(path)]) == 1
    assert capsys.readouterr().out.startswith("REJECTED: record file line 1: not a lancards game "
                                              "record")


# Issue 11, situation 11: the audit reads bytes exactly; an unfinished record has its own
# exit status; never a traceback.


def _audit(tmp_path, data, capsys, name="x.jsonl"):
    path = tmp_path / name
    path.write_bytes(data)
    status = main(["audit", str(path)])
    return status, capsys.readouterr().out


def test_audit_rejects_an_added_or_missing_newline(record_file, tmp_path, capsys):
    path, _core = record_file
    data = path.read_bytes()
    status, out = _audit(tmp_path, data + b"\n", capsys)
    count = data.count(b"\n")
    assert status == 1 and out.startswith(f"REJECTED: record file line {count + 1}")
    assert "the line is empty" in out
    status, out = _audit(tmp_path, data + b"x", capsys)  # a byte after the closing line
    assert status == 1 and out.startswith(f"REJECTED: record file line {count + 1}: the last "
                                          "line has no newline")
    lines = data.split(b"\n")
    status, out = _audit(tmp_path, b"\n".join([*lines[:5], b"", *lines[5:]]), capsys)
    assert status == 1 and out.startswith("REJECTED: record file line 6: the line is empty")


def test_audit_of_a_record_cut_at_a_line_boundary_is_unfinished(record_file, tmp_path, capsys):
    path, _core = record_file
    lines = path.read_bytes().split(b"\n")[:-1]
    status, out = _audit(tmp_path, b"".join(line + b"\n" for line in lines[:40]), capsys)
    assert status == 3
    assert out.startswith("UNFINISHED: Level 8, 27 moves verified; the record stops after "
                          "line 40 without its signed closing line")
    status, out = _audit(tmp_path, b"".join(line + b"\n" for line in lines[:-1]), capsys)
    assert status == 3 and "without its signed closing line" in out


def test_audit_of_a_record_cut_mid_line_is_unfinished_and_replays_what_is_there(
        record_file, tmp_path, capsys):
    """The trial of 2026-12-05: a record cut short inside a line (a copy stopped half-way)
    was REJECTED, the word for a changed byte; the lines that are there verify, so it is
    unfinished, as a record cut at a line's end is."""
    path, core = record_file
    data = path.read_bytes()
    lines = data.split(b"\n")[:-1]
    count = len(lines)
    status, out = _audit(tmp_path, data[:-1], capsys)  # the closing line's newline lost
    assert status == 3
    assert out == (f"UNFINISHED: Level 8, 241 moves verified; the record is cut in the "
                   f"middle of line {count} (the {count - 1} lines before it verify)\n")
    cut = b"".join(line + b"\n" for line in lines[:40]) + lines[40][:77]
    status, out = _audit(tmp_path, cut, capsys, "r.jsonl")
    assert status == 3
    assert out == ("UNFINISHED: Level 8, 27 moves verified; the record is cut in the middle "
                   "of line 41 (the 40 lines before it verify)\n")
    assert main(["audit", "--json", str(tmp_path / "r.jsonl")]) == 3
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["ok"], verdict["entries"], verdict["moves"], verdict["finished"]) == (
        True, 39, 27, False)
    # the replay shows the 39 entries that are there
    assert main(["replay", str(tmp_path / "r.jsonl")]) == 0
    told = capsys.readouterr().out.splitlines()
    actions = sum(1 for e in core.record.entries[:39] if e.payload["t"] == "action")
    assert max(int(line[:4]) for line in told if line[:4].strip().isdigit()) == actions
    assert told[-1] == "the game is not finished"
    # a changed byte in a whole line before the cut is still REJECTED, naming its line
    bad = bytearray(cut)
    i = bad.index(b'"state":"', len(b"".join(line + b"\n" for line in lines[:30]))) + 9
    bad[i] = ord("0") if bad[i] != ord("0") else ord("1")
    status, out = _audit(tmp_path, bytes(bad), capsys)
    assert status == 1 and out.startswith("REJECTED: record file line 31 (entry 30)")
    # cut inside the first line: not a record at all
    status, out = _audit(tmp_path, lines[0][:50], capsys)
    assert status == 1 and out.startswith("REJECTED: record file line 1")
    try:
        from lancards.cli import i18n

        assert main(["--lang", "de", "audit", str(tmp_path / "r.jsonl")]) == 3
        assert capsys.readouterr().out == (
            "NICHT BEENDET: Level 8, 27 Züge geprüft; das Protokoll ist mitten in Zeile 41 "
            "abgeschnitten (die 40 Zeilen davor sind geprüft)\n")
    finally:
        i18n.set_language("en")


def test_audit_rejects_a_deeply_nested_header_without_a_traceback(tmp_path, capsys):
    status, out = _audit(tmp_path, b"[" * 100_000 + b"]" * 100_000 + b"\n", capsys)
    assert status == 1 and out.startswith("REJECTED: record file line 1:") and "nested" in out
    header = b'{"format":"lancards-record","genesis":' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    status, out = _audit(tmp_path, header, capsys)
    assert status == 1 and "nested" in out


def test_audit_rejects_any_changed_added_or_removed_byte(record_file, tmp_path, capsys):
    import random

    path, _core = record_file
    data = path.read_bytes()
    rng = random.Random(11)
    for _ in range(4):
        pos = rng.randrange(len(data))
        changed = bytearray(data)
        changed[pos] = (changed[pos] + 1 + rng.randrange(254)) % 256
        added = data[:pos] + bytes([rng.randrange(256)]) + data[pos:]
        removed = data[:pos] + data[pos + 1:]
        for variant in (bytes(changed), added, removed):
            status, out = _audit(tmp_path, variant, capsys)
            assert status in (1, 3) and "Traceback" not in out, (pos, out)
            if variant[-1:] == b"\n" and variant.count(b"\n") == data.count(b"\n"):
                assert status == 1, (pos, out)  # same lines, one differs: REJECTED


@pytest.mark.parametrize(("content", "words"), [
    (b"root:x:0:0:root:/root:/bin/bash\n", "record file line 1: not a lancards game record"),
    (bytes(range(256)) + b"\n", "record file line 1: "),
])
def test_audit_of_a_file_that_is_no_record_says_so_in_one_line(tmp_path, capsys, content,
                                                               words):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"REJECTED: {words}"), out
    assert len(out.splitlines()) == 1
    assert "Traceback" not in out and "codec" not in out


def test_audit_rejects_a_lone_surrogate_escape_without_a_traceback(record_file, tmp_path,
                                                                   capsys):
    """Issue 23, situation 1: a string holding ``\\ud800`` (valid JSON, not text) in an
    entry is refused at the record file's door, naming the line and the place."""
    path, _core = record_file
    lines = path.read_bytes().split(b"\n")
    target = next(i for i, x in enumerate(lines[1:]) if b'"a":"' in x)
    line = lines[target + 1]
    i = line.index(b'"a":"') + 5
    lines[target + 1] = line[:i] + b"\\ud800" + line[i:]
    bad = tmp_path / "surrogate.jsonl"
    bad.write_bytes(b"\n".join(lines))
    assert main(["audit", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out == (f"REJECTED: record file line {target + 2} (entry {target + 1}): rejected "
                   "message from record file: malformed: the message's field 'entry'.payload.a "
                   "holds a lone surrogate U+D800\n")


def test_audit_and_replay_in_german(record_file, tmp_path, capsys):
    """The verdict lines and the replay's framing in German (issue 28): exact lines; the
    record is the same bytes whatever the language."""
    from lancards.cli import i18n

    path, core = record_file
    outcome = core.game.outcome(core.state)
    winner = core.players[outcome.winners[0]]
    scores = ", ".join(f"{p.nick}: {'Sieg' if s >= 9 else f'Stufe {s}'}"  # as history says it
                       for p, s in zip(core.players, outcome.scores, strict=True))
    assert "Sieg" in scores  # a finished Level 8 game: its winner is past level 8
    try:
        assert main(["--lang", "de", "audit", str(path)]) == 0
        assert capsys.readouterr().out == (
            f"OK: Level 8, 241 Züge geprüft, Spiel beendet; Sieger: {winner}; "
            f"Endstand – {scores}\n")
        lines = path.read_bytes().split(b"\n")[:-1]
        cut = tmp_path / "cut.jsonl"
        cut.write_bytes(b"".join(line + b"\n" for line in lines[:40]))
        assert main(["--lang", "de", "audit", str(cut)]) == 3
        assert capsys.readouterr().out == (
            "NICHT BEENDET: Level 8, 27 Züge geprüft; das Protokoll endet nach Zeile 40 ohne "
            "seine signierte Schlusszeile (abgeschnitten, oder es wird noch gespielt)\n")
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"hello": 1}\n')
        assert main(["--lang", "de", "audit", str(bad)]) == 1
        assert capsys.readouterr().out == (
            "ABGELEHNT: Protokoll Zeile 1: kein lancards-Spielprotokoll (seine erste Zeile muss "
            "der signierte Start eines Tisches sein): Nachricht von der Protokolldatei abgelehnt: "
            "fehlerhaft aufgebaut\n")  # what was wrong, and that the file is the sender
        assert main(["--lang", "de", "replay", str(path)]) == 0
        out = capsys.readouterr().out.splitlines()
        names = [m.nick for m in core.players]
        assert out[0] == f"Level 8: {', '.join(str(m) for m in core.players)}"
        assert out[-1] == f"Sieger: {winner}; Endstand – {scores}"
        summaries = [line.strip() for line in out if line.startswith("      Runde ")]
        actions = [e for e in core.record.entries if e.payload["t"] == "action"]
        assert len(summaries) == len(actions)
        final = core.game.view(core.state, None)
        levels = "/".join(str(v) if v < 9 else "Sieg" for v in final.levels)
        assert summaries[-1].startswith(f"Runde {final.round} · Stufen {levels} · Hände ")
        shuffles = [line for line in out if line.endswith("mischt und beweist das Mischen")]
        assert len(shuffles) == sum(e.payload["t"] == "shuffle" for e in core.record.entries)
        draws = [n for n, e in enumerate(actions) if e.payload["a"].endswith(": draw")]
        first = int(actions[draws[0]].payload["a"].split(":")[0])
        assert f"{draws[0] + 1:4d}  {names[first]}: vom Nachziehstapel gezogen" in out
    finally:
        i18n.set_language("en")
    assert path.read_bytes() == b"".join(line + b"\n" for line in lines)


class _Keys:
    """A terminal's standard input that answers ``replay --step``'s prompts with ``lines``."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else ""


@pytest.mark.parametrize(("keys", "stopped_after"), [
    (("\n", "\n", "q\n"), 3),  # Enter, Enter, q
    (("Q\n",), 1),
    (("\n",), 2),  # then the end of input (Ctrl-D)
])
def test_replay_step_stops_at_q(record_file, monkeypatch, capsys, keys, stopped_after):
    path, _core = record_file
    monkeypatch.setattr("sys.stdin", _Keys(*keys))
    assert main(["replay", "--step", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("Enter: next move · q: stop ") == stopped_after
    out = out.replace("Enter: next move · q: stop ", "\n")  # a terminal echoes the Enter
    moves = [line for line in out.splitlines() if line[:4].strip().isdigit()]
    assert int(moves[-1][:4]) == stopped_after
    assert out.rstrip().endswith(f"stopped after move {stopped_after}")
    assert "winner" not in out and "won" not in out.splitlines()[-1]


def test_the_default_nickname_is_said_in_the_players_language(german):
    """The trial of 2026-12-06: ``lancards audit 1`` of a ``lancards play`` game read
    "Punkte: Ada 55, Bram 180, You 225" where the screens say "Du". Two seats nicknamed
    "You" keep it (neither is known to be the person)."""
    from types import SimpleNamespace

    from lancards.cli.record_tools import outcome_words, said_names

    report = SimpleNamespace(game="eights",
                             outcome=SimpleNamespace(winners=(2,), scores=(55, 180, 225)),
                             names=["Ada [AAAA]", "Bram [BBBB]", "You [CCCC]"])
    assert outcome_words(report) == "Sieger: Du [CCCC]; Endstand – Ada: 55, Bram: 180, Du: 225"
    assert said_names(["You", "Ada", "You"]) == ["You", "Ada", "You"]


def test_local_autoplay_says_du_in_german(german, capsys, tmp_path, monkeypatch):
    """``lancards play --autoplay`` in German: its round lines and result say "Du", as the
    table does (they said "You")."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "home"))
    assert main(["--lang", "de", "play", "--local", "--autoplay", "--game", "eights",
                 "--bots", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Runde 1 – Du: ") and out[-3:] == [
        "Bram: 120 Punkte", "Du: 160 Punkte", "Ada: 260 Punkte"]  # by place: lowest first


def test_host_autoplay_says_du_in_german(german, capsys, tmp_path, monkeypatch):
    """``lancards host --autoplay`` (a seat on 127.0.0.1 and its two bots) in German under the
    default nickname: its round lines and result say "Du", as the table does; they printed
    "Runde 8: bot1 220, You 20" and "You: 20 Punkte" (the local ``--autoplay`` said Du)."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "home"))
    assert main(["--lang", "de", "host", "--autoplay", "--game", "eights", "--players", "3",
                 "--bots", "2", "--interface", "127.0.0.1", "--bot-delay", "0",
                 "--name", "You"]) == 0
    out = capsys.readouterr().out.splitlines()
    rounds = [line for line in out if line.startswith("Runde ")]
    # a colon after each name, the round's number before a dash: "Runde 8 – bot1: 220, Du: 20"
    assert len(rounds) == 8 and all(re.fullmatch(r"Runde [1-8] – .*\bDu: -?\d+\b.*", r)
                                    for r in rounds), rounds
    assert all(re.fullmatch(r"Runde [1-8] – \S+: -?\d+, \S+: -?\d+, \S+: -?\d+", r)
               for r in rounds), rounds
    # the result line names its game, as play --autoplay's does (it said "Ergebnis: ...")
    won = [line for line in out if line.startswith("8s Rule!: ")]
    assert len(won) == 1 and re.fullmatch(r"8s Rule!: (Du gewinnst|\S+ gewinnt|.+ gewinnen) mit "
                                          r"der niedrigsten Summe( \(.+\))?", won[0]), out
    assert not any(line.startswith(("Ergebnis: ", "result: ")) for line in out), out
    # the host line names the nickname the others see, with its fingerprint: kept as chosen
    assert [line for line in out if "You" in line] == [
        next(line for line in out if line.startswith("Gastgeber You ["))], out
    assert len([line for line in out if re.fullmatch(r"Du: -?\d+ Punkte", line)]) == 1, out


def _face_up_and_next(out: list[str]) -> list[tuple[str, str]]:
    return [(line, out[i + 1]) for i, line in enumerate(out)
            if "face up" in line or "liegt offen" in line]


def test_the_replay_tells_the_card_turned_up_at_each_deal(record_file, capsys):
    """Ruling L8-2: the table's log says ``G4 is face up on Bram's discard pile`` at a round's
    start; the replay left it out, and its next line ``Ada drew G4 from Bram's discard pile``
    came from nowhere (the new-user trial of 2026-12-06). Once a round, as the table says it."""
    path, _core = record_file
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    told = _face_up_and_next(out)
    assert len(told) == 7 == sum(1 for line in out if "── round " in line) + 1  # round 1 too
    assert told[0] == ("      O10 is face up on ann's discard pile",
                       "   1  bob drew from the draw pile")
    assert told[5] == ("      J is face up on bob's discard pile",
                       " 181  ann drew J from bob's discard pile")
    assert out[out.index(told[5][0]) - 2:out.index(told[5][0])] == [
        "             ann shuffles and proves the shuffle",
        "             bob shuffles and proves the shuffle"]


def test_the_replay_tells_the_card_turned_up_in_german(record_file, capsys):
    from lancards.cli import i18n

    path, _core = record_file
    try:
        assert main(["--lang", "de", "replay", str(path)]) == 0
    finally:
        i18n.set_language("en")
    told = _face_up_and_next(capsys.readouterr().out.splitlines())
    assert len(told) == 7
    assert told[0] == ("      O10 liegt offen auf dem Ablagestapel von ann",
                       "   1  bob: vom Nachziehstapel gezogen")
    assert told[5][0] == "      J liegt offen auf dem Ablagestapel von bob"


def test_the_shuffle_line_agrees_with_you(german):
    """The trial of 2026-12-06 read "You  shuffles and proves the shuffle" and "Du  mischt und
    beweist das Mischen": the verb agrees with the default nickname, one space after the name,
    the names right-aligned in one column."""
    from lancards.cli import i18n
    from lancards.cli.record_tools import shuffle_line

    assert shuffle_line("Du") == "              Du mischst und beweist das Mischen"
    assert shuffle_line("bram") == "            bram mischt und beweist das Mischen"
    i18n.set_language("en")
    assert shuffle_line("You") == "             You shuffle and prove the shuffle"
    assert shuffle_line("bram") == "            bram shuffles and proves the shuffle"
    assert shuffle_line("a-very-long-nick") == (
        "      a-very-long-nick shuffles and proves the shuffle")


def test_a_fork_is_a_cheat_line_in_words_counting_entries_from_1(german):
    """The re-check trial of 2026-12-07 read ``Regelverstoß: Doppelspiel: eve [...] (seat 3)
    hat zwei verschiedene Einträge ...``, and the LAN trial a fork as ``rule breach:
    equivocation: ... numbered 21`` beside ``cheat caught at entry N``: a fork is one of the
    cheat lines, in words, with both moves, its entry counted from 1 as seats are."""
    from lancards.cli import i18n
    from lancards.cli.record_tools import verdict_lines
    from lancards.p2p.protocol.audit import AuditReport

    breach = "equivocation: eve [GOXQ-RTOB] (seat 3) signed two different entries numbered 21"
    fork = {"seat": 2, "entry": 21,
            "first": {"payload": {"t": "action", "a": "2: play R6#40", "open": []}},
            "second": {"payload": {"t": "action", "a": "2: play R2#7", "open": []}}}
    report = AuditReport(True, game="eights", entries=22, moves=14, status="unfinished",
                         unfinished="the table halted on a cheat", breaches=[breach],
                         names=["ann [A]", "bob [B]", "eve [GOXQ-RTOB]"], forks=[fork])
    assert verdict_lines(report) == [
        "NICHT BEENDET: 8s Rule!, 14 Züge geprüft; der Tisch wurde wegen Betrugs angehalten",
        "Betrug erkannt bei Eintrag 22: eve hat an derselben Stelle zwei verschiedene Züge "
        "signiert: R6 spielen und R2 spielen"]
    i18n.set_language("en")
    assert verdict_lines(report)[1:] == [
        "cheat caught at entry 22: eve signed two different moves for the same turn: play R6 "
        "and play R2"]
