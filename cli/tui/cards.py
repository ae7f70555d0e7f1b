"""How cards look on screen: the notation text plus a colour style.

Colour is never the only cue (issue 6): every card is written with its letter (``R7``, ``B15``),
so the screens read the same on a monochrome terminal and to a colour-blind player. Styles are
prompt-toolkit style strings.
"""

from __future__ import annotations

import re
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

COLOUR_STYLES: dict[str, str] = {
    "R": "fg:#ff5f5f bold",
    "O": "fg:#ffaf00 bold",
    "Y": "fg:#ffff5f bold",
    "G": "fg:#5fd75f bold",
    "B": "fg:#5fafff bold",
    "P": "fg:#d787ff bold",
}
"""One distinct style per colour letter (Level 8's six colours; 8s Rule! uses R B Y G)."""

JOKER_STYLE = "fg:#ffffff bg:#585858 bold"
SPECIAL_STYLE = "fg:#000000 bg:#d0d0d0 bold"

_SLOT = re.compile(r"#\d+")


def card_style(text: str) -> str:
    """The style of a card written in notation (``R7``, ``J1-5``, ``TAKE``, ``B12``)."""
    if text.startswith("J"):
        return JOKER_STYLE
    if text[:1] in COLOUR_STYLES and text[1:2].isdigit():
        return COLOUR_STYLES[text[0]]
    return SPECIAL_STYLE


def card_fragment(card: Any, extra: str = "") -> tuple[str, str]:
    """``(style, text)`` of one card (any object whose ``str`` is its notation)."""
    text = str(card)
    return (f"{card_style(text)} {extra}".strip(), text)


def placed_text(placed: Any) -> str:
    """A placed card without its slot: ``R7``, ``J1-5=5``, ``J=R``."""
    return _SLOT.sub("", str(placed))


def strip_slots(text: str) -> str:
    """Action notation without slot numbers (``0: discard R7#44`` -> ``0: discard R7``)."""
    return _SLOT.sub("", text)


def cards_line(cards: list[Any], sep: str = " ") -> StyleAndTextTuples:
    """Fragments of several cards separated by ``sep``."""
    out: StyleAndTextTuples = []
    for index, card in enumerate(cards):
        if index:
            out.append(("", sep))
        out.append(card_fragment(card))
    return out
