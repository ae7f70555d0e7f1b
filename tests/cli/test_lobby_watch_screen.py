"""The lobby's ``w`` on a started table opens the watch on the full screen in a terminal, as
``lancards watch`` does (the LAN trial of 2026-12-08, h1: the lobby handed the table to the
watcher in its plain mode, and the terminal scrolled one line per move with no table, no
players and no hands). Without a terminal there is no lobby (``join`` says so)."""

from __future__ import annotations

from typing import Any

from lancards.cli.lobby import join as join_module
from lancards.cli.main import main


def test_w_in_the_lobby_watches_on_the_full_screen_in_a_terminal(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    target = join_module.WatchTarget("0123456789abcdef", b"\x01" * 32, "10.241.0.11", 4242)
    asked: list[Any] = []

    async def lobby_choice(args: Any, me: Any) -> Any:
        return target

    async def watch_at(*where: Any, **kw: Any) -> int:
        asked.append((where, kw))
        return 0

    monkeypatch.setattr(join_module, "lobby_choice", lobby_choice)
    monkeypatch.setattr("lancards.cli.lobby.watch_table.watch_at", watch_at)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["join", "--name", "eve"]) == 0
    assert asked == [(tuple(target), {"record": None, "screen": True})]
