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
     " l auslegen · a anlegen · x ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · "
     "h Tipp"),
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
