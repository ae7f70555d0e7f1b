"""Position notation: exact texts, states read from text, and errors that name what is wrong."""

from __future__ import annotations

import pytest

from lancards.engine.core import ALL_SEATS, IllegalActionError, InvalidActionError, seat_bit
from lancards.engine.eights import EIGHTS
from lancards.engine.level8 import LEVEL8
from lancards.engine.level8.actions import LayDown
from lancards.engine.level8.builder import act, build
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from lancards.engine.position import PositionError, read_position, write_position

MASTER = """\
lancards-position 1
game level8-master
seats 2
dealer 0
round 1
turn 1 play
levels 1 2
pile: ?*86
hand 0: G1 G2 G3 G4 G5 G6 G7 G8 G9 G10
hand 1: R9 O9 Y9 J1-5 J1-5 J1-5 J6-10 P13 P15 B13 G15
discard 0: R1
discard 1:
"""


def test_the_issue_master_position_offers_the_run_3_to_6():
    game, state = read_position(MASTER)
    assert game is LEVEL8 and state.levels == (1, 2) and state.phase is Phase.PLAY
    laydowns = [a for a in game.legal_actions(state, 1) if isinstance(a, LayDown)]
    assert [game.describe_action(state, a) for a in laydowns] == [
        "1: laydown R9 O9 Y9 | J1-5=3 J1-5=4 J1-5=5 J6-10=6"]
    after = game.apply(state, game.read_action(state, "1: laydown R9 O9 Y9 | J1-5=3 J1-5=4 "
                                                      "J1-5=5 J6-10=6"))
    assert after.down == (False, True)
    assert write_position(game, state) == MASTER


def test_the_issue_level8_en_position_offers_a_laydown():
    text = MASTER.replace("level8-master", "level8-en").replace("?*86", "?*77").replace(
        "hand 1: R9 O9 Y9 J1-5 J1-5 J1-5 J6-10 P13 P15 B13 G15",
        "hand 1: J J J J J J SKIP SKIP SKIP R5 B9")
    game, state = read_position(text)
    laydowns = [game.describe_action(state, a) for a in game.legal_actions(state, 1)
                if isinstance(a, LayDown)]
    assert laydowns == ["1: laydown R5 J=5 | B9 J=9 | J=1 J=1 | J=1 J=1"]


def test_a_whole_level8_position_with_melds_knowledge_and_a_special_card_in_progress():
    hands = [["TAKE", "R1", "R2"], ["O1", "O2", "O3", "O4"], ["Y1", "Y2"]]
    state = build("level8-master", hands, turn=0, pile_top=["P9"], levels=(3, 1, 2),
                  down=(True, False, False), melds=[(0, K.RUN, ["B4", "J1-5=5", "J6-10=6",
                                                                  "B7"])],
                  in_front=[[], ["KEEP"], []], discards=[["G1"], [], ["G2", "G3"]])
    state = act(state, "0: play TAKE", "1: show O1 O2 O4")
    text = write_position(LEVEL8, state)
    assert text.splitlines()[:7] == [
        "lancards-position 1", "game level8-master", "seats 3", "dealer 0", "round 1",
        "turn 0 show", "levels 3 1 2"]
    lines = text.splitlines()
    assert "down 0" in lines
    assert "under: TAKE" in lines
    assert "hand 1: O1+ O2+ O3 O4+" in lines  # shown cards are known to everyone
    assert "meld 0: 0 run B4 J1-5=5 J6-10=6 B7" in lines
    assert "front 1: KEEP" in lines
    assert "shown 1: 0 1 3" in lines and "show-queue: 2" in lines
    assert lines[lines.index("discard 2: G2 G3")] == "discard 2: G2 G3"
    assert lines[-1] == "actions 2"
    game, back = read_position(text)
    assert write_position(game, back) == text
    assert back.phase is Phase.SHOW and back.show_queue == (2,)
    spectator = write_position(LEVEL8, LEVEL8.view(state, None))
    assert "hand 1: O1+ O2+ ? O4+" in spectator.splitlines()
    assert "hand 0: ?*2" in spectator.splitlines()
    _, public = read_position(spectator)
    assert all(public.known[s] == ALL_SEATS for s in public.cards)
    seat2 = LEVEL8.view(back, 2)
    assert [LEVEL8.describe_action(seat2, a) for a in LEVEL8.legal_actions(seat2, 2)] == [
        "2: show Y1 Y2"]


def test_knowledge_suffixes_round_trip():
    state = build("level8", [["R1", "R2"], ["B1"]], turn=0)
    known = dict(state.known)
    known[state.hands[0][0]] = ALL_SEATS
    known[state.hands[0][1]] = seat_bit(0) | seat_bit(1)
    known[state.pile[0]] = seat_bit(1)
    state = state.evolve(known=known)
    text = write_position(LEVEL8, state)
    assert "hand 0: R1+ R2@0.1" in text.splitlines()
    assert "pile: R3@1 R4 R5 " in text  # the full state knows the pile in order
    assert write_position(LEVEL8, read_position(text)[1]) == text
    view = write_position(LEVEL8, LEVEL8.view(state, 0))
    assert "pile: ?@1 ?*" in view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("hand 0: G1 G2", "hand 0: G1 G1"), r"line 9 .*2 copies of G1; level8-master has 1"),
        (("pile: ?*86", "pile: ?*85"), r"107 cards placed; level8-master has 108"),
        (("pile: ?*86", "pile: ?*87"), r"109 cards placed; level8-master has 108"),
        (("hand 0: G1", "hand 0: Q1"), r"line 9 .*'Q1' is not a card of level8-master"),
        (("turn 1 play", "turn 1 dance"), r"line 6 .*'dance' is not a phase"),
        (("turn 1 play", "turn 7 play"), r"line 6 .*7 is outside 0..1"),
        (("seats 2", "seats 2\nseats 3"), r"'seats' is given twice"),
        (("round 1", "rounds 1"), r"unknown key 'rounds'"),
        (("game level8-master", "game chess"), r"unknown game 'chess'"),
        (("game level8-master", "game level8-master\noption level8_win=sometimes"),
         r"option 'level8_win': invalid value 'sometimes'"),
        (("levels 1 2", "levels 1 2 3"), r"expected 2 levels"),
        (("lancards-position 1", "fen 1"), r"starts with the line 'lancards-position 1'"),
        (("discard 1:", "discard 1:\nmeld 0: 1 set R2 R3"),
         r"numbers 2 3 are not all the same"),
        (("discard 1:", "discard 1:\nmeld 0: 1 set ? R3"), r"only known cards"),
    ],
)
def test_a_bad_position_is_a_position_error_naming_what_is_wrong(change, message):
    old, new = change
    text = MASTER.replace(old, new, 1)
    if "meld" in new:
        text = text.replace("?*86", "?*84")
    with pytest.raises(PositionError, match=message):
        read_position(text)


def test_read_action_names_cards_and_refuses_cards_not_held():
    _, state = read_position(MASTER)
    assert str(LEVEL8.read_action(state, "1: discard P13")).startswith("1: discard P13#")
    with pytest.raises(IllegalActionError, match="no R2 among the cards"):
        LEVEL8.read_action(state, "1: discard R2")
    with pytest.raises(InvalidActionError, match="does not know seat 1's cards"):
        LEVEL8.read_action(LEVEL8.view(state, 0), "1: discard P13")


EIGHTS_TEXT = """\
lancards-position 1
game eights
seats 3
round 2
dealer 2
phase tricks
turn 1
hand 0: R1 R2 R3 B1 B2 B3 Y1 Y2 Y3 G1 G2 G3 G4 G5 G6 G7 G8 G9
hand 1: R4 R5 R6 R7 B4 B5 B6 B7 B8 Y4 Y5 Y6 Y7 G10 G11 G12 G13 G14 G15
hand 2: R9 R10 R11 R12 R13 R14 R15 B9 B10 B11 B12 B13 B14 B15 Y9 Y10 Y11 Y12 Y13
trick 1: 0 Y8 take 1 Y14 2 Y15
trick-now: 0 R8 no-take
result 1: dealer 1 tricks 20 points 30 80 90
totals: 30 80 90
"""


def test_an_eights_position_round_trips_and_plays():
    game, state = read_position(EIGHTS_TEXT)
    assert game is EIGHTS
    assert state.trick_winners == (0,) and state.turn == 1 and state.totals() == (30, 80, 90)
    assert [game.describe_action(state, a) for a in game.legal_actions(state, 1)] == [
        "1: play R4", "1: play R5", "1: play R6", "1: play R7"]
    assert write_position(game, state) == EIGHTS_TEXT
    after = game.apply(state, game.read_action(state, "1: play R7"))
    assert [str(p.seat) + str(p.card) for p in after.trick] == ["07", "16"]
    spectator = write_position(game, game.view(after, None)).splitlines()
    assert "hand 1: ?*18" in spectator and "trick-now: 0 R8 no-take 1 R7" in spectator
    with pytest.raises(IllegalActionError, match="seat 1 holds no R9"):
        game.read_action(state, "1: play R9")


def test_eights_card_totals_and_totals_are_checked():
    twice = EIGHTS_TEXT.replace("hand 2: R9", "hand 2: R1 R9")
    with pytest.raises(PositionError, match=r"line 10 .*R1 is given twice"):
        read_position(twice)
    short = EIGHTS_TEXT.replace(" Y13\n", "\n")
    with pytest.raises(PositionError, match=r"59 cards placed; 8s Rule! has 60"):
        read_position(short)
    wrong = EIGHTS_TEXT.replace("totals: 30 80 90", "totals: 30 80 91")
    with pytest.raises(PositionError, match=r"line 14 .*the results add up to 30 80 90"):
        read_position(wrong)


def test_eights_round_8_and_the_end_as_positions():
    """Round 8 (layout turns, passes) and the finished game round-trip; the totals line is the
    sum of the eight results (ruling E-9)."""
    from lancards.cli.driver import play_local
    from lancards.engine.eights.state import Phase as EPhase
    from lancards.engine.rulesets import rule_set

    seen: dict[str, str] = {}

    def grab(state, action):
        if state.phase is EPhase.LAYOUT and state.history and "layout" not in seen:
            seen["layout"] = write_position(EIGHTS, state)

    played = play_local(EIGHTS, rule_set("eights").make_rules(), 4, seed=8, on_step=grab)
    layout = seen["layout"].splitlines()
    assert "round 8" in layout and "phase layout" in layout
    turns = next(line for line in layout if line.startswith("turns: "))
    assert turns.split()[2] in ("R8", "B8", "Y8", "G8", "pass")
    assert write_position(EIGHTS, read_position(seen["layout"])[1]) == seen["layout"]
    final = write_position(EIGHTS, played.final)
    lines = final.splitlines()
    assert "phase over" in lines and sum(line.startswith("result ") for line in lines) == 8
    totals = tuple(int(v) for v in lines[-1].split()[1:])
    assert lines[-1].startswith("totals: ") and totals == played.final.totals()
    game, back = read_position(final)
    assert game.outcome(back) == EIGHTS.outcome(played.final)


def test_a_finished_level8_game_as_a_position_names_the_winner():
    hands = [["P15"], ["B1", "B2"]]
    state = build("level8-master", hands, levels=(7, 8), down=(True, True), turn=0,
                  melds=[(0, K.SET, ["R3", "O3", "Y3", "G3"]), (0, K.SET, ["R9", "O9", "Y9", "G9"]),
                         (1, K.SET, ["R4", "O4", "Y4"]), (1, K.SET, ["R10", "O10", "Y10", "G10",
                                                                     "B10"])],
                  options={"level8_win": "on_going_out"})
    final = act(state, "0: discard P15")
    text = write_position(LEVEL8, final)
    assert "option level8_win=on_going_out" in text.splitlines()
    assert "levels WIN 8" in text.splitlines() and "winners: 0" in text.splitlines()
    assert "turn 0 over" in text.splitlines() and "went-out 0" in text.splitlines()
    game, back = read_position(text)
    assert game.outcome(back).winners == (0,) and game.to_act(back) is None


def test_options_and_rule_files_round_trip_as_json_strings():
    """Options that differ from their defaults are written, files as JSON strings (L8-14, E-6)."""
    from lancards.engine.eights import DEFAULT_OBJECTIVES_TOML, make_rules

    back = ('levels = [["set 3"], ["set 3"], ["set 3"], ["set 3"], ["set 3"], ["set 3"], '
            '["set 3"], ["colour-run 4", "pair"]]')
    state = build("level8", [["R1"], ["R2"]], options={
        "sides": "front,back", "level_cards": back, "reshuffle": "lazy",
        "specials_drawable": "false"})
    text = write_position(LEVEL8, state)
    assert text.splitlines()[2:5] == [
        "option reshuffle=lazy", "option specials_drawable=false", "option sides=front,back"]
    assert text.splitlines()[5].startswith('option level_cards="name = ')
    assert read_position(text)[1].rules == state.rules
    objectives = DEFAULT_OBJECTIVES_TOML.replace("points = 10            #", "points = 7 #")
    rules = make_rules({"partners": True, "first_dealer": 2, "objectives": objectives})
    eights = EIGHTS.new_game(rules, 4)
    text = write_position(EIGHTS, eights)
    assert "option partners=true" in text.splitlines()
    assert "option first_dealer=2" in text.splitlines()
    assert rules.objectives.rounds[0].per_trick == 7
    assert '\\npoints = 7\\n' in next(x for x in text.splitlines() if x.startswith("option obj"))
    assert read_position(text)[1].rules == rules
    assert write_position(EIGHTS, read_position(text)[1]) == text
