"""Golden screen texts: the Level 8 table, the lay-down builder, the 8s Rule! table and the round
result panels, at 80x24 and 100x30, exactly as a person sees them (pyte, headless).

Every position comes from a seeded :class:`LocalSession` whose seats are all played by the bots
up to a chosen moment (then the player's seat is handed back to the keys), so the screens are
the same on every run. A change to the screens shows as a diff against the files in
``tests/cli/tui/golden/``. To accept new screens after a deliberate change, regenerate them and
read the diff before committing::

    LANCARDS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/cli/tui/test_golden_screens.py
    git diff tests/cli/tui/golden/
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import Driver, driven

GOLDEN = Path(__file__).parent / "golden"
SIZES = [(80, 24), (100, 30)]
NAMES = ("Tess", "Ada", "Bram", "Cleo")


def check(name: str, screen: str) -> None:
    """Compare ``screen`` with ``golden/NAME.txt`` (or write it under LANCARDS_REGEN_GOLDEN)."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("LANCARDS_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(screen + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with LANCARDS_REGEN_GOLDEN=1"
    assert screen + "\n" == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


def played_until(rule_set: str, seed: int, stop: Callable[[Any], bool],
                 limit: int = 5000) -> LocalSession:
    """A table of 4 whose every seat a bot plays until ``stop(state)``; then seat 0 is the
    player's (its bot removed). The bots wait 60 s, so nothing moves while a test looks."""
    session = LocalSession(rule_set, names=NAMES, seed=seed, bot_delay=60, autoplay=True)
    for _ in range(limit):
        if stop(session.state):
            break
        assert session.step(), "the game ended before the position"
    del session.bots[0]
    return session


def level8_mid_round(state: Any) -> bool:
    return (state.round == 3 and len(state.melds) >= 6 and state.turn == 0
            and state.phase is Phase.DRAW)


def level8_can_lay_down(state: Any) -> bool:
    from lancards.engine.level8 import LEVEL8
    from lancards.engine.level8.actions import LayDown

    if state.turn != 0 or state.phase is not Phase.PLAY or state.down[0]:
        return False
    return any(isinstance(a, LayDown) for a in LEVEL8.legal_actions(state, 0))


def eights_mid_trick(state: Any) -> bool:
    return state.round == 2 and len(state.trick_winners) == 4 and len(state.trick) == 2 \
        and state.turn == 0


def checked(d: Driver, columns: int, rows: int) -> str:
    screen = d.text()
    lines = screen.splitlines()
    assert len(lines) <= rows and all(len(line) <= columns for line in lines)
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden_level8_table(size: tuple[int, int]) -> None:
    session = played_until("level8-master", 5, level8_mid_round)
    with driven(session, *size) as d:
        screen = checked(d, *size)
        assert "YOUR TURN: draw a card" in screen
        assert "── round 3" in screen or "more above" in screen
        check(f"level8-table-{size[0]}x{size[1]}", screen)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden_level8_builder(size: tuple[int, int]) -> None:
    session = played_until("level8-master", 5, level8_can_lay_down)
    with driven(session, *size) as d:
        d.press("l")
        screen = d.press("tab")
        assert "offered lay-down 1 of" in screen and "valid: Enter lays it down" in screen
        check(f"level8-builder-{size[0]}x{size[1]}", checked(d, *size))


def test_golden_level8_builder_opened_shows_the_first_offer() -> None:
    """Just opened at 80x24, the builder shows the lay-down Tab loads first (a new user saw
    none of the engine's offers until pressing Tab), with the hand below it whole."""
    session = played_until("level8-master", 5, level8_can_lay_down)
    with driven(session, 80, 24) as d:
        screen = checked(d, 80, 24)
        screen = d.press("l")
        lines = screen.splitlines()
        assert "  Tab loads lay-down 1 of 12: O1 P1 | Y10 G10 | R7 J6-10=7 | R13 J11-15=13" in lines
        assert lines[lines.index(" your hand (11 cards, by number; s sorts):") + 1] == \
            " O1 P1 R7 G8 Y10 G10 G12 R13 J1-5 J6-10 J11-15"
        check("level8-builder-opened-80x24", checked(d, 80, 24))
        screen = d.press("tab", "tab", "u")  # cleared: the next one Tab loads
        assert "  Tab loads lay-down 3 of 12: " in screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden_eights_table(size: tuple[int, int]) -> None:
    session = played_until("eights", 5, eights_mid_trick)
    with driven(session, *size) as d:
        screen = checked(d, *size)
        assert "round 2 of 8" in screen and "YOUR TURN: play a card" in screen
        words = " ".join(screen.split())  # the objective wraps, in two rows at most: at 80
        # columns cut after a whole word with "…" (the new-user trial read three rows)
        end = "the round ends when none is left to take" if size[0] >= 100 else \
            "the round ends when…"
        assert f"R14 +5 each; R15 +15; {end} · lancards' own objectives · o lists them" in words \
            and "ruling" not in words
        assert screen.splitlines()[3].startswith("   # player")
        check(f"eights-table-{size[0]}x{size[1]}", screen)


def round_end_screen(rule_set: str, seed: int, ending: Callable[[Any], bool],
                     ended: Callable[[Any], bool], size: tuple[int, int],
                     over: str = "round 1 over") -> str:
    """The result panel of round 1, watched from a few moves before the round's end shows
    (``ending``: the last move was played) until it is reported (``ended``)."""
    probe = LocalSession(rule_set, names=NAMES, seed=seed, bot_delay=60, autoplay=True)
    steps = 0
    while not ending(probe.state):
        assert probe.step()
        steps += 1
    session = LocalSession(rule_set, names=NAMES, seed=seed, bot_delay=60, autoplay=True)
    for _ in range(steps - 6):
        session.step()
    with driven(session, *size) as d:
        while not ended(session.state):
            session.step()
        d.settle(lambda: over in d.text())
        return checked(d, *size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden_level8_round_result(size: tuple[int, int]) -> None:
    screen = round_end_screen("level8-master", 5, lambda s: s.levels != (1, 1, 1, 1),
                              lambda s: s.round >= 2, size)
    assert "round 1 over" in screen and "levels climbed" in screen
    check(f"level8-result-{size[0]}x{size[1]}", screen)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden_eights_round_result(size: tuple[int, int]) -> None:
    screen = round_end_screen("eights", 5, lambda s: len(s.results) >= 1,
                              lambda s: len(s.results) >= 1, size)
    assert "round 1 over" in screen and "totals by round" in screen
    check(f"eights-result-{size[0]}x{size[1]}", screen)


@pytest.mark.parametrize("name,seed,top", [
    ("show", 5, " Level 8 Master · round 1 · dealer Bram   YOUR TURN: show 3 cards for TAKE"),
    ("take", 4, " Level 8 Master · round 1 · dealer Ada   YOUR TURN: take a shown card or none"),
])
def test_golden_level8_take_and_show_keep_the_dealer_at_80_columns(name: str, seed: int,
                                                                   top: str) -> None:
    """At 80x24 the show phase's top line read ``YOUR TURN: show 3 cards for I'll take
    that!`` with no room for the dealer (German named the card already: ``3 Karten für TAKE
    zeigen``). Seed 5: Ada played TAKE, Tess shows; seed 4: Tess played TAKE and chooses."""
    with driven(take_phase(name, seed), 80, 24) as d:
        screen = checked(d, 80, 24)
        assert screen.splitlines()[0] == top
        check(f"level8-{name}-80x24", screen)


def take_phase(name: str, seed: int) -> Any:
    """A Level 8 Master table of ``seed`` played until Tess (seat 0) shows cards for "I'll
    take that!" (``name`` ``"show"``) or, having played TAKE, takes one (``"take"``)."""
    def stop(state: Any) -> bool:
        if name == "show":
            return state.phase is Phase.SHOW and 0 in state.show_queue
        return state.phase is Phase.CHOOSE and state.turn == 0

    return played_until("level8-master", seed, stop)
