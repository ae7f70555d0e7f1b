"""A LAN trial: while another player chose cards to keep (Level 8 Master's round end), a player
who could keep nothing read ``you keep: nothing yet (up to 0 cards)`` (German ``du behältst:
noch nichts (bis zu 0 Karten)``) over the hand. The "you keep" part is said only to a player
who may keep a card (ruling L8-13)."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase

NAMES = ("Tess", "Ada", "Bram")


def _hand_header(seat: int, language: str) -> str:
    """The hand's header as ``seat``'s table draws it while Tess (level 5: up to 4 cards)
    chooses the cards to keep."""
    state = build("level8-master", [["R1", "R2", "R5", "B7", "G9"], ["O1", "O4"], ["Y1"]],
                  levels=(5, 3, 3), turn=1)
    state = state.evolve(phase=Phase.KEEP, keep_queue=(0,), kept=((), (), ()))
    session = LocalSession("level8-master", names=NAMES, seat=seat, state=state, bot_delay=60)
    i18n.set_language(language)
    try:
        view = Level8Controller(session).hand_view(session.snapshot(), 100)
    finally:
        i18n.set_language("en")
    return "".join(fragment[1] for fragment in view).splitlines()[0]


@pytest.mark.parametrize(("seat", "language", "header"), [
    (1, "en", " your hand (2 cards, by number; s sorts):"),
    (1, "de", " deine Hand (2 Karten, nach Zahl; s sortiert):"),
    (0, "en", " your hand (5 cards, by number; s sorts) · you keep: nothing yet (up to 4 cards)"),
    (0, "de", " deine Hand (5 Karten, nach Zahl; s sortiert) · du behältst: noch nichts "
              "(bis zu 4 Karten)"),
])
def test_you_keep_is_said_only_to_a_player_who_may_keep(seat: int, language: str,
                                                          header: str) -> None:
    assert _hand_header(seat, language) == header
