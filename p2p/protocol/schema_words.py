"""msgspec's validation messages in the plain words of ``docs/protocol.md`` section 5
(``'chat' body field 'text' is int, not str``): a rejection names the place, the field and
what is wrong with it, never the validation library's own phrasing (the LAN trial of 2026-12-08
read ``'chat' body: Expected `str` of length <= 4000 - at `$.text```)."""

from __future__ import annotations

import re

_JSON_NAMES = {"array": "list", "object": "dict", "null": "NoneType", "float": "float"}
_AT = re.compile(r"(?P<message>.*?)(?: - at (?P<key>`key` in )?`\$(?P<field>(?:\.[\w-]+)?)"
                 r"(?P<rest>[^`]*)`)?", re.DOTALL)
_EXPECTED = re.compile(r"Expected `([^`]+)`, got `(\w+)`")
_MISSING = re.compile(r"Object missing required field `([^`]+)`")
_UNKNOWN = re.compile(r"Object contains unknown field `([^`]+)`")
_LENGTH = re.compile(r"Expected `(str|array|object)` of length (<=|>=) (\d+)")
_EXACT = re.compile(r"Expected `array` of length (\d+), got (\d+)")
_BOUND = re.compile(r"Expected `(int|float)` (<=|>=) (-?\d+)")
_PATTERN = re.compile(r"Expected `str` matching regex .*", re.DOTALL)
_INVALID = re.compile(r"Invalid (?:enum )?value (.*)", re.DOTALL)

_SIZE = {("str", "<="): "is longer than {n} characters",
         ("str", ">="): "is shorter than {n} characters",
         ("array", "<="): "has more than {n} items", ("array", ">="): "has fewer than {n} items",
         ("object", "<="): "has more than {n} keys", ("object", ">="): "has fewer than {n} keys"}
_BOUNDS = {"<=": "is above {n}", ">=": "is below {n}"}


def explain(message: str, where: str) -> str:
    """A msgspec validation message in the words of ``docs/protocol.md``: ``<where> field 'x'
    is bool, not int``, ``<where> lacks field 'x'``, ``<where> has unknown field 'x'``,
    ``<where> field 'text' is longer than 4000 characters``, ``<where> field 'missing' has
    more than 6 items``, ``<where> field 'seat' is above 5``, ``<where> field 'state' holds
    'zzz', which it may not``, ``<where> field 'tbl' is not of its form``, ``a key of <where>
    field 'parts' is not of its form``; a message of another shape is kept after the place
    in words (``<where> field 'x': ...``), never after msgspec's ``$.x`` path. (A string
    holding NUL or a lone surrogate is said the same way: ``wire.text_fault``.)"""
    at = _AT.fullmatch(message)
    assert at is not None  # the pattern matches any text
    body, field, rest = at["message"], at["field"] or "", at["rest"] or ""
    place = f"{where} field {field.lstrip('.')!r}{rest}" if field or rest else where
    if at["key"]:  # a dict's key, not its value
        place = f"a key of {place}"
    if match := _EXPECTED.fullmatch(body):
        wanted, got = match.groups()
        got = _JSON_NAMES.get(got, got)
        if place == where:
            wanted = "an object" if wanted == "object" else wanted
        return f"{place} is {got}, not {wanted}"[:300]
    if match := _MISSING.fullmatch(body):
        return f"{place} lacks field {match.group(1)!r}"[:300]
    if match := _UNKNOWN.fullmatch(body):
        return f"{place} has unknown field {match.group(1)!r}"[:300]
    if match := _LENGTH.fullmatch(body):
        kind, op, n = match.groups()
        return f"{place} {_SIZE[(kind, op)].format(n=n)}"[:300]
    if match := _EXACT.fullmatch(body):
        return f"{place} has {match.group(2)} items, not {match.group(1)}"[:300]
    if match := _BOUND.fullmatch(body):
        return f"{place} {_BOUNDS[match.group(2)].format(n=match.group(3))}"[:300]
    if _PATTERN.fullmatch(body):
        return f"{place} is not of its form"[:300]
    if match := _INVALID.fullmatch(body):
        return f"{place} holds {match.group(1)[:80]}, which it may not"[:300]
    return f"{place}: {body[:240]}"  # (never the library's `$.x` path: the place in words)


__all__ = ["explain"]
