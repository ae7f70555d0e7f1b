"""A join the host refuses (issue 25, item 5): the host says why (``table.refused``), the
joiner's screen says it in words at once (not a 15 s timeout), and the host's waiting screen
says in words whom it refused, with no protocol line. Host and joiner in one process on
127.0.0.1; the mDNS advert is replaced by a stand-in (nothing is multicast)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from lancards.cli.lobby import host as host_module
from lancards.cli.lobby.common import HostGone, join_table
from lancards.p2p.protocol.identity import Identity
from tests.cli.advert_stand_in import StandIn, advertise

pytestmark = pytest.mark.timeout(60)



@pytest.fixture
def no_mdns(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(host_module, "_advertise", advertise)
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "ann"))


@pytest.mark.parametrize("game,table,words,host_words", [
    ("eights", None, "refused this join: its table plays Level 8 Master, not 8s Rule! "
     "(lancards join --game level8-master joins it)", "it asked for another game"),
    ("level8-master", "ffffffffffffffff", "refused this join: it hosts another table (the "
     "table id given is mistyped, or an old one)",
     "it asked for another table id (mistyped, or an old one)"),
])
def test_the_joiner_hears_why_and_the_host_says_it_in_words(
        no_mdns: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any,
        game: str, table: str | None, words: str, host_words: str) -> None:
    screens: list[list[str]] = []

    async def evening() -> tuple[str, float]:
        args = argparse.Namespace(game="level8-master", option=[], players=3, bots=0,
                                  name="ann", interface=["127.0.0.1"], port=0, autoplay=False,
                                  record=None)
        hosting = asyncio.ensure_future(host_module.host_table(args, say=screens.append))
        try:
            while not screens:
                if hosting.done():
                    hosting.result()  # raises what stopped the host
                await asyncio.sleep(0.02)
            target = next(line for line in screens[0] if "@127.0.0.1:" in line).split()[-1]
            table_id, address = target.split("@")
            port = int(address.rsplit(":", 1)[1])
            from lancards.cli.identity import player_identity

            host_key = player_identity("ann").public_key
            monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "bob"))
            joining = argparse.Namespace(interface=None, listen_host="127.0.0.1")
            start = asyncio.get_running_loop().time()
            asked: list[tuple[str, bool]] = []

            async def host_gone(text: str, can_wait: bool) -> str:
                asked.append((text, can_wait))
                return "q"

            with pytest.raises(HostGone) as info:
                await join_table(joining, Identity.generate("bob"), table or table_id,
                                 host_key, "127.0.0.1", port, game, host_gone=host_gone)
            took = asyncio.get_running_loop().time() - start
            assert asked == [(str(info.value), False)]  # asked on the screen: rejoin or quit
            for _ in range(100):
                if any(host_words in line for line in screens[-1]):
                    break
                await asyncio.sleep(0.02)
            return str(info.value), took
        finally:
            hosting.cancel()
            with contextlib.suppress(BaseException):
                await hosting

    said, took = asyncio.run(evening())
    assert said.startswith("the host [") and words in said, said  # its key fingerprint
    assert took < 5.0
    assert any(line.startswith("refused bob [") and line.endswith(host_words)
               for line in screens[-1]), screens[-1]
    err = capsys.readouterr().err
    assert "rejected" not in err and "table-rules" not in err and "wrong-table" not in err


def test_a_seat_freed_after_a_crash_is_advertised_free_again(
        no_mdns: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25, item 7: the host frees a crashed joiner's seat after the grace period and
    every lobby then shows it free (the advert follows), not "2/3 ann, bob"."""
    from lancards.p2p.protocol.table import Lobby

    monkeypatch.setattr(host_module, "LOBBY_GRACE_S", 0.5)
    screens: list[list[str]] = []
    adverts: list[StandIn] = []
    advertise = host_module._advertise

    async def keep(*args: Any) -> StandIn:
        adverts.append(await advertise(*args))
        return adverts[-1]

    monkeypatch.setattr(host_module, "_advertise", keep)

    async def until(condition: Any, what: str) -> None:
        for _ in range(500):
            if condition():
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}: {screens[-1:]} {adverts}")

    async def evening() -> None:
        args = argparse.Namespace(game="level8-master", option=[], players=3, bots=0,
                                  name="ann", interface=["127.0.0.1"], port=0, autoplay=False,
                                  record=None)
        hosting = asyncio.ensure_future(host_module.host_table(args, say=screens.append))
        joining: asyncio.Future[Any] | None = None
        try:
            await until(lambda: screens, "the host's screen")
            target = next(line for line in screens[0] if "@127.0.0.1:" in line).split()[-1]
            table_id, address = target.split("@")
            from lancards.cli.identity import player_identity

            host_key = player_identity("ann").public_key
            monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "bob"))
            joining = asyncio.ensure_future(join_table(
                argparse.Namespace(interface=None, listen_host="127.0.0.1"),
                Identity.generate("bob"), table_id, host_key, "127.0.0.1",
                int(address.rsplit(":", 1)[1]), "level8-master"))
            await until(lambda: sorted(adverts[0].advert.players) == ["ann", "bob"],
                        "bob advertised")  # in seat order
            assert adverts[0].advert.free_seats == 1
            monkeypatch.setattr(Lobby, "leave", lambda self: [])  # a crash says no goodbye
            joining.cancel()
            with contextlib.suppress(BaseException):
                await joining
            await until(lambda: adverts[0].advert.players == ("ann",), "the seat advertised free")
            assert adverts[0].advert.free_seats == 2
            await until(lambda: any(line.startswith("freed the seat of bob [")
                                    for line in screens[-1]), "the host's note")
        finally:
            hosting.cancel()
            with contextlib.suppress(BaseException):
                await hosting

    asyncio.run(evening())


def test_the_hosts_waiting_screen_keeps_every_line_within_80_columns(
        no_mdns: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25, item 14: the table line and the host's fingerprint are two lines (together
    they took 81 columns with a 16-character table id and a nickname of 8)."""
    from lancards.cli.tui.width import text_width

    screens: list[list[str]] = []

    async def evening() -> None:
        args = argparse.Namespace(game="level8-master", option=[], players=3, bots=0,
                                  name="annabell", interface=["127.0.0.1"], port=0,
                                  autoplay=False, record=None)
        hosting = asyncio.ensure_future(host_module.host_table(args, say=screens.append))
        try:
            while not screens:
                if hosting.done():
                    hosting.result()
                await asyncio.sleep(0.02)
        finally:
            hosting.cancel()
            with contextlib.suppress(BaseException):
                await hosting

    asyncio.run(evening())
    assert screens[0][1].startswith("host annabell [") and screens[0][0].endswith("3 seats")
    assert all(text_width(line) <= 78 for line in screens[0]), screens[0]  # " line" at 80


def test_a_message_the_guest_refuses_is_said_in_words_on_its_screen(
        no_mdns: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    """The guest's waiting screen, like the host's, never shows a protocol line: a refused
    message is one line in words (here the host's first roster, refused by a stand-in)."""
    from lancards.p2p.protocol.errors import Reason, TableError
    from lancards.p2p.protocol.table import Lobby

    refuse = [True]
    on_roster = Lobby._on_roster

    def picky(self: Lobby, env: Any, who: str) -> Any:
        if refuse[0] and not self.is_host:
            refuse[0] = False
            raise TableError(who, Reason.TABLE_RULES, "a stand-in refusal")
        return on_roster(self, env, who)

    monkeypatch.setattr(Lobby, "_on_roster", picky)
    guest_screens: list[list[str]] = []

    async def evening() -> None:
        args = argparse.Namespace(game="level8-master", option=[], players=3, bots=0,
                                  name="ann", interface=["127.0.0.1"], port=0, autoplay=False,
                                  record=None)
        screens: list[list[str]] = []
        hosting = asyncio.ensure_future(host_module.host_table(args, say=screens.append))
        joining: Any = None
        try:
            while not screens:
                await asyncio.sleep(0.02)
            target = next(line for line in screens[0] if "@127.0.0.1:" in line).split()[-1]
            table_id, address = target.split("@")
            from lancards.cli.identity import player_identity

            host_key = player_identity("ann").public_key
            monkeypatch.setenv("LANCARDS_HOME", str(tmp_path / "bob"))
            joining = asyncio.ensure_future(join_table(
                argparse.Namespace(interface=None, listen_host="127.0.0.1"),
                Identity.generate("bob"), table_id, host_key, "127.0.0.1",
                int(address.rsplit(":", 1)[1]), "level8-master", say=guest_screens.append))
            for _ in range(500):
                if any("ignored a message" in line for s in guest_screens for line in s):
                    break
                await asyncio.sleep(0.02)
        finally:
            for task in (joining, hosting):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task

    asyncio.run(evening())
    said = [line for s in guest_screens for line in s if "ignored a message" in line]
    assert said and said[0].startswith("ignored a message from [") and \
        said[0].endswith("it does not follow the table's rules"), guest_screens[-1:]
    assert "rejected" not in capsys.readouterr().err
