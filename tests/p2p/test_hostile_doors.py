"""Issue 23, "every door, every byte": a hostile peer's bytes at each door (situations 1, 4, 5
and 9, and the adapters' last-resort guards): the exact rejection, who is named (never an
honest peer) and what each honest peer sees.

In memory through :class:`GameCore` (every message through the real codec), at each decoder
directly, and over real websockets on 127.0.0.1 (a seated hostile peer at a running table, a
fresh-key newcomer at a lobby host).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from typing import Annotated, Any

import msgspec
import pytest

from lancards.cli.lobby import common as lobby_common
from lancards.engine.rulesets import RULE_SETS
from lancards.p2p.net.discovery import SERVICE_TYPE, Browser, Ignored, Resolved
from lancards.p2p.net.fetch_started import fetch_started
from lancards.p2p.net.node import PeerNode, drive_bot, game_bot
from lancards.p2p.net.record_file import write_record
from lancards.p2p.net.transport import Mesh, Received
from lancards.p2p.protocol import schemas
from lancards.p2p.protocol.advert import txt_to_advert
from lancards.p2p.protocol.core import GameCore, Notice, Send
from lancards.p2p.protocol.errors import HandshakeError, MessageError, Reason
from lancards.p2p.protocol.handshake import HelloHandshake
from lancards.p2p.protocol.identity import Identity, describe
from lancards.p2p.protocol.sealed import seal
from lancards.p2p.protocol.start_fetch import StartFetch
from lancards.p2p.protocol.table import Lobby
from lancards.p2p.protocol.wire import decode_envelope, parse_json, sign_envelope
from tests.p2p.core_harness import (
    SOCKET_CONFIG,
    listening_nodes,
    make_cores,
    make_table,
)
from tests.p2p.test_core_pipeline import forge_proof, kinds
from tests.p2p.test_leave import LeaveGame, check_finished

SURROGATE = b"\\ud800"
"""The JSON escape of a lone surrogate: valid JSON, not valid text (not encodable as UTF-8)."""


def with_surrogate(data: bytes) -> bytes:
    """``data`` (canonical JSON holding the marker ``@@``) with the marker as a lone surrogate
    escape. A signature cannot cover such bytes: the envelope's keeps the marker's."""
    assert data.count(b"@@") == 1
    return data.replace(b"@@", SURROGATE)


def hostile_chat(core: GameCore) -> bytes:
    """A chat envelope by ``core``'s seat whose text holds a lone surrogate."""
    seq, core._env_seq = core._env_seq, core._env_seq + 1
    return with_surrogate(sign_envelope(core.me, "chat", core.table_id, seq,
                                        {"text": "hi @@"}).encode())


def named(notices: list[Notice]) -> list[tuple[str, int | None]]:
    return [(x.kind, x.seat) for x in notices if x.kind in ("cheat", "rejected")]


# ---------------------------------------------------------------------------------------------
# 1. Invalid text at every door.


@pytest.mark.parametrize(("data", "detail"), [
    (b'{"a":"\\ud800"}', "the message's field 'a' holds a lone surrogate U+D800"),
    (b'{"a":["x",{"b":"\\udc00"}]}',
     "the message's field 'a'[1].b holds a lone surrogate U+DC00"),
    (b'["\\ude00\\ud83d"]', "the message's item 0 holds a lone surrogate U+DE00"),  # reversed
    (b'{"\\ud800":1}', "a key of the message holds a lone surrogate U+D800"),
    (b'{"a":"x\\u0000"}', "the message's field 'a' holds NUL (U+0000)"),
    (b'{"a": "\\u0000"}', "the message's field 'a' holds NUL (U+0000)"),  # the strict path too
    (b'{"type":"chat","body":{"text":"\\u0000"}}', "'chat' body field 'text' holds NUL (U+0000)"),
    (b'{"type":"Chat!","body":{"text":"\\u0000"}}',  # a type that reads as none
     "the message's field 'body'.text holds NUL (U+0000)"),
    (b'{"a":"\xc0\xaf"}', "not UTF-8 at byte 6"),  # an over-long "/"
    (b'{"a":"\xe0\x80\xaf"}', "not UTF-8 at byte 6"),  # an over-long "/", three bytes
    (b'{"a":"\xed\xa0\x80"}', "not UTF-8 at byte 6"),  # an encoded surrogate (CESU-8)
    (b'{"a":"x\x00"}', "bad JSON at char 7: invalid control character at"),  # a raw NUL
])
def test_parse_json_refuses_invalid_text_precisely(data: bytes, detail: str) -> None:
    with pytest.raises(MessageError) as info:
        parse_json(data, "bob")
    assert (info.value.sender, info.value.reason) == ("bob", Reason.MALFORMED)
    assert info.value.detail == detail or info.value.detail.startswith(detail)


def test_valid_text_still_passes() -> None:
    assert parse_json(b'["\\ud83d\\ude00","\\\\u0000","\\u0001","\xc3\xa9"]', "bob") == \
        ["\U0001f600", "\\u0000", "\x01", "é"]


def test_an_envelope_with_a_lone_surrogate_is_malformed_not_a_crash() -> None:
    cores, _net = make_cores(3, "level8", seed="door-env")
    hostile, victim = cores[1], cores[0]
    data = hostile_chat(hostile)
    with pytest.raises(MessageError) as info:
        decode_envelope(data, "link", expected_sender=hostile.me.public_key)
    assert info.value.reason is Reason.MALFORMED and info.value.sender == "link"
    assert info.value.detail == "'chat' body field 'text' holds a lone surrogate U+D800"
    # In the core: a rejection naming the seated sender, the table goes on.
    out = victim.receive(hostile.me.public_key, data)
    [notice] = [x for x in out if isinstance(x, Notice)]
    assert (notice.kind, notice.seat) == ("rejected", 1)
    assert notice.text == (f"rejected message from {hostile.players[1]} (seat 2): malformed: "
                           "'chat' body field 'text' holds a lone surrogate U+D800")
    assert victim.halted is None and not victim.cheaters


def test_a_record_entry_with_a_lone_surrogate_in_its_payload_is_rejected() -> None:
    cores, _net = make_cores(3, "level8", seed="door-entry")
    hostile, victim = cores[1], cores[0]
    entry = {"tbl": hostile.table_id, "seq": 0, "author": hostile.me.public_key.hex(),
             "prev": "00" * 32, "payload": {"t": "action", "a": "@@", "open": []},
             "state": "ab", "sig": "00" * 64}
    seq, hostile._env_seq = hostile._env_seq, hostile._env_seq + 1
    data = with_surrogate(sign_envelope(hostile.me, "record.entry", hostile.table_id, seq,
                                        {"entry": entry}).encode())
    out = victim.receive(hostile.me.public_key, data)
    assert [(x.kind, x.seat, x.text.split(": ", 1)[1]) for x in out if isinstance(x, Notice)] \
        == [("rejected", 1, "malformed: 'record.entry' body field 'entry'.payload.a holds a lone "
                            "surrogate U+D800")]
    assert victim.halted is None and len(victim.record) == 0


def test_sealed_shares_whose_plaintext_holds_a_lone_surrogate_are_rejected() -> None:
    cores, _net = make_cores(3, "level8", seed="door-sealed")
    hostile, victim = cores[0], cores[1]
    plaintext = (b'{"type":"shares","seat":0,"recipient":1,"shares":[{"slot":1,"share":"'
                 + SURROGATE + b'"}],"proof":{}}')
    payload = seal(hostile.me, victim.players[victim.seat], hostile.table_id, "deck.shares",
                   plaintext)
    seq, hostile._env_seq = hostile._env_seq, hostile._env_seq + 1
    data = sign_envelope(hostile.me, "sealed", hostile.table_id, seq,
                         {"payload": payload.to_dict()}).encode()
    out = victim.receive(hostile.me.public_key, data)
    [notice] = [x for x in out if isinstance(x, Notice)]
    assert (notice.kind, notice.seat) == ("rejected", 0)
    assert notice.text.endswith("malformed: the message's field 'shares'[0].share holds a "
                                "lone surrogate U+D800")
    assert victim.halted is None


def test_the_hello_handshake_refuses_a_lone_surrogate() -> None:
    me = Identity(b"\x07" * 32, "ann")
    hs = HelloHandshake.listener(me, b"\x01" * 32, "127.0.0.1:9", ephemeral=b"\x02" * 32,
                                 is_known=lambda key: True)
    with pytest.raises(HandshakeError) as info:
        hs.receive(b'{"t":"hello","v":1,"pk":"' + SURROGATE + b'","nonce":"00"}')
    assert info.value.reason is Reason.HANDSHAKE
    assert info.value.detail == "the message's field 'pk' holds a lone surrogate U+D800"


def test_a_start_fetch_answer_with_a_lone_surrogate_is_refused_naming_the_peer() -> None:
    ids, table = make_table(3)
    ann, bob, _cyd = ids
    fetch = StartFetch(ann, table.statement, next_seq=40)
    fetch.ask(bob.public_key)
    data = with_surrogate(sign_envelope(bob, "table.told", table.spec.table, 7, {
        "statement": {"x": "@@"}, "sigs": {}, "addrs": {}}).encode())
    with pytest.raises(MessageError) as info:
        fetch.receive(bob.public_key, data)
    assert info.value.reason is Reason.MALFORMED and bob.nick in info.value.sender
    assert info.value.detail == ("'table.told' body field 'statement'.x holds a lone "
                                 "surrogate U+D800")


def test_a_lobby_message_with_a_lone_surrogate_is_malformed() -> None:
    newcomer = Identity(b"\x31" * 32, "eve")
    data = with_surrogate(sign_envelope(newcomer, "table.join", "0123456789abcdef", 1, {
        "nick": "@@", "xpk": newcomer.x25519_public.hex(), "game": "level8"}).encode())
    with pytest.raises(MessageError) as info:
        decode_envelope(data, "eve-link", expected_sender=newcomer.public_key,
                        types=lobby_common.LOBBY_TYPES)
    assert (info.value.sender, info.value.reason) == ("eve-link", Reason.MALFORMED)
    assert info.value.detail == "'table.join' body field 'nick' holds a lone surrogate U+D800"


@pytest.mark.parametrize(("value", "detail"), [
    (b"\xc0\xaf", "TXT key 'nick' is not UTF-8 at byte 0"),
    (b"\xed\xa0\x80", "TXT key 'nick' is not UTF-8 at byte 0"),
    (b"ann\x00", "TXT key 'nick' holds NUL (U+0000) at character 3"),
])
def test_a_txt_record_with_invalid_text_is_refused(value: bytes, detail: str) -> None:
    props = {b"v": b"1", b"tbl": b"00112233aabbccdd", b"game": b"eights", b"seats": b"2",
             b"nick": value, b"pk": bytes(range(32)).hex().encode()}
    with pytest.raises(MessageError) as info:
        txt_to_advert(props, "t._lancards._tcp.local.")
    assert (info.value.reason, info.value.detail) == (Reason.MALFORMED, detail)


def test_a_record_file_line_with_a_lone_surrogate_is_a_rejection() -> None:
    cores, net = make_cores(2, "level8", seed="door-file")
    net.start()
    net.run(limit=200)
    lines = cores[0].record.to_lines()
    entry_line = lines[3]
    assert b'"state":"' in entry_line
    bad = entry_line.replace(b'"state":"', b'"state":"' + SURROGATE, 1)
    from lancards.p2p.protocol.audit import audit_lines

    report = audit_lines([*lines[:3], bad, *lines[4:]])
    assert report.status == "rejected"
    assert report.error == ("record file line 4 (entry 3): rejected message from record file: "
                            "malformed: the message's field 'entry'.state holds a lone "
                            "surrogate U+D800")


# ---------------------------------------------------------------------------------------------
# 1, over real websockets: a seated hostile peer, and a fresh-key newcomer at a lobby host.


@pytest.mark.timeout(240)
def test_a_seated_peer_sending_a_lone_surrogate_is_rejected_and_the_table_plays_on(tmp_path):
    async def play() -> list[PeerNode]:
        nodes = await listening_nodes(3, "level8", "door-sock", tmp_path)
        hostile = nodes[1]
        sent = [0]

        async def attack() -> None:
            # Once every link of the hostile peer is up, and again mid-game.
            while len(hostile.connected) < 2:
                await asyncio.sleep(0.05)
            for _ in range(2):
                for node in (nodes[0], nodes[2]):
                    hostile.mesh.send(node.core.me.public_key, hostile_chat(hostile.core))
                    sent[0] += 1
                while len(hostile.core.record) < 40:
                    await asyncio.sleep(0.05)

        try:
            async with asyncio.timeout(200):
                await asyncio.gather(attack(), *(node.run(linger=0.5) for node in nodes),
                                     *(drive_bot(node, game_bot(node.core)) for node in nodes))
        finally:
            for node in nodes:
                await node.close()
        assert sent[0] == 4
        return nodes

    nodes = asyncio.run(play())
    cores = [node.core for node in nodes]
    assert len({tuple(e.hash for e in c.record.entries) for c in cores}) == 1
    outcome = cores[0].game.outcome(cores[0].state)
    assert outcome is not None and all(c.game.outcome(c.state) == outcome for c in cores)
    for node in (nodes[0], nodes[2]):
        assert named(node.notices) == [("rejected", 1), ("rejected", 1)]
        assert all(x.text.endswith("malformed: 'chat' body field 'text' holds a lone "
                                   "surrogate U+D800") for x in node.notices
                   if x.kind == "rejected")
        assert node.core.halted is None and not node.core.cheaters
    assert named(nodes[1].notices) == []


@pytest.mark.timeout(60)
def test_a_fresh_key_newcomer_sending_a_lone_surrogate_leaves_the_lobby_host_serving(
        capsys: Any) -> None:
    """A newcomer that never joined (fresh key, no seat) dials the lobby host and sends a
    ``table.join`` whose nickname holds a lone surrogate: the host writes one line naming the
    newcomer's link and seats the honest joiner that comes next."""
    host_id, guest_id, newcomer = (Identity(bytes([i]) * 32, n)
                                   for i, n in ((0x41, "ann"), (0x42, "bob"), (0x43, "eve")))

    async def go() -> Lobby:
        lobby = Lobby.create(host_id, "level8", {})
        mesh = Mesh(host_id, SOCKET_CONFIG, accept=lambda key: lobby.started is None)
        port = await mesh.start("127.0.0.1", 0)
        lobbyist = lobby_common.Lobbyist(host_id, lobby, mesh)

        def on_message(peer: bytes, env: Any) -> None:
            out = lobby_common.receive_or_report(lobby, env)
            if out is not None:
                lobby_common.send_all(mesh, out)

        eve_mesh = Mesh(newcomer, SOCKET_CONFIG)
        await eve_mesh.start("127.0.0.1", 0)
        eve_mesh.add_peer(host_id.public_key, "127.0.0.1", port, dial=True)
        eve_mesh.send(host_id.public_key, with_surrogate(sign_envelope(
            newcomer, "table.join", lobby.spec.table, 1,
            {"nick": "@@", "xpk": newcomer.x25519_public.hex(), "game": "level8"}).encode()))
        _bob_lobby, join = Lobby.join(guest_id, lobby.spec.table, host_id.public_key, "level8")
        bob_mesh = Mesh(guest_id, SOCKET_CONFIG)
        await bob_mesh.start("127.0.0.1", 0)

        try:
            pump = asyncio.create_task(lobbyist.pump(
                on_message, lambda: len(lobby.seats()) == 2, 30.0))
            await asyncio.sleep(0.5)  # eve's bytes first
            bob_mesh.add_peer(host_id.public_key, "127.0.0.1", port, dial=True)
            lobby_common.send_all(bob_mesh, [join])
            await asyncio.wait_for(pump, 30)
        finally:
            for m in (mesh, eve_mesh, bob_mesh):
                await m.close()
        return lobby

    lobby = asyncio.run(go())
    assert sorted(m.nick for m in lobby.seats()) == ["ann", "bob"]
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("ignored")]
    assert err == [f"ignored a message from {newcomer.public_key.hex()[:16]}: it does not "
                   "follow the table's rules"]  # words; the reason goes to --verbose


# ---------------------------------------------------------------------------------------------
# 4. A record.sync while a completed epoch's bad proof of shuffle is unchecked.


def _bad_epoch_waiting(seed: str) -> tuple[list[GameCore], Any]:
    """4 seats of Level 8; seat 1 signs a bad proof of shuffle; every seat checks only while
    idle and no idle check has run yet: the epoch is complete, its checks due."""
    cores, net = make_cores(4, "level8", seed=seed)
    forge_proof(cores[1])
    for core in cores:
        core.checks_when_idle = True
    net.idle_checks = False
    net.start()
    net.run()
    assert kinds(cores[0]) == ["key"] * 8 + ["shuffle"] * 4
    assert cores[0].deck.checks_due and cores[0].halted is None
    assert cores[0]._private_for[2]  # seat 2's dealt cards: shares a sync would resend
    return cores, net


def test_4_a_sync_while_bad_proofs_wait_for_idle_checks_sends_no_share_and_names_the_prover():
    cores, net = _bad_epoch_waiting("sync-idle")
    victim, asker = cores[0], cores[2]
    seq, asker._env_seq = asker._env_seq, asker._env_seq + 1
    out = victim.receive(asker.me.public_key, sign_envelope(
        asker.me, "record.sync", victim.table_id, seq, {"have": 0}).encode())
    assert [x for x in out if isinstance(x, Notice)] == []
    assert not [x for x in out if isinstance(x, Send) and b'"sealed"' in x.data]
    # The idle checks then find the prover: seat 1, never the asker.
    net.post(victim.me.public_key, victim.verify_deferred(None))
    assert list(victim.cheaters) == [1]
    assert "proof of shuffle by seat 1 in epoch 1 rejected" in victim.halted
    # Every honest peer, checking in turn, names seat 1 alone and sends no share.
    net.idle_checks = True
    net.run()
    for core in (cores[0], cores[2], cores[3]):
        assert list(core.cheaters) == [1], core.seat
        assert named(net.notices[core.me.public_key]) == [("cheat", 1)]
        assert all(core.deck.card(s) is None for s in range(108, 216))
    # A halted peer answers a later sync without making a share either.
    seq, asker._env_seq = asker._env_seq, asker._env_seq + 1
    out = victim.receive(asker.me.public_key, sign_envelope(
        asker.me, "record.sync", victim.table_id, seq, {"have": 0}).encode())
    assert [x for x in out if isinstance(x, Notice)] == []


def test_4_a_sync_to_a_peer_that_checks_at_once_runs_the_checks_and_names_the_prover():
    cores, _net = _bad_epoch_waiting("sync-now")
    victim, asker = cores[0], cores[2]
    victim.checks_when_idle = False  # a driver without idle checks
    seq, asker._env_seq = asker._env_seq, asker._env_seq + 1
    out = victim.receive(asker.me.public_key, sign_envelope(
        asker.me, "record.sync", victim.table_id, seq, {"have": 0}).encode())
    assert named([x for x in out if isinstance(x, Notice)]) == [("cheat", 1)]
    assert list(victim.cheaters) == [1]
    assert not [x for x in out if isinstance(x, Send) and b'"sealed"' in x.data]


# ---------------------------------------------------------------------------------------------
# 5. Share caps derived from what a game can need.


def test_5_every_rule_set_fits_the_share_cap() -> None:
    for spec in RULE_SETS:
        deck = len(spec.game.canonical_deck(spec.make_rules()))
        assert deck <= schemas.MAX_DECK, spec.name
    assert schemas.MAX_SHARES == schemas.MAX_DECK * schemas.MAX_SEATS == 648


@pytest.mark.timeout(300)
def test_5_six_seats_of_eights_with_four_leaves_finish_and_nobody_is_named() -> None:
    """At 6 seats of 8s Rule! every leave deals again from a fresh deck (D-1). Before situation
    10 was fixed the later leaves carried shares of every generation's hidden cards (the third
    169 > the former cap of 128, refused as malformed); now a leave shares only the hidden cards
    still in play, and each must fit the cap derived from the decks: every peer takes every
    leave (none is named, the game finishes)."""
    cores, net = make_cores(6, "eights", seed="six")
    net.bots.clear()
    game = LeaveGame(cores, net, ["turn"] * 4, patience=400)
    game.run(limit=20000)
    check_finished(game, 4)
    counts = [len(e.payload["msg"]["shares"]) for e in cores[0].record.entries
              if e.payload["t"] == "leave"]
    assert counts == [46, 44, 42, 37]
    assert max(counts) <= schemas.MAX_SHARES
    for core in cores:
        assert named(net.notices[core.me.public_key]) == []


# ---------------------------------------------------------------------------------------------
# 9. Every schema pattern anchored at the true end.

SAMPLES = {
    r"\A[0-9a-f]{64}\Z": "ab" * 32,
    r"\A[0-9a-f]{16}\Z": "0123456789abcdef",
    r"\A[0-9A-Za-z.:%\-\[\]]+\Z": "fe80::1%eth0",
    r"\A[0-9a-f]{2,128}\Z": "abcd",
    r"\A[a-z][a-z0-9.\-]{0,39}\Z": "record.entry",
    r"\A[0-9a-f]{128}\Z": "cd" * 64,
    r"\A[0-9a-f]{66}\Z": "02" * 33,
    r"\A[0-5]\Z": "2",
    r"\A[a-z0-9][a-z0-9-]{0,39}\Z": "level8-master",
}


def _patterns() -> set[str]:
    """Every string pattern of every declared schema (msgspec's own type info)."""
    roots = [schemas.EnvelopeSchema, *schemas.MESSAGE_SCHEMAS.values(), schemas.EntrySchema,
             schemas.Payload, schemas.PrivateShares, schemas.EscrowPart, schemas.HeaderLine,
             schemas.GenesisSchema, schemas.RecordLine]
    found: set[str] = set()
    seen: set[int] = set()
    stack: list[Any] = list(msgspec.inspect.multi_type_info(roots))
    while stack:
        info = stack.pop()
        if id(info) in seen:
            continue
        seen.add(id(info))
        if isinstance(info, msgspec.inspect.StrType) and info.pattern is not None:
            found.add(info.pattern)
        for name in ("fields", "types", "item_type", "key_type", "value_type", "item_types"):
            value = getattr(info, name, None)
            if value is None:
                continue
            for part in value if isinstance(value, tuple) else (value,):
                stack.append(getattr(part, "type", part))
    return found


def test_9_every_schema_pattern_refuses_a_trailing_newline() -> None:
    patterns = _patterns()
    assert patterns == set(SAMPLES)  # a new pattern needs a sample here
    for pattern, sample in SAMPLES.items():
        typ = Annotated[str, msgspec.Meta(pattern=pattern)]
        assert msgspec.convert(sample, typ) == sample
        for bad in (sample + "\n", "\n" + sample, sample + "\n\n"):
            with pytest.raises(msgspec.ValidationError):
                msgspec.convert(bad, typ)
        assert re.search(pattern, sample + "\n") is None


def test_9_every_compiled_pattern_in_p2p_is_used_with_fullmatch() -> None:
    """The ``re.compile`` patterns of ``p2p/`` are matched whole (``fullmatch``), never with
    ``match``/``search`` plus ``$``."""
    import pathlib

    root = pathlib.Path(schemas.__file__).parent
    for path in sorted(root.rglob("*.py")):
        text = path.read_text("utf-8")
        for name in re.findall(r"^(\w+) = re\.compile\(r?\"", text, re.M):
            uses = re.findall(rf"\b{name}\.(\w+)\(", text)
            assert set(uses) <= {"fullmatch", "sub", "findall", "search"}, (path, name, uses)
            if "search" in uses:  # only the text check, which looks for one bad character
                assert name == "_BAD_TEXT", (path, name)
        assert not re.search(r'pattern=r?"[^"]*\$"', text), path
        assert not re.search(r'pattern=r?"\^', text), path


def _escrow_cheat(seed: str) -> tuple[list[GameCore], Any]:
    """3 seats of Level 8 with rescue on; seat 0 keys its escrow deal to seat 2 ``"2\\n"``."""
    cores, net = make_cores(3, "level8", seed=seed, options={"rescue": "on"})
    dealer = cores[0]
    make = dealer._make_escrow

    def newline_keys() -> dict[str, Any]:
        payload = make()
        for field in ("commitments", "parts"):
            payload[field] = {("2\n" if k == "2" else k): v for k, v in payload[field].items()}
        return payload

    dealer._make_escrow = newline_keys  # type: ignore[method-assign]
    net.start()
    net.run(limit=400)
    return cores, net


def test_9_an_escrow_part_keyed_with_a_trailing_newline_names_the_dealer(tmp_path) -> None:
    cores, net = _escrow_cheat("nl")
    for core in cores[1:]:
        assert list(core.cheaters) == [0], core.seat
        assert named(net.notices[core.me.public_key]) == [("cheat", 0)]
        assert core.halted.endswith(  # in plain words (the LAN trial of 2026-12-08)
            "(seat 1, entry 7): malformed: a key of entry payload field 'commitments' is not "
            "of its form")
    # The audit of the dealer's own record refuses that entry.
    from lancards.cli.main import main

    path = tmp_path / "dealer.jsonl"
    write_record(cores[0].record, path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["audit", str(path)]) == 1
    escrow = next(e.seq for e in cores[0].record.entries if e.payload["t"] == "escrow")
    assert out.getvalue().startswith(f"REJECTED: record file line {escrow + 2} (entry "
                                     f"{escrow + 1}): ")
    assert out.getvalue().endswith(
        "malformed: a key of entry payload field 'commitments' is not of its form\n")


# ---------------------------------------------------------------------------------------------
# The adapters' last-resort guards: an exception no door expected, one line, serving on.


def test_the_node_guard_names_the_sender_in_one_line_and_serves_on(monkeypatch) -> None:
    cores, _net = make_cores(3, "level8", seed="guard-node")
    me, bob, cyd = cores
    node = PeerNode(me, Mesh(me.me, SOCKET_CONFIG))
    node.handle(me.start())
    real = me.receive

    def flaky(sender: bytes, data: bytes) -> list[Any]:
        if sender == bob.me.public_key:
            raise RuntimeError("boom\nsecond line")
        return real(sender, data)

    monkeypatch.setattr(me, "receive", flaky)
    node.receive(bob.me.public_key, b"{}")
    seq, cyd._env_seq = cyd._env_seq, cyd._env_seq + 1
    node.receive(cyd.me.public_key, sign_envelope(cyd.me, "chat", me.table_id, seq,
                                                  {"text": "still here"}).encode())
    assert [(x.kind, x.seat, x.text) for x in node.notices] == [
        ("rejected", 1, f"rejected message from {me.name(1)} (seat 2): unexpected: "
                        "RuntimeError: boom second line"),
        ("chat", 2, "still here"),
    ]


def test_the_lobby_pump_guard_names_the_sender_and_serves_on(monkeypatch, capsys) -> None:
    host_id, guest_id, other = (Identity(bytes([i]) * 32, n)
                                for i, n in ((0x51, "ann"), (0x52, "bob"), (0x53, "cyd")))
    lobby = Lobby.create(host_id, "level8", {})
    real_decode = lobby_common.decode_envelope

    def flaky(data: bytes, link: str, **kw: Any) -> Any:
        if kw.get("expected_sender") == other.public_key:
            raise KeyError("deep inside")
        return real_decode(data, link, **kw)

    monkeypatch.setattr(lobby_common, "decode_envelope", flaky)
    real_receive = lobby.receive
    calls = [0]

    def flaky_receive(env: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise ValueError("a bug")
        return real_receive(env)

    monkeypatch.setattr(lobby, "receive", flaky_receive)
    _bob, join = Lobby.join(guest_id, lobby.spec.table, host_id.public_key, "level8")
    _cyd, cyd_join = Lobby.join(other, lobby.spec.table, host_id.public_key, "level8")

    async def go() -> None:
        mesh = Mesh(host_id, SOCKET_CONFIG)
        lobbyist = lobby_common.Lobbyist(host_id, lobby, mesh)
        for sender, data in ((other, cyd_join.envelope.encode()),
                             (guest_id, join.envelope.encode()),
                             (guest_id, join.envelope.encode())):
            mesh.events.put_nowait(Received(sender.public_key, data))

        def on_message(peer: bytes, env: Any) -> None:
            lobby_common.receive_or_report(lobby, env)

        await lobbyist.pump(on_message, lambda: len(lobby.seats()) == 2, 10.0)

    asyncio.run(go())
    assert sorted(m.nick for m in lobby.seats()) == ["ann", "bob"]
    assert capsys.readouterr().err.splitlines() == [
        f"ignored a message from {other.public_key.hex()[:16]}: it does not follow the "
        "table's rules",
        f"ignored a message from {describe(guest_id.public_key)}: it does not follow the "
        "table's rules",
    ]  # the words; the exception's class and text go to the --verbose log (issue 25)


def test_the_start_fetch_guard_names_the_sender_and_asks_on(monkeypatch) -> None:
    ids, table = make_table(3)
    ann, bob, cyd = ids
    fetch = StartFetch(ann, table.statement, next_seq=40)
    answer = (table, {})

    def flaky(peer: bytes, data: bytes) -> Any:
        if peer == bob.public_key:
            raise AttributeError("no such thing")
        return answer

    monkeypatch.setattr(fetch, "receive", flaky)
    refused: list[str] = []

    async def go() -> Any:
        mesh = Mesh(ann, SOCKET_CONFIG)
        mesh.events.put_nowait(Received(bob.public_key, b"x"))
        mesh.events.put_nowait(Received(cyd.public_key, b"y"))
        return await fetch_started(mesh, fetch, {}, wait=5,
                                   refused=lambda e: refused.append(str(e)))

    assert asyncio.run(go()) == answer
    assert refused == [f"rejected message from {fetch.name(bob.public_key)}: unexpected: "
                       "AttributeError: no such thing"]


def test_the_discovery_guard_ignores_the_advert_naming_it(monkeypatch) -> None:
    import lancards.p2p.net.discovery as discovery

    name = f"00112233aabbccdd-00010203.{SERVICE_TYPE}"

    class OneBrowser(Browser):
        async def _request(self, zeroconf: Any, name: str) -> Resolved | None:
            return Resolved(b"\x03v=1", 4000, ("127.0.0.1",))

    def broken(*args: Any, **kw: Any) -> Any:
        raise IndexError("out of range")

    monkeypatch.setattr(discovery, "txt_to_advert", broken)

    async def go() -> list[Any]:
        from lancards.p2p.net.addresses import LocalAddress

        browser = OneBrowser([LocalAddress("lo", 1, "127.0.0.1", 4)])
        await browser._resolve(None, name)  # type: ignore[arg-type]
        return [browser.events.get_nowait() for _ in range(browser.events.qsize())]

    [event] = asyncio.run(go())
    assert isinstance(event, Ignored) and event.name == name
    assert str(event.error) == (f"rejected message from {name}: unexpected: IndexError: "
                                "out of range")
