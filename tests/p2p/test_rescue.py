"""Removing a seat that vanished (ruling D-5; p2p/protocol/rescue.py): the signed votes, the rescue
entries, the game going on; every attack on the vote and the rescue refused, the cheater named.

In-process peers (``core_harness``), ``level8`` with the option ``rescue`` on: a vanished seat
is cut off the network (every message from it dropped, nothing delivered to it)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.net.node import my_turn
from lancards.p2p.net.record_file import write_record
from lancards.p2p.protocol.audit import audit_lines
from lancards.p2p.protocol.core import GameCore, Notice, Send
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.record import sign_entry
from lancards.p2p.protocol.void import VOIDED
from lancards.p2p.protocol.votes import sign_vote
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import Network, make_cores
from tests.p2p.test_leave import _slots_touched


def _table(seed: str) -> tuple[list[GameCore], Network]:
    cores, net = make_cores(4, "level8", seed=seed, options={"rescue": "on", "patience": 10})
    cut: set[bytes] = set()
    net.tamper = lambda sender, to, data: None if sender in cut or to in cut else data
    net.cut = cut  # type: ignore[attr-defined]
    return cores, net


def _vanish(net: Network, core: GameCore) -> None:
    """``core``'s program is gone: nothing from it or to it any more."""
    net.cut.add(core.me.public_key)  # type: ignore[attr-defined]
    net.cores.pop(core.me.public_key)


def _stall_at(net: Network, cores: list[GameCore], length: int, vanished: GameCore) -> None:
    """Play until every core holds ``length`` entries, cut ``vanished`` off, and play on until
    the others wait for it."""
    for core in cores:
        net.play_bot(core.me.public_key)
    while net.queue and min(len(c.record) for c in cores) < length:
        net.step()
    _vanish(net, vanished)
    net.run()
    waits = {w.seat for c in cores if c is not vanished for w in c.waiting_for()}
    assert vanished.seat in waits, waits  # (a holder waiting for its shares sees it alone)


def _vote_out(net: Network, voters: list[GameCore], seat: int) -> None:
    for voter in voters:
        net.post(voter.me.public_key, voter.vote_remove(seat))


def _hidden_hands(core: GameCore, removals: dict[int, int]) -> dict[int, set[int]]:
    """The hidden slots of each removed seat's hand just before its removal's first entry
    (``removals``: entry number -> seat), replaying ``core``'s record as an observer once."""
    observer, hands = GameCore.observer(core.table), {}
    for entry in core.record.entries[:max(removals) + 1]:
        if entry.seq in removals:
            seat = removals[entry.seq]
            hands[seat] = {s for s in observer.state.hands[seat]
                           if observer.deck.ciphertext(s) is not None}
        observer.record.append(entry, observer.validator("test"))
    return hands


def _kinds(core: GameCore) -> list[str]:
    return [e.payload["t"] for e in core.record.entries]


@pytest.mark.timeout(120)
def test_two_vanished_players_are_voted_out_and_the_game_finishes(tmp_path, capsys) -> None:
    cores, net = _table("vanish")
    net.start()
    first, second = cores[2], cores[0]
    _stall_at(net, cores, 30, first)
    voters = [cores[0], cores[1], cores[3]]
    at = len(voters[0].record)
    _vote_out(net, voters[:2], first.seat)
    net.run()
    assert len(voters[0].record) == at  # two of three signed: nothing happens
    assert voters[0].votes_for(first.seat) == (0, 1)
    _vote_out(net, voters[2:], first.seat)
    # the removal, then the escrow dealt again among three; then play goes on to a second stall
    _stall_at(net, voters, at + 6, second)
    record = voters[0].record
    assert _kinds(voters[0])[at:at + 6] == ["rescue"] * 3 + ["escrow"] * 3
    rescues = [e.payload for e in record.entries[at:at + 3]]
    assert [voters[0].seat_of(e.author) for e in record.entries[at:at + 3]] == [0, 1, 3]
    assert [p["seat"] for p in rescues] == [2, 2, 2]
    assert [[v["by"] for v in p["votes"]] for p in rescues] == [
        [c.me.public_key.hex() for c in voters], [], []]
    assert {(v["at"], v["head"]) for v in rescues[0]["votes"]} == {
        (at, record.entries[at - 1].hash)}
    for core in voters:
        assert core.left_seats() == (2,) and core.deck.present == (0, 1, 3)
        assert all(core.deck.can_rescue(s) for s in (0, 1, 3))
        words = [n.text for n in net.notices[core.me.public_key] if n.kind == "info"]
        assert f"{core.name(2)} was removed from the table (every remaining player signed; " \
               "its hand stays closed)" in words
    # the second vanishing: the two others vote it out too, and finish the game
    at2 = len(cores[1].record)
    _vote_out(net, [cores[1], cores[3]], second.seat)
    last = [cores[1], cores[3]]
    while len(last[0].left_seats()) < 2:
        net.step()
    assert last[0].removal_problem(3) == "a removal needs 2 remaining players or more"
    net.run()
    entries = [e.to_dict() for e in last[0].record.entries]
    assert [e.to_dict() for e in last[1].record.entries] == entries
    assert _kinds(last[0])[at2:at2 + 2] == ["rescue", "rescue"]
    outcome = last[0].game.outcome(last[0].state)
    assert outcome is not None and tuple(outcome.detail["left"]) == (2, 0)
    assert outcome.detail["places"][2] == 4 and outcome.detail["places"][0] == 3
    report = audit_lines(last[0].record.to_lines())
    assert report.status == "ok", report.error
    assert report.outcome == outcome
    # D-1: neither vanished hand is ever opened, from its removal on
    hands = _hidden_hands(last[0], {at: 2, at2: 0})
    for start, seat in ((at, 2), (at2, 0)):
        hidden = hands[seat]
        assert hidden
        for entry in last[0].record.entries[start:]:
            assert not _slots_touched(entry.payload) & hidden, (seat, entry.seq)
        assert all(last[0].deck.card(s) is None for s in hidden)
    # the vanished come back: their entries are refused as not seated, nobody named
    for ghost in (first, second):
        forged = sign_entry(ghost.me, ghost.table_id, len(last[0].record), last[0].record.head,
                            {"t": "action", "a": "x", "open": []}, "00")
        out = last[0].receive(ghost.me.public_key, _entry_envelope(ghost.me, forged.to_dict()))
        assert [(n.kind, "not-seated" in n.text) for n in out if isinstance(n, Notice)] == [
            ("rejected", True)]
    assert last[0].halted is None
    # a removal of one of the last two is refused
    with pytest.raises(LocalProtocolError, match="game is over"):
        last[0].vote_remove(3)
    lines = net.persisted[last[0].me.public_key]
    assert sum(1 for kind, _ in lines if kind == "vote") == 5  # journaled, each once
    # lancards replay's last line says the two were voted out, not that they left (D-5)
    from lancards.cli import i18n
    from lancards.cli.main import main

    path = tmp_path / "voted-out.lancards"
    write_record(last[0].record, path)
    said = {}
    for language in ("en", "de"):
        capsys.readouterr()
        try:
            assert main(["--lang", language, "replay", str(path)]) == 0
        finally:
            i18n.set_language("en")
        said[language] = capsys.readouterr().out.splitlines()[-1]
    assert said == {
        "en": "winner: ann [GR2Q-7GF5-LH6P-ZFDN]; scores: cyd (removed by vote) level 1, ann "
              "WIN, bob (removed by vote) level 1, dee level 5",
        "de": "Sieger: ann [GR2Q-7GF5-LH6P-ZFDN]; Endstand – cyd (per Abstimmung entfernt): "
              "Stufe 1, ann: Sieg, bob (per Abstimmung entfernt): Stufe 1, dee: Stufe 5",
    }  # not "(left the table)"


@pytest.mark.timeout(120)
def test_a_player_voted_out_while_asleep_comes_back_learns_it_and_accuses_nobody() -> None:
    """A laptop whose lid closed (issue 24): seat 2 is cut off, voted out and removed; then it
    comes back (its links up again), catches up from the record, finds itself removed, and
    the game finishes with one record everywhere. Before the fix it checked its own removal
    as a holder of its own key escrow, found no part and halted the table naming the honest
    rescuer (seat 0) a cheater."""
    cores, net = _table("vanish")
    net.start()
    sleeper = cores[2]
    _stall_at(net, cores, 30, sleeper)
    voters = [cores[0], cores[1], cores[3]]
    asleep_at = len(sleeper.record)
    _vote_out(net, voters, sleeper.seat)
    for _ in range(200):  # the removal and a little more, not the whole game
        net.step()
    assert voters[0].was_removed(2) and voters[0].left_seats() == (2,)
    assert len(sleeper.record) == asleep_at and not sleeper.has_left(2)
    key = sleeper.me.public_key
    net.cut.discard(key)  # type: ignore[attr-defined]
    net.cores[key] = sleeper
    seen = {k: len(v) for k, v in net.notices.items()}
    for voter in voters:
        net.post(voter.me.public_key, voter.peer_connected(key))
        net.post(key, sleeper.peer_connected(voter.me.public_key))
    net.run()
    assert [e.to_dict() for e in sleeper.record.entries] == [
        e.to_dict() for e in voters[0].record.entries]
    assert sleeper.halted is None and voters[0].halted is None
    assert sleeper.game.outcome(sleeper.state) == voters[0].game.outcome(voters[0].state)
    assert sleeper.game.outcome(sleeper.state) is not None
    assert sleeper.was_removed(2) and not sleeper.was_removed(0)
    told = [(n.kind, n.text) for k, v in net.notices.items() for n in v[seen[k]:]
            if n.kind in ("cheat", "rejected")]
    assert told == []
    assert [n.text for n in net.notices[key][seen[key]:] if n.kind == "info"] == [
        f"{sleeper.name(2)} was removed from the table (every remaining player signed; its "
        "hand stays closed)"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("held", [True, False])
def test_a_seat_asleep_at_its_own_turn_holds_its_move_until_synced(held: bool) -> None:
    """The lid closes at this seat's own turn (issue 24): the others vote it out at that very
    position. Woken, it holds its entries until every other seat answered its record.sync
    (``hold_until_synced``, what :class:`PeerNode` does after a clock jump): its bot makes no
    move, it learns of its removal, and every record ends the same. Without the hold (the
    control) its bot moves at once, an entry of its own nobody takes, which the removal voids
    (``p2p.protocol.void``): the records end the same either way."""
    cores, net = _table("lid")
    sleeper, key = cores[2], cores[2].me.public_key
    choose = net.bots.pop(sleeper)  # the person at seat 2 thinks over the move...
    net.start()
    net.run()
    at = len(sleeper.record)
    assert sleeper.to_act() == 2 and sleeper.legal_actions()
    assert [len(c.record) for c in cores] == [at] * 4
    _vanish(net, sleeper)  # ...and closes the lid
    voters = [cores[0], cores[1], cores[3]]
    _vote_out(net, voters, sleeper.seat)
    for _ in range(300):
        net.step()
    assert voters[0].was_removed(2) and _kinds(voters[0])[at:at + 3] == ["rescue"] * 3
    net.cut.discard(key)  # type: ignore[attr-defined]
    net.cores[key], net.bots[sleeper] = sleeper, choose
    seen = {k: len(v) for k, v in net.notices.items()}
    if held:
        net.post(key, sleeper.hold_until_synced())
        assert sleeper.syncing and my_turn(sleeper) == []
        with pytest.raises(LocalProtocolError, match="catching up with the table"):
            sleeper.submit(sleeper.legal_actions()[0])
    net.play_bot(key)  # woken: the seat's bot (or the person) moves as soon as it may
    for voter in voters:
        net.post(voter.me.public_key, voter.peer_connected(key))
        net.post(key, sleeper.peer_connected(voter.me.public_key))
    net.run()
    mine = [e.to_dict() for e in sleeper.record.entries]
    theirs = [e.to_dict() for e in voters[0].record.entries]
    assert [e.to_dict() for e in voters[2].record.entries] == theirs
    assert voters[0].game.outcome(voters[0].state) is not None
    if held:
        assert mine == theirs and not sleeper.syncing
        assert sleeper.was_removed(2) and sleeper.game.outcome(sleeper.state) is not None
        assert not [e for e in sleeper.record.entries[at:] if e.author == key]
    else:
        # Its bot moved at once: entry `at` of its own, which no other peer takes. The removal
        # the others made there voids it (p2p.protocol.void): the record is theirs again, the
        # journal says so, and a restore from that journal gives the same record.
        assert mine == theirs and sleeper.was_removed(2)
        lines = net.persisted[key]
        kinds = [k for k, _ in lines]
        assert kinds.count("void") == 1 and lines[kinds.index("void")][1] == {"from": at}
        voided = lines[kinds.index("void") - 1][1]
        assert voided["seq"] == at and voided["author"] == key.hex()
        told = [n.text for n in net.notices[key][seen[key]:] if n.kind == "info"]
        assert told[0] == VOIDED
        again = GameCore(sleeper.me, sleeper.table, SeededRandomBytes("restored"),
                         secret_key=int(next(li["x"] for k, li in lines if k == "secret"), 16))
        again.restore(list(lines))
        assert [e.to_dict() for e in again.record.entries] == theirs
        assert again.was_removed(2) and again.halted is None
    assert sleeper.halted is None and voters[0].halted is None
    assert [n for k, v in net.notices.items() for n in v[seen[k]:] if n.kind == "cheat"] == []


def _entry_envelope(me: Identity, entry: dict[str, Any], seq: int = 2 * 10**7) -> bytes:
    return sign_envelope(me, "record.entry", "0123456789abcdef", seq, {"entry": entry}).encode()


def _stalled(seed: str, length: int = 13
             ) -> tuple[list[GameCore], Network, GameCore, list[GameCore]]:
    """A table stalled on seat 2: at its first shuffle (cheap; no card hidden yet), or with
    bots after ``length`` entries."""
    cores, net = _table(seed)
    if length == 13:
        net.bots.clear()
    net.start()
    _stall_at(net, cores, length, cores[2])
    return cores, net, cores[2], [cores[0], cores[1], cores[3]]


def test_votes_a_peer_refuses() -> None:
    _cores, net, gone, voters = _stalled("votes")
    me = voters[0]
    head, at = me.record.head, len(me.record)

    count = iter(range(10**6, 10**7))

    def deliver(signer: Identity, vote: dict[str, Any], via: GameCore | None = None) -> list[Any]:
        via = via or voters[1]
        data = sign_envelope(via.me, "record.vote", me.table_id, next(count),
                             {"vote": vote}).encode()
        return [(n.kind, n.text) for n in me.receive(via.me.public_key, data)
                if isinstance(n, Notice) and n.kind != "info"]

    malformed = dict(sign_vote(voters[1].me, me.table_id, 2, at, head), seat="2")
    got = deliver(voters[1].me, malformed)
    assert got == [("rejected", f"rejected message from {voters[1].name(1)} (seat 2): "
                                "malformed: 'record.vote' body field 'vote'.seat is str, not "
                                "int")]
    outsider = Identity(b"\x77" * 32, "zed")
    got = deliver(outsider, sign_vote(outsider, me.table_id, 2, at, head))
    assert got == [("rejected", f"rejected message from {voters[1].name(1)} (seat 2): "
                                "not-seated: a removal vote signed by a peer not at the table")]
    got = deliver(gone.me, sign_vote(gone.me, me.table_id, 2, at, head), via=gone)
    assert got == [("rejected", f"rejected message from {me.name(2)} (seat 3): "
                                f"illegal: {me.name(2)} voted to remove themselves")]
    forged = sign_vote(voters[1].me, me.table_id, 2, at, head)
    forged["sig"] = sign_vote(voters[2].me, me.table_id, 2, at, head)["sig"]
    got = deliver(voters[1].me, forged)
    assert got[0][0] == "rejected" and "bad-signature" in got[0][1]
    assert me.votes_for(2) == ()
    # a vote about another head is valid but useless here; a repeated vote counts once
    assert deliver(voters[1].me, sign_vote(voters[1].me, me.table_id, 2, at, "ab" * 32)) == []
    assert me.votes_for(2) == ()
    for _ in range(2):
        assert deliver(voters[1].me, sign_vote(voters[1].me, me.table_id, 2, at, head)) == []
    assert me.votes_for(2) == (1,)
    # refusals of the record: no rescue for this seat itself, a seat that is not there
    with pytest.raises(LocalProtocolError, match="only another player"):
        me.vote_remove(me.seat)
    with pytest.raises(LocalProtocolError, match="seat 8 is not at the table"):
        me.vote_remove(7)
    # the vanished comes back mid-vote: a voter refuses its entry here, nobody is named
    net.post(me.me.public_key, me.vote_remove(2))
    # a link that comes up gets the votes held about this position again (seat 0's, seat 1's)
    sent = [o.data for o in me.peer_connected(voters[2].me.public_key) if isinstance(o, Send)]
    assert sorted(json.loads(d)["body"]["vote"]["by"] for d in sent
                  if b'"record.vote"' in d) == sorted(c.me.public_key.hex() for c in voters[:2])
    # at most 4 votes kept per signer (a hostile signer cannot fill the memory or the journal)
    for ahead in range(1, 7):
        deliver(voters[1].me, sign_vote(voters[1].me, me.table_id, 2, at + ahead, head))
    assert sorted(k[1] - at for k, got in me._votes.items() if 1 in got) == [0, 1, 2, 3]
    late = sign_entry(gone.me, me.table_id, at, head, {"t": "action", "a": "x", "open": []},
                      "00")
    out = me.receive(gone.me.public_key, _entry_envelope(gone.me, late.to_dict()))
    assert [(n.kind, n.text) for n in out if isinstance(n, Notice)] == [
        ("rejected", f"rejected message from {me.name(2)} (seat 3, entry {at + 1}): "
                     f"not-seated: seat 3 is being voted out at entry {at + 1}")]
    assert me.halted is None and not me.cheaters
    # restarted from its journal (kill -9 after its vote), it still holds its vote and refuses
    lines = net.persisted[me.me.public_key]
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    again = GameCore(me.me, me.table, SeededRandomBytes("again"), secret_key=secret)
    again.restore(list(lines))
    assert again.votes_for(2) == (0,) and len(again.record) == at  # (the test kept no other)
    out = again.receive(gone.me.public_key, _entry_envelope(gone.me, late.to_dict()))
    assert [n.kind for n in out if isinstance(n, Notice)] == ["rejected"]
    # the same entry at a peer that did not vote names it (a move that is not its turn)
    out = voters[2].receive(gone.me.public_key, _entry_envelope(gone.me, late.to_dict()))
    assert [n.kind for n in out if isinstance(n, Notice)][:1] == ["cheat"]
    # a voter's other entry at the position is refused by a peer bound by its own vote, but
    # names nobody: the voter may have been released by a withdrawal not seen here (issue 23)
    broken = sign_entry(voters[1].me, me.table_id, at, head, {"t": "shuffle", "msg": {}}, "00")
    out = me.receive(voters[1].me.public_key, _entry_envelope(voters[1].me, broken.to_dict()))
    assert [(n.kind, n.seat, n.text) for n in out if isinstance(n, Notice)] == [
        ("rejected", None, f"rejected message from {me.name(1)} (seat 2, entry {at + 1}): "
                           f"bound-by-vote: this seat voted to remove seat 3 at entry {at + 1} "
                           "(round 0): it takes only the removal there until the round is void")]
    assert me.halted is None and not me.cheaters


def _resign(author: GameCore, payload: dict[str, Any]) -> bytes:
    """``payload`` signed by ``author`` as its next entry, in a ``record.entry`` envelope."""
    signed = sign_entry(author.me, author.table_id, len(author.record), author.record.head,
                        payload, author.state_hash())
    return _entry_envelope(author.me, signed.to_dict(), next(_ENVELOPES))


_ENVELOPES = iter(range(3 * 10**7, 4 * 10**7))


@pytest.mark.timeout(120)
def test_a_bad_rescue_entry_names_its_author() -> None:
    cores, _net, _gone, voters = _stalled("bad", 30)
    for voter in voters:  # every vote, kept by every voter (the test delivers no vote)
        voter.vote_remove(2)
    for voter in voters:
        for other in voters:
            voter._votes[(2, len(voter.record), voter.record.head, 0)].update(
                other._votes[(2, len(other.record), other.record.head, 0)])
    judge = cores[3]
    at = len(judge.record)
    honest = json.loads(json.dumps(cores[0]._make_rescue()))  # seat 0's, as it would send it
    assert len(honest["votes"]) == 3 and len(honest["msg"]["shares"]) > 20
    by_seat_1 = json.loads(json.dumps(cores[1]._make_rescue()))  # seat 1 may not begin

    def variant(edit: Any) -> dict[str, Any]:
        payload = json.loads(json.dumps(honest))
        edit(payload)
        return payload

    def other_head(p: dict[str, Any]) -> None:
        p["votes"][1] = sign_vote(voters[1].me, judge.table_id, 2, at, "cd" * 32)

    def swap_shares(p: dict[str, Any]) -> None:
        shares = p["msg"]["shares"]
        shares[0]["share"], shares[1]["share"] = shares[1]["share"], shares[0]["share"]

    slot = honest["msg"]["shares"][0]["slot"]
    cases = [
        (0, variant(other_head), "seat 1 began removing seat 3 with a vote about table "
         f"0123456789abcdef, seat 3, entry {at + 1} (cdcdcdcdcdcd...)"),  # from 1
        (0, variant(lambda p: p["votes"].pop()), "with votes of seats [1, 2], not of every "
         "remaining seat [1, 2, 4]"),
        (0, variant(lambda p: p["votes"].__setitem__(2, p["votes"][1])),
         "with votes of seats [1, 2, 2], not of every"),
        (0, variant(lambda p: p.__setitem__("seat", 0)), "seat 1 began removing seat 1: it "
         "voted for itself"),
        (1, by_seat_1, "seat 2 began removing seat 3; only seat 1 may"),
        (0, variant(swap_shares), f"decryption share proof by seat 0 in epoch 1 rejected: the "
         f"shares for slots {slot}, "),
    ]
    for author, payload, words in cases:
        out = judge.receive(cores[author].me.public_key, _resign(cores[author], payload))
        cheats = [n for n in out if isinstance(n, Notice) and n.kind == "cheat"]
        assert len(cheats) == 1 and cheats[0].seat == author, out
        assert "illegal" in cheats[0].text and words in cheats[0].text, cheats[0].text
        # refused and not recorded: the judge's state is as before (the halt aside)
        assert len(judge.record) == at and judge.removing is None and 2 in judge.deck.present
        assert judge.deck.rescued_by(2) == ()
        judge._halted = None
        judge.cheaters.clear()
    # the honest one is accepted
    judge.receive(cores[0].me.public_key, _resign(cores[0], honest))
    assert judge.halted is None and judge.removing == 2 and judge.deck.rescued_by(2) == (0,)
    assert judge.expected() == (1, "rescue")


def test_a_removal_vote_against_a_connected_peer_is_refused() -> None:
    from lancards.p2p.net.node import PeerNode
    from lancards.p2p.net.transport import Mesh
    from tests.p2p.test_node import CONFIG

    cores, _net, gone, voters = _stalled("connected")
    me = voters[0]
    node = PeerNode(me, Mesh(me.me, CONFIG))
    node.connected = {c.me.public_key for c in cores if c is not me}
    node._progress_at = node._clock() - 9
    with pytest.raises(LocalProtocolError, match=f"{gone.me.nick} is connected and answering: "
                       "silent 9 s"):
        node.vote_remove(2)
    assert me.votes_for(2) == () and node.removal_offer() is None
    node._progress_at -= 200  # silent far beyond the patience, but its link is up: never
    assert node.removal_refusal(2) == f"{gone.me.nick} is connected and answering: silent 209 s"
    assert node.removal_offer() is None
    node.connected.discard(gone.me.public_key)  # the link dropped 9 s ago: the patience
    node.down_since[gone.me.public_key] = node._clock() - 9
    node._progress_at = node._clock() - 9
    assert node.removal_refusal(2) == (
        f"{gone.me.nick} is unreachable: silent 9 s of the table's patience 10 s")
    node.down_since[gone.me.public_key] -= 2
    node._progress_at -= 2
    assert node.removal_offer() == 2  # the screen asks "remove cyd? (y/n)"
    node.vote_remove(2)
    assert me.votes_for(2) == (0,) and node.removal_offer() is None
    # seat 3 does not see the table wait for seat 2 (say the table waits for seat 2's private
    # shares to seat 0, which only seat 0 sees): it may sign once another player voted and
    # seat 2's link is down for the patience
    other = PeerNode(voters[2], Mesh(voters[2].me, CONFIG))
    other.connected = {c.me.public_key for c in cores if c is not voters[2]}
    other.waiting = lambda: None  # type: ignore[method-assign]
    assert other.removal_refusal(2) == f"the table is not waiting for {gone.me.nick}"
    other.connected.discard(gone.me.public_key)
    other.down_since[gone.me.public_key] = other._clock() - 11
    assert other.removal_refusal(2) == f"the table is not waiting for {gone.me.nick}"
    voters[2]._votes[(2, len(me.record), me.record.head, 0)] = {
        0: me._votes[(2, len(me.record), me.record.head, 0)][0]}
    assert other.removal_refusal(2) is None
    # without rescue, beyond the patience, the screen says the table can only wait
    plain, _ = make_cores(3, "level8", seed="plain")
    node = PeerNode(plain[2], Mesh(plain[2].me, CONFIG))  # the table waits for seat 0's key
    node.down_since[plain[0].me.public_key] = node._progress_at = node._clock() - 100
    assert node.waiting_text() == f"waiting for {plain[0].me.nick} (the joint key), 100 s"
    node.down_since[plain[0].me.public_key] = node._progress_at = node._clock() - 130
    assert node.waiting_text() == (
        f"waiting for {plain[0].me.nick}, 130 s; the table can only wait")
    assert node.removal_offer() is None
    assert other.removal_offer() == 2


def test_a_removal_during_the_first_shuffle_carries_no_share_and_the_shuffle_begins_again(
        tmp_path: Any, capsys: Any) -> None:
    """Seat 2 vanished at its turn to shuffle the first deck (nothing hidden yet): the rescue
    entries carry no share; the epoch begins again among the three, under their joint key."""
    _cores, net, _gone, voters = _stalled("first")
    at = len(voters[0].record)
    _vote_out(net, voters, 2)
    net.run()
    kinds = _kinds(voters[0])
    assert kinds[at:at + 6] == ["rescue"] * 3 + ["escrow"] * 3
    assert kinds[at + 6:at + 9] == ["shuffle"] * 3
    assert [voters[0].seat_of(e.author) for e in voters[0].record.entries[at + 6:at + 9]] == \
        [0, 1, 3]
    # the progress counts the three who shuffle (the persona suite saw "0 of 4" at three)
    assert [c.progress for c in voters] == ["shuffle 3 of 3, verified"] * 2 + [
        "shuffle 2 of 3, verified"]  # (seat 3 does not check its own shuffle)
    assert [e.payload["msg"]["shares"] for e in voters[0].record.entries[at:at + 3]] == \
        [[], [], []]
    entries = [e.to_dict() for e in voters[0].record.entries]
    for core in voters:
        assert [e.to_dict() for e in core.record.entries] == entries
        assert core.deck.present == (0, 1, 3) and core.halted is None
    report = audit_lines(voters[0].record.to_lines())
    assert report.status == "unfinished", report.error
    # a peer restarted from its journal is where it was (its votes, escrow, rescue included)
    lines = net.persisted[voters[1].me.public_key]
    assert sorted(line["vote"]["by"] for kind, line in lines if kind == "vote") == sorted(
        v.me.public_key.hex() for v in voters)
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    again = GameCore(voters[1].me, voters[1].table, SeededRandomBytes("again"),
                     secret_key=secret)
    again.restore(list(lines))
    assert [e.to_dict() for e in again.record.entries] == entries
    assert again.state_hash() == voters[1].state_hash()
    # lancards audit and replay of the record file tell the removal
    from lancards.cli.main import main
    path = tmp_path / "removed.lancards"
    write_record(voters[0].record, path)
    capsys.readouterr()
    assert main(["audit", str(path)]) == 3  # verified, the game unfinished
    said = capsys.readouterr().out
    assert not any(e["payload"]["t"] == "action" for e in entries)  # removed at the shuffle
    assert said == ("UNFINISHED: Level 8, verified, no move played; the game stopped "
                    "before its end\n")
    assert main(["replay", str(path)]) == 0
    told = capsys.readouterr().out
    assert "      cyd, ann, dee signed the removal of bob, who vanished\n" in told
    assert "             cyd publishes its rescue shares for bob\n" in told
    from lancards.cli.record_tools import rescue_line  # the verb agrees with "You"

    assert rescue_line("You", "bob") == "             You publish your rescue shares for bob"
    assert "      bob is removed from the table (the hand goes out of play unopened)\n" in told


def test_a_journal_whose_void_line_names_no_entry_it_holds_says_it_counting_from_1() -> None:
    """The void line's ``from`` is a record position (0-based); the refusal said it as such
    (``names entry 0 of 4``) where every other line counts entries from 1."""
    from lancards.p2p.protocol.errors import PeerError

    cores, net = make_cores(2, "level8", seed="void-line")
    net.start()
    net.run(limit=4)
    core = cores[0]
    lines = list(net.persisted[core.me.public_key])
    entries = sum(1 for kind, _ in lines if kind == "entry")
    secret = int(next(line["x"] for kind, line in lines if kind == "secret"), 16)
    for void in (0, entries + 1):
        again = GameCore(core.me, core.table, SeededRandomBytes("again"), secret_key=secret)
        with pytest.raises(PeerError) as caught:
            again.restore([*lines, ("void", {"from": void})])
        assert str(caught.value) == f"the journal's void line names entry {void + 1}, not one " \
            f"of entries 2 to {entries + 1}"
