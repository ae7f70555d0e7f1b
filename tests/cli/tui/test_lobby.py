"""The lobby: tables listed with seats counted right, a full table refused with the reason,
the full fingerprint before joining, two tables with one id both shown and marked, join,
address."""

from __future__ import annotations

import asyncio
import contextlib

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from lancards.cli.tui.lobby import LobbyScreen, TableEntry, entries_from, entry_from
from lancards.p2p.net.discovery import TableAdvert
from lancards.p2p.protocol.identity import fingerprint
from tests.cli.tui.harness import KEYS, PyteTerminal

ANN, CAT, MAL = bytes(range(32)), bytes(range(1, 33)), bytes(range(2, 34))
TABLES = [
    entry_from(TableAdvert("00112233aabbccdd", "level8-master", 2, "Ann", ANN, 48100,
                           ("192.0.2.7",), 4, ("Ann", "Ben")), "192.0.2.7"),
    entry_from(TableAdvert("0011223344556677", "eights", 0, "Cat", CAT, 48100,
                           ("192.0.2.8",), 3, ("Cat", "Dov", "Eli")), "192.0.2.8"),
]


def drive(keys: list[str], tables: list[TableEntry] = TABLES,
          ) -> tuple[str | None, list[object], str]:
    chosen: list[object] = []
    first: list[str] = []
    term = PyteTerminal(100, 30)

    async def main() -> tuple[str | None, str]:
        with create_pipe_input() as pipe:
            output = Vt100_Output(term, lambda: Size(rows=30, columns=100),  # type: ignore[arg-type]
                                  enable_cpr=False)
            lobby = LobbyScreen(tables, "Zoe 0badf0", chosen.append,
                                lambda *what: chosen.append(("create", *what)),
                                chosen.append,
                                input=pipe, output=output,
                                on_watch=lambda entry: chosen.append(("watch", entry)))
            task = asyncio.ensure_future(lobby.run())
            await asyncio.sleep(0.1)
            first.append(term.text())
            for key in keys:
                pipe.send_text(KEYS.get(key, key))
                await asyncio.sleep(0.08)
            screen = term.text()
            if not task.done():
                # The keys may have made the lobby exit already (its result is set but the
                # task has not finished yet): then this exit is refused, harmlessly.
                with contextlib.suppress(Exception):
                    lobby.app.exit(result=None)
            return await task, screen

    result, screen = asyncio.run(main())
    return result, chosen, first[0] if result in ("join", "manual", "watch") else screen


def test_lists_tables_and_joins_the_selected_one():
    result, chosen, screen = drive(["enter"])
    assert "you are Zoe 0badf0" in term_line(screen, "lancards lobby")
    assert "Level 8 Master" in screen and "2/4" in screen and "full" in screen
    assert result == "join" and chosen == [TABLES[0]]


def test_a_full_table_is_refused_with_the_reason():
    result, chosen, screen = drive(["down", "enter"])
    assert f"the table of Cat [{fingerprint(CAT)}] has no free seat" in screen
    assert result is None and chosen == []


def test_a_typed_address_is_checked_then_used():
    result, chosen, screen = drive(["a", *"nonsense", "enter"])
    assert "'nonsense' is not TABLE-ID@HOST:PORT" in screen
    result, chosen, _ = drive(["a", *"192.0.2.9:48100", "enter"])  # no table id: refused
    assert result is None and chosen == []
    result, chosen, _ = drive(["a", *"00112233aabbccdd@192.0.2.9:48100", "enter"])
    assert result == "manual" and chosen == ["00112233aabbccdd@192.0.2.9:48100"]


def test_seats_count_the_host_and_list_its_name():
    # A 2-seat table whose host is seated: 1 free seat, the host's name listed.
    advert = TableAdvert("00112233aabbccdd", "level8", 1, "Ann", ANN, 48100, ("192.0.2.7",),
                         2, ("Ann",))
    entry = entry_from(advert, "192.0.2.7")
    assert (entry.taken, entry.seats, entry.players, entry.joinable) == (1, 2, ("Ann",), True)
    _, _, screen = drive([], [entry])
    row = term_line(screen, "Level 8 ")
    assert "1/2" in row and " Ann " in row and "192.0.2.7:48100" in row
    assert f"host Ann [{fingerprint(ANN)}], table 00112233aabbccdd at 192.0.2.7:48100" in screen


def test_an_ipv6_address_is_bracketed():
    advert = TableAdvert("00112233aabbccdd", "level8", 1, "Ann", ANN, 48100,
                         ("fe80::1%eth0",), 2, ("Ann",))
    assert entry_from(advert, "fe80::1%eth0").address == "[fe80::1%eth0]:48100"


def test_two_tables_with_one_id_are_both_shown_and_marked():
    real = TableAdvert("00112233aabbccdd", "level8", 1, "Ann", ANN, 48100, ("192.0.2.7",),
                       2, ("Ann",))
    fake = TableAdvert("00112233aabbccdd", "level8", 1, "Ann", MAL, 48100, ("192.0.2.66",),
                       2, ("Ann",))
    other = TableAdvert("ffeeddccbbaa9988", "eights", 2, "Cat", CAT, 48100, ("192.0.2.8",),
                        3, ("Cat",))
    rows = entries_from({real.instance_name: (real, "192.0.2.7"),
                         fake.instance_name: (fake, "192.0.2.66"),
                         other.instance_name: (other, "192.0.2.8")})
    assert len({r.name for r in rows}) == 3
    assert [(r.table_id, r.duplicate) for r in rows] == [
        ("00112233aabbccdd", True), ("00112233aabbccdd", True), ("ffeeddccbbaa9988", False)]
    result, chosen, screen = drive(["down", "enter"], rows)
    lines = [line for line in screen.splitlines() if "Level 8 " in line and "Ann" in line]
    assert len(lines) == 2 and all(line.lstrip(" >").startswith("!") for line in lines)
    assert "! two tables use the id 00112233aabbccdd: compare the fingerprint" in screen
    # The second row was selected, its full fingerprint shown, and it is the one joined.
    assert result == "join" and chosen == [rows[1]]
    shown = [fingerprint(ANN), fingerprint(MAL)]
    assert rows[1].fingerprint in shown


def term_line(screen: str, marker: str) -> str:
    return next(line for line in screen.splitlines() if marker in line)


def test_a_table_with_rescue_on_shows_its_trade_off():
    rescued = entry_from(TableAdvert("00112233aabbccdd", "level8", 2, "Ann", ANN, 48100,
                                     ("192.0.2.7",), 4, ("Ann", "Ben"), rescue=True),
                         "192.0.2.7")
    _result, _chosen, screen = drive([], [rescued, TABLES[1]])
    assert ("rescue on: a player who vanishes can be voted out by all the others, but all the "
            "other players together could open one player's hand") in " ".join(screen.split())
    _result, _chosen, screen = drive(["down"], [rescued, TABLES[1]])
    assert "rescue on" not in screen  # the selected table (Cat's) has it off


def test_a_rescue_table_where_any_removal_ends_the_game_says_so():
    """The LAN trial's 8s Rule! table of 3: a removal ended the game, unwarned; a Level 8 table
    of 4 goes on after one."""
    three = entry_from(TableAdvert("00112233aabbccdd", "eights", 2, "Ann", ANN, 48100,
                                   ("192.0.2.7",), 3, ("Ann",), rescue=True), "192.0.2.7")
    four = entry_from(TableAdvert("0011223344556688", "level8", 2, "Ben", CAT, 48100,
                                  ("192.0.2.8",), 4, ("Ben", "Ada"), rescue=True), "192.0.2.8")
    ends = "at this table a removal ends the game at once: too few players are left to play on"
    _result, _chosen, screen = drive([], [three, four])
    assert ends in " ".join(screen.split())
    _result, _chosen, screen = drive(["down"], [three, four])
    assert "rescue on: a player" in screen and "ends the game" not in screen


def test_a_partners_table_of_four_says_any_removal_ends_the_game():
    """Its advert says partners=on: the lobby warns as the host's screen does (a team cannot
    play on without one of its players)."""
    teams = entry_from(TableAdvert("00112233aabbccdd", "eights", 3, "Ann", ANN, 48100,
                                   ("192.0.2.7",), 4, ("Ann",), rescue=True, partners=True),
                       "192.0.2.7")
    _result, _chosen, screen = drive([], [teams])
    assert ("at this table a removal ends the game at once: a team cannot play on without one "
            "of its players") in " ".join(screen.split())


def test_at_80_columns_no_lobby_line_is_cut() -> None:
    """Issue 25, item 14: the address column stands only where it fits (the line under the
    list names the selected table's address), and long lines wrap."""
    term = PyteTerminal(80, 24)

    async def main() -> None:
        with create_pipe_input() as pipe:
            output = Vt100_Output(term, lambda: Size(rows=24, columns=80),  # type: ignore[arg-type]
                                  enable_cpr=False)
            lobby = LobbyScreen(TABLES, "Zoe 0badf0", lambda _: None, lambda: None,
                                lambda _: None, input=pipe, output=output)
            task = asyncio.ensure_future(lobby.run())
            await asyncio.sleep(0.2)
            lobby.app.exit(result=None)
            await task

    asyncio.run(main())
    screen = term.text()
    assert "address" not in term_line(screen, "game") and "192.0.2.7:48100" in screen
    assert "table 00112233aabbccdd at 192.0.2.7:48100" in " ".join(screen.split())
    row = next(line for line in screen.splitlines() if "Level 8 Master" in line)
    assert row.rstrip().endswith("Ann, Ben"), row


def test_n_asks_the_game_and_the_seats_before_it_creates_a_table() -> None:
    """Issue 25, item 14: ``n`` created a 4-seat Level 8 Master table at once."""
    result, chosen, screen = drive(["n"])
    assert "create a table: which game? 1 Level 8 Master" in " ".join(screen.split())
    assert result is None and chosen == []
    result, chosen, screen = drive(["n", "4", "2"])  # 8s Rule! is for 3 to 6 players
    assert "how many seats, yours counted? 3 to 6" in " ".join(screen.split())
    assert result is None and chosen == []
    result, chosen, _ = drive(["n", "4", "3"])
    assert result == "create" and chosen == [("create", "eights", 3)]
    result, chosen, screen = drive(["n", "escape", "enter"])  # back to the list: Enter joins
    assert result == "join" and chosen == [TABLES[0]]


STARTED = entry_from(TableAdvert("8899aabbccddeeff", "eights", 0, "Cat", CAT, 48100,
                                 ("192.0.2.8",), 3, ("Cat", "Dov", "Eli"), started=True),
                     "192.0.2.8")


def test_a_started_table_is_listed_to_watch_and_w_watches_it() -> None:
    result, chosen, screen = drive(["down", "down", "enter"], [*TABLES, STARTED])
    row = term_line(screen, " watch ")
    assert row.startswith(" > ") and "Cat, Dov, Eli" in row  # the selected, third row
    assert f"the table of Cat [{fingerprint(CAT)}] has started: w watches it" in screen
    assert "its game has started: w watches it (no seat, public cards only)" in screen
    assert "Up/Down select · w watch · n create a table" in screen
    assert result is None and chosen == []
    result, chosen, _screen = drive(["down", "down", "w"], [*TABLES, STARTED])
    assert result == "watch" and chosen == [("watch", STARTED)]


def test_w_on_a_table_not_started_says_what_it_does() -> None:
    result, chosen, screen = drive(["w"])
    assert "w watches a table whose game has started (listed as watch)" in screen
    assert result is None and chosen == []
