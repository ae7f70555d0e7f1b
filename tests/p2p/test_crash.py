"""Crashes (issue 12): the journal (torn tails, damage, envelope leases, the crash hook), the
crash-point sweep (peers killed at random persist boundaries and resumed, separate processes,
websockets on 127.0.0.1), a guest lost before the start, catching up from any peer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lancards.p2p.protocol.audit import audit_lines
from tests.p2p.crash_sweep import schedule

ROOT = Path(__file__).resolve().parents[2]


def journal_entries(folder: Path) -> int:
    try:
        return sum(1 for line in (folder / "journal.jsonl").read_bytes().split(b"\n")
                   if b'"kind":"entry"' in line)
    except FileNotFoundError:
        return 0


# -- the journal: torn tails, damage, envelope leases, crash points ------------------------------

def _lines(n: int) -> list[tuple[str, dict[str, int]]]:
    return [("entry", {"seq": i, "x": i * 7}) for i in range(n)]


def test_a_torn_tail_is_cut_before_the_next_append_and_nothing_is_lost(tmp_path):
    from lancards.p2p.net.store import TableStore, encode_line

    store = TableStore(tmp_path)
    for kind, line in _lines(5):
        store.append(kind, line)
    store.close()
    # The crash tore the sixth line: half of it reached the file.
    sixth = encode_line("entry", {"seq": 5, "x": 35})
    with open(store.journal_path, "ab") as f:
        f.write(sixth[:9])
    restarted = TableStore(tmp_path)
    assert restarted.read().torn == 9 and len(restarted.read().lines) == 5
    restarted.append("entry", {"seq": 5, "x": 99})
    restarted.append("entry", {"seq": 6, "x": 98})
    restarted.close()
    # A second restart reads every line written after the torn one (issue 12, situation 4).
    again = TableStore(tmp_path).read()
    assert again.torn == 0
    assert again.lines == [*_lines(5), ("entry", {"seq": 5, "x": 99}),
                           ("entry", {"seq": 6, "x": 98})]


def test_a_damaged_line_before_the_tail_refuses_with_file_and_line_number(tmp_path):
    import pytest

    from lancards.p2p.net.store import JournalDamaged, TableStore

    store = TableStore(tmp_path)
    for kind, line in _lines(4):
        store.append(kind, line)
    store.close()
    raw = bytearray(store.journal_path.read_bytes())
    second = raw.index(b'"x":7')
    raw[second + 5] = ord("8")  # "x":7 -> "x":78... a bit flip inside line 2
    store.journal_path.write_bytes(bytes(raw))
    with pytest.raises(JournalDamaged) as caught:
        TableStore(tmp_path).read()
    assert str(caught.value) == (
        f"the journal {store.journal_path} is damaged at line 2 (checksum mismatch); "
        "not resuming from it")
    # Appending refuses too: nothing is written after damage.
    with pytest.raises(JournalDamaged):
        TableStore(tmp_path).append("entry", {"seq": 4})
    assert bytes(raw) == store.journal_path.read_bytes()


def test_a_line_without_checksum_is_damage_not_a_silent_cut(tmp_path):
    import pytest

    from lancards.p2p.net.store import JournalDamaged, TableStore

    store = TableStore(tmp_path)
    store.append("entry", {"seq": 0})
    store.close()
    with open(store.journal_path, "ab") as f:
        f.write(b'{"kind":"entry","line":{"seq":1}}\n')
    with pytest.raises(JournalDamaged, match="damaged at line 2"):
        TableStore(tmp_path).read()


def test_envelope_numbers_are_leased_on_disk_and_never_signed_twice(tmp_path, monkeypatch):
    """A restarted peer numbers its envelopes above every number it used, whatever the clock
    says (issue 12, situation 5: the clock a minute behind after a restart)."""
    import time as time_module

    from lancards.p2p.crypto.group import SeededRandomBytes
    from lancards.p2p.net.node import PeerNode
    from lancards.p2p.net.store import LEASE_BLOCK, TableStore
    from lancards.p2p.net.transport import Mesh
    from lancards.p2p.protocol.core import GAME_TYPES, GameCore, Send
    from lancards.p2p.protocol.wire import ReplayGuard, decode_envelope
    from tests.p2p.core_harness import make_cores

    def no_clock() -> int:
        raise AssertionError("envelope numbering read the clock")

    monkeypatch.setattr(time_module, "time_ns", no_clock)
    cores, _ = make_cores(3, "level8-master", seed="lease")
    me = cores[0]
    store = TableStore(tmp_path)
    sent: list[bytes] = []

    class Recorder(Mesh):
        def send(self, peer: bytes, data: bytes) -> None:
            if peer == cores[1].me.public_key:
                sent.append(data)

    node = PeerNode(me, Recorder(me.me), store)
    node.handle(me.start())
    for _ in range(LEASE_BLOCK + 3):  # enough envelopes to need a second lease
        node.chat("hello")
    store.close()
    guard = ReplayGuard()
    key = me.me.public_key
    seqs = []
    for data in sent:
        env = decode_envelope(data, "ann", expected_sender=key, types=GAME_TYPES)
        guard.accept(env)
        seqs.append(env.seq)
    # The crash: a new store and a new core from the journal.
    restarted = TableStore(tmp_path)
    first = restarted.next_envelope()
    assert first > max(seqs)
    assert [k for k, _ in restarted.read().lines] == ["entry"]  # marks are not core lines
    again = GameCore(me.me, me.table, SeededRandomBytes("lease-0"),
                     secret_key=restarted.load_secret(), envelope_seq=first)
    outs = again.restore(restarted.read().lines)
    outs += again.chat("back")
    resent = [decode_envelope(o.data, "ann", expected_sender=key, types=GAME_TYPES)
              for o in outs if isinstance(o, Send)]
    assert resent and all(env.seq >= first for env in resent)
    for env in resent:
        guard.accept(env)  # accepted: above every number the peer used before the crash


def test_the_crash_hook_kills_the_process_before_torn_or_after_the_chosen_fsync(tmp_path):
    from lancards.p2p.net.crash_hook import CRASH_ENV
    from lancards.p2p.net.store import TableStore

    script = ("import sys\nfrom lancards.p2p.net.store import TableStore\n"
              "s = TableStore(sys.argv[1])\n"
              "for i in range(6):\n    s.append('entry', {'seq': i})\n")
    kept = {}
    for when in ("before", "torn", "after"):
        folder = tmp_path / when
        proc = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                              env={**os.environ, CRASH_ENV: f"{when}:4"}, timeout=60)
        assert proc.returncode == -signal.SIGKILL
        state = TableStore(folder).read()
        kept[when] = ([line["seq"] for _, line in state.lines], state.torn > 0)
    assert kept == {"before": ([0, 1, 2], False), "torn": ([0, 1, 2], True),
                    "after": ([0, 1, 2, 3], False)}


def test_a_torn_table_file_leaves_the_old_one_whole_and_half_of_the_new_beside_it(tmp_path):
    """``save_table``'s ``torn`` hook (``evening-torn:N``, as
    :meth:`lancards.cli.net_session.NetworkSession._open` asks it): half of the new text in
    ``table.json.tmp``, the table file as it was; ``before`` and ``after`` for comparison, and a
    plain write that the ``evening-`` points do not count."""
    from lancards.p2p.net.crash_hook import CRASH_ENV
    from lancards.p2p.net.store import TableStore

    script = ("import sys\nfrom lancards.p2p.net.crash_hook import crash\n"
              "from lancards.p2p.net.store import TableStore\n"
              "s = TableStore(sys.argv[1])\n"
              "s.save_table({'game': 1})\n"
              "if crash.reached('before', side='evening'):\n    crash.die()\n"
              "s.save_table({'game': 2, 'evening': ['game 1']},\n"
              "             torn=lambda: crash.reached('torn', side='evening'))\n"
              "if crash.reached('after', side='evening'):\n    crash.die()\n")
    kept = {}
    for when in ("before", "torn", "after"):
        folder = tmp_path / when
        proc = subprocess.run([sys.executable, "-c", script, str(folder)], cwd=ROOT,
                              env={**os.environ, CRASH_ENV: f"evening-{when}:1"}, timeout=60)
        assert proc.returncode == -signal.SIGKILL
        tmp = folder / "table.json.tmp"
        kept[when] = (TableStore(folder).load_table(), tmp.read_text() if tmp.exists() else None)
    whole = json.dumps({"game": 2, "evening": ["game 1"]}, indent=1)
    assert kept == {"before": ({"game": 1}, None),
                    "torn": ({"game": 1}, whole[:len(whole) // 2]),
                    "after": ({"game": 2, "evening": ["game 1"]}, None)}


# -- the crash-point sweep -------------------------------------------------------------------

SWEEP = [g for g in schedule() if g.kind != "host"]
"""The sweep's games without network namespaces (the ``host`` kind's are in
``tests/e2e/test_crash.py``); see :func:`tests.p2p.crash_sweep.schedule`."""


@pytest.mark.timeout(900)
@pytest.mark.parametrize("planned", SWEEP, ids=lambda g: g.name)
def test_crash_point_sweep(tmp_path, planned, capsys):
    """A seat (a bot's ``lancards node``, or a person's full-screen ``lancards play``) killed
    at random persist boundaries (before, torn or after an fsync), resumed each time, crashing
    again during the resume; the game ends with byte-identical records that ``lancards audit``
    accepts (issue 12)."""
    import dataclasses
    import shutil

    from lancards.cli.main import main
    from lancards.p2p.net.store import TableStore
    from tests.p2p.crash_sweep import check_records, run_game, run_person

    sweep = dataclasses.replace(planned, crashes=[])
    if sweep.kind == "bot":
        records = run_game(tmp_path, sweep)
        assert sweep.spent(), f"crash points reached: {sweep.crashes}"
        check_records(records)
        assert main(["audit", str(tmp_path / "record0.jsonl")]) == 0
        return
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    home, record, moves = run_person(tmp_path, sweep)
    assert sweep.spent(), f"crash points reached: {sweep.crashes}"
    assert moves >= 4  # the person played on the resumed table by keys
    capsys.readouterr()
    assert main(["audit", "--json", str(record)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] and verdict["finished"]
    journals = [[line for kind, line in TableStore(j.parent).read().lines if kind == "entry"]
                for j in home.glob("tables/**/journal.jsonl")]
    assert len(journals) == sweep.players  # the person's peer and each bot's: one record
    assert all(j == journals[0] for j in journals) and len(journals[0]) == verdict["entries"]


@pytest.mark.timeout(600)
def test_crashes_aimed_at_checkpoint_writes_leave_the_old_or_the_new_one(tmp_path):
    """Issue 24: a bot seat of a 3-peer Level 8 Master table killed in its first checkpoint
    write (half the temporary file written), restarted (a full replay: no checkpoint yet), then
    killed right after its next checkpoint's ``fsync`` and rename, restarted from that
    checkpoint; the game ends with byte-identical records that the audit accepts."""
    from tests.p2p.crash_sweep import SweepGame, check_records, run_game

    sweep = SweepGame("level8-master", 3, "bot", seed=24, points=2, victim=1,
                      fixed=["checkpoint-torn:1", "checkpoint-after:1"])
    records = run_game(tmp_path, sweep)
    assert sweep.crashes == ["1:checkpoint-torn:1", "1:checkpoint-after:1"]
    check_records(records)
    starts = [line for line in (tmp_path / "peer1.log").read_text().splitlines()
              if line.startswith("restored ")]
    assert len(starts) == 2
    assert starts[0].endswith("; 0 journal lines from a checkpoint"), starts  # only a .tmp
    used = int(starts[1].split("; ")[1].split()[0])
    assert used > 128, starts  # the checkpoint written just before the kill


# -- before the start: a guest that crashed ---------------------------------------------------

def _lobby_with(n: int):
    from tests.p2p.protocol.helpers import people, seated_lobbies

    ids = people(n + 1)  # the last one is a newcomer
    lobbies, net = seated_lobbies(ids[:n])
    return ids, lobbies[0], lobbies[1:], net


def test_a_guest_killed_during_the_start_proposal_is_dropped_and_another_takes_the_seat():
    """Issue 12, situation 6: the seat of a guest whose link stayed down is freed, the
    proposal naming it is withdrawn, a newcomer is seated and the table starts."""
    from lancards.p2p.protocol.table import Lobby
    from lancards.p2p.protocol.wire import ReplayGuard
    from tests.p2p.protocol.helpers import TABLE, rules_check

    ids, host, guests, net = _lobby_with(3)
    net.post(host.me.public_key, host.propose_start())
    dead = guests[1]
    net.by_key.pop(dead.me.public_key)  # killed: it never signs
    net.run()
    assert host.started is None and host.proposed
    assert [m.nick for m in host.unsigned()] == [dead.me.nick]
    # The grace is over: the host frees the seat.
    net.post(host.me.public_key, host.drop(dead.me.public_key))
    net.run()
    assert not host.proposed and host.free_seats == 4
    assert [m.public_key for m in guests[0].members] == [m.public_key for m in host.members]
    newcomer, join = Lobby.join(ids[3], TABLE, ids[0].public_key, "test-game",
                                rules_check=rules_check)
    net.by_key[ids[3].public_key] = newcomer
    net.guards[ids[3].public_key] = ReplayGuard()
    net.post(ids[3].public_key, [join])
    net.run()
    net.post(host.me.public_key, host.propose_start())
    net.run()
    assert host.started is not None and guests[0].started == host.started
    assert newcomer.started == host.started
    assert {m.nick for m in host.started.seats} == {ids[0].nick, ids[1].nick, ids[3].nick}


def test_the_same_guest_joining_again_at_once_keeps_its_seat_and_the_table_starts():
    """Issue 12, situation 6: the same key running the same join again is seated, not refused
    ("already at the table"); a start proposed meanwhile is withdrawn and proposed anew."""
    from lancards.p2p.protocol.table import Lobby
    from lancards.p2p.protocol.wire import ReplayGuard
    from tests.p2p.protocol.helpers import TABLE, rules_check

    ids, host, guests, net = _lobby_with(3)
    net.post(host.me.public_key, host.propose_start())
    crashed = guests[1].me
    net.by_key.pop(crashed.public_key)
    net.run()
    again, join = Lobby.join(crashed, TABLE, ids[0].public_key, "test-game",
                             rules_check=rules_check)
    net.by_key[crashed.public_key] = again
    net.guards[crashed.public_key] = ReplayGuard()
    net.guards[host.me.public_key] = ReplayGuard()  # a new program: numbers start anew
    net.post(crashed.public_key, [join])
    net.run()
    assert not host.proposed and len(host.members) == 3
    assert again.roster_version > 0
    net.post(host.me.public_key, host.propose_start())
    net.run()
    assert host.started is not None and again.started == host.started
    # Dropping a seat is only for the host, and only before the start.
    import pytest

    from lancards.p2p.protocol.errors import LocalProtocolError

    with pytest.raises(LocalProtocolError, match="the lobby has closed or started"):
        host.drop(crashed.public_key)


@pytest.mark.timeout(300)
def test_a_resumed_peer_catches_up_from_whichever_peer_answers(tmp_path):
    """cyd is killed, then bob; cyd resumes while bob is still down and catches up from ann
    alone; then bob resumes and the game ends with identical, audited records."""
    from tests.p2p.crash_sweep import configs, start

    paths = configs(tmp_path, "level8-master", 3)
    logs = [tmp_path / f"peer{i}.log" for i in range(3)]
    procs = [start(p, logs[i], None) for i, p in enumerate(paths)]
    folders = [tmp_path / f"peer{i}" for i in range(3)]

    def wait(predicate, what: str, limit: float = 120) -> None:
        deadline = time.monotonic() + limit
        while not predicate():
            assert time.monotonic() < deadline, f"{what}: " + logs[2].read_text()[-2000:]
            time.sleep(0.05)

    try:
        for attempt in range(6):
            goal = 80 + 40 * attempt
            wait(lambda goal=goal: journal_entries(folders[2]) >= goal,
                 "the game did not get going")
            os.kill(procs[2].pid, signal.SIGKILL)
            procs[2].wait(10)
            cyd_had = journal_entries(folders[2])
            deadline = time.monotonic() + 3  # ann and bob go on until they need cyd...
            while journal_entries(folders[0]) <= cyd_had and time.monotonic() < deadline:
                time.sleep(0.05)
            if journal_entries(folders[0]) > cyd_had:
                break
            procs[2] = start(paths[2], logs[2], None)  # ...unless cyd was next: try later
        os.kill(procs[1].pid, signal.SIGKILL)
        procs[1].wait(10)
        ann_has = journal_entries(folders[0])
        assert ann_has > cyd_had  # there is something to catch up
        config = json.loads(paths[2].read_text())
        timings = tmp_path / "cyd-timings.jsonl"
        paths[2].write_text(json.dumps({**config, "timings": str(timings)}))
        procs[2] = start(paths[2], logs[2], None)
        wait(lambda: journal_entries(folders[2]) >= ann_has, "cyd did not catch up from ann")
        # cyd says it is current once its record is as long as ann reported (record.sync).
        wait(lambda: timings.exists() and b'"current"' in timings.read_bytes(),
             "cyd never said it was current")
        current = next(json.loads(x)["current"] for x in timings.read_text().splitlines()
                       if '"current"' in x)
        assert current >= ann_has
        assert procs[1].poll() == -signal.SIGKILL  # bob was down all along
        procs[1] = start(paths[1], logs[1], None)
        for i, proc in enumerate(procs):
            assert proc.wait(240) == 0, logs[i].read_text()[-3000:]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    records = [(tmp_path / f"record{i}.jsonl").read_bytes() for i in range(3)]
    bodies = [r.rstrip(b"\n").rsplit(b"\n", 1)[0] for r in records]  # closing lines differ
    assert all(b == bodies[0] for b in bodies)
    assert audit_lines(records[0].rstrip(b"\n").split(b"\n")).finished
