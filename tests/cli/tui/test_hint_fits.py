"""Every hint is one line of an 80-column terminal (the trial read hints that wrapped):
every kind of reason of both games (``engine/level8/advice.py``, ``engine/eights/advice.py``)
with the move it goes with, long lists of missing cards and 24-character nicknames, in English
and German, fits 79 columns (the message line's leading space) or is cut after a whole word.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.session import TableSnapshot
from lancards.cli.tui.hint import HINT_COLUMNS, hint_forms, hint_words
from lancards.cli.tui.width import ELLIPSIS, text_width
from lancards.engine.eights import EIGHTS
from lancards.engine.eights import advice as eights_advice
from lancards.engine.eights.actions import Play
from lancards.engine.eights.cards import parse_card
from lancards.engine.eights.position import read_position
from lancards.engine.level8 import actions
from lancards.engine.level8 import advice as level8_advice
from lancards.engine.level8.builder import build
from lancards.engine.level8.cards import Kind
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.state import Phase
from lancards.engine.rulesets import Advice
from tests.cli.tui.test_hint import eights_hands, eights_text

LONG = ("Maximiliane-Alexandrina1", "Maximiliane-Alexandrina2", "Maximiliane-Alexandrina3")
OTHERS = (["P1", "P2", "P3", "P4", "P5", "P6", "P8", "P9", "P10", "P11"],
          ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9", "Y10", "Y11"])
Why = level8_advice.Why
MOVES: dict[level8_advice.Why, tuple[type, ...]] = {
    Why.ONLY: (object,), Why.DRAW_PILE: (actions.Draw,), Why.TAKE_TOP: (actions.DrawDiscard,),
    Why.TOP_FITS: (actions.DrawDiscard,), Why.LAY_DOWN: (actions.LayDown,),
    Why.ADD: (actions.Add,), Why.DISCARD_SPARE: (actions.Discard,),
    Why.DISCARD_LEAST: (actions.Discard,), Why.DISCARD_DEAD: (actions.Discard,),
    Why.DISCARD_DOWN: (actions.Discard,), Why.PLAY_TAKE: (actions.PlaySpecial,),
    Why.PLAY_SWAP: (actions.PlaySpecial,), Why.PLAY_KEEP: (actions.PlaySpecial,),
    Why.PLAY_SKIP: (actions.PlaySpecial,), Why.SHOW: (actions.Show,),
    Why.CHOOSE: (actions.Choose,), Why.CHOOSE_NONE: (actions.Choose,),
    Why.SWAP_PUT: (actions.SwapPut,), Why.KEEP: (actions.Keep,),
    Why.END: (actions.SwapEnd, actions.KeepEnd, actions.EndTurn)}
"""Each Level 8 reason with the moves it is given for."""
SPECIAL = {Why.PLAY_TAKE: Kind.TAKE, Why.PLAY_SWAP: Kind.SWAP, Why.PLAY_KEEP: Kind.KEEP,
           Why.PLAY_SKIP: Kind.SKIP}
NEEDS = (((0, 11), 2), ((4, 0), 3), ((-1, 8), 1), ((-1, 4), 1))
OUTS = ((-1, 1), (-1, 3), (-1, 4), (-1, 9), (-1, 11), (0, 12), (1, 13))


def level8(hand: list[str], edition: str = "level8-master", names: tuple[str, ...] = LONG,
           **position: object) -> TableSnapshot:
    state = build(edition, [hand, *OTHERS], turn=0, **position)  # type: ignore[arg-type]
    return LocalSession(edition, names=("Tess", *names[:2]), state=state, bot_delay=60,
                        bot_level="normal").snapshot()


def level8_snaps(names: tuple[str, ...] = LONG) -> Iterator[TableSnapshot]:
    yield level8(["R3", "O3", "B5", "G5", "Y14", "O2", "G10", "KEEP", "TAKE", "SWAP"],
                 names=names, phase=Phase.PLAY)
    yield level8(["R3", "O3", "SKIP", "B14"], "level8", names, phase=Phase.PLAY,
                 down=[True, False, False],
                 melds=[(0, ComponentKind.SET, [f"R{n}", f"O{n}"]) for n in (5, 6, 7, 8)])
    swap = level8(["R3", "O3", "B5"], names=names, phase=Phase.SWAP)
    yield replace(swap, view=swap.view.evolve(swaps=3))
    yield level8(["R3", "O3", "B5"], names=names, phase=Phase.DRAW,
                 discards=[[], ["G1", "P7"], ["P12"]])
    yield level8(["R12", "B3", "G9"], names=names, phase=Phase.PLAY, down=[True, True, False],
                 melds=[(1, ComponentKind.SET, [f"O{n}", f"B{n}", f"G{n}"])
                        for n in (2, 4, 5, 6, 7, 8, 12)])  # seven of another's: "combination 7"


def hints(names: tuple[str, ...] = LONG) -> Iterator[tuple[TableSnapshot, Advice]]:
    """Every kind of reason of both games with its moves, the longest numbers and lists."""
    for snap in level8_snaps(names):
        for action in snap.legal:
            for why, moves in MOVES.items():
                card = getattr(getattr(action, "card", None), "card", None)
                if not isinstance(action, moves) or (
                        why in SPECIAL and getattr(card, "kind", None) is not SPECIAL[why]):
                    continue
                for lacks in (-1, 0, 1, 3):
                    reason = level8_advice.Reason(
                        why, card, 3, lacks, NEEDS if lacks > 1 else NEEDS[:1], meld=11,
                        target=1, outs=OUTS if lacks == 1 else (), ahead=lacks - 1)
                    yield snap, Advice("normal", action, reason)
    state = read_position(eights_text(eights_hands()), EIGHTS)
    snap = LocalSession("eights", names=("Tess", *names), state=state, bot_delay=60).snapshot()
    for card, take in (("B8", False), ("B15", None)):
        for why in eights_advice.Why:
            for win, stake in ((0.3, 75), (0.65, 0), (0.55, -10)):
                reason = eights_advice.Reason(why, win, 15, frees=13, deals=148, gain=19.4,
                                              instead=Play(0, 5, parse_card("B8"), True),
                                              stake=stake)
                yield snap, Advice("hard", Play(0, 5, parse_card(card), take), reason)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_hint_fits_80_columns_or_is_cut_after_a_word(language: str) -> None:
    i18n.set_language(language)
    try:
        count = cut = 0
        for snap, advice in hints():
            line = hint_words(snap, advice)
            count += 1
            assert text_width(line) <= HINT_COLUMNS, line
            assert line.startswith(("hint: ", "Tipp: ")), line
            if line.endswith(ELLIPSIS):  # the shortest form, cut after a whole word
                cut += 1
                move, reason = list(hint_forms(snap, advice))[-1]
                shortest = f"{line[:6]}{move}: {reason}"
                start = line[:-1]
                assert shortest.startswith(start) and shortest[len(start)] == " ", line
                assert start[-1] not in " ,;:", line
        assert count > 300
        assert cut < count // 5  # the long names cut some, not most
    finally:
        i18n.set_language("en")


def test_a_hint_says_the_long_reason_when_it_fits_and_fewer_cards_when_not() -> None:
    snap = level8(["R3", "O3", "B5", "G5", "Y14", "O2", "G10"], phase=Phase.PLAY)
    discard = next(a for a in snap.legal if isinstance(a, actions.Discard))
    reason = level8_advice.Reason(Why.DISCARD_SPARE, discard.card.card, 1, 1,
                                  (((-1, 3), 1),), outs=OUTS[:3])
    assert hint_words(snap, Advice("normal", discard, reason)) == \
        "hint: discard R3: not in your plan; 1 card to go: a 1, a 3 or a 4"
    reason = replace(reason, outs=OUTS)
    assert hint_words(snap, Advice("normal", discard, reason)) == \
        "hint: discard R3: not in your plan; 1 card to go: a 1, a 3 or five other cards"
    assert hint_words(snap, Advice("normal", discard, reason), columns=200) == (
        "hint: discard R3: not in your plan; 1 card to go: a 1, a 3, a 4, a 9 or any of 3 "
        "other cards that complete your level")


@pytest.mark.parametrize("language", ["en", "de"])
def test_with_everyday_nicknames_no_hint_is_cut(language: str) -> None:
    """The German trial read "Tipp: R12 an Kombination 7 anlegen (Gruppe aus 12ern von Ann):
    eine Karte…" (German is longer): a shorter form fits, so it is chosen, never a cut line,
    in either language, for nicknames up to 9 characters."""
    i18n.set_language(language)
    try:
        lines = [hint_words(snap, advice) for snap, advice in hints(("Annabelle", "Benedikt",
                                                                     "Cyd"))]
        assert len(lines) > 300
        assert [line for line in lines if line.endswith(ELLIPSIS)] == []
    finally:
        i18n.set_language("en")


def test_an_add_drops_its_combinations_kind_before_the_line_is_cut(german) -> None:
    snap = level8(["R12", "B3", "G9"], names=("Ann", "Cyd"), phase=Phase.PLAY,
                  down=[True, True, False],
                  melds=[(1, ComponentKind.SET, [f"O{n}", f"B{n}", f"G{n}"])
                         for n in (2, 4, 5, 6, 7, 8, 12)])
    add = next(a for a in snap.legal if isinstance(a, actions.Add) and a.meld == 6
               and str(a.card.card) == "R12")
    advice = Advice("normal", add, level8_advice.Reason(Why.ADD, add.card.card, 1, 0, ()))
    assert hint_words(snap, advice) == \
        "Tipp: R12 an Kombination 7 anlegen: eine Karte weniger auf der Hand"
    i18n.set_language("en")  # English fits whole
    assert hint_words(snap, advice) == \
        "hint: add R12 to combination 7 (Ann's set of 12s): one card fewer in your hand"


def test_the_others_count_is_a_word_beside_a_cards_number() -> None:
    """The LAN trial read "noch 1 Karte: eine 3 oder 3 weitere": a card 3 and a count 3 side
    by side. The count is a word up to six, else said with its noun; the German trial read
    "noch 1 Karte: eine 2 oder drei weitere" as three more cards: the noun says what is
    counted, numbers when the others are numbers of any colour."""
    from lancards.cli.tui.hint import others_words

    assert others_words(["a 3"], 3) == "a 3 or three other cards"
    assert others_words(["a 3"], 3, numbers=True) == "a 3 or three other numbers"
    assert others_words(["a 3"], 1) == "a 3 or one other card"
    assert others_words(["a 3"], 1, numbers=True) == "a 3 or one other number"
    assert others_words(["a 3", "a 4"], 6) == "a 3, a 4 or six other cards"
    assert others_words(["a 3"], 9) == "a 3 or any of 9 other cards"
    assert others_words(["a 3"], 9, numbers=True) == "a 3 or any of 9 other numbers"
    i18n.set_language("de")
    try:
        assert others_words(["eine 3"], 3) == "eine 3 oder drei andere Karten"
        assert others_words(["eine 3"], 3, numbers=True) == "eine 3 oder drei andere Zahlen"
        assert others_words(["eine 3"], 1) == "eine 3 oder eine andere Karte"
        assert others_words(["eine 3"], 1, numbers=True) == "eine 3 oder eine andere Zahl"
        assert others_words(["eine 3"], 9) == "eine 3 oder eine von 9 weiteren Karten"
        assert others_words(["eine 3"], 9, numbers=True) == \
            "eine 3 oder eine von 9 anderen Zahlen"
    finally:
        i18n.set_language("en")


def test_few_numbers_that_complete_the_level_are_named_as_numbers() -> None:
    """The German trial read "Tipp: O13 ablegen: nicht in deinem Plan; noch 1 Karte: eine 2
    oder drei weitere" (the numbers 4, 7 and 8 would do too): a line too long for "eine 2, eine
    4, eine 7 oder eine 8" names the numbers, then counts them as numbers."""
    from lancards.cli.tui.hint import outs_words

    numbers = ((-1, 2), (-1, 4), (-1, 7), (-1, 8))
    assert outs_words(numbers) == "a 2, a 4, a 7 or an 8"
    assert outs_words(numbers, 3) == "a 2, 4, 7 or 8"
    assert outs_words(numbers, 2) == "a 2, 4, 7 or 8"
    assert outs_words(numbers, 1) == "a 2 or three other numbers"
    assert outs_words(((-1, 8), (-1, 2), (0, 7)), 3) == "an 8, a 2 or a red 7"
    assert outs_words(((-1, 8), (-1, 2), (0, 7)), 1) == "an 8 or two other cards"
    i18n.set_language("de")
    try:
        assert outs_words(numbers, 3) == "eine 2, 4, 7 oder 8"
        assert outs_words(numbers, 1) == "eine 2 oder drei andere Zahlen"
        snap = level8(["R3", "O3", "B5", "G5", "Y14", "O2", "G10"], names=("Ann", "Cyd"),
                      phase=Phase.PLAY)
        discard = next(a for a in snap.legal if isinstance(a, actions.Discard)
                       and str(a.card.card) == "Y14")
        reason = level8_advice.Reason(Why.DISCARD_SPARE, discard.card.card, 1, 1,
                                      (((-1, 2), 1),), outs=numbers)
        assert hint_words(snap, Advice("normal", discard, reason)) == \
            "Tipp: Y14 ablegen: nicht in deinem Plan; noch 1 Karte: eine 2, 4, 7 oder 8"
    finally:
        i18n.set_language("en")
