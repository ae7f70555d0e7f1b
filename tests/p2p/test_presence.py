"""A person paused, a person is back (issue 25, item 9): the ``presence`` message through the
real codec, what the others are told, and what a hostile seat can and cannot do with it."""

from __future__ import annotations

from typing import Any

from lancards.p2p.net.waiting import Waiting, waiting_text
from lancards.p2p.protocol.core import GameCore, Notice
from lancards.p2p.protocol.presence import PRESENCE_TOLD
from lancards.p2p.protocol.wire import sign_envelope
from tests.p2p.core_harness import make_cores

LIMIT = 150
"""Messages delivered before a test's pause: the table is started, the game under way."""


def envelope(core: GameCore, type_: str, body: dict[str, Any]) -> bytes:
    seq, core._env_seq = core._env_seq, core._env_seq + 1
    return sign_envelope(core.me, type_, core.table_id, seq, body).encode()


def told(notices: list[Notice]) -> list[tuple[str, str, int | None]]:
    return [(n.kind, n.text, n.seat) for n in notices if n.kind in ("presence", "rejected")]


def test_a_pause_is_told_to_every_other_seat_and_a_link_up_ends_it() -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    ann, bob, cyd = cores
    sent = ann.pause()
    assert [s.to for s in sent] == [None]  # one broadcast
    for out in sent:
        net.post(ann.me.public_key, [out])
    net.run(limit=net.delivered + 50)
    for other in (bob, cyd):
        assert told(net.notices[other.me.public_key]) == [("presence", "paused", 0)]
        assert other.paused == {0}
    assert ann.paused == set()
    before = len(net.notices[bob.me.public_key])
    net.post(bob.me.public_key, bob.peer_connected(ann.me.public_key))  # ann resumed
    assert told(net.notices[bob.me.public_key][before:]) == [("presence", "back", 0)]
    assert bob.paused == set() and cyd.paused == {0}
    again = len(net.notices[bob.me.public_key])
    net.post(bob.me.public_key, bob.peer_connected(ann.me.public_key))  # a second link up
    assert told(net.notices[bob.me.public_key][again:]) == []


def test_the_waiting_line_says_who_paused() -> None:
    wait = Waiting(0, "ann", "their move", 12.4, False, True)
    assert wait.text() == "waiting for ann, who paused (their move), 12 s"
    assert Waiting(0, "ann", "their move", 12.4, False).text() == \
        "waiting for ann (their move), 12 s"
    assert waiting_text(wait, False, 10) == "waiting for ann, 12 s; the table can only wait"
    assert waiting_text(None, True, 10) is None


def test_a_hostile_presence_is_refused_or_bounded_and_names_nobody_a_cheater() -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    ann, bob, _ = cores
    hk = ann.me.public_key
    out = bob.receive(hk, envelope(ann, "presence", {"state": "asleep"}))
    assert [(n.kind, n.seat) for n in out if isinstance(n, Notice)] == [("rejected", 0)]
    rejected = next(n for n in out if isinstance(n, Notice))
    assert f"{ann.me.nick} " in rejected.text and "(seat 0)" in rejected.text
    assert "'asleep'" in rejected.text and "$.state" in rejected.text
    out = bob.receive(hk, envelope(ann, "presence", {"state": "paused", "seat": 2}))
    assert [(n.kind, n.seat) for n in out if isinstance(n, Notice)] == [("rejected", 0)]
    assert bob.paused == set()
    # A flood: at most PRESENCE_TOLD notices of one seat a game, however it alternates.
    notices = []
    for _ in range(PRESENCE_TOLD + 5):
        notices += [n for n in bob.receive(hk, envelope(ann, "presence", {"state": "paused"}))
                    if isinstance(n, Notice)]
        notices += [n for n in bob.peer_connected(hk) if isinstance(n, Notice)]
    assert [n.text for n in notices if n.kind == "presence"] == ["paused", "back"] * PRESENCE_TOLD
    # A replayed envelope is refused by the replay guard, not told again.
    data = envelope(ann, "presence", {"state": "paused"})
    bob.receive(hk, data)
    assert [n.kind for n in bob.receive(hk, data) if isinstance(n, Notice)] == ["rejected"]
    assert not bob.cheaters and not bob.halted


def test_a_pause_of_a_seat_that_left_or_of_oneself_marks_nobody() -> None:
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    _, bob, cyd = cores
    own = bob.receive(bob.me.public_key, envelope(bob, "presence", {"state": "paused"}))
    assert bob.paused == set() and not [n for n in own if getattr(n, "kind", "") == "presence"]
    net.bots.pop(cyd)
    net.post(cyd.me.public_key, cyd.leave())
    net.run(limit=net.delivered + 600)
    assert bob.has_left(2)
    bob.receive(cyd.me.public_key, envelope(cyd, "presence", {"state": "paused"}))
    assert bob.paused == set()
