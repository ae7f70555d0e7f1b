"""Checkpoints (issue 24, situation 7): a resume from this peer's checkpoint is the full replay
(state hash, record bytes, next outputs), a damaged, stale or foreign checkpoint is refused and
the whole journal replayed, and a kill during the checkpoint write leaves the old one or the new
one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lancards.cli.bench.resume import play
from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.checkpoint import MAGIC, snapshot
from lancards.p2p.protocol.core import GameCore

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A whole seeded 8s Rule! game of 3 bots; seat 0's journal and its checkpoints."""
    folder = tmp_path_factory.mktemp("checkpoint") / "seat0"
    table, ids, cores = play("eights", 3, folder)
    journal = TableStore(folder).read()
    blobs = {}
    for path in sorted((folder / "checkpoints").glob("*.bin"), key=lambda p: int(p.stem)):
        _, _, blob = path.read_bytes().partition(b"\n")
        blobs[int(path.stem)] = blob
    return table, ids, cores, journal, blobs


def _covered(blob: bytes) -> int:
    size = int.from_bytes(blob[len(MAGIC):len(MAGIC) + 4], "big")
    return int(json.loads(blob[len(MAGIC) + 4:len(MAGIC) + 4 + size])["lines"])


def _resume(table, me, secret, lines, blob=None):
    core = GameCore(me, table, SeededRandomBytes("resume"), secret_key=secret, envelope_seq=900)
    outputs = core.restore(lines, blob)
    return core, outputs


def _same(a: GameCore, b: GameCore, out_a, out_b) -> None:
    assert a.state_hash() == b.state_hash()
    assert [e.to_dict() for e in a.record.entries] == [e.to_dict() for e in b.record.entries]
    assert [repr(o) for o in out_a] == [repr(o) for o in out_b]  # byte-identical sends
    assert a.expected() == b.expected() and a.legal_actions() == b.legal_actions()


@pytest.mark.timeout(300)
def test_a_resume_from_a_checkpoint_is_the_full_replay(game):
    table, ids, cores, journal, blobs = game
    secret = cores[0].deck.secret_key
    assert len(blobs) >= 3  # written every CHECKPOINT_EVERY entries
    for blob in list(blobs.values())[:: max(1, len(blobs) // 3)]:
        k = _covered(blob)
        for cut in (k, k + 5):
            lines = journal.lines[:cut]
            full, out_full = _resume(table, ids[0], secret, lines)
            fast, out_fast = _resume(table, ids[0], secret, lines, blob)
            assert fast.checkpoint_refused is None and fast.checkpoint_lines == k
            assert full.checkpoint_lines == 0
            _same(full, fast, out_full, out_fast)


@pytest.mark.timeout(300)
def test_a_damaged_foreign_or_stale_checkpoint_is_refused_and_everything_replayed(game):
    table, ids, cores, journal, blobs = game
    secret = cores[0].deck.secret_key
    blob = list(blobs.values())[1]
    k = _covered(blob)
    lines = journal.lines[:k + 3]
    full, out_full = _resume(table, ids[0], secret, lines)
    damaged = bytearray(blob)
    damaged[-100] ^= 1
    cases = {
        bytes(damaged): "its MAC does not check (damaged, or not this seat's)",
        blob[:-1]: "its MAC does not check (damaged, or not this seat's)",
        b"junk": "not a checkpoint of this format",
    }
    for bad, why in cases.items():
        core, out = _resume(table, ids[0], secret, lines, bad)
        assert core.checkpoint_refused == why and core.checkpoint_lines == 0
        _same(full, core, out_full, out)
    # stale: a checkpoint of more lines than this journal holds (it was cut back)
    core, _ = _resume(table, ids[0], secret, journal.lines[:k - 1], blob)
    assert core.checkpoint_refused == f"it covers {k} lines of a journal of {k - 1}"
    # another seat's core cannot use (or even unpickle) seat 0's checkpoint
    other = GameCore(ids[1], table, SeededRandomBytes("x"), secret_key=cores[1].deck.secret_key)
    other.restore(journal.lines[:k], blob)
    assert other.checkpoint_refused == "its MAC does not check (damaged, or not this seat's)"


@pytest.mark.timeout(300)
def test_a_checkpoint_that_disagrees_with_the_record_is_refused(game):
    """A checkpoint with a valid MAC whose state does not hash to the state hash the record
    carries at its last entry, or whose entries are not the journal's, is refused."""
    table, ids, cores, journal, blobs = game
    secret = cores[0].deck.secret_key
    k = _covered(list(blobs.values())[1])
    live, _ = _resume(table, ids[0], secret, journal.lines[:k])
    entries = len(live.record)
    live._state = live.game.new_game(live.rules, live.n)  # a state the record never had
    core, _ = _resume(table, ids[0], secret, journal.lines[:k], snapshot(live, k))
    assert core.checkpoint_refused == (
        f"its state does not hash to entry {entries - 1}'s state hash")
    live2, _ = _resume(table, ids[0], secret, journal.lines[:k])
    later = journal.lines[:k] + [kl for kl in journal.lines[k:] if kl[0] == "entry"][:1]
    core, _ = _resume(table, ids[0], secret, later, snapshot(live2, len(later)))
    assert core.checkpoint_refused == f"it holds {entries} entries, the journal {entries + 1} there"


def test_the_store_gives_a_checkpoint_back_only_for_the_journal_it_was_taken_after(tmp_path):
    store = TableStore(tmp_path)
    store.append_all([("entry", {"seq": 0}), ("entry", {"seq": 1})])
    assert store.lines == 2
    assert store.save_checkpoint(b"BLOB")
    store.append("entry", {"seq": 2})
    store.close()
    again = TableStore(tmp_path)
    again.read()
    assert again.load_checkpoint() == b"BLOB"  # the journal still begins with those bytes
    raw = (tmp_path / "journal.jsonl").read_bytes()
    (tmp_path / "journal.jsonl").write_bytes(raw.replace(b'"seq":1', b'"seq":7', 1))
    cut = TableStore(tmp_path)
    with pytest.raises(Exception, match="damaged at line 2"):
        cut.read()  # (the CRC catches it first)
    lines = raw.split(b"\n")
    (tmp_path / "journal.jsonl").write_bytes(lines[0] + b"\n")  # shorter than the checkpoint's
    short = TableStore(tmp_path)
    short.read()
    assert short.load_checkpoint() is None


@pytest.mark.timeout(120)
def test_a_kill_during_the_checkpoint_write_leaves_the_old_one_or_the_new_one(tmp_path):
    """The crash hook counts the checkpoint write (journal line 1, checkpoint 2, journal line
    3, checkpoint 4): killed before, torn in, or after the 4th, the journal is whole and the
    checkpoint is the old one (``OLD``) or the new one (``NEW``), never a part."""
    script = ("import sys\nfrom lancards.p2p.net.store import TableStore\n"
              "s = TableStore(sys.argv[1])\n"
              "s.append('entry', {'seq': 0}); s.save_checkpoint(b'OLD' * 1000)\n"
              "s.append('entry', {'seq': 1}); s.save_checkpoint(b'NEW' * 1000)\n")
    found = {}
    for when in ("before", "torn", "after"):
        folder = tmp_path / when
        proc = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                              env={**os.environ, CRASH_ENV: f"{when}:4"}, timeout=60)
        assert proc.returncode == -signal.SIGKILL
        store = TableStore(folder)
        state = store.read()
        blob = store.load_checkpoint()
        found[when] = ([line["seq"] for _, line in state.lines], blob[:3] if blob else None)
    assert found == {"before": ([0, 1], b"OLD"), "torn": ([0, 1], b"OLD"),
                     "after": ([0, 1], b"NEW")}
