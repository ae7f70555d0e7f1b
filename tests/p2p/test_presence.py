"""A person paused, a person is back (issue 25, item 9): the ``presence`` message through the
real codec, what the others are told, and what a hostile seat can and cannot do with it."""

from __future__ import annotations

from typing import Any

from lancards.p2p.net.waiting import (
    BACK_AFTER_S,
    BACK_QUIET_S,
    Waiting,
    back_notice,
    waiting_text,
)
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


def test_a_link_back_after_a_crash_is_told_once_and_a_blink_or_a_first_link_is_not() -> None:
    """The LAN trial of 2026-12-06: a crash and ``lancards resume`` told nobody that the seat
    was back (a pause did). :func:`back_notice` tells a link up after one that dropped in this
    process :data:`BACK_AFTER_S` s or more before; never a first link (the start, or a resumed
    peer meeting the others: no drop before it), a blink, a paused seat (its own ``presence``
    notice says it), a halted table, or more than 16 returns of one seat."""
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    first, bob, cyd = cores  # seat 0: the harness's seat order names it "cyd"
    key = first.me.public_key
    dropped: dict[bytes, float] = {}
    told: dict[bytes, int] = {}
    assert back_notice(bob, key, dropped, 200.0, told) is None  # a first link: not "back"
    dropped[key] = 300.0
    assert back_notice(bob, key, dropped, 300.0 + BACK_AFTER_S - 0.1, told) is None  # a blink
    assert dropped == {} and told == {}
    dropped[key] = 400.0
    back = back_notice(bob, key, dropped, 400.0 + BACK_AFTER_S, told)
    assert back is not None and (back.kind, back.code, back.seat, back.text) == (
        "info", "back", 0, "cyd is back")
    assert back_notice(bob, key, dropped, 500.0, told) is None  # up already: nothing to tell
    bob.paused.add(0)
    dropped[key] = 600.0
    assert back_notice(bob, key, dropped, 700.0, told) is None  # the presence notice says it
    bob.paused.clear()
    dropped[key] = 800.0
    bob._halted = "a cheat"  # a halted table tells no returns
    assert back_notice(bob, key, dropped, 900.0, told) is None
    bob._halted = None
    for n in range(2, PRESENCE_TOLD + 1):  # a seat that drops its links on purpose
        dropped[key] = 1000.0 * n
        assert back_notice(bob, key, dropped, 1000.0 * n + 5, told) is not None
    dropped[key] = 99000.0
    assert told == {key: PRESENCE_TOLD} and back_notice(bob, key, dropped, 99999.0, told) is None
    assert back_notice(cyd, b"stranger", {b"stranger": 0.0}, 9.0, {}) is None


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
    assert f"{ann.me.nick} " in rejected.text and "(seat 1)" in rejected.text
    assert rejected.text.endswith("malformed: 'presence' body field 'state' holds 'asleep', "
                                  "which it may not")  # plain words (LAN trial of 2026-12-08)
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


def test_a_resumed_person_alone_at_the_table_is_told_that_nobody_answers() -> None:
    """The evening trial of 2026-12-06: a joiner resumed after its host had left and its bot
    had ended, and read "catching up" and nothing else. After 3 s with no link to any seat
    still at the table, the banner says nobody answers, whom it waits for, and that q pauses."""
    from types import SimpleNamespace

    from lancards.cli import i18n
    from lancards.cli.peer_words import catching_up_words
    from lancards.p2p.net.waiting import alone_seconds

    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    me = cores[2]
    others = [c.me.public_key for c in cores[:2]]
    node = SimpleNamespace(core=me, connected=set(), down_since=dict.fromkeys(others, 100.0))
    names = ["hana", "bot1", "jo"]
    count = sum(1 for e in me.record.entries if e.payload["t"] == "action")
    assert 0 < count < len(me.record)  # moves, not entries (shuffles, keys, shares)
    plain = f"catching up: {count} moves verified so far"
    assert catching_up_words(node, names, 102.9) == plain  # links take a moment
    assert catching_up_words(node, names, 103.0) == plain + (
        "; nobody at this table answers yet (hana, bot1): the game goes on when one of them "
        "is back · q pauses")
    node.down_since[others[0]] = 101.0  # the last link dropped at 101
    assert alone_seconds(me, node.connected, node.down_since, 110.0) == 9.0
    node.connected.add(others[1])  # bot1 answers: catching up, not alone
    assert alone_seconds(me, node.connected, node.down_since, 110.0) is None
    assert catching_up_words(node, names, 200.0) == plain
    node.connected.clear()
    i18n.set_language("de")
    try:
        assert catching_up_words(node, names, 200.0).endswith(
            "; niemand an diesem Tisch antwortet bisher (hana, bot1): das Spiel geht weiter, "
            "sobald einer von ihnen zurück ist · q macht Pause")
    finally:
        i18n.set_language("en")


def test_a_resumed_autoplay_seat_alone_says_so_once(capsys) -> None:
    """``lancards resume --autoplay`` printed its first line, then nothing for 45 s when nobody
    of the table answered (the evening trial of 2026-12-06); it now says so once."""
    import asyncio
    import time
    from types import SimpleNamespace

    from lancards.cli.lobby.started_table import _tell_alone

    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    long_ago = time.monotonic() - 60
    node = SimpleNamespace(core=cores[2], connected=set(), catching_up=True,
                           down_since={c.me.public_key: long_ago for c in cores[:2]})
    asyncio.run(asyncio.wait_for(_tell_alone(node, ["hana", "bot1", "jo"]), 5))  # type: ignore[arg-type]
    assert capsys.readouterr().out == (
        "nobody at this table answers yet (hana, bot1): the game goes on when one of them is "
        "back (Ctrl-C pauses)\n")


def _bob_and_cyds_key() -> tuple[Any, bytes]:
    """Bob's core at a 3-seat 8s Rule! table under way, and the key of cyd (seat 0)."""
    cores, net = make_cores(3, "eights")
    net.start()
    net.run(limit=LIMIT)
    return cores[1], cores[0].me.public_key


def test_a_link_that_keeps_coming_back_is_told_back_once() -> None:
    """The LAN trial of 2026-12-08: a seat whose link dropped and came back six times in a few
    seconds was "back" six times in the others' logs (and "Ben is back" twice after one
    SIGSTOP/SIGCONT). A return within :data:`BACK_QUIET_S` of the last one told is one return,
    unless the absence itself lasted that long."""
    bob, key = _bob_and_cyds_key()
    dropped: dict[bytes, float] = {}
    told: dict[bytes, int] = {}
    last: dict[bytes, float] = {}
    said = []
    for n in range(6):  # down 1 s, up 0.5 s, six times
        dropped[key] = 100.0 + 1.5 * n
        back = back_notice(bob, key, dropped, 101.0 + 1.5 * n, told, last)
        said.append(None if back is None else back.text)
    assert said == ["cyd is back", None, None, None, None, None]
    assert told == {key: 1} and last == {key: 101.0}
    dropped[key] = 120.0  # a return long after: told
    assert back_notice(bob, key, dropped, 121.0, told, last).text == "cyd is back"
    dropped[key] = 122.0  # soon after, but a real absence of 10 s: told
    assert back_notice(bob, key, dropped, 122.0 + BACK_QUIET_S, told, last).text == \
        "cyd is back"
    assert told == {key: 3} and last == {key: 132.0}


def test_no_return_is_told_of_a_link_made_at_this_peers_start_or_of_a_seat_gone() -> None:
    """The LAN trial: after ann's own kill -9 and ``lancards resume`` her log said "bob is
    back" (he had come back minutes earlier: her resumed links to him came up, one was replaced,
    and that drop read as his return); and "bob is back" was told of a seat already removed,
    whose client linked up to watch. A drop within :data:`BACK_QUIET_S` of this peer's own
    start is no return, nor is any of a seat that left or was removed."""
    from lancards.p2p.net.waiting import BACK_QUIET_S

    bob, key = _bob_and_cyds_key()
    told: dict[bytes, int] = {}
    dropped = {key: 100.0 + BACK_QUIET_S - 1}  # a link of bob's start, replaced
    assert back_notice(bob, key, dropped, 200.0, told, None, 100.0) is None
    dropped = {key: 100.0 + BACK_QUIET_S}  # a drop once the start is behind it
    back = back_notice(bob, key, dropped, 200.0, told, None, 100.0)
    assert back is not None and back.text == "cyd is back"
    bob.left_seats = lambda: (0,)  # type: ignore[method-assign]  # cyd was voted out
    dropped = {key: 300.0}
    assert back_notice(bob, key, dropped, 400.0, told) is None
    assert dropped == {} and told == {key: 1}
