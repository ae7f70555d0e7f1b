"""``--bot-level`` of ``lancards play``: one level for every bot, or one per bot in seat order.

``lancards play --bot-level easy,hard,normal`` was refused as if ``easy`` were no level (the
new-user trial of 2026-12-07): a comma list now gives each bot its own level, the bots taken in
the order they play after the player's seat (as the table lists them clockwise from it).
``--bot-level`` given twice is refused: it read as one level per bot and silently kept the last;
``host`` and ``join`` refuse it the same way. ``host`` takes the same list, one level per
``--bots`` seat in the order of their names; ``join`` one level, for its ``--autoplay`` seat.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from lancards.cli.errors import UsageError
from lancards.cli.game_titles import game_title
from lancards.cli.i18n import _, ngettext
from lancards.engine.options import RuleSetSpec
from lancards.engine.rulesets import BOT_LEVELS, DEFAULT_BOT_LEVEL, bot_levels


class OnceAction(argparse.Action):
    """Store the option's value, refusing the option a second time on the command line.

    ``comma_list=False`` (``host``, ``join``: one level, no list) leaves out the words on a
    comma list giving each bot its own level.
    """

    def __init__(self, *args: Any, comma_list: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.comma_list = comma_list

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                  values: Any, option_string: str | None = None) -> None:
        seen: set[str] = getattr(namespace, "_given_once", set())
        if self.dest in seen:
            if self.comma_list:
                parser.error(_("{option} given twice: give it once (a comma list gives each "
                               "bot its own level)").format(option=option_string))
            parser.error(_("{option} given twice: give it once").format(option=option_string))
        namespace._given_once = seen | {self.dest}
        setattr(namespace, self.dest, values)


def add_bot_level_argument(parser: argparse.ArgumentParser) -> None:
    """``--bot-level LEVEL`` or ``--bot-level LEVEL,LEVEL,...`` (``docs/bots.md``)."""
    _add_level_list(parser, _("bot level: {list} (default {default_bot_level}); one level for "
                              "every bot, or one per bot separated by commas, in the order "
                              "they play after you, e.g. easy,hard,normal (with --autoplay your "
                              "seat plays the one level, or {default_bot_level} with a list); "
                              "greedy is the old reference bot, which can hoard cards for "
                              "ever; the levels a game offers are listed in docs/bots.md"
                              ).format(list=', '.join(BOT_LEVELS),
                                       default_bot_level=DEFAULT_BOT_LEVEL))


def _add_level_list(parser: argparse.ArgumentParser, text: str) -> None:
    """``--bot-level LEVEL[,LEVEL...]``, given once (:class:`OnceAction`), with help ``text``."""
    parser.add_argument("--bot-level", default=DEFAULT_BOT_LEVEL, metavar="LEVEL[,LEVEL...]",
                        action=OnceAction, help=text)


def add_host_bot_level_argument(parser: argparse.ArgumentParser) -> None:
    """``host --bot-level LEVEL`` or ``LEVEL,LEVEL,...``: the new-user trial of issue 26 gave
    ``host --bots 2 --bot-level easy,hard`` as ``play`` takes it and read argparse's ``invalid
    choice``."""
    _add_level_list(parser, _("level of this machine's bots: one level for every --bots seat, "
                              "or one per --bots seat separated by commas, in the order of "
                              "their names (Ada, Bram, ...), e.g. easy,hard; with --autoplay "
                              "your seat plays the one level, or {default_bot_level} with a "
                              "list (default {default_bot_level}; docs/bots.md)").format(
                                  default_bot_level=DEFAULT_BOT_LEVEL))


def add_join_bot_level_argument(parser: argparse.ArgumentParser) -> None:
    """``join --bot-level LEVEL``: the level of the ``--autoplay`` seat, only with it
    (:func:`join_level`)."""
    parser.add_argument("--bot-level", default=DEFAULT_BOT_LEVEL, metavar="LEVEL",
                        action=OnceAction, comma_list=False,
                        help=_("with --autoplay: the level of the bot that plays your seat "
                               "(default {default_bot_level}; docs/bots.md)").format(
                            default_bot_level=DEFAULT_BOT_LEVEL))


def join_level(args: argparse.Namespace) -> str:
    """``join``'s ``--bot-level``, checked: a level of some game, and given only with
    ``--autoplay`` (the trial gave it without, and a person played the seat: the level did
    nothing). The table's game is known only once found, so any game's level passes here.

    Raises:
        UsageError: no ``--autoplay``, an empty name, a comma list, an unknown level.
    """
    text = str(getattr(args, "bot_level", DEFAULT_BOT_LEVEL))
    if "bot_level" in getattr(args, "_given_once", set()) and not args.autoplay:
        raise UsageError(_("--bot-level is the level of the bot that plays your seat with "
                           "--autoplay; without --autoplay you play it yourself: give both, "
                           "or neither"))
    levels = level_list("--bot-level", text)
    if len(levels) > 1:
        raise UsageError(_("--bot-level {text!r}: join plays one seat, yours: give one "
                           "level").format(text=text))
    if levels[0] not in BOT_LEVELS:
        raise UsageError(_("--bot-level: {level!r} is not a level; the levels are "
                           "{list}").format(level=levels[0], list=', '.join(BOT_LEVELS)))
    return levels[0]


def level_list(option: str, text: str) -> list[str]:
    """The levels of a comma list given to ``option`` (``--bot-level``, ``--seats``), in
    lower case (``Hard, EASY``: as ``hard, easy``).

    Raises:
        UsageError: an empty name before, between or after the commas.
    """
    levels = [word.strip().lower() for word in text.split(",")]
    if "" in levels:  # the final trial of 2026-12-07: "easy,hard,normal," read as 4 levels
        raise UsageError(_("{option} {text!r}: a level is missing (an empty name before, "
                           "between or after the commas)").format(option=option, text=text))
    return levels


def offered_levels(option: str, spec: RuleSetSpec, levels: Sequence[str]) -> None:
    """Refuse a level of ``levels`` (given to ``option``) that ``spec``'s game does not offer.

    Raises:
        UsageError: ``"--bot-level: 'x' is not a level of Level 8; it offers ..."``.
    """
    offered = bot_levels(spec.game)
    for level in levels:
        if level not in offered:
            raise UsageError(_("{option}: {level!r} is not a level of {game}; it offers "
                               "{list}").format(option=option, level=level,
                                                game=game_title(spec.name),
                                                list=', '.join(offered)))


def chosen_levels(spec: RuleSetSpec, text: str, bots: int) -> tuple[str, list[str]]:
    """The level of the player's own seat under ``--autoplay`` and the level of each of the
    ``bots`` bots in seat order after it, from ``--bot-level`` ``text`` (``play``, ``host``).

    Raises:
        UsageError: a list of another length than ``bots``, or a level ``spec`` does not offer.
    """
    levels = level_list("--bot-level", text)
    if len(levels) > 1 and len(levels) != bots:
        raise UsageError(ngettext(
            "--bot-level {text!r}: {count} levels for {bots} bot; give one level, or "
            "{bots} separated by commas",
            "--bot-level {text!r}: {count} levels for {bots} bots; give one level, or "
            "{bots} separated by commas", bots).format(text=text, count=len(levels), bots=bots))
    offered_levels("--bot-level", spec, levels)
    if len(levels) == 1:
        return levels[0], levels * bots
    return DEFAULT_BOT_LEVEL, levels


def seat_levels(seats: int, seat: int, levels: Sequence[str]) -> dict[int, str]:
    """Seat -> level of the other seats of a table of ``seats``: ``levels`` in the order they
    play after ``seat``."""
    return {(seat + i) % seats: level for i, level in enumerate(levels, 1)}


def key_levels(keys: Sequence[bytes], me: bytes,
               levels: Sequence[str] | None) -> Mapping[bytes, str] | None:
    """Public key -> level of the other seats (``keys`` in seat order; ``me`` this player's):
    :func:`seat_levels` by key; None without ``levels``."""
    if levels is None:
        return None
    by_seat = seat_levels(len(keys), keys.index(me), levels)
    return {keys[s]: level for s, level in by_seat.items()}


__all__ = ["OnceAction", "add_bot_level_argument", "add_host_bot_level_argument",
           "add_join_bot_level_argument", "chosen_levels", "join_level", "key_levels",
           "level_list", "offered_levels", "seat_levels"]
