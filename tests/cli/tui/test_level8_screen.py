"""The Level 8 table driven by keys, as a person would: exact cards on screen, exact states.

Positions come from ``tests.level8.scenario.build``; the bots wait 60 s before a move, so the
state after a key is exactly the player's action (``session.advance()`` lets them act).
"""

from __future__ import annotations

from typing import Any

import pytest

from lancards.cli.local_session import LocalSession
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Level8State, Phase
from tests.cli.tui.harness import Driver, driven
from tests.level8.scenario import build, hand_text

NAMES = ("Ann", "Ben", "Cat")


def session_at(state: Level8State, edition: str = "level8-master") -> LocalSession:
    return LocalSession(edition, names=NAMES[: state.n], state=state, bot_delay=60)


def line_with(text: str, screen: str) -> str:
    return next(line for line in screen.splitlines() if text in line)


def message_line(screen: str) -> str:
    """The message line: the line just above the key hints (which may wrap)."""
    lines = screen.splitlines()
    hints = next(i for i, line in enumerate(lines) if "? keys" in line or line.startswith(
        (" 1-9 assign", " d draw", " l lay down", " a choice's", " your turn is skipped")))
    return lines[hints - 1]


def cards_of(state: Level8State, slots: tuple[int, ...]) -> list[str]:
    return [str(state.cards[s]) for s in slots]


def test_draw_from_the_draw_pile_shows_the_new_card_and_then_discard():
    state = build("level8-master", [["R3", "O7", "B12"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.DRAW, pile_top=["G9"])
    session = session_at(state)
    with driven(session) as d:
        screen = d.text()
        assert "YOUR TURN: draw a card" in screen
        assert line_with("your hand", screen).strip().startswith("your hand (3 cards")
        assert "R3 O7 B12" in screen
        screen = d.press("d")
        assert hand_text(session.state, 0) == ["B12", "G9", "O7", "R3"]
        assert "R3 O7 G9 B12" in screen  # sorted by number
        assert len(session.state.pile) == 102  # 108 cards - 5 in hands - the one drawn
        assert "draw pile: 102 cards" in screen
        screen = d.press("x")  # the cursor went with the drawn card: G9
        assert hand_text(session.state, 0) == ["B12", "O7", "R3"]
        assert cards_of(session.state, session.state.discards[0]) == ["G9"]
        assert session.state.turn == 1 and session.state.phase is Phase.DRAW
        assert "1 Ann" in line_with("G9(1)", screen)


def test_draw_from_another_players_discard_pile_by_its_number():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  discards=[[], ["B5", "O11"], []])
    session = session_at(state)
    with driven(session) as d:
        assert "O11(2)" in line_with("2 Ben", d.text())
        d.press("2")
        assert hand_text(session.state, 0) == ["O11", "R3"]
        assert cards_of(session.state, session.state.discards[1]) == ["B5"]
        assert session.state.phase is Phase.PLAY


def test_sort_toggles_between_number_and_colour():
    state = build("level8-master", [["B2", "R9", "R2", "J1-5", "TAKE"], ["Y1"], ["Y2"]],
                  turn=0, phase=Phase.DRAW)
    with driven(session_at(state)) as d:
        assert "R2 B2 R9 J1-5 TAKE" in d.text()
        screen = d.press("s")
        assert "R2 R9 B2 J1-5 TAKE" in screen
        assert "by colour" in screen


def test_the_joker_value_list_is_typed_by_the_value_and_opens_on_the_value_declared():
    # the new-user trial of 2026-12-08 read "1. J6-10=6" to "5. J6-10=10", typed 6 for a 6 and
    # nothing happened; a wild joker's list opened on J=1 while the joker stood for 5
    hand = ["R9", "O9", "G9", "B7", "B8", "O10", "J6-10"]
    state = build("level8-master", [hand, ["Y1"], ["Y2"]], levels=(2, 1, 1), turn=0,
                  phase=Phase.PLAY)
    session = session_at(state)
    with driven(session) as d:
        # by number: B7 B8 R9 O9 G9 O10 J6-10
        d.press("l", "home", "right", "right", "space", "right", "space", "right", "space", "1")
        d.press("home", "space", "right", "space", "end", "space", "left", "space", "2")
        assert "B7 B8 J6-10=9 O10  ok" in d.text()
        screen = d.press("end", "v")
        assert "value of J6-10" in screen
        listed = screen.split("value of J6-10")[1]
        shown = [line_with(f"J6-10={n}", listed) for n in (6, 9, 10)]
        assert shown == ["    6. J6-10=6", " >  9. J6-10=9", "   10. J6-10=10"]
        screen = d.press("6")  # the value itself, at once
        assert "J6-10=6 B7 B8 O10  x" in screen
        d.press("v", "9")
        assert "B7 B8 J6-10=9 O10  ok" in d.text()


def test_lay_down_with_a_joker_choosing_its_value_in_the_builder():
    hand = ["R9", "O9", "B2", "B3", "B4", "J1-5", "G12"]
    state = build("level8-master", [hand, ["Y1"], ["Y2"]], levels=(2, 1, 1), turn=0,
                  phase=Phase.PLAY)
    session = session_at(state)
    with driven(session) as d:
        # by number: B2 B3 B4 R9 O9 G12 J1-5
        screen = d.press("l")
        assert "lay down level 2: triplet + run of 4" in screen
        assert "not valid: no cards for the triplet yet" in screen
        d.press("right", "right", "right", "space", "right", "space", "1")
        screen = d.text()
        assert "not valid: no cards for the run of 4 yet" in screen
        d.press("left", "left", "left", "left", "space", "right", "space", "right", "space")
        d.press("right", "right", "right", "right", "space", "2")
        screen = d.text()
        # the joker got the first value that makes the run valid: 1 (before B2)
        assert "J1-5=1 B2 B3 B4" in screen or "B2 B3 B4 J1-5=1" in screen
        assert "not valid: component 1 is not a triplet" in screen
        # choose the joker's value from the list: 5, at the top of the run
        screen = d.press("v")
        assert "value of J1-5" in screen and "5. J1-5=5" in screen
        d.press("5")
        assert "B2 B3 B4 J1-5=5" in d.text()
        # an invalid value shows why at once
        screen = d.press("J")  # previous value: 4, a second 4 in the run
        assert "numbers 2 3 4 4 are not consecutive" in screen
        d.press("j")
        assert "B2 B3 B4 J1-5=5  ok" in d.text()
        # G12 does not make the triplet of 9s (the row names both cards); taken out again, the
        # triplet lacks a card
        assert "R9 and G12 are not the same number" in d.press("left", "1")
        assert "R9 O9  x a set here needs at least 3 cards, got 2" in d.press("0")
        screen = d.press("enter")
        assert "component 1 is not a triplet" in message_line(screen)
        d.press("escape")
    assert session.history == []  # nothing invalid was sent
    assert session.state.down == (False, False, False)


def test_lay_down_a_level_with_a_joker_then_add_a_card_to_a_meld():
    hand = ["R9", "O9", "J6-10", "B2", "B3", "B4", "J1-5", "B5", "G12", "R1"]
    state = build("level8-master", [hand, ["Y1"], ["Y2"]], levels=(2, 1, 1), turn=0,
                  phase=Phase.PLAY)
    session = session_at(state)
    with driven(session) as d:
        # by number: R1 B2 B3 B4 B5 R9 O9 G12 J1-5 J6-10
        d.press("l")
        d.press("right", "space", "right", "space", "right", "space", "2")  # B2 B3 B4 -> run
        d.press(*["right"] * 5, "2")  # J1-5 -> run
        d.press("left", "left", "left", "space", "right", "space", "right", "right", "right",
                "space", "1")  # R9 O9 J6-10 -> triplet
        screen = d.text()
        assert "R9 O9 J6-10=9  ok" in screen
        assert "J1-5=1 B2 B3 B4  ok" in screen  # a run is listed in order
        assert "valid: Enter lays it down" in screen
        screen = d.press("enter")
        after = session.state
        assert after.down == (True, False, False)
        assert [(str(p.card), p.number) for p in after.melds[0].cards] == [
            ("R9", 9), ("O9", 9), ("J6-10", 9)]
        assert [(str(p.card), p.number) for p in after.melds[1].cards] == [
            ("J1-5", 1), ("B2", 2), ("B3", 3), ("B4", 4)]
        assert hand_text(after, 0) == ["B5", "G12", "R1"]
        assert "1 Ann: set of 9s: R9 O9 J6-10=9" in screen  # combinations count from 1
        assert "2 Ann: run 1-4: J1-5=1 B2 B3 B4" in screen
        assert "R1 B5 G12" in screen
        # G12 fits no meld; B5 extends the run at its top end (ruling L8-7).
        screen = d.press("right", "right", "a")
        assert "G12 fits no combination on the table" in screen
        screen = d.press("left", "a")
        assert "add B5 to which combination" in screen and "> 2. Ann: run 1-4" in screen
        screen = d.press("enter")
        assert [str(p.card) for p in session.state.melds[1].cards] == [
            "J1-5", "B2", "B3", "B4", "B5"]
        assert "2 Ann: run 1-5: J1-5=1 B2 B3 B4 B5" in screen
        d.press("right", "x")  # G12
        assert cards_of(session.state, session.state.discards[0]) == ["G12"]
        assert hand_text(session.state, 0) == ["R1"] and session.state.turn == 1


def test_add_a_joker_to_a_run_choosing_the_end():
    state = build("level8", [["J", "R1"], ["Y1"], ["Y2"]], turn=0, phase=Phase.PLAY,
                  down=(True, False, False), melds=[(1, K.RUN, ["R4", "O5", "R6"])])
    session = session_at(state, "level8")
    with driven(session) as d:
        # by number: R1 J
        screen = d.press("right", "a")
        assert "add J to which combination" in screen and "1. Ben: run 4-6: R4 O5 R6" in screen
        screen = d.press("enter")
        assert "the joker's value" in screen and "J=3" in screen and "J=7" in screen
        d.press("down", "enter")
        assert [p.number for p in session.state.melds[0].cards] == [4, 5, 6, 7]
        assert hand_text(session.state, 0) == ["R1"]
        assert "1 Ben: run 4-7: R4 O5 R6 J=7" in d.text()


def test_take_that_choosing_a_shown_card():
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"])
    session = session_at(state)
    with driven(session) as d:
        # by number: R1 R2 TAKE
        d.press("right", "right", "p")
        # Ben and Cat show at once: a step out of turn never waits, even at a 60 s bot delay
        d.settle(lambda: session.state.phase is Phase.CHOOSE, limit=2.0)
        screen = d.press("enter", until=lambda: "take which shown card" in d.text())
        assert session.state.phase is Phase.CHOOSE
        assert "Ben: O" in screen and "Cat: Y1 Y2" in screen
        # the picker opens on the first shown card, "take none" comes last
        assert "> 1. Ben's O" in screen and "take none" in screen.split("Cat's Y2")[1]
        labels = [line for line in screen.splitlines() if "Cat's Y2" in line]
        assert labels, screen
        number = labels[0].split(".")[0].strip().lstrip(">").strip()
        d.press(number)
        assert hand_text(session.state, 0) == ["R1", "R2", "Y2"]
        assert hand_text(session.state, 2) == ["P9", "Y1"]  # the replacement (L8M-1)
        assert cards_of(session.state, session.state.under) == ["TAKE"]


def test_showing_three_cards_when_asked():
    state = build("level8-master", [["R1", "R2", "R3", "R4"], ["TAKE", "O1"], ["Y1"]],
                  turn=1, dealer=0)
    state = state.evolve(phase=Phase.SHOW, show_queue=(0, 2), shown=((), (), ()))
    session = session_at(state)
    with driven(session) as d:
        # nothing shown yet: no heading over nothing (the final trial of 2026-12-07)
        assert "shown for I'll take that!" not in d.text()
        screen = d.press("enter")
        assert "mark exactly 3 of your cards" in screen
        d.press("space", "right", "space", "right", "right", "space", "enter")
        shown = session.history[0]
        assert shown.seat == 0 and [str(p.card) for p in shown.cards] == ["R1", "R2", "R4"]
        # then Cat shows and Ben chooses at once (no step out of turn or within one waits)
        assert [type(a).__name__ for a in session.history[1:3]] == ["Show", "Choose"]


def test_swap_that_puts_two_cards_and_draws_two():
    state = build("level8-master", [["SWAP", "R1", "R2", "R3", "R4"], ["O1"], ["Y1"]],
                  turn=0, pile_top=["P9", "P10", "P11"])
    session = session_at(state)
    with driven(session) as d:
        # by number: R1 R2 R3 R4 SWAP
        d.press("right", "right", "right", "right", "p")
        assert session.state.phase is Phase.SWAP
        d.press("left", "left", "left", "left", "x")  # R1
        d.press("x")  # the cursor stays at the first card: R2
        assert cards_of(session.state, session.state.discards[0]) == ["R1", "R2"]
        screen = d.press("e")
        assert hand_text(session.state, 0) == ["P10", "P9", "R3", "R4"]
        assert session.state.turn == 1
        assert "R3 R4 P9 P10" in screen


def test_keep_that_lies_in_front_of_the_player():
    state = build("level8-master", [["KEEP", "R1"], ["O1"], ["Y1"]], turn=0)
    session = session_at(state)
    with driven(session) as d:
        screen = d.press("right", "p")
        assert cards_of(session.state, session.state.in_front[0]) == ["KEEP"]
        assert "KEEP" in line_with("1 Ann", screen)


def test_skip_a_chosen_player():
    state = build("level8", [["SKIP", "R1"], ["O1"], ["Y1"]], turn=0)
    session = session_at(state, "level8")
    with driven(session) as d:
        screen = d.press("right", "p")
        assert "put the Skip card in front of" in screen
        # the picker numbers the players as the table does (Ben 2, Cat 3)
        assert "2. skip Ben" in screen and "3. skip Cat" in screen
        d.press("3")
        assert cards_of(session.state, session.state.in_front[2]) == ["SKIP"]
        assert session.state.turn == 1


def test_keeping_cards_at_round_end():
    state = build("level8-master", [["R1", "R2", "R5", "B7", "G9"], ["O1"], ["Y1"]],
                  levels=(5, 3, 3), turn=1)
    state = state.evolve(phase=Phase.KEEP, keep_queue=(0,), kept=((), (), ()))
    session = session_at(state)
    with driven(session) as d:
        assert "you keep: nothing yet (up to 4 cards)" in d.text()  # level 5 (ruling L8-13)
        screen = d.press("right", "right", "k")  # R5
        assert "you keep: R5 (up to 4 cards)" in screen
        d.press("right", "k")  # B7
        kept = session.state.kept[0]
        assert cards_of(session.state, kept) == ["R5", "B7"]
        d.press("e")
        assert session.state.round == 2
        assert set(kept) <= set(session.state.hands[0])  # kept into the next round (L8-13)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_table_fits_small_terminals(size: tuple[int, int]):
    state = build("level8-master", [["R3", "O7", "B12"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.DRAW, discards=[["G1"], ["G2"], ["G3"]])
    with driven(session_at(state), *size) as d:
        screen = d.text()
        lines = screen.splitlines()
        assert "YOUR TURN: draw a card" in lines[0]
        assert any("R3 O7 B12" in line for line in lines)
        assert "d draw pile" in lines[-1]
        screen = d.press("?")
        assert "keys (Up/Down scroll, any other key closes)" in screen
        if size == (100, 30):  # `o`, the line after `?`, is below: scroll down to it
            screen = d.press("down")
            assert " o                every player's level, and your level card in full" in screen
        assert "keys (Up/Down" not in d.press("space")


def _quit(d: Driver) -> None:
    d.press("q")
    assert "Leave the table?" in d.text()
    d.press("y")


def test_quit_asks_first_and_returns_status_1():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    with driven(session_at(state)) as d:
        d.press("q")
        assert "Leave the table?" in d.text()
        d.press("n")
        assert "Leave the table?" not in d.text()
        _quit(d)
        d.settle(lambda: d.done)
        assert d.done
    assert d.task is not None and d.task.result() == 1


def test_chat_line_goes_to_the_log():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = session_at(state)
    with driven(session) as d:
        d.press("c")
        screen = d.press("h", "i", "!", "enter")
        assert session.snapshot().log[-1].text == "Ann: hi!"
        assert "Ann: hi!" in screen


def test_a_refused_key_names_the_reason_and_sends_nothing():
    state = build("level8-master", [["R3", "B4"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = session_at(state)
    with driven(session) as d:
        screen = d.press("x")
        assert "you cannot discard now" in screen
        assert session.history == []
        screen = d.press("5")
        assert "there is no player 5: the players are 1 to 3" in screen
        assert session.history == []


def test_going_out_shows_the_round_result_panel():
    state = build("level8-master", [["R3"], ["Y1"], ["Y2"]], turn=0, down=(True, False, False),
                  levels=(1, 2, 1))
    session = session_at(state)
    with driven(session) as d:
        screen = d.press("x", until=lambda: "round 1 over" in d.text())
        assert "Ann: level 1 -> level 3 (went out)" in screen
        assert "Ben: level 2 -> level 2 (stays)" in screen
        assert session.state.levels == (3, 2, 1) and session.state.round == 2
        screen = d.press("enter")
        assert "round 1 over" not in screen
        # Round 1's last message ("You discarded R3") is not carried into round 2.
        assert "discarded R3" not in message_line(screen)


def test_quick_path_lays_down_level_8_and_wins():
    hand = ["R1", "O1", "Y1", "R2", "O2", "Y2", "G2", "B2", "P15"]
    state = build("level8-master", [hand, ["Y4"], ["Y5"]], turn=0, levels=(8, 3, 1))
    session = session_at(state)
    with driven(session) as d:
        d.press("l")
        screen = d.press("tab")
        assert "offered lay-down 1 of 1" in screen
        assert "R1 O1 Y1  ok" in screen and "R2 O2 Y2 G2 B2  ok" in screen
        screen = d.press("enter", until=lambda: "round 1 over" in d.text())
        assert "RESULT: game over: Ann won" in screen.splitlines()[0]
        assert "Ann: level 8 -> WIN (wins)" in screen
        screen = d.press("enter", until=lambda: "result: Ann wins" in d.text())
        assert "result: Ann wins after 1 round" in screen and "1 rounds" not in screen
        assert "Ann: WIN" in screen and "Ben: level 3" in screen
        assert session.state.winners == (0,)
        d.press("q")
        d.settle(lambda: d.done)
    assert d.task is not None and d.task.result() == 0


def test_adding_the_last_card_is_refused_with_the_keep_a_card_reason():
    # P9 matches Ann's set of 9s, but it is her last card: an add must leave one for the
    # discard (ruling L8-8), so the refusal says that, not "P9 fits no combination"
    state = build("level8-master", [["P9"], ["Y1"], ["Y2"]], down=(True, False, False),
                  melds=[(0, K.SET, ["O9", "B9"])], turn=0, phase=Phase.PLAY)
    session = session_at(state)
    with driven(session, 80, 24) as d:
        screen = d.press("a")
        assert message_line(screen) == " a card must stay in your hand for the discard"
        assert "fits no combination" not in screen
        assert [str(p.card) for p in session.state.melds[0].cards] == ["O9", "B9"]
        screen = d.press("x")  # the discard goes out
    assert " Ann: level 1 -> level 3 (went out)" in screen.splitlines()


def _take_phase_screen(names: tuple[str, str, str], round_no: int, dealer: int) -> tuple[
        Any, str]:
    """Ann plays TAKE at 80x24 (round ``round_no``, ``dealer`` deals): the state and the
    screen of the take phase."""
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9", "P10"]).evolve(
        round=round_no, dealer=dealer)
    session = LocalSession("level8-master", names=names, state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        d.press("right", "right", "p")
        d.settle(lambda: session.state.phase is Phase.CHOOSE, limit=2.0)
        return state, d.press("enter", until=lambda: "take which shown card" in d.text())


def test_the_title_line_fits_80_columns_leaving_out_the_dealer_then_the_round():
    # A new user saw "YOUR TURN: take one shown card, or none" wrap onto a second line at 80
    # columns (issue 25's trial): the dealer's name, then the round, give way to the turn.
    state, screen = _take_phase_screen(("Ann", "Bartholomew", "Cat"), 10, 1)
    assert screen.splitlines()[0].split() == ["Level", "8", "Master", "·", "round", "10",
                                              "YOUR", "TURN:", "take", "a", "shown", "card",
                                              "or", "none"]
    assert "dealer" not in screen.splitlines()[1]  # nothing wrapped onto the next line
    with driven(session_at(state), 100, 24) as d:  # room enough: everything is said
        assert "Level 8 Master · round 10 · dealer Ben" in d.text().splitlines()[0]


def test_the_take_phase_keeps_a_four_letter_dealer_at_80_columns() -> None:
    """The new-user trial of 2026-12-07 read ``Level 8 Master · round 3   YOUR TURN: take one
    shown card, or none``: the dealer gone only in that phase (82 columns with ``· dealer
    Cleo``); ``take a shown card or none`` leaves room for it."""
    _state, screen = _take_phase_screen(("Ann", "Bram", "Cleo"), 3, 2)
    assert screen.splitlines()[0].split() == [
        "Level", "8", "Master", "·", "round", "3", "·", "dealer", "Cleo", "YOUR", "TURN:",
        "take", "a", "shown", "card", "or", "none"]


def test_the_cursor_on_a_marked_card_shows_both() -> None:
    """The trial of 2026-12-05: ``^`` under the card at the cursor hid its ``*`` mark."""
    from lancards.cli.tui.level8_view import hand_lines
    from lancards.engine.level8.cards import card

    cards = [(10, card("R3")), (11, card("O7")), (12, card("J"))]
    text = "".join(t for _, t in hand_lines(cards, 0, {10, 12}, 80))
    assert text.splitlines() == [" R3 O7 J ", " ^*    * "]  # under the card's first column
    text = "".join(t for _, t in hand_lines(cards, 2, {10, 12}, 80))
    assert text.splitlines()[1] == " *     ^*"


def test_the_component_number_stands_under_the_card_at_the_cursor() -> None:
    """The trial of 2026-12-07: in the lay-down builder the cursor's card read ``^1`` with its
    component number a column right of the card; then ``^`` stood in the column before the
    card, where the LAN trial read it as pointing a column left, and ``^2`` beside the number
    before it. In the builder ``^`` has a line of its own, under the card's first character,
    touching no number."""
    from lancards.cli.tui.level8_view import hand_lines
    from lancards.engine.level8.cards import card

    cards = [(10, card("O1")), (11, card("P1")), (12, card("J")), (13, card("R7"))]
    labels = {10: "1", 11: "1", 12: "*2", 13: "3"}
    text = "".join(t for _, t in hand_lines(cards, 0, set(), 80, labels, cursor_row=True))
    assert text.splitlines() == [" O1 P1 J R7 ", " 1  1  *23  ", " ^          "]
    text = "".join(t for _, t in hand_lines(cards, 1, set(), 80, labels, cursor_row=True))
    assert text.splitlines()[1:] == [" 1  1  *23  ", "    ^       "]
    text = "".join(t for _, t in hand_lines(cards, 3, set(), 80, labels, cursor_row=True))
    assert text.splitlines()[1:] == [" 1  1  *23  ", "         ^  "]


def test_l_after_laying_down_says_so_and_what_to_do_instead():
    """The trial of 2026-12-05: ``l`` once down said "you lay down after drawing, once per
    round", as if the person had not drawn yet."""
    state = build("level8-master", [["R3", "O7", "B9"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.PLAY, down=[True, False, False])
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    with driven(session, 80, 24) as d:
        screen = d.press("l")
    assert "you have laid down this round: a adds cards to the combinations" in screen, screen
    state = build("level8-master", [["R3", "O7", "B9"], ["Y1"], ["Y2"]], turn=0,
                  phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    with driven(session, 80, 24) as d:
        assert "you lay down after drawing, once per round" in d.press("l")


def test_the_front_column_stands_under_its_header() -> None:
    """The trial of 2026-12-06: a KEEP in front of a player stood one column right of the
    header "front" (each card follows a space; the header did not). Exact rows at 80 columns.
    The header says what lies there (the new-user trial of 2026-12-07 read "front" beside
    "played by" with nothing but the ``?`` list to say what it was): Level 8 Master's KEEP
    cards, ``kept``."""
    from tests.cli.tui.test_golden_screens import played_until

    session = played_until("level8-master", 5, lambda s: s.round >= 1 and s.turn == 0 and
                           s.phase is Phase.DRAW and sum(map(len, s.in_front)) >= 2)
    with driven(session, 80, 24) as d:
        rows = d.text().splitlines()[1:6]
    assert rows == [
        "   # player      lvl requirement down hand discard   kept played by",
        " > 1 Tess (you)    1 4 pairs     no     10 O15(1)",
        "   2 Ada           1 4 pairs     no     11 -         KEEP bot, greedy",
        "   3 Bram          1 4 pairs     yes     1 TAKE(2)        bot, greedy",
        "   4 Cleo          1 4 pairs     no     10 P12(2)    KEEP bot, greedy",
    ]
    assert rows[0].index("kept") == rows[2].index("KEEP") == rows[4].index("KEEP")


def test_an_offer_changed_by_hand_is_said_to_be_changed() -> None:
    """The trial of 2026-12-06: after Tab loaded "offered lay-down 1 of 12", the words stayed
    while the person moved cards by hand; they say it is changed, and go when ``u`` clears."""
    from tests.cli.tui.test_golden_screens import level8_can_lay_down, played_until

    session = played_until("level8-master", 5, level8_can_lay_down)
    with driven(session, 100, 30) as d:
        d.press("l")
        assert message_line(d.press("tab")) == " offered lay-down 1 of 12"
        assert message_line(d.press("0")) == " offered lay-down 1 of 12, changed by you"
        assert message_line(d.press("tab")) == " offered lay-down 2 of 12"
        assert "offered" not in message_line(d.press("u"))


def test_the_keys_panel_heads_the_builder_keys_below_the_table_keys(german) -> None:
    """The trial of 2026-12-06: the builder's ``1-9 assign ...`` and ``Enter lay down`` came
    right after the colour letters with no heading, as if they contradicted the table's ``1-6
    draw ...`` and ``Enter show ...``: they come last, under a heading of their own."""
    from lancards.cli import i18n
    from lancards.cli.tui.level8_keys import Level8Controller
    from lancards.cli.tui.words import keys_panel

    def lines() -> list[str]:
        controller = Level8Controller(session=None)  # type: ignore[arg-type]
        panel = keys_panel(controller.help(), controller.goal_help)
        return ["".join(text for _style, text in line).rstrip() for line in panel]

    german_lines = lines()
    at = german_lines.index(" in der Auslege-Hilfe (l):")
    assert german_lines[at - 1].startswith(" Enter / Esc ")  # the last key of every table
    assert german_lines[at + 1].startswith(" 1-9 ") and german_lines[-1].startswith(" Esc ")
    i18n.set_language("en")
    english = lines()
    at = english.index(" in the lay-down builder (l):")
    assert english[at - 2:] == [
        " q                leave the table: pause, or leave for good (asks first while the game "
        "runs)",
        " Enter / Esc      close a result panel (Up/Down scroll a long one)",
        " in the lay-down builder (l):",
        " 1-9              assign the marked cards (or the card under the cursor) to that "
        "component",
        " 0 / Backspace    take the card(s) out of their component",
        " j / J            next / previous declared value of the joker under the cursor",
        " v                choose the joker's value from a list",
        " Tab / Shift-Tab  load the next / previous lay-down the engine offers",
        " u                clear the builder",
        " Enter            lay down",
        " Esc              close the builder"]
    assert any(line.startswith(" (colours)") for line in english[:at])


@pytest.mark.parametrize(("edition", "says", "not_said"), [
    ("level8-master", [" p                play the special card under the cursor (TAKE, SWAP,",
                       " Enter            show the 3 marked cards / choose a shown card"],
     ["SKIP", "serve a Skip"]),
    ("level8", [" p                put the SKIP card under the cursor in front of a player",
                " Enter            serve a Skip"],
     ["TAKE", "SWAP", "x (swap)", "swapping"]),
])
def test_the_keys_panel_names_the_rule_set_s_own_special_cards(edition, says, not_said) -> None:
    """The new-user trial of 2026-12-07 read TAKE, SWAP and KEEP, ``x (swap)`` and ``serve a
    Skip`` in the ``?`` list of a Level 8 table, which has Skip cards only; Level 8 Master has
    TAKE, SWAP and KEEP and no Skip."""
    state = build(edition, [["R3", "O7", "B12"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    with driven(session_at(state, edition), 100, 60) as d:
        rows = d.press("?").splitlines()
    for line in says:
        assert any(row.startswith(line) for row in rows), (line, rows)
    for word in not_said:
        assert not any(word in row for row in rows), (word, rows)


def test_the_front_column_is_headed_by_what_lies_there(german: None) -> None:
    """The new-user trial of 2026-12-07 read "front" beside "played by": Level 8 Master's
    column holds KEEP cards (``kept``), Level 8's a SKIP card (``skip``); German ``vorne`` ("in
    front"), which says it already and keeps the column's width at 80 columns."""
    from lancards.cli import i18n
    from lancards.cli.tui.level8_keys import game_help
    from lancards.cli.tui.level8_view import front_header

    assert (front_header("level8-master"), front_header("level8")) == ("vorne", "vorne")
    i18n.set_language("en")
    assert [front_header(r) for r in ("level8-master", "level8", "level8-en")] == [
        "kept", "skip", "skip"]
    table = {key: words for key, words in game_help(True)}["(table)"]
    assert table.endswith("(R7(3)); kept: the KEEP cards in front of them")
    table = {key: words for key, words in game_help(False)}["(table)"]
    assert table.endswith("(R7(3)); skip: a SKIP card in front of them, they sit out their "
                          "next turn")
