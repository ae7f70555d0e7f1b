"""The Level 8 keys: every move of both editions by keyboard, each a legal action of the snapshot
or a lay-down the engine accepts (ruling ids in :mod:`lancards.engine.level8.actions`).

Normal keys (``?`` lists them in the game): Left/Right move the cursor over the hand, Space marks
a card, ``s`` sorts by number or colour; ``d`` draws from the draw pile, ``1``-``6`` draw the top
of that player's discard pile; ``l`` opens the lay-down builder; ``a`` adds the card under the
cursor to a meld; ``x`` discards it; ``p`` plays it as a special card; ``e`` ends a swap, the
keeping or a skipped turn; ``k`` keeps a card at round end; Enter shows the marked cards (I'll
take that!) or chooses a shown card; ``m`` lists every legal move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import N_, _, ngettext
from lancards.cli.session import TableSnapshot
from lancards.cli.tui import level8_view as draw
from lancards.cli.tui.builder import LayDownBuilder
from lancards.cli.tui.builder_panel import builder_panel
from lancards.cli.tui.cards import placed_text
from lancards.cli.tui.controller import (
    WATCH_HINTS,
    BaseController,
    KeyHelp,
    name_of,
    pending_text,
    short_error,
    styled_cards,
)
from lancards.cli.tui.hand_order import load_by_colour, save_by_colour, table_folder
from lancards.cli.tui.hint_enter import enter_words
from lancards.cli.tui.hint_follow import hinted_index, shown_marks
from lancards.cli.tui.narrate import requirement
from lancards.cli.tui.skip_discard import skip_discard_words
from lancards.cli.tui.skipped_turn import SkippedTurn
from lancards.cli.tui.stopped_watch import watcher_hand
from lancards.engine.core import SlotId
from lancards.engine.level8.actions import (
    Add,
    Choose,
    Discard,
    Draw,
    DrawDiscard,
    EndTurn,
    Keep,
    KeepEnd,
    LayDown,
    PlaySpecial,
    ServeSkip,
    Show,
    SwapEnd,
    SwapPut,
)
from lancards.engine.level8.cards import Card, Kind
from lancards.engine.level8.state import Level8State, Phase
from lancards.engine.level8.steps import keep_allowance

A = TypeVar("A")

HELP: tuple[KeyHelp, ...] = (
    (N_("Left/Right"), N_("move the cursor over your hand")),
    (N_("Space"), N_("mark or unmark the card under the cursor")),
    ("s", N_("sort the hand by number or by colour")),
    ("d", N_("draw the top card of the draw pile")),
    ("1-6", N_("draw the top card of that player's discard pile")),
    ("l", N_("lay down your level: the builder (1-9 assign, j/J or v joker value, Tab offers)")),
    ("a", N_("add the card under the cursor to a meld on the table")),
    ("x", N_("discard the card under the cursor (ends the turn)")),
    ("p", N_("play the special card under the cursor (TAKE, SWAP, KEEP) instead of a "
          "discard: your turn then ends")),
    (N_("Home / End"), N_("the cursor to the first / last card of your hand")),
    (N_("(table)"), N_("discard: each player's top discard and, in brackets, how many cards the "
                "pile holds (R7(3)); kept: the KEEP cards in front of them")),
    (N_("Enter"), N_("show the 3 marked cards / choose a shown card")),
    (N_("x (swap)"), N_("put the card under the cursor on your discard pile; e: draw as many")),
    (N_("k (keep)"), N_("keep the card under the cursor into the next round; e: done")),
    ("e", N_("end: finish swapping or keeping, end an empty-handed turn")),
    ("m", N_("list every legal move and pick one")),
)

SKIP_HELP: dict[str, KeyHelp | None] = {
    "p": ("p", N_("put the SKIP card under the cursor in front of a player instead of a "
                  "discard: your turn then ends")),
    N_("(table)"): (N_("(table)"), N_("discard: each player's top discard and, in brackets, how "
                                    "many cards the pile holds (R7(3)); skip: a SKIP card in "
                                    "front of them, they sit out their next turn")),
    N_("Enter"): (N_("Enter"), N_("serve a Skip")),
    N_("x (swap)"): None,
    "e": ("e", N_("end: finish keeping, serve a Skip, end an empty-handed turn")),
}
"""Level 8's own words in place of :data:`HELP`'s (Level 8 Master's: TAKE, SWAP, KEEP), and
``level8-en``'s: its special card is SKIP, no swapping (the new-user trial of 2026-12-07 read
TAKE, SWAP and KEEP in the ``?`` list of a Level 8 table)."""


def game_help(master: bool) -> tuple[KeyHelp, ...]:
    """:data:`HELP` with the words of the rule set's own special cards (``master``: Level 8
    Master's TAKE, SWAP, KEEP, as :data:`HELP` says them; else :data:`SKIP_HELP`)."""
    words: dict[str, KeyHelp | None] = {} if master else SKIP_HELP
    out = []
    for key, text in HELP:
        entry = words.get(key, (key, text))
        if entry is not None:
            out.append(entry)
    return tuple(out)


BUILDER_HELP: tuple[KeyHelp, ...] = (
    ("", N_("in the lay-down builder (l):")),  # a heading: keys_panel puts it below the table's
    ("1-9", N_("assign the marked cards (or the card under the cursor) to that component")),
    (N_("0 / Backspace"), N_("take the card(s) out of their component")),
    ("j / J", N_("next / previous declared value of the joker under the cursor")),
    ("v", N_("choose the joker's value from a list")),
    (N_("Tab / Shift-Tab"), N_("load the next / previous lay-down the engine offers")),
    ("u", N_("clear the builder")),
    (N_("Enter"), N_("lay down")),
    (N_("Esc"), N_("close the builder")),
)


def _of(legal: Any, kind: type[A], test: Callable[[A], bool] = lambda a: True) -> list[A]:
    return [a for a in legal if isinstance(a, kind) and test(a)]


@dataclass
class Level8Controller(BaseController):
    """Keys and screen parts of the Level 8 table."""

    by_colour: bool = False
    cursor: int = 0
    builder: LayDownBuilder | None = None
    offer: int = -1
    skipped: SkippedTurn = field(default_factory=SkippedTurn)
    goal_help: ClassVar[str] = N_("every player's level, and your level card in full")

    def __post_init__(self) -> None:
        """A resumed table's hand comes back sorted as it was left (:mod:`.hand_order`)."""
        self.by_colour = self.by_colour or load_by_colour(table_folder(self.session))

    def state_changed(self, snap: TableSnapshot) -> None:
        super().state_changed(snap)
        self.skipped.observe(self, snap)  # a skipped turn passes by itself

    def close(self) -> None:
        self.skipped.close()

    # -- drawing -----------------------------------------------------------------------------

    def hand(self, snap: TableSnapshot) -> list[tuple[SlotId, Card]]:
        """The own hand, sorted as chosen."""
        return draw.sorted_hand(snap.view, snap.seat, self.by_colour)

    def shown_slots(self, snap: TableSnapshot) -> list[Any]:
        return [slot for slot, _card in self.hand(snap)]

    def builder_open(self) -> bool:
        return self.builder is not None

    def builder_ready(self, snap: TableSnapshot) -> bool:
        return self.builder is not None and self.builder.error(snap.game, snap.view) is None

    def point_at(self, snap: TableSnapshot, slot: Any) -> None:
        slots = [s for s, _card in self.hand(snap)]
        if slot in slots:
            self.cursor = slots.index(slot)

    def told_words(self, action: Any) -> str:
        return skip_discard_words(action)

    def follow_hint(self, snap: TableSnapshot, move: Any) -> None:
        """A hint to show cards for "I'll take that!" marks them (Space unmarks), the cursor on
        the first: Enter shows them (the trial read ``hint: show R6 R12 Y15`` and nothing
        marked)."""
        marks = shown_marks(move) & set(self.shown_slots(snap))
        if marks:
            self.marks = marks
            self.point_at(snap, next(s for s in self.shown_slots(snap) if s in marks))

    def title(self, snap: TableSnapshot, width: int = 0) -> StyleAndTextTuples:
        return draw.title(snap, width)

    def table(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        return draw.table(snap, width)

    def follow_new_card(self, cards: list[tuple[SlotId, Card]]) -> None:
        """After a draw (one new card in the hand), put the cursor on the new card: its
        index in the sorted hand, not the old index, which lands on another card."""
        slots = [slot for slot, _card in cards]
        before = getattr(self, "_slots", None)
        self._slots = slots
        if before:
            new = [i for i, slot in enumerate(slots) if slot not in before]
            if len(new) == 1:
                self.cursor = new[0]

    def hand_view(self, snap: TableSnapshot, width: int) -> StyleAndTextTuples:
        if (watcher := watcher_hand(snap)) is not None:  # lancards watch; voted out, halted
            return watcher
        cards = self.hand(snap)
        self.follow_new_card(cards)
        self.cursor = min(self.cursor, max(0, len(cards) - 1))
        labels: dict[SlotId, str] = {}
        if self.builder is not None:
            for index, group in enumerate(self.builder.groups):
                for p in group:
                    labels[p.slot] = str(index + 1)
        self.marks &= {s for s, _card in cards}
        sort = _("colour") if self.by_colour else _("number")
        view: Level8State = snap.view
        kept = list(view.kept[snap.seat]) if view.kept and view.phase is Phase.KEEP else []
        for slot in kept:
            labels[slot] = "k"
        out: StyleAndTextTuples = [("class:header", " " + ngettext(
            "your hand ({count} card{pending}, by {sort}; s sorts)",
            "your hand ({count} cards{pending}, by {sort}; s sorts)", len(cards)).format(
                count=len(cards), pending=pending_text(snap), sort=sort))]
        allowance = keep_allowance(view, snap.seat) if view.phase is Phase.KEEP else 0
        if allowance:  # a viewer who may keep nothing is told nothing (not "up to 0 cards")
            names = " ".join(str(view.cards.get(s, "?")) for s in kept) or _("nothing yet")
            out.append(("", " · " + _("you keep:") + " "))
            out.extend(styled_cards(names))
            out.append(("", " " + ngettext("(up to {count} card)", "(up to {count} cards)",
                                           allowance).format(count=allowance) + "\n"))
        else:
            out.append(("", ":\n"))
        own_row = self.builder is not None or view.phase is Phase.KEEP  # labels: ^ below them
        return out + draw.hand_lines(cards, self.cursor, self.marks, width, labels, own_row)

    def panel(self, snap: TableSnapshot, height: int, width: int = 0) -> StyleAndTextTuples | None:
        """The picker or the lay-down builder, if open, in ``height`` rows of ``width`` columns
        (the picker keeps its highlighted choice in them: :meth:`Picker.render`)."""
        if self.picker is not None:
            return self.picker.render(height, width)
        if self.builder is not None:
            return builder_panel(self.builder, snap, self.offer, width)
        return None

    def hints(self, snap: TableSnapshot) -> str:
        """The keys that do something now."""
        if self.picker is not None:
            return _("a choice's number, or up/down and Enter · Esc cancels")
        if snap.extra.get("watching") or snap.extra.get("removed_me"):
            return _(WATCH_HINTS)  # a seat voted out watches: no moves to offer
        if self.builder is not None:
            # Tab is on the panel ("Tab loads lay-down 1 of 12"): room for q at 80 columns
            return _("1-9 assign · 0 unassign · j/v joker · Enter lay down · Esc")
        if snap.to_act != snap.seat:
            return _("s sort · m moves · c chat")
        phase = snap.view.phase
        if phase is Phase.SHOW:
            return self._show_hint(snap)
        if phase is Phase.PLAY and snap.view.down[snap.seat]:  # once per round: l is refused
            return _("a add · x discard · p special · m moves")
        return {
            Phase.DRAW: _("d draw pile · 1-{n} a discard pile · s sort").format(n=snap.view.n),
            Phase.PLAY: _("l lay down · a add · x discard · p special · m moves"),
            Phase.CHOOSE: _("Enter choose a shown card · n none · m moves"),
            Phase.SWAP: _("x put the card on your discard pile (up to 3) · e draw and end"),
            # the header says how many ("you keep: ... (up to 4 cards)"): room for "h hint"
            Phase.KEEP: _("k keep the card under the cursor · e done"),
            Phase.SKIPPED: _("your turn is skipped and passes by itself · Enter or e: at once"),
        }.get(phase, _("m moves"))

    def _show_hint(self, snap: TableSnapshot) -> str:
        shows = _of(snap.legal, Show)
        need = len(shows[0].cards) if shows else 0
        # without "m moves" (the ? list has it): room for "h hint" at 80 columns (the trial)
        return ngettext("Space marks {count} card ({marked} marked) · Enter shows them",
                        "Space marks {count} cards ({marked} marked) · Enter shows them",
                        need).format(count=need, marked=len(self.marks))

    def help(self) -> tuple[KeyHelp, ...]:
        master = self.session is None or self.session.snapshot().rule_set == "level8-master"
        return (*game_help(master), (N_("(colours)"), draw.colour_legend()), *BUILDER_HELP)

    def objective(self, snap: TableSnapshot) -> list[str]:
        """Every player's level card side: the current level of each, then the whole card."""
        view: Level8State = snap.view
        # rulings L8-4 (the combinations), L8-10 (climbing a level, WIN past level 8)
        out = [_("{game}: lay down your level's combinations, then go out; climb 8 levels to "
                 "win.").format(
                     game=_(draw.EDITION_TITLES.get(snap.rule_set, snap.rule_set))), ""]
        for seat in range(view.n):
            level = view.levels[seat]
            who = name_of(snap, seat)
            if level >= 9:
                out.append(f"{seat + 1} {who}: {_('WIN')}")
            else:
                out.append(f"{seat + 1} {who}: " + _("level {number}: {requirement}").format(
                    number=level, requirement=requirement(view.level(seat))))
        card = view.level_cards[snap.seat] if view.level_cards and snap.seat >= 0 else None
        if card is not None:
            out += ["", _("your level card ({name}):").format(
                name=draw.level_card_name(card.name))]
            mine = view.levels[snap.seat]
            for number, level_ in enumerate(card.levels, start=1):
                mark = ">" if number == mine else " "
                out.append(f" {mark} " + _("level {number}: {requirement}").format(
                    number=number, requirement=requirement(level_)))
        return out

    # -- keys --------------------------------------------------------------------------------

    def handle(self, key: str, snap: TableSnapshot) -> None:
        """React to one key (never waits)."""
        if self.handle_picker(key):
            return
        cards = self.hand(snap)
        self.follow_new_card(cards)
        current = cards[self.cursor] if 0 <= self.cursor < len(cards) else None
        if key == "left":
            self.cursor = max(0, self.cursor - 1)
        elif key == "right":
            self.cursor = min(len(cards) - 1, self.cursor + 1) if cards else 0
        elif key in ("home", "end"):
            self.cursor = 0 if key == "home" else max(0, len(cards) - 1)
        elif key == "space" and current is not None:
            self.marks ^= {current[0]}
        elif key == "s":
            self.by_colour = not self.by_colour
            save_by_colour(table_folder(self.session), self.by_colour)
            if current is not None:  # the cursor stays on its card, not at its index
                self.cursor = [slot for slot, _card in self.hand(snap)].index(current[0])
            self.say(_("hand sorted by colour") if self.by_colour else _("hand sorted by number"))
        elif key == "m":
            self.menu_of_moves(snap)
        elif self.builder is not None:
            self._builder_key(key, snap, current)
        else:
            self._move_key(key, snap, current)

    def _move_key(self, key: str, snap: TableSnapshot,
                  current: tuple[SlotId, Card] | None) -> None:
        legal = snap.legal
        view: Level8State = snap.view
        face = current[1] if current else None
        if not legal:
            if key in "dlaxpkne" or key == "enter":
                self.say_not_now(snap)
            return
        if key == "d":
            self._one(_of(legal, Draw), _("you cannot draw now"))
        elif key.isdigit() and view.phase is Phase.DRAW:
            owner = int(key) - 1
            if not 0 <= owner < view.n:
                self.say(_("there is no player {key}: the players are 1 to {n}").format(
                    key=key, n=view.n), error=True)
                return
            empty = _("your discard pile ({number}) is empty") if owner == snap.seat else \
                _("{name}'s discard pile ({number}) is empty")
            self._one(_of(legal, DrawDiscard, lambda a: a.owner == owner),
                      empty.format(name=snap.names[owner], number=owner + 1))
        elif key == "x" and view.phase is Phase.SWAP:
            self._one(_of(legal, SwapPut, lambda a: a.card.card is face),
                      _("you cannot put that card down now (at most 3 are swapped)"))
        elif key == "x":
            self._one(_of(legal, Discard, lambda a: a.card.card is face),
                      _("you cannot discard now"))
        elif key == "p":
            self._special(snap, face)
        elif key == "l":
            self._open_builder(snap)
        elif key == "a":
            self._add(snap, face)
        elif key == "k":
            self._one(_of(legal, Keep, lambda a: view.cards.get(a.slot) is face),
                      _("you cannot keep that card (none left to keep, or it is kept already)"))
        elif key == "e":
            self._one(_of(legal, SwapEnd) + _of(legal, KeepEnd) + _of(legal, ServeSkip)
                      + _of(legal, EndTurn), _("nothing to end now"))
        elif key == "n" and view.phase is Phase.CHOOSE:
            self._one(_of(legal, Choose, lambda a: a.slot is None), _("no choice is due"))
        elif key == "enter":
            self._enter(snap)

    def _one(self, actions: list[Any], failure: str) -> None:
        if not actions:
            self.say(failure, error=True)
        else:
            self.submit(actions[0])

    def _enter(self, snap: TableSnapshot) -> None:
        legal, view = snap.legal, snap.view
        if view.phase is Phase.SHOW:
            faces = sorted(view.cards[s] for s in self.marks)
            need = len(_of(legal, Show)[0].cards) if _of(legal, Show) else 3
            match = _of(legal, Show, lambda a: sorted(p.card for p in a.cards) == faces)
            if not match:
                self.say(_("mark exactly {count} of your cards (Space), then Enter").format(
                    count=need), error=True)
            else:
                self.submit(match[0])
        elif view.phase is Phase.CHOOSE:
            chooses = _of(legal, Choose)
            ordered = [a for a in chooses if a.slot is not None]
            labels = [_("{name}'s {card}").format(name=name_of(snap, self._owner(view, a.slot)),
                                                  card=view.cards.get(a.slot, "?"))
                      for a in ordered]
            ordered += [a for a in chooses if a.slot is None]
            labels += [_("take none")] * (len(ordered) - len(labels))
            # the picker opens on the hint's choice, else on the first shown card: Enter Enter
            # never throws it away (the trial read "hint: take Ada's G1", then "> 1. Bram's O9")
            self.open_picker(_("take which shown card (I'll take that!)"), labels,
                             lambda i: self._submit_later(ordered[i]),
                             start=hinted_index(self.hinted(snap), ordered))
        elif view.phase is Phase.SKIPPED:
            self._one(_of(legal, ServeSkip), _("nothing to serve"))
        elif (hinted := enter_words(snap, self.hinted(snap))) is not None:
            self.say(hinted, error=True)  # the hint's move and key (cli/tui/hint_enter.py)
        elif view.phase is Phase.DRAW:  # the keys that draw (a new-user trial pressed Enter
            self.say(_("Enter does nothing now: d draws from the draw pile, 1-{count} from a "
                       "discard pile").format(count=view.n), error=True)  # after a draw's hint)
        elif view.phase is Phase.PLAY:  # 8s Rule!'s Enter plays the card: here x discards it
            self.say(_("Enter does nothing now: x discards the card under the cursor, ? shows "
                       "the keys"), error=True)
        else:
            self.say(_("Enter does nothing now; press ? for the keys"), error=True)

    @staticmethod
    def _owner(view: Level8State, slot: SlotId | None) -> int:
        return next(s for s, slots in enumerate(view.shown) if slot in slots)

    def _special(self, snap: TableSnapshot, face: Card | None) -> None:
        plays = _of(snap.legal, PlaySpecial, lambda a: a.card.card is face)
        if not plays:
            self.say(_("put the cursor on a special card you may play now"), error=True)
        elif face is not None and face.kind is Kind.SKIP:
            targets = [a for a in plays if a.target is not None]
            labels = [_("skip {name}").format(name=name_of(snap, a.target)) for a in targets
                      if a.target is not None]
            # the seats' own numbers, as on the table; the hint's seat first chosen (the trial
            # read the hint name Ada, then "> 1. skip Dov")
            hinted = self.hinted(snap)
            self.open_numbered(_("put the Skip card in front of"), labels,
                               [a.target + 1 for a in targets if a.target is not None],
                               lambda i: self._submit_later(targets[i]),
                               targets.index(hinted) if hinted in targets else 0)
        else:
            self.submit(plays[0])

    def _add(self, snap: TableSnapshot, face: Card | None) -> None:
        adds = _of(snap.legal, Add, lambda a: a.card.card is face)
        if not adds:
            if not snap.view.down[snap.seat]:
                reason = _("lay down your level first")  # ruling L8-7
            elif len(self.hand(snap)) == 1:  # an add may not empty the hand
                reason = _("a card must stay in your hand for the discard")  # ruling L8-8
            else:
                reason = _("{card} fits no combination on the table").format(card=face)
            self.say(reason, error=True)
            return
        melds = sorted({a.meld for a in adds})
        by_id = {m.id: m for m in snap.view.melds}

        def pick_meld(index: int) -> None:
            options = [a for a in adds if a.meld == melds[index]]
            if len(options) == 1:
                self.submit(options[0])
                return
            labels = [f"{placed_text(a.card)}" for a in options]
            self.open_picker(_("the joker's value"), labels,
                             lambda i: self._submit_later(options[i]))

        labels = [draw.meld_label(by_id[m], snap.names).split(" ", 1)[1] for m in melds]
        self.open_numbered(_("add {card} to which combination").format(card=face), labels,
                           [m + 1 for m in melds], pick_meld)

    # -- the lay-down builder ----------------------------------------------------------------

    def _open_builder(self, snap: TableSnapshot) -> None:
        view: Level8State = snap.view
        if view.down[snap.seat]:  # the trial of 2026-12-05 read "after drawing" here
            self.say(_("you have laid down this round: a adds cards to the combinations"),
                     error=True)
            return
        if view.phase is not Phase.PLAY:
            self.say(_("you lay down after drawing, once per round"), error=True)
            return
        hand = [(s, c) for s, c in view.hand_cards(snap.seat) if c is not None]
        self.builder = LayDownBuilder(snap.seat, view.level(snap.seat), hand)
        self.offer = -1
        offers, hinted = _of(snap.legal, LayDown), self.hinted(snap)
        if not offers:
            self.say(_("no lay-down found in your hand; you may still try"),
                     error=True)
        elif hinted in offers:  # the hint's lay-down, loaded (the trial pressed Tab 4 times)
            self.offer = offers.index(hinted)
            self.builder.load(hinted)
            self.say(_("offered lay-down {number} of {count}, the hint's: Enter lays it down, "
                       "Tab shows the others").format(number=self.offer + 1, count=len(offers))
                     if len(offers) > 1 else  # no others to show (a trial read "1 of 1, ...
                     _("the one lay-down offered, the hint's: Enter lays it down"))  # others")
        else:
            self.say(_("assign cards with 1-9, or Tab for the lay-downs the engine offers"))

    def _changed_by_hand(self, snap: TableSnapshot, before: object) -> None:
        """After a change by hand (``before``: :meth:`LayDownBuilder.assigned` before the key)
        to a lay-down loaded with Tab: the message line says it is the person's own now (it
        went on saying "offered lay-down 1 of 10": the trial of 2026-12-06); after ``u``
        (nothing assigned) it says nothing."""
        builder = self.builder
        if self.offer < 0 or builder is None or builder.assigned() == before:
            return
        if not any(builder.groups):
            self.say("")
            return
        self.say(_("offered lay-down {number} of {count}, changed by you").format(
            number=self.offer + 1, count=len(_of(snap.legal, LayDown))))

    def _builder_key(self, key: str, snap: TableSnapshot,
                     current: tuple[SlotId, Card] | None) -> None:
        builder = self.builder
        assert builder is not None
        if key == "escape":
            self.builder = None
            self.say(_("builder closed"))
        elif key in ("tab", "s-tab"):
            offers = _of(snap.legal, LayDown)
            if not offers:
                self.say(_("the engine offers no lay-down for this hand"), error=True)
                return
            self.offer = (self.offer + (1 if key == "tab" else -1)) % len(offers)
            builder.load(offers[self.offer])
            self.say(_("offered lay-down {number} of {count}").format(number=self.offer + 1,
                                                                       count=len(offers)))
        elif key == "enter":
            error = builder.error(snap.game, snap.view)
            if error:
                self.say(short_error(error), error=True)
            elif self.submit(builder.laydown()):
                self.builder = None
        else:
            before = builder.assigned()
            self._builder_edit(key, snap, builder, current)
            self._changed_by_hand(snap, before)

    def _builder_edit(self, key: str, snap: TableSnapshot, builder: LayDownBuilder,
                      current: tuple[SlotId, Card] | None) -> None:
        """A key that changes the builder by hand: 1-9, 0, j/J, v, u."""
        targets = sorted(self.marks) or ([current[0]] if current else [])
        if key.isdigit() and key != "0":
            for slot in targets:
                problem = builder.assign(slot, int(key) - 1)
                if problem:
                    self.say(problem, error=True)
                    return
            self.marks.clear()
        elif key in ("0", "backspace"):
            for slot in targets:
                builder.unassign(slot)
            self.marks.clear()
        elif key in ("j", "J") and current is not None:
            if builder.cycle(current[0], 1 if key == "j" else -1) is None:
                self.say(_("put the cursor on a joker assigned to a component"), error=True)
        elif key == "v" and current is not None:
            choices, numbers, start = builder.value_list(current[0])
            if not choices:
                self.say(_("put the cursor on a joker assigned to a component"), error=True)
                return
            slot = current[0]

            def declare(index: int) -> None:
                before = builder.assigned()
                builder.declare(slot, choices[index])
                self._changed_by_hand(snap, before)

            title, labels = _("value of {card}").format(card=current[1]), map(placed_text, choices)
            if numbers:  # typed as the value: 8 for J6-10=8
                self.open_numbered(title, list(labels), numbers, declare, start=start)
            else:
                self.open_picker(title, list(labels), declare, start=start)
        elif key == "u":
            builder.clear()

