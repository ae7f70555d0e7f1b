"""Moves told in words (cli/tui/narrate.py): exact sentences, cards by name, seats by name,
hidden cards never named, as each seat saw the move."""

from __future__ import annotations

from typing import Any

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.narrate import move_label, narrate, narrate_game, plural, round_marker
from lancards.engine.eights import EIGHTS
from lancards.engine.level8 import LEVEL8
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from tests.eights.helpers import deal, move, play_all
from tests.level8.scenario import act, build, resolve

NAMES = ("Ann", "Ben", "Cat")
NAMES_4 = ("Ann", "Ben", "Cat", "Dan")


def told(state: Any, text: str, viewer: int, game: Any = LEVEL8) -> list[str]:
    """The sentences of the move ``text`` in ``state`` as ``viewer`` saw it."""
    action = resolve(state, text) if game is LEVEL8 else move(state, text)
    after = game.apply(state, action)
    return narrate(game.name, game.view(state, viewer), action, game.view(after, viewer),
                   NAMES, viewer)


def test_plural_counts_one_as_singular():
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards"
    assert plural(2, "free seat") == "2 free seats"


def test_a_draw_names_the_card_only_to_the_drawer():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  pile_top=["P9"])
    assert told(state, "0: draw", 0) == ["You drew P9 from the draw pile"]
    assert told(state, "0: draw", 1) == ["Ann drew from the draw pile"]


def test_a_draw_from_a_discard_pile_names_the_card_and_the_owner():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=1, phase=Phase.DRAW,
                  discards=[[], [], ["B5", "P9"]])
    assert told(state, "1: draw-discard 2", 0) == ["Ben drew P9 from Cat's discard pile"]
    assert told(state, "1: draw-discard 2", 2) == ["Ben drew P9 from your discard pile"]


def test_take_that_says_whose_card_was_taken():
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"])
    assert told(state, "0: play TAKE", 1) == ["Ann played TAKE (I'll take that!)"]
    state = act(state, "0: play TAKE")
    assert told(state, "1: show O1 O2 O3", 2) == ["Ben showed O1 O2 O3"]
    state = act(state, "1: show O1 O2 O3", "2: show Y1 Y2")
    assert state.phase is Phase.CHOOSE
    slot = state.shown[1][2]
    assert str(state.cards[slot]) == "O3"
    text = f"0: choose #{slot}"
    # Ben's replacement comes from the draw pile (ruling L8M-1): only Ben is told which card.
    assert told(state, text, 1) == ["Ann took your O3 (I'll take that!)",
                                    "You drew P9 from the draw pile in its place"]
    # the others read that Ben drew one, not which (the new-user trial: Ben's hand stayed at
    # 10 with no word of it)
    assert told(state, text, 2) == ["Ann took Ben's O3 (I'll take that!)",
                                    "Ben drew from the draw pile in its place"]
    assert told(state, text, 0) == ["You took Ben's O3 (I'll take that!)",
                                    "Ben drew from the draw pile in its place"]
    assert told(state, "0: choose none", 2) == ["Ann took none of the shown cards "
                                                "(I'll take that!)"]


def test_a_lay_down_tells_the_level_and_each_combination_in_order():
    hand = ["R9", "O9", "J6-10", "B4", "B2", "B3", "J1-5", "B5"]
    state = build("level8-master", [hand, ["Y1"], ["Y2"]], levels=(2, 1, 1), turn=0,
                  phase=Phase.PLAY)
    text = "0: laydown R9 O9 J6-10=9 | B4 B2 J1-5=1 B3"
    assert told(state, text, 2) == [
        "Ann laid down level 2 (triplet + run of 4): R9 O9 J6-10=9 | J1-5=1 B2 B3 B4"]


def test_an_add_names_the_combination_by_its_number_from_1():
    state = build("level8", [["J", "R1"], ["Y1"], ["Y2"]], turn=0, phase=Phase.PLAY,
                  down=(True, False, False), melds=[(1, K.RUN, ["R4", "O5", "R6"])])
    assert told(state, "0: add 0 J=7", 1) == ["Ann added J=7 to combination 1 (your run 4-6)"]


def test_going_out_ends_the_round_and_marks_the_next():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, down=(True, False, False),
                  levels=(1, 2, 1))
    lines = told(state, "0: discard R3", 1)
    assert lines[:2] == ["Ann discarded R3", "Ann went out: round 1 is over"]
    assert round_marker(2, "Ben") == "── round 2 · dealer Ben ──"
    assert round_marker(2, "Ann", yours=True) == "── round 2 · you deal ──"
    assert round_marker(2) == round_marker(2, "", yours=True) == "── round 2 ──"


def test_a_skip_names_who_is_skipped():
    state = build("level8", [["SKIP", "R1"], ["Y1"], ["Y2"]], turn=0)
    assert told(state, "0: play SKIP 2", 1) == ["Ann put SKIP in front of Cat (Skip!)"]
    assert told(state, "0: play SKIP 2", 2) == ["Ann put SKIP in front of you (Skip!)"]


def test_eights_leads_follows_and_the_trick_winner():
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    assert told(state, "B8 take", 1, EIGHTS) == ["Ann led B8 (take)"]
    assert told(state, "B8 take", 0, EIGHTS) == ["You led B8 (take)"]
    state = play_all(state, ["B8 take", "B14"])
    assert told(state, "B15", 1, EIGHTS) == ["Cat played B15", "Ann takes trick 1: B8 B14 B15"]
    assert told(state, "B15", 0, EIGHTS)[1] == "You take trick 1: B8 B14 B15"


def test_a_move_in_a_list_is_told_as_an_order_with_its_card():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  discards=[[], ["B5", "O11"], []])
    view = LEVEL8.view(state, 0)
    labels = [move_label("level8", view, a, NAMES, 0) for a in LEVEL8.legal_actions(view, 0)]
    assert "draw O11 from Ben's discard pile" in labels
    assert "draw from the draw pile" in labels
    assert not any("#" in label for label in labels)


def test_a_whole_game_told_to_a_spectator_names_no_hidden_card():
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), bots=2, seed=2,
                           bot_delay=0, autoplay=True)
    start = session.state
    session.advance()
    lines = narrate_game(LEVEL8, start, session.history, session.names)
    texts = [text for _, text in lines]
    assert texts[0] == "── round 1 · dealer " + texts[0].split("dealer ")[1]
    assert any(t.endswith("wins the game") for t in texts)
    assert all("#" not in t for t in texts)
    assert not any(t.startswith("You ") for t in texts)  # a spectator is nobody's "you"
    draws = [t for t in texts if " drew " in t and "draw pile" in t]
    assert draws and all(t.endswith(("drew from the draw pile",
                                      "drew from the draw pile in its place")) for t in draws)
    numbers = [n for n, _ in lines]
    assert numbers == sorted(numbers) and numbers[-1] <= len(session.history)


def test_the_player_who_went_out_is_named_once_not_the_last_keeper():
    # Master: Ann goes out; Cat (not down, an "I'll keep that!" in front) keeps a card, and
    # her keep-end starts round 2. The log named the keeper "You went out" (issue 25).
    state = build("level8-master", [["R3"], ["Y1"], ["P3", "P4"]], turn=0,
                  down=(True, False, False), levels=(1, 2, 1), in_front=[[], [], ["KEEP"]])
    assert told(state, "0: discard R3", 2)[:2] == ["Ann discarded R3",
                                                     "Ann went out: round 1 is over"]
    state = act(state, "0: discard R3")
    assert state.phase is Phase.KEEP and state.keep_queue == (2,)
    assert told(state, "2: keep P3", 2)[0] == "You keep P3 for the next round"
    state = act(state, "2: keep P3")
    for viewer in (0, 1, 2):
        lines = told(state, "2: keep-end", viewer)
        assert not any("went out" in line for line in lines), lines
        assert lines[-1] == ("── round 2 · you deal ──" if viewer == 1 else
                             "── round 2 · dealer Ben ──")  # Ben, seat 1, deals
    assert told(state, "2: keep-end", 2)[0] == "You are done keeping cards"


def test_the_others_read_how_many_cards_a_player_kept_in_one_line():
    # the new-user trial of 2026-12-08 read "Bram kept a card for the next round" five times,
    # then "Bram is done keeping cards": now one line at the end, the keeper's own lines stay
    from lancards.cli import i18n

    state = build("level8-master", [["R3"], ["Y1"], ["P3", "P4", "P5"]], turn=0,
                  down=(True, False, False), levels=(1, 2, 1), in_front=[[], [], ["KEEP"]])
    state = act(state, "0: discard R3")
    assert told(state, "2: keep-end", 0)[0] == "Cat kept no card for the next round"
    assert told(state, "2: keep P3", 0) == []
    assert told(state, "2: keep P3", 2) == ["You keep P3 for the next round"]
    state = act(state, "2: keep P3")
    assert told(state, "2: keep-end", 1)[0] == "Cat kept 1 card for the next round"
    state = act(state, "2: keep P4")
    assert told(state, "2: keep-end", 0)[0] == "Cat kept 2 cards for the next round"
    assert told(state, "2: keep-end", 2)[0] == "You are done keeping cards"
    i18n.set_language("de")
    try:
        assert told(state, "2: keep-end", 0)[0] == \
            "Cat: 2 Karten für die nächste Runde behalten"
    finally:
        i18n.set_language("en")


def test_serving_a_skip_and_passing_are_told_as_orders_in_a_list_and_a_hint():
    """The new-user trial of 2026-12-05 read ``hint: Your turn was skipped (Skip!): it is your
    only move`` and ``hint: passed: ...``: a move in a list (and so a hint) is an order, as the
    key line says it (``Enter or e: serve the Skip (your turn is skipped)``)."""
    from lancards.cli import i18n
    from lancards.engine.eights import Pass

    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.SKIPPED)
    view = LEVEL8.view(state, 0)
    [serve] = LEVEL8.legal_actions(view, 0)
    eights = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    eights_view = EIGHTS.view(eights, 0)
    assert move_label("level8", view, serve, NAMES, 0) == "serve the Skip (your turn is skipped)"
    assert move_label("eights", eights_view, Pass(0), NAMES, 0) == "pass"
    i18n.set_language("de")
    try:
        assert move_label("level8", view, serve, NAMES, 0) == \
            "einmal aussetzen („Aussetzen!“ vor dir)"
        assert move_label("eights", eights_view, Pass(0), NAMES, 0) == "passen"
    finally:
        i18n.set_language("en")


def test_an_eights_round_abandoned_by_a_leave_is_told_as_dealt_again():
    """The trial of 2026-12-05: the log went from "Emil left the table" straight to the next
    lead, the hand grew from 13 cards to 20, and the round marker kept the old dealer."""
    from lancards.engine.core import Leave

    state = deal(4, {0: "B8 R1 R2", 1: "B14 G1 G3", 2: "B15 G2 G4", 3: "R3 R4 R5"}, dealer=2)
    before = EIGHTS.view(state, 0)
    after_state = EIGHTS.apply(state, Leave(2))  # the dealer leaves: the deal passes left
    after = EIGHTS.view(after_state, 0)
    assert narrate("eights", before, Leave(2), after, NAMES_4, 0) == [
        "Cat left the table",
        "round 1 is dealt again without Cat; nobody scores the cards played",
        "── round 1 · dealer Dan ──"]
    # told to the leaver itself ("without you", German "ohne dich"; it read "ohne You"), and
    # by redealt (the networked log) with the reader dealing next
    assert narrate("eights", before, Leave(2), EIGHTS.view(after_state, 2), NAMES_4, 2)[1] == \
        "round 1 is dealt again without you; nobody scores the cards played"
    from lancards.cli import i18n
    from lancards.cli.tui.narrate import redealt

    names = ("Ann", "Ben", "You", "Dan")  # seat 2 under the default nickname
    assert redealt(EIGHTS, after, after_state, 2, names, 3) == [
        "round 1 is dealt again without You; nobody scores the cards played",  # a nickname
        "── round 1 · you deal ──"]
    i18n.set_language("de")
    try:
        assert redealt(EIGHTS, after, after_state, 2, names, 2) == [
            "Runde 1 wird ohne dich neu gegeben; die gespielten Karten zählen für niemanden",
            "── Runde 1 · Dan gibt ──"]
    finally:
        i18n.set_language("en")
    # three left the table of three: the game is over, nothing is dealt again
    three = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    over = EIGHTS.apply(three, Leave(1))
    assert narrate("eights", EIGHTS.view(three, 0), Leave(1), EIGHTS.view(over, 0), NAMES,
                   0) == ["Ben left the table"]


def test_a_swap_that_puts_no_card_back_says_so():
    """The trial of 2026-12-06 read "Ada drew 0 cards (I'll swap that!)"."""
    hands = [["SWAP", "R1", "R2"], ["O1", "O2"], ["Y1", "Y2"]]
    state = act(build("level8-master", hands, turn=0, pile_top=["P9", "P10"]), "0: play SWAP")
    assert told(state, "0: swap-end", 1) == ["Ann put no card back (I'll swap that!)"]
    state = act(state, "0: swap-put R1")
    assert told(state, "0: swap-end", 1) == ["Ann drew 1 card (I'll swap that!)"]


PAIRS = ["R3", "O3", "B5", "G5", "Y7", "P7", "R9", "B9", "Y14"]
LAY_PAIRS = "0: laydown R3 O3 | B5 G5 | Y7 P7 | R9 B9"


def _keep_void_told() -> tuple[list[str], list[str], list[str]]:
    """Ann lays down with a KEEP in front of her; Ann plays a KEEP after laying down."""
    state = build("level8-master", [PAIRS, ["Y1"], ["Y2"]], turn=0, phase=Phase.PLAY,
                  in_front=[["KEEP"], [], []])
    down = build("level8-master", [["KEEP", "R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.PLAY,
                 down=(True, False, False))
    return told(state, LAY_PAIRS, 0), told(state, LAY_PAIRS, 1), told(down, "0: play KEEP", 0)


def test_a_keep_made_void_by_laying_down_is_told_to_its_player():
    """The new-user trial of 2026-12-06: KEEP played, then the level laid down, and the KEEP
    was gone without a word (ruling L8-13: a player who laid down keeps nothing)."""
    mine, theirs, played = _keep_void_told()
    assert mine == ["You laid down level 1 (4 pairs): R3 O3 | B5 G5 | Y7 P7 | R9 B9",
                    "Your KEEP is void: you laid down this round (nothing is kept)"]
    assert theirs == ["Ann laid down level 1 (4 pairs): R3 O3 | B5 G5 | Y7 P7 | R9 B9"]
    assert played == ["You played KEEP (I'll keep that!)",
                      "Your KEEP is void: you laid down this round (nothing is kept)"]


def test_a_keep_made_void_is_told_in_german(german):
    mine, theirs, played = _keep_void_told()
    assert mine == ["Du: Stufe 1 ausgelegt (4 Paare): R3 O3 | B5 G5 | Y7 P7 | R9 B9",
                    "Dein KEEP verfällt: du hast in dieser Runde ausgelegt (du behältst nichts)"]
    assert theirs == ["Ann: Stufe 1 ausgelegt (4 Paare): R3 O3 | B5 G5 | Y7 P7 | R9 B9"]
    assert played[1] == ("Dein KEEP verfällt: du hast in dieser Runde ausgelegt (du behältst "
                         "nichts)")


def test_take_that_tells_every_seat_of_the_replacement_in_german(german):
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"])
    state = act(state, "0: play TAKE", "1: show O1 O2 O3", "2: show Y1 Y2")
    text = f"0: choose #{state.shown[1][2]}"
    assert told(state, text, 1)[1] == "Du hast P9 als Ersatz vom Nachziehstapel gezogen"
    assert told(state, text, 2)[1] == "Ben: als Ersatz vom Nachziehstapel gezogen"
