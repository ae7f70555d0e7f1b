"""The 8s Rule! table and its keys (rulings E-1 to E-10).

Shows the hand by suit (one row per suit held), the current trick with who leads, the last trick,
tricks taken, the round objective (marked as lancards' own for the default set, ruling
E-6), running scores, and in round 8 the layout as four suit rows (ruling E-7). Keys: Left/Right
move over the hand, Up/Down jump between suits, Enter (or ``x``) plays the card under the cursor,
``t`` / ``n`` play the 8 of the led suit with "take" / "no take" (ruling E-4), ``p`` passes in
round 8, ``m`` lists every legal move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import N_, _, ngettext
from lancards.cli.objectives_words import objectives_notice, own_objectives_words
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.cards import card_fragment, cards_line
from lancards.cli.tui.controller import (
    WATCH_HINTS,
    BaseController,
    KeyHelp,
    bot_words,
    gone_words,
    name_of,
    pending_text,
    title_line,
)
from lancards.cli.tui.fit import wrap_text
from lancards.cli.tui.hint_follow import hinted_index
from lancards.cli.tui.narrate import dealer_words, objective_text, suit_words
from lancards.cli.tui.stopped_watch import watcher_hand
from lancards.cli.tui.width import ELLIPSIS, NAME_COLUMNS, pad, text_width
from lancards.cli.tui.words import over_fragment
from lancards.engine.core import CHANCE, SlotId
from lancards.engine.eights import EightsState, Pass, Phase, Play, Suit
from lancards.engine.eights.cards import CARDS, NUMBERS, Card

HELP: tuple[KeyHelp, ...] = (
    (N_("Left/Right"), N_("move the cursor over your hand")),
    (N_("Home / End"), N_("the cursor to the first / last card of your hand")),
    (N_("Up/Down"), N_("jump to the previous / next suit")),
    (N_("Enter or x"), N_("play the card under the cursor")),
    ("t / n", N_("play the 8 of the led suit (any 8 when you lead) with take: it takes the "
                 "trick / no take: any other card of its suit beats it")),  # ruling E-4
    ("p", N_("pass (round 8, only without a playable card)")),  # ruling E-7
    ("m", N_("list every legal move and pick one")),
)


def suit_rows(view: EightsState, seat: int) -> list[tuple[Suit, list[tuple[SlotId, Card]]]]:
    """The own hand by suit (Red, Blue, Yellow, Green), each ascending."""
    rows: list[tuple[Suit, list[tuple[SlotId, Card]]]] = [(suit, []) for suit in Suit]
    for slot in view.hands[seat]:
        card = view.card(slot)
        if card is not None:
            rows[card.suit][1].append((slot, card))
    for _suit, cards in rows:
        cards.sort(key=lambda e: e[1].number)
    return rows


def flat_hand(view: EightsState, seat: int) -> list[tuple[SlotId, Card]]:
    """The own hand in suit order (the cursor's order)."""
    return [e for _suit, cards in suit_rows(view, seat) for e in cards]


OBJECTIVE_ROWS = 2
"""The most rows the objective takes on the table screen (the new-user trial read three at
80x24): a longer one is cut at a word with "…"; ``o`` shows it in full."""


def objective_line(view: EightsState, width: int = 0) -> str:
    """The round's objective, with its source (ruling E-6) or the round-8 rule (E-7). With
    ``width`` (the table's line): marked whose objectives they are and that ``o`` lists them
    (:func:`~lancards.cli.objectives_words.own_objectives_words`), and cut at a word, with
    "…", to fit :data:`OBJECTIVE_ROWS` rows of ``width`` columns as they wrap (its leading
    space counted); without (the ``o`` panel, which is the objective in full): whole, unmarked."""
    if view.round >= 8:
        return _("round 8, the layout: +10 per card left, -25 for going out")  # ruling E-7
    if view.round < 1:
        return _("cutting for the first dealer")  # ruling E-2
    objective = view.rules.objectives.for_round(view.round)
    objectives = view.rules.objectives
    if not width:
        return _("objective: {objective}").format(objective=objective_text(objective))
    mark = "" if objectives.from_publisher else " · " + own_objectives_words(objectives)
    words = objective_text(objective).split(" ")
    for count in range(len(words), 0, -1):
        text = " ".join(words[:count])
        if count < len(words):
            text = text.rstrip(";,:") + ELLIPSIS
        line = _("objective: {objective}").format(objective=text) + mark
        if len(wrap_text(" " + line, width)) <= OBJECTIVE_ROWS:
            break
    return line


@dataclass
class EightsController(BaseController):
    """Keys and screen parts of the 8s Rule! table."""

    cursor: int = 0
    goal_help: ClassVar[str] = N_("this round's objective in full")

    def title(self, snap: TableSnapshot, width: int = 0) -> StyleAndTextTuples:
        view: EightsState = snap.view
        parts = ["8s Rule!"]
        if view.round:
            parts.append(_("round {number} of 8").format(number=view.round))
        if view.dealer >= 0:
            parts.append(dealer_words(view.dealer, snap.seat, snap.names))
        if snap.to_act is None:
            turn = over_fragment(snap)  # game over, or stopped on a cheat
        elif snap.to_act == CHANCE:
            turn = ("class:dim", _("shuffling, dealing or opening hands..."))
        elif snap.to_act == snap.seat:
            turn = ("class:yourturn", _("YOUR TURN: play a card") if view.phase is Phase.TRICKS
                    else _("YOUR TURN: lay a card on the layout or pass"))
        else:
            turn = ("class:turn", _("{name} plays").format(name=snap.names[snap.to_act]))
        return title_line(parts, turn, width)

    def table(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        view: EightsState = snap.view
        objective = " " + objective_line(view, width) + "\n"  # at most two rows
        out: StyleAndTextTuples = [("class:objective", objective)]
        totals = view.totals()
        names = [name_of(snap, s) for s in range(view.n)]  # "hana (you)": the own row
        name_w = max(6, text_width(_("player")),
                     min(NAME_COLUMNS + 1, max(text_width(n) for n in names) + 1))
        head = [_("hand"), _("tricks"), _("total")]
        hand_w, tricks_w, total_w = (max(w, text_width(h)) for w, h in zip((4, 6, 5), head,
                                                                            strict=True))
        out.append(("class:header", f"   # {pad(_('player'), name_w)} {pad(head[0], hand_w)} "
                                    f"{pad(head[1], tricks_w)} {head[2]}\n"))
        gone = gone_words(snap)
        bots = bot_words(snap)
        for seat in range(view.n):
            mark = ">" if snap.to_act == seat else " "
            style = "class:dim" if seat in gone else "class:me" if seat == snap.seat else ""
            tricks = sum(1 for w in view.trick_winners if w == seat)
            note = f"  {gone[seat]}" if seat in gone else f"  {bots[seat]}" if seat in bots \
                else ""
            out.append((style, f" {mark} {seat + 1} {pad(names[seat], name_w)} "
                               f"{len(view.hands[seat]):>{hand_w}} {tricks:>{tricks_w}} "
                               f"{totals[seat]:>{total_w}}"
                               f"{note}\n"))
        if view.phase is Phase.LAYOUT:
            out.extend(self._layout(view))
        else:
            out.extend(self._trick(snap))
        return out

    @staticmethod
    def _layout(view: EightsState) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:header", " " + _("the layout:") + "\n")]
        for suit, (low, high) in zip(Suit, view.layout, strict=True):
            out.append(("", f"  {pad(suit_words(suit), 7)}"))
            if low == 0:
                out.append(("class:dim", _("- (needs its 8)") + "\n"))
                continue
            out.extend(cards_line([CARDS[suit * NUMBERS + n - 1] for n in range(low, high + 1)]))
            out.append(("", "\n"))
        return out

    @staticmethod
    def _trick(snap: TableSnapshot) -> StyleAndTextTuples:
        view: EightsState = snap.view
        out: StyleAndTextTuples = []
        number = len(view.trick_winners) + 1
        if view.trick:
            lead = view.trick[0]
            suit = Suit(lead.card // NUMBERS)
            led = _("trick {number}, you led {suit}:") if lead.seat == snap.seat else \
                _("trick {number}, {name} led {suit}:")  # not "Du spielte", "hana (du) spielte"
            out.append(("", " " + led.format(number=number, name=snap.names[lead.seat],
                                             suit=suit_words(suit)) + " "))
            for index, play in enumerate(view.trick):
                out.append(("", " · " if index else ""))
                out.append(("", f"{snap.names[play.seat]} "))
                out.append(card_fragment(CARDS[play.card]))
                if play.take is not None:
                    out.append(("class:declare",
                                " " + (_("take") if play.take else _("no take"))))
            out.append(("", "\n"))
        elif view.phase is Phase.TRICKS and view.turn >= 0:
            text = _("trick {number}: You lead") if view.turn == snap.seat else \
                _("trick {number}: {name} leads")  # the own seat by any nickname: no "(you)"
            out.append(("", " " + text.format(number=number, name=snap.names[view.turn])
                            + "\n"))
        if view.trick_winners:
            last = len(view.trick_winners)
            cards = [CARDS[e.card] for e in view.history if e.number == last and e.card >= 0]
            winner = view.trick_winners[-1]
            took = _("last trick (you took it):") if winner == snap.seat else \
                _("last trick ({name} took it):")  # not "hana (you) took it", "du bekam"
            out.append(("class:dim", " " + took.format(name=snap.names[winner]) + " "))
            out.extend(cards_line(cards))
            out.append(("", "\n"))
        return out

    def hand_view(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        if (watcher := watcher_hand(snap)) is not None:  # lancards watch; voted out, halted
            return watcher
        view: EightsState = snap.view
        flat = flat_hand(view, snap.seat)
        self.cursor = min(self.cursor, max(0, len(flat) - 1))
        playable = {a.slot for a in snap.legal if isinstance(a, Play)}
        out: StyleAndTextTuples = [("class:header", " " + ngettext(
            "your hand ({count} card{pending}):", "your hand ({count} cards{pending}):",
            len(flat)).format(count=len(flat), pending=pending_text(snap)) + "\n")]
        index = 0
        for suit, cards in suit_rows(view, snap.seat):
            if not cards:  # a suit no longer held has no row (Level 8's hand has no empty one)
                continue
            out.append(("", f"  {pad(suit_words(suit), 7)}"))
            for slot, card in cards:
                extra = "reverse" if index == self.cursor else ""
                left, right = ("[", "]") if index == self.cursor else (" ", " ")
                out.append(("", left))
                out.append(card_fragment(card, extra))
                out.append(("", ("+" if slot in playable else " ") + right))
                index += 1
            out.append(("", "\n"))
        if snap.legal:
            out.append(("class:dim", "  " + _("+ = playable now") + "\n"))
        return out

    def panel(self, snap: TableSnapshot, height: int, width: int = 0) -> StyleAndTextTuples | None:
        """The picker, if open, in ``height`` rows of ``width`` columns (:meth:`Picker.render`)."""
        return self.picker.render(height, width) if self.picker is not None else None

    def hints(self, snap: TableSnapshot) -> str:
        if self.picker is not None:
            return _("a choice's number, or up/down and Enter · Esc cancels")
        if snap.extra.get("watching") or snap.extra.get("removed_me"):
            return _(WATCH_HINTS)  # a seat voted out watches: no moves to offer
        if snap.to_act != snap.seat:
            return _("m moves · c chat")
        if any(isinstance(a, Pass) for a in snap.legal):
            return _("no playable card: p pass")
        if snap.view.round >= 8:  # no tricks: no take / no take (the trial of 2026-12-05)
            return _("Enter/x play · m moves · p passes only without a playable card")
        return _("Enter/x play · t/n an 8 with take/no take · m moves")

    def help(self) -> tuple[KeyHelp, ...]:
        return HELP

    def objective(self, snap: TableSnapshot) -> list[str]:
        """This round's objective in full, then every round's (ruling E-6; round 8: E-7)."""
        view: EightsState = snap.view
        objectives = view.rules.objectives
        out = [objective_line(view), ""]
        for number in range(1, 8):
            mark = ">" if number == view.round else " "
            out.append(f" {mark} " + _("round {number}: {objective}").format(
                number=number, objective=objective_text(objectives.for_round(number))))
        mark = ">" if view.round >= 8 else " "
        round8 = _("round 8: the layout: +10 per card left, -25 for going out")  # ruling E-7
        out.append(f" {mark} " + round8)
        out += ["", _("objectives: {notice}").format(notice=objectives_notice(objectives)),
                _("the lowest total after round 8 wins")]  # ruling E-9
        return out

    def state_changed(self, snap: TableSnapshot) -> None:
        """The turn or phase changed: a stale error goes, and on this seat's turn a cursor on
        a card that cannot be played moves to the first playable one (issue 25, item 14)."""
        super().state_changed(snap)
        playable = {a.slot for a in snap.legal if isinstance(a, Play)}
        flat = flat_hand(snap.view, snap.seat)
        if not playable or not flat:
            return
        self.cursor = min(self.cursor, len(flat) - 1)
        if flat[self.cursor][0] not in playable:
            self.cursor = next(i for i, (slot, _) in enumerate(flat) if slot in playable)

    def point_at(self, snap: TableSnapshot, slot: Any) -> None:
        slots = [s for s, _card in flat_hand(snap.view, snap.seat)]
        if slot in slots:
            self.cursor = slots.index(slot)

    def handle(self, key: str, snap: TableSnapshot) -> None:
        """React to one key (never waits)."""
        if self.handle_picker(key):
            return
        view: EightsState = snap.view
        flat = flat_hand(view, snap.seat)
        if key == "left":
            self.cursor = max(0, self.cursor - 1)
        elif key == "right":
            self.cursor = min(len(flat) - 1, self.cursor + 1) if flat else 0
        elif key in ("home", "end"):
            self.cursor = 0 if key == "home" else max(0, len(flat) - 1)
        elif key in ("up", "down") and flat:
            suit = flat[self.cursor][1].suit
            step = 1 if key == "down" else -1
            for offset in range(1, 4):
                target = Suit((suit + step * offset) % 4)
                first = next((i for i, (_slot, c) in enumerate(flat) if c.suit == target),
                             None)
                if first is not None:
                    self.cursor = first
                    break
        elif key == "m":
            self.menu_of_moves(snap)
        elif key == "p":
            passes = [a for a in snap.legal if isinstance(a, Pass)]
            if passes:
                self.submit(passes[0])
            else:
                # ruling E-7: passing is for round 8 only
                self.say(_("you may pass only in round 8 without a playable card"), error=True)
        elif key in ("t", "n"):
            self._play_eight(snap, flat, key == "t")
        elif key in ("enter", "x") and flat:
            self._play(snap, flat[min(self.cursor, len(flat) - 1)], key)

    def _play_eight(self, snap: TableSnapshot, flat: list[tuple[SlotId, Card]],
                    take: bool) -> None:
        """``t`` / ``n``: play the 8 of the led suit (any 8 when leading) with take / no take
        (ruling E-4), wherever the cursor is; refused in one line when there is none to play.
        Leading with two 8s in hand, the one under the cursor is played, else the player is
        asked to move onto one."""
        if not snap.legal:
            self.say_not_now(snap)
            return
        eights = [a for a in snap.legal if isinstance(a, Play) and a.take is take]
        view: EightsState = snap.view
        if not eights:
            if view.round >= 8:
                # ruling E-7: round 8 is a layout, not tricks
                text = _("t / n: round 8 has no tricks, so no 8 is played with take")
            elif view.trick:  # ruling E-4
                led = suit_words(Suit(view.trick[0].card // NUMBERS))
                text = _("no 8 of {suit} to play: t / n play the 8 of the led suit").format(
                    suit=led)
            else:  # ruling E-4
                text = _("no 8 to lead: t / n lead an 8 with take / no take")
            self.say(text, error=True)
            return
        slots = {a.slot for a in eights}
        under = flat[min(self.cursor, len(flat) - 1)][0] if flat else None
        if len(slots) > 1 and under not in slots:
            self.say(_("you may lead any of your 8s: move onto one and press t to lead it with "
                       "take") if take else
                     _("you may lead any of your 8s: move onto one and press n to lead it with "
                       "no take"), error=True)
            return
        chosen = next(a for a in eights if a.slot == under) if under in slots else eights[0]
        self.submit(chosen)

    def _play(self, snap: TableSnapshot, current: tuple[SlotId, Card], key: str) -> None:
        if not snap.legal:
            self.say_not_now(snap)
            return
        slot, card = current
        plays = [a for a in snap.legal if isinstance(a, Play) and a.slot == slot]
        if not plays:
            led = snap.view.trick[0].card // NUMBERS if snap.view.trick else None
            why = (_("follow suit: {suit} was led").format(  # ruling E-3
                suit=suit_words(Suit(led))) if led is not None
                   else _("it does not fit the layout"))  # ruling E-7
            self.say(_("{card} cannot be played: {reason}").format(card=card, reason=why),
                     error=True)
            return
        if len(plays) == 1:
            self.submit(plays[0])
            return
        choices = [a for take in (True, False) for a in plays if a.take is take]
        # ruling E-4: the 8 of the led suit is played with take or no take; the chooser opens
        # on the hint's choice (the trial read "no take", pressed Enter, Enter and took it)
        self.open_picker(_("play {card}: the 8 of the led suit").format(card=card),
                         [_("take (this 8 wins the trick)"),
                          _("no take (the highest other card of the suit wins)")],
                         lambda i: self._submit_later(choices[i]),
                         start=hinted_index(self.hinted(snap), choices))
