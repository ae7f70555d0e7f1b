"""Drawing the Level 8 table (both editions) from a snapshot: players, piles, melds, the hand.

Pure functions from a :class:`~lancards.cli.session.TableSnapshot` (whose ``view`` is a
``Level8State``) to prompt-toolkit formatted text; the keys live in :mod:`cli.tui.level8_keys`.
"""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from lancards.cli.i18n import N_, _, ngettext, pgettext
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.cards import card_fragment, placed_text
from lancards.cli.tui.controller import bot_words, gone_words, name_of, styled_cards, title_line
from lancards.cli.tui.narrate import dealer_words, meld_kind, requirement
from lancards.cli.tui.requirement_wrap import wrapped_all
from lancards.cli.tui.width import NAME_COLUMNS, pad, pad_left, text_width
from lancards.cli.tui.words import over_fragment
from lancards.engine.core import CHANCE, SlotId
from lancards.engine.level8.cards import COLOUR_INDEX, Card
from lancards.engine.level8.levels import CLASSIC_FRONT, MASTER_FRONT, ComponentKind
from lancards.engine.level8.melds import Meld
from lancards.engine.level8.state import Level8State, Phase

EDITION_TITLES = {
    "level8-master": "Level 8 Master",
    "level8": "Level 8",
    "level8-en": N_("Level 8 (English rule sheet)"),
}
"""The games' names (shown as ``_(EDITION_TITLES[rule_set])``: the names are the games')."""

LEVEL_CARD_NAMES = {
    MASTER_FRONT.name: N_("Level 8 Master, front side (1 star)"),
    CLASSIC_FRONT.name: N_("Level 8, front side (1 star)"),
}
"""The built-in level cards' names in words (the engine's ``LevelCard.name`` is notation, kept
in records; the German panel read "front (1 star)"). A card from a file keeps its own name."""


def level_card_name(name: str) -> str:
    """A level card's name in the player's language: :data:`LEVEL_CARD_NAMES`, or as given."""
    return _(LEVEL_CARD_NAMES[name]) if name in LEVEL_CARD_NAMES else name

PHASE_DOING = {
    Phase.DRAW: N_("draws"),
    Phase.PLAY: N_("plays: lay down, add, discard"),
    Phase.SHOW: N_("shows cards for I'll take that!"),
    Phase.CHOOSE: N_("chooses one shown card (I'll take that!)"),
    Phase.SWAP: N_("swaps cards (I'll swap that!)"),
    Phase.KEEP: N_("chooses cards to keep"),
    Phase.SKIPPED: N_("is skipped (Skip!)"),
}

YOU_DOING = {
    Phase.DRAW: N_("draw a card"),
    # German "auslegen, anlegen, ablegen" (no "dann"): the dealer fits at 80 columns
    Phase.PLAY: N_("lay down, add, then discard"),
    Phase.SHOW: N_("show 3 cards for TAKE"),  # the card's name: the dealer fits at 80 columns
    Phase.CHOOSE: N_("take a shown card or none"),
    Phase.SWAP: N_("swap up to 3 cards"),
    Phase.KEEP: N_("choose cards to keep"),
    Phase.SKIPPED: N_("you are skipped"),
}


def number_key(entry: tuple[SlotId, Card | None]) -> tuple[int, int, int, int]:
    """Sort by number: number cards by number then colour, then jokers, then specials."""
    slot, card = entry
    if card is None:
        return (3, 0, 0, slot)
    if card.is_number:
        assert card.colour is not None
        return (0, card.number, COLOUR_INDEX[card.colour], slot)
    return (1 if card.is_joker else 2, card.sort_key, 0, slot)


def colour_key(entry: tuple[SlotId, Card | None]) -> tuple[int, int, int, int]:
    """Sort by colour: number cards by colour then number, then jokers, then specials."""
    slot, card = entry
    if card is None:
        return (3, 0, 0, slot)
    if card.is_number:
        assert card.colour is not None
        return (0, COLOUR_INDEX[card.colour], card.number, slot)
    return (1 if card.is_joker else 2, card.sort_key, 0, slot)


def sorted_hand(view: Level8State, seat: int, by_colour: bool) -> list[tuple[SlotId, Card]]:
    """``seat``'s hand with known identities, sorted by number or by colour."""
    hand = [(s, c) for s, c in view.hand_cards(seat) if c is not None]
    return sorted(hand, key=colour_key if by_colour else number_key)


def meld_label(meld: Meld, names: Sequence[str]) -> str:
    """``"2 Ada: run 3-6: R3 B4 J1-5=5 G6"`` (jokers with their declared values, ruling L8-6),
    the cards by number (a colour group's joker, which needs none, first).

    The leading number is the combination's number on screen, from 1 (the engine's meld id
    plus one): the ``a`` picker and the log ("added R7 to combination 2") use the same one.
    """
    kind = meld.kind
    what = meld_kind(meld)
    if kind is ComponentKind.COLOUR_GROUP:
        colour = _(COLOUR_WORDS[meld.colour.value]) if meld.colour else "?"
        what = f"{what} ({colour})"
    # by number, as the log tells them: a colour group read in the order it was marked
    # ("B6 B12 B11 B1 B14", the new-user trial) beside the log's "B1 B6 B11 B12"
    placed = sorted(meld.cards, key=lambda p: p.number or p.card.number)
    cards = " ".join(placed_text(p) for p in placed)
    return f"{meld.id + 1} {names[meld.owner]}: {what}: {cards}"


COLOUR_WORDS = {"R": N_("red"), "O": N_("orange"), "Y": N_("yellow"), "G": N_("green"),
                "B": N_("blue"), "P": N_("purple")}
"""Each colour letter's word (ruling L8-1), shown as ``_(COLOUR_WORDS[letter])``: the letter
stays on every card, the word is the legend's (``?`` keys) and a colour group's."""


def colour_legend() -> str:
    """``"R red, O orange, Y yellow, G green, B blue, P purple"`` in the player's words."""
    return ", ".join(f"{letter} {_(word)}" for letter, word in COLOUR_WORDS.items())


def title(snap: TableSnapshot, width: int = 0) -> StyleAndTextTuples:
    """The top line: game, round, dealer, whose turn and what they do (the dealer, then the
    round, left out where ``width`` columns cannot hold them: :func:`title_line`)."""
    view: Level8State = snap.view
    parts = [_(EDITION_TITLES.get(snap.rule_set, snap.rule_set))]
    if view.round:
        parts.append(_("round {number}").format(number=view.round))
    if view.dealer >= 0:
        parts.append(dealer_words(view.dealer, snap.seat, snap.names))
    return title_line(parts, turn_fragment(snap), width)


def turn_fragment(snap: TableSnapshot) -> tuple[str, str]:
    """Whose turn it is and what they may do."""
    view: Level8State = snap.view
    if snap.outcome is not None or snap.to_act is None:
        return over_fragment(snap)  # game over, or stopped on a cheat
    if snap.to_act == CHANCE:
        return ("class:dim", _("shuffling and dealing...") if view.phase is not Phase.DRAW
                else _("reshuffling the discard piles into a new draw pile..."))
    if snap.to_act == snap.seat:
        doing = _(YOU_DOING.get(view.phase, view.phase.value))
        shows = [a for a in snap.legal if type(a).__name__ == "Show"]
        if view.phase is Phase.SHOW and shows:  # all of them when fewer than 3 (L8M-1)
            count = len(shows[0].cards)
            doing = ngettext("show {count} card for TAKE", "show {count} cards for TAKE",
                             count).format(count=count)
        if view.phase is Phase.PLAY and view.down[snap.seat]:  # once per round (ruling L8-7)
            doing = _("add, then discard")
        return ("class:yourturn", _("YOUR TURN: {doing}").format(doing=doing))
    doing = _(PHASE_DOING[view.phase]) if view.phase in PHASE_DOING else ""
    return ("class:turn", _("{name} {doing}").format(name=snap.names[snap.to_act], doing=doing))


def _name_width(names: Sequence[str]) -> int:
    """The players column's width for ``names``: its header's or its widest name's, and a
    space (a name at most :data:`NAME_COLUMNS` wide)."""
    return max(6, text_width(_("player")),
               min(NAME_COLUMNS + 1, max(text_width(n) for n in names) + 1))


def front_header(rule_set: str) -> str:
    """The header of the players panel's last column, the cards in front of a player, saying
    what they are: Level 8 Master's ``kept`` (its KEEP cards), Level 8's ``skip`` (a SKIP card:
    the player sits out the next turn). The new-user trial of 2026-12-07 read ``front`` beside
    ``played by`` with nothing but the ``?`` list to say what it meant."""
    if rule_set == "level8-master":
        return pgettext("the players panel: the KEEP cards in front of a player", "kept")
    return pgettext("the players panel: a SKIP card in front of a player", "skip")


def table(snap: TableSnapshot, width: int) -> StyleAndTextTuples:
    """The players, the draw pile, the melds and any shown cards."""
    view: Level8State = snap.view
    out: StyleAndTextTuples = []
    # Every column as wide as its header or its widest value in the player's language.
    head = [_("player"), _("lvl"), _("requirement"), _("down"), _("hand"), _("discard"),
            front_header(snap.rule_set)]
    words = {"win": _("WIN"), "yes": _("yes"), "no": _("no")}
    lvl_w = max(3, text_width(head[1]), text_width(words["win"]))
    down_w = max(4, text_width(head[3]), text_width(words["yes"]), text_width(words["no"]))
    hand_w = max(4, text_width(head[4]))
    tops = [(view.cards.get(p[-1]) or "?", len(p)) for p in view.discards if p]
    pile_w = max(9, text_width(head[5]) + 2, *(text_width(f"{c}({n})") + 1 for c, n in tops))
    gone = gone_words(snap)
    bots = {s: w for s, w in bot_words(snap).items() if s not in gone}
    shown = [gone.get(s) or (requirement(view.level(s)) if view.levels[s] < 9 else "-")
             for s in range(view.n)]
    front_ws = [sum(1 + text_width(str(view.cards.get(s, "?"))) for s in view.in_front[seat])
                for seat in range(view.n)]
    front_w = max(text_width(head[6]) + 1, *front_ws)  # the cards in front, each after a space
    longest = max(text_width(r) for r in shown)
    fixed = 10 + lvl_w + down_w + hand_w + pile_w + front_w  # all but the names and requirement
    names = [name_of(snap, s) for s in range(view.n)]  # "hana (you)": the own row, as at play
    lines, room = [[text] for text in shown], width - _name_width(names) - fixed
    if max(12, longest) > room:  # wrapped before the mark goes (a LAN trial)
        wrap = wrapped_all(shown, room) if room >= 12 else None
        if wrap is not None:
            lines, longest = wrap, max(text_width(line) for rows in wrap for line in rows)
        elif max(12, longest) <= width - _name_width(snap.names) - fixed:
            names = list(snap.names)  # the mark never cuts a requirement: the row stays bold
    name_w = _name_width(names)
    req_w = max(12, min(max(30, longest), width - name_w - fixed))
    if bots:  # room for "bot, normal" at the rows' end: the column as wide as its longest
        req_w = min(req_w, max(11, longest))
    rows: list[StyleAndTextTuples] = []
    more: list[StyleAndTextTuples] = []  # a row's requirement beyond its first line
    for seat in range(view.n):
        mark = ">" if snap.to_act == seat else " "
        style = "class:dim" if seat in gone else "class:me" if seat == snap.seat else ""
        level = view.levels[seat]
        lvl = pad(words["win"], lvl_w) if level >= 9 else pad_left(str(level), lvl_w)
        down = words["yes"] if view.down[seat] else words["no"]
        lead = f" {mark} {seat + 1} {pad(names[seat], name_w)} {lvl} "
        row: StyleAndTextTuples = [(style, (
            f"{lead}{pad(lines[seat][0], req_w)} {pad(down, down_w)} "
            f"{pad_left(str(len(view.hands[seat])), hand_w)} "))]
        more.append([(style, " " * text_width(lead) + line + "\n") for line in lines[seat][1:]])
        pile = view.discards[seat]
        if pile:
            top = view.cards.get(pile[-1])
            row.append(card_fragment(top if top is not None else "?"))
            row.append(("", f"({len(pile)})".ljust(pile_w - text_width(str(top)))))
        else:
            row.append(("class:dim", "-".ljust(pile_w)))
        front = [view.cards.get(s) for s in view.in_front[seat]]
        for card in front:
            row.append(("", " "))
            row.append(card_fragment(card if card is not None else "?"))
        rows.append(row)
    # the bots in a column of their own, headed "played by" (under the KEEP and SKIP cards'
    # column, "kept" or "skip", they read as cards in front: the trial of 2026-12-06)
    by_w = max([text_width(_("played by")), *(text_width(w) for w in bots.values())])
    fits = bool(rows) and sum(text_width(f[1]) for f in rows[0][:1]) + pile_w + front_w + 1 \
        + by_w < width
    # "kept" or "skip" over the cards, each after a space (the trial of 2026-12-06: one column
    # left)
    last = f"{pad(head[6], front_w - 1)} {_('played by')}" if bots and fits else head[6]
    out.append(("class:header", f"   # {pad(head[0], name_w)} {pad(head[1], lvl_w)} "
                                f"{pad(head[2], req_w)} {pad(head[3], down_w)} "
                                f"{pad(head[4], hand_w)} {pad(head[5], pile_w)} {last}\n"))
    for seat, row in enumerate(rows):
        out.extend(row)
        if fits and seat in bots:
            out.append(("class:dim", " " * (front_w - front_ws[seat]) + f" {bots[seat]}"))
        out.append(("", "\n"))
        out.extend(more[seat])
    if bots and not fits:  # a row too long for the width: the levels on a line of their own
        out.append(("class:dim", f" {bot_line(snap.names, bots)}\n"))
    under = [view.cards.get(s) for s in view.under]
    out.append(("", " " + ngettext("draw pile: {count} card", "draw pile: {count} cards",
                                    len(view.pile)).format(count=len(view.pile))))
    if under:
        out.append(("", " · " + _("face up under it:") + " "))
        for index, card in enumerate(under):
            out.extend([("", " ")] if index else [])
            out.append(card_fragment(card if card is not None else "?"))
    out.append(("", "\n"))
    if view.melds:
        out.append(("class:header", " " + ngettext(
            "on the table ({count} combination):", "on the table ({count} combinations):",
            len(view.melds)).format(count=len(view.melds)) + "\n"))
        for meld in view.melds:
            out.append(("", "  "))
            out.extend(styled_cards(meld_label(meld, snap.names)))
            out.append(("", "\n"))
    else:
        out.append(("class:dim", " " + _("nothing laid down yet") + "\n"))
    if view.phase in (Phase.SHOW, Phase.CHOOSE) and any(view.shown):  # a heading over cards
        out.append(("class:header", " " + _("shown for I'll take that!:") + "\n"))
        for seat, slots in enumerate(view.shown):
            if slots:
                cards = " ".join(str(view.cards.get(s, "?")) for s in slots)
                out.append(("", f"  {name_of(snap, seat)}: "))
                out.extend(styled_cards(cards))
                out.append(("", "\n"))
    return out


def bot_line(names: Sequence[str], bots: dict[int, str]) -> str:
    """``"bots: Ada, Bram (normal) · Cleo (easy)"``: the bot seats of :func:`bot_words`, by
    level, for a table too narrow to say it on each row."""
    by_level: dict[str, list[str]] = {}
    for seat, words in sorted(bots.items()):
        by_level.setdefault(words.removeprefix(_("bot, {level}").format(level="")),
                            []).append(names[seat])
    return _("bots:") + " " + " · ".join(f"{', '.join(who)} ({level})"
                                  for level, who in by_level.items())


def hand_lines(
    cards: Sequence[tuple[SlotId, Card]],
    cursor: int,
    marks: set[SlotId],
    width: int,
    labels: dict[SlotId, str] | None = None,
    cursor_row: bool = False,
) -> StyleAndTextTuples:
    """The hand as card lines, each with a marker line under it.

    Under each card's first character: ``*`` a marked card and the builder's label (the
    component number it is assigned to), so nothing depends on colour alone; ``^`` the card
    under the cursor, its first character too. On the marker line, ``^`` stands first and
    the mark after it (``^*``); with ``cursor_row`` (the lay-down builder, the keep phase:
    labels under the cards) ``^`` has a line of its own under the labels, so it never touches
    a component number (the LAN trial read ``^2``; before it, ``^`` stood a column left of its
    card, and a trial of 2026-12-07 had read ``^1`` with the 1 a column right of the card).
    """
    labels = labels or {}
    out: StyleAndTextTuples = []
    row: StyleAndTextTuples = []
    under: list[str] = []
    point: list[str] = []
    used = 1
    row.append(("", " "))
    under.append(" ")
    point.append(" ")

    def flush() -> None:
        out.extend([*row, ("", "\n"), ("class:marks", "".join(under) + "\n")])
        if cursor_row:
            out.append(("class:marks", "".join(point) + "\n"))

    for index, (slot, card) in enumerate(cards):
        text = str(card)
        cell = len(text) + 1
        if used + cell > width - 1 and used > 1:
            flush()
            row, under, point, used = [("", " ")], [" "], [" "], 1
        extra = "reverse" if index == cursor else ""
        row.append(card_fragment(card, extra))
        row.append(("", " "))
        mark = labels.get(slot, "")
        if slot in marks:
            mark = "*" + mark
        if index == cursor and not cursor_row:  # beside the mark, not over it (the trial of
            mark = "^" + mark  # 2026-12-05)
        under.append(mark[:cell].ljust(cell))
        point.append(("^" if index == cursor else "").ljust(cell))
        used += cell
    flush()
    return out
