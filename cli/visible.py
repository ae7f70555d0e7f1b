"""A peer's text made safe to show: the Unicode bidirectional controls made visible.

A terminal shows a C0 control character of a chat line visibly (prompt-toolkit draws ESC as
``^[``), but it hands the bidirectional controls (U+202A-U+202E embeddings and overrides,
U+2066-U+2069 isolates, U+200E/U+200F marks, U+061C the Arabic letter mark) to the terminal,
which reorders the text after them: a RIGHT-TO-LEFT OVERRIDE in a chat line could make it read
as something else (the LAN trial of 2026-12-08, finding 6; "Trojan Source", CVE-2021-42574).
:func:`visible` shows each as its code point, ``<U+202E>``. Nicknames never hold one: a
nickname that is not :meth:`str.isprintable` is refused at the door
(``p2p.protocol.identity.check_nickname``), and these are format characters (category Cf).
"""

from __future__ import annotations

import re

BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Every Unicode bidirectional formatting character (Unicode Standard Annex #9, table 1)."""


def visible(text: str) -> str:
    """``text`` with each bidirectional control shown as its code point: ``"a\\u202eb"`` is
    ``"a<U+202E>b"``."""
    return BIDI_CONTROLS.sub(lambda m: f"<U+{ord(m[0]):04X}>", text)


__all__ = ["BIDI_CONTROLS", "visible"]
