"""A peer's text made safe to show: every control character and Unicode bidirectional control
made visible, as the plain characters that stand for it.

A terminal shows a C0 control character of a chat line visibly (prompt-toolkit draws ESC as
``^[``), but it hands the bidirectional controls (U+202A-U+202E embeddings and overrides,
U+2066-U+2069 isolates, U+200E/U+200F marks, U+061C the Arabic letter mark) to the terminal,
which reorders the text after them: a RIGHT-TO-LEFT OVERRIDE in a chat line could make it read
as something else (the LAN trial of 2026-12-08, finding 6; "Trojan Source", CVE-2021-42574).
:func:`visible` shows each as its code point, ``<U+202E>``. It also writes out the C0 and C1
controls and DEL as prompt-toolkit would draw them (``^H``, ``^[``, ``^?``, ``<9b>``): the
screen's wrap then counts the columns they really take (2 to 8 a character, where it counted
one or none: the LAN trial of 2026-12-07 saw a chat line's words past the wrap cut off, so a
sender could hide words), and a newline in a chat line is ``^J``, never a line of its own that
could pass for another speaker's. Nicknames never hold one: a
nickname that is not :meth:`str.isprintable` is refused at the door
(``p2p.protocol.identity.check_nickname``), and these are format characters (category Cf).
"""

from __future__ import annotations

import re
import unicodedata

BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Every Unicode bidirectional formatting character (Unicode Standard Annex #9, table 1)."""

CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""The C0 controls, DEL, the C1 controls and :data:`BIDI_CONTROLS`."""

UNSHOWN = frozenset({"Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp"})
"""The Unicode general categories :func:`visible` writes out besides :data:`CONTROLS`: every
format character (zero width joiner U+200D, zero width space U+200B, the byte order mark
U+FEFF, the tag characters U+E0020-U+E007F, the interlinear annotations U+FFF9-U+FFFB),
the line and paragraph separators U+2028/U+2029, private use and unassigned code points: a
terminal draws these with no width, or joins their neighbours into one glyph (an emoji ZWJ
sequence) of a width the screen's wrap cannot know, or not at all. The re-check trial of
2026-12-07: a chat line of family emoji (four emoji joined by U+200D) left earlier text on
screen and stray characters at column 80, and U+2028 vanished."""


def _shown(ch: str) -> str:
    code = ord(ch)
    if code < 0x20:
        return "^" + chr(code + 0x40)  # prompt-toolkit's caret notation: ESC is ^[
    if code == 0x7F:
        return "^?"
    if code <= 0x9F:
        return f"<{code:02x}>"  # a C1 control, as prompt-toolkit draws it
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` with each control character written out as the characters that stand for it
    (the module docstring, :data:`UNSHOWN`): ``"a\\u202eb"`` is ``"a<U+202E>b"``,
    ``"a\\x08b"`` is ``"a^Hb"``, ``"a\\x9bb"`` is ``"a<9b>b"``. The result holds no control
    character, so its width is the columns it takes: wrap it after this, never before."""
    if text.isascii():
        return CONTROLS.sub(lambda m: _shown(m[0]), text)
    return "".join(_shown(ch) if CONTROLS.match(ch) or unicodedata.category(ch) in UNSHOWN
                   else ch for ch in text)


__all__ = ["BIDI_CONTROLS", "CONTROLS", "UNSHOWN", "visible"]
