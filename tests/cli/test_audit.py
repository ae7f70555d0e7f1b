"""``lancards audit`` and ``lancards replay`` on a real record (in-memory peers, mental poker)."""

from __future__ import annotations

import json

import pytest

from lancards.cli.main import main
from tests.p2p.core_harness import make_cores


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    cores, net = make_cores(2, "level8", seed="audit-cli")
    net.start()
    net.run()
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    cores[0].record.write(path)
    return path, cores[0]


def test_audit_accepts_the_record(record_file, capsys):
    path, core = record_file
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    winner = core.game.outcome(core.state).winners[0]
    assert out.startswith(f"OK: level8, {len(core.record)} entries verified, game finished")
    assert f"winner: {core.players[winner]}" in out


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
    assert out.startswith(f"REJECTED: record file line {target + 2} (entry {target})")


def test_audit_json_and_replay(record_file, capsys):
    path, core = record_file
    assert main(["audit", "--json", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["entries"] == len(core.record)
    assert verdict["winners"] == list(core.game.outcome(core.state).winners)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    actions = [e.payload["a"] for e in core.record.entries if e.payload["t"] == "action"]
    moves = [line.split(None, 2)[2] for line in out if line[:4].strip().isdigit()]
    assert moves == actions
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
    assert capsys.readouterr().out.startswith("REJECTED: line 1: the header's start statement")
