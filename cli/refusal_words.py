"""Why the rules refuse a signed move, in the player's words (the LAN trial of 2026-12-08: the
table read "Cyd signed a move the rules do not allow" and never which move, nor why; then the
move in notation and two reasons in words, the others in English only).

The engine says why it refuses a move with a stable ``code`` and its ``params`` beside its
English sentence (:class:`~lancards.engine.core.Coded`: ``engine/level8/refusals.py``,
``engine/eights/game.py``; the peer layer's ``p2p/protocol/openings.py`` for a claim its
openings contradict). :func:`refusal_detail` says the move as the table's log says moves
(``"discard R5"``, German ``"R5 ablegen"``) and the reason from :data:`REFUSAL_WORDS`, seats
by name, cards by notation: ``"discard R5 (Cyd must draw first)"``. No English sentence is
parsed; a code not known here gives the move alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lancards.cli.i18n import N_, _, language, ngettext
from lancards.p2p.protocol.errors import SEAT_SAID, RemoteProtocolError

REFUSAL_WORDS: Mapping[str, str] = {
    # both games
    "game-over": N_("the game is over"),
    "left-already": N_("{other} has left the table already"),
    "has-left": N_("{other} has left the table"),
    "no-seat": N_("there is no such player"),
    "no-slot": N_("that card is not in {other}'s hand"),  # a position not in this deal: a
    # LAN trial read "play Y2 (that card is not in play)" while Y2 was in the reader's hand
    "notation": N_("it is not a move of this game"),
    "other-seat": N_("it is written as {other}'s move"),
    "not-in-hand": N_("{card} is not in {other}'s hand"),
    "wrong-card": N_("that card is {known}, not {card}"),
    "claim-differs": N_("that card is {opened}, not {card}"),
    "no-opening": N_("{card} was made public without the shares that open it"),
    "opening-proof": N_("the proof of a card's opening does not hold"),
    "no-such-card": N_("{card} is not a card of this deck"),
    "card-elsewhere": N_("every {card} of the deck is known to be elsewhere"),
    # Level 8
    "declared": N_("only a card laid in a combination declares a number or a colour"),
    "empty-discard-pile": N_("{other}'s discard pile is empty"),
    "special-not-drawable": N_("{card} may not be drawn from a discard pile"),
    "keep-one": N_("a card must stay in hand for the discard"),
    "down-already": N_("the level is already laid down this round"),
    "card-twice": N_("a card is used twice"),
    "not-component": N_("component {group} is not the {component} the level asks for"),
    "not-down": N_("only a player whose level is down adds cards"),
    "no-meld": N_("there is no combination {meld}"),
    "does-not-fit": N_("{card} does not fit combination {meld}"),
    "not-special": N_("{card} is not a special card"),
    "skip-target": N_("a Skip card goes in front of a player, and no other special card does"),
    "skip-self": N_("a Skip card goes in front of another player"),
    "has-skip": N_("{other} already has a Skip card in front"),
    "not-shown": N_("that card is not among the shown cards"),
    "swap-limit": N_("at most 3 cards are swapped"),
    "kept-already": N_("that card is already kept"),
    "end-with-cards": N_("a turn ends with a discard or a special card"),
    # 8s Rule!
    "nobody-plays": N_("nobody plays a card now"),
    "no-pass": N_("passing is only in round 8"),
    "take-in-layout": N_("'take' and 'no-take' are for trick rounds only"),
    "off-layout": N_("{card} does not fit the layout: play an 8, or the next card up or down "
                     "in an opened suit"),
    "declare-take": N_("the 8 of the led suit is played with 'take' or 'no-take'"),
    "take-not-eight": N_("only the 8 of the led suit is played with 'take' or 'no-take'"),
}
"""Why the rules refuse a move, by the refusal's ``code`` (``{name}``: the move's author;
``{other}``: the seat the refusal names; ``{card}``, ``{known}``, ``{opened}``: cards in
notation). ``not-your-move``, ``show-count``, ``keep-limit`` and ``level-parts`` are said by
:func:`reason_words` itself (their words depend on whose move it is, or on a count)."""

OWN_PHASE_WORDS: Mapping[str, str] = {
    "draw": N_("{name} must draw first"),
    "play": N_("{name} has drawn already"),
    "skipped": N_("{name}'s turn is skipped"),
    "show": N_("{name} is to show cards now"),
    "choose": N_("{name} is to choose a shown card now"),
    "swap": N_("{name} is swapping cards now"),
    "keep": N_("{name} is to keep cards now"),
}
"""What the author is to do instead (a ``not-your-move`` refusal of the author's own move, by
the Level 8 phase it was in)."""

CHANCE_FIRST = N_("a shuffle or a card turned up comes first")
"""A ``not-your-move`` refusal while the deck is to act (a shuffle, the card turned up)."""


def _card(value: object) -> str:
    from lancards.cli.tui.narrate import card_name

    return card_name(value)


def reason_words(code: str, params: Mapping[str, Any], seat: int, names: Sequence[str]
                 ) -> str | None:
    """Why the rules refuse ``seat``'s move, from its refusal's ``code`` and ``params``:
    ``"Cyd must draw first"``, ``"it is Ann's move"``, ``"R5 is not in Cyd's hand"``; None
    for a code not known here."""
    name = names[seat]
    other_seat = params.get("seat")
    other = names[other_seat] if isinstance(other_seat, int) and 0 <= other_seat < len(names) \
        else name
    if code == "not-your-move":
        phase = str(params.get("phase", ""))
        if other_seat == -1:  # the deck's turn (CHANCE)
            return _(CHANCE_FIRST)
        if other_seat == seat and phase in OWN_PHASE_WORDS:
            return _(OWN_PHASE_WORDS[phase]).format(name=name)
        return _("it is {name}'s move").format(name=other)
    if code in ("show-count", "keep-limit", "level-parts"):
        count = int(params.get("count", 0))
        words = ngettext("{other} must show {count} card", "{other} must show {count} cards",
                         count) if code == "show-count" else \
            ngettext("{other} may keep at most {count} card",
                     "{other} may keep at most {count} cards", count) if code == "keep-limit" \
            else ngettext("level {level} has {count} part, not {given}",
                          "level {level} has {count} parts, not {given}", count)
        return words.format(other=other, count=count, level=params.get("level", ""),
                            given=params.get("given", ""))
    if code == "not-in-hand" and "card" not in params:
        return _("that card is not in {other}'s hand").format(other=other)
    if code not in REFUSAL_WORDS:
        return None
    values = {key: _card(params[key]) if key in params else "" for key in
              ("card", "known", "opened")}
    meld = params.get("meld")
    return _(REFUSAL_WORDS[code]).format(
        name=name, other=other, **values, group=params.get("group", ""),
        meld=meld + 1 if isinstance(meld, int) else "",
        component=_component(params.get("component")))


def _component(component: Any) -> str:
    if component is None:
        return ""
    from lancards.cli.tui.narrate import component_words

    return component_words(component)


def move_words(action: Any, names: Sequence[str], view: Any = None) -> str:
    """A signed move as the table's log says a move, without its author: ``"discard R5"``,
    ``"draw the top card from their own discard pile"``, ``"play B8 (take)"`` (German
    ``"R5 ablegen"``): the log's sentence (:func:`~lancards.cli.tui.narrate.narrate`, seen by
    nobody in particular) as a choice, like the moves of the key list. ``view``: a view of the
    game in which a card the move names by its slot only is known (``"take R14 (I'll take
    that!)"``, not ``"take a card"``), or None."""
    from lancards.cli.tui.narrate import IMPERATIVE, _imperative_de, card_name, narrate

    seat = getattr(action, "seat", -1)
    game = "eights" if type(action).__module__.startswith("lancards.engine.eights") \
        else "level8"
    lines = narrate(game, None, action, view, names, -1) if 0 <= seat < len(names) else []
    text = (lines[0] if lines else card_name(str(action)).split(": ", 1)[-1]).replace(" ()", "")
    if not 0 <= seat < len(names):
        return text
    if language() == "de":
        said = text.removeprefix(names[seat] + ": ")
        return text if said == text else _imperative_de(said).replace("gegangen", "gehen")
    if not text.startswith(names[seat] + " "):
        return text
    text = text[len(names[seat]) + 1:]
    for past, now in (*IMPERATIVE, ("left", "leave")):
        if text == past or text.startswith(past + " "):
            return now + text[len(past):]
    return text


def refusal_detail(cause: Any, seat: int, names: Sequence[str]) -> str | None:
    """The move a refusal's ``cause`` names and why the rules refuse it: ``"discard R5 (Cyd must
    draw first)"`` (``seat``: the author's, ``names``: the players' names in seat order); the
    move alone for a reason not known here, the reason alone for a move that could not be read
    (``"it is not a move of this game"``); None when ``cause`` has neither (no code)."""
    code = getattr(cause, "code", "")
    params: Mapping[str, Any] = getattr(cause, "params", {}) or {}
    if not code or not 0 <= seat < len(names):
        return None
    why = reason_words(code, params, seat, names)
    action = params.get("action")
    move = None if action is None else move_words(action, names)
    if move is None:
        return why
    return move if why is None else _("{move} ({why})").format(move=move, why=why)


MOST_SEATS = 6
"""The most seats a table has (the names of :func:`move_refused`)."""

_FINGERPRINT = re.compile(r" \[[^\]]*\]\Z")


def move_refused(sender: str, error: object) -> str | None:
    """A record entry's move the rules refuse (code ``rules-refused``, ``error`` the engine's
    coded refusal, or the peer layer's of a move's openings) and why, in the halt line's words
    (:func:`refusal_detail`): ``"R5 ablegen (bob muss zuerst
    ziehen)"``. Its author is the ``sender`` (``bob [FP] (seat 2)``, named by nickname), the
    other seats by number (``"Platz 1 ist am Zug"``); None without a code or a seat."""
    params: Mapping[str, object] = getattr(error, "params", {}) or {}
    said = SEAT_SAID.fullmatch(sender)
    seat = int(said[2]) - 1 if said else getattr(params.get("action"), "seat", -1)
    if not getattr(error, "code", "") or not isinstance(seat, int) or \
            not 0 <= seat < MOST_SEATS:
        return None
    names = [_("seat {number}").format(number=i + 1) for i in range(MOST_SEATS)]
    names[seat] = _FINGERPRINT.sub("", said[1] if said else sender)
    return refusal_detail(error, seat, names)


PLAIN_WORDS: Mapping[str, str] = {
    "replayed": N_("{name} sent an earlier message again, one already received: ignored"),
    "entry-again": N_("{name} sent step {seq} of the game again, which the table already has: "
                      "ignored"),
    "bad-signature": N_("a message said to be {name}'s does not carry {name}'s signature: "
                        "ignored"),
    "entry-signature": N_("a message said to be {name}'s does not carry {name}'s signature: "
                          "ignored"),
}
"""A seated peer's message sent again or not signed by its claimed author, as the table says it,
by the refusal's code: the LAN trial with a seated attacker read ``received before: an entry of
the game record; the last one taken was numbered 12`` and ``its signature does not verify: the
signature by eve [FP] (seat 1)`` (protocol terms, a fingerprint). The peer layer's sentence
goes to ``--verbose``; ``lancards audit`` keeps it."""

_UNVERIFIED = " (unverified)"


def plain_refusal(error: object) -> str | None:
    """A refused message in the table's words when its code is one of :data:`PLAIN_WORDS`
    (``"eve sent an earlier message again, one already received: ignored"``), naming the player
    by nickname; None for any other refusal, or a sender that is no seated player."""
    if not isinstance(error, RemoteProtocolError) or error.code not in PLAIN_WORDS:
        return None
    who = str(error.params.get("name", error.sender)) if error.code == "entry-signature" \
        else error.sender
    said = SEAT_SAID.fullmatch(who.removesuffix(_UNVERIFIED))
    if said is None:
        return None
    name = _FINGERPRINT.sub("", said[1])
    return _(PLAIN_WORDS[error.code]).format(name=name, seq=error.params.get("seq", ""))


__all__ = ["CHANCE_FIRST", "MOST_SEATS", "OWN_PHASE_WORDS", "PLAIN_WORDS", "REFUSAL_WORDS",
           "move_refused", "move_words", "plain_refusal", "reason_words", "refusal_detail"]
