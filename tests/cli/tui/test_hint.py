"""The hint (``h``) and the bot levels in the players panel (issue 26).

Exact hint lines from built positions: the card the bot picks and the words of its reason
(``engine/level8/advice.py``, ``engine/eights/advice.py``, ``cli/tui/hint.py``); the key on a
headless screen (pyte); the ``?`` list; ``bot, normal`` on a bot seat's row and nothing on the
player's; the levels of a host's bot peers kept in ``table.json`` for a resume.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from lancards.cli.lobby.started_table import _bot_levels, table_data
from lancards.cli.local_session import LocalSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.controller import bot_words
from lancards.cli.tui.hint import (
    hint_advice,
    hint_line,
    hint_words,
    hole_words,
    lay_down_words,
    needs_words,
)
from lancards.engine.eights import EIGHTS
from lancards.engine.eights.position import read_position
from lancards.engine.level8 import LEVEL8
from lancards.engine.level8.builder import build
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.state import Phase
from lancards.engine.rulesets import advise, bot_levels, hint_level
from lancards.p2p.net.store import TableStore
from lancards.p2p.protocol.identity import Identity
from tests.cli.tui.harness import driven

NAMES3 = ("Tess", "Ada", "Bram")
NAMES4 = ("Tess", "Ada", "Bram", "Cleo")
OTHERS = (["P1", "P2", "P3", "P4", "P5", "P6", "P8", "P9", "P10", "P11"],
          ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9", "Y10", "Y11"])


def level8_snap(hand: list[str], **position: object) -> TableSnapshot:
    state = build("level8-master", [hand, *OTHERS], turn=0, **position)  # type: ignore[arg-type]
    return LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60,
                        bot_level="normal").snapshot()


def normal_hint(snap: TableSnapshot) -> str:
    """The hint line with Level 8 ``normal`` (pinned: a ``hard`` level may come)."""
    return hint_words(snap, advise(snap.game, snap.view, snap.seat, list(snap.legal),
                                   random.Random(1), level="normal"))


def test_the_hint_asks_the_strongest_level_each_game_offers() -> None:
    assert hint_level(EIGHTS) == "hard"
    assert hint_level(LEVEL8) == ("hard" if "hard" in bot_levels(LEVEL8) else "normal")


def test_level8_discard_names_the_card_and_what_the_plan_still_lacks() -> None:
    # level 1 is 4 pairs: 3s, 5s, 7s held; of the single cards the plan keeps O2 for a pair
    snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B12", "Y14", "O2", "G10"],
                       phase=Phase.PLAY)
    # any 2, 10, 12 or 14 would make the fourth pair (each of O2, G10, B12, Y14 waits for one)
    assert normal_hint(snap) == ("hint: discard R9: not in your plan; 1 card to go: a 2, a 10, "
                                 "a 12 or a 14")


def test_level8_takes_a_discard_that_makes_a_pair() -> None:
    snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "R9", "B12", "Y14", "O2", "G10"],
                       phase=Phase.DRAW, discards=[[], ["G1", "P7"], []])
    # the four cards that would complete the level do not fit the line: they go, the count
    # stays (every hint is one line of 80 columns, the trial read hints that wrapped)
    assert normal_hint(snap) == "hint: draw P7 from Ada's discard pile (2): then 1 card to go " \
        "instead of 2"


def test_level8_once_down_discards_the_card_no_combination_takes() -> None:
    snap = level8_snap(["R3", "B14", "O9"], phase=Phase.PLAY, down=[True, False, False],
                       melds=[(0, ComponentKind.SET, [f"R{n}", f"O{n}"]) for n in (5, 6, 7, 8)])
    assert normal_hint(snap) == "hint: discard B14: it fits no combination on the table"


def test_level8_reasons_for_a_whole_level_in_hand_and_a_special_card_once_down() -> None:
    """The new-user trial of 2026-12-05 read ``no discard brings you closer; your whole level
    is in your hand`` and ``discard KEEP: it fits no combination on the table``."""
    snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B9", "Y14", "G10"],
                       phase=Phase.DRAW, discards=[[], ["G1", "P12"], []])
    assert normal_hint(snap) == ("hint: draw from the draw pile (d): you hold your whole level: "
                                 "lay it down next")
    snap = level8_snap(["SWAP", "KEEP"], phase=Phase.PLAY, down=[True, False, False],
                       melds=[(0, ComponentKind.SET, [f"R{n}", f"O{n}"]) for n in (5, 6, 7, 8)])
    assert normal_hint(snap) == "hint: discard SWAP: a special card never goes into a " \
        "combination"  # the long words ("you are down, and ...") do not fit 80 columns


def test_a_swap_once_down_says_the_level_is_down(german: None) -> None:
    """After laying down level 4 and playing SWAP, the new-user trial of 2026-12-08 read
    ``put R6 on your discard pile: not in your plan; you hold your whole level``: the level
    was on the table, not in the hand."""
    from lancards.cli import i18n

    snap = level8_snap(["R6", "B14", "O9"], phase=Phase.SWAP, down=[True, False, False],
                       melds=[(0, ComponentKind.SET, [f"R{n}", f"O{n}"]) for n in (2, 3, 4, 5)],
                       under=["SWAP"])
    assert normal_hint(snap) == "Tipp: R6 auf den eigenen Ablagestapel legen: nicht nötig: du " \
        "hast ausgelegt"  # within 80 columns
    i18n.set_language("en")
    assert normal_hint(snap) == "hint: put R6 on your discard pile: not needed: your level is down"
    # not down: the plan's words stay
    snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B12", "Y14", "O2", "G10"],
                       phase=Phase.SWAP, under=["SWAP"])
    assert normal_hint(snap).startswith("hint: put R9 on your discard pile: not in your plan; ")


def test_one_card_to_go_names_every_card_that_completes_the_level() -> None:
    """The new-user trial of 2026-12-05 read ``1 card to go: a 3`` where a 4, a 9 or an 11
    would do as well: the best plan's one hole is often one of several (``plan.outs``)."""
    from lancards.engine.level8.cards import card
    from lancards.engine.level8.levels import MASTER_FRONT
    from lancards.engine.level8.plan import outs

    assert needs_words(1, (((-1, 3), 1),), outs=((-1, 3), (-1, 4), (0, 9))) == \
        "1 card to go: a 3, a 4 or a red 9"
    assert needs_words(1, (((-1, 3), 1),), outs=((-1, 3),)) == "1 card to go: a 3"
    assert needs_words(1, (((-1, 3), 1),), outs=((-1, 1), (-1, 3), (-1, 4), (-1, 9),
                                                 (-1, 11))) == \
        "1 card to go: a 1, a 3, a 4, a 9 or an 11"  # the fifth named, not counted
    assert needs_words(1, (((-1, 3), 1),), outs=((-1, 1), (-1, 3), (-1, 4), (-1, 9),
                                                 (-1, 11), (0, 12), (1, 13))) == \
        "1 card to go: a 1, a 3, a 4, a 9 or any of 3 other cards that complete your level"
    assert needs_words(2, (((-1, 3), 1), ((-1, 4), 1)), outs=((-1, 3),)) == \
        "2 cards to go: a 3 and a 4"  # outs only for the last card
    # after taking a card ("then"), not as if the level were in the hand already (the trial)
    assert needs_words(0, (), 1) == "then you hold your whole level"
    assert needs_words(0, ()) == "you hold your whole level"
    # level 1 of Master is 4 pairs: three pairs and four single cards; a 2 of any colour but
    # the orange one held (each face is in the deck once) makes the fourth, likewise 10, 12, 14
    hand = [card(t) for t in ("R3", "O3", "B5", "G5", "Y7", "P7", "B12", "Y14", "O2", "G10")]
    four_pairs = MASTER_FRONT.level(1)
    assert outs(hand, four_pairs) == ((-1, 2), (-1, 10), (-1, 12), (-1, 14))
    assert outs(hand[:6], four_pairs) == ()  # two cards to go


def test_the_missing_cards_in_words() -> None:
    assert hole_words((-1, 7), 1) == "a 7"
    assert hole_words((-1, 8), 1) == "an 8"
    assert hole_words((0, 11), 2) == "two red 11s"
    assert hole_words((1, 4), 1) == "an orange 4"
    assert hole_words((4, 0), 3) == "three blue cards"
    assert needs_words(2, (((-1, 4), 1), ((0, 9), 1))) == "2 cards to go: a 4 and a red 9"
    assert needs_words(0, ()) == "you hold your whole level"


def eights_text(hands: dict[int, list[str]]) -> str:
    """Round 2 (no Red cards), trick 1: Ada B10, Bram B12, Cleo B3 played; Tess to play."""
    return "\n".join([
        "lancards-position 1", "game eights", "seats 4", "round 2", "dealer 0",
        "phase tricks", "turn 0", *[f"hand {s}: {' '.join(hands[s])}" for s in range(4)],
        "trick-now: 1 B10 2 B12 3 B3", "result 1: dealer 3 tricks 15 points 0 0 0 0",
        "totals: 0 0 0 0"])


def eights_hands(rotate: int = 0) -> dict[int, list[str]]:
    mine = ["R15", "R14", "R3", "R2", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6",
            "G1", "G2", "G3", "G4", "G5"]
    rest = [f"{s}{n}" for s in "RBYG" for n in range(1, 16)
            if f"{s}{n}" not in mine and f"{s}{n}" not in ("B10", "B12", "B3")]
    rest = rest[rotate:] + rest[:rotate]  # another deal of the hidden cards, same view
    return {0: mine, **{seat: rest[i * 14:(i + 1) * 14] for i, seat in enumerate((1, 2, 3))}}


def eights_snap(rotate: int = 0) -> TableSnapshot:
    state = read_position(eights_text(eights_hands(rotate)), EIGHTS)
    return LocalSession("eights", names=NAMES4, state=state, bot_delay=60).snapshot()


def test_eights_void_in_the_led_suit_throws_its_worst_card_to_the_taker() -> None:
    # hard (the search) plays R15: Tess has no Blue, and its 15 points go to another seat
    line = "hint: play R15: it cannot take this trick; its 15 points go to the taker"
    assert hint_line(eights_snap()) == line
    # the hidden cards dealt otherwise: the seat's view, so the hint, is the same
    assert hint_line(eights_snap(rotate=5)) == line


def test_no_hint_on_another_seat_s_move() -> None:
    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = LocalSession("eights", names=NAMES4, seat=1, state=state, bot_delay=60)
    assert hint_line(session.snapshot()) == "hint: only on your move"


def test_h_shows_the_hint_on_the_table_and_plays_nothing() -> None:
    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = LocalSession("eights", names=NAMES4, state=state, bot_delay=60)
    with driven(session, 100, 30) as d:
        screen = d.press("h")
        assert " hint: play R15: it cannot take this trick; its 15 points go to the taker" \
            in screen.splitlines()
        assert session.history == [] and "YOUR TURN: play a card" in screen
        help_screen = d.press("?")
        # the help says the cursor moves (the new-user trial read "it plays nothing" and saw
        # the cursor jump to the card)
        assert " h            hint: what the strongest bot would play now and why, in one " \
            "line; it plays nothing,\n   but puts the cursor on the card it names\n" in help_screen


def test_the_players_panel_says_which_seats_are_bots_and_their_level() -> None:
    from lancards.cli.tui.eights_screen import EightsController

    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = LocalSession("eights", names=NAMES4, state=state, bot_delay=60,
                           bot_level="normal")
    table = EightsController(session).table(session.snapshot(), 100)
    rows = [r for r in "".join(f[1] for f in table).splitlines() if r[3:4].isdigit()]
    assert rows == [" > 1 Tess (you)    15      0     0",
                    "   2 Ada           14      0     0  bot, normal",
                    "   3 Bram          14      0     0  bot, normal",
                    "   4 Cleo          14      0     0  bot, normal"]


def test_level8_rows_say_the_level_or_one_line_does_when_a_row_is_too_long() -> None:
    from lancards.cli.tui.level8_view import table

    snap = level8_snap(["R3", "O3"], phase=Phase.PLAY)
    wide = "".join(f[1] for f in table(snap, 100)).splitlines()
    # a column of their own, headed "played by", not under "kept" (the KEEP cards' column:
    # the trial of 2026-12-06 read the words there as cards in front)
    assert wide[0:4] == ["   # player      lvl requirement down hand discard   kept played by",
                         " > 1 Tess (you)    1 4 pairs     no      2 -        ",
                         "   2 Ada           1 4 pairs     no     10 -              bot, normal",
                         "   3 Bram          1 4 pairs     no     10 -              bot, normal"]
    narrow = "".join(f[1] for f in table(snap, 56)).splitlines()
    assert narrow[1:5] == [" > 1 Tess     1 4 pairs     no      2 -        ",  # no room for
                           "   2 Ada      1 4 pairs     no     10 -        ",  # "(you)"
                           "   3 Bram     1 4 pairs     no     10 -        ",
                           " bots: Ada, Bram (normal)"]


def test_a_remote_seat_s_level_is_not_known_and_not_shown() -> None:
    snap = LocalSession("eights", names=NAMES4, bot_delay=60, bot_level="easy").snapshot()
    assert bot_words(snap) == {1: "bot, easy", 2: "bot, easy", 3: "bot, easy"}
    remote = TableSnapshot(snap.game, snap.rule_set, 0, NAMES4, snap.view, None, (),
                           extra={"bots": {}})
    assert bot_words(remote) == {}


def test_the_players_panel_says_the_level_in_german() -> None:
    """The new-user trial of 2026-12-05 read ``Bot, easy`` on a German table: the level is a
    word of the catalog; ``--bot-level`` keeps its English value."""
    from lancards.cli import i18n
    from lancards.cli.tui.level8_view import bot_line

    i18n.set_language("de")
    try:
        for level, words in (("easy", "Bot, leicht"), ("normal", "Bot, normal"),
                             ("hard", "Bot, schwer"), ("greedy", "Bot, gierig")):
            snap = LocalSession("eights", names=NAMES4, bot_delay=60, bot_level=level).snapshot()
            assert bot_words(snap) == {1: words, 2: words, 3: words}
        assert bot_line(NAMES4, {1: "Bot, schwer", 2: "Bot, leicht", 3: "Bot, schwer"}) == \
            "Bots: Ada, Cleo (schwer) · Bram (leicht)"
    finally:
        i18n.set_language("en")


def test_a_host_s_bot_levels_are_kept_for_a_resume(tmp_path: Path) -> None:
    me, bot = Identity.generate("ann"), Identity.generate("bot1")
    store = TableStore(tmp_path)
    store.save_table(table_data({"table": "t"}, me, ("127.0.0.1", 1), {},
                                bots={bot.public_key: "normal"}))
    assert store.load_table()["bot_levels"] == {bot.public_key.hex(): "normal"}
    import argparse

    assert _bot_levels(argparse.Namespace(), store) == {bot.public_key: "normal"}
    assert _bot_levels(argparse.Namespace(), TableStore(tmp_path / "none")) == {}


def test_lancards_play_knows_every_bot_peer_s_level(tmp_path: Path) -> None:
    import asyncio

    from lancards.cli.net_session import NetworkSession

    async def extra() -> tuple[object, int]:
        session = await NetworkSession.create("eights", {}, Identity.generate("ann"), 3,
                                              home=tmp_path, seed=7, bot_level="normal")
        try:
            return session.snapshot().extra["bots"], session.seat
        finally:
            await session.close()

    bots, seat = asyncio.run(extra())
    assert bots == {s: "normal" for s in range(4) if s != seat}  # seats go by key: any


def test_the_hint_in_german() -> None:
    """The same positions in German (issue 28): whole sentences of the catalog, no English
    grammar (a colour after the number, ``"zwei 11er"`` for a count)."""
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B12", "Y14", "O2", "G10"],
                           phase=Phase.PLAY)
        # one line of 80 columns: the four numbers named as numbers (the trial read "eine 2
        # oder drei weitere" beside "noch 1 Karte": three more cards, it seemed)
        assert normal_hint(snap) == ("Tipp: R9 ablegen: nicht in deinem Plan; noch 1 Karte: eine "
                                     "2, 10, 12 oder 14")
        snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "R9", "B12", "Y14", "O2", "G10"],
                           phase=Phase.DRAW, discards=[[], ["G1", "P7"], []])
        assert normal_hint(snap) == "Tipp: P7 vom Ablagestapel von Ada ziehen (2): dann noch 1 " \
            "Karte statt 2"
        # the colour before the noun (the trial of 2026-12-05 read "drei Karten (lila)")
        assert hole_words((0, 11), 2) == "zwei rote 11er"
        assert hole_words((4, 0), 3) == "drei blaue Karten"
        assert hole_words((5, 0), 1) == "eine lila Karte"
        assert needs_words(2, (((-1, 4), 1), ((0, 9), 1))) == \
            "noch 2 Karten: eine 4 und eine rote 9"
        outs = ((-1, 1), (-1, 3), (-1, 4), (-1, 9), (-1, 11), (0, 12), (1, 13))
        assert needs_words(1, (((-1, 3), 1),), outs=outs) == (  # not "oder 3 andere Karten"
            "noch 1 Karte: eine 1, eine 3, eine 4, eine 9 oder eine von 3 weiteren Karten, mit "
            "denen deine Stufe vollständig ist")
        assert hint_line(eights_snap()) == \
            "Tipp: R15 spielen: sie gewinnt den Stich nicht; ihre 15 Punkte gehen an andere"
    finally:
        i18n.set_language("en")


def test_the_search_s_reason_is_whole_points_and_says_which_way_is_better() -> None:
    """The new-user trial of 2026-12-05 read ``in 18 imagined deals it beat B6 by 1.1 points``
    as unexplained (and German wrote ``2.2 Punkte`` with an English decimal point); the deals
    are docs/bots.md's, not the line's (it wrapped at 80 columns)."""
    from lancards.cli import i18n
    from lancards.cli.tui.hint import eights_reason
    from lancards.engine.eights.actions import Play
    from lancards.engine.eights.advice import Reason, Why
    from lancards.engine.eights.cards import parse_card

    def said(gain: float, card: str = "B6", take: bool | None = None) -> str:
        return eights_reason(Reason(Why.SEARCH, deals=18, gain=gain,
                                    instead=Play(0, 5, parse_card(card), take)))

    assert said(2.4) == "about 2 points better for you than B6"
    assert said(1.1) == "about 1 point better for you than B6"
    assert said(0.4) == "a little better for you than B6"
    i18n.set_language("de")
    try:
        assert said(2.4) == "etwa 2 Punkte besser für dich als B6"
        assert said(0.4) == "etwas besser für dich als B6"
        assert said(4.2, "B8", True) == "etwa 4 Punkte besser für dich als B8 (nehmen)"
    finally:
        i18n.set_language("en")


def test_a_searched_card_that_takes_a_costly_trick_says_it_takes_it() -> None:
    """The new-user trial of 2026-12-07, round 1 ("No tricks"), trick B3 B1 B6: ``hint: play
    B15: about 2 points better for you than B4`` said nothing of B15 taking the trick on
    purpose; the line says it where the trick costs (``stake`` > 0) and B15 surely takes it."""
    from lancards.cli import i18n
    from lancards.cli.tui.hint import eights_reason
    from lancards.engine.eights.actions import Play
    from lancards.engine.eights.advice import Reason, Why
    from lancards.engine.eights.cards import parse_card

    def said(win: float, stake: int, brief: bool = False) -> str:
        return eights_reason(Reason(Why.SEARCH, win=win, deals=18, gain=2.3, stake=stake,
                                    instead=Play(0, 5, parse_card("B4"), None)), brief)

    assert said(1.0, 3) == "it takes this trick, yet about 2 points better overall than B4"
    assert said(1.0, 3, brief=True) == "about 2 points better for you than B4"
    assert said(0.5, 3) == "about 2 points better for you than B4"  # may or may not take it
    assert said(1.0, -3) == "about 2 points better for you than B4"  # a trick wanted
    from lancards.engine.rulesets import Advice

    reason = Reason(Why.SEARCH, win=1.0, deals=18, gain=2.3, stake=3,
                    instead=Play(0, 5, parse_card("B4"), None))
    assert hint_words(eights_snap(), Advice("hard", Play(0, 6, parse_card("B15"), None),
                                            reason)) == \
        "hint: play B15: it takes this trick, yet about 2 points better overall than B4"
    i18n.set_language("de")
    try:
        assert said(1.0, 3) == \
            "nimmt den Stich, doch insgesamt etwa 2 Punkte besser als B4"
        assert hint_words(eights_snap(), Advice("hard", Play(0, 6, parse_card("B15"), None),
                                                reason)) == \
            "Tipp: B15 spielen: nimmt den Stich, doch insgesamt etwa 2 Punkte besser als B4"
    finally:
        i18n.set_language("en")


def test_the_search_names_the_8_it_was_compared_with_take_or_no_take() -> None:
    """The trial read ``hint: play B8 (no take): about 4 points better for you than B8 in 48
    imagined deals``: a card compared with itself; it was the same 8 with take."""
    from lancards.engine.eights.actions import Play
    from lancards.engine.eights.advice import Reason, Why
    from lancards.engine.eights.cards import parse_card
    from lancards.engine.rulesets import Advice

    snap = eights_snap()
    b8 = parse_card("B8")
    reason = Reason(Why.SEARCH, deals=48, gain=4.2, instead=Play(0, 5, b8, True))
    assert hint_words(snap, Advice("hard", Play(0, 5, b8, False), reason)) == \
        "hint: play B8 (no take): about 4 points better for you than B8 (take)"
    reason = Reason(Why.SEARCH, deals=17, gain=9.2, instead=Play(0, 5, parse_card("B10")))
    assert hint_words(snap, Advice("hard", Play(0, 5, b8, True), reason)) == \
        "hint: play B8 (take): about 9 points better for you than B10"


def test_a_chance_of_the_trick_says_whether_you_want_it() -> None:
    """The trial read a bare ``it takes this trick about 55 % of the time``: a *chance* of a
    trick the round's objective wants, a *risk* of one that costs, with the trick's points."""
    from lancards.cli import i18n
    from lancards.cli.tui.hint import eights_reason
    from lancards.engine.eights.advice import Reason, Why

    assert eights_reason(Reason(Why.MAY_WIN, win=0.55, stake=-10)) == \
        "a 55 % chance of taking this trick, which you want"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.3, stake=10)) == \
        "only a 30 % risk of taking this trick (+10 points)"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.65, stake=1)) == \
        "a 65 % risk of taking this trick (+1 point)"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.3)) == \
        "only a 30 % risk of taking this trick (no points in it yet)"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.3, stake=10), brief=True) == \
        "only a 30 % risk of taking this trick"
    i18n.set_language("de")
    try:
        assert eights_reason(Reason(Why.MAY_WIN, win=0.55, stake=-10)) == \
            "55 % Chance auf den Stich, den du willst"
        assert eights_reason(Reason(Why.UNLIKELY, win=0.3, stake=10)) == \
            "nur 30 % Risiko, den Stich zu bekommen (+10 Punkte)"
    finally:
        i18n.set_language("en")


def test_the_stake_is_what_the_trick_gives_its_taker_by_the_objective() -> None:
    from lancards.engine.eights.advice import trick_stake
    from lancards.engine.eights.cards import parse_card
    from lancards.engine.eights.objectives import default_objectives

    rounds = default_objectives().rounds
    r5, b3, r15 = (parse_card(c).index for c in ("R5", "B3", "R15"))
    assert trick_stake(rounds[0], [b3], r5, 9) == 10  # no tricks: +10 a trick
    assert trick_stake(rounds[1], [r5, b3], r15, 9) == 20  # no Red cards: R5 5, R15 15
    assert trick_stake(rounds[5], [], b3, 3) == 0  # not the last two tricks: the third
    assert trick_stake(rounds[5], [], b3, 2) == 25
    assert trick_stake(rounds[5], [], b3, 1) == 50
    assert trick_stake(rounds[6], [], b3, 9) == -10  # tricks wanted


def test_the_same_distance_after_a_take_and_a_likely_win_read_right() -> None:
    """The trial of 2026-12-05 read ``then 1 card to go instead of 1: a 5`` and ``it takes
    this trick only about 65 % of the time``."""
    from lancards.cli.tui.hint import eights_reason
    from lancards.engine.eights.advice import Reason, Why

    assert needs_words(1, (((-1, 5), 1),), 1) == "still 1 card to go: a 5"
    assert needs_words(1, (((-1, 5), 1),), 2) == "then 1 card to go instead of 2: a 5"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.65, stake=10)) == \
        "a 65 % risk of taking this trick (+10 points)"
    assert eights_reason(Reason(Why.UNLIKELY, win=0.3, stake=10)) == \
        "only a 30 % risk of taking this trick (+10 points)"


def test_a_move_of_the_key_e_names_the_key() -> None:
    """The trial of 2026-12-05: after the 3 cards of "I'll swap that!" were put, the hint said
    ``draw 3 cards (I'll swap that!)`` and the person pressed d: "you cannot draw now"; the
    key then came in a second pair of parentheses (the next trial): it comes first."""
    from lancards.engine.level8 import actions

    snap = level8_snap(["R3", "O3", "B5"], phase=Phase.SWAP)
    swap_end = [a for a in snap.legal if isinstance(a, actions.SwapEnd)]
    assert swap_end, snap.legal
    snap = replace(snap, view=snap.view.evolve(swaps=3), legal=swap_end)
    assert normal_hint(snap) == ("hint: press e to draw 3 cards (I'll swap that!): it is your "
                                 "only move")
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        # the call („Die tausch’ ich!“) does not fit 80 columns here
        assert normal_hint(snap) == "Tipp: 3 Karten ziehen mit der Taste e: es ist dein " \
            "einziger Zug"
    finally:
        i18n.set_language("en")


def test_a_special_card_s_hint_names_p() -> None:
    """The German trial of 2026-12-07 read ``Tipp: SKIP vor Cleo legen``, pressed x (the
    cursor was on SKIP) and its SKIP went on the discard pile: x discards a special card, p
    plays it. The hint names p after the move, in place of the card's call."""
    assert _skip_hints(OTHERS)[0] == \
        "hint: put SKIP in front of Ada (p): Ada is as close to going out as anyone"
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        assert _skip_hints(OTHERS)[0] == \
            "Tipp: SKIP vor Ada legen (p): Ada ist so nah am Ziel wie jeder andere"
    finally:
        i18n.set_language("en")


def test_a_draw_and_a_pass_name_their_key() -> None:
    """The new-user trial of 2026-12-07 read ``hint: draw Y12 from Ada's discard pile``, pressed
    Enter and read "Enter does nothing now"; after ``hint: pass`` (8s Rule!, round 8) Enter
    tried the card under the cursor ("Y1 cannot be played"). The key follows the move, as the
    lay-down's do: the pile's number is the owner's in the table's ``#`` column."""
    snap = level8_snap(["R3", "O3", "B5", "G5", "Y7", "R9", "B12", "Y14", "O2", "G10"],
                       phase=Phase.DRAW, discards=[[], [], ["G1", "P7"]])
    assert normal_hint(snap) == "hint: draw P7 from Bram's discard pile (3): then 1 card to go " \
        "instead of 2"
    mine = ["R1", "R2", "R3", "B1", "B2", "B3", "Y1", "Y2", "Y3", "G1", "G2", "G3", "R15", "B15",
            "Y15"]  # no 8: nothing fits the empty layout
    rest = [f"{s}{n}" for s in "RBYG" for n in range(1, 16) if f"{s}{n}" not in mine]
    text = "\n".join([
        "lancards-position 1", "game eights", "seats 4", "round 8", "dealer 3", "phase layout",
        "turn 0", *[f"hand {s}: {' '.join(h)}" for s, h in enumerate(
            [mine, rest[:15], rest[15:30], rest[30:]])],
        *[f"result {r}: dealer {(r - 1) % 4} tricks 15 points 0 0 0 0" for r in range(1, 8)],
        "totals: 0 0 0 0"])
    snap = LocalSession("eights", names=NAMES4, state=read_position(text, EIGHTS),
                        bot_delay=60).snapshot()
    assert hint_line(snap) == "hint: pass (p): it is your only move"
    from lancards.cli import i18n

    i18n.set_language("de")
    try:
        assert hint_line(snap) == "Tipp: passen (p): es ist dein einziger Zug"
    finally:
        i18n.set_language("en")


def _keep_hint() -> str:
    """The hint to play KEEP (the new-user trial of 2026-12-06 played it, laid down, and
    kept nothing: ruling L8-13), from a position where playing it is legal."""
    from lancards.engine.level8.actions import PlaySpecial
    from lancards.engine.level8.advice import Reason, Why
    from lancards.engine.rulesets import Advice

    snap = level8_snap(["KEEP", "R3", "O9"], phase=Phase.PLAY)
    play = next(a for a in snap.legal if isinstance(a, PlaySpecial))
    return hint_words(snap, Advice("normal", play, Reason(Why.PLAY_KEEP, play.card.card)))


def test_the_hint_to_play_keep_says_it_is_void_once_laid_down() -> None:
    # one line of 80 columns: the card's call goes ("KEEP" names the card), the reason stays
    # "void if you do" read as cryptic (the new-user trial of issue 26)
    assert _keep_hint() == "hint: play KEEP (p): it counts for nothing once you lay down"


def test_the_german_hint_to_play_keep_says_it_is_void_once_laid_down(german: None) -> None:
    # the whole reason does not fit 80 columns in German: the warning does
    assert _keep_hint() == "Tipp: KEEP spielen (p): sie zählt nicht mehr, sobald du auslegst"


def _skip_hints(others: tuple[list[str], list[str]]) -> list[str]:
    """The hint's line for a Skip before each seat (the engine's own reason), Tess to play."""
    from lancards.engine.level8 import advice
    from lancards.engine.level8.actions import PlaySpecial
    from lancards.engine.rulesets import Advice

    state = build("level8", [["R3", "O3", "SKIP"], *others], turn=0,
                  phase=Phase.PLAY)  # type: ignore[arg-type]
    snap = LocalSession("level8", names=NAMES3, state=state, bot_delay=60,
                        bot_level="normal").snapshot()
    skips = [a for a in snap.legal if isinstance(a, PlaySpecial)]
    return [hint_words(snap, Advice("normal", a, advice.explain(snap.view, 0, snap.legal, a)))
            for a in sorted(skips, key=lambda a: a.target or 0)]


def test_a_skip_s_reason_is_true_on_a_tie() -> None:
    """The trial (German, Level 8 hard) read ``Ada ist am nächsten dran, alle Karten
    loszuwerden`` while every other seat held 10 cards and none was down."""
    from lancards.cli import i18n

    assert _skip_hints(OTHERS) == [  # a tie in words (issue 26's trial: "nobody is closer")
        "hint: put SKIP in front of Ada (p): Ada is as close to going out as anyone",
        "hint: put SKIP in front of Bram (p): Bram is as close to going out as anyone"]
    fewer = (OTHERS[0], OTHERS[1][:8])  # Bram holds 8 cards: closest; Ada plays next
    assert _skip_hints(fewer) == [
        "hint: put SKIP in front of Ada (p): Ada plays next",
        "hint: put SKIP in front of Bram (p): Bram is closest to going out"]
    i18n.set_language("de")
    try:
        assert _skip_hints(OTHERS)[0] == \
            "Tipp: SKIP vor Ada legen (p): Ada ist so nah am Ziel wie jeder andere"
        assert _skip_hints(fewer) == [  # the reason rather than the key where both do not fit
            "Tipp: SKIP vor Ada legen (p): Ada ist als Nächstes dran",
            "Tipp: SKIP vor Bram legen: Bram ist am nächsten dran, alle Karten loszuwerden"]
    finally:
        i18n.set_language("en")


class _Dealing(LocalSession):
    """A LocalSession whose own cards arrive late, as a networked table deals them: while
    ``arriving``, the seat is to move with ``15 pending`` cards and no legal move."""

    arriving = True

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()
        if not self.arriving:
            return snap
        return replace(snap, legal=[], extra={**snap.extra, "pending": 15})


def test_h_before_the_cards_arrived_is_answered_once_they_are_here() -> None:
    """The trial pressed h as soon as YOUR TURN showed (``your hand (0 cards + 15 pending)``):
    the key was lost, and 3 s later the hand was there and no hint."""
    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = _Dealing("eights", names=NAMES4, state=state, bot_delay=60)
    with driven(session, 100, 30) as d:
        screen = d.press("h")
        assert " hint: your cards are still arriving; it follows once they are here" in \
            screen.splitlines()
        session.arriving = False
        session._changed()
        line = " hint: play R15: it cannot take this trick; its 15 points go to the taker"
        d.settle(lambda: line in d.text().splitlines())
        assert line in d.text().splitlines()
        assert session.history == []


def test_h_puts_the_cursor_on_the_card_it_names() -> None:
    """The trial: after ``h`` said ``discard G8``, x discarded the card under the cursor."""
    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = LocalSession("eights", names=NAMES4, state=state, bot_delay=60)
    with driven(session, 100, 30) as d:
        assert "[R2+]" in d.text()  # the first playable card
        screen = d.press("h")
        assert "[R15+]" in screen and "[R2+]" not in screen
        d.press("x")
        assert [str(a) for a in session.history[:1]] == ["0: play R15#0"]


def test_the_hint_to_lay_down_says_which_offer_of_the_builder() -> None:
    """The trial, in the builder after l and Tab (``offered lay-down 1 of 9``), pressed h and
    read ``hint: lay down your level (l, then Tab): you hold all of it``: which offer? In the
    builder the hint names the keys that work there (a later trial read ``l, then Tab`` inside
    the builder, where l does nothing): Tab to the offer, then Enter; closed, ``l, then Enter``
    (``l`` opens the builder holding the hint's offer: ``test_hint_follow.py``)."""
    from lancards.cli import i18n

    state = build("level8-master", [["R3", "O3", "B3", "G5", "R5", "Y7", "P7", "R9", "B9",
                                     "Y14"], *OTHERS], turn=0, phase=Phase.PLAY)
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
    # in the builder the keys, the same words as the builder's ("offered lay-down 1 of 3"; a
    # trial read "Tab to offer 4 of 6" as maybe "press Tab 4 times")
    hint = " hint: lay down your level (l, then Enter): you hold all of it"
    inside = " hint: lay down your level (Tab until offered lay-down 1 of 3, then Enter)"
    with driven(session, 100, 40) as d:
        assert hint in d.press("h").splitlines()
        # l opens the builder holding the hint's offer: a whole level, so Enter (the final
        # trial of 2026-12-07 read "Tab until offered lay-down 1 of 8" beside "valid: Enter
        # lays it down")
        ready = " hint: lay down your level (Enter): you hold all of it"
        assert ready in d.press("l", "h").splitlines()
        assert inside in d.press("u", "h").splitlines()  # cleared, in the builder: its keys
        assert " offered lay-down 1 of 3" in d.press("s-tab", "tab").splitlines()
        assert ready in d.press("h").splitlines()
        assert hint in d.press("escape", "h").splitlines()  # closed: l opens it again
    i18n.set_language("de")
    try:
        assert hint_line(session.snapshot()) == \
            "Tipp: deine Stufe auslegen (l, dann Enter): du hast alles"
        assert hint_line(session.snapshot(), builder=True) == \
            "Tipp: Stufe auslegen (Tab bis Vorschlag 1 von 3, dann Enter): du hast alles"
    finally:
        i18n.set_language("en")
    # a line too long drops the reason, not the keys
    snap = session.snapshot()
    assert hint_words(snap, hint_advice(snap), columns=79, builder=True) == \
        "hint: lay down your level (Tab until offered lay-down 1 of 3, then Enter)"


def test_the_hint_to_lay_down_one_offer_in_the_builder() -> None:
    """One lay-down offered: the hint names no number; in the builder Tab, then Enter."""
    from lancards.cli import i18n
    from lancards.engine.level8.actions import LayDown

    state = build("level8-master", [["R3", "O3", "B3", "G5", "R5", "Y7", "P7", "R9", "B9",
                                     "Y14"], *OTHERS], turn=0, phase=Phase.PLAY)
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
    snap = session.snapshot()
    one = next(a for a in snap.legal if isinstance(a, LayDown))
    only = replace(snap, legal=[a for a in snap.legal
                                            if not isinstance(a, LayDown) or a is one])
    assert lay_down_words(only, one) == "lay down your level (l, then Enter)"
    assert lay_down_words(only, one, builder=True) == "lay down your level (Tab, then Enter)"
    i18n.set_language("de")
    try:
        assert lay_down_words(only, one, builder=True) == \
            "Stufe auslegen (Tab, dann Enter)"
    finally:
        i18n.set_language("en")


def test_the_key_line_names_h_on_the_own_move_where_it_has_room() -> None:
    """The trial found ``h`` only under ``?``: the key line names it on the own move after
    ``q quit`` (kept at 80 columns: an earlier trial) where the line has room, before
    ``o goal``."""
    from lancards.cli import i18n

    state = read_position(eights_text(eights_hands()), EIGHTS)
    session = LocalSession("eights", names=NAMES4, state=state, bot_delay=60)
    with driven(session, 80, 30) as d:
        assert " Enter/x play · t/n an 8 with take/no take · m moves · ? keys · q quit · h hint" \
            in d.text().splitlines()
    other = LocalSession("eights", names=NAMES4, seat=1, state=state, bot_delay=60)
    with driven(other, 80, 30) as d:  # not its move: no hint to ask for
        assert " m moves · c chat · ? keys · q quit · o goal" in d.text().splitlines()
    i18n.set_language("de")
    try:
        with driven(session, 100, 30) as d:
            assert " Enter/x legen · t/n 8 mit/ohne Nehmen · m Züge · ? Tasten · " \
                "q beenden · h Tipp · o Ziel" in d.text().splitlines()
        with driven(session, 80, 30) as d:  # a trial: never at 80 columns in German
            assert " Enter/x legen · t/n 8 mit/ohne Nehmen · m Züge · ? Tasten · " \
                "q beenden · h Tipp" in d.text().splitlines()
    finally:
        i18n.set_language("en")


def test_level8_s_key_line_after_the_draw_names_h_at_80_columns() -> None:
    """Level 8's line after the draw (``l lay down · a add · x discard · p play special · m
    moves``) left no room for ``h hint`` at 80 columns: ``p special`` makes it; German says
    the three lay-down keys at once and keeps ``q beenden`` too (a LAN trial read no way to
    leave: ``test_round_two_table``)."""
    from lancards.cli import i18n

    hand = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B12", "Y14", "O2", "G10"]
    state = build("level8-master", [hand, *OTHERS], turn=0, phase=Phase.PLAY)
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
    with driven(session, 80, 30) as d:
        assert " l lay down · a add · x discard · p special · m moves · ? keys · q quit · " \
            "h hint" in d.text().splitlines()
    i18n.set_language("de")
    try:
        with driven(session, 80, 30) as d:
            assert " l/a/x aus-/an-/ablegen · p Sonderkarte · m Züge · ? Tasten · q beenden · " \
                "h Tipp" in d.text().splitlines()
    finally:
        i18n.set_language("en")


def test_a_spare_discard_says_which_spare_cards_it_keeps_from_the_others() -> None:
    """The new-user trial of 2026-12-07: ``hint: discard O11: not in your plan`` beside G2 and
    G14, which the plan does not use either, and no word why O11 goes: G2 and G14 fit Ada's
    melds (she is down), J11-15 her set of 14s; O11 fits nothing (ruling L8-12: a card that
    fits a combination on the table helps whoever is down)."""
    from lancards.cli import i18n
    from lancards.engine.level8 import advice as level8_advice

    hand = ["G2", "P5", "R8", "Y9", "O11", "Y11", "B11", "G14", "J1-5", "J6-10", "J11-15"]
    state = build("level8-master", [hand, ["R10", "R12", "O12"],
                                    ["B1", "B2", "B3", "B4", "B5", "B7", "B8", "B9", "B10",
                                     "B12"]],
                  turn=0, levels=[5, 2, 1], down=[False, True, False], phase=Phase.PLAY,
                  melds=[(1, ComponentKind.RUN, ["P3", "Y4", "R5", "B6", "O7", "G8"]),
                         (1, ComponentKind.SET, ["R14", "B14", "Y14"])])
    snap = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60,
                        bot_level="normal").snapshot()
    advice = advise(snap.game, snap.view, snap.seat, list(snap.legal), random.Random(1),
                    level="normal")
    reason = advice.reason
    assert isinstance(reason, level8_advice.Reason)
    # not J11-15: with O11 gone the triplet needs it (the cards named go all together)
    assert (reason.why, str(reason.card), [str(c) for c in reason.spared], reason.lacks) == \
        (level8_advice.Why.DISCARD_SPARE, "O11", ["G2", "G14"], 1)
    assert normal_hint(snap) == \
        "hint: discard O11: not in your plan; G2 and G14 could help the others"
    i18n.set_language("de")
    try:
        line = normal_hint(snap)
        assert line == \
            "Tipp: O11 ablegen: nicht in deinem Plan; G2 und G14 könnten den anderen helfen"
    finally:
        i18n.set_language("en")
    # nothing kept from the others: the words as before
    state = replace(state, down=(False, False, False), melds=())
    neutral = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60,
                           bot_level="normal").snapshot()
    assert normal_hint(neutral) == "hint: discard G2: not in your plan; 1 card to go: a 6 or a 7"
    # the final trial: a run G7 R8 R9 B10 and J6-10, R8 and R9 fitting Ada's red colour
    # group: "G7, R8 and R9 could help the others" read as the run called spare; the joker is
    hand = ["R1", "O1", "Y2", "B4", "G7", "R8", "R9", "B10", "B13", "P14", "J6-10"]
    state = build("level8-master", [hand, ["Y11", "Y12", "O12"],
                                    ["B1", "B2", "B3", "B5", "B7", "B8", "B9", "B12", "G1",
                                     "G2"]],
                  turn=0, levels=[2, 3, 1], down=[False, True, False], phase=Phase.PLAY,
                  melds=[(1, ComponentKind.SET, ["G3", "Y3", "O3"]),
                         (1, ComponentKind.COLOUR_GROUP, ["R2", "R3", "R4", "R5"])])
    run = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60,
                       bot_level="normal").snapshot()
    assert normal_hint(run) == "hint: discard B4: not in your plan; J6-10 could help the others"
    # a line still too long drops the cards named, not the reason (the final trial read, in
    # German, "B1 ablegen: P4, G9 und R10 könnten den anderen helfen" and no reason for B1)
    from lancards.cli.tui.hint import level8_reason

    assert level8_reason(run, replace(reason, spared=reason.spared * 3), 0) == \
        "not in your plan; 1 card to go"


def test_an_add_too_long_for_the_line_says_its_reason_briefly() -> None:
    """The final trial of 2026-12-07 read ``hint: add B1 to combination 2 (Ada's colour group
    B): one card fewer in your…``: cut. The brief words fit."""
    state = build("level8-master", [["B1", "R9", "O13"], ["Y11", "Y12", "O12"],
                                    ["P1", "P2", "P3", "P5", "P7", "P8", "P9", "P12", "G1",
                                     "G2"]],
                  turn=0, levels=[3, 3, 1], down=[True, True, False], phase=Phase.PLAY,
                  melds=[(1, ComponentKind.SET, ["G3", "Y3", "O3"]),
                         (1, ComponentKind.COLOUR_GROUP, ["B4", "B5", "B6", "B7"])])
    snap = LocalSession("level8-master", names=("Tess", "Bartholomew", "Cleo"), state=state,
                        bot_delay=60, bot_level="normal").snapshot()
    assert normal_hint(snap) == \
        "hint: add B1 to combination 2 (Bartholomew's colour group B): one card fewer"
