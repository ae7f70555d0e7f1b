"""A seat that plays on its own after a host/join game (a host's ``--bots`` seat, a ``join
--autoplay --games N`` seat) sends its last answer before its links close when the agreement
failed on it (``_again`` in ``cli/lobby/started_table.py``). The trial of 2026-12-08 (h9): ann
chose Level 8 Master by number, bob pressed ``a`` (8s Rule! again); the host's bot Ada answered
8s Rule!, which ended the agreement on her seat at once, and her process closed her links with
the answer unsent: ann's and bob's panels said ``waiting for Ada`` for ever."""

from __future__ import annotations

import argparse
import asyncio
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from lancards.cli import remote_again
from lancards.cli.lobby.started_table import _again


class FakeAgain:
    """The agreement of a seat whose own "yes" showed the players chose different games."""

    made: ClassVar[list[FakeAgain]] = []

    def __init__(self, node: Any, *, bot: bool, host_said_no: Any = None) -> None:
        self.rematch = SimpleNamespace(possible=lambda: True, failed="games differ")
        self.events: list[str] = []
        self.link = SimpleNamespace(run=self._run)
        FakeAgain.made.append(self)

    async def _run(self, wait: float) -> None:
        self.events.append("answered; the agreement failed here")

    async def flush(self, limit: float = 2.0) -> None:
        self.events.append("flushed")

    def follow_host(self) -> None:
        self.events.append("followed the host's no")

    def refusal_lines(self) -> list[dict[str, list[str]]]:
        return []

    def started(self) -> None:
        return None

    def no_game_words(self) -> str:
        return "the players chose different games"


@pytest.mark.parametrize("host_gone", [None, "a host's bot seat"])
def test_the_answer_that_ended_the_agreement_leaves_before_the_links_close(
        monkeypatch: pytest.MonkeyPatch, host_gone: str | None) -> None:
    monkeypatch.setattr(remote_again, "RemoteAgain", FakeAgain)
    FakeAgain.made.clear()
    closed: list[list[str]] = []

    async def close() -> None:
        closed.append(list(FakeAgain.made[0].events))

    args = argparse.Namespace(games=2)
    if host_gone is not None:
        from lancards.cli.lobby.host_bots import HostGone
        args.host_gone, args.bot_seed = HostGone(), "00"
    node = SimpleNamespace(close=close)
    assert asyncio.run(_again(node, args, True, 0)) == 0  # type: ignore[arg-type]
    assert closed == [["answered; the agreement failed here", "flushed"]]
