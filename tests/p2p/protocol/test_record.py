"""The game record: every forgery and reordering rejected naming the culprit; file round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from lancards.engine.core import IllegalActionError
from lancards.p2p.net.record_file import read_record, write_record
from lancards.p2p.protocol.errors import EquivocationError, Reason, RecordError, RecordFileError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.record import Entry, Record, sha256_hex, sign_entry, verify_lines
from lancards.p2p.protocol.table import check_record_genesis
from lancards.p2p.protocol.wire import canonical
from tests.conftest import LONG

from .helpers import record_with, state_hash

OUTSIDER = Identity(bytes([99]) * 32, "mal")


def rejection(record: Record, entry: Entry | dict[str, object], **kw: object) -> RecordError:
    before = record.entries
    with pytest.raises(RecordError) as info:
        record.append(entry, **kw)  # type: ignore[arg-type]
    assert record.entries == before  # a rejection never changes the record
    return info.value


def test_entries_chain_and_hash() -> None:
    ids, record = record_with(4)
    assert [e.seq for e in record.entries] == [0, 1, 2, 3]
    assert record.entries[0].prev == sha256_hex(canonical(record.header()))
    for before, after in zip(record.entries, record.entries[1:], strict=False):
        assert after.prev == before.hash
    assert [e.author for e in record.entries] == [ids[i % 3].public_key for i in range(4)]
    assert record.head == record.entries[-1].hash


def test_forged_signature_names_the_link_that_delivered_it() -> None:
    ids, record = record_with(2)
    good = record.next_entry(ids[2], {"move": "x"}, state_hash(2))
    forged = Entry(
        good.table, good.seq, good.author, good.prev, {"move": "y"}, good.state, good.sig
    )
    err = rejection(record, forged, link="bob [link]")
    assert (err.reason, err.sender, err.seq) == (Reason.BAD_SIGNATURE, "bob [link]", 2)
    # Signed by someone else in the author's name:
    other = sign_entry(ids[0], good.table, 2, good.prev, {"move": "x"}, good.state)
    impostor = Entry(
        good.table, 2, ids[2].public_key, good.prev, other.payload, other.state, other.sig
    )
    assert rejection(record, impostor).reason is Reason.BAD_SIGNATURE
    unsigned = {**good.to_dict(), "sig": ""}
    assert rejection(record, unsigned, link="bob").reason is Reason.UNSIGNED


def test_replayed_entry_is_rejected_naming_the_author() -> None:
    ids, record = record_with(3)
    err = rejection(record, record.entries[1])
    assert (err.reason, err.seq) == (Reason.REPLAYED, 1)
    assert err.sender.startswith(f"{ids[1].nick} [{ids[1].fingerprint}] (seat 2)")


def test_gap_and_settled_position_are_out_of_order() -> None:
    ids, record = record_with(2)
    gap = sign_entry(ids[2], record.table, 5, record.head, {}, state_hash(5))
    assert rejection(record, gap).reason is Reason.OUT_OF_ORDER
    late = sign_entry(ids[2], record.table, 0, record.entries[0].prev, {}, state_hash(0))
    err = rejection(record, late)
    assert (err.reason, err.seq) == (Reason.OUT_OF_ORDER, 0)
    assert err.detail == f"entry 1 is settled by {record.name(ids[0].public_key)}"  # from 1


def test_broken_hash_chain() -> None:
    ids, record = record_with(2)
    wrong_prev = sign_entry(ids[2], record.table, 2, record.entries[0].hash, {}, state_hash(2))
    err = rejection(record, wrong_prev)
    assert (err.reason, err.seq) == (Reason.BROKEN_CHAIN, 2)


def test_author_not_seated_and_wrong_table() -> None:
    ids, record = record_with(1)
    outsider = sign_entry(OUTSIDER, record.table, 1, record.head, {}, state_hash(1))
    err = rejection(record, outsider, link="cyd [link]")
    assert (err.reason, err.sender) == (Reason.NOT_SEATED, "cyd [link]")
    assert OUTSIDER.fingerprint in err.detail
    other_table = sign_entry(ids[1], "ffffffffffffffff", 1, record.head, {}, state_hash(1))
    assert rejection(record, other_table).reason is Reason.WRONG_TABLE


def test_validator_refusal_names_the_author() -> None:
    ids, record = record_with(1)
    seen: list[int] = []

    def validator(rec: Record, entry: Entry) -> None:
        seen.append(len(rec))
        if entry.payload.get("move") == "cheat":
            raise IllegalActionError("seat 1 may not draw twice (ruling L8-3)")
        if entry.author != rec.seats[len(rec) % 3]:
            raise RecordError(rec.name(entry.author), Reason.OUT_OF_TURN, "not to act", entry.seq)

    cheat = record.next_entry(ids[1], {"move": "cheat"}, state_hash(1))
    err = rejection(record, cheat, validator=validator)
    assert (err.reason, err.seq) == (Reason.ILLEGAL, 1)
    assert err.sender == record.name(ids[1].public_key)
    assert "ruling L8-3" in err.detail
    out_of_turn = record.next_entry(ids[2], {"move": "ok"}, state_hash(1))
    assert rejection(record, out_of_turn, validator=validator).reason is Reason.OUT_OF_TURN
    record.append(record.next_entry(ids[1], {"move": "ok"}, state_hash(1)), validator)
    assert seen == [1, 1, 1] and len(record) == 2


def test_equivocation_is_kept_as_evidence() -> None:
    ids, record = record_with(3)
    second = sign_entry(
        ids[1], record.table, 1, record.entries[1].prev, {"move": "other"}, state_hash(1)
    )
    with pytest.raises(EquivocationError) as info:
        record.append(second)
    err = info.value
    assert (err.reason, err.seq) == (Reason.EQUIVOCATION, 1)
    assert err.sender.startswith(f"{ids[1].nick} [{ids[1].fingerprint}]")
    assert err.first == record.entries[1].to_dict() and err.second == second.to_dict()
    assert len(record) == 3 and len(record.evidence) == 1
    assert record.evidence[0].first == record.entries[1]
    # Evidence passed on by a peer is checked, then kept once.
    copy = record_with(3)[1]
    copy.add_evidence(err.first, err.second, link="dee")
    assert copy.evidence == record.evidence
    with pytest.raises(RecordError, match="do not conflict"):
        copy.add_evidence(err.first, err.first, link="dee")


def test_file_round_trip_with_evidence(tmp_path: Path) -> None:
    ids, record = record_with(5)
    second = sign_entry(ids[0], record.table, 3, record.entries[3].prev, {"x": 1}, state_hash(9))
    with pytest.raises(EquivocationError):
        record.append(second)
    path = tmp_path / "game.jsonl"
    write_record(record, path)
    back = read_record(path, genesis_check=check_record_genesis)
    assert back.entries == record.entries
    assert back.evidence == record.evidence
    assert back.header() == record.header()
    assert path.read_bytes().count(b"\n") == 1 + 5 + 1


def test_every_single_changed_byte_is_detected_naming_the_line(tmp_path: Path) -> None:
    """Each byte of a 4-line record changed alone (2,926 bytes; in CI every third byte, each
    line and each field kind still met: ``LANCARDS_LONG=1`` changes every byte)."""
    _, record = record_with(3)
    lines = record.to_lines()
    data = b"\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    step = 1 if LONG else 3
    for pos in range(0, len(data), step):
        if data[pos] == ord("\n"):
            continue
        changed = bytearray(data)
        changed[pos] = ord("0") if data[pos] != ord("0") else ord("1")
        line_no = next(i for i in range(len(lines)) if starts[i] <= pos < starts[i + 1]) + 1
        with pytest.raises(RecordFileError) as info:
            verify_lines(bytes(changed).split(b"\n"), genesis_check=check_record_genesis)
        err = info.value
        if line_no == 1:  # the header: its hash is entry 0's prev, and the genesis is signed
            assert err.line in (1, 2), (pos, err)
        else:
            assert (err.line, err.entry) == (line_no, line_no - 2), (pos, str(err))


def test_one_changed_payload_byte_names_the_entry(tmp_path: Path) -> None:
    _, record = record_with(4)
    path = tmp_path / "game.jsonl"
    write_record(record, path)
    data = path.read_bytes().replace(b'"move":"m2"', b'"move":"m3"')
    path.write_bytes(data)
    with pytest.raises(RecordFileError) as info:
        read_record(path)
    assert (info.value.line, info.value.entry) == (4, 2)
    assert "record file line 4 (entry 3)" in str(info.value)  # seq 2, counted from 1
    assert isinstance(info.value.cause, RecordError)
    assert info.value.cause.reason is Reason.BAD_SIGNATURE
