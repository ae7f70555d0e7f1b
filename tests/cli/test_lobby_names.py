"""The lobby's waiting screens name each member and say a bot's level before the start (the
trial of 2026-12-06: ``bot1 (bot)`` said no level until the game's table did)."""

from __future__ import annotations

from lancards.cli.lobby.common import guest_lines, member_names
from lancards.p2p.protocol.table import Lobby
from lancards.p2p.protocol.wire import ReplayGuard
from tests.p2p.protocol.helpers import TABLE, LobbyNet, people, rules_check


def test_the_waiting_screens_say_each_bot_s_level() -> None:
    ann, bob, cyd = people(3)
    host = Lobby.create(ann, "test-game", table=TABLE, rules_check=rules_check)
    net = LobbyNet([host])
    lobbies = {}
    for me, bot in ((bob, "hard"), (cyd, "")):
        lobby, join = Lobby.join(me, TABLE, ann.public_key, "test-game",
                                 rules_check=rules_check, bot=bot)
        lobbies[me.nick] = lobby
        net.by_key[me.public_key], net.guards[me.public_key] = lobby, ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    assert member_names(host, ann) == "ann (host, you), bob (bot, hard), cyd"
    assert member_names(lobbies["cyd"], cyd) == "ann (host), bob (bot, hard), cyd (you)"
    # a full table says it starts (the trial of 2026-12-06: "waiting for 0 more players")
    cyds = lobbies["cyd"]
    assert guest_lines(cyds, cyd, "ann", "192.0.2.7:48100", 4)[1:] == [
        "at the table: ann (host), bob (bot, hard), cyd (you)",
        "waiting for 1 more player (3 of 4 seats taken)"]
    assert guest_lines(cyds, cyd, "ann", "192.0.2.7:48100", 3)[2:] == [
        "every seat is taken: the table is starting..."]


def test_the_german_waiting_screen_says_the_level_in_german(german) -> None:
    ann, bob = people(2)
    host = Lobby.create(ann, "test-game", table=TABLE, rules_check=rules_check)
    net = LobbyNet([host])
    lobby, join = Lobby.join(bob, TABLE, ann.public_key, "test-game", rules_check=rules_check,
                             bot="hard")
    net.by_key[bob.public_key], net.guards[bob.public_key] = lobby, ReplayGuard()
    net.post(bob.public_key, [join])
    net.run()
    assert member_names(host, ann) == "ann (Gastgeber, du), bob (Bot, schwer)"


def test_a_host_s_bots_are_named_as_play_s_bots() -> None:
    """The trial: ``host --bots 2`` seated ``bot1`` and ``bot2`` where ``lancards play`` seats
    Ada and Bram; a name the host has is skipped."""
    from lancards.cli.lobby.host import hosted_bot_names

    assert hosted_bot_names(2, "ann") == ["Ada", "Bram"]
    assert hosted_bot_names(3, "ada") == ["Bram", "Cleo", "Dov"]
    assert hosted_bot_names(5, "Fay") == ["Ada", "Bram", "Cleo", "Dov", "Edda"]
    assert hosted_bot_names(0, "ann") == []
