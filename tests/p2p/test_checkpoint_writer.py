"""Checkpoints written by a child process (issue 23, the move latency tail): the peer goes on
while the child pickles and writes; a failed child leaves the old checkpoint; a crash point
reached in the child kills the peer (the crash is the peer's); a peer killed while its child
writes takes the child with it, so no checkpoint lands after the peer is gone."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.net.checkpoint_writer import CheckpointWriter, forking_possible
from lancards.p2p.net.crash_hook import CRASH_ENV
from lancards.p2p.net.store import TableStore

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not forking_possible(), reason="checkpoints fork on Linux only")


def _until(predicate, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not predicate() and time.monotonic() < end:
        time.sleep(0.01)
    return predicate()


def _blob_after(go: Path, blob: bytes):
    def make() -> bytes:  # runs in the child: waits for the test's word
        _until(go.exists)
        return blob
    return make


def _checkpoint_of(folder: Path) -> bytes | None:
    store = TableStore(folder)
    store.read()
    return store.load_checkpoint()


@linux_only
@pytest.mark.timeout(60)
def test_the_child_writes_while_the_peer_goes_on(tmp_path):
    store = TableStore(tmp_path / "t")
    store.append_all([("entry", {"seq": 0}), ("entry", {"seq": 1})])
    writer = CheckpointWriter(store)
    go = tmp_path / "go"
    writer.write(_blob_after(go, b"NEW"))
    assert writer.busy and not (tmp_path / "t" / "checkpoint.bin").exists()
    store.append("entry", {"seq": 2})  # the peer journals on meanwhile
    writer.write(lambda: b"SECOND")  # one child at a time: ignored
    go.touch()
    assert _until(lambda: not writer.busy)
    assert writer.written == 1
    store.close()
    assert _checkpoint_of(tmp_path / "t") == b"NEW"  # taken after the first two lines


@linux_only
@pytest.mark.timeout(60)
def test_a_child_that_fails_leaves_the_old_checkpoint(tmp_path):
    store = TableStore(tmp_path / "t")
    store.append("entry", {"seq": 0})
    assert store.save_checkpoint(b"OLD")
    writer = CheckpointWriter(store)

    def broken() -> bytes:
        raise RuntimeError("pickling failed")

    writer.write(broken)
    assert _until(lambda: not writer.busy)
    assert writer.written == 0
    store.close()
    assert _checkpoint_of(tmp_path / "t") == b"OLD"


def test_without_fork_the_peer_writes_it_itself(tmp_path):
    store = TableStore(tmp_path / "t")
    store.append("entry", {"seq": 0})
    writer = CheckpointWriter(store, fork=False)
    writer.write(lambda: b"INLINE")
    assert not writer.busy and writer.written == 1
    assert asyncio.run(writer.finish(1.0))
    store.close()
    assert _checkpoint_of(tmp_path / "t") == b"INLINE"


_PEER = """
import sys, time
from pathlib import Path
from lancards.p2p.net.checkpoint_writer import CheckpointWriter
from lancards.p2p.net.store import TableStore
folder, go = Path(sys.argv[1]), Path(sys.argv[2])
store = TableStore(folder)
store.append('entry', {'seq': 0})
writer = CheckpointWriter(store)
def make():
    while not go.exists():
        time.sleep(0.01)
    return b'NEW' * 1000
writer.write(make)
print(writer._child, flush=True)
mode = sys.argv[3]
if mode == 'kill':
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)
while True:  # the peer goes on until its child's crash point kills it
    store.append('entry', {'seq': 1}) if store.lines == 1 else None
    time.sleep(0.01)
"""


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    status = Path(f"/proc/{pid}/stat")
    return status.exists() and status.read_text().split(") ")[-1].startswith("Z")


@linux_only
@pytest.mark.timeout(60)
@pytest.mark.parametrize(("when", "left"), [("torn", None), ("after", b"NEW")])
def test_a_crash_point_in_the_child_kills_the_peer(tmp_path, when, left):
    """``checkpoint-torn:1`` and ``checkpoint-after:1`` reached in the child kill the peer
    first: the peer's exit is the kill, its journal whole, the checkpoint none (a torn
    temporary file only) or the new one."""
    go = tmp_path / "go"
    go.touch()
    proc = subprocess.run([sys.executable, "-c", _PEER, str(tmp_path / "t"), str(go), "run"],
                          cwd=ROOT, env={**os.environ, CRASH_ENV: f"checkpoint-{when}:1"},
                          capture_output=True, timeout=30)
    assert proc.returncode == -signal.SIGKILL
    store = TableStore(tmp_path / "t")
    assert [line["seq"] for _, line in store.read().lines][:1] == [0]
    blob = store.load_checkpoint()
    assert (blob[:3] if blob else None) == (left[:3] if left else None)


@linux_only
@pytest.mark.timeout(60)
def test_a_peer_killed_while_its_child_writes_takes_the_child_with_it(tmp_path):
    go = tmp_path / "go"
    proc = subprocess.run([sys.executable, "-c", _PEER, str(tmp_path / "t"), str(go), "kill"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == -signal.SIGKILL
    child = int(proc.stdout.split()[0])
    assert _until(lambda: _gone(child), 10)  # PR_SET_PDEATHSIG: killed with its parent
    go.touch()
    time.sleep(0.3)  # a child still alive would now write NEW
    assert _checkpoint_of(tmp_path / "t") is None
