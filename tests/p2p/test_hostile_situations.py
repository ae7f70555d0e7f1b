"""The eleven situations of issue 11, each as an attack by a seated peer: who is named and why.

In memory through :class:`GameCore` (every message through the real codec); the lobby through
:class:`Lobby`; the audit through ``lancards audit``.
"""

from __future__ import annotations

import json

import pytest

from lancards.cli.main import main
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.core import (
    EARLY_PER_SENDER,
    FUTURE_PER_AUTHOR,
    GameCore,
    Notice,
    Persist,
    Send,
)
from lancards.p2p.protocol.errors import Reason, TableError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.record import Entry
from lancards.p2p.protocol.sealed import seal
from lancards.p2p.protocol.table import Lobby, start_local, verify_started
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import ForkingNetwork, identities, make_cores, make_table


def envelope(core: GameCore, type_: str, body: dict) -> bytes:
    """A message signed by ``core``'s seat, numbered by its own counter (as its core would)."""
    seq, core._env_seq = core._env_seq, core._env_seq + 1
    return sign_envelope(core.me, type_, core.table_id, seq, body).encode()


def named(notices: list[Notice], kinds=("cheat", "rejected")) -> set[int]:
    return {x.seat for x in notices if x.kind in kinds and x.seat is not None}


def running(n=3, game="level8-master", seed="hostile", limit=300):
    cores, net = make_cores(n, game, seed=seed)
    net.start()
    net.run(limit=limit)
    return cores, net


def forge(author: GameCore, payload: dict, seq: int, prev: str, state: str) -> Entry:
    draft = Entry(author.table_id, seq, author.me.public_key, prev, payload, state, b"")
    return Entry(draft.table, seq, draft.author, prev, payload, state,
                 author.me.sign(draft.signed_bytes()))


# 1. Fork ------------------------------------------------------------------------------------


def forked_game(n=3, hostile=1, at=40, game="level8", seed="fork"):
    ids, table = make_table(n, game)
    from lancards.p2p.crypto.group import SeededRandomBytes

    cores = []
    for i, me in enumerate(ids):
        cores.append(GameCore(me, table, SeededRandomBytes(f"{seed}-{i}")))
    others = [i for i in range(n) if i != hostile]
    net = ForkingNetwork(cores, hostile, at, group_b=others[len(others) // 2:])
    net.start()
    net.run(limit=20_000)
    return cores, net


def test_1_fork_is_found_by_every_honest_peer_naming_its_author(tmp_path):
    cores, net = forked_game()
    assert net.fork is not None
    first, second = net.fork
    hostile = cores[1]
    for core in (cores[0], cores[2]):
        key = core.me.public_key
        assert core.halted and core.cheaters.keys() == {1}
        assert core.halt_kind == "equivocation"  # the screens' words: cli/peer_words.py
        [cheat] = [x for x in net.notices[key] if x.kind == "cheat"]
        assert cheat.seat == 1 and hostile.me.nick in cheat.text
        assert "two different entries numbered" in cheat.text
        pair = {json.dumps(cheat.evidence["first"], sort_keys=True),
                json.dumps(cheat.evidence["second"], sort_keys=True)}
        assert pair == {json.dumps(first, sort_keys=True), json.dumps(second, sort_keys=True)}
        assert named(net.notices[key]) == {1}  # nobody honest is named
        assert [k for k, _ in net.persisted[key]].count("evidence") == 1
        # The honest records agree up to the fork and keep the evidence; the audit says
        # the table halted on a cheat and names the equivocator.
        path = tmp_path / f"{core.seat}.jsonl"
        write_record(core.record, path)
        assert main(["audit", str(path)]) == 3
    # Up to the fork the honest records are one; each holds one side of it.
    seq = first["seq"]
    assert cores[0].record.entries[:seq] == cores[2].record.entries[:seq]
    sides = {cores[0].record.entries[seq].to_dict()["sig"],
             cores[2].record.entries[seq].to_dict()["sig"]}
    assert sides == {first["sig"], second["sig"]}


# 2. Sealed private shares of the wrong shape --------------------------------------------------


@pytest.mark.parametrize("plaintext", [
    b'{"type":"shares","seat":0,"recipient":1,"shares":5}',
    b'{"type":"shares","seat":0,"recipient":1,"shares":[{"slot":[1,2],"share":"00"}],"proof":{}}',
    b"[" * 5000 + b"]" * 5000,
    b"not json",
])
def test_2_sealed_shares_of_the_wrong_shape_are_rejected_naming_the_sender(plaintext):
    cores, _net = running()
    hostile, victim = cores[0], cores[1]
    payload = seal(hostile.me, victim.players[victim.seat], hostile.table_id, "deck.shares",
                   plaintext)
    out = victim.receive(hostile.me.public_key,
                         envelope(hostile, "sealed", {"payload": payload.to_dict()}))
    [notice] = [x for x in out if isinstance(x, Notice)]
    assert notice.kind == "rejected" and notice.seat == 0 and hostile.me.nick in notice.text
    assert "malformed" in notice.text
    assert not [x for x in out if isinstance(x, Persist)]  # nothing kept: resume is clean
    assert victim.halted is None


# 3. A signed action whose move is a number, a list or null -------------------------------------


@pytest.mark.parametrize("move", [5, [1, 2], None])
def test_3_signed_move_of_the_wrong_type_names_its_author_and_audit_rejects(move, tmp_path):
    cores, net = make_cores(2, "level8", seed="move-type")
    net.start()
    net.run()
    a = cores[0]
    # A record that ends with a signed action entry whose move is not a string.
    entries = a.record.entries
    last_action = max(i for i, e in enumerate(entries) if e.payload["t"] == "action")
    author = cores[a.record.seat_of(entries[last_action].author)]
    bad = forge(author, {"t": "action", "a": move, "open": []}, last_action,
                entries[last_action].prev, entries[last_action].state)
    victim = cores[1 - author.seat]
    saved = net.persisted[victim.me.public_key]
    cut = next(i for i, (kind, line) in enumerate(saved)
               if kind == "entry" and line["seq"] == last_action)
    secret = int(saved[0][1]["x"], 16)
    fresh = GameCore(victim.me, a.table, lambda n: bytes(n), secret_key=secret)
    fresh.restore(saved[:cut])
    out = fresh.receive(author.me.public_key,
                        envelope(author, "record.entry", {"entry": bad.to_dict()}))
    [cheat] = [x for x in out if isinstance(x, Notice) and x.kind == "cheat"]
    assert cheat.seat == author.seat and "payload field 'a'" in cheat.text
    lines = a.record.to_lines()[:1 + last_action]
    lines.append(json.dumps({"entry": bad.to_dict(), "kind": "entry"}, sort_keys=True,
                            separators=(",", ":")).encode())
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    assert main(["audit", str(path)]) == 1


# 4. An all-zero X25519 key at join and in the start statement ----------------------------------


def test_4_zero_x25519_key_is_refused_at_join_naming_the_sender():
    ids = identities(3)
    host = Lobby.create(ids[0], "level8", table="0123456789abcdef")
    join = sign_envelope(ids[1], "table.join", host.spec.table, 1,
                         {"nick": "bob", "xpk": "00" * 32, "game": "level8"})
    with pytest.raises(TableError) as info:
        host.receive(join)
    assert info.value.reason is Reason.MALFORMED and "bob" in str(info.value)
    assert "X25519" in info.value.detail and "low-order" in info.value.detail
    assert [m.public_key for m in host.members] == [ids[0].public_key]


def test_4_zero_x25519_key_in_a_start_statement_is_refused_naming_the_member():
    ids = identities(2)
    table = start_local(ids, "level8", table="0123456789abcdef")
    statement = json.loads(json.dumps(table.statement))
    statement["seats"][1]["xpk"] = "00" * 32
    with pytest.raises(TableError) as info:
        verify_started(statement, table.sigs, "host-link")
    assert info.value.sender == "host-link"
    assert table.seats[1].nick in info.value.detail and "X25519" in info.value.detail


# 5. Junk far-future entries --------------------------------------------------------------------


def test_5_junk_future_entries_are_checked_and_bounded_and_the_game_goes_on():
    cores, net = running(n=3, seed="junk", limit=100)
    hostile, victim = cores[2], cores[0]
    base = len(victim.record)
    notices = []
    for i in range(512):  # unsigned junk and signed junk, far and near
        entry = forge(hostile, {"t": "action", "a": "x", "open": []}, base + 2 + i,
                      "00" * 32, "00")
        data = entry.to_dict()
        if i % 2:
            data["sig"] = "11" * 64
        notices += victim.receive(hostile.me.public_key,
                                  envelope(hostile, "record.entry", {"entry": data}))
    held = [e for e, _ in victim._future.values()]
    assert len(held) <= FUTURE_PER_AUTHOR and all(e.verifies() for e in held)
    bad_sig = [x for x in notices if isinstance(x, Notice) and "bad-signature" in x.text]
    assert len(bad_sig) == 256 and all(x.seat == 2 for x in bad_sig)
    # The gap is asked for at once, from the peer that delivered the early entry.
    asks = [x for x in notices if isinstance(x, Send) and b'"type":"record.sync"' in x.data]
    assert asks and all(x.to == hostile.me.public_key for x in asks)
    assert json.loads(asks[0].data)["body"] == {"have": base}
    # The real entries still flow: the game finishes with one record at every peer (the held
    # junk lands on numbers other seats authored, so it proves nothing and is dropped).
    net.run()
    assert len({tuple(e.hash for e in c.record.entries) for c in cores}) == 1
    assert all(c.halted is None and c.game.outcome(c.state) is not None for c in cores)
    assert victim._future == {}
    assert named(net.notices[victim.me.public_key]) == set()


# 6. Lobby: strangers' ports ---------------------------------------------------------------------


def test_6_only_seated_members_change_the_table_and_the_address_book():
    ids = identities(3)
    host = Lobby.create(ids[0], "level8", table="0123456789abcdef")
    guest, join = Lobby.join(ids[1], host.spec.table, ids[0].public_key, "level8")
    for out in host.receive(join.envelope):
        guest.receive(out.envelope)
    for i in range(3400):
        stranger = Identity(i.to_bytes(4, "big") * 8, "x")
        env = sign_envelope(stranger, "table.port", host.spec.table, 1, {"port": 4000})
        with pytest.raises(TableError) as info:
            host.receive(env)
        assert info.value.reason is Reason.NOT_SEATED
    host.receive(sign_envelope(ids[1], "table.port", host.spec.table, 2, {"port": 5000}))
    for out in host.propose_start():
        for reply in guest.receive(out.envelope):
            for started in host.receive(reply.envelope):
                guest.receive(started.envelope)
    assert host.started is not None and guest.started is not None
    book = host.address_book_message({ids[1].public_key: "10.0.0.2"}, "10.0.0.1",
                                     ("127.0.0.1", 4444))
    assert book.envelope.body["addrs"] == {ids[0].public_key.hex(): ["10.0.0.1", 4444],
                                           ids[1].public_key.hex(): ["10.0.0.2", 5000]}
    guest.receive(book.envelope)
    assert guest.address_book == {ids[0].public_key: ("10.0.0.1", 4444),
                                  ids[1].public_key: ("10.0.0.2", 5000)}
    # A stranger's key in a book is refused.
    bad = sign_envelope(ids[0], "table.addrs", host.spec.table, 99,
                        {"addrs": {ids[2].public_key.hex(): ["10.0.0.3", 1]}})
    with pytest.raises(TableError, match="not seated"):
        guest.receive(bad)


# 7. Withheld private shares: the stall names who and what ---------------------------------------


def test_7_withheld_private_shares_name_the_silent_seat_and_what_is_missing():
    cores, net = make_cores(3, "level8", seed="withhold")
    hostile = cores[2]

    def withhold(sender, to, data):
        if sender == hostile.me.public_key and b'"type":"sealed"' in data:
            return None
        return data

    net.tamper = withhold
    net.start()
    net.run()
    due = cores[0].expected()[0]
    assert due != 2
    for core in cores[:2]:
        waits = core.waiting_for()
        # Every honest holder names the silent seat and what it withholds; the seat whose move
        # is due waits for nobody else.
        assert any(w.seat == 2 and "decryption shares for a deal or draw" in w.what
                   and w.kind is None for w in waits), waits
        if core.seat == due:
            assert {w.seat for w in waits} == {2}
        else:
            assert {w.seat for w in waits} == {2, due}
        assert core.halted is None and named(net.notices[core.me.public_key]) == set()


# 8. Forwarded evidence halts and is journaled; the record binds it -------------------------------


def test_8_forwarded_evidence_halts_is_journaled_and_bound_into_the_record(tmp_path):
    cores, net = running(n=3, seed="evidence")
    finder, receiver = cores[0], cores[1]
    settled = receiver.record.entries[-1]
    author = cores[receiver.record.seat_of(settled.author)]
    twin = forge(author, dict(settled.payload, extra=1), settled.seq, settled.prev, settled.state)
    body = {"first": settled.to_dict(), "second": twin.to_dict()}
    out = receiver.receive(finder.me.public_key, envelope(finder, "record.evidence", body))
    assert receiver.halted and receiver.cheaters.keys() == {author.seat}
    assert receiver.halt_kind == "equivocation"
    assert [x.kind for x in out if isinstance(x, Persist)] == ["evidence"]
    [cheat] = [x for x in out if isinstance(x, Notice)]
    assert cheat.kind == "cheat" and cheat.seat == author.seat
    # After a restart the journal halts the table again.
    lines = net.persisted[receiver.me.public_key] + [
        (x.kind, x.line) for x in out if isinstance(x, Persist)]
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    reborn = GameCore(receiver.me, receiver.table, lambda n: bytes(n), secret_key=secret)
    reborn.restore(lines)
    assert reborn.halted and reborn.cheaters.keys() == {author.seat}
    assert reborn.halt_kind == "equivocation"
    # The record file's closing line binds the evidence line.
    path = tmp_path / "r.jsonl"
    write_record(receiver.record, path)
    data = path.read_bytes().split(b"\n")
    assert b'"kind":"equivocation"' in data[-3] and b'"kind":"close"' in data[-2]
    assert main(["audit", str(path)]) == 3
    removed = tmp_path / "removed.jsonl"
    removed.write_bytes(b"\n".join(data[:-3] + data[-2:]))
    assert main(["audit", str(removed)]) == 1
    doubled = tmp_path / "doubled.jsonl"
    doubled.write_bytes(b"\n".join(data[:-2] + data[-3:]))
    assert main(["audit", str(doubled)]) == 1


# 9. Unrequested private shares -------------------------------------------------------------------


def test_9_unrequested_private_shares_are_dropped_with_a_per_sender_cap():
    cores, _net = running(n=3, seed="unasked", limit=200)
    hostile, victim = cores[0], cores[1]
    share = {"slot": 107, "share": "02" + "11" * 32}
    message = {"type": "shares", "seat": 0, "recipient": 1, "shares": [share] * 100,
               "proof": {"c": "00" * 32, "z": "00" * 32}}
    plaintext = json.dumps(message).encode()
    persisted = []
    for _ in range(300):
        payload = seal(hostile.me, victim.players[1], hostile.table_id, "deck.shares", plaintext)
        out = victim.receive(hostile.me.public_key,
                             envelope(hostile, "sealed", {"payload": payload.to_dict()}))
        persisted += [x for x in out if isinstance(x, Persist)]
    assert persisted == []
    assert sum(1 for s, _ in victim._early if s == 0) == EARLY_PER_SENDER


# 10. Catch-up amplification -------------------------------------------------------------------


def test_10_catch_up_sends_each_entry_once_per_link_up():
    cores, _net = running(n=3, seed="sync", limit=400)
    hostile, victim = cores[0], cores[1]
    length = len(victim.record)
    sent = 0
    for _ in range(100):
        out = victim.receive(hostile.me.public_key, envelope(hostile, "record.sync", {"have": 0}))
        sent += sum(1 for x in out if isinstance(x, Send) and b"record.entry" in x.data)
    assert sent == length
    victim.peer_connected(hostile.me.public_key)  # the link came back: once more
    out = victim.receive(hostile.me.public_key, envelope(hostile, "record.sync", {"have": 0}))
    assert sum(1 for x in out if isinstance(x, Send) and b"record.entry" in x.data) == length


# Acks travel unsigned on the authenticated link: a false one blames nobody ------------------------


def test_a_false_ack_costs_one_entry_per_number_and_blames_nobody():
    from lancards.p2p.protocol.errors import MessageError
    from lancards.p2p.protocol.wire import decode_envelope, link_envelope

    cores, _net = running(n=3, seed="ack", limit=200)
    hostile, victim = cores[2], cores[0]
    seq = len(victim.record) - 1
    ack = link_envelope(hostile.me, "record.ack", hostile.table_id,
                        {"seq": seq, "hash": "ab" * 32}).encode()
    with pytest.raises(MessageError, match="unsigned"):
        decode_envelope(ack, "link")  # unsigned is accepted only from an authenticated link
    outputs = []
    for _ in range(10):
        outputs += victim.receive(hostile.me.public_key, ack)
    assert [x for x in outputs if isinstance(x, Notice)] == []
    sent = [x for x in outputs if isinstance(x, Send)]
    assert len(sent) == 1 and sent[0].to == hostile.me.public_key  # once per number
    assert json.loads(sent[0].data)["body"]["entry"]["seq"] == seq
    # False acks for other numbers cost one entry each, charged to the acker alone: the
    # honest peer's ack of the same number is still answered (issue 23, situation 2).
    for number in range(seq - 3, seq):
        other = link_envelope(hostile.me, "record.ack", hostile.table_id,
                              {"seq": number, "hash": "ab" * 32}).encode()
        for _ in range(3):
            outputs += victim.receive(hostile.me.public_key, other)
    sent = [x for x in outputs if isinstance(x, Send)]
    assert [json.loads(x.data)["body"]["entry"]["seq"] for x in sent] == [seq, *range(seq - 3,
                                                                                     seq)]
    witness = cores[1]
    honest_ack = link_envelope(witness.me, "record.ack", witness.table_id,
                               {"seq": seq, "hash": "cd" * 32}).encode()
    [reply] = [x for x in victim.receive(witness.me.public_key, honest_ack)
               if isinstance(x, Send)]
    assert reply.to == witness.me.public_key
    chat = json.loads(ack)
    chat.update(type="chat", body={"text": "hi"})
    [notice] = victim.receive(hostile.me.public_key, json.dumps(chat).encode())
    assert notice.kind == "rejected" and "unsigned" in notice.text and notice.seat == 2
