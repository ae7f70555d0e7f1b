"""The table screen in its watch mode (``lancards watch`` in a terminal, issue 27): the record a
watcher verified, drawn as a spectator sees it: no hand, no "YOUR TURN", the moves in the log,
keys that would act say it is watching, q quits at once."""

from __future__ import annotations

from typing import Any

import pytest

from lancards.cli.lobby.watch_table import TableWatcher, WatchSession
from lancards.cli.tui.controller import WATCHING
from lancards.p2p.protocol.identity import Identity
from lancards.p2p.protocol.watching import Watching
from lancards.p2p.protocol.wire import link_envelope
from tests.cli.tui.harness import driven
from tests.p2p.core_harness import make_cores

TABLE = "0123456789abcdef"


def watched(game: str, seats: int, limit: int) -> WatchSession:
    """A watch session fed the first entries of a seeded in-memory game (as its link would)."""
    return fed(game, seats, limit)[0]


def fed(game: str, seats: int, limit: int) -> tuple[WatchSession, list[Any], TableWatcher]:
    """:func:`watched`'s session, with the game's cores and the watcher it was fed through."""
    cores, net = make_cores(seats, game, seed="watch-screen")
    net.start()
    net.run(limit=limit)
    peer = cores[0].me
    watcher = TableWatcher(TABLE, peer.public_key, "127.0.0.1", 9)
    watcher.watching = Watching(Identity(b"\x42" * 32, "watcher"), TABLE, peer.public_key)
    session = WatchSession(watcher)
    table = cores[0].table
    session.tell(watcher.watching.receive(link_envelope(
        peer, "watch.table", TABLE, {"statement": table.statement, "sigs": table.sigs}).encode()))
    for entry in cores[0].record.entries:
        event = watcher.watching.receive(link_envelope(
            peer, "watch.entry", TABLE, {"entry": entry.to_dict()}).encode())
        assert event.kind == "entry", event
        session.tell(event)
    return session, cores, watcher


@pytest.mark.parametrize(("game", "seats", "limit", "title"), [
    ("eights", 3, 100, "8s Rule!"), ("level8-en", 2, 40, "Level 8 (English)")])
def test_a_watcher_sees_the_table_without_a_hand_and_q_quits(game: str, seats: int, limit: int,
                                                              title: str) -> None:
    session = watched(game, seats, limit)
    snap = session.snapshot()
    assert snap.seat == -1 and snap.legal == [] and snap.extra["watching"]
    # the game's name, never its id (it read "level8-en · players ...")
    assert any(line.text.startswith(f"{title} · players ") for line in snap.log)
    moves = [line.text for line in snap.log[1:]]
    assert moves and not any("You" in text for text in moves), moves
    with driven(session, 80, 24) as screen:  # type: ignore[arg-type]
        text = screen.text()
        assert "watching: no seat, the public cards only" in text, text
        assert "watching: public cards only · PgUp/PgDn the log" in text, text
        assert "YOUR TURN" not in text and "your hand" not in text and "(you)" not in text
        assert moves[-1][:30] in text  # the log shows the last move
        text = screen.press("h")
        assert WATCHING in text
        text = screen.press("c", "hello", "enter")
        assert "the players do not hear a watcher's chat" in text
        screen.press("q")
        assert screen.done
    assert screen.finish() == 0


def test_a_watcher_sees_which_seats_said_a_bot_plays_them() -> None:
    """The levels come from the signed start statement (a host's ``--bots``, ``join
    --autoplay``): a watcher's players panel says ``bot, hard`` as a player's does."""
    from lancards.p2p.protocol.core import GameCore
    from lancards.p2p.protocol.table import start_local
    from tests.p2p.core_harness import Network, SeededRandomBytes, identities

    ids = identities(3)
    table = start_local(ids, "level8-en", None, table=TABLE,
                        bots={ids[1].public_key: "hard", ids[2].public_key: "easy"})
    cores = [GameCore(me, table, SeededRandomBytes(f"bots-{i}")) for i, me in enumerate(ids)]
    net = Network(cores)
    net.start()
    net.run(limit=30)
    peer = cores[0].me
    watcher = TableWatcher(TABLE, peer.public_key, "127.0.0.1", 9)
    watcher.watching = Watching(Identity(b"\x42" * 32, "watcher"), TABLE, peer.public_key)
    session = WatchSession(watcher)
    session.tell(watcher.watching.receive(link_envelope(
        peer, "watch.table", TABLE, {"statement": table.statement, "sigs": table.sigs}).encode()))
    seat = {m.public_key: s for s, m in enumerate(table.seats)}
    assert session.snapshot().extra["bots"] == {seat[ids[1].public_key]: "hard",
                                                seat[ids[2].public_key]: "easy"}
    for entry in cores[0].record.entries:
        session.tell(watcher.watching.receive(link_envelope(
            peer, "watch.entry", TABLE, {"entry": entry.to_dict()}).encode()))
    with driven(session, 100, 30) as screen:  # type: ignore[arg-type]
        text = screen.text()
        rows = {nick: line for line in text.splitlines() for nick in ("ann", "bob", "cyd")
                if f" {nick} " in line and "level" not in line.lower()[:5]}
        assert rows["bob"].rstrip().endswith("bot, hard"), text
        assert rows["cyd"].rstrip().endswith("bot, easy"), text
        assert "bot," not in rows["ann"], text
        screen.press("q")


def test_the_watchers_hand_panel_is_in_the_players_language() -> None:
    """The watcher's hand panel was English on a German screen ("watching: no seat, ...",
    "Ben to move; q quits"; found 2026-12-06)."""
    from types import SimpleNamespace

    from lancards.cli import i18n
    from lancards.cli.tui.controller import watch_hand

    snap = SimpleNamespace(names=["Ann", "Ben"], to_act=1)
    assert [text for _style, text in watch_hand(snap)] == [  # type: ignore[arg-type]
        " watching: no seat, the public cards only\n", "  Ben to move; q quits\n"]
    i18n.set_language("de")
    try:
        assert [text for _style, text in watch_hand(snap)] == [  # type: ignore[arg-type]
            " Zuschauen: kein Platz, nur offene Karten\n", "  Ben ist dran; q beenden\n"]
        snap.to_act = -1
        assert watch_hand(snap)[1][1] == "  die Karten werden gemischt und verteilt; q beenden\n"  # type: ignore[arg-type]
    finally:
        i18n.set_language("en")


def test_a_watch_stopped_on_a_cheat_says_game_stopped_not_whose_move() -> None:
    """The LAN trial's watcher of a table halted on eve's cheat read the banner, then the title
    "eve plays: lay down, add, discard" and "eve to move; q quits" below: as if play went on."""
    from lancards.cli import i18n
    from lancards.p2p.protocol.record import sign_entry

    session, cores, watcher = fed("level8-en", 2, 40)
    peer = cores[0].me
    to_act = cores[0].to_act()
    assert to_act is not None and to_act >= 0
    cheater = next(c for c in cores if c.seat != to_act)
    record = cores[0].record
    bad = sign_entry(cheater.me, TABLE, len(record), record.head,
                     {"t": "action", "a": f"{cheater.seat}: draw", "open": []},
                     cores[0].state_hash())
    event = watcher.watching.receive(link_envelope(
        peer, "watch.entry", TABLE, {"entry": bad.to_dict()}).encode())
    assert event.kind == "cheat"
    session.tell(event)
    snap = session.snapshot()
    assert snap.to_act is None
    name = cheater.me.nick
    for language, title, hand in (("en", "game stopped", "  game stopped; q quits"),
                                  ("de", "Spiel angehalten", "  Spiel angehalten; q beenden")):
        i18n.set_language(language)
        try:
            with driven(session, 80, 24) as screen:  # type: ignore[arg-type]
                lines = screen.text().splitlines()
                assert name in lines[0], lines  # the banner
                assert next(line for line in lines if "Level 8" in line).rstrip().endswith(
                    title), lines
                assert hand in lines, lines
                assert not any(f"{name} to move" in line or f"{name} ist dran" in line
                               for line in lines), lines
                screen.press("q")
        finally:
            i18n.set_language("en")
