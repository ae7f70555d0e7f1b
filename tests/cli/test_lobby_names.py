"""The lobby's waiting screens name each member and say a bot's level before the start (the
trial of 2026-12-06: ``bot1 (bot)`` said no level until the game's table did)."""

from __future__ import annotations

from lancards.cli.lobby.common import guest_lines, member_names
from lancards.p2p.protocol.identity import Identity
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


def _three_roots() -> tuple[list[Lobby], list[Identity]]:
    ids = [Identity(bytes([i + 1]) * 32, "root") for i in range(3)]
    host = Lobby.create(ids[0], "test-game", table=TABLE, rules_check=rules_check)
    net, lobbies = LobbyNet([host]), [host]
    for me in ids[1:]:
        lobby, join = Lobby.join(me, TABLE, ids[0].public_key, "test-game",
                                 rules_check=rules_check)
        lobbies.append(lobby)
        net.by_key[me.public_key], net.guards[me.public_key] = lobby, ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    return lobbies, ids


def test_a_joiner_whose_name_is_taken_is_told_the_name_it_plays_as() -> None:
    """The trial: three windows of one machine all joined as ``root``; the host numbers the
    names and a renamed joiner's waiting screen says it and how to choose a name."""
    from lancards.cli.lobby.names import seated_me

    lobbies, (host, _bob, cyd) = _three_roots()
    assert member_names(lobbies[0], host) == "root (host, you), root 2, root 3"
    assert guest_lines(lobbies[2], cyd, "root", "192.0.2.7:48100", 4)[1:] == [
        "at the table: root (host), root 2, root 3 (you)",
        "waiting for 1 more player (3 of 4 seats taken)",
        "root is taken at this table: you play as root 3 (lancards join --name NAME chooses "
        "your name)"]
    assert len(guest_lines(lobbies[0], host, "root", "192.0.2.7:48100", 4)) == 3  # not renamed
    seated = seated_me(cyd, lobbies[2].members)
    assert (seated.nick, seated.public_key) == ("root 3", cyd.public_key)


def test_the_renamed_line_is_german(german) -> None:
    lobbies, (_host, bob, _cyd) = _three_roots()
    assert guest_lines(lobbies[1], bob, "root", "192.0.2.7:48100", 4)[-1] == (
        "root ist an diesem Tisch schon vergeben: du spielst als root 2 (lancards join --name "
        "NAME wählt deinen Namen)")


def test_a_joiner_that_fills_the_last_seat_reads_its_new_name_in_the_table_s_log() -> None:
    """The trial of 2026-12-07: the joiner filling the last seat went straight to the table as
    ``ann 2 (you)`` and no screen said why; the start's rename line goes to the table's log,
    once (not again at the next game of the evening)."""
    import argparse

    from lancards.cli.lobby.names import renamed_line, tell_renamed

    lobbies, (_host, bob, _cyd) = _three_roots()
    args = argparse.Namespace(renamed=renamed_line(bob, lobbies[1].members))
    told: list[str] = []
    session = argparse.Namespace(tell=told.append)
    tell_renamed(args, session)
    tell_renamed(args, session)
    assert told == ["root is taken at this table: you play as root 2 (lancards join --name "
                    "NAME chooses your name)"]
    assert args.renamed is None


def _hosted(*joiners: tuple[Identity, str],
            first: bool = False) -> tuple[Lobby, dict[str, Lobby], list[Identity]]:
    """ann hosts with ``--bots 2`` (Ada and Bram, the keys ``bots``, as ``host`` names them);
    then each of ``joiners`` (identity, bot level or ``""`` for a person) joins (``first``:
    before the bots)."""
    from lancards.cli.lobby.host import hosted_bot_names, spare_bot_names

    ann = people(1)[0]
    host = Lobby.create(ann, "test-game", table=TABLE, rules_check=rules_check)
    bots = [Identity(bytes([40 + i]) * 32, nick) for i, nick in
            enumerate(hosted_bot_names(2, ann.nick))]
    host.own_bots = {b.public_key for b in bots}
    host.spare_bot_names = spare_bot_names(ann.nick)
    net = LobbyNet([host])
    lobbies = {}
    hosts = [(b, "normal") for b in bots]
    for me, level in [*joiners, *hosts] if first else [*hosts, *joiners]:
        lobby, join = Lobby.join(me, TABLE, ann.public_key, "test-game",
                                 rules_check=rules_check, bot=level)
        lobbies[me.public_key.hex()] = lobby
        net.by_key[me.public_key], net.guards[me.public_key] = lobby, ReplayGuard()
        net.post(me.public_key, [join])
        net.run()
    return host, lobbies, bots


def test_a_person_keeps_the_name_a_host_s_bot_had_and_the_bot_takes_the_next_free_one() -> None:
    """The trial: at ``host --bots 2`` (Ada, Bram) a person who joined with ``--name Ada``
    played as ``Ada 2``. The person keeps the name; the host's own bot takes the next free bot
    name (Cleo, then Dov), and its own lobby shows it so; a name the host or a person has is
    still numbered, and a bot that is not the host's (``join --autoplay``) keeps its name."""
    from lancards.cli.lobby.names import seated_me

    ada, bram = Identity(b"\x31" * 32, "ada"), Identity(b"\x32" * 32, "Bram")
    host, lobbies, bots = _hosted((ada, ""), (bram, ""))
    assert [m.nick for m in host.members] == ["ann", "Cleo", "Dov", "ada", "Bram"]
    assert member_names(lobbies[ada.public_key.hex()], ada) == \
        "ann (host), Cleo (bot, normal), Dov (bot, normal), ada (you), Bram"
    assert seated_me(bots[0], lobbies[bots[0].public_key.hex()].members).nick == "Cleo"
    ann2, other_ada = Identity(b"\x33" * 32, "ann"), Identity(b"\x34" * 32, "Ada")
    host, _lobbies, _bots = _hosted((ada, ""), (ann2, ""), (other_ada, "hard"))
    assert [m.nick for m in host.members] == ["ann", "Cleo", "Bram", "ada", "ann 2", "Ada 2"]


def test_a_host_s_bot_that_joins_after_a_person_took_its_name_takes_a_free_one() -> None:
    from lancards.cli.lobby.host import spare_bot_names
    from lancards.p2p.protocol.bot_names import bot_name

    assert spare_bot_names("ann") == ("Ada", "Bram", "Cleo", "Dov", "Edda", "Fay")
    assert spare_bot_names("cleo") == ("Ada", "Bram", "Dov", "Edda", "Fay")
    assert bot_name("Ada", ["ann", "ADA"], spare_bot_names("ann")) == "Bram"
    assert bot_name("Ada", ["ann", "Bram"], spare_bot_names("ann")) == "Ada"
    assert bot_name("Ada", ["Ada", "Bram", "Cleo", "Dov", "Edda", "Fay"], ()) == "Ada 2"
    host, _lobbies, _bots = _hosted((Identity(b"\x31" * 32, "Ada"), ""), first=True)
    assert [m.nick for m in host.members] == ["ann", "Ada", "Bram", "Cleo"]  # free then
