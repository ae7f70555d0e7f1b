"""The games' names as people say them, one table for every screen and help text (names of
games: never translated)."""

from __future__ import annotations

GAME_TITLES = {"level8-master": "Level 8 Master", "level8": "Level 8",
               "level8-en": "Level 8 (English)", "eights": "8s Rule!"}
"""Rule-set name -> the game's name (``engine.rulesets``)."""


def game_title(name: str) -> str:
    """The game's name for rule set ``name`` (``name`` itself for one not in the table)."""
    return GAME_TITLES.get(name, name)


def game_choices(names: list[str]) -> str:
    """``"eights = 8s Rule!, level8 = Level 8, ..."``: each rule-set name of ``names`` with
    the game's name (for ``--game`` in a help text)."""
    return ", ".join(f"{n} = {GAME_TITLES[n]}" if n in GAME_TITLES else n for n in names)


__all__ = ["GAME_TITLES", "game_choices", "game_title"]
