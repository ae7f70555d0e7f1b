"""A TOML file the rules read (an 8s Rule! objectives file, a Level 8 level card) that is not
valid TOML, as a :class:`~lancards.engine.core.RulesError` in our own words.

The TOML reader's message is English prose (``"Expected ']' at the end of a table declaration
(at line 1, column 3)"``); the error keeps only where it is: ``line`` and ``column`` (from the
reader's ``"(at line L, column C)"``), or ``end`` (``"(at end of document)"``), or neither. The
reader's own words stay in ``reason`` for developers, never on the table.
"""

from __future__ import annotations

import re
import tomllib

from lancards.engine.core import RulesError

_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)\s*$")
_AT_END = re.compile(r"\(at end of document\)\s*$")


def toml_error(exc: tomllib.TOMLDecodeError, what: str, code: str) -> RulesError:
    """``exc`` of the file ``what`` (``"objectives file"``) as a RulesError with ``code`` and
    the values ``line``, ``column`` (whole numbers or ``None``), ``end`` (whether the reader
    stopped at the end of the file) and ``reason`` (the reader's words)."""
    reason = str(exc)
    at = _AT_LINE.search(reason)
    line, column = (int(at.group(1)), int(at.group(2))) if at else (None, None)
    end = at is None and _AT_END.search(reason) is not None
    where = (f" (line {line}, column {column})" if at else " (at its end)" if end else "")
    return RulesError(f"{what} is not valid TOML{where}").with_code(
        code, line=line, column=column, end=end, reason=reason)


__all__ = ["toml_error"]
