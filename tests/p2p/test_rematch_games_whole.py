"""The games night through the protocol core: three players play Level 8 Master to its end,
agree over the real envelope codec on 8s Rule! next (an attacker's wrong answers refused and
named on the way), and play that game of another rule set to its end on the started table the
agreement signed (``docs/protocol.md`` 6.1, "Another game")."""

from __future__ import annotations

from lancards.p2p.crypto.group import SeededRandomBytes
from lancards.p2p.protocol.core import GameCore
from lancards.p2p.protocol.errors import Reason
from lancards.p2p.protocol.rematch import Finished, Rematch
from lancards.p2p.protocol.series import sign_answer
from lancards.p2p.protocol.statement import verify_started
from lancards.p2p.protocol.table import Outgoing
from tests.p2p.core_harness import Network, make_cores
from tests.p2p.test_rematch import Bus


def _finished(core: GameCore) -> Finished:
    outcome = core.game.outcome(core.state)
    assert outcome is not None and core.halted is None
    return Finished(core.table, core.record.head, tuple(outcome.winners),
                    tuple(outcome.scores), core.first_dealer,
                    tuple(m.public_key for m in core.players))


def _clean(net: Network) -> None:
    for key, notices in net.notices.items():
        assert [x for x in notices if x.kind in ("cheat", "rejected")] == [], key


def test_level8_master_to_its_end_then_8s_rule_to_its_end_with_a_wrong_answer_named() -> None:
    cores, net = make_cores(3, "level8-master", seed="night-1")
    net.start()
    net.run()
    _clean(net)
    done = [_finished(c) for c in cores]
    assert len({d.head for d in done}) == 1  # one record on every seat
    ids = iter(["00000000000000d1"])
    ann, bob, cyd = (Rematch(c.me, d, seq=c.next_envelope_seq, new_table=lambda: next(ids))
                     for c, d in zip(cores, done, strict=True))
    bus = Bus([ann, bob, cyd])
    table = done[0].table.spec.table
    # cyd first sends a game nobody can play here, then an answer it signed as bob's (an
    # answer passed on is taken only with its own player's signature: 6.1, "Answers")
    forged = dict(sign_answer(cyd.me, table, done[0].head, True, (), "eights"))
    forged["by"] = bob.me.public_key.hex()
    for wrong in (sign_answer(cyd.me, table, done[0].head, True, (), "poker"), forged):
        bus.post(cyd.me.public_key, [Outgoing((ann.me.public_key,), cyd._out(
            (), "rematch.answer", {"answer": wrong}).envelope)])
    bus.run()
    cyd_name = ann.name(cyd.me.public_key)
    unknown, relayed = bus.refused[ann.me.public_key]
    assert (unknown.reason, unknown.sender, unknown.code) == (
        Reason.TABLE_RULES, cyd_name, "answer-unknown-game")
    assert str(unknown).endswith(
        f"the answer of {cyd_name} chose a game this program does not know: poker")
    assert (relayed.reason, relayed.sender) == (Reason.BAD_SIGNATURE, cyd_name)
    assert ann.answers == {}
    for r in (ann, bob, cyd):
        bus.post(r.me.public_key, r.answer(True, "eights"))
    bus.run()
    assert [len(v) for v in bus.refused.values()] == [2, 0, 0]
    nxt = ann.started
    assert nxt is not None and bob.started == nxt and cyd.started == nxt
    assert (nxt.spec.table, nxt.spec.game, nxt.statement["follows"]["game"]) == (
        "00000000000000d1", "eights", 1)
    assert [m.public_key for m in nxt.seats] == [m.public_key for m in cores[0].players]
    assert verify_started(nxt.statement, nxt.sigs, "audit").statement == nxt.statement
    # the next game, of another rule set, to its end on the signed table
    second = [GameCore(c.me, nxt, SeededRandomBytes(f"night-2-{i}"),
                       envelope_seq=r.seq)
              for i, (c, r) in enumerate(zip(cores, (ann, bob, cyd), strict=True))]
    net2 = Network(second)
    net2.start()
    net2.run()
    _clean(net2)
    outcomes = [c.game.outcome(c.state) for c in second]
    assert outcomes[0] is not None and all(o == outcomes[0] for o in outcomes)
    assert second[0].game.name == "eights" and outcomes[0].detail["rounds"] >= 1
    assert len({c.record.head for c in second}) == 1
