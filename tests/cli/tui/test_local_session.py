"""LocalSession: the Session protocol in one process."""

from __future__ import annotations

import asyncio

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.core import IllegalActionError
from lancards.engine.level8.actions import Draw
from lancards.engine.level8.state import Phase
from tests.level8.scenario import build


def test_run_plays_a_whole_game_and_notifies_every_change():
    session = LocalSession("eights", bots=2, seed=4, bot_delay=0, autoplay=True)
    changes: list[int] = []
    session.subscribe(lambda: changes.append(len(session.history)))
    asyncio.run(asyncio.wait_for(session.run(), 60))
    snap = session.snapshot()
    assert snap.outcome is not None and snap.to_act is None
    assert changes == list(range(1, len(session.history) + 1))
    assert snap.banners[-1].kind == "result"
    assert snap.banners[-1].text.startswith("game over: ")
    # The bots of run() are played by the one driver (lancards.p2p.net.node.drive_bot): the game is
    # move for move the one the synchronous steps play from the same seed.
    twin = LocalSession("eights", bots=2, seed=4, bot_delay=0, autoplay=True)
    assert twin.advance() == len(session.history)
    assert twin.history == session.history


def test_submit_checks_seat_and_legality_and_plays_nothing_wrong():
    state = build("level8-master", [["R3", "B4"], ["Y1"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben"), state=state, bot_delay=0)
    with pytest.raises(IllegalActionError, match="Ann plays seat 0, not seat 1"):
        session.submit(Draw(1))
    with pytest.raises(IllegalActionError, match=r"it is seat 0's move \(draw\)"):
        session.submit(session.game.parse_action("0: discard R3#0"))
    assert session.history == []
    assert [str(a) for a in session.snapshot().legal] == ["0: draw"]
    session.submit(Draw(0))
    assert str(session.history[0]) == "0: draw"
    assert session.snapshot().view.phase is Phase.PLAY


def test_snapshot_hides_other_hands_and_chat_is_cut_to_200():
    state = build("level8-master", [["R3"], ["Y1"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben"), state=state, bot_delay=0)
    view = session.snapshot().view
    assert [str(view.cards.get(s)) for s in view.hands[0]] == ["R3"]
    assert [view.cards.get(s) for s in view.hands[1]] == [None]
    session.send_chat("x" * 300)
    line = session.snapshot().log[-1]
    assert line.chat and line.text == "Ann: " + "x" * 200


def test_the_result_banner_in_german_and_in_english():
    from lancards.cli import i18n

    session = LocalSession("eights", bots=2, seed=4, bot_delay=0, autoplay=True)
    session.advance()
    outcome = session.snapshot().outcome
    assert outcome is not None
    won = [session.names[s] for s in outcome.winners]
    english = session.snapshot().banners[-1].text
    assert english == "game over: " + " and ".join(won) + " won"
    i18n.set_language("de")
    try:
        session._cached = None  # the snapshot is said again, in German
        german = session.snapshot().banners[-1].text
    finally:
        i18n.set_language("en")
    verb = "hat" if len(won) == 1 else "haben"
    assert german == f"Spiel vorbei: {' und '.join(won)} {verb} gewonnen"


def test_the_players_own_win_in_german():
    from lancards.cli import i18n

    session = LocalSession("eights", bots=2, seed=2, bot_delay=0, autoplay=True)
    session.advance()  # seed 2: the player (the default nickname, You) wins alone
    outcome = session.snapshot().outcome
    assert outcome is not None and outcome.winners == (session.seat,)
    assert session.snapshot().banners[-1].text == "game over: You won"
    i18n.set_language("de")
    try:
        session._cached = None
        assert session.snapshot().banners[-1].text == "Spiel vorbei: Du hast gewonnen"
    finally:
        i18n.set_language("en")


def test_the_bots_nicknames_are_the_networked_tables_and_the_same_in_german():
    """The players panel says a seat is a bot (``bot, normal``): the name does not say it
    again (the trial of 2026-12-05 read ``Ada (bot)`` beside ``bot, normal``)."""
    from lancards.cli import i18n
    from lancards.cli.local_session import default_names
    from lancards.cli.net_session import BOT_NICKS

    assert default_names(3, 0, "Ann") == ("Ann", "Ada", "Bram")
    assert default_names(6, 5, "Zed") == (*BOT_NICKS, "Zed")
    assert default_names(4, 0, "Bram") == ("Bram", "Ada", "Cleo", "Dov")
    i18n.set_language("de")
    try:
        assert default_names(3, 1, "Ann") == ("Ada", "Ann", "Bram")
    finally:
        i18n.set_language("en")


def test_the_card_turned_at_a_round_s_start_is_told_in_the_log():
    """Level 8 (ruling L8-2): the top card of the draw pile is turned onto the dealer's
    discard pile; the trial of 2026-12-05 saw it on the table but never in the log."""
    from lancards.cli.local_session import LocalSession

    session = LocalSession("level8-master", seed=4, bot_delay=60, names=("Tess", "Ada", "Bram"))
    while session.state.round < 1 or session.state.phase.name != "DRAW":
        assert session.step()
    dealer = session.state.dealer
    [slot] = session.state.discards[dealer]
    card = str(session.state.cards[slot]).split("#")[0]
    log = [line.text for line in session.snapshot().log]
    mark = next(i for i, t in enumerate(log) if t.startswith("── round 1 · "))
    owner = "your" if dealer == 0 else f"{session.names[dealer]}'s"
    assert log[mark + 1:] == [f"{card} is face up on {owner} discard pile"]
    while session.step() and session.state.round == 1:  # once a round, not after each move
        pass
    assert sum("is face up on" in line.text for line in session.snapshot().log) == \
        min(session.state.round, 2)
