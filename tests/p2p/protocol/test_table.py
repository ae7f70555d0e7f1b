"""Table formation: join, leave, seat order, rule options, a start signed by every seat."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from lancards.p2p.protocol.errors import LocalProtocolError, MessageError, Reason, TableError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.statement import member_to_dict
from lancards.p2p.protocol.table import SEAT_TAG, Lobby, seat_order, sign_statement, verify_started
from lancards.p2p.protocol.wire import Envelope, ReplayGuard, decode_envelope, sign_envelope

from .helpers import TABLE, LobbyNet, people, rules_check, seated_lobbies, start_table


def test_four_peers_form_and_start_a_table() -> None:
    ids = people(4)
    lobbies, _ = start_table(ids, {"fast": True})
    tables = [lobby.started for lobby in lobbies]
    assert all(t is not None and t == tables[0] for t in tables)
    table = tables[0]
    assert table is not None
    assert table.spec.options == {"fast": True} and table.spec.game == "test-game"
    expected = sorted(
        ids, key=lambda p: hashlib.sha256(SEAT_TAG + TABLE.encode() + p.public_key).digest()
    )
    assert [m.public_key for m in table.seats] == [p.public_key for p in expected]
    assert [m.nick for m in table.seats] == [p.nick for p in expected]
    assert set(table.sigs) == {p.public_key.hex() for p in ids}
    assert verify_started(table.statement, table.sigs, "x") == table
    record = table.new_record()
    assert record.seats == tuple(p.public_key for p in expected)


def test_seat_order_is_independent_of_join_order() -> None:
    ids = people(5)
    members = [p.public() for p in ids]
    assert seat_order(TABLE, members) == seat_order(TABLE, members[::-1])
    assert seat_order(TABLE, members) != seat_order("ffffffffffffffff", members)


def test_leave_before_start_and_free_seats() -> None:
    ids = people(3)
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check)
    assert host.free_seats == 5
    net = LobbyNet([host])
    guests = []
    for me in ids[1:]:
        lobby, join = Lobby.join(me, TABLE, ids[0].public_key, "test-game", rules_check=rules_check)
        guests.append(lobby)
        net.by_key[me.public_key], net.guards[me.public_key] = lobby, ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    assert host.free_seats == 3 and [m.nick for m in guests[0].members] == ["ann", "bob", "cyd"]
    net.post(ids[1].public_key, guests[0].leave())
    net.run()
    assert [m.nick for m in host.members] == ["ann", "cyd"]
    assert [m.nick for m in guests[1].members] == ["ann", "cyd"] and guests[0].closed
    net.post(ids[0].public_key, host.propose_start())
    net.run()
    assert host.started is not None and [m.nick for m in host.started.seats] in (
        ["ann", "cyd"],
        ["cyd", "ann"],
    )
    assert guests[1].started == host.started and guests[0].started is None


def message(sender: Identity, type_: str, body: dict[str, Any], seq: int = 50) -> Envelope:
    env = sign_envelope(sender, type_, TABLE, seq, body)
    return decode_envelope(env.encode(), "link")


def refusal(host: Lobby, sender: Identity, body: dict[str, Any], table: str = TABLE) -> str:
    """The reason of the host's ``table.refused`` answer to a join (issue 25, item 5), checked
    to go to the joiner only, signed by the host, for the table the joiner named, with the
    host's game; the lobby is unchanged."""
    members = list(host.members)
    env = decode_envelope(sign_envelope(sender, "table.join", table, 50, body).encode(), "link")
    (out,) = host.receive(env)
    assert out.to == (sender.public_key,) and out.envelope.type == "table.refused"
    assert out.envelope.sender == host.me.public_key and out.envelope.table == table
    assert out.envelope.body["game"] == host.spec.game and host.members == members
    return str(out.envelope.body["reason"])


def test_a_refused_join_is_answered_with_the_reason_and_the_guest_learns_it() -> None:
    ids = people(3)
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check)
    join = {"nick": "bob", "xpk": ids[1].x25519_public.hex(), "game": "test-game"}
    assert refusal(host, ids[1], {**join, "game": "poker"}) == "wrong-game"
    assert refusal(host, ids[1], join, table="ffffffffffffffff") == "wrong-table"
    assert [r for _, r in host.refusals] == ["wrong-game", "wrong-table"]
    assert host.refusals[0][0].startswith("bob [")
    guest, _ = Lobby.join(ids[1], "ffffffffffffffff", ids[0].public_key, "test-game",
                          rules_check=rules_check)
    (out,) = host.receive(decode_envelope(sign_envelope(
        ids[1], "table.join", "ffffffffffffffff", 51, join).encode(), "link"))
    assert guest.receive(decode_envelope(out.envelope.encode(), "link")) == []
    assert guest.refused == ("wrong-table", "test-game")
    # a refusal from anyone but the host is not believed
    fake = sign_envelope(ids[2], "table.refused", "ffffffffffffffff", 7,
                         {"reason": "full", "game": "x"})
    with pytest.raises(TableError) as info:
        guest.receive(decode_envelope(fake.encode(), "link"))
    assert info.value.reason == Reason.WRONG_SENDER and guest.refused[0] == "wrong-table"
    host.receive(message(ids[2], "table.join", {**join, "nick": "cyd",
                                                "xpk": ids[2].x25519_public.hex()}))
    host.propose_start()
    assert refusal(host, ids[1], join) == "started"


def test_rejections_name_the_sender_and_leave_the_lobby_unchanged() -> None:
    ids = people(7)
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check)
    join = {"nick": "bob", "xpk": ids[1].x25519_public.hex(), "game": "test-game"}
    cases: list[tuple[Identity, str, dict[str, Any], Reason, str]] = [
        (ids[1], "table.join", {**join, "xpk": "00"}, Reason.MALFORMED, "X25519"),
        (
            ids[1],
            "table.roster",
            {"version": 9, "members": [], "spec": {}},
            Reason.WRONG_SENDER,
            "not expected",
        ),
        (ids[1], "table.leave", {}, Reason.TABLE_RULES, "is not at the table"),
        (
            ids[1],
            "table.sign",
            {"statement_hash": "00", "sig": "00"},
            Reason.TABLE_RULES,
            "before any start",
        ),
    ]
    for sender, type_, body, reason, detail in cases:
        with pytest.raises(TableError) as info:
            host.receive(message(sender, type_, body))
        assert (info.value.reason, detail in info.value.detail) == (reason, True), info.value
        assert info.value.sender.startswith(f"[{sender.fingerprint}]")
        assert len(host.members) == 1
    for me in ids[1:6]:
        host.receive(
            message(me, "table.join", {**join, "nick": me.nick, "xpk": me.x25519_public.hex()})
        )
    assert host.free_seats == 0
    assert refusal(host, ids[6], {**join, "xpk": ids[6].x25519_public.hex()}) == "full"
    # The same key joining again (its program restarted) keeps its seat (issue 12).
    (again,) = host.receive(message(ids[1], "table.join", {**join, "nick": "bob",
                                                           "xpk": ids[1].x25519_public.hex()}))
    assert again.envelope.type == "table.roster" and host.free_seats == 0


def test_guest_refuses_a_start_that_differs_from_its_view() -> None:
    ids = people(3)
    lobbies, _ = start_table(ids[:2])
    host, guest = lobbies
    assert guest.started is not None
    fresh, _join = Lobby.join(
        ids[2], TABLE, ids[0].public_key, "test-game", rules_check=rules_check
    )
    roster = {
        "version": 1,
        "spec": host.spec.to_dict(),
        "members": [
            {"pk": m.public_key.hex(), "xpk": m.x25519_public.hex(), "nick": m.nick}
            for m in (ids[0].public(), ids[2].public())
        ],
    }
    fresh.receive(message(ids[0], "table.roster", roster, 1))
    sneaky = {**host.spec.to_dict(), "options": {"fast": True}, "seats": roster["members"]}
    with pytest.raises(TableError) as info:
        fresh.receive(message(ids[0], "table.start", {"statement": sneaky}, 2))
    assert info.value.reason is Reason.TABLE_RULES
    assert "differs from this peer's view" in info.value.detail


def test_start_needs_every_signature() -> None:
    ids = people(3)
    lobbies, _ = start_table(ids)
    table = lobbies[0].started
    assert table is not None
    sigs = dict(table.sigs)
    missing = sigs.pop(ids[2].public_key.hex())
    with pytest.raises(TableError) as info:
        verify_started(table.statement, sigs, "host")
    assert info.value.reason is Reason.UNSIGNED and "cyd" in info.value.detail
    sigs[ids[2].public_key.hex()] = sign_statement(ids[2], {**table.statement, "game": "x"}).hex()
    with pytest.raises(TableError) as info:
        verify_started(table.statement, sigs, "host")
    assert info.value.reason is Reason.BAD_SIGNATURE
    sigs[ids[2].public_key.hex()] = missing
    assert verify_started(table.statement, sigs, "host") == table


def test_local_misuse_is_a_local_error() -> None:
    ids = people(2)
    with pytest.raises(LocalProtocolError, match="cannot create"):
        Lobby.create(ids[0], "test-game", {"fast": "maybe"}, rules_check=rules_check)
    host = Lobby.create(ids[0], "test-game", rules_check=rules_check)
    with pytest.raises(LocalProtocolError, match=r"at least 2 players \(currently 1\)"):
        host.propose_start()
    guest, _ = Lobby.join(
        ids[1], host.spec.table, ids[0].public_key, "test-game", rules_check=rules_check
    )
    with pytest.raises(LocalProtocolError, match="only the table's host"):
        guest.propose_start()


def test_a_guest_whose_link_came_back_is_caught_up_with_the_roster_and_the_start() -> None:
    # Issue 24, situation 4: bob's link was dead (the host's address changed) while cyd joined
    # and the start was proposed; both frames to bob were lost. When bob's link is back, the
    # host's catch_up gives him the roster and the proposal, and the table starts.
    from lancards.p2p.protocol.table import Outgoing

    ann, bob, cyd = people(3)
    (host, bob_lobby), net = seated_lobbies([ann, bob])
    cyd_lobby, join = Lobby.join(cyd, TABLE, ann.public_key, "test-game", rules_check=rules_check)
    net.by_key[cyd.public_key], net.guards[cyd.public_key] = cyd_lobby, ReplayGuard()

    def lost_to_bob(outgoing: list[Outgoing]) -> list[Outgoing]:
        return [Outgoing(tuple(k for k in o.to if k != bob.public_key), o.envelope)
                for o in outgoing]

    answer = host.receive(decode_envelope(join.envelope.encode(), "cyd"))
    net.guards[ann.public_key].accept(decode_envelope(join.envelope.encode(), "cyd"))
    net.post(ann.public_key, lost_to_bob(answer))
    net.run()
    net.post(ann.public_key, lost_to_bob(host.propose_start()))
    net.run()
    assert [m.nick for m in bob_lobby.members] == ["ann", "bob"]
    assert [m.nick for m in host.unsigned()] == ["bob"] and host.started is None
    assert host.catch_up(cyd.public_key) == [] and host.catch_up(ann.public_key) == []
    caught = host.catch_up(bob.public_key)
    assert [(o.to, o.envelope.type) for o in caught] == [
        ((bob.public_key,), "table.roster"), ((bob.public_key,), "table.start")]
    net.post(ann.public_key, caught)
    net.run()
    assert host.started is not None and bob_lobby.started == host.started == cyd_lobby.started
    assert host.catch_up(bob.public_key) == []
    with pytest.raises(LocalProtocolError, match="only the table's host catches a guest up"):
        bob_lobby.catch_up(ann.public_key)


def test_a_seat_played_by_a_bot_says_so_and_every_seat_signs_it() -> None:
    """Issue 26 ("the table shows each bot's level"): a host's ``--bots`` and a ``join
    --autoplay`` say their level in ``table.join`` (the host's own in its member); the roster
    carries it, the start statement binds it, so every peer, a watcher and the audit read it
    from the signed statement (``PublicIdentity.bot``). A person's member has no ``bot``."""
    ids = people(4)
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check, bot="easy")
    net = LobbyNet([host])
    lobbies = [host]
    for me, bot in zip(ids[1:], ("hard", "", "greedy"), strict=True):
        lobby, join = Lobby.join(me, TABLE, ids[0].public_key, "test-game",
                                 rules_check=rules_check, bot=bot)
        assert ("bot" in join.envelope.body) == bool(bot)
        lobbies.append(lobby)
        net.by_key[me.public_key], net.guards[me.public_key] = lobby, ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    net.post(ids[0].public_key, host.propose_start())
    net.run()
    said = {"ann": "easy", "bob": "hard", "cyd": "", "dee": "greedy"}
    for lobby in lobbies:
        assert lobby.started is not None and lobby.started == host.started
        assert {m.nick: m.bot for m in lobby.started.seats} == said
    table = host.started
    assert table is not None
    members = {m["nick"]: m for m in table.statement["seats"]}
    assert members["bob"]["bot"] == "hard" and "bot" not in members["cyd"]
    again = verify_started(table.statement, table.sigs, "audit")
    assert {m.nick: m.bot for m in again.seats} == said
    # the level is signed: changing it breaks every signature
    forged = {**table.statement, "seats": [{**m, "bot": "easy"} if m["nick"] == "bob" else m
                                           for m in table.statement["seats"]]}
    with pytest.raises(TableError) as info:
        verify_started(forged, table.sigs, "mallory")
    assert info.value.reason == Reason.BAD_SIGNATURE


@pytest.mark.parametrize(("bot", "detail"), [
    ("superbot", "names the bot level 'superbot', not one of easy, normal, hard, greedy"),
    ("Normal", "names the bot level 'Normal'"),
    ("x" * 17, "bot"),  # over the schema's 16 characters
    (7, "bot"),
    (None, "bot"),
])
def test_a_join_that_names_no_bot_level_is_refused_naming_the_joiner(bot: Any,
                                                                       detail: str) -> None:
    ids = people(2)
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check)
    body = {"nick": "bob", "xpk": ids[1].x25519_public.hex(), "game": "test-game", "bot": bot}
    with pytest.raises((TableError, MessageError)) as info:  # the schema, or the level
        host.receive(message(ids[1], "table.join", body))
    assert info.value.reason == Reason.MALFORMED and detail in str(info.value), info.value
    if isinstance(info.value, TableError):  # decoded: the host names the joiner
        assert info.value.sender == f"[{ids[1].fingerprint}]"  # its key, and the nick it said
    assert [m.nick for m in host.members] == ["ann"]


def test_a_roster_or_statement_member_with_a_bad_bot_level_is_malformed() -> None:
    ids = people(3)
    lobbies, _net = seated_lobbies(ids)
    host, guest = lobbies[0], lobbies[1]
    roster = {"version": 9, "spec": host.spec.to_dict(),
              "members": [{**m, "bot": "cheater"} for m in
                          (member_to_dict(x) for x in host.members)]}
    before = list(guest.members)
    with pytest.raises(TableError) as info:
        guest.receive(message(ids[0], "table.roster", roster))
    assert info.value.reason == Reason.MALFORMED and "'cheater'" in info.value.detail
    assert guest.members == before
    _lobbies, _net2 = start_table(people(2))
    table = _lobbies[0].started
    assert table is not None
    for bad in ("", 3, ["hard"]):
        statement = {**table.statement,
                     "seats": [{**table.statement["seats"][0], "bot": bad},
                               *table.statement["seats"][1:]]}
        with pytest.raises(TableError) as info:
            verify_started(statement, table.sigs, "mallory")
        assert info.value.reason == Reason.MALFORMED and info.value.sender == "mallory"


def test_a_joiner_whose_nickname_another_member_has_is_given_a_number() -> None:
    """The trial: three friends in three windows of one machine all joined as ``root`` and
    every screen showed ``root`` three times. The host numbers a nickname another member has
    (any case); the keys, the seats' identities, stay as they are; every seat signs the names."""
    ids = [Identity(bytes([i + 1]) * 32, nick) for i, nick in enumerate(("root", "root", "ROOT"))]
    lobbies, _net = start_table(ids)
    host = lobbies[0]
    assert [(m.public_key, m.nick) for m in host.members] == [
        (ids[0].public_key, "root"), (ids[1].public_key, "root 2"), (ids[2].public_key, "ROOT 3")]
    for lobby in lobbies:  # every seat signed the numbered names
        assert lobby.started is not None
        assert sorted(m.nick for m in lobby.started.seats) == ["ROOT 3", "root", "root 2"]


def test_a_numbered_nickname_is_kept_on_a_rejoin_and_freed_on_a_leave() -> None:
    root, other, third = (Identity(bytes([i + 1]) * 32, "root") for i in range(3))
    lobbies, net = seated_lobbies([root, other])
    host = lobbies[0]
    again, join = Lobby.join(other, TABLE, root.public_key, "test-game", rules_check=rules_check)
    net.by_key[other.public_key] = again
    net.guards[root.public_key] = ReplayGuard()  # the restarted program numbers from 0 again
    net.post(other.public_key, [join])  # its program restarted: the same key joins again
    net.run()
    assert [m.nick for m in host.members] == ["root", "root 2"]
    net.post(other.public_key, again.leave())
    net.run()
    lobby, join = Lobby.join(third, TABLE, root.public_key, "test-game", rules_check=rules_check)
    net.by_key[third.public_key], net.guards[third.public_key] = lobby, ReplayGuard()
    net.post(third.public_key, [join])
    net.run()
    assert [m.nick for m in host.members] == ["root", "root 2"]
    assert host.members[1].public_key == third.public_key


def test_distinct_nick_numbers_the_first_free_name_within_24_characters() -> None:
    from lancards.p2p.protocol.identity import distinct_nick

    assert distinct_nick("bob", ["ann", "Ada"]) == "bob"
    assert distinct_nick("ann", ["ANN"]) == "ann 2"
    assert distinct_nick("ann", ["ann", "ann 2", "Ann 3"]) == "ann 4"
    assert distinct_nick("x" * 24, ["x" * 24]) == "x" * 22 + " 2"
    assert distinct_nick("ab " + "c" * 21, ["ab " + "c" * 21]) == "ab " + "c" * 19 + " 2"
    assert distinct_nick("ab" + " " * 20 + "cd", ["ab" + " " * 20 + "cd"]) == "ab 2"
