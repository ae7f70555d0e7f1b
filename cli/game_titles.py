"""The games' names as people say them, one table for every screen and help text (names of
games: never translated; the word that tells Level 8's editions apart is: a German screen reads
``Level 8 (englisch)`` where an English one reads ``Level 8 (English)``, as short, so the
lobby's game column and the 80-column lines hold it as they hold the English; the re-check
trial of issue 26 read English words in German lines)."""

from __future__ import annotations

from lancards.cli.i18n import N_, _

GAME_TITLES = {"level8-master": "Level 8 Master", "level8": "Level 8",
               "level8-en": N_("Level 8 (English)"), "eights": "8s Rule!"}
"""Rule-set name -> the game's name (``engine.rulesets``), in English: shown through
:func:`game_title`, in the language of the screen."""


def game_title(name: str) -> str:
    """The game's name for rule set ``name`` in the language shown (``name`` itself for one not
    in the table)."""
    title = GAME_TITLES.get(name)
    return _(title) if title is not None else name


def game_choices(names: list[str]) -> str:
    """``"eights = 8s Rule!, level8 = Level 8, ..."``: each rule-set name of ``names`` with
    the game's name (for ``--game`` in a help text)."""
    return ", ".join(f"{n} = {game_title(n)}" if n in GAME_TITLES else n for n in names)


__all__ = ["GAME_TITLES", "game_choices", "game_title"]
