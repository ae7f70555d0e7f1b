"""The journal's batched appends (issue 16): the lines a peer persists before one send share
one ``fsync``, in order, and a ``secret`` line between them is written after the lines before
it are durable."""

from __future__ import annotations

import os

import pytest

from lancards.p2p.net.store import TableStore


def test_a_batch_of_lines_shares_one_fsync_and_keeps_its_order(tmp_path, monkeypatch):
    store = TableStore(tmp_path / "t")
    synced: list[bytes] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(store.journal_path.read_bytes() if store.journal_path.exists() else b"")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    store.append_all([("entry", {"seq": 0}), ("private", {"n": 1}), ("entry", {"seq": 1})])
    assert len(synced) == 1 and synced[0].count(b"\n") == 3
    store.append_all([("entry", {"seq": 2}), ("secret", {"x": "ab" * 32}), ("private", {"n": 2})])
    # The line before the secret is durable first, then secret.json, then the line after it.
    assert [s.count(b"\n") for s in synced[1:]] == [4, 4, 5]
    store.append_all([])
    assert len(synced) == 4
    store.close()
    lines = TableStore(tmp_path / "t").read().lines
    assert lines == [("entry", {"seq": 0}), ("private", {"n": 1}), ("entry", {"seq": 1}),
                     ("entry", {"seq": 2}), ("private", {"n": 2})]
    assert (tmp_path / "t" / "secret.json").exists()


@pytest.mark.parametrize("cut", [1, 50, 100])
def test_a_batch_torn_anywhere_keeps_its_complete_lines_and_cuts_the_rest(tmp_path, cut):
    store = TableStore(tmp_path / "t")
    store.append_all([("entry", {"seq": 0})])
    store.close()
    whole = store.journal_path.read_bytes()
    batch = [("entry", {"seq": 1}), ("entry", {"seq": 2}), ("entry", {"seq": 3})]
    other = TableStore(tmp_path / "u")
    other.append_all(batch)
    other.close()
    written = other.journal_path.read_bytes()
    store.journal_path.write_bytes(whole + written[:cut])  # killed while writing the batch
    kept = cut // (len(written) // 3)  # the three lines are equally long
    assert kept == [0, 1, 2][[1, 50, 100].index(cut)]
    again = TableStore(tmp_path / "t")
    assert again.read().lines == [("entry", {"seq": 0}), *batch[:kept]]
    again.append_all([("entry", {"seq": 9})])
    again.close()
    assert TableStore(tmp_path / "t").read().lines == [("entry", {"seq": 0}), *batch[:kept],
                                                       ("entry", {"seq": 9})]
