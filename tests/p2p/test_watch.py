"""Watching a table (docs/protocol.md 11.11), in memory through the real codec: an observer
follows the record live from one seated peer and verifies it like a player; it is sent only
``watch.table`` and ``watch.entry`` (never a sealed payload), sees only public cards, and every
way it can misbehave drops it with a reason word."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from lancards.engine.core import ALL_SEATS
from lancards.p2p.protocol.core import GameCore, Output, Send
from lancards.p2p.protocol.errors import LocalProtocolError
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.watchers import MAX_ASKS, MAX_WATCHERS, WATCH_LINKS, Drop, Watchers
from lancards.p2p.protocol.watching import Watching
from lancards.p2p.protocol.wire import canonical, link_envelope, sign_envelope
from tests.p2p.core_harness import Network, make_cores

TABLE = "0123456789abcdef"


def observer_id(i: int) -> Identity:
    return Identity(bytes([0x40 + i]) * 32, f"watcher{i}")


class WatchedNetwork(Network):
    """A network whose ``watched`` core serves observers: after every batch of its outputs the
    observers are topped up, and each message to an observer is delivered to its
    :class:`Watching` at once (and kept in :attr:`to_observers`)."""

    def __init__(self, cores: Sequence[GameCore], watched: int = 0) -> None:
        super().__init__(cores)
        self.watched = cores[watched]
        self.watchers = Watchers(self.watched)
        self.observers: dict[bytes, Watching] = {}
        self.to_observers: list[tuple[bytes, bytes]] = []
        self.drops: list[Drop] = []

    def ask(self, identity: Identity, data: bytes | None = None) -> list[Any]:
        """Link observer ``identity`` to the watched peer and send its ask (or ``data``)."""
        key = identity.public_key
        if key not in self.observers:
            self.observers[key] = Watching(identity, TABLE, self.watched.me.public_key)
            self.watchers.link_up(key)
        outputs = self.watchers.receive(key, data or self.observers[key].ask())
        return self._to_observers(outputs)

    def _to_observers(self, outputs: Sequence[Send | Drop]) -> list[Any]:
        events = []
        for out in outputs:
            if isinstance(out, Drop):
                self.drops.append(out)
                continue
            assert out.to is not None
            self.to_observers.append((out.to, out.data))
            events.append(self.observers[out.to].receive(out.data))
        return events

    def post(self, sender: bytes, outputs: Sequence[Output]) -> None:
        super().post(sender, outputs)
        if sender == self.watched.me.public_key:
            events = self._to_observers(self.watchers.top_up())
            assert all(e.kind == "entry" for e in events), events


def entry_lines(core: GameCore) -> list[bytes]:
    return [canonical(e.to_dict()) for e in core.record.entries]


def hidden_known(watching: Watching) -> list[Any]:
    """Cards the observer knows that the table has not made public."""
    assert watching.core is not None
    game, state = watching.core.game, watching.core.state
    return [slot for slot, mask in game.knowledge(state).items()
            if mask != ALL_SEATS and game.identity(state, slot) is not None]


def test_an_observer_catches_up_then_follows_live_and_sees_no_hidden_card() -> None:
    cores, _ = make_cores(3, "eights", seed="watch")
    net = WatchedNetwork(cores)
    early = observer_id(0)
    assert [e.kind for e in net.ask(early)] == ["table"]  # the record is empty yet
    net.start()
    net.run(limit=100)  # the key phase, the shuffles and round 1's deal (private reveals)
    late = observer_id(1)
    played = len(cores[0].record)
    events = net.ask(late)
    assert events[0].kind == "table" and len(events) == 1 + played
    assert [e.seq for e in events[1:]] == list(range(played))
    for key in (early.public_key, late.public_key):
        watching = net.observers[key]
        assert watching.core is not None and watching.core.is_observer
        assert entry_lines(watching.core) == entry_lines(cores[0])
        assert watching.core.state_hash() == cores[1].record.entries[-1].state
        assert hidden_known(watching) == []
    # The players hold private cards the observers do not know.
    assert any(slot for slot, mask in cores[0].game.knowledge(cores[0].state).items()
               if mask != ALL_SEATS and cores[0].game.identity(cores[0].state, slot) is not None)
    kinds = {json.loads(data)["type"] for _, data in net.to_observers}
    assert kinds == {"watch.table", "watch.entry"}  # never "sealed", an ack, a vote or chat
    assert all(b'"sealed"' not in data and b'"ct"' not in data for _, data in net.to_observers)


@pytest.mark.long
def test_an_observer_of_a_whole_game_ends_with_the_players_entries() -> None:
    cores, _ = make_cores(2, "level8-en", seed="layout")
    net = WatchedNetwork(cores, watched=1)
    net.ask(observer_id(0))
    net.start()
    net.run()
    watching = net.observers[observer_id(0).public_key]
    assert watching.core is not None and watching.over() and watching.cheat is None
    assert len(watching.core.record) == 252  # tests/p2p/test_seeded_records.py's pin
    assert entry_lines(watching.core) == entry_lines(cores[0]) == entry_lines(cores[1])
    outcome = watching.core.game.outcome(watching.core.state)
    assert outcome == cores[0].game.outcome(cores[0].state)


def started(entries: int = 6) -> WatchedNetwork:
    """A 2-seat table a few entries in (the key phase)."""
    cores, _ = make_cores(2, "level8-en", seed="watch")
    net = WatchedNetwork(cores)
    net.start()
    net.run(limit=entries)
    assert len(cores[0].record) >= 2
    return net


def raw_ask(who: Identity, have: Any, table: str = TABLE) -> bytes:
    env = {"body": {"have": have}, "from": who.public_key.hex(), "seq": 0, "sig": "",
           "tbl": table, "type": "watch.ask", "v": 1}
    return json.dumps(env, separators=(",", ":"), sort_keys=True).encode()


@pytest.mark.parametrize(("have", "reason"), [(-1, "malformed"), (2**53, "malformed"),
                                              ("3", "malformed"), (None, "malformed")])
def test_an_ask_from_a_bad_have_drops_the_observer(have: Any, reason: str) -> None:
    net = started()
    events = net.ask(observer_id(0), raw_ask(observer_id(0), have))
    assert events == [] and [(d.key, d.reason) for d in net.drops] == [
        (observer_id(0).public_key, reason)]
    assert net.watchers.served == {}


def test_an_ask_beyond_the_record_is_served_from_its_end() -> None:
    net = started()
    length = len(net.watched.record)
    events = net.ask(observer_id(0), raw_ask(observer_id(0), 2**53 - 1))
    assert [e.kind for e in events] == ["table"]  # nothing it claims to hold is sent again
    assert net.watchers.served == {observer_id(0).public_key: length}
    assert net.drops == []


def test_a_seat_only_message_from_an_observer_drops_it_as_not_seated() -> None:
    net = started()
    who = observer_id(0)
    before = [len(c.record) for c in net.cores.values()]
    entry = net.watched.record.entries[0].to_dict()
    vote = {"vote": {"tbl": TABLE, "seat": 0, "at": 1, "head": "0" * 64, "round": 0,
                     "by": who.public_key.hex(), "sig": "0" * 128}}
    for i, (type_, body) in enumerate([("record.entry", {"entry": entry}), ("record.vote", vote),
                                       ("chat", {"text": "hi"}), ("record.sync", {"have": 0}),
                                       ("sealed", {"payload": {}})]):
        watcher = observer_id(i)
        data = sign_envelope(watcher, type_, TABLE, 0, body).encode()
        assert net.ask(watcher, data) == []
    assert [d.reason for d in net.drops] == ["not-seated"] * 5
    assert net.watchers.served == {}
    assert [len(c.record) for c in net.cores.values()] == before


def test_a_join_reaching_a_started_table_is_dropped_as_started() -> None:
    net = started()
    who = observer_id(0)
    join = sign_envelope(who, "table.join", TABLE, 1, {"nick": "zed", "xpk": "00" * 32,
                                                        "game": "level8-en"}).encode()
    assert net.ask(who, join) == []
    assert [(d.key, d.reason) for d in net.drops] == [(who.public_key, "started")]


def test_asks_beyond_the_bound_on_one_link_drop_the_observer_as_a_flood() -> None:
    net = started()
    who = observer_id(0)
    first = net.ask(who)
    assert first[0].kind == "table" and len(first) == 1 + len(net.watched.record)
    for _ in range(MAX_ASKS - 1):
        assert net.ask(who) == []  # answered once per link: nothing is sent again
    assert net.drops == []
    net.ask(who)
    assert [d.reason for d in net.drops] == ["flood"]
    assert net.watchers.served == {}
    net.watchers.link_down(who.public_key)  # a new link asks anew
    net.watchers.link_up(who.public_key)
    assert net.ask(who)[0].kind == "table"


def test_a_fifth_observer_is_refused_as_full_and_the_links_are_bounded() -> None:
    net = started()
    for i in range(MAX_WATCHERS):
        assert net.ask(observer_id(i))[0].kind == "table"
    assert net.ask(observer_id(MAX_WATCHERS)) == []
    assert [(d.key, d.reason) for d in net.drops] == [(observer_id(MAX_WATCHERS).public_key,
                                                       "full")]
    assert len(net.watchers.served) == MAX_WATCHERS
    for i in range(MAX_WATCHERS + 1, WATCH_LINKS):
        net.watchers.link_up(observer_id(i).public_key)
    assert not net.watchers.may_link(observer_id(WATCH_LINKS).public_key)
    assert net.watchers.may_link(observer_id(0).public_key)  # linked already
    assert not net.watchers.may_link(net.watched.me.public_key)  # a seat is no observer
    net.watchers.link_down(observer_id(0).public_key)
    assert net.watchers.may_link(observer_id(WATCH_LINKS).public_key)


def test_an_oversized_or_wrong_table_message_drops_the_observer() -> None:
    net = started()
    big = raw_ask(observer_id(0), 0).replace(b'"have":0', b'"have":0,"pad":"' + b"x" * 300_000
                                             + b'"')
    net.ask(observer_id(0), big)
    net.ask(observer_id(1), raw_ask(observer_id(1), 0, table="fedcba9876543210"))
    net.ask(observer_id(2), b"\xff\xfe not json")
    assert [d.reason for d in net.drops] == ["oversized", "wrong-table", "malformed"]
    assert net.watchers.served == {}


def test_the_observer_refuses_what_the_peer_must_not_send() -> None:
    net = started()
    who = observer_id(0)
    watching = Watching(who, TABLE, net.watched.me.public_key)
    peer = net.watched.me
    entry = net.watched.record.entries[0].to_dict()
    # An entry before the table, a forged table, a tampered entry, a signed seat message.
    assert watching.receive(link_envelope(peer, "watch.entry", TABLE, {"entry": entry})
                            .encode()).kind == "rejected"
    table = net.watched.table
    sigs = dict(table.sigs)
    first = next(iter(sigs))
    sigs[first] = "0" * 128
    forged = link_envelope(peer, "watch.table", TABLE, {"statement": table.statement,
                                                         "sigs": sigs})
    assert watching.receive(forged.encode()).kind == "rejected" and watching.core is None
    good = link_envelope(peer, "watch.table", TABLE, {"statement": table.statement,
                                                       "sigs": table.sigs})
    assert watching.receive(good.encode()).kind == "table"
    tampered = {**entry, "state": "ab" * 32}
    event = watching.receive(link_envelope(peer, "watch.entry", TABLE, {"entry": tampered})
                             .encode())
    assert event.kind == "rejected" and "bad-signature" in event.text
    # named as the table names the peer, once its table came (the LAN trial with a seated
    # attacker, h1: "message from the watched peer [QF4Z-...] refused")
    assert event.error is not None and event.error.sender == \
        f"the watched peer {net.watched.players[net.watched.seat]}"
    chat = sign_envelope(peer, "chat", TABLE, 0, {"text": "hi"}).encode()
    assert "unknown-type" in watching.receive(chat).text
    assert watching.core is not None and len(watching.core.record) == 0
    assert watching.receive(link_envelope(peer, "watch.entry", TABLE, {"entry": entry})
                            .encode()).kind == "entry"
    assert len(watching.core.record) == 1


# -- the table plays again (issue 27): watch.next ----------------------------------------------


@pytest.fixture(scope="module")
def ended() -> tuple[WatchedNetwork, GameCore, list[GameCore], Any]:
    """A two-seat Level 8 table watched from seat 0 that ends early (seat 1 leaves: D-3), the
    observer's core at its end, and the next game both seats agreed."""
    cores, _ = make_cores(2, "level8", seed="watch-next")
    net = WatchedNetwork(cores)
    watcher = observer_id(0)
    net.ask(watcher)
    net.start()
    net.run(limit=5)
    net.post(cores[1].me.public_key, cores[1].leave())
    net.run()
    watching = net.observers[watcher.public_key]
    assert watching.over() and watching.cheat is None and watching.core is not None
    return net, watching.core, cores, _next_game(cores)


def _watching(net: WatchedNetwork, core: GameCore, who: int = 0,
              peer: Identity | None = None) -> Watching:
    """A fresh observer that watched ``core``'s game to its end (through ``peer``)."""
    watching = Watching(observer_id(who), TABLE, (peer.public_key if peer else
                                                 net.watched.me.public_key))
    watching.core = core  # the notice changes nothing of it
    return watching


def _next_game(cores: Sequence[GameCore], head: str | None = None, table: str | None = None,
               ids: Sequence[str] = ("00000000000000a1", "00000000000000a2")) -> Any:
    """The agreed next game of ``cores``' finished table (both say yes), following ``head``
    (default: its record's last entry) of ``table`` (default: its own)."""
    from lancards.p2p.protocol.rematch import Finished, Rematch
    from lancards.p2p.protocol.statement import StartedTable
    from lancards.p2p.protocol.table import start_local

    old = cores[0].table if table is None else start_local(
        [c.me for c in cores], cores[0].table.spec.game, {}, table=table)
    done = Finished(old, head or cores[0].record.head, (0,), (0, 0), 0,
                    tuple(c.me.public_key for c in cores))
    tables = iter(ids)
    rematches = [Rematch(c.me, done, new_table=lambda: next(tables)) for c in cores]
    queue = [(r.me.public_key, o) for r in rematches for o in r.answer(True)]
    by_key = {r.me.public_key: r for r in rematches}
    while queue:
        sender, out = queue.pop(0)
        for to in out.to:
            queue += [(to, o) for o in by_key[to].receive_bytes(sender, out.envelope.encode())]
    started = rematches[0].started
    assert isinstance(started, StartedTable)
    return started


def _told(sender: Identity, watching: Watching, body: dict[str, Any]) -> Any:
    return watching.receive(link_envelope(sender, "watch.next", TABLE, body).encode())


def test_an_observer_follows_the_table_into_its_next_game_on_the_same_link(ended) -> None:
    import secrets

    net, core, cores, started = ended
    watching = _watching(net, core)
    net.watchers.served[observer_id(0).public_key] = len(core.record)
    [out] = net.watchers.next_table(started)
    assert isinstance(out, Send) and out.to == observer_id(0).public_key
    assert json.loads(out.data)["type"] == "watch.next"
    event = watching.receive(out.data)
    assert (event.kind, event.text) == ("next", "00000000000000a1")
    assert watching.next == started
    following = watching.following()
    assert following.table_id == "00000000000000a1" and following.core is None
    ask = json.loads(following.ask())
    assert (ask["type"], ask["tbl"], ask["body"]) == ("watch.ask", "00000000000000a1",
                                                      {"have": 0})
    # the seated peer's next game serves it from the start
    served = Watchers(GameCore(cores[0].me, started, secrets.token_bytes))
    served.link_up(observer_id(0).public_key)
    outs = served.receive(observer_id(0).public_key, following.ask())
    assert [following.receive(o.data).kind for o in outs if isinstance(o, Send)] == ["table"]
    assert following.core is not None and following.core.table.statement == started.statement
    assert watching.receive(out.data).kind == "next"  # the same notice again: the same


@pytest.mark.parametrize(("attack", "word"), [
    ("early", "out-of-order"), ("forged", "bad-signature"), ("other-table", "wrong-table"),
    ("other-head", "wrong-table"), ("unseated", "not-seated"), ("another-next", "wrong-table"),
    ("no-follows", "wrong-table")])
def test_a_forged_or_mismatched_next_table_notice_is_refused_with_a_reason_word(
        ended, attack: str, word: str) -> None:
    net, core, cores, started = ended
    watching = _watching(net, core)
    sender = net.watched.me
    body: dict[str, Any] = {"statement": started.statement, "sigs": dict(started.sigs)}
    if attack == "early":  # before the end of the game watched (nothing watched yet)
        watching.core = None
    elif attack == "forged":  # a signature that is not the seat's
        body["sigs"][next(iter(body["sigs"]))] = "00" * 64
    elif attack == "other-table":  # a next game of another table, validly signed
        other = _next_game(cores, table="fedcba9876543210")
        body = {"statement": other.statement, "sigs": other.sigs}
    elif attack == "other-head":  # this table, but another last entry than the one verified
        other = _next_game(cores, head="ab" * 32)
        body = {"statement": other.statement, "sigs": other.sigs}
    elif attack == "unseated":  # a peer not seated at the next game tells it
        sender = Identity(b"\x77" * 32, "mallory")
        watching = _watching(net, core, 4, sender)
    elif attack == "no-follows":  # a first game's statement: it follows nothing
        body = {"statement": cores[0].table.statement, "sigs": cores[0].table.sigs}
    elif attack == "another-next":  # a second, different next game after the first
        assert _told(sender, watching, body).kind == "next"
        other = _next_game(cores, ids=("00000000000000b7",))
        event = _told(sender, watching, {"statement": other.statement, "sigs": other.sigs})
        assert event.kind == "rejected" and word in event.text, event
        assert watching.next == started
        return
    event = _told(sender, watching, body)
    assert event.kind == "rejected" and word in event.text, event
    assert watching.next is None
    with pytest.raises(LocalProtocolError, match="has not said it plays again"):
        watching.following()


# -- a cheat the watched peer refuses reaches its observers (the LAN trial with a seated attacker:
# the watcher read "eve to move" for ever while both players' tables had stopped on eve's cheat)


def _out_of_turn() -> tuple[WatchedNetwork, GameCore, GameCore, Identity, list[Output]]:
    """A three-seat Level 8 table watched from ann (seat 1) by an observer; a seat whose turn it
    is not signs "draw" and sends it to ann, who halts on it. Returns the network, ann, the
    cheater, the observer and ann's outputs."""
    from lancards.p2p.protocol.record import sign_entry

    cores, _ = make_cores(3, "level8", seed="watch-cheat")
    net = WatchedNetwork(cores)
    who = observer_id(0)
    net.ask(who)
    net.start()
    net.run(limit=100)
    watched = cores[0]
    to_act = watched.to_act()
    cheater = next(c for c in cores[1:] if c.seat != to_act)
    entry = sign_entry(cheater.me, TABLE, len(watched.record), watched.record.head,
                       {"t": "action", "a": f"{cheater.seat}: draw", "open": []},
                       watched.state_hash())
    outputs = watched.receive(cheater.me.public_key, sign_envelope(
        cheater.me, "record.entry", TABLE, 10**6, {"entry": entry.to_dict()}).encode())
    assert watched.halt_kind == "out-of-turn"
    return net, watched, cheater, who, outputs


def test_a_move_out_of_turn_the_watched_peer_refuses_stops_the_watch_naming_its_author(
) -> None:
    from lancards.p2p.protocol.errors import Reason

    net, watched, cheater, who, outputs = _out_of_turn()
    events = net._to_observers(net.watchers.top_up())
    assert [e.kind for e in events] == ["cheat"]
    watching = net.observers[who.public_key]
    assert watching.cheat_error is not None
    assert watching.cheat_error.reason is Reason.OUT_OF_TURN
    assert watching.cheat_error.sender.startswith(cheater.me.nick)
    assert outputs  # the halt told the seats too
    # Told once: the next top-up sends nothing more.
    assert net.watchers.top_up() == []
    # An observer that asks later is sent the record, then the cheat.
    late = observer_id(1)
    kinds = [e.kind for e in net.ask(late)]
    assert kinds == ["table"] + ["entry"] * len(watched.record) + ["cheat"]


def test_the_watcher_says_the_cheat_as_the_seated_screens_do_in_english_and_german() -> None:
    """The LAN trial's watcher read ``eve [6J4G-...] (seat 1) hat einen Zug signiert, den die
    Regeln nicht erlauben``: a fingerprint and English inside a German line, and no move."""
    from lancards.cli import i18n
    from lancards.cli.lobby.watch_table import PlainTeller, TableWatcher

    net, watched, cheater, who, _outputs = _out_of_turn()
    [event] = net._to_observers(net.watchers.top_up())
    watching = net.observers[who.public_key]
    assert watching.core is not None
    due = watching.core.players[watching.core.to_act()].nick
    name = cheater.me.nick
    said: list[str] = []
    teller = PlainTeller(watching, said.append)
    watcher = TableWatcher(TABLE, watched.me.public_key, "127.0.0.1", 1)
    watcher.lost = None
    try:
        teller.tell(event)
        teller.finish(watcher)
        words = (f"{name} signed a move out of turn: draw from the draw pile, while it was "
                 f"{due}'s move")
        assert said == ["cheating caught: " + words, "Level 8: the table halted: " + words]
        i18n.set_language("de")
        said.clear()
        teller.tell(event)
        assert said == [f"Betrug erkannt: {name} hat einen Zug außer der Reihe signiert: vom "
                        f"Nachziehstapel ziehen, während {due} am Zug war"]
    finally:
        i18n.set_language("en")
