"""The documented level-card file example parses, and the `o` panel shows that card."""

from __future__ import annotations

import re
from pathlib import Path

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.levels import ComponentKind, parse_level_card
from tests.cli.tui.harness import driven

DOCS = Path(__file__).resolve().parents[3] / "docs"


def example() -> str:
    text = (DOCS / "rules-level8.md").read_text(encoding="utf-8")
    section = text.split("## The level-card file (option `level_cards`)", 1)[1]
    match = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert match, "no TOML example in the level-card section"
    return match.group(1)


def test_the_documented_level_card_example_parses():
    card = parse_level_card(example())
    assert card.name == "Back side, our house version"
    assert len(card.levels) == 8
    assert [(c.kind, c.size) for c in card.levels[1]] == [(ComponentKind.RUN, 5),
                                                          (ComponentKind.SET, 2)]


def test_the_o_key_shows_the_back_side_from_the_file():
    session = LocalSession("level8", {"sides": "back", "level_cards": example()},
                           names=("Ann", "Ben", "Cat"), seed=1, bot_delay=60)
    session.advance()
    with driven(session, 100, 30) as d:
        screen = d.press("o")
        assert "your level card (Back side, our house version):" in screen
        assert "level 2: run of 5 + pair" in screen
        assert "level 7: 8 of one colour" in screen
