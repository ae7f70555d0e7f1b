"""A seat that signed the start but was killed before the started table reached its disk asks
the seated peers for it (``table.ask`` / ``table.told``, :mod:`lancards.p2p.protocol.start_fetch`):
answers checked, bad ones refused naming the peer; over real links on 127.0.0.1 in-process."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.fetch_started import fetch_started
from lancards.p2p.net.transport import Mesh, Received, TransportConfig
from lancards.p2p.protocol.core import GameCore, Send
from lancards.p2p.protocol.errors import Reason, RemoteProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.start_fetch import StartFetch
from lancards.p2p.protocol.statement import sign_statement, statement_hash
from lancards.p2p.protocol.table import start_local
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_table

TABLE = "0123456789abcdef"


def _answer(core: GameCore, asker: bytes, ask: bytes) -> bytes:
    """What ``core`` sends back to ``asker`` for ``ask`` (exactly one ``Send``)."""
    sends = [o for o in core.receive(asker, ask) if isinstance(o, Send)]
    assert len(sends) == 1 and sends[0].to == asker
    return sends[0].data


def _told(sender: Identity, seq: int, body: dict[str, Any], table: str = TABLE) -> bytes:
    return sign_envelope(sender, "table.told", table, seq, body).encode()


def _refusal(fetch: StartFetch, peer: bytes, data: bytes) -> RemoteProtocolError:
    with pytest.raises(RemoteProtocolError) as caught:
        fetch.receive(peer, data)
    return caught.value


def test_a_seated_peer_answers_the_ask_with_the_started_table_and_its_address_book():
    ids, table = make_table(3)
    ann, bob, cyd = ids
    core = GameCore(bob, table, SeededRandomBytes("bob"))
    core.address_book = {ann.public_key: ("10.0.0.1", 4001), cyd.public_key: ("10.0.0.3", 4003),
                         b"\x07" * 32: ("10.0.0.9", 4009)}  # not seated: never sent
    fetch = StartFetch(ann, table.statement, next_seq=300)
    ask = fetch.ask(bob.public_key)
    assert json.loads(ask)["seq"] == 300 and fetch.next_seq == 301
    got = fetch.receive(bob.public_key, _answer(core, ann.public_key, ask))
    assert got is not None
    started, book = got
    assert started == table
    assert book == {ann.public_key: ("10.0.0.1", 4001), cyd.public_key: ("10.0.0.3", 4003)}


def test_an_ask_for_another_statement_is_refused_naming_the_asker():
    ids, table = make_table(3)
    changed = {**table.statement, "max_seats": 5}
    core = GameCore(ids[1], table, SeededRandomBytes("bob"))
    ask = sign_envelope(ids[0], "table.ask", TABLE, 1,
                        {"statement_hash": statement_hash(changed)}).encode()
    outputs = core.receive(ids[0].public_key, ask)
    assert not [o for o in outputs if isinstance(o, Send)]
    texts = [o.text for o in outputs if getattr(o, "kind", "") == "rejected"]
    assert len(texts) == 1 and ids[0].nick in texts[0]
    assert "asks for the start of a statement this table did not start" in texts[0]


def test_bad_answers_are_refused_naming_the_peer_and_a_good_one_is_still_taken():
    """The attacker's answers: another statement (validly signed by everyone), a forged
    signature, an answer never asked for, an unseated sender, an address book naming an
    outsider, a malformed book, a replay. Each refused naming the peer; then bob's good answer."""
    ids, table = make_table(3)
    ann, bob, cyd = ids
    fetch = StartFetch(ann, table.statement, next_seq=0)
    fetch.ask(bob.public_key)
    good = {"statement": table.statement, "sigs": table.sigs, "addrs": {}}

    # Another statement, every signature good: another table's start ...
    other = start_local(ids, "level8-master", {}, table="fedcba9876543210")
    err = _refusal(fetch, bob.public_key, _told(bob, 1, {
        "statement": other.statement, "sigs": other.sigs, "addrs": {}}))
    assert err.reason == Reason.TABLE_RULES and bob.nick in str(err)
    # ... the same inside an envelope of that table ...
    err = _refusal(fetch, bob.public_key, _told(bob, 2, {
        "statement": other.statement, "sigs": other.sigs, "addrs": {}}, "fedcba9876543210"))
    assert err.reason == Reason.WRONG_TABLE and bob.nick in str(err)
    # ... and one of this table id, seats and signers, but other options.
    same_id = {**table.statement, "max_seats": 5}  # same table id, seats and signers
    resigned = {i.public_key.hex(): sign_statement(i, same_id).hex() for i in ids}
    err = _refusal(fetch, bob.public_key, _told(bob, 3, {
        "statement": same_id, "sigs": resigned, "addrs": {}}))
    assert err.reason == Reason.TABLE_RULES and bob.nick in str(err)
    assert "another start statement than the one this seat signed" in str(err)

    # A forged signature (cyd's replaced by bob's own).
    forged = dict(table.sigs)
    forged[cyd.public_key.hex()] = table.sigs[bob.public_key.hex()]
    err = _refusal(fetch, bob.public_key, _told(bob, 4, {**good, "sigs": forged}))
    assert err.reason == Reason.BAD_SIGNATURE and bob.nick in str(err) and cyd.nick in str(err)

    # cyd answers though ann never asked it.
    err = _refusal(fetch, cyd.public_key, _told(cyd, 1, good))
    assert err.reason == Reason.WRONG_SENDER and cyd.nick in str(err)
    assert "never sent to it" in str(err)

    # Someone not seated.
    eve = Identity.generate("eve")
    err = _refusal(fetch, eve.public_key, _told(eve, 1, good))
    assert err.reason == Reason.NOT_SEATED

    # An address book naming an outsider; a port out of range.
    err = _refusal(fetch, bob.public_key, _told(bob, 5, {
        **good, "addrs": {eve.public_key.hex(): ["10.0.0.66", 4066]}}))
    assert err.reason == Reason.NOT_SEATED and bob.nick in str(err)
    err = _refusal(fetch, bob.public_key, _told(bob, 6, {
        **good, "addrs": {cyd.public_key.hex(): ["10.0.0.3", 0]}}))
    assert err.reason == Reason.MALFORMED and bob.nick in str(err)

    # A replay of an envelope number already seen.
    err = _refusal(fetch, bob.public_key, _told(bob, 5, good))
    assert err.reason == Reason.REPLAYED and bob.nick in str(err)

    # Other traffic of a seated peer is not an answer (and not an error).
    sync = sign_envelope(bob, "record.sync", TABLE, 7, {"have": 3}).encode()
    assert fetch.receive(bob.public_key, sync) is None

    # bob's good answer is still taken.
    got = fetch.receive(bob.public_key, _told(bob, 8, {
        **good, "addrs": {cyd.public_key.hex(): ["10.0.0.3", 4003]}}))
    assert got == (table, {cyd.public_key: ("10.0.0.3", 4003)})


CONFIG = TransportConfig(ping_interval=3.0, ping_timeout=10.0, backoff_max=0.2)


@pytest.mark.timeout(60)
def test_fetch_over_links_ignores_a_liar_takes_the_honest_answer_and_leases_its_numbers():
    """ann (resuming) knows bob's and cyd's addresses; cyd lies (another statement), bob is a
    running game core. ann names cyd, takes bob's answer, and every ask's number was leased
    before it was sent; bob's game traffic is handed back to ann's mesh in order."""
    ids, table = make_table(3)
    ann, bob, cyd = ids
    same_id = {**table.statement, "max_seats": 5}
    lie = {"statement": same_id, "sigs": {i.public_key.hex(): sign_statement(i, same_id).hex()
                                           for i in ids}, "addrs": {}}

    async def go() -> None:
        meshes = {i.public_key: Mesh(i, CONFIG) for i in ids}
        ports = {k: await m.start("127.0.0.1", 0) for k, m in meshes.items()}
        for key in (bob.public_key, cyd.public_key):
            meshes[key].admit([ann.public_key])
        core = GameCore(bob, table, SeededRandomBytes("bob"))
        core.address_book = {cyd.public_key: ("127.0.0.1", ports[cyd.public_key])}

        async def serve(me: Identity) -> None:
            mesh, seq = meshes[me.public_key], 0
            while True:
                try:
                    event = await mesh.next_event(0.5)
                except Exception:
                    continue
                if not isinstance(event, Received):
                    continue
                if me is bob:
                    await asyncio.sleep(0.3)  # cyd's lie comes first
                    for out in core.receive(event.peer, event.data):
                        if isinstance(out, Send):
                            mesh.send(ann.public_key, out.data)
                    sync = sign_envelope(bob, "record.sync", TABLE, 10_000 + seq, {"have": 0})
                    mesh.send(ann.public_key, sync.encode())
                    seq += 1
                else:
                    seq += 1
                    mesh.send(ann.public_key, _told(cyd, seq, lie))

        leased: list[int] = []
        refused: list[str] = []
        fetch = StartFetch(ann, table.statement, next_seq=40)
        servers = [asyncio.create_task(serve(i)) for i in (bob, cyd)]
        try:
            # cyd first: ann dials only cyd at first, then bob too.
            known = {cyd.public_key: ("127.0.0.1", ports[cyd.public_key]),
                     bob.public_key: ("127.0.0.1", ports[bob.public_key])}
            got = await fetch_started(meshes[ann.public_key], fetch, known, wait=20,
                                      lease=leased.append,
                                      refused=lambda e: refused.append(str(e)))
            assert got == (table, {cyd.public_key: ("127.0.0.1", ports[cyd.public_key])})
            assert leased and all(n > 40 for n in leased) and leased == sorted(leased)
            assert fetch.next_seq <= max(leased)
            assert refused and all(cyd.nick in r and "another start statement" in r
                                   for r in refused)
            left = []
            while not meshes[ann.public_key].events.empty():
                left.append(meshes[ann.public_key].events.get_nowait())
            seqs = [json.loads(e.data)["seq"] for e in left if isinstance(e, Received)
                    and e.peer == bob.public_key]
            assert seqs and seqs == sorted(seqs)  # bob's sync back for the game, in order
        finally:
            for task in servers:
                task.cancel()
            for mesh in meshes.values():
                await mesh.close()

    asyncio.run(go())


def test_a_guest_waiting_in_its_lobby_takes_a_resumed_hosts_answer_as_the_start():
    """The host made its started table durable and was killed before 'table.started' (or
    'table.addrs') left; resumed, it answers the guests' asks: the guest's lobby starts with it
    and its address book. Another statement from the host is refused naming it, the lobby
    unchanged. (Found by the sweep with LANCARDS_CRASH_SEED=27: the host killed at its 2nd
    write, 'table.started' queued but not yet on the wire.)"""
    from lancards.p2p.protocol.errors import TableError
    from lancards.p2p.protocol.start_fetch import told_body
    from lancards.p2p.protocol.table import Lobby
    from lancards.p2p.protocol.wire import decode_envelope
    from tests.p2p.protocol.helpers import TABLE as LOBBY_TABLE
    from tests.p2p.protocol.helpers import people, rules_check, seated_lobbies

    ids = people(3)
    lobbies, net = seated_lobbies(ids)
    host, guests = lobbies[0], lobbies[1:]
    net.post(ids[0].public_key, host.propose_start())
    while net.queue:
        sender, to, data = net.queue.pop(0)
        if json.loads(data)["type"] == "table.started":
            continue  # the host was killed before it left
        env = decode_envelope(data, "peer", expected_sender=sender)
        net.guards[to].accept(env)
        net.post(to, net.by_key[to].receive(env))
    assert host.started is not None
    guest = guests[0]
    assert guest.started is None and guest.signed_statement == host.started.statement

    fetch = StartFetch(guest.me, guest.signed_statement, next_seq=1 << 20)
    ask = json.loads(fetch.ask(ids[0].public_key))
    assert ask["type"] == "table.ask" and ask["seq"] == 1 << 20
    book = {k.public_key: (f"10.0.0.{i}", 4000 + i) for i, k in enumerate(ids)}
    other = {**host.started.statement, "max_seats": 5}
    lie = sign_envelope(ids[0], "table.told", LOBBY_TABLE, 1 << 30, {
        "statement": other, "sigs": {i.public_key.hex(): sign_statement(i, other).hex()
                                     for i in ids}, "addrs": {}})
    with pytest.raises(TableError) as caught:
        guest.receive(decode_envelope(lie.encode(), "host", expected_sender=ids[0].public_key))
    assert caught.value.reason == Reason.TABLE_RULES and ids[0].nick in str(caught.value)
    assert guest.started is None and guest.address_book == {}

    told = sign_envelope(ids[0], "table.told", LOBBY_TABLE, (1 << 30) + 1,
                         told_body(host.started, ask["body"]["statement_hash"], "guest", book))
    assert guest.receive(decode_envelope(told.encode(), "host",
                                         expected_sender=ids[0].public_key)) == []
    assert guest.started == host.started and guest.address_book == book
    # The other guest got 'table.started' but the host died before 'table.addrs': the told
    # gives it the address book.
    late = guests[1]
    started = sign_envelope(ids[0], "table.started", LOBBY_TABLE, 1 << 31, {
        "statement": host.started.statement, "sigs": host.started.sigs})
    late.receive(decode_envelope(started.encode(), "host", expected_sender=ids[0].public_key))
    assert late.started == host.started and late.address_book == {}
    late.receive(decode_envelope(told.encode(), "host", expected_sender=ids[0].public_key))
    assert late.address_book == book
    # A host still in its lobby (not started) does not answer an ask, nor refuses it.
    waiting = Lobby.create(ids[0], "test-game", table=LOBBY_TABLE, rules_check=rules_check)
    early = sign_envelope(guest.me, "table.ask", LOBBY_TABLE, 5,
                          {"statement_hash": fetch.hash})
    assert waiting.receive(decode_envelope(early.encode(), "guest",
                                           expected_sender=guest.me.public_key)) == []


@pytest.mark.timeout(30)
def test_resume_of_a_signed_seat_whose_table_never_started_says_so_in_one_line(tmp_path,
                                                                            monkeypatch):
    """Nobody answers within the bound (the host freed the seat): one line naming the table,
    the folder marked not-started, and a later ``lancards resume`` finds nothing to resume."""
    import argparse

    from lancards.cli.errors import UsageError
    from lancards.cli.lobby.started_table import resume_remote
    from lancards.cli.play import find_table
    from lancards.p2p.net.store import TableStore

    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    ids, table = make_table(2)
    me, host = ids
    store = TableStore.for_table(TABLE)
    store.save_table({"mode": "remote", "statement": table.statement, "me": me.public_key.hex(),
                      "nick": me.nick, "listen": ["127.0.0.1", 0],
                      "peers": {host.public_key.hex(): ["127.0.0.1", 9]}})
    assert find_table(None) == store.folder  # a signed-only folder is a table to resume
    args = argparse.Namespace(record=None, autoplay=True)
    with pytest.raises(UsageError) as caught:
        asyncio.run(resume_remote(store.folder, me, args, wait=0.6))
    assert str(caught.value) == (
        f"table {TABLE} did not start with this seat: no seated peer answered with its start "
        "within 1 s (the host may have freed the seat); join a table again")
    assert (store.folder / "not-started").exists()
    assert "sigs" not in store.load_table()
    with pytest.raises(UsageError, match="no unfinished table to resume"):
        find_table(None)
