"""A seat that was removed (ruling D-5) and stays to watch has no say in later removals: it signs
no vote and no "no", and the others drop quietly any vote or withdrawal it signed.

The LAN trial (8s Rule!, rescue on): after bob was voted out his client stayed to watch; eve
then voted to remove the connected cyd, bob's client answered with a signed "no", and every
honest screen showed ``! rejected message from bob ... not-seated: a removal withdrawal signed
by a peer not at the table``, three more lines at every later vote: an attacker could fill the
honest screens with lines blaming an honest player who had only been removed."""

from __future__ import annotations

import pytest

from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.removal import RemovalPolicy
from lancards.p2p.protocol.votes import sign_vote, sign_withdrawal
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import Network
from tests.p2p.test_rescue import _stalled, _vote_out


def _removed_and_watching() -> tuple[Network, GameCore, list[GameCore]]:
    """Seat 2 vanishes at the first shuffle, is voted out, then comes back and catches up."""
    _cores, net, gone, voters = _stalled("watcher")
    _vote_out(net, voters, gone.seat)
    net.run()
    assert voters[0].was_removed(2) and voters[0].deck.present == (0, 1, 3)
    key = gone.me.public_key
    net.cut.discard(key)  # type: ignore[attr-defined]
    net.cores[key] = gone
    for voter in voters:
        net.post(voter.me.public_key, voter.peer_connected(key))
        net.post(key, gone.peer_connected(voter.me.public_key))
    net.run()
    assert gone.was_removed(2) and gone.record.head == voters[0].record.head
    return net, gone, voters


@pytest.mark.timeout(60)
def test_a_removed_seat_that_watches_says_nothing_about_a_later_vote() -> None:
    net, gone, voters = _removed_and_watching()
    seen = {k: len(v) for k, v in net.notices.items()}
    attacker = voters[2]  # seat 3 votes to remove seat 1, who is connected to everyone
    net.post(attacker.me.public_key, attacker.vote_remove(1))
    sent_by_gone: list[str] = []
    tamper = net.tamper
    assert tamper is not None

    def watch(sender: bytes, to: bytes, data: bytes) -> bytes | None:
        if sender == gone.me.public_key:
            sent_by_gone.append(data.decode())
        return tamper(sender, to, data)

    net.tamper = watch
    net.run()
    assert [d for d in sent_by_gone if "record.vote" in d or "record.unvote" in d] == []
    assert gone.votes_for(1) == ()  # it keeps no vote of the others (nothing to answer)
    assert RemovalPolicy(10.0).withdrawals(gone, lambda seat: True, 0.0) == []
    assert not gone.has_say and gone.bound() is None
    assert voters[0].votes_for(1) == (3,)  # the vote itself stands, as before
    with pytest.raises(LocalProtocolError, match="only another player can be voted out"):
        gone.vote_remove(1)
    with pytest.raises(LocalProtocolError, match="only another player's removal can be refused"):
        gone.withdraw_vote(1)
    told = [(n.kind, n.seat, n.text) for k, v in net.notices.items() for n in v[seen[k]:]
            if n.kind in ("cheat", "rejected")]
    assert told == []


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["record.vote", "record.unvote"])
def test_a_vote_or_no_signed_by_a_removed_seat_is_dropped_naming_nobody(kind: str) -> None:
    """Its old client, or anyone relaying its signature, sends one anyway: no line blames it."""
    _net, gone, voters = _removed_and_watching()
    target = voters[0]
    at, head = len(target.record), target.record.head
    signed = (sign_vote(gone.me, gone.table_id, 1, at, head) if kind == "record.vote"
              else sign_withdrawal(gone.me, gone.table_id, 1, at, head, 0))
    field = "vote" if kind == "record.vote" else "unvote"
    for relay in (gone, voters[2]):  # from its own link, and relayed by a seated peer
        data = sign_envelope(relay.me, kind, gone.table_id, 10**6, {field: signed}).encode()
        outputs = target.receive(relay.me.public_key, data)
        assert [o for o in outputs if getattr(o, "kind", None) in ("rejected", "cheat")] == []
        assert outputs == []
    assert target.votes_for(1) == () and target.halted is None
