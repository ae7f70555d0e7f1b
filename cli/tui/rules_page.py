"""The rules page (``g`` at the table): the current game's rules in short, in words, so that a
player who forgot one need not leave the table to read it (the new-user trial of session 28).

One page per game, Level 8 Master, Level 8 (both editions) and 8s Rule!: the objective, a
turn, what each special card does, how a round and the game end and are scored. Written from
the rule documents (``docs/rules-level8.md``, ``docs/rules-eights.md``) in our own words,
without ruling ids; where a table option changes a rule (Level 8's ``level8_win``, the back
side's keeping, 8s Rule!'s partners) the page says the table's rule. It scrolls (Up/Down,
PgUp/PgDn, ``j``/``k``) and closes with Esc, ``q`` or ``g`` again (:meth:`RulesPage.handle`);
its paragraphs are wrapped at a space to the screen's width, each starting with its heading
word (``Objective:``), a card's line indented under its heading."""

from __future__ import annotations

import re
from typing import Any

from lancards.cli.game_titles import game_title
from lancards.cli.i18n import NO_BREAK, _
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.fit import Lines, titled_panel
from lancards.cli.tui.width import text_width

KEY = "g"
"""The key that opens and closes the page (``r`` shows the last round's result)."""

Paragraph = tuple[int, str]
"""A paragraph's indent (0: a heading's paragraph, 2: a card under it) and its words."""


def level8_rules(rules: Any) -> list[Paragraph]:
    """The rules of Level 8 Master (``rules.is_master``) or Level 8 (both editions), for the
    table's options (``rules``: its :class:`~lancards.engine.level8.rules.Level8Rules`)."""
    master = bool(getattr(rules, "is_master", False))
    out: list[Paragraph] = [
        (0, _("Objective: be the first to climb the eight levels of your level card (o shows "
              "it). Each level asks for combinations, which you lay down all at once: never "
              "part of a level, and nothing more than it asks.")),
        (0, _("Combinations: a run is consecutive numbers in any colours (4 5 6; 15 and 1 do "
              "not join); a colour run is consecutive numbers of one colour; a pair, triplet, "
              "quadruplet... is cards of one number; cards of one colour are any numbers of "
              "that colour.")),
        (0, _("Jokers: J1-5, J6-10 and J11-15 stand for any colour and any number of their "
              "range. You say what a joker stands for when you lay it; once on the table it "
              "stays.") if master else
            _("Jokers: a joker stands for any number and any colour. You say what it stands "
              "for when you lay it; once on the table it stays.")),
        (0, _("A turn: 1. Draw the top card of the draw pile or of any discard pile. 2. If "
              "you can and like, lay down your level; from then on, this turn and your later "
              "turns of the round, you may add cards to any combination on the table, yours "
              "or another's. 3. End the turn: discard a card onto your own discard pile, or "
              "play a special card instead. A lay-down or an add always leaves you a card to "
              "end the turn with.")),
        (0, _("Special cards: played instead of the discard; the turn then ends. Played as "
              "the last card of your hand, a special card does nothing.")),
    ]
    if master:
        out += [
            (2, _("TAKE (I'll take that!): every other player shows you 3 cards of their "
                  "hand; you may take one of them, and that player draws a card from the draw "
                  "pile in its place.")),
            (2, _("SWAP (I'll swap that!): put up to 3 cards of your hand onto your discard "
                  "pile, one by one, then draw as many from the draw pile.")),
            (2, _("KEEP (I'll keep that!): it lies in front of you until the round ends; if "
                  "you have not laid down your level by then, you keep up to 3 more cards of "
                  "your hand into the next round for each KEEP in front of you.")),
            (2, _("A played TAKE or SWAP goes face up under the draw pile, where the table "
                  "shows it; when the draw pile runs out, it is shuffled into the new one "
                  "with the discard piles.")),
        ]
    else:
        out.append(
            (2, _("SKIP (Skip!): lay it in front of another player who has none in front "
                  "of them; that player's next turn is skipped, and the card then goes under "
                  "the draw pile.")))
    out.append((0, _("Draw pile: when it runs out, every discard pile but its top card is "
                     "shuffled into a new draw pile.")))
    out.append((0, _("End of a round: a round ends when a player gets rid of their last card. "
                     "That player climbs 2 levels, every other player who laid down their "
                     "level climbs 1, the others stay. When everyone has laid down and no "
                     "card left could be added anywhere, the round ends at once and everyone "
                     "climbs 1. The deal passes left; everyone gets 10 cards again.")))
    out.append((0, _("Keeping cards: whoever has not laid down on level 5 to 8 may keep up to "
                     "4 cards of their hand into the next round and is dealt only the rest "
                     "of 10.") if master else
                _("Keeping cards: on the back side of the level card (2 stars), whoever has "
                  "not laid down on level 5 to 8 may keep up to 4 cards of their hand into "
                  "the next round and is dealt only the rest of 10.")))
    if getattr(rules, "level8_win", "on_laydown") == "on_going_out":
        out.append((0, _("End of the game: you win by going out on level 8, or on level 7 "
                         "(2 levels up, past level 8); laying down level 8 is not enough. "
                         "There are no points: the others are placed by their levels.")))
    else:
        out.append((0, _("End of the game: you win the moment you lay down level 8, or by "
                         "going out on level 7 (2 levels up, past level 8). There are no "
                         "points: the others are placed by their levels.")))
    return out


def eights_rules(rules: Any) -> list[Paragraph]:
    """The rules of 8s Rule! for the table's options (``rules``: its ``EightsRules``)."""
    out: list[Paragraph] = [
        (0, _("Objective: have the lowest total of points after round 8. Rounds 1 to 7 are "
              "played in tricks, each round with its own objective that gives points (o "
              "shows this round's); round 8 is played on a layout.")),
        (0, _("The deal: all 60 cards (1 to 15 in red, blue, yellow and green) are dealt "
              "every round, one by one from the dealer's left; the deal passes left.")),
        (0, _("A trick (rounds 1 to 7): the player left of the dealer leads, then everyone "
              "plays one card in turn. You must follow the suit led if you can; if you "
              "cannot, play any card. The highest card of the suit led takes the trick, and "
              "the taker leads the next one.")),
        (0, _("The 8s rule: when you play the 8 of the suit led (or lead an 8), you say take "
              "(t) or no take (n). Take: the 8 takes the trick. No take: any other card of its "
              "suit beats it; but an 8 led that nobody follows takes the trick anyway.")),
        (0, _("End of a round (1 to 7): after the last trick, or as soon as the objective has "
              "no points left to give; each player's points are added to their total.")),
        (0, _("Round 8: the player left of the dealer starts. On your turn lay one card: an 8, "
              "which opens its suit, or in an opened suit the next card down (7 to 1) or up (9 "
              "to 15). Only without such a card do you pass (p). The first player out scores "
              "-25 and ends the game; everyone else scores 10 for each card left.")),
        (0, _("Reneging: not following suit when you could, or passing with a card that "
              "fits, costs 50 points. At each round's end every hand is opened, and the check "
              "finds it.")),
        (0, _("End of the game: after round 8 the lowest total wins; on a tie, the tied "
              "player with the highest total after round 7 wins.")),
    ]
    if getattr(rules, "partners", False):
        out.append((0, _("Partners: partners sit opposite each other; a team's total is the "
                         "sum of its players' totals, and the lowest team total wins.")))
    return out


def rules_paragraphs(snap: TableSnapshot) -> list[Paragraph]:
    """The rules of the game of ``snap`` (its rule set and the options in its view)."""
    rules = getattr(snap.view, "rules", None)
    if snap.rule_set == "eights":
        return eights_rules(rules)
    return level8_rules(rules)


GLUED = re.compile(r" (?=[(\u2212-]?[0-9])|(?<=[0-9]s) (?=Rule!)")
"""The spaces a line of the page never breaks at: before a number (``Stufe 7``, ``Runde 8``,
``level 8``, ``an 8``, ``(2 levels``, ``scores -25``), and inside ``8s Rule!``. The German page
read ``... wenn du in Stufe`` then ``7 alle Karten`` at 80 columns."""


def wrapped(text: str, width: int, indent: int) -> list[str]:
    """``text`` wrapped at a space into lines of at most ``width`` columns, each starting with
    one space and ``indent`` more (a word longer than the line stands alone, whole); never at a
    space of :data:`GLUED`: a number stays on the line of the word before it."""
    lead = " " * (1 + indent)
    lines: list[str] = []
    line = ""
    for glued in GLUED.sub(NO_BREAK, text).split(" "):
        word = glued.replace(NO_BREAK, " ")
        candidate = f"{line} {word}" if line else word
        if line and text_width(lead + candidate) > width:
            lines.append(lead + line)
            line = word
        else:
            line = candidate
    lines.append(lead + line)
    return lines


def rules_panel(snap: TableSnapshot, width: int, rows: int | None = None) -> Lines:
    """The page: its title (the game, and the keys that scroll it when it is taller than
    ``rows``), then the paragraphs wrapped at ``width`` columns, each heading word styled."""
    body: Lines = []
    for indent, text in rules_paragraphs(snap):
        for number, line in enumerate(wrapped(text, max(20, width - 1), indent)):
            head, colon, rest = line.partition(": ")
            if number == 0 and colon and indent == 0 and len(head) < 30:
                body.append([("class:header", head + colon.rstrip()), ("", " " + rest)])
            else:
                body.append([("", line)])
    game = game_title(snap.rule_set)
    return titled_panel(_("rules of {game} (Esc, q or g closes)").format(game=game),
                        _("rules of {game} (Up/Down scroll; Esc, q or g closes)").format(
                            game=game), body, width, rows)


class RulesPage:
    """Whether the page is open, and its keys (the screen's overlay scrolls it)."""

    def __init__(self) -> None:
        self.open = False

    def handle(self, key: str, view: Any, scroll_keys: dict[str, float]) -> bool:
        """React to ``key`` if the page is open or ``key`` opens it (:data:`KEY`); whether it
        did. Open: Up/Down (``scroll_keys``) scroll ``view``, Esc, ``q`` and :data:`KEY`
        close, any other key does nothing (a stray key does not lose the page). The screen gives
        the open page every key first (``TableScreen.on_key``): none acts beneath it (the
        game-over panel's ``a`` played again under the page)."""
        if not self.open:
            if key != KEY:
                return False
            self.open, view.scroll = True, 0
            return True
        if key in scroll_keys:
            view.scroll_by(scroll_keys[key])
        elif key in ("escape", "q", KEY):
            self.open, view.scroll = False, 0
        return True
