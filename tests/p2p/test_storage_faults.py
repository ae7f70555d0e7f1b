"""Storage faults are errors, not crashes (issue 24, situation 3, in memory): a journal write
that fails mid-game is cut back, pauses the seat, and nothing that was not made durable is
ever sent; the journal stays whole and takes appends again once the disk has room."""

from __future__ import annotations

import asyncio
import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from lancards.p2p.net import store as store_module
from lancards.p2p.net.node import PeerNode
from lancards.p2p.net.store import StorageError, TableStore, describe_fault
from lancards.p2p.protocol.core import Output
from tests.p2p.core_harness import Network, entry_of, make_cores

FULL = "the disk is full: cannot write {}; free space and run `lancards resume`"


class FailingDisk:
    """``os.write`` and ``os.fsync`` of one store's journal fail from its ``after``-th
    journal write on (a full disk: half of that write reaches the file, then ENOSPC), as
    long as :attr:`full` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: TableStore, after: int,
                 code: int = errno.ENOSPC, on: str = "write") -> None:
        self.store, self.after, self.code, self.on = store, after, code, on
        self.writes = 0
        self.full = True
        self._write, self._fsync = os.write, os.fsync
        monkeypatch.setattr(store_module.os, "write", self.write)
        monkeypatch.setattr(store_module.os, "fsync", self.fsync)

    def _mine(self, fd: int) -> bool:
        return self.full and fd == self.store._fd

    def write(self, fd: int, data: Any) -> int:
        if self._mine(fd) and self.on == "write":
            self.writes += 1
            if self.writes >= self.after:
                if self.writes == self.after and len(data) > 1:
                    return self._write(fd, bytes(data[: len(data) // 2]))  # a short write
                raise OSError(self.code, os.strerror(self.code))
        return self._write(fd, data)

    def fsync(self, fd: int) -> None:
        if self._mine(fd) and self.on == "fsync":
            self.writes += 1
            if self.writes >= self.after:
                raise OSError(self.code, os.strerror(self.code))
        self._fsync(fd)


class NodeNetwork(Network):
    """The in-memory network where seat 0's outputs are carried out by a real
    :class:`PeerNode` (its journal on disk; its sends recorded, then delivered)."""

    def __init__(self, cores: list[Any], folder: Path) -> None:
        super().__init__(cores)
        self.me = cores[0]
        self.sent: list[bytes] = []
        self.store = TableStore(folder)
        self.node = PeerNode(self.me, self, self.store)  # type: ignore[arg-type]
        self.size_before = 0
        """The journal's size before the node's latest batch."""

    # -- the mesh of the node -------------------------------------------------------------------

    def admit(self, keys: Any) -> None:
        pass

    def send(self, to: bytes, data: bytes) -> None:
        self.sent.append(data)
        self.queue.append((self.me.me.public_key, to, data))

    # -- the network ---------------------------------------------------------------------------

    def post(self, sender: bytes, outputs: list[Output]) -> None:  # type: ignore[override]
        if sender == self.me.me.public_key:
            path = self.store.journal_path
            self.size_before = path.stat().st_size if path.exists() else 0
            self.node.handle(outputs)
        else:
            super().post(sender, outputs)


def play_until_the_disk_fills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: int,
                              **kw: Any) -> tuple[NodeNetwork, FailingDisk, int]:
    cores, _ = make_cores(3, "level8", seed="disk")
    net = NodeNetwork(cores, tmp_path / "seat0")
    disk = FailingDisk(monkeypatch, net.store, after, **kw)
    net.start()
    for key in list(net.cores):
        net.play_bot(key)
    while net.node.fault is None:  # Network.run, stopping at the fault
        if net.queue:
            net.step()
            continue
        busy = [(k, c) for k, c in net.cores.items() if c.deferred_proofs]
        if not busy:
            break
        for key, core in busy:
            net.post(key, core.verify_deferred())
            net.play_bot(key)
    assert net.node.fault is not None, "the game ended before the disk filled"
    return net, disk, net.size_before


@pytest.mark.timeout(120)
def test_a_full_disk_mid_game_pauses_the_seat_and_nothing_undurable_is_sent(tmp_path,
                                                                            monkeypatch):
    net, disk, before = play_until_the_disk_fills(tmp_path, monkeypatch, after=40)
    node, journal = net.node, net.store.journal_path
    assert isinstance(node.fault, StorageError) and node.fault.errno == errno.ENOSPC
    assert str(node.fault) == FULL.format(journal)
    # The failed batch was cut off: the journal is its complete lines before it, no torn tail.
    assert journal.stat().st_size == before
    state = TableStore(journal.parent).read()
    assert state.torn == 0 and state.valid_bytes == before
    # Every entry this seat sent is in its journal, every envelope number below the lease.
    kept = [line for kind, line in state.lines if kind == "entry"]
    sent = [json.loads(data) for data in net.sent]
    mine = [e for e in (entry_of(d) for d in net.sent) if e is not None
            and e["author"] == net.me.me.public_key.hex()]
    assert mine and all(e in kept for e in mine)
    assert max(env["seq"] for env in sent) < state.next_envelope
    # Paused: nothing more leaves, nothing more is written, no entry is made.
    count, size = len(net.sent), journal.stat().st_size
    disk.full = False  # even once the disk has room again, this process writes no more
    net.run(limit=2_000)
    assert len(net.sent) == count and journal.stat().st_size == size
    with pytest.raises(StorageError, match="the disk is full"):
        node.submit(object())
    with pytest.raises(StorageError) as raised:
        asyncio.run(node.run(linger=0.0, deadline=5.0))
    assert raised.value is node.fault
    # Resumed with room on the disk: the journal is read whole and takes appends again.
    again = TableStore(journal.parent)
    assert again.read().lines == state.lines
    again.append("entry", {"seq": 10_000})
    again.close()
    assert TableStore(journal.parent).read().lines == [*state.lines,
                                                       ("entry", {"seq": 10_000})]


@pytest.mark.timeout(120)
def test_an_io_error_on_fsync_pauses_the_seat_and_cuts_the_batch(tmp_path, monkeypatch):
    net, _, before = play_until_the_disk_fills(tmp_path, monkeypatch, after=25,
                                               code=errno.EIO, on="fsync")
    journal = net.store.journal_path
    assert str(net.node.fault) == (
        f"the disk failed (input/output error): cannot write {journal}; check the disk, then "
        "run `lancards resume`")
    assert journal.stat().st_size == before and TableStore(journal.parent).read().torn == 0


def test_every_later_write_of_a_failed_store_raises_the_same_error(tmp_path, monkeypatch):
    store = TableStore(tmp_path / "t")
    store.append("entry", {"seq": 0})
    FailingDisk(monkeypatch, store, after=1)
    with pytest.raises(StorageError) as first:
        store.append_all([("entry", {"seq": 1}), ("entry", {"seq": 2})])
    for write in (lambda: store.append("entry", {"seq": 3}), lambda: store.append_all([]),
                  lambda: store.save_secret("ab"), lambda: store.lease_envelopes(10_000)):
        with pytest.raises(StorageError) as later:
            write()
        assert later.value is first.value
    assert TableStore(tmp_path / "t").read().lines == [("entry", {"seq": 0})]
    assert not (tmp_path / "t" / "secret.json").exists()


def test_a_table_file_that_cannot_be_written_leaves_the_old_one_and_no_temporary(tmp_path,
                                                                                  monkeypatch):
    store = TableStore(tmp_path / "t")
    store.save_table({"v": 1})
    real = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module.os, "fsync", full)
    with pytest.raises(StorageError) as caught:
        store.save_table({"v": 2})
    monkeypatch.setattr(store_module.os, "fsync", real)
    assert str(caught.value) == (f"the disk is full: cannot write {tmp_path / 't' / 'table.json'}"
                                 "; free space and try again")
    assert store.load_table() == {"v": 1}
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["table.json"]


@pytest.mark.parametrize(("code", "text"), [
    (errno.ENOSPC, "the disk is full: cannot write /x; free space and try again"),
    (errno.EROFS, "the disk is read-only: cannot write /x; make it writable or set "
                  "LANCARDS_HOME to a writable folder, and try again"),
    (errno.EACCES, "permission denied: cannot write /x; make it yours and writable or set "
                   "LANCARDS_HOME to a writable folder, and try again"),
    (errno.ENOENT, "no such file or folder (deleted or unmounted?): cannot write /x; restore "
                   "it and try again"),
    (errno.ENOTDIR, "a file stands where a folder should be: cannot write /x; move it away or "
                    "set LANCARDS_HOME to a writable folder"),
    (errno.EIO, "the disk failed (input/output error): cannot write /x; check the disk, then "
                "try again"),
    (errno.EMFILE, "Too many open files: cannot write /x; try again"),
])
def test_each_fault_is_one_line_naming_the_path_and_what_to_do(code, text):
    assert describe_fault(OSError(code, os.strerror(code)), "/x") == text
