"""The 8s Rule! table and its keys (rulings E-1 to E-10).

Shows the hand by suit (one row per suit), the current trick with who leads, the last trick,
tricks taken, the round objective (marked "not from the publisher" for the default set, ruling
E-6), running scores, and in round 8 the layout as four suit rows (ruling E-7). Keys: Left/Right
move over the hand, Up/Down jump between suits, Enter (or ``x``) plays the card under the cursor,
``t`` / ``n`` play the 8 of the led suit with "take" / "no take" (ruling E-4), ``p`` passes in
round 8, ``m`` lists every legal move.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.session import TableSnapshot
from lancards.cli.tui.cards import card_fragment, cards_line
from lancards.cli.tui.controller import (
    WATCH_HINTS,
    BaseController,
    KeyHelp,
    bot_words,
    gone_words,
    name_of,
    not_now,
    pending_text,
    verb_for,
    watch_hand,
)
from lancards.cli.tui.narrate import objective_text, plural
from lancards.cli.tui.width import NAME_COLUMNS, pad, text_width
from lancards.engine.core import CHANCE, SlotId
from lancards.engine.eights import EightsState, Pass, Phase, Play, Suit
from lancards.engine.eights.cards import CARDS, NUMBERS, Card

HELP: tuple[KeyHelp, ...] = (
    ("Left/Right", "move the cursor over your hand"),
    ("Home / End", "the cursor to the first / last card of your hand"),
    ("Up/Down", "jump to the previous / next suit"),
    ("Enter or x", "play the card under the cursor"),
    ("t / n", "play the 8 of the led suit with take / no take (ruling E-4)"),
    ("p", "pass (round 8, only without a playable card; ruling E-7)"),
    ("m", "list every legal move and pick one"),
)


def suit_rows(view: EightsState, seat: int) -> list[tuple[Suit, list[tuple[SlotId, Card]]]]:
    """The own hand by suit (Red, Blue, Yellow, Green), each ascending."""
    rows: list[tuple[Suit, list[tuple[SlotId, Card]]]] = [(suit, []) for suit in Suit]
    for slot in view.hands[seat]:
        card = view.card(slot)
        if card is not None:
            rows[card.suit][1].append((slot, card))
    for _, cards in rows:
        cards.sort(key=lambda e: e[1].number)
    return rows


def flat_hand(view: EightsState, seat: int) -> list[tuple[SlotId, Card]]:
    """The own hand in suit order (the cursor's order)."""
    return [e for _, cards in suit_rows(view, seat) for e in cards]


def objective_line(view: EightsState) -> str:
    """The round's objective, with its source (ruling E-6) or the round-8 rule (E-7)."""
    if view.round >= 8:
        return "round 8, the layout: +10 per card left, -25 for going out (ruling E-7)"
    if view.round < 1:
        return "cutting for the first dealer (ruling E-2)"
    objective = view.rules.objectives.for_round(view.round)
    objectives = view.rules.objectives
    mark = "" if objectives.from_publisher else " · not from the publisher (o: in full)"
    return f"objective: {objective_text(objective)}{mark}"


@dataclass
class EightsController(BaseController):
    """Keys and screen parts of the 8s Rule! table."""

    cursor: int = 0

    def title(self, snap: TableSnapshot) -> StyleAndTextTuples:
        view: EightsState = snap.view
        parts = ["8s Rule!"]
        if view.round:
            parts.append(f"round {view.round} of 8")
        if view.dealer >= 0:
            parts.append(f"dealer {snap.names[view.dealer]}")
        if snap.to_act is None:
            turn = ("class:result", "game over")
        elif snap.to_act == CHANCE:
            turn = ("class:dim", "shuffling, dealing or opening hands...")
        elif snap.to_act == snap.seat:
            turn = ("class:yourturn", "YOUR TURN: play a card" if view.phase is Phase.TRICKS
                    else "YOUR TURN: lay a card on the layout or pass")
        else:
            turn = ("class:turn", f"{snap.names[snap.to_act]} plays")
        return [("class:title", " " + " · ".join(parts) + " "), ("", "  "), turn]

    def table(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        view: EightsState = snap.view
        out: StyleAndTextTuples = [("class:objective", " " + objective_line(view) + "\n")]
        totals = view.totals()
        name_w = max(6, min(NAME_COLUMNS + 1, max(text_width(n) for n in snap.names) + 1))
        out.append(("class:header", f"   # {'player':<{name_w}} hand tricks total\n"))
        gone = gone_words(snap)
        bots = bot_words(snap)
        for seat in range(view.n):
            mark = ">" if snap.to_act == seat else " "
            style = "class:dim" if seat in gone else "class:me" if seat == snap.seat else ""
            tricks = sum(1 for w in view.trick_winners if w == seat)
            note = f"  {gone[seat]}" if seat in gone else f"  {bots[seat]}" if seat in bots \
                else ""
            out.append((style, f" {mark} {seat + 1} {pad(snap.names[seat], name_w)} "
                               f"{len(view.hands[seat]):>4} {tricks:>6} {totals[seat]:>5}"
                               f"{note}\n"))
        if view.phase is Phase.LAYOUT:
            out.extend(self._layout(view))
        else:
            out.extend(self._trick(snap))
        return out

    @staticmethod
    def _layout(view: EightsState) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:header", " the layout:\n")]
        for suit, (low, high) in zip(Suit, view.layout, strict=True):
            out.append(("", f"  {suit.title:<7}"))
            if low == 0:
                out.append(("class:dim", "- (needs its 8)\n"))
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
            out.append(("", f" trick {number}, {name_of(snap, lead.seat)} led {suit.title}: "))
            for index, play in enumerate(view.trick):
                out.append(("", " · " if index else ""))
                out.append(("", f"{snap.names[play.seat]} "))
                out.append(card_fragment(CARDS[play.card]))
                if play.take is not None:
                    out.append(("class:declare", " take" if play.take else " no take"))
            out.append(("", "\n"))
        elif view.phase is Phase.TRICKS and view.turn >= 0:
            out.append(("", f" trick {number}: "
                            f"{verb_for(name_of(snap, view.turn), 'leads', 'lead')}\n"))
        if view.trick_winners:
            last = len(view.trick_winners)
            cards = [CARDS[e.card] for e in view.history if e.number == last and e.card >= 0]
            out.append(("class:dim", f" last trick ({name_of(snap, view.trick_winners[-1])} "
                                     "took it): "))
            out.extend(cards_line(cards))
            out.append(("", "\n"))
        return out

    def hand_view(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        if snap.extra.get("watching"):
            return watch_hand(snap)
        view: EightsState = snap.view
        flat = flat_hand(view, snap.seat)
        self.cursor = min(self.cursor, max(0, len(flat) - 1))
        playable = {a.slot for a in snap.legal if isinstance(a, Play)}
        out: StyleAndTextTuples = [("class:header",
                                    f" your hand ({plural(len(flat), 'card')}"
                                    f"{pending_text(snap)}):\n")]
        index = 0
        for suit, cards in suit_rows(view, snap.seat):
            out.append(("", f"  {suit.title:<7}"))
            for slot, card in cards:
                extra = "reverse" if index == self.cursor else ""
                left, right = ("[", "]") if index == self.cursor else (" ", " ")
                out.append(("", left))
                out.append(card_fragment(card, extra))
                out.append(("", ("+" if slot in playable else " ") + right))
                index += 1
            out.append(("", "\n"))
        if snap.legal:
            out.append(("class:dim", "  + = playable now\n"))
        return out

    def panel(self, snap: TableSnapshot, height: int) -> StyleAndTextTuples | None:
        return self.picker.render(height) if self.picker is not None else None

    def hints(self, snap: TableSnapshot) -> str:
        if self.picker is not None:
            return "a choice's number, or up/down and Enter · Esc cancels"
        if snap.extra.get("watching"):
            return WATCH_HINTS
        if snap.to_act != snap.seat:
            return "m moves · c chat"
        if any(isinstance(a, Pass) for a in snap.legal):
            return "no playable card: p pass"
        return "Enter/x play · t/n an 8 with take/no take · m moves"

    def help(self) -> tuple[KeyHelp, ...]:
        return HELP

    def objective(self, snap: TableSnapshot) -> list[str]:
        """This round's objective in full, then every round's (ruling E-6; round 8: E-7)."""
        view: EightsState = snap.view
        objectives = view.rules.objectives
        out = [objective_line(view), ""]
        for number in range(1, 8):
            mark = ">" if number == view.round else " "
            out.append(f" {mark} round {number}: {objective_text(objectives.for_round(number))}")
        mark = ">" if view.round >= 8 else " "
        out.append(f" {mark} round 8: the layout: +10 per card left, -25 for going out "
                   "(ruling E-7)")
        out += ["", f"objectives: {objectives.notice}",
                "the lowest total after round 8 wins (ruling E-9)"]
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
                first = next((i for i, (_, c) in enumerate(flat) if c.suit == target), None)
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
                self.say("you may pass only in round 8 without a playable card (ruling E-7)",
                         error=True)
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
            self.say(not_now(snap), error=True)
            return
        word = "take" if take else "no take"
        eights = [a for a in snap.legal if isinstance(a, Play) and a.take is take]
        view: EightsState = snap.view
        if not eights:
            if view.round >= 8:
                text = "t / n: round 8 has no tricks, so no 8 is played with take (ruling E-7)"
            elif view.trick:
                led = Suit(view.trick[0].card // NUMBERS).title
                text = f"no 8 of {led} to play: t / n play the 8 of the led suit (ruling E-4)"
            else:
                text = "no 8 to lead: t / n lead an 8 with take / no take (ruling E-4)"
            self.say(text, error=True)
            return
        slots = {a.slot for a in eights}
        under = flat[min(self.cursor, len(flat) - 1)][0] if flat else None
        if len(slots) > 1 and under not in slots:
            self.say(f"you may lead any of your 8s: move onto one and press {'t' if take else 'n'}"
                     f" to lead it with {word}", error=True)
            return
        chosen = next(a for a in eights if a.slot == under) if under in slots else eights[0]
        self.submit(chosen)

    def _play(self, snap: TableSnapshot, current: tuple[SlotId, Card], key: str) -> None:
        if not snap.legal:
            self.say(not_now(snap), error=True)
            return
        slot, card = current
        plays = [a for a in snap.legal if isinstance(a, Play) and a.slot == slot]
        if not plays:
            led = snap.view.trick[0].card // NUMBERS if snap.view.trick else None
            why = (f"follow suit: {Suit(led).title} was led (ruling E-3)" if led is not None
                   else "it does not fit the layout (ruling E-7)")
            self.say(f"{card} cannot be played: {why}", error=True)
            return
        if len(plays) == 1:
            self.submit(plays[0])
            return
        by_take = {a.take: a for a in plays}
        self.open_picker(f"play {card}: the 8 of the led suit (ruling E-4)",
                         ["take (this 8 wins the trick)",
                          "no take (the highest other card of the suit wins)"],
                         lambda i: self._submit_later(by_take[i == 0]))
