"""This machine's addresses change while a full screen runs (the trial of 2026-12-06): the
host printed "this machine's addresses changed: ..." straight to the terminal, over the
waiting screen (its title gone, the join command still at the old address) and over the
table (garbled until Ctrl-L). Now the waiting screen shows the new addresses and says so in
its lines, the table says so in its log, and nothing is printed while either runs.

Headless: the screens draw into a pyte terminal (:mod:`tests.cli.tui.harness`); the host runs
on 127.0.0.1 with its mDNS advert replaced by a stand-in (nothing is multicast) and its
address change is the stand-in's ``on_move`` called as the real advertiser calls it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from lancards.cli.lobby import host as host_module
from lancards.p2p.net.discovery import TableAdvert
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import PyteTerminal, close_session

pytestmark = pytest.mark.timeout(60)

MOVED = "this machine's addresses changed: advertised at 10.33.0.21, fe80::21%eth0 port"


@dataclass
class StandIn:
    """The advertiser's part the host uses, without multicast."""

    advert: Any
    on_move: Callable[[TableAdvert], None] | None = None

    async def update(self, **changes: Any) -> None:
        self.advert = replace(self.advert, **changes)

    async def withdraw(self) -> None:
        pass

    def move(self, *addresses: str) -> None:
        """What :class:`~lancards.p2p.net.discovery.Advertiser` does once it re-advertised."""
        self.advert = replace(self.advert, addresses=addresses)
        assert self.on_move is not None
        self.on_move(self.advert)


async def until(condition: Callable[[], bool], what: str, term: PyteTerminal) -> None:
    for _ in range(250):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}:\n{term.text()}")


def output_of(term: PyteTerminal, columns: int = 80, rows: int = 24) -> Vt100_Output:
    return Vt100_Output(term, lambda: Size(rows=rows, columns=columns),  # type: ignore[arg-type]
                        term="xterm-256color", enable_cpr=False)


def test_the_waiting_screen_shows_the_new_address_and_prints_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from lancards.cli.tui.waiting import Cancelled, WaitingScreen, wait_on

    adverts: list[StandIn] = []

    async def advertise(lobby: Any, me: Any, port: int, follow: Any, size: int) -> StandIn:
        adverts.append(StandIn(TableAdvert(
            lobby.spec.table, lobby.spec.game, size - 1, me.nick, me.public_key, port,
            ("10.33.0.11", "fe80::11%eth0"), size, (me.nick,))))
        return adverts[-1]

    monkeypatch.setattr(host_module, "_advertise", advertise)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "ann"))
    term = PyteTerminal(80, 24)
    told: list[str] = []

    async def evening() -> tuple[str, str]:
        args = argparse.Namespace(game="level8-master", option=[], players=4, bots=0,
                                  name="ann", interface=["127.0.0.1"], port=0, autoplay=False,
                                  record=None)
        with create_pipe_input() as pipe:
            screen = WaitingScreen("lancards · your table, waiting for players", input=pipe,
                                   output=output_of(term))
            hosting = asyncio.ensure_future(wait_on(screen, host_module.host_table(
                args, say=screen.show)))
            try:
                await until(lambda: "@10.33.0.11:" in term.text(), "the join command", term)
                before = term.text()
                adverts[0].move("10.33.0.21", "fe80::21%eth0")
                await until(lambda: "@10.33.0.21:" in term.text(), "the new address", term)
                after = term.text()
                pipe.send_text("q")
                with pytest.raises(Cancelled):
                    await asyncio.wait_for(hosting, 10)
            finally:
                hosting.cancel()
                with contextlib.suppress(BaseException):
                    await hosting
        # The screen has closed: a later move goes where the table's screen says it
        # (args.tell, set by play_table while it runs), else it is printed.
        args.tell = told.append
        adverts[0].move("10.33.0.22")
        args.tell = None
        adverts[0].move("10.33.0.23")
        return before, after

    before, after = asyncio.run(asyncio.wait_for(evening(), 30))
    port = adverts[0].advert.port
    assert before.splitlines()[0] == " lancards · your table, waiting for players"
    assert f"advertised at 10.33.0.11, fe80::11%eth0 port {port}" in before
    lines = after.splitlines()
    assert lines[0] == " lancards · your table, waiting for players"  # the title stays
    assert "10.33.0.11" not in after and "fe80::11" not in after, after
    table = adverts[0].advert.table
    assert f"     lancards join --game level8-master {table}@10.33.0.21:{port}" in lines
    assert f" advertised at 10.33.0.21, fe80::21%eth0 port {port}" in lines
    assert f"{MOVED} {port}" in " ".join(after.split()), after  # wrapped at 80 columns
    assert told == [f"this machine's addresses changed: advertised at 10.33.0.22 port {port}"]
    out = capsys.readouterr().out
    assert out == f"this machine's addresses changed: advertised at 10.33.0.23 port {port}\n"


def test_the_table_says_it_in_its_log_and_prints_nothing(tmp_path: Path,
                                                         capsys: Any) -> None:
    from lancards.cli.net_session import NetworkSession
    from lancards.cli.tui.app import TableScreen

    term = PyteTerminal(100, 30)

    async def table() -> tuple[str, str]:
        me = Identity(b"\x09" * 32, "Ann")
        session = await NetworkSession.create("eights", {}, me, 2, home=tmp_path,
                                              bot_delay=10, seed=7)  # the log stays still
        running = asyncio.create_task(session.run())
        try:
            with create_pipe_input() as pipe:
                screen = TableScreen(session, input=pipe, output=output_of(term, 100, 30))
                shown = asyncio.create_task(screen.run())
                try:
                    await until(lambda: screen.app.render_counter > 0, "the table", term)
                    before = term.text()
                    session.tell(f"{MOVED} 4143")
                    await until(lambda: MOVED in term.text(), "the line in the log", term)
                    return before, term.text()
                finally:
                    with contextlib.suppress(Exception):
                        screen.app.exit(result=1)
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(shown, 5)
        finally:
            await close_session(session, running)

    before, after = asyncio.run(asyncio.wait_for(table(), 40))
    rows = after.splitlines()
    assert MOVED not in rows[0] and rows[0].strip() and before.strip()  # the table's top row
    assert any(MOVED in row for row in rows[1:]), after  # in the log
    assert capsys.readouterr().out == ""


def test_the_join_command_looks_on_loopback_when_the_table_is_only_there() -> None:
    """The trial of 2026-12-06: a host with ``--interface 127.0.0.1`` told the others to run a
    bare ``lancards join``, which looks on every interface but loopback and never finds it.
    And the table line names the game by its title, not its id (``eights``)."""
    me = Identity(b"\x07" * 32, "hana")
    table = "0123456789abcdef"
    loop = TableAdvert(table, "eights", 2, "hana", me.public_key, 35923, ("127.0.0.1",), 3)
    lines = host_module.intro_lines(loop, me, 3)
    assert lines[0] == f"table {table} · 8s Rule! · 3 seats"
    assert lines[2:5] == ["on this network the others run:",
                          "    lancards join --interface 127.0.0.1",
                          "  or, where the network blocks mDNS:"]
    assert lines[5] == f"    lancards join --game eights {table}@127.0.0.1:35923"
    lan = replace(loop, addresses=("10.33.0.21", "127.0.0.1"))
    assert host_module.intro_lines(lan, me, 3)[3] == "    lancards join"
    assert host_module.intro_lines(replace(loop, addresses=("::1",)), me, 3)[3] == \
        "    lancards join --interface ::1"
