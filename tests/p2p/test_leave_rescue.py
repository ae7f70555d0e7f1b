"""Key escrow in the record, the first step of the rescue of a seat that vanished (ruling D-5;
p2p/protocol/escrow_entries.py): escrow entries at the start and again after a leave, a bad part
named by its holder, bad commitments named by everyone, the table options ``rescue`` and
``patience``."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from lancards.engine.core import RulesError
from lancards.p2p.protocol.audit import audit_lines
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.escrow_entries import ESCROW_PURPOSE
from lancards.p2p.protocol.record import sign_entry
from lancards.p2p.protocol.sealed import seal
from lancards.p2p.protocol.statement import registry_rules_check
from lancards.p2p.protocol.table import start_local
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import Network, identities, make_cores


def _run_until(net: Network, cores: list[GameCore], length: int) -> None:
    """Deliver messages until every core's record holds ``length`` entries (the rest of the
    deal is not needed here: it keeps the test cheap)."""
    while net.queue and min(len(c.record) for c in cores) < length:
        net.run(limit=net.delivered + 1)
    assert min(len(c.record) for c in cores) >= length


def _table(n: int, seed: str) -> tuple[list[GameCore], Network]:
    cores, net = make_cores(n, "level8", seed=seed, options={"rescue": "on"})
    net.bots.clear()
    return cores, net


def _kinds(core: GameCore) -> list[str]:
    return [e.payload["t"] for e in core.record.entries]


def test_key_shares_are_escrowed_at_the_start_and_again_after_a_leave() -> None:
    cores, net = _table(4, "esc")
    net.start()
    _run_until(net, cores[:1], 10)
    leaver = cores[0]  # chooses to leave now: at its first shuffle, its leave replaces it
    net.post(leaver.me.public_key, leaver.leave())
    assert leaver.leaving and len(leaver.record) == 10
    _run_until(net, cores, 12)
    assert _kinds(cores[0])[:12] == ["key"] * 8 + ["escrow"] * 4
    authors = [cores[0].seat_of(e.author) for e in cores[0].record.entries[8:12]]
    assert authors == [0, 1, 2, 3]  # in seat order, before the first shuffle
    first = [e.payload for e in cores[0].record.entries[8:12]]
    assert [sorted(p["commitments"]) for p in first] == [["1", "2", "3"], ["0", "2", "3"],
                                                         ["0", "1", "3"], ["0", "1", "2"]]
    assert [sorted(p["parts"]) for p in first] == [sorted(p["commitments"]) for p in first]
    _run_until(net, cores, 17)
    remaining = [c for c in cores if c is not leaver]
    # the leaver's parts are lost: dealt again among three, then the shuffle begins again
    assert _kinds(cores[1])[12:17] == ["leave", "escrow", "escrow", "escrow", "shuffle"]
    for core in remaining:
        assert core.deck.present == tuple(c.seat for c in remaining)
        for dealer in remaining:
            assert core.deck.escrow_holders(dealer.seat) == tuple(
                c.seat for c in remaining if c is not dealer)
            assert core.deck.can_rescue(dealer.seat)
        assert not core.deck.can_rescue(leaver.seat)
    report = audit_lines(cores[0].record.to_lines())
    assert report.ok and report.status == "unfinished"
    assert [e.to_dict() for e in remaining[0].record.entries[:17]] == \
        [e.to_dict() for e in remaining[1].record.entries[:17]]


def _forge_escrow(dealer_seat: int, change: Any) -> Any:
    """A tamper that re-signs ``dealer_seat``'s first escrow entry after ``change(core,
    payload)`` edits its payload (the dealer is hostile: it signs what it sends)."""
    state: dict[str, Any] = {}

    def tamper(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        env = json.loads(data)
        entry = env.get("body", {}).get("entry") if env.get("type") == "record.entry" else None
        dealer = state["cores"][dealer_seat]
        if entry is None or sender != dealer.me.public_key or entry["payload"]["t"] != "escrow":
            return data
        if "forged" not in state:
            payload = entry["payload"]
            change(dealer, payload)
            forged = sign_entry(dealer.me, entry["tbl"], entry["seq"], entry["prev"], payload,
                                entry["state"])
            state["forged"] = forged.to_dict()
        return sign_envelope(dealer.me, "record.entry", env["tbl"], env["seq"],
                             {"entry": state["forged"]}).encode()

    return tamper, state


def test_a_bad_escrow_part_is_named_by_its_holder_and_the_game_goes_on() -> None:
    cores, net = _table(4, "badpart")
    dealer = cores[1]
    honest = dealer._make_escrow

    def bad_part() -> dict[str, Any]:  # seat 1 seals a part to seat 2 that is not its own
        payload = honest()
        plaintext = json.dumps({"part": f"{12345:064x}"}).encode()
        payload["parts"]["2"] = seal(dealer.me, dealer.players[2], dealer.table_id,
                                     ESCROW_PURPOSE, plaintext,
                                     random_bytes=os.urandom).to_dict()
        return payload

    dealer._make_escrow = bad_part  # type: ignore[method-assign]
    net.start()
    _run_until(net, cores, 14)  # the keys, the escrows and two shuffles: the game goes on
    holder = cores[2]
    cheats = [n for n in net.notices[holder.me.public_key] if n.kind == "cheat"]
    assert len(cheats) == 1 and cheats[0].seat == 1 and cheats[0].code == "bad-escrow-part"
    assert cheats[0].text.startswith(f"{holder.name(1)} dealt this seat a bad key escrow part "
                                     "(it cannot be rescued): ")
    assert "the sealed part does not match its commitment" in cheats[0].text
    for core in (cores[0], cores[1], cores[3]):
        assert not [n for n in net.notices[core.me.public_key] if n.kind == "cheat"]
    assert not holder.deck.can_rescue(1) and cores[3].deck.can_rescue(1)
    for core in cores:  # nobody halted: the deal is valid in public
        assert core.halted is None
    assert _kinds(holder)[8:14] == ["escrow"] * 4 + ["shuffle"] * 2
    assert [e.to_dict() for e in holder.record.entries[:14]] == \
        [e.to_dict() for e in dealer.record.entries[:14]]


def test_escrow_commitments_that_do_not_add_up_name_the_dealer() -> None:
    def bad_commitments(dealer: GameCore, payload: dict[str, Any]) -> None:
        payload["commitments"]["0"], payload["commitments"]["2"] = \
            payload["commitments"]["2"], payload["commitments"]["0"]
        payload["commitments"]["3"] = payload["commitments"]["0"]

    tamper, state = _forge_escrow(1, bad_commitments)
    cores, net = make_cores(4, "level8", seed="badsum", options={"rescue": "on"})
    net.bots.clear()
    state["cores"] = cores
    net.tamper = tamper
    net.start()
    net.run()
    for core in (cores[0], cores[2], cores[3]):
        cheats = [n for n in net.notices[core.me.public_key] if n.kind == "cheat"]
        assert cheats and cheats[0].seat == 1
        assert "key escrow" in cheats[0].text and core.name(1) in cheats[0].text
        assert "do not add up to the key share" in cheats[0].text
        assert core.halted is not None and len(core.record) == 9  # the escrow not recorded


def test_the_table_options_rescue_and_patience() -> None:
    values, least, most = registry_rules_check("level8", {"rescue": "on", "patience": "60"})
    assert values["rescue"] == "on" and values["patience"] == 60 and (least, most) == (3, 6)
    assert registry_rules_check("level8", {})[0].get("rescue") is None  # not given: absent
    with pytest.raises(RulesError, match="option rescue must be on or off, not 'yes'"):
        registry_rules_check("level8", {"rescue": "yes"})
    with pytest.raises(RulesError, match="option patience must be 10 to 3600 seconds"):
        registry_rules_check("level8", {"patience": 5})
    with pytest.raises(LocalProtocolError):  # rescue needs a table of 3 or more
        start_local(identities(2), "level8", {"rescue": "on"})
    cores, _ = make_cores(3, "level8", seed="off", options={"rescue": "off"})
    assert not cores[0].rescue and cores[0].escrow_due() is None


def test_a_removal_is_refused_while_the_player_is_connected_and_answering() -> None:
    """Ruling D-5, the rule each peer applies before it may vote "remove NAME?"."""
    from lancards.p2p.net.node import PeerNode
    from lancards.p2p.net.transport import Mesh
    from tests.p2p.test_node import CONFIG

    cores, net = make_cores(3, "level8", seed="refuse", options={"rescue": "on",
                                                                   "patience": 60})
    net.bots.clear()
    net.start()
    me = cores[2]
    _run_until(net, [me], 7)  # the keys and seat 0's escrow: the table waits for seat 1
    node = PeerNode(me, Mesh(me.me, CONFIG))
    node.connected = {c.me.public_key for c in cores if c is not me}
    assert me.expected() == (1, "escrow")
    node._progress_at -= 10  # seat 1 silent 10 s
    assert node.removal_refusal(0) == f"the table is not waiting for {cores[0].me.nick}"
    assert node.removal_refusal(2) == f"{me.me.nick} is not another player at the table"
    assert node.removal_refusal(1) == (
        f"{cores[1].me.nick}'s key share is not escrowed among the others")
    _run_until(net, [me], 9)  # every escrow in: the table waits for seat 0's shuffle
    assert me.expected() == (0, "shuffle")
    awaited = 0
    other = cores[awaited]
    node._progress_at = node._clock()
    assert node.removal_refusal(awaited) == f"the table is not waiting for {other.me.nick}"
    node._progress_at -= 30  # connected, silent 30 s: answering still
    assert node.removal_refusal(awaited) == (
        f"{other.me.nick} is connected and answering: silent 30 s")
    node._progress_at -= 31  # connected, silent beyond the patience: still never (D-5); it
    assert node.removal_refusal(awaited) == (  # may itself wait for a vanished player
        f"{other.me.nick} is connected and answering: silent 61 s")
    node.connected.discard(other.me.public_key)  # the link dropped 10 s ago
    node._progress_at = node._clock() - 100
    node.down_since[other.me.public_key] = node._clock() - 10
    assert node.removal_refusal(awaited) == (
        f"{other.me.nick} is unreachable: silent 10 s of the table's patience 60 s")
    node.down_since[other.me.public_key] -= 60
    assert node.removal_refusal(awaited) is None
    plain, _ = make_cores(3, "level8", seed="refuse")
    assert PeerNode(plain[2], Mesh(plain[2].me, CONFIG)).removal_refusal(0) == (
        "the table has no rescue (its option rescue is off): it can only wait")
