"""The players' language: gettext catalogs for every word the terminal program shows (issue 28).

Only ``cli/`` translates: the engine and the peer layer return structured data (and their few
English words, such as a rule set's level names, are put into words here). The language comes
from the environment as gettext takes it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
the first one set; ``de_DE.UTF-8`` is German), ``--lang de|en`` on every command overrides it,
and English (the source text) is the fallback. Nothing the program writes to a record, the wire
or a journal depends on the language: each player sees their own.

The catalogs live in ``cli/locale/``: ``lancards.pot`` (the template, extracted by Babel),
``de/LC_MESSAGES/lancards.po`` (the German words) and the compiled ``lancards.mo`` beside it,
shipped as package data (see ``docs/client.md``, "Languages", for how to add a string).

Usage: ``from lancards.cli.i18n import _, N_, ngettext, pgettext``;
``_("text {name}").format(name=...)`` (a placeholder keeps its name in the translation);
``N_("text")`` marks a constant defined at import time, translated where it is shown
(``_(CONSTANT)``), so a language chosen later applies; ``pgettext(context, "text")`` where the
same English word needs other words elsewhere.
"""

from __future__ import annotations

import argparse
import gettext
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

DOMAIN = "lancards"
"""The gettext domain (the catalogs' file name)."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/<lang>/LC_MESSAGES/lancards.mo``."""

LANGUAGES = ("en", "de")
"""The languages with a catalog (English is the source text)."""

NO_BREAK = "\u00a0"
"""A no-break space: it keeps the words it joins on one line of the player's text (``3: 8s
Rule!`` in the game-over panel's offer of other games, ``Ada: 0 wins, 465 points`` in the
evening line); the screens' wrap (:func:`lancards.cli.tui.fit.wrap_line`) never cuts at it and
shows it as a space, and :func:`lancards.cli.tui.fit.echo` prints it as one."""

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables gettext reads for the language, in its order (the first one set wins)."""

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _(message: str) -> str:
    """``message`` in the current language (itself when untranslated or English)."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or the plural form of a message for ``count``, in the current language
    (German and English: the singular for 1, else the plural)."""
    return _translations.ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language as used in ``context`` (the same English word may
    need other words elsewhere: a colour before a noun is ``rote`` in German, alone ``rot``)."""
    return _translations.pgettext(context, message)


def number_text(value: float) -> str:
    """``value`` written as the current language writes a number: ``0.5`` in English, ``0,5``
    in German (the decimal mark is a message of the catalog). For the screen and ``--help``
    only: an option's value is typed (and parsed) with a point in every language."""
    return f"{value:g}".replace(".", pgettext("decimal mark", "."))


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (a constant translated where it
    is shown)."""
    return message


# argparse's own words ("usage:", "options", "unrecognized arguments: ...", "invalid choice: ...").
# argparse marks its messages for gettext (``from gettext import gettext as _, ngettext`` at its
# import: the global domain, in the environment's language), so ``--lang`` alone would not reach
# them: :func:`translate_argparse` points argparse's two module-level translation functions at this
# catalog, the hook argparse has for its messages. The msgids are argparse's own (Python 3.11 to
# 3.13), marked here so Babel extracts them into lancards' template. Messages about a programming
# mistake (conflicting options, a bad ``dest``) stay English: no player meets them.

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""argparse's messages a person can meet (``lancards play --bogus``, ``--help``)."""

def _plural_marks() -> None:  # pragma: no cover - only for Babel's extraction
    """argparse's one ``ngettext`` message a person can meet, marked for the template."""
    ngettext("expected %s argument", "expected %s arguments", 1)


def translate_argparse() -> None:
    """Make argparse say its messages through lancards' catalog, in the language
    :func:`set_language` chose (called by it, so before the parsers are built)."""
    setattr(argparse, "_", _)  # noqa: B010 - argparse's module-level gettext hook
    setattr(argparse, "ngettext", ngettext)  # noqa: B010



def language() -> str:
    """The current language: ``"en"`` or ``"de"``."""
    return _language


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for (``"de"``), as gettext finds it: the first of
    :data:`ENVIRONMENT` that is set; a ``LANGUAGE`` list (``de:en``) gives its first known
    language. ``C`` and ``POSIX`` are English; None when nothing is set or none is known."""
    env = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = env.get(variable, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in ("c", "posix"):
                return "en"
            if code in LANGUAGES:
                return code
        return None
    return None


def set_language(code: str | None) -> str:
    """Use ``code`` (``"de"``, ``"en"``; None: the environment's, :func:`from_environment`).

    Returns ``""``, or the one line to show when ``code`` is a language without a catalog
    (then English is used)."""
    global _translations, _language
    warning = ""
    wanted = from_environment() if code is None else code.lower().split("_")[0]
    if wanted not in LANGUAGES:
        if code is not None:
            warning = (f"lancards: no words for the language '{code}'; using English "
                       f"(languages: {', '.join(LANGUAGES)})")
        wanted = "en"
    _language = wanted or "en"
    if _language == "en":
        _translations = gettext.NullTranslations()
    else:
        _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language],
                                            fallback=True)
    translate_argparse()
    return warning


def _catalog(code: str) -> gettext.NullTranslations:
    """The translations of language ``code`` (English: none), loaded once."""
    if code not in _catalogs:
        _catalogs[code] = gettext.NullTranslations() if code == "en" else \
            gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    return _catalogs[code]


_catalogs: dict[str, gettext.NullTranslations] = {}


def in_each_language(say: Callable[[], T]) -> dict[str, T]:
    """``say()`` called once in each of :data:`LANGUAGES` (its words in that language), the
    current language put back after: a line kept to be shown again later, perhaps by a
    session in the other language (``lancards resume --lang de``, :mod:`lancards.cli.
    saved_log`). ``say`` must only put words together (no I/O, no changes)."""
    global _translations, _language
    current = _translations, _language
    said: dict[str, T] = {}
    try:
        for code in LANGUAGES:
            _translations, _language = (current if code == current[1]
                                        else (_catalog(code), code))
            said[code] = say()
    finally:
        _translations, _language = current
    return said


def lang_from_argv(argv: list[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (``--lang de`` or ``--lang=de``; the last one
    given), or None: read before the parsers are built, so ``--help`` is in that language."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith("--lang="):
            found = word.split("=", 1)[1]
    return found


__all__ = ["ARGPARSE_MESSAGES", "DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "_", "from_environment",
           "in_each_language", "lang_from_argv", "language", "ngettext", "set_language",
           "translate_argparse"]
