"""The keys after ``h`` land on the hinted move (issue 26's new-user trial, ``cli/tui/
hint_follow.py``): the 8's chooser opens on the hint's take or no take, the cards a show
names are marked, the take list opens on the hinted card and ``l`` opens the builder on the
hinted lay-down; each on a built table through its keys, English and German where the words
differ."""

from __future__ import annotations

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.hint import hint_advice
from lancards.engine.eights import EIGHTS
from lancards.engine.eights.position import read_position
from lancards.engine.level8.actions import Choose, LayDown
from lancards.engine.level8.builder import build
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven

NAMES4 = ("Tess", "Ada", "Bram", "Cleo")
MINE = ["R1", "R2", "R3", "R4", "Y8", "B1", "B2", "B3", "B4", "B5", "G1", "G2", "G3", "G4", "G5"]


def _eights() -> LocalSession:
    """Round 2 (no Red cards), trick 1: Ada Y10, Bram Y12, Cleo Y3; Tess, with Y8 her only
    Yellow, to play it with take or no take (hard: no take)."""
    led = ["Y10", "Y12", "Y3"]
    rest = [f"{s}{n}" for s in "RBYG" for n in range(1, 16)
            if f"{s}{n}" not in MINE and f"{s}{n}" not in led]
    hands = {0: MINE, **{seat: rest[i * 14:(i + 1) * 14] for i, seat in enumerate((1, 2, 3))}}
    text = "\n".join([
        "lancards-position 1", "game eights", "seats 4", "round 2", "dealer 0",
        "phase tricks", "turn 0", *[f"hand {s}: {' '.join(hands[s])}" for s in range(4)],
        "trick-now: 1 Y10 2 Y12 3 Y3", "result 1: dealer 3 tricks 15 points 0 0 0 0",
        "totals: 0 0 0 0"])
    return LocalSession("eights", names=NAMES4, state=read_position(text, EIGHTS),
                        bot_delay=60)


@pytest.mark.parametrize(("language", "hint", "chooser"), [
    ("en", " hint: play Y8 (no take): about 2 points better for you than Y8 (take)",
     ["   1. take (this 8 wins the trick)",
      " > 2. no take (the highest other card of the suit wins)"]),
    ("de", " Tipp: Y8 spielen (nicht nehmen): etwa 2 Punkte besser für dich als Y8 (nehmen)",
     ["   1. nehmen (diese 8 gewinnt den Stich)",
      " > 2. nicht nehmen (die höchste andere Karte der Farbe gewinnt)"]),
])
def test_enter_enter_after_the_hint_plays_the_8_as_the_hint_said(language, hint,
                                                                  chooser) -> None:
    session = _eights()
    i18n.set_language(language)
    try:
        with driven(session, 100, 30) as d:
            rows = d.press("enter").splitlines()  # no hint: the chooser opens on take
            assert next(r for r in rows if "1. " in r).startswith(" > 1. ")
            d.press("escape")
            assert hint in d.press("h").splitlines()
            rows = d.press("enter").splitlines()
            assert [r for r in rows if "1. " in r or "2. " in r] == chooser
            d.press("enter")
    finally:
        i18n.set_language("en")
    assert [(a.take, str(a.card)) for a in session.history[:1]] == [(False, "Y8")]


NAMES3 = ("Tess", "Ada", "Bram")
OTHERS = (["P1", "P2", "P3", "P4", "P5", "P6", "P8", "P9", "P10", "P11"],
          ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y8", "Y9", "Y10", "Y11"])


def test_the_cards_a_show_hint_names_are_marked_and_enter_shows_them() -> None:
    """Ada played TAKE; Tess shows 3 of R1 O2 Y3 G4 R5 B9: after ``h`` the hinted three are
    marked (the key line counts them), Space still unmarks one, and Enter shows them."""
    state = build("level8-master", [["R1", "O2", "Y3", "G4", "R5", "B9"], ["TAKE", "O1"],
                                    ["Y1"]], turn=1, dealer=0)
    state = state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
    with driven(session, 100, 30) as d:
        d.press("end")
        rows = d.press("h").splitlines()
        at = rows.index(" your hand (6 cards, by number; s sorts):")
        assert rows[at + 1:at + 5] == [
            " R1 O2 Y3 G4 R5 B9", " ^* *        *",
            " hint: show R1 O2 R5: these are the cards your plan needs least",
            " Space marks 3 cards (3 marked) · Enter shows them · ? keys · q quit · h hint"
            " · o goal"]
        assert " Space marks 3 cards (2 marked)" in d.press("space").splitlines()[at + 4]
        d.press("space", "enter")
    assert sorted(str(c.card) for c in session.history[0].cards) == ["O2", "R1", "R5"]


def test_the_take_list_opens_on_the_card_the_hint_takes() -> None:
    """Tess plays TAKE; Ada shows O10 O11 O12, Bram Y1 Y2 Y7: ``hint: take Bram's Y1``, then
    Enter opens the list on ``> 4. Bram's Y1`` (it opened on the first) and Enter takes it."""
    hands = [["TAKE", "R1", "R2", "O5", "G7", "B9"], ["O10", "O11", "O12", "O13"],
             ["Y1", "Y2", "Y7", "P8"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"])
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
    with driven(session, 100, 30) as d:
        d.press("end", "p")
        d.settle(lambda: session.state.phase is Phase.CHOOSE, limit=2.0)
        assert " hint: take Bram's Y1: then 3 cards to go instead of 4: a 2, a 5 and a 7" in \
            d.press("h").splitlines()
        rows = d.press("enter").splitlines()
        assert [r for r in rows if r[3:5].rstrip(".").isdigit()] == [
            "   1. Ada's O10", "   2. Ada's O11", "   3. Ada's O12", " > 4. Bram's Y1",
            "   5. Bram's Y2", "   6. Bram's Y7", "   7. take none"]
        d.press("enter")
    chosen = session.history[-1]
    assert isinstance(chosen, Choose) and str(session.state.cards[chosen.slot]) == "Y1"


@pytest.mark.parametrize(("language", "hint", "loaded"), [
    ("en", " hint: lay down your level (l, then Enter): you hold all of it",
     " offered lay-down 4 of 4, the hint's: Enter lays it down, Tab shows the others"),
    ("de", " Tipp: deine Stufe auslegen (l, dann Enter): du hast alles",
     " Vorschlag 4 von 4, wie im Tipp: Enter legt ihn aus, Tab zeigt die anderen"),
])
def test_l_after_the_hint_opens_the_builder_on_the_hinted_lay_down(language, hint,
                                                                   loaded) -> None:
    """Level 8, level 4 (a run of 6 and a pair), four lay-downs offered, the hint's the
    fourth: the trial read ``l, then Tab until offered lay-down 4 of 4`` and pressed Tab four
    times. Now ``l`` opens the builder holding it; Tab goes on to the others (offer 1), Shift-Tab
    back, and Enter lays the hint's down."""
    hand = ["O12", "O1", "O3", "G13", "B2", "R5", "R10", "J", "R7", "G6", "G1", "O13"]
    state = build("level8", [hand, *OTHERS], turn=0, phase=Phase.PLAY, levels=[4, 1, 1])
    session = LocalSession("level8", names=NAMES3, state=state, bot_delay=60)
    hinted = hint_advice(session.snapshot()).action
    offers = [a for a in session.snapshot().legal if isinstance(a, LayDown)]
    assert offers.index(hinted) == 3 and len(offers) == 4
    i18n.set_language(language)
    try:
        with driven(session, 80, 24) as d:
            assert d.press("h").splitlines()[-2] == hint
            assert d.press("l").splitlines()[-2] == loaded
            assert d.press("tab").splitlines()[-2] in (" offered lay-down 1 of 4",
                                                       " Vorschlag 1 von 4")
            d.press("s-tab", "enter")
    finally:
        i18n.set_language("en")
    assert session.history == [hinted]


@pytest.mark.parametrize(("language", "loaded"), [
    ("en", " the one lay-down offered, the hint's: Enter lays it down"),
    ("de", " der einzige Vorschlag, wie im Tipp: Enter legt ihn aus"),
])
def test_l_after_the_hint_with_one_lay_down_offered_says_there_is_no_other(language,
                                                                           loaded) -> None:
    """The new-user trial of 2026-12-07 read ``offered lay-down 1 of 1, the hint's: Enter lays
    it down, Tab shows the others`` where there were no others (level 2, 4 pairs: one way)."""
    hand = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B9", "Y14", "G10", "O2"]
    state = build("level8", [hand, *OTHERS], turn=0, phase=Phase.PLAY, levels=[2, 1, 1])
    session = LocalSession("level8", names=NAMES3, state=state, bot_delay=60)
    assert len([a for a in session.snapshot().legal if isinstance(a, LayDown)]) == 1
    i18n.set_language(language)
    try:
        with driven(session, 80, 24) as d:
            d.press("h")
            assert d.press("l").splitlines()[-2] == loaded
            d.press("enter")
    finally:
        i18n.set_language("en")
    assert isinstance(session.history[0], LayDown)


@pytest.mark.parametrize(("language", "draw", "play"), [
    ("en", " Enter does nothing now: d draws from the draw pile, 1-3 from a discard pile",
     " Enter does nothing now: x discards the card under the cursor, ? shows the keys"),
    ("de", " Enter tut jetzt nichts: d zieht vom Nachziehstapel, 1-3 von einem Ablagestapel",
     " Enter tut jetzt nichts: x legt die Karte unter dem Cursor ab; ? zeigt Tasten"),
])
def test_enter_where_it_does_nothing_names_the_keys_that_do(language, draw, play) -> None:
    """The new-user trial of 2026-12-07 pressed Enter after ``hint: draw Y12 from Ada's
    discard pile`` and read ``Enter does nothing now; press ? for the keys``; after a hint to
    discard, Enter (which plays the card in 8s Rule!) did nothing either. The line names the
    keys of the phase: the draw's, then x."""
    hand = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B9", "Y14", "G10"]
    state = build("level8", [hand, *OTHERS], turn=0, phase=Phase.DRAW, levels=[2, 1, 1])
    session = LocalSession("level8", names=NAMES3, state=state, bot_delay=60)
    i18n.set_language(language)
    try:
        with driven(session, 80, 24) as d:
            assert d.press("enter").splitlines()[-2] == draw
            d.press("d")
            d.settle(lambda: session.state.phase is Phase.PLAY, limit=2.0)
            assert d.press("enter").splitlines()[-2] == play
    finally:
        i18n.set_language("en")
    assert len(session.history) == 1  # the draw: Enter played nothing


def test_the_list_of_moves_opens_on_the_hint_s_move() -> None:
    """The new-user trial of 2026-12-07 read ``hint: discard Y2: not in your plan``, pressed m
    and read ``> 1. discard R3``: after h, the list of every legal move opens on the hint's
    move, as the other lists do; Enter plays it."""
    hand = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B12", "Y14", "O2", "G10"]
    state = build("level8-master", [hand, *OTHERS], turn=0, phase=Phase.PLAY)
    session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60,
                           bot_level="normal")
    hinted = hint_advice(session.snapshot()).action
    with driven(session, 80, 24) as d:
        rows = d.press("m").splitlines()
        assert " >  1. discard R3" in rows and "    2. discard R9" in rows  # no hint: the first
        d.press("escape")
        hint = next(r for r in d.press("h").splitlines() if r.startswith(" hint: "))
        assert hint.startswith(" hint: discard R9: ")
        rows = d.press("m").splitlines()
        assert "    1. discard R3" in rows and " >  2. discard R9" in rows
        d.press("enter")
    assert session.history == [hinted]


@pytest.mark.parametrize(("language", "draw", "keep"), [
    ("en", (" hint: draw P7 from Ada's discard pile (2): then 1 card to go instead of 2",
            " Enter does nothing now; the hint: draw P7 from Ada's discard pile (2)"),
     (" hint: play KEEP (p): it counts for nothing once you lay down",
      " Enter does nothing now; the hint: play KEEP (p)")),
    ("de", (" Tipp: P7 vom Ablagestapel von Ada ziehen (2): dann noch 1 Karte statt 2",
            " Enter tut jetzt nichts; der Tipp: P7 vom Ablagestapel von Ada ziehen (2)"),
     (" Tipp: KEEP spielen (p): sie zählt nicht mehr, sobald du auslegst",
      " Enter tut jetzt nichts; der Tipp: KEEP spielen (p)")),
])
def test_enter_after_a_hint_it_does_not_follow_names_the_hints_move_and_key(
        language, draw, keep) -> None:
    """A new-user trial of 2026-12-08 pressed Enter after a hint to draw from a discard pile
    and after ``hint: play KEEP (p)``: Enter does not make such a move (``cli/tui/
    hint_enter.py``: a draw or a KEEP played by a stray Enter, never seen named), but its line
    names the hint's move and key, since the hint has left the message line. Then the key
    makes it."""
    i18n.set_language(language)
    try:
        hand = ["R3", "O3", "B5", "G5", "Y7", "R9", "B12", "Y14", "O2", "G10"]
        state = build("level8-master", [hand, *OTHERS], turn=0, phase=Phase.DRAW,
                      discards=[[], ["G1", "P7"], []])
        session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
        with driven(session, 80, 24) as d:
            assert d.press("h").splitlines()[-2] == draw[0]
            assert d.press("enter").splitlines()[-2] == draw[1]
            assert session.history == []
            d.press("2")
            d.settle(lambda: session.state.phase is Phase.PLAY, limit=2.0)
        assert [str(a) for a in session.history] == ["0: draw-discard 1"]
        state = build("level8-master", [["KEEP", "R3", "O9"], *OTHERS], turn=0,
                      phase=Phase.PLAY)
        session = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60)
        with driven(session, 80, 24) as d:
            assert d.press("h").splitlines()[-2] == keep[0]
            assert d.press("enter").splitlines()[-2] == keep[1]
            assert session.history == []
    finally:
        i18n.set_language("en")


def test_the_enter_line_names_each_hinted_moves_key() -> None:
    """Every Level 8 move Enter does not make, with its key; a move whose words do not fit the
    line (a long name) is left out, the key stays."""
    from lancards.cli.tui.hint_enter import enter_words, hinted_key
    from lancards.engine.level8.actions import Add, Discard, Draw, DrawDiscard, Show
    from lancards.engine.level8.levels import ComponentKind

    hand = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B9", "Y14", "G10", "O2"]
    state = build("level8", [hand, *OTHERS], turn=0, phase=Phase.PLAY, levels=[2, 1, 1])
    snap = LocalSession("level8", names=NAMES3, state=state, bot_delay=60).snapshot()
    keys = {type(a).__name__: hinted_key(a) for a in snap.legal}
    assert keys == {"Discard": "x", "LayDown": "l"}
    discard = next(a for a in snap.legal if isinstance(a, Discard) and str(a.card.card) == "R9")
    assert enter_words(snap, discard) == "Enter does nothing now; the hint: discard R9 (x)"
    lay = next(a for a in snap.legal if isinstance(a, LayDown))
    assert enter_words(snap, lay) == "Enter does nothing now; the hint: lay down your level (l)"
    assert enter_words(snap, None) is None
    state = build("level8", [hand, *OTHERS], turn=0, phase=Phase.DRAW, levels=[2, 1, 1],
                  discards=[[], ["G1", "G7"], []])
    long = ("Tess", "Adalbertina Maximiliane Hohenzollern-Sigmaringen", "Bram")
    snap = LocalSession("level8", names=long, state=state, bot_delay=60).snapshot()
    take = next(a for a in snap.legal if isinstance(a, DrawDiscard))
    assert enter_words(snap, take) == "Enter does nothing now: the hint's key is 2"
    assert enter_words(snap, next(a for a in snap.legal if isinstance(a, Draw))) == \
        "Enter does nothing now; the hint: draw from the draw pile (d)"
    assert hinted_key(Show(0, ())) is None  # Enter shows the marked cards itself
    melds = [(0, ComponentKind.SET, ["R3", "O3"]), (0, ComponentKind.SET, ["B5", "G5"]),
             (0, ComponentKind.SET, ["Y7", "P7"]), (0, ComponentKind.SET, ["R9", "B9"])]
    state = build("level8-master", [["R12", "O9", "G4"], *OTHERS], turn=0, phase=Phase.PLAY,
                  down=[True, False, False], melds=melds)
    snap = LocalSession("level8-master", names=NAMES3, state=state, bot_delay=60).snapshot()
    add = next(a for a in snap.legal if isinstance(a, Add))
    assert enter_words(snap, add) == \
        "Enter does nothing now; the hint: add O9 to combination 4 (a)"  # not "(your set of 9s)"
