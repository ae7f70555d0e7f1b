"""A removal by vote (ruling D-5) as the players read it: the question "remove NAME? (y/n)",
whether that removal ends the game (the rule set's own count of players, asked of the engine:
a trial leave, never a number written here), the line the lobby adds to the rescue trade-off
at a table where every removal ends the game, and, once this seat has voted, whose vote the
removal still waits for.

The LAN trial of three friends (an 8s Rule! table of 3 with rescue on) voted a vanished
player out and read the game's end at once, unwarned; and the one who voted read nothing but
the WAITING banner after pressing ``y``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lancards.cli.i18n import N_, _, ngettext
from lancards.cli.session import Banner
from lancards.engine.core import Leave
from lancards.engine.options import OptionValue

REMOVE_QUESTION = N_("remove {name}? (y/n) {name} has not answered for the table's patience; "
                     "every other player must agree, then the game goes on without them")
"""The question when the game goes on after the removal."""

REMOVE_ENDS_QUESTION = N_("remove {name}? the game then ends: too few players to play on (y/n) "
                          "{name} has not answered for the table's patience; every other "
                          "player must agree")
"""The question when the removal ends the game (:func:`leave_ends`): too few players left."""

REMOVE_TEAM_QUESTION = N_("remove {name}? the game then ends: {name}'s team cannot play on "
                          "without them (y/n) {name} has not answered for the table's "
                          "patience; every other player must agree")
"""The question when the removal ends the game because a team loses a member (8s Rule! with
partners, rulings D-3, E-10: the engine's ``leave_end_reason``, ``"team"``)."""

RESCUE_WORDS = N_("rescue on: a player who vanishes can be voted out by all the others, but all "
                  "the other players together could open one player's hand")
"""What the lobby says of a table with the option ``rescue`` on (ruling D-5): the words of
``p2p.protocol.advert.RESCUE_TRADE_OFF`` (a test keeps them equal), said with ``_()``."""

RESCUE_ENDS_WORDS = N_("at this table a removal ends the game at once: too few players are "
                       "left to play on")
"""The lobby's line after the rescue trade-off when every removal ends the game
(:func:`every_removal_ends`): too few players left."""

RESCUE_TEAM_WORDS = N_("at this table a removal ends the game at once: a team cannot play on "
                       "without one of its players")
"""The lobby's line when every removal ends the game because a team loses a member (partners,
ruling E-10)."""


def leave_ends(game: Any, state: Any, seat: int) -> bool:
    """Whether ``seat`` leaving (or being removed) now ends the game: the engine's own rules
    (8s Rule! needs 3 players, and partners a whole team; Level 8 2), applied to ``state``
    (a seat's view will do); False when the engine cannot tell."""
    try:
        return game.to_act(state) is not None and \
            game.to_act(game.apply(state, Leave(seat))) is None
    except Exception:  # a view the engine cannot apply a leave to: no warning, no harm
        return False


def end_reason(game: Any, state: Any, seat: int) -> str | None:
    """Why ``seat`` leaving (or being removed) now ends the game, as the engine says it
    (``game.leave_end_reason``): ``"team"`` (8s Rule! partners: a team loses a member),
    ``"too-few"`` (too few players left, and for an engine that does not say); None when it
    does not end the game (:func:`leave_ends`)."""
    if not leave_ends(game, state, seat):
        return None
    ask = getattr(game, "leave_end_reason", None)
    return (ask(state, seat) if ask is not None else None) or "too-few"


def every_removal_ends(game: str, players: int,
                       options: Mapping[str, OptionValue] | None = None) -> bool:
    """Whether at a fresh table of rule set ``game`` with ``players`` seats (and the game's
    ``options``; the table's own, ``rescue``..., are ignored) any one seat leaving ends the
    game: an 8s Rule! table of 3, or with partners; never a Level 8 table of 3."""
    return removal_end_reason(game, players, options) is not None


def removal_end_reason(game: str, players: int,
                       options: Mapping[str, OptionValue] | None = None) -> str | None:
    """Why any one removal ends the game at a fresh table (:func:`every_removal_ends`):
    ``"too-few"``, ``"team"`` (:func:`end_reason`), or None when some removal does not."""
    from lancards.engine.rulesets import rule_set

    try:
        spec = rule_set(game)
        known = {o.name for o in spec.options}
        rules = spec.make_rules(spec.validate(
            {k: v for k, v in (options or {}).items() if k in known}))
        state = spec.game.new_game(rules, players)
    except Exception:  # an unknown game or seat count: the lobby says nothing more
        return None
    reasons = [end_reason(spec.game, state, seat) for seat in range(players)]
    return None if None in reasons or not reasons else reasons[0]


def rescue_ends_lines(game: str, players: int,
                      options: Mapping[str, OptionValue] | None = None) -> list[str]:
    """``[RESCUE_ENDS_WORDS]`` (translated; :data:`RESCUE_TEAM_WORDS` when a team would lose
    a member) when :func:`every_removal_ends`, else ``[]``."""
    reason = removal_end_reason(game, players, options)
    if reason is None:
        return []
    words = RESCUE_TEAM_WORDS if reason == "team" else RESCUE_ENDS_WORDS
    return [_(words)]


def advert_rescue_lines(game: str, seats: int, partners: bool) -> list[str]:
    """What the lobby and ``join`` say of an advertised table with rescue on (translated): the
    trade-off, then :func:`rescue_ends_lines` for its game, seat count and ``partners`` (the
    advert's TXT ``partners``; before it, a 4-seat partners table's warning was on the host's
    screen only)."""
    return [_(RESCUE_WORDS), *rescue_ends_lines(game, seats, {"partners": True} if partners
                                                else {})]


def removal_question(game: Any, state: Any, seat: int, names: Sequence[str]) -> str:
    """"remove NAME? (y/n) ..." for ``seat``, saying so when the removal ends the game, and
    why: too few players left, or (partners) a team without a member."""
    reason = end_reason(game, state, seat)
    text = REMOVE_QUESTION if reason is None else \
        REMOVE_TEAM_QUESTION if reason == "team" else REMOVE_ENDS_QUESTION
    return _(text).format(name=names[seat])


def vote_words(seat: int, names: Sequence[str], waiting: Sequence[int]) -> str:
    """What this seat reads once it voted to remove ``seat``: ``"you voted to remove Cyd;
    waiting for Ben's vote"``; several still to vote: ``"... waiting for the votes of Ben and
    Dee"``; none known (all in, the removal under way): ``"... waiting for the others'
    votes"``."""
    name = names[seat]
    if len(waiting) == 1:
        return _("you voted to remove {name}; waiting for {other}'s vote").format(
            name=name, other=names[waiting[0]])
    if waiting:
        return _("you voted to remove {name}; waiting for the votes of {names}").format(
            name=name, names=_(" and ").join(names[s] for s in waiting))
    return _("you voted to remove {name}; waiting for the others' votes").format(name=name)


def void_vote_words(seat: int, voters: Sequence[int], me: int,
                    names: Sequence[str]) -> str | None:
    """A vote to remove ``seat``, who is here, that came to nothing (its round was void):
    ``"eve asked to remove cyd, who is here: nothing happens"``, or to ``seat`` itself (this
    seat, ``me``) ``"eve asked to remove you, but you are here: nothing happens"``. The LAN
    trial with a seated attacker: eve's votes against two connected players were voided and
    neither ever saw that eve tried. ``voters``: who signed the round; ``None`` when nobody but
    this seat did."""
    others = [names[v] for v in voters if v != me and 0 <= v < len(names)]
    if not others:
        return None
    who = _(" and ").join(others)
    if seat == me:
        return ngettext("{names} asked to remove you, but you are here: nothing happens",
                        "{names} asked to remove you, but you are here: nothing happens",
                        len(others)).format(names=who)
    return ngettext("{names} asked to remove {name}, who is here: nothing happens",
                    "{names} asked to remove {name}, who is here: nothing happens",
                    len(others)).format(names=who, name=names[seat])


def removal_banners(session: Any, extra: dict[str, Any]) -> list[Banner]:
    """The removal's banners of a ``NetworkSession`` (its ``node``, ``core``, ``names``,
    ``game`` and ``_declined``): the question when its node offers a removal
    (``extra["remove"]``), or, once this seat voted in a round not void, whose vote it still
    waits for (``extra["voted"]``: the seat), until the removal is under way or the round is
    void (the LAN trial's voter read only the WAITING banner after ``y``)."""
    core, names = session.core, session.names
    bound = core.bound()
    if bound is not None and core.removing is None:
        seat = bound[0]
        votes = core.votes_for(seat)
        waiting = [s for s in core.deck.present if s not in (seat, *votes)]
        extra["voted"] = seat
        return [Banner("info", vote_words(seat, names, waiting))]
    offer = session.node.removal_offer()  # ruling D-5: every remaining player signs, or none
    if offer is None or session._declined == (offer, len(core.record)):
        return []
    extra["remove"] = offer
    return [Banner("waiting", removal_question(session.game, core.state, offer, names))]


__all__ = ["REMOVE_ENDS_QUESTION", "REMOVE_QUESTION", "REMOVE_TEAM_QUESTION", "RESCUE_ENDS_WORDS",
           "RESCUE_TEAM_WORDS", "RESCUE_WORDS", "advert_rescue_lines", "end_reason",
           "every_removal_ends", "leave_ends", "removal_banners", "removal_end_reason",
           "removal_question", "rescue_ends_lines", "void_vote_words",
           "vote_words"]
