"""The lobby skeleton: tables listed, a full table refused with the reason, join, address."""

from __future__ import annotations

import asyncio
import contextlib

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from lancards.cli.tui.lobby import LobbyScreen, TableEntry
from tests.cli.tui.harness import KEYS, PyteTerminal

TABLES = [
    TableEntry("t1", "level8-master", "Ann 3f2a9c", "192.0.2.7:48100", 4, ("Ann", "Ben"),),
    TableEntry("t2", "eights", "Cat 77e01b", "192.0.2.8:48100", 3, ("Cat", "Dov", "Eli")),
]


def drive(keys: list[str]) -> tuple[str | None, list[object], str]:
    chosen: list[object] = []
    first: list[str] = []
    term = PyteTerminal(100, 30)

    async def main() -> tuple[str | None, str]:
        with create_pipe_input() as pipe:
            output = Vt100_Output(term, lambda: Size(rows=30, columns=100),  # type: ignore[arg-type]
                                  enable_cpr=False)
            lobby = LobbyScreen(TABLES, "Zoe 0badf0", chosen.append,
                                lambda: chosen.append("create"), chosen.append,
                                input=pipe, output=output)
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
    return result, chosen, first[0] if result in ("join", "manual") else screen


def test_lists_tables_and_joins_the_selected_one():
    result, chosen, screen = drive(["enter"])
    assert "you are Zoe 0badf0" in term_line(screen, "lancards lobby")
    assert "level8-master" in screen and "2/4" in screen and "full" in screen
    assert result == "join" and chosen == [TABLES[0]]


def test_a_full_table_is_refused_with_the_reason():
    result, chosen, screen = drive(["down", "enter"])
    assert "the table of Cat 77e01b has no free seat" in screen
    assert result is None and chosen == []


def test_a_typed_address_is_checked_then_used():
    result, chosen, screen = drive(["a", *"nonsense", "enter"])
    assert "'nonsense' is not HOST:PORT" in screen
    result, chosen, _ = drive(["a", *"192.0.2.9:48100", "enter"])
    assert result == "manual" and chosen == ["192.0.2.9:48100"]


def term_line(screen: str, marker: str) -> str:
    return next(line for line in screen.splitlines() if marker in line)
