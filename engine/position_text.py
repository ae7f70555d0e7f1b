"""The line grammar every game's position notation shares (positions as text).

As FEN is for chess and PBN for bridge deals, a *position* is a complete, readable text of a
state: the rule set and its options, the seats, whose turn and which phase, every card place
with its cards (or ``?`` for a card this state does not know), and who knows which card. A bug
report can be a position; a test can start from one. The notation of each game is documented in
``docs/engine.md``; this module holds the line grammar they share; the entry points
:func:`~lancards.engine.position.read_position` / :func:`~lancards.engine.position.write_position`
sit above the games, in :mod:`lancards.engine.position`.

Common grammar (every game)::

    lancards-position 1          the first line: the notation and its version
    game NAME                    a registered rule set (``level8-master``, ``eights``, ...)
    option KEY=VALUE             one per option that differs from its default (VALUE is a
                                 JSON string when it holds spaces, quotes or line breaks)
    # ...                        a comment; blank lines are ignored

A card token is a card name (``R7``, ``J1-5``, ``B8``) or ``?`` (a card this state does not
know); ``?*N`` stands for N unknown cards. A suffix says who knows the card when that differs
from the place's default: ``+`` everyone, ``@-`` nobody, ``@0.2`` seats 0 and 2. Slot numbers
never appear: reading a position numbers the slots afresh (in the order the cards are written),
so a position round-trips as text (``write(read(text)) == text``) and a state round-trips up to
the numbering of its slots.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lancards.engine.core import ALL_SEATS, EngineError, is_digits, seat_bit

HEADER = "lancards-position 1"
"""The first line of every position (notation version 1)."""

MAX_CARDS = 1000
"""The largest ``?*N`` count read (every deck is far smaller)."""

MAX_TEXT = 1_000_000
"""The longest position text read, in characters."""


class PositionError(EngineError):
    """A position text that cannot be read: the message names the line and what is wrong
    (an unknown key, a bad card, a wrong card total, an inconsistent field)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One meaningful line of a position: its number (1-based), key, optional seat and the
    words after the key (after ``KEY SEAT:`` or ``KEY:`` when a colon is present)."""

    number: int
    key: str
    seat: int | None
    words: tuple[str, ...]
    text: str

    def fail(self, reason: str) -> PositionError:
        """A :class:`PositionError` naming this line."""
        return PositionError(f"position line {self.number} ({self.text.strip()!r}): {reason}")

    def ints(self, lo: int, hi: int) -> list[int]:
        """The words as integers within ``lo..hi``. Raises PositionError."""
        out = []
        for word in self.words:
            try:
                value = int(word)
            except ValueError:
                raise self.fail(f"{word!r} is not a whole number") from None
            if not lo <= value <= hi:
                raise self.fail(f"{value} is outside {lo}..{hi}")
            out.append(value)
        return out

    def int1(self, lo: int, hi: int) -> int:
        """The one word as an integer within ``lo..hi``. Raises PositionError."""
        if len(self.words) != 1:
            raise self.fail("expected one number")
        return self.ints(lo, hi)[0]


def split_lines(text: str) -> list[Line]:
    """The meaningful lines of a position after its header.

    Raises:
        PositionError: no header line, or a line without a key.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise PositionError(f"a position of {len(text)} characters is over {MAX_TEXT}")
    raw = text.splitlines()
    body = [(i + 1, s) for i, s in enumerate(raw) if s.strip() and not s.lstrip().startswith("#")]
    if not body or body[0][1].strip() != HEADER:
        raise PositionError(f"a position starts with the line {HEADER!r}")
    lines = []
    for number, source in body[1:]:
        head, colon, rest = source.partition(":")
        if colon and not head.strip().startswith("option"):
            parts = head.split()
            if not parts or len(parts) > 2:
                raise PositionError(f"position line {number} ({source.strip()!r}): bad key")
            seat = None
            if len(parts) == 2:
                if not is_digits(parts[1]):
                    raise PositionError(
                        f"position line {number} ({source.strip()!r}): {parts[1]!r} is not a seat"
                    )
                seat = int(parts[1])
            lines.append(Line(number, parts[0], seat, tuple(rest.split()), source))
        else:
            words = source.split(None, 1)
            key = words[0]
            rest_words = (words[1],) if key == "option" and len(words) > 1 else tuple(
                source.split()[1:])
            lines.append(Line(number, key, None, rest_words, source))
    return lines


def option_line(key: str, value: Any) -> str:
    """``option KEY=VALUE`` with VALUE quoted as JSON when it is not one plain word."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    plain = text and not any(c.isspace() or c in "\"'#=" for c in text)
    return f"option {key}={text if plain else json.dumps(text)}"


def parse_option(line: Line) -> tuple[str, str]:
    """The key and value of an ``option`` line. Raises PositionError."""
    if len(line.words) != 1:
        raise line.fail("expected option KEY=VALUE")
    key, sep, value = line.words[0].partition("=")
    if not sep or not key.strip():
        raise line.fail("expected option KEY=VALUE")
    value = value.strip()
    if value.startswith('"'):
        try:
            decoded = json.loads(value)
        except json.JSONDecodeError as exc:
            raise line.fail(f"the quoted value is not a JSON string: {exc.msg}") from None
        if not isinstance(decoded, str):
            raise line.fail("the quoted value is not a string")
        value = decoded
    return key.strip(), value


def knowledge_suffix(mask: int, default: int, n: int) -> str:
    """The suffix that writes ``mask`` where the place's default is ``default``."""
    if mask == default:
        return ""
    if mask == ALL_SEATS:
        return "+"
    if mask == 0:
        return "@-"
    return "@" + ".".join(str(s) for s in range(16) if mask & seat_bit(s))


@dataclass(frozen=True, slots=True)
class Token:
    """One card of a position: its name (``None`` for ``?``), knowledge mask and the text
    after ``=`` (a joker's declaration), if any."""

    name: str | None
    mask: int
    decl: str = ""


def parse_tokens(line: Line, default: int, n: int, words: Sequence[str] | None = None,
                 declarations: bool = False) -> list[Token]:
    """The card tokens of a line (``?*N`` expanded), with knowledge masks.

    Raises:
        PositionError: a bad count, suffix or seat.
    """
    out: list[Token] = []
    for word in line.words if words is None else words:
        body, mask = word, default
        if body.endswith("+"):
            body, mask = body[:-1], ALL_SEATS
        elif "@" in body:
            body, _, who = body.partition("@")
            if who == "-":
                mask = 0
            else:
                mask = 0
                for part in who.split("."):
                    if not is_digits(part) or not 0 <= int(part) < n:
                        raise line.fail(f"{word!r}: {part!r} is not a seat of {n}")
                    mask |= seat_bit(int(part))
        count = 1
        if body.startswith("?*"):
            if not is_digits(body[2:]) or not 0 < int(body[2:]) <= MAX_CARDS:
                raise line.fail(f"{word!r}: expected ?*N with N a count 1..{MAX_CARDS}")
            count, body = int(body[2:]), "?"
        decl = ""
        if declarations and "=" in body:
            body, _, decl = body.partition("=")
        if not body:
            raise line.fail(f"{word!r} is not a card")
        name = None if body == "?" else body
        out.extend(Token(name, mask, decl) for _ in range(count))
    return out


def write_cards(items: Sequence[tuple[str | None, int]], default: int, n: int) -> str:
    """Card tokens for (name or None, mask) pairs; runs of unknown cards compressed."""
    words: list[str] = []
    run = 0

    def flush() -> None:
        nonlocal run
        if run:
            words.append("?" if run == 1 else f"?*{run}")
            run = 0

    for name, mask in items:
        if name is None and mask == default:
            run += 1
            continue
        flush()
        words.append(("?" if name is None else name) + knowledge_suffix(mask, default, n))
    flush()
    return " ".join(words)


def only_keys(lines: Sequence[Line], allowed: set[str]) -> None:
    """Raise PositionError for the first line whose key is not allowed."""
    for line in lines:
        if line.key not in allowed:
            raise line.fail(f"unknown key {line.key!r}; known: {', '.join(sorted(allowed))}")


def grouped(lines: Sequence[Line]) -> dict[str, list[Line]]:
    """Lines by key, in order."""
    out: dict[str, list[Line]] = {}
    for line in lines:
        out.setdefault(line.key, []).append(line)
    return out


def one(groups: dict[str, list[Line]], key: str, required: bool = True) -> Line | None:
    """The single line of ``key``. Raises PositionError if missing (when required) or twice."""
    found = groups.get(key, [])
    if len(found) > 1:
        raise found[1].fail(f"{key!r} is given twice")
    if not found:
        if required:
            raise PositionError(f"position: the line {key!r} is missing")
        return None
    return found[0]


def game_name(text: str) -> str:
    """The rule set named by a position's ``game`` line. Raises PositionError."""
    groups = grouped(split_lines(text))
    line = one(groups, "game")
    assert line is not None
    if len(line.words) != 1:
        raise line.fail("expected game NAME")
    return line.words[0]
