"""The 8s Rule! table driven by keys: a trick with an 8 and its declaration, round 8's layout."""

from __future__ import annotations

from lancards.cli.local_session import LocalSession
from lancards.engine.eights import EightsState
from tests.cli.tui.harness import driven
from tests.eights.helpers import deal, play_all

NAMES = ("Ann", "Ben", "Cat")


def session_at(state: EightsState) -> LocalSession:
    return LocalSession("eights", names=NAMES, state=state, bot_delay=60)


def test_leading_an_8_with_take_wins_the_trick():
    # Dealer Cat (seat 2): Ann (seat 0) leads. Ben and Cat hold Blue cards above 8.
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    session = session_at(state)
    with driven(session) as d:
        screen = d.text()
        assert "8s Rule! · round 1 of 8 · dealer Cat" in screen
        assert "YOUR TURN: play a card" in screen
        assert "No tricks: +10 per trick" in screen
        assert "lancards' own objectives · o lists them" in screen
        assert "trick 1: You lead" in screen
        blue = next(line for line in screen.splitlines() if line.strip().startswith("Blue"))
        assert "B8" in blue
        # the hand is by suit: R1 .. R15, then B1 B2 B3 B4 B8; jump to the Blue row, onto B8
        d.press("down")
        assert "[B1+]" in d.text()
        screen = d.press("right", "right", "right", "right")
        assert "[B8+]" in screen
        screen = d.press("enter")
        assert "play B8: the 8 of the led suit" in screen and "ruling" not in screen
        assert "1. take (this 8 wins the trick)" in screen
        d.press("1")
        assert session.state.trick[0].card == 22 and session.state.trick[0].take is True
        assert " trick 1, you led Blue: Ann B8 take\n" in d.text()
        session.advance()  # Ben and Cat follow suit with B14 and B15 (they must)
        d.settle(lambda: "took it" in d.text())
        assert session.state.trick_winners == (0,)
        assert " last trick (you took it): B8 B14 B15\n" in d.text()


def test_following_with_the_8_and_no_take_by_key():
    # Dealer Ann: Ben (seat 1) leads G9, Cat follows with G2; Ann holds G8 and G15.
    state = deal(3, {0: "G8 G15 R1", 1: "G9", 2: "G2"}, dealer=0)
    state = play_all(state, ["G9", "G2"])
    session = session_at(state)
    with driven(session) as d:
        screen = d.text()
        assert "YOUR TURN: play a card" in screen
        assert "Ben led Green: Ben G9 · Cat G2" in screen
        green = next(line for line in screen.splitlines() if line.strip().startswith("Green"))
        # only Green follows suit, and the cursor starts on a card that can be played
        assert green.split() == ["Green", "[G8+]", "G15+"]
        assert "[R1 ]" in d.press("down")  # the next suit, Red (wrapping)
        assert "R1 cannot be played: follow suit: Green was led\n" in d.press("enter")
        d.press("up", "n")  # up from Red wraps to Green: G8, played with "no take"
        assert session.state.trick == ()
        assert session.state.trick_winners == (1,)  # Ben's G9 wins (ruling E-4)
        assert [str(e) for e in session.state.history][-1].startswith("Event(seat=0")
        assert "last trick (Ben took it): G9 G2 G8" in d.text()


def test_round_8_shows_the_layout_as_four_suit_rows():
    state = deal(3, {0: "R8 R7 B1", 1: "G8", 2: "Y8"}, round_number=8, dealer=2)
    session = session_at(state)
    with driven(session) as d:
        screen = d.text()
        assert "round 8 of 8" in screen
        assert "round 8, the layout" in screen
        for suit in ("Red", "Blue", "Yellow", "Green"):
            assert f"{suit:<7}- (needs its 8)" in screen
        assert "YOUR TURN: lay a card on the layout or pass" in screen
        # the keys line offers no take / no take in round 8 (the trial of 2026-12-05)
        assert "Enter/x play · m moves · p passes only without a playable card" in screen
        assert "t/n" not in screen
        screen = d.press("m")  # the list of legal moves: only R8 (ruling E-7)
        assert "1. lay R8 on the layout" in screen and "2." not in screen
        screen = d.press("1")
        assert session.state.layout[0] == (8, 8)
        assert "Red    R8" in screen


def test_t_and_n_play_the_8_of_the_led_suit_wherever_the_cursor_is():
    # Dealer Ann: Ben leads R9, Cat follows R2; Ann holds R3 R7 R8, the cursor on R3 (issue 25).
    for key, winner in (("t", 0), ("n", 1)):
        state = deal(3, {0: "R3 R7 R8 B1", 1: "R9", 2: "R2"}, dealer=0, void={0: "R"})
        session = session_at(play_all(state, ["R9", "R2"]))
        with driven(session) as d:
            assert "[R3+]" in d.text()  # the cursor on R3, not on the 8
            d.press(key)
            assert session.state.trick == ()
            assert session.state.trick_winners == (winner,)  # t: the R8 took it; n: Ben's R9
            last = "you" if winner == 0 else "Ben"
            assert f"last trick ({last} took it): R9 R2 R8" in d.text()


def test_t_without_an_8_of_the_led_suit_is_refused_in_one_line():
    state = deal(3, {0: "R3 R7 B8", 1: "R9", 2: "R2"}, dealer=0, void={0: "R"})
    session = session_at(play_all(state, ["R9", "R2"]))
    with driven(session) as d:
        screen = d.press("t")
        assert " no 8 of Red to play: t / n play the 8 of the led suit\n" in screen
        assert len(session.state.trick) == 2  # nothing was played
        screen = d.press("n")
        assert " no 8 of Red to play: t / n play the 8 of the led suit\n" in screen
        assert len(session.state.trick) == 2


def test_leading_with_two_8s_t_plays_the_one_under_the_cursor_or_asks_to_choose():
    def four() -> LocalSession:  # Ann leads, holding R8 B8 and Green only
        state = deal(4, {0: "R8 B8"}, dealer=3, void={0: "RBY"})
        return LocalSession("eights", names=(*NAMES, "Dov"), state=state, bot_delay=60)

    session = four()
    with driven(session) as d:
        d.press("down")  # onto B8
        d.press("t")
        assert session.state.trick[0].card == 22 and session.state.trick[0].take is True
    session = four()
    with driven(session) as d:
        d.press("down", "down")  # onto the Green row: not an 8
        screen = d.press("n")
        assert "you may lead any of your 8s: move onto one and press n to lead it with no take" \
            in screen
        assert session.state.trick == ()


def test_a_player_who_left_is_marked_in_the_players_panel():
    """The persona suite saw a leaver's row read like anyone else's (issue 25)."""
    from lancards.engine.core import Leave

    state = deal(4, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2", 3: "B3 G3"}, dealer=3)
    session = LocalSession("eights", names=(*NAMES, "Dov"), state=state, bot_delay=60)
    with driven(session) as d:
        session._apply(Leave(3))
        d.settle(lambda: "Dov left the table" in d.text())
        row = next(line for line in d.text().splitlines() if line.startswith("   4 Dov"))
        assert row.endswith("left the table"), row
        assert not any(line.rstrip().endswith("left the table")
                       for line in d.text().splitlines() if line.startswith("   2 Ben"))


def test_the_key_list_says_o_shows_the_round_objective_not_a_level_card():
    # A new user read "level card" in 8s Rule!'s key list (issue 25's trial): each game says
    # what its `o` shows.
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    with driven(session_at(state), 100, 40) as d:
        screen = d.press("?")
        line = next(x for x in screen.splitlines() if x.strip().startswith("o "))
        assert line.split(None, 1)[1].rstrip() == "this round's objective in full"
        assert "level card" not in screen


def test_a_hand_cut_by_the_list_of_moves_names_no_scroll_keys_it_does_not_have():
    """The trial of 2026-12-05: with ``m`` open the hand showed ``▼ 3 more below
    (PgUp/PgDn)``, and PgDn scrolled the log. The hand does not scroll: Esc closes the list."""
    from lancards.cli.local_session import LocalSession
    from tests.eights.helpers import deal

    hand = "R1 R2 R3 R4 R5 B1 B2 B3 B4 Y1 Y2 Y3 Y4 G1 G2"
    state = deal(3, {0: hand, 1: "R6 R7 R9 B5 B6 B7 Y5 Y6 Y7 G3 G4 G5 G6 G7 G9",
                     2: "R10 R11 R12 B9 B10 B11 Y9 Y10 Y11 G10 G11 G12 R13 B12 Y12"},
                 dealer=2, round_number=2)
    session = LocalSession("eights", names=("You", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        screen = d.press("m")
        assert "more below (the whole hand: Esc, or a taller window)" in screen, screen
        assert "more below (PgUp/PgDn)" not in screen.split("your hand")[-1], screen
        assert "more below" not in d.press("escape").split("your hand")[-1]


def test_the_trick_lines_say_du_for_the_own_seat_by_any_nickname(german):
    """The trial of 2026-12-06 read "Stich 1: hana (du) spielt aus" and "letzter Stich (hana
    (du) bekam ihn)": the own seat is "du", with the verb agreeing, whatever its nickname."""
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    session = LocalSession("eights", names=("hana", "Ben", "Cat"), state=state, bot_delay=60)
    with driven(session) as d:
        assert " Stich 1: du spielst aus\n" in d.text()
        d.press("down", "right", "right", "right", "right", "enter", "1")
        assert " Stich 1, du hast Blau ausgespielt: hana B8 nehmen\n" in d.text()
        session.advance()
        d.settle(lambda: "bekommen" in d.text())
        assert " letzter Stich (du hast ihn bekommen): B8 B14 B15\n" in d.text()


def test_the_objective_takes_two_rows_at_80_columns_and_o_shows_it_in_full_unmarked():
    """The new-user trial: at 80x24 round 2's objective took three rows of the table, and the
    ``o`` panel, the objective in full, still said "(o: in full)" (now "o lists them"). The
    table cuts it at a word with "…" to two rows; the panel shows it whole, its source said
    once at its end."""
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, round_number=2, dealer=2)
    with driven(session_at(state), 80, 24) as d:
        rows = d.text().splitlines()
        assert rows[1:4] == [
            " objective: No Red cards: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 +5",
            "   each; R15 +15; the round ends when… · lancards' own objectives · o lists them",
            "   # player     hand tricks total"]  # "Ann (you)"
        rows = d.press("o").splitlines()
        assert rows[1:3] == [
            " objective: No Red cards: R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 +5",
            "   each; R15 +15; the round ends when none is left to take"]
        assert "o lists them" not in "\n".join(rows)
        assert " objectives: lancards defaults, not from the publisher" in rows


def test_a_short_objective_is_not_cut(german):
    state = deal(3, {0: "B8 R1 R2", 1: "B14 G1", 2: "B15 G2"}, dealer=2)
    with driven(session_at(state), 80, 24) as d:
        assert d.text().splitlines()[1] == \
            " Ziel: Keine Stiche: +10 je Stich · eigene Ziele von lancards · o zeigt sie"


def test_a_suit_no_longer_held_has_no_row():
    """Mid-round a suit the player no longer holds kept its row label with nothing after it
    (``  Yellow`` alone here); it now has no row, as Level 8's hand has no empty
    colour row. Up/Down already skipped it."""
    state = deal(3, {0: "G8 G15 R1", 1: "G9", 2: "G2"}, dealer=0)
    state = play_all(state, ["G9", "G2"])
    with driven(session_at(state), 80, 24) as d:
        lines = d.text().splitlines()
        start = lines.index(" your hand (20 cards):")
        assert lines[start:start + 6] == [  # no Yellow card: no Yellow row
            " your hand (20 cards):",
            "  Red     R1   R2   R3   R4   R5   R6   R7   R8   R9   R10   R11   R12   R13",
            "   R14   R15",
            "  Blue    B1   B2   B3",
            "  Green  [G8+] G15+",
            "  + = playable now"]
