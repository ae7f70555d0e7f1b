"""The message line's "your move is pending" goes the moment the move can be made (the LAN trial
of 2026-12-07: a host's draw waited for the shares of root, who paused; root resumed, the draw
went through and the host held 11 cards, but its bottom line still said ``your move is pending:
waiting for root, who paused (shares for your draw), 1 s`` seconds later and after a key)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.peer_words import waiting_words
from lancards.engine.level8.state import Phase
from lancards.p2p.net.waiting import DRAW_SHARES, Waiting
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

PAUSED_ROOT = Waiting(1, "root", "shares for your draw", 1.2, False, True, DRAW_SHARES)
"""What the table waits for: root, who paused (Ctrl-C), owes its shares for Ann's draw."""


class _DrawAwaitsRoot(LocalSession):
    """Ann's draw as a networked seat sees it while root, who paused, owes its shares: the draw
    is played, but its card stays hidden (one pending, no move yet) and the table waits for
    root (``extra["waiting"]``, as :class:`~lancards.cli.net_session.NetworkSession` says it)
    until :meth:`shares_arrive`."""

    def __init__(self, game: str, hands: list[list[str]]) -> None:
        state = build(game, hands, turn=0, phase=Phase.DRAW)
        super().__init__(game, names=("Ann", "root", "Bram"), state=state, bot_delay=60)
        self.shares_due = True

    def snapshot(self) -> Any:
        snap = super().snapshot()
        if not self.shares_due or snap.view.phase is Phase.DRAW:
            return snap
        return replace(snap, legal=(), log=snap.log[:-1],  # the card is not told yet
                       extra={**snap.extra, "pending": 1,
                                             "waiting": waiting_words(PAUSED_ROOT, True, 120)})

    def shares_arrive(self) -> None:
        """root is back and its shares for the draw arrive: the card is Ann's."""
        self.shares_due = False
        self._changed()


def _bottom(text: str) -> list[str]:
    return [row.rstrip() for row in text.splitlines()[-2:]]


@pytest.mark.parametrize(("lang", "pending", "keys"), [
    ("en", " your move is pending: waiting for root, who paused (shares for your draw), 1 s",
     " l lay down · a add · x discard · p special · m moves · ? keys · q quit · h hint · o goal"),
    ("de", " dein Zug wartet: wartet auf root, pausiert (Anteile für deine gezogene Karte), 1 s",
     " l/a/x aus-/an-/ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · h Tipp · "
     "o Ziel"),
])
def test_the_pending_line_goes_once_the_paused_players_shares_arrive(
        lang: str, pending: str, keys: str) -> None:
    from lancards.cli.i18n import set_language

    set_language(lang)
    try:
        session = _DrawAwaitsRoot("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]])
        with driven(session, 100, 30) as d:
            d.press("d")  # the draw is sent; its card waits for root's shares
            screen = d.press("d")  # nothing happens yet: the line says why
            assert _bottom(screen)[0] == pending
            session.shares_arrive()  # root is back: the draw goes through
            d.settle(lambda: pending.strip() not in d.text())
            assert _bottom(d.text()) == ["", keys]
            assert len(session.snapshot().legal) > 0  # the turn goes on
    finally:
        set_language("en")


class _RootCountsOn(_DrawAwaitsRoot):
    """As :class:`_DrawAwaitsRoot`, with root 2 paused for :attr:`seconds` (the table's clock,
    which the test moves on)."""

    seconds = 3.0

    def snapshot(self) -> Any:
        snap = super().snapshot()
        if "waiting" not in snap.extra:
            return snap
        wait = replace(PAUSED_ROOT, nick="root 2", seconds=self.seconds)
        return replace(snap, extra={**snap.extra, "waiting": waiting_words(wait, True, 120)})


@pytest.mark.parametrize(("lang", "first", "later"), [
    ("en", [" your move is pending: waiting for root 2, who paused (shares for your draw),",
            "   3 s"],
     [" your move is pending: waiting for root 2, who paused (shares for your draw),",
      "   14 s"]),
    ("de", [" dein Zug wartet: wartet auf root 2, pausiert (Anteile für deine gezogene",
            "   Karte), 3 s"],
     [" dein Zug wartet: wartet auf root 2, pausiert (Anteile für deine gezogene",
      "   Karte), 14 s"]),
])
def test_at_80_columns_the_pending_line_keeps_its_seconds_whole_and_counts_on(
        lang: str, first: list[str], later: list[str]) -> None:
    """The re-check trial of 2026-12-07 read ``..., 3`` then ``   s`` at 80 columns, and the
    seconds stayed at the key's moment while the WAITING line counted on."""
    from lancards.cli.i18n import set_language

    set_language(lang)
    try:
        session = _RootCountsOn("level8-master", [["R3", "O7"], ["Y1", "Y2"], ["G2", "G3"]])
        with driven(session, 80, 30) as d:
            d.press("d")  # the draw is sent; its card waits for root 2's shares
            screen = d.press("d")  # nothing happens yet: the line says why
            assert [row.rstrip() for row in screen.splitlines()[-3:-1]] == first
            session.seconds = 14.2  # the table waited on: the line's seconds count on
            session._changed()
            d.settle(lambda: "14 s" in d.text())
            assert [row.rstrip() for row in d.text().splitlines()[-3:-1]] == later
    finally:
        set_language("en")
