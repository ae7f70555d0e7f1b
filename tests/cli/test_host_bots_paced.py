"""The bots a host seats (``lancards host --bots N``) are paced per turn as at ``lancards play``
(issue 25, item 13): ``--bot-delay`` seconds before each bot's turn (default
``DEFAULT_DELAY``; none with ``--autoplay``), the steps of a turn at once, one pacer for all of
them that the host's ``b`` key changes."""

from __future__ import annotations

import argparse
import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from lancards.cli.lobby import host as host_module
from lancards.cli.lobby.started_table import bot_pace
from lancards.cli.main import main
from lancards.cli.pacing import DEFAULT_DELAY
from lancards.engine.level8.state import Phase
from lancards.p2p.protocol.identity import Identity
from tests.level8.scenario import build


def host_args(**given: Any) -> argparse.Namespace:
    values = {"autoplay": False, "bot_delay": None, "bot_level": "normal", "listen_host": ""}
    return argparse.Namespace(**{**values, **given})


@pytest.mark.parametrize(("given", "delay"), [
    ({}, DEFAULT_DELAY),  # a person at the host's screen: the play default, 0.5 s
    ({"autoplay": True}, 0.0),  # nobody at the host's screen
    ({"bot_delay": 1.5}, 1.5),
    ({"autoplay": True, "bot_delay": 2.0}, 2.0),  # people may join an --autoplay host
])
def test_the_host_bots_pacer_follows_bot_delay_and_autoplay(given, delay):
    args = host_args(**given)
    pacer = host_module.bot_pacer(args)
    assert pacer.delay == delay
    assert host_module.bot_pacer(args) is pacer  # one pacer for all the --bots


def test_every_seated_bot_joins_with_the_hosts_pacer(monkeypatch):
    joined: list[argparse.Namespace] = []

    async def join_table(ns: argparse.Namespace, *rest: Any, **kw: Any) -> None:
        joined.append(ns)

    monkeypatch.setattr(host_module, "join_table", join_table)
    args = host_args(bot_delay=1.0)
    lobby = SimpleNamespace(spec=SimpleNamespace(table="0123456789abcdef", game="level8"),
                            own_bots=set())
    host = Identity.generate("ann")

    async def seat_two() -> None:
        for nick, level in (("Ada", "easy"), ("Bram", "hard")):
            await host_module._start_bot_joiner(nick, lobby, host, 4000, args, level)
        await asyncio.sleep(0)  # the join tasks run

    asyncio.run(seat_two())
    assert [ns.bot_pacer for ns in joined] == [args.bot_pacer, args.bot_pacer]
    # each its own level (host --bot-level easy,hard: the trial of issue 26)
    assert [ns.bot_level for ns in joined] == ["easy", "hard"]
    assert list(args.bot_keys.values()) == ["easy", "hard"]
    assert args.bot_pacer.delay == 1.0


def test_a_seated_bot_waits_before_its_turn_only():
    args = host_args()
    host_module.bot_pacer(args)
    turn = build("level8-master", [["R1"], ["O1", "O2"], ["Y1"]], turn=1, phase=Phase.DRAW)
    bot = SimpleNamespace(state=turn, seat=1)
    assert bot_pace(args, True, bot)() == DEFAULT_DELAY  # its turn starts: the pause
    bot.state = turn.evolve(phase=Phase.PLAY)
    assert bot_pace(args, True, bot)() == 0.0  # the rest of its turn at once
    bot.state = turn
    args.bot_pacer.delay = 2.0  # the host's b key
    assert bot_pace(args, True, bot)() == 2.0
    assert bot_pace(args, False, bot)() == 0.0  # the host's own --autoplay seat: never


def test_host_refuses_a_bot_delay_out_of_range(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert main(["host", "--autoplay", "--interface", "127.0.0.1", "--bots", "1",
                 "--bot-delay", "11"]) == 2
    assert capsys.readouterr().err == \
        "lancards host: error: --bot-delay 11: use 0 to 10 seconds\n"
