"""Moves told in words, with their cards: the table's log, and later ``lancards replay``.

:func:`narrate` turns one action into sentences as one seat (the *viewer*) saw it, from the
viewer's knowledge before and after the action (``game.view(state, viewer)``): "Ada took your O3
(I'll take that!)", "Bram drew P9 from Cleo's discard pile", "Cleo laid down level 2 (set of 3 +
run of 4): R3 O3 J1-5=3 | B4 B5 B6 B7", "Dov led B8 (take)". A card the viewer does not know is
never named ("Bram drew from the draw pile"); cards are named by their notation (``R7``,
``J1-5=5``, ``TAKE``), never by slot id. Seats are people's names; the viewer is "you"/"You".

No prompt-toolkit and no I/O: plain strings, so the same words serve the screen, the networked
log and a replay. Sources: the action notation of :mod:`lancards.engine.level8.actions` and
:mod:`lancards.engine.eights.actions`; rulings L8-3 (draw), L8-9 (reshuffle), L8-13 (keep),
L8M-1..3, L8C-1, E-3, E-4, E-7 in ``rulings.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lancards.cli.i18n import N_, _, language, ngettext
from lancards.cli.session import DEFAULT_NICK
from lancards.cli.tui.keep_void import keep_void_words
from lancards.cli.tui.narrate_take import replacement_lines
from lancards.engine.level8.levels import Component, ComponentKind

_SLOT = re.compile(r"#\d+")

PUT_IN_FRONT_OF_YOU = N_("{who} put {card} in front of you ({call})")
"""The log's line when a special card is put in front of this seat (read back by
:func:`lancards.cli.tui.skipped_turn.skipper`)."""

SPECIAL_WORDS = {
    "TAKE": N_("I'll take that!"),
    "SWAP": N_("I'll swap that!"),
    "KEEP": N_("I'll keep that!"),
    "SKIP": N_("Skip!"),
}
"""The call of each special card (rulings L8M-1, L8M-2, L8M-3, L8C-1), untranslated: shown as
``_(SPECIAL_WORDS[name])``."""

ROUND_MARK = "──"
"""What a round marker line starts and ends with."""


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 card"``, ``"2 cards"``, ``"0 cards"`` (``nouns`` for an irregular plural)."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def card_name(card: Any) -> str:
    """A card or placed card in notation without its slot: ``R7``, ``J1-5=5``, ``B8``."""
    return _SLOT.sub("", str(card))


class Words:
    """Names of the seats as one viewer says them.

    Args:
        names: one nickname per seat.
        viewer: the seat reading (its name becomes "You"/"you"/"your"); -1 for nobody.
    """

    def __init__(self, names: Sequence[str], viewer: int) -> None:
        self.names = tuple(names)
        self.viewer = viewer

    def subject(self, seat: int) -> str:
        """``"You"`` or the name (for the start of a sentence)."""
        return _("You") if seat == self.viewer else self.name(seat)

    def object(self, seat: int) -> str:
        """``"you"`` or the name."""
        return _("you") if seat == self.viewer else self.name(seat)

    def possessive(self, seat: int) -> str:
        """``"your"`` or ``"Ada's"``."""
        return _("your") if seat == self.viewer else _("{name}'s").format(name=self.name(seat))

    def name(self, seat: int) -> str:
        """The nickname of ``seat`` (``"seat N"``, 1-based, when out of range); the viewer's
        own under the default nickname ``You`` in the player's language (German ``Du``: the
        trial of 2026-12-05 read ``Geber You``)."""
        if 0 <= seat < len(self.names):
            if seat == self.viewer and self.names[seat] == DEFAULT_NICK:
                return _(DEFAULT_NICK)
            return self.names[seat]
        return _("seat {number}").format(number=seat + 1)


def face_up_words(game_name: str, view: Any, names: Sequence[str], viewer: int) -> str:
    """Level 8 at a round's start, before its first move: ``"G13 is face up on Bram's discard
    pile"`` (the card turned from the draw pile onto the dealer's pile, ruling L8-2; the trial
    of 2026-12-05 never read it in the log); ``""`` at any other moment or game."""
    if game_name != "level8" or view is None or getattr(view, "round", 0) < 1:
        return ""
    piles, dealer = view.discards, view.dealer
    if view.phase.name != "DRAW" or view.turn != view.next_seat(dealer) or \
            len(piles[dealer]) != 1 or any(p for s, p in enumerate(piles) if s != dealer):
        return ""
    card = _l8_card(view, piles[dealer][0])
    if card is None:
        return ""
    if dealer == viewer:
        return _("{card} is face up on your discard pile").format(card=card)
    return _("{card} is face up on {owner}'s discard pile").format(
        card=card, owner=Words(names, viewer).name(dealer))


def round_marker(number: int, dealer: str = "", yours: bool = False) -> str:
    """``"── round 2 · dealer Ada ──"``: the line that separates rounds in the log; ``yours``
    (the reader deals): ``"── round 2 · you deal ──"`` (German read "Geber Du")."""
    text = _("round {number}") if not dealer else _("round {number} · you deal") if yours \
        else _("round {number} · dealer {dealer}")
    return f"{ROUND_MARK} {text.format(number=number, dealer=dealer)} {ROUND_MARK}"


def dealer_words(dealer: int, seat: int, names: Sequence[str]) -> str:
    """The title's dealer part: ``"dealer Ada"``, or ``"you deal"`` when ``seat`` deals."""
    return _("you deal") if dealer == seat else _("dealer {name}").format(name=names[dealer])


def redeal_lines(number: int, dealer: str, who: str, yours: bool = False) -> list[str]:
    """An 8s Rule! round abandoned by ``who``'s leave and dealt again (ruling D-1): the line
    that says so and the round's marker with its dealer (the trial of 2026-12-05 saw the log
    go from "Emil left the table" to the next lead, the hand grow from 13 cards to 20, and the
    marker keep the old dealer)."""
    return [_("round {number} is dealt again without {who}; nobody scores the cards "
              "played").format(number=number, who=who), round_marker(number, dealer, yours)]


def redealt(game: Any, view: Any, state: Any, seat: int, names: Sequence[str],
            viewer: int = -1) -> list[str]:
    """After ``seat``'s leave (``view``, ``state``: a view and the state after it): the
    :func:`redeal_lines` when it abandoned an 8s Rule! round and the game goes on, else
    nothing (a leave changes no Level 8 round). ``viewer`` (the seat reading, -1: nobody) is
    "you" (German "dich": "ohne dich", not "ohne You") and "you deal"."""
    number, dealer = getattr(view, "round", 0), getattr(view, "dealer", -1)
    if getattr(game, "name", "") != "eights" or number < 1 or game.outcome(state) is not None:
        return []
    words = Words(names, viewer)
    return redeal_lines(number, words.name(dealer) if 0 <= dealer < len(names) else "",
                        words.object(seat), dealer == viewer >= 0)


def narrate(game_name: str, before: Any, action: Any, after: Any, names: Sequence[str],
            viewer: int) -> list[str]:
    """The sentences telling ``action`` as ``viewer`` saw it (empty for silent chance steps).

    Args:
        game_name: ``"level8"`` or ``"eights"`` (``Game.name``).
        before: the viewer's view just before the action (``game.view(state, viewer)``), or
            ``None`` when unknown (then cards that only the earlier state names are left out).
        action: the action (an engine action object).
        after: the viewer's view just after it.
        names: one nickname per seat.
        viewer: the reading seat (-1: a spectator; every seat by its name).

    Returns:
        Zero or more lines, in order: a new round's marker, the move, what it caused.
    """
    words = Words(names, viewer)
    from lancards.engine.core import Leave

    if isinstance(action, Leave):  # rulings D-1..D-4
        out = [_("{who} left the table").format(who=words.subject(action.seat))]
        redealt = (game_name == "eights" and after is not None and before is not None
                   and after.round >= 1 and after.round == before.round
                   and getattr(after.phase, "name", "") == "DEAL")
        if redealt:
            out += redeal_lines(after.round, words.name(after.dealer) if after.dealer >= 0
                                else "", words.object(action.seat), after.dealer == viewer)
        return out
    if game_name == "level8":
        return _level8(before, action, after, words)
    return _eights(before, action, after, words)


def narrate_game(game: Any, state: Any, actions: Sequence[Any], names: Sequence[str],
                 viewer: int = -1) -> list[tuple[int, str]]:
    """A whole game (or a part) told in words: ``(action number from 1, sentence)`` pairs.

    For ``lancards replay`` and the like: ``state`` is the full state before the first action
    (``game.new_game(...)`` or a loaded one), ``actions`` are applied in order with
    ``game.apply``; each is told as ``viewer`` saw it (-1: a spectator, who sees only public
    cards; ``game.view(state, None)``).

    Raises:
        EngineError: an action is illegal where it stands (from ``game.apply``).
    """
    out: list[tuple[int, str]] = []
    seat = None if viewer < 0 else viewer
    for number, action in enumerate(actions, start=1):
        after = game.apply(state, action)
        for line in narrate(game.name, game.view(state, seat), action, game.view(after, seat),
                            names, viewer):
            out.append((number, line))
        state = after
    return out


IMPERATIVE = (("laid down", "lay down"), ("laid", "lay"), ("drew", "draw"),
              ("discarded", "discard"), ("added", "add"), ("played", "play"), ("led", "lead"),
              ("showed", "show"), ("took", "take"), ("keep", "keep"), ("kept", "keep"),
              ("put", "put"), ("passed", "pass"), ("ended", "end"), ("are done", "be done"))


def component_words(component: Component, count: int = 1) -> str:
    """``count`` times one component of a level in words: ``"pair"``, ``"4 pairs"``,
    ``"run of 4"``, ``"2 x 4 of one colour"`` (German: ``"Paar"``, ``"4 Paare"``,
    ``"4er-Folge"``; the rule text's words, ``docs/glossary-de.md``)."""
    size = component.size
    if component.kind is ComponentKind.SET:
        text = {2: ngettext("pair", "{count} pairs", count),
                3: ngettext("triplet", "{count} triplets", count),
                4: ngettext("quadruplet", "{count} quadruplets", count),
                5: ngettext("quintuplet", "{count} quintuplets", count)}.get(size) or \
            ngettext("set of {size}", "{count} sets of {size}", count)
    elif component.kind is ComponentKind.RUN:
        text = ngettext("run of {size}", "{count} runs of {size}", count)
    elif component.kind is ComponentKind.COLOUR_RUN:
        text = ngettext("colour run of {size}", "{count} colour runs of {size}", count)
    else:
        text = ngettext("{size} of one colour", "{count} x {size} of one colour", count)
    return text.format(count=count, size=size)


def requirement(level: Sequence[Component]) -> str:
    """A level's components with repeats counted: ``"4 pairs"``, ``"triplet + run of 4"``."""
    groups: list[list[Any]] = []
    for component in level:
        if groups and groups[-1][0] == component:
            groups[-1][1] += 1
        else:
            groups.append([component, 1])
    return " + ".join(component_words(component, count) for component, count in groups)


def move_label(game_name: str, view: Any, action: Any, names: Sequence[str],
               viewer: int) -> str:
    """A legal move of ``viewer`` as a choice in a list: ``"discard R7"``, ``"draw O11 from
    Ada's discard pile"``, ``"take Bram's O3 (I'll take that!)"`` (cards by name)."""
    lines = narrate(game_name, view, action, view, names, viewer)
    text = lines[0] if lines else _SLOT.sub("", str(action)).split(": ", 1)[-1]
    if text == _("Your turn was skipped (Skip!)"):
        return _("serve the Skip (your turn is skipped)")  # as the key line says it
    if language() == "de":
        return _imperative_de(text.removeprefix(_("You") + ": "))
    text = text.removeprefix("You ")
    for past, now in IMPERATIVE:
        if text == past or text.startswith(past + " "):  # "passed": "pass"
            return now + text[len(past):]
    return text


PARTICIPLES_DE = {"ausgelegt": "auslegen", "abgelegt": "ablegen", "angelegt": "anlegen",
                  "gezogen": "ziehen", "gespielt": "spielen", "ausgespielt": "ausspielen",
                  "gezeigt": "zeigen", "genommen": "nehmen", "gelegt": "legen",
                  "gepasst": "passen", "beendet": "beenden", "behalten": "behalten",
                  "ausgesetzt": "aussetzen", "fertig": "fertig"}
"""The German log's participles (``"Du: R7 abgelegt"``) and the choice's infinitive
(``"R7 ablegen"``): a move as a choice in German."""


def _imperative_de(text: str) -> str:
    words = text.split(" ")
    for i, word in enumerate(words):
        core = word.rstrip(":,")
        if core in PARTICIPLES_DE:
            words[i] = PARTICIPLES_DE[core] + word[len(core):]
            break
    return " ".join(words)


# -- Level 8 -------------------------------------------------------------------------------------


def _l8_card(view: Any, slot: int | None) -> str | None:
    if view is None or slot is None:
        return None
    card = view.cards.get(slot)
    return None if card is None else card_name(card)


def drew_from_pile(who: str, card: str | None = None) -> str:
    """``"Ada drew from the draw pile"``, ``"You drew P9 from the draw pile"`` (a networked
    log completes an own draw's line once its card is revealed)."""
    if card:
        return _("{who} drew {card} from the draw pile").format(who=who, card=card)
    return _("{who} drew from the draw pile").format(who=who)


def _level8(before: Any, action: Any, after: Any, w: Words) -> list[str]:
    from lancards.engine.level8 import actions as a

    out: list[str] = []
    seat = getattr(action, "seat", -1)
    who = w.subject(seat) if seat >= 0 else ""
    mine = seat == w.viewer
    if isinstance(action, a.Draw):
        card = None
        if before is not None and mine:
            new = [s for s in after.hands[seat] if s not in before.hands[seat]]
            card = _l8_card(after, new[0]) if new else None
        out.append(drew_from_pile(who, card))
    elif isinstance(action, a.DrawDiscard):
        pile = before.discards[action.owner] if before is not None else ()
        card = _l8_card(before, pile[-1]) if pile else None  # else a KnownCards' top
        card = card or getattr(after, "tops", {}).get(action.owner) or _("the top card")
        if action.owner == seat:
            text = _("{who} drew {card} from your own discard pile") if mine else \
                _("{who} drew {card} from their own discard pile")
        elif action.owner == w.viewer:
            text = _("{who} drew {card} from your discard pile")
        else:
            text = _("{who} drew {card} from {owner}'s discard pile")
        out.append(text.format(who=who, card=card, owner=w.name(action.owner)))
    elif isinstance(action, a.LayDown):
        groups = " | ".join(" ".join(card_name(p) for p in _in_order(g)) for g in action.groups)
        if before is not None:
            out.append(_("{who} laid down level {level} ({what}): {groups}").format(
                who=who, level=before.levels[seat], what=requirement(before.level(seat)),
                groups=groups))
        else:
            out.append(_("{who} laid down the level: {groups}").format(who=who, groups=groups))
    elif isinstance(action, a.Add):
        meld = None
        if before is not None:
            meld = next((m for m in before.melds if m.id == action.meld), None)
        if meld is None:
            text = _("{who} added {card} to combination {number}")
        elif meld.owner == w.viewer:
            text = _("{who} added {card} to combination {number} (your {kind})")
        else:
            text = _("{who} added {card} to combination {number} ({owner}'s {kind})")
        out.append(text.format(who=who, card=card_name(action.card), number=action.meld + 1,
                               owner=w.name(meld.owner) if meld else "",
                               kind=meld_kind(meld) if meld else ""))
    elif isinstance(action, a.Discard):
        out.append(_("{who} discarded {card}").format(who=who, card=card_name(action.card)))
    elif isinstance(action, a.PlaySpecial):
        name = card_name(action.card)
        call = _(SPECIAL_WORDS[name]) if name in SPECIAL_WORDS else ""
        if action.target is not None:
            text = _(PUT_IN_FRONT_OF_YOU) \
                if action.target == w.viewer else \
                _("{who} put {card} in front of {target} ({call})")
            out.append(text.format(who=who, card=name, target=w.name(action.target),
                                   call=call))
        else:
            out.append(_("{who} played {card} ({call})").format(who=who, card=name, call=call))
    elif isinstance(action, a.Show):
        cards = " ".join(card_name(p) for p in action.cards)
        out.append(_("{who} showed {cards}").format(who=who, cards=cards) if cards else
                   _("{who} showed no card").format(who=who))
    elif isinstance(action, a.Choose):
        if action.slot is None:
            out.append(_("{who} took none of the shown cards (I'll take that!)").format(who=who))
        else:
            card = _l8_card(before, action.slot) or _l8_card(after, action.slot) or _("a card")
            owner = _shown_owner(before, action.slot)
            if owner is None:
                text = _("{who} took {card} (I'll take that!)")
            elif owner == w.viewer:
                text = _("{who} took your {card} (I'll take that!)")
            else:
                text = _("{who} took {owner}'s {card} (I'll take that!)")
            out.append(text.format(who=who, card=card,
                                   owner=w.name(owner) if owner is not None else ""))
            if owner is not None:  # replaced from the draw pile (ruling L8M-1)
                out.extend(replacement_lines(before, after, owner, w.viewer,
                                             w.name(owner), _l8_card))
    elif isinstance(action, a.SwapPut):
        text = _("{who} put {card} on your discard pile (I'll swap that!)") if mine else \
            _("{who} put {card} on their discard pile (I'll swap that!)")
        out.append(text.format(who=who, card=card_name(action.card)))
    elif isinstance(action, a.SwapEnd):
        count = before.swaps if before is not None else None
        if count is None:
            out.append(_("{who} drew as many cards (I'll swap that!)").format(who=who))
        elif count == 0:  # not "drew 0 cards" (the trial of 2026-12-06)
            out.append(_("{who} put no card back (I'll swap that!)").format(who=who))
        else:
            out.append(ngettext("{who} drew {count} card (I'll swap that!)",
                                "{who} drew {count} cards (I'll swap that!)",
                                count).format(who=who, count=count))
    elif isinstance(action, a.ServeSkip):
        out.append(_("Your turn was skipped (Skip!)") if mine else
                   _("{name}'s turn was skipped (Skip!)").format(name=w.name(seat)))
    elif isinstance(action, a.Keep):
        card = _l8_card(after, action.slot) if mine else None
        if card and mine:
            out.append(_("{who} keep {card} for the next round").format(who=who, card=card))
        elif before is None:  # else told once by the keep-end, "Bram kept 5 cards ..."
            out.append(_("{who} kept a card for the next round").format(who=who))
    elif isinstance(action, a.KeepEnd):
        count = len(before.kept[seat]) if before is not None and seat < len(before.kept) else None
        if mine or count is None:
            out.append((_("{who} are done keeping cards") if mine else
                        _("{who} is done keeping cards")).format(who=who))
        else:  # one line, not "Bram kept a card for the next round" five times (a trial)
            out.append(_("{who} kept no card for the next round").format(who=who) if not count
                       else ngettext("{who} kept {count} card for the next round",
                                     "{who} kept {count} cards for the next round",
                                     count).format(who=who, count=count))
    elif isinstance(action, a.EndTurn):
        out.append(_("{who} ended the turn with an empty hand").format(who=who))
    elif before is not None and before.reshuffle_due and not after.reshuffle_due \
            and after.round == before.round:
        out.append(_("the discard piles were shuffled into the draw pile"))  # ruling L8-9
    return out + keep_void_words(before, action, after, w.viewer) + _level8_after(
        before, after, seat, w)


def _level8_after(before: Any, after: Any, seat: int, w: Words) -> list[str]:
    out: list[str] = []
    if before is None:
        return out
    went = after.went_out
    new_round = after.round != before.round and after.round >= 1
    if went >= 0 and before.went_out != went:
        out.append(_("{who} went out: round {number} is over").format(
            who=w.subject(went), number=after.round))
    elif new_round and before.round >= 1 and seat >= 0 and before.went_out < 0:
        # Out with nobody to keep cards: the round ended with this seat's move. After keeps
        # (before.went_out set), the going out was told when it happened; the last keeper's
        # keep-end only starts the next round (issue 25: it was told as the keeper going out).
        out.append(_("{who} went out: round {number} is over").format(
            who=w.subject(seat), number=before.round))
    if after.phase.value == "over" and before.phase.value != "over":
        out.append(winners_words(after.winners, w))
    if new_round:
        dealer = w.name(after.dealer) if after.dealer >= 0 else ""
        out.append(round_marker(after.round, dealer, after.dealer == w.viewer))
    return out


def winners_words(winners: Sequence[int], w: Words) -> str:
    """``"Ada wins the game"``, ``"You win the game"``, ``"Ada and Bram win the game"``."""
    if len(winners) == 1 and winners[0] == w.viewer:
        return _("You win the game")
    names = _(" and ").join(w.subject(s) for s in winners)
    return (_("{winners} wins the game") if len(winners) == 1 else
            _("{winners} win the game")).format(winners=names)


def meld_kind(meld: Any) -> str:
    """``"set of 7s"``, ``"run 3-6"``, ``"colour run R 2-5"``, ``"colour group G"``."""
    kind = meld.kind.value
    if kind == "set":
        return _("set of {number}s").format(number=meld.number)
    if kind == "run":
        return _("run {lo}-{hi}").format(lo=meld.lo, hi=meld.hi)
    if kind == "colour-run":
        return _("colour run {colour} {lo}-{hi}").format(colour=meld.colour, lo=meld.lo,
                                                         hi=meld.hi)
    return _("colour group {colour}").format(colour=meld.colour)


def _in_order(group: Sequence[Any]) -> list[Any]:
    """A group's cards by their effective number (a run reads in order; sets keep theirs)."""
    def number(p: Any) -> int:
        value = getattr(p, "number", None)
        return value if isinstance(value, int) else 0
    return sorted(group, key=number)


def _shown_owner(view: Any, slot: int) -> int | None:
    if view is None:
        return None
    for owner, slots in enumerate(view.shown):
        if slot in slots:
            return owner
    return None


# -- 8s Rule! ------------------------------------------------------------------------------------


def _eights(before: Any, action: Any, after: Any, w: Words) -> list[str]:
    from lancards.engine.eights import Pass, Phase, Play

    out: list[str] = []
    seat = getattr(action, "seat", -1)
    who = w.subject(seat) if seat >= 0 else ""
    if isinstance(action, Play):
        card = card_name(action.card)
        if before is not None and before.phase is Phase.LAYOUT:  # ruling E-7
            text = _("{who} laid {card} on the layout")
        elif before is not None and not before.trick:
            text = _("{who} led {card}") if action.take is None else \
                _("{who} led {card} (take)") if action.take else _("{who} led {card} (no take)")
        else:
            text = _("{who} played {card}") if action.take is None else \
                _("{who} played {card} (take)") if action.take else \
                _("{who} played {card} (no take)")
        out.append(text.format(who=who, card=card))
    elif isinstance(action, Pass):
        out.append(_("{who} passed").format(who=who))
        if before is not None and before.phase is Phase.LAYOUT \
                and after.phase is not Phase.LAYOUT:  # a dead layout (docs/rules-eights.md)
            out.append(_("Everyone passed in turn, so someone held back a card that fits: "
                         "round 8 ends with nobody out, and the open hands show who"))
    if before is None:
        return out
    taken = _trick_taken(before, action, after)
    if taken is not None:
        number, winner, cards = taken
        text = _("You take trick {number}: {cards}") if winner == w.viewer else \
            _("{who} takes trick {number}: {cards}")
        out.append(text.format(who=w.name(winner), number=number, cards=cards))
    out += _scored(after.results[len(before.results):], w, after.left)
    if after.round != before.round and after.round >= 1:
        dealer = w.name(after.dealer) if after.dealer >= 0 else ""
        out.append(round_marker(after.round, dealer, after.dealer == w.viewer))
    return out


def _trick_taken(before: Any, action: Any, after: Any) -> tuple[int, int, str] | None:
    """The trick that ``action`` completed, from ``before`` and the action: its number from 1,
    its winner (ruling E-4) and its cards in play order (``"R1 R2 R3"``); ``None`` when the
    action completed no trick. Not from ``after``: the last trick of a round scores the round
    at once and moves ``after`` to the next round, whose trick winners and history start
    empty (the log went from the last card played to "round 1 scored: ..." without the
    trick). ``after`` still holding plays in its trick (a move in a list is told with
    ``after`` = ``before``) means the trick is not done."""
    from lancards.engine.eights import Phase, Play
    from lancards.engine.eights.cards import CARDS
    from lancards.engine.eights.play import TrickPlay, trick_winner

    if not isinstance(action, Play) or before.phase is not Phase.TRICKS or after.trick \
            or len(before.trick) + 1 != len(before.present()):
        return None
    plays = (*before.trick, TrickPlay(action.seat, action.slot, action.card.index, action.take))
    cards = " ".join(card_name(CARDS[play.card]) for play in plays)
    return len(before.trick_winners) + 1, trick_winner(plays), cards


def scored_lines(game_name: str, told: Any, after: Any, names: Sequence[str],
                 viewer: int) -> list[str]:
    """8s Rule!: ``"round 3 scored: Ann +25, Ada +50, Bram +25"`` for each round that ``after``
    (a view) has scored and ``told`` (an earlier view, whose rounds' lines are in the log) had
    not; nothing when ``told`` is ``None`` or for Level 8, whose round ends are told with the
    move that ends them. For a log that sees a round scored without a move: an early end
    (ruling E-5) is scored when the last hand card is opened for the audit, not on a move."""
    if game_name != "eights" or told is None:
        return []
    return _scored(after.results[len(told.results):], Words(names, viewer), after.left)


def _scored(results: Sequence[Any], w: Words, left: Sequence[int] = ()) -> list[str]:
    return [_("round {number} scored: {totals}").format(number=result.round, totals=", ".join(
        f"{w.name(s)} {p:+d}" for s, p in enumerate(result.totals) if s not in left))
        for result in results]  # a seat gone for good (ruling D-1) scores nothing: not "+0"


SUIT_WORDS = (N_("Red"), N_("Blue"), N_("Yellow"), N_("Green"))
"""The 8s Rule! suits' names by ``Suit`` value (the engine's ``Suit.title``), untranslated."""


def suit_words(suit: Any) -> str:
    """A suit's name in the player's words (``"Red"``; German ``"Rot"``)."""
    return _(SUIT_WORDS[int(suit)])


OBJECTIVE_TITLES = (N_("No tricks"), N_("No Red cards"), N_("No 8s"), N_("No 1s and no 15s"),
                    N_("No Red 15"), N_("Not the last two tricks"), N_("Tricks wanted"))
"""The titles of the default round objectives (``engine/eights/objectives.py``), for the
catalog: a title is shown as ``_(title)`` (a title of an own objectives file stays as written)."""


def objective_text(objective: Any) -> str:
    """A round objective in full (ruling E-6): every card worth points is named, grouped by
    its points (the engine's ``describe()`` shortens long lists with "...")."""
    title = _(objective.title)
    kind = objective.kind.value
    if kind == "tricks":
        return _("{title}: {points} per trick").format(title=title,
                                                        points=f"{objective.per_trick:+d}")
    if kind == "last-tricks":
        names = [_("last trick"), _("second-to-last trick"), _("third-to-last trick")]
        parts = []
        for back, value in enumerate(reversed(objective.last_tricks)):
            name = names[back] if back < len(names) else \
                _("trick {number} from the end").format(number=back + 1)
            parts.append(f"{name} {value:+d}")
        return f"{title}: {', '.join(reversed(parts))}"
    if not objective.card_points:
        return str(objective.describe())
    from lancards.engine.eights.cards import CARDS

    groups: dict[int, list[str]] = {}
    for index, points in enumerate(objective.card_points):
        if points:
            groups.setdefault(points, []).append(card_name(CARDS[index]))
    parts = [_("{cards} {points} each").format(cards=" ".join(cards), points=f"{points:+d}")
             if len(cards) > 1 else f"{cards[0]} {points:+d}" for points, cards in groups.items()]
    end = _("; the round ends when none is left to take") if objective.early_end else ""
    return f"{title}: {'; '.join(parts)}{end}"
