"""The lay-down builder's lines fit 80 columns (cli/tui/builder_panel.py): a new-user trial at
``--lang de`` read a component's reason wrapped onto a second row. Where the full reason does
not fit, a row says it short, then with the mark alone; the verdict and the title likewise."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from lancards.cli import i18n
from lancards.cli.local_session import LocalSession
from lancards.cli.tui.fit import to_lines
from lancards.cli.tui.level8_keys import Level8Controller
from lancards.cli.tui.width import text_width
from lancards.engine.level8.state import Phase
from tests.level8.scenario import build


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    try:
        yield
    finally:
        i18n.set_language("en")


def panel(edition: str, level: int, hand: Sequence[str], groups: Sequence[int],
          width: int = 80) -> list[str]:
    """The builder's lines at ``width`` after the first ``groups[i]`` cards of ``hand`` (in
    order) went to component ``i``."""
    state = build(edition, [[*hand, "B15"], ["Y1"]], turn=0, levels=(level, 1),
                  phase=Phase.PLAY)
    session = LocalSession(edition, names=("Du", "Ben"), state=state, bot_delay=60)
    snap = session.snapshot()
    controller = Level8Controller(session)
    controller.handle("l", snap)
    builder = controller.builder
    assert builder is not None
    slots = iter(state.hands[0])
    for component, count in enumerate(groups):
        for _card in range(count):
            assert builder.assign(next(slots), component) is None
    panel = controller.panel(snap, 12, width)
    assert panel is not None
    return ["".join(fragment[1] for fragment in line) for line in to_lines(panel)]


@pytest.mark.usefixtures("german")
def test_a_short_colour_group_says_how_many_cards_it_has_in_german() -> None:
    lines = panel("level8-master", 6, ["R1", "R2", "R3", "R4", "R5", "R6"], [6])
    assert lines == [
        " Stufe 6 auslegen: 7 Karten einer Farbe   (kein Vorschlag)",
        "  1 7 Karten einer Farbe   R1 R2 R3 R4 R5 R6  x 6 von 7 Karten",
        "  ungültig: Teil 1 (7 Karten einer Farbe): 6 von 7 Karten"]
    assert [text_width(line) for line in lines] == [58, 62, 57]
    # the full words where they fit (they were 113 and 110 columns wide)
    wide = panel("level8-master", 6, ["R1", "R2", "R3", "R4", "R5", "R6"], [6], width=120)
    assert wide[1] == ("  1 7 Karten einer Farbe   R1 R2 R3 R4 R5 R6  x hier (Karten einer "
                       "Farbe) sind mindestens 7 Karten nötig, nicht 6")
    assert wide[2] == ("  ungültig: Teil 1 (7 Karten einer Farbe): hier (Karten einer Farbe) "
                       "sind mindestens 7 Karten nötig, nicht 6")


@pytest.mark.usefixtures("german")
def test_seven_cards_and_their_jokers_keep_the_mark_alone_in_german() -> None:
    lines = panel("level8-master", 6, ["O11", "R12", "O13", "O14", "J11-15", "J11-15",
                                       "J11-15"], [7])
    assert lines[1:] == [  # two colours: no joker value can help, none is shown
        "  1 7 Karten einer Farbe   O11 R12 O13 O14 J11-15 J11-15 J11-15  x",
        "  ungültig: Teil 1 (7 Karten einer Farbe): O11 und R12: zwei Farben"]
    assert [text_width(line) for line in lines[1:]] == [66, 67]


@pytest.mark.usefixtures("german")
def test_a_run_and_a_set_say_their_numbers_short_in_german() -> None:
    lines = panel("level8-master", 5, ["R7", "O8", "Y7", "R3", "Y5", "G6", "B7", "P8", "O9"],
                  [3, 6])
    assert lines[1:] == [
        "  1 Drilling               R7 O8 Y7  x R7 und O8 haben nicht dieselbe Zahl",
        "  2 6er-Folge              R3 Y5 G6 B7 P8 O9  x Zahlen folgen nicht aufeinander",
        "  ungültig: Teil 1 (Drilling): R7 und O8 haben nicht dieselbe Zahl"]
    assert max(text_width(line) for line in lines) <= 80


@pytest.mark.usefixtures("german")
def test_the_title_drops_its_key_words_where_they_do_not_fit_in_german() -> None:
    hand = ["R3", "R4", "R5", "R6", "O7", "O8", "O9", "O10"]  # four offers
    lines = panel("level8", 3, hand, [0])
    assert lines[0] == " Stufe 3 auslegen: 3er-Folge + 4 Karten einer Farbe   (4 Vorschläge)"
    assert text_width(lines[0]) == 68
    assert panel("level8", 3, hand, [0], width=120)[0] == \
        " Stufe 3 auslegen: 3er-Folge + 4 Karten einer Farbe   (4 Vorschläge; Tab blättert)"


@pytest.mark.parametrize(("language", "title"), [
    ("en", " lay down level 3: run of 3 + 4 of one colour   (no lay-down offered)"),
    ("de", " Stufe 3 auslegen: 3er-Folge + 4 Karten einer Farbe   (kein Vorschlag)"),
])
def test_a_hand_with_no_offer_says_so_and_does_not_name_tab(language: str, title: str) -> None:
    """A new-user trial read ``(0 Vorschläge; Tab blättert)``: nothing for Tab to cycle."""
    i18n.set_language(language)
    try:
        lines = panel("level8", 3, ["R3", "O9"], [1])
    finally:
        i18n.set_language("en")
    assert lines[0] == title
    assert not [line for line in lines if "Tab" in line]


def test_english_rows_fit_too() -> None:
    lines = panel("level8-master", 6, ["R1", "R2", "R3", "R4", "R5", "R6"], [6])
    assert lines[1:] == [
        "  1 7 of one colour        R1 R2 R3 R4 R5 R6  x 6 of 7 cards",
        "  not valid: component 1 is not a 7 of one colour: 6 of 7 cards"]


def test_the_first_offer_shows_shorter_where_the_panel_is_narrow() -> None:
    hand = ["O1", "P1", "Y10", "G10", "R7", "J6-10", "R13", "J11-15"]
    assert panel("level8-master", 1, hand, [])[-1] == \
        "  Tab loads lay-down 1 of 2: O1 P1 | Y10 G10 | R7 J6-10=7 | R13 J11-15=13"
    assert panel("level8-master", 1, hand, [], width=60)[-1] == \
        "  Tab 1/2: O1 P1 | Y10 G10 | R7 J6-10=7 | R13 J11-15=13"
    assert panel("level8-master", 1, hand, [], width=50)[-1] == \
        "  Tab 1/2: O1 P1 | Y10 G10 | R7 J=7 | R13 J=13"
    assert panel("level8-master", 1, hand, [], width=30)[-1] == \
        "  Tab 1/2: O1 P1 | Y10 G10 | …"
    assert panel("level8-master", 1, hand, [2])[-1] == \
        "  Tab loads lay-down 1 of 2: O1 P1 | Y10 G10 | R7 J6-10=7 | R13 J11-15=13"


def _misfit_panel(width: int = 80) -> list[str]:
    return panel("level8-master", 5, ["J1-5", "O15", "R3", "Y4", "G5", "B6", "P7", "O8"],
                 [2, 6], width)


def test_a_joker_that_cannot_stand_for_its_sets_number_is_named_before_the_count() -> None:
    """The new-user trial of 2026-12-07: ``J1-5`` and ``O15`` in a triplet read ``J1-5=1 O15``
    and only "needs at least 3 cards", as if a third card would do. The joker shows no value
    (no value of its range can work)."""
    lines = _misfit_panel(120)
    assert lines[1:] == [
        "  1 triplet                J1-5 O15  x joker J1-5 cannot stand for 15 (its range "
        "is 1-5)",
        "  2 run of 6               R3 Y4 G5 B6 P7 O8  ok",
        "  not valid: component 1 is not a triplet: joker J1-5 cannot stand for 15 (its range "
        "is 1-5)"]
    assert _misfit_panel()[1] == "  1 triplet                J1-5 O15  x J1-5 cannot be 15"


def test_a_component_its_cards_cannot_form_is_named_before_an_empty_one() -> None:
    """The second reading of 2026-12-08: a joker that could not stand for its set's number in
    component 1, component 2 still empty: ``not valid:`` (and Enter) said "no cards for the run
    of 6 yet", so a player fixing what it said kept the bad joker."""
    lines = panel("level8-master", 5, ["J1-5", "O15", "R3", "Y4", "G5", "B6", "P7", "O8"],
                  [2, 0], 120)
    assert lines[1:] == [
        "  1 triplet                J1-5 O15  x joker J1-5 cannot stand for 15 (its range "
        "is 1-5)",
        "  2 run of 6               -  x no cards yet",
        "  not valid: component 1 is not a triplet: joker J1-5 cannot stand for 15 (its range "
        "is 1-5)"]


@pytest.mark.usefixtures("german")
def test_a_joker_that_cannot_stand_for_its_sets_number_in_german() -> None:
    lines = _misfit_panel(120)
    assert lines[1] == ("  1 Drilling               J1-5 O15  x Joker J1-5 kann nicht für 15 "
                        "stehen (sein Bereich ist 1-5)")
    assert lines[3] == ("  ungültig: Teil 1 (Drilling): Joker J1-5 kann nicht für 15 stehen "
                        "(sein Bereich ist 1-5)")
    assert _misfit_panel()[1:] == [
        "  1 Drilling               J1-5 O15  x J1-5 kann nicht 15 sein",
        "  2 6er-Folge              R3 Y4 G5 B6 P7 O8  ok",
        "  ungültig: Teil 1 (Drilling): J1-5 kann nicht 15 sein"]


def test_a_joker_no_value_can_fit_shows_none_and_the_row_names_the_players_cards() -> None:
    """The new-user trial of 2026-12-08: O6, G12 and a joker in a run of 3 read ``J=1 O6 G12
    x numbers 1 6 12 are not consecutive``, and R5, P7 and a joker in a pair ``R5 P7 J1-5=1
    x numbers 1 5 7 are not all the same``: a value the player never chose, counted."""
    run = panel("level8", 3, ["O6", "G12", "J", "R1", "R2", "R3", "R4"], [3, 4])
    assert run[1:] == [
        "  1 run of 3               J O6 G12  x 6 and 12 are too far apart for one joker",
        "  2 4 of one colour        R1 R2 R3 R4  ok",
        "  not valid: component 1 is not a run of 3: 6 and 12 too far apart"]
    two = panel("level8", 3, ["O6", "G12", "J", "J", "R1"], [4])
    assert two[1] == \
        "  1 run of 3               J J O6 G12  x 6 and 12 are too far apart for 2 jokers"
    twins = panel("level8-master", 5, ["O6", "R6", "J1-5"], [0, 3])
    assert twins[2] == "  2 run of 6               J1-5 O6 R6  x O6 and R6 have the same number"
    pair = panel("level8-master", 1, ["R5", "P7", "J1-5"], [3])
    assert pair[1] == "  1 pair                   R5 P7 J1-5  x R5 and P7 are not the same number"
    assert panel("level8-master", 1, ["R5", "P7", "J1-5"], [3], width=40)[1] == \
        "  1 pair                   R5 P7 J1-5  x"
    assert panel("level8-master", 1, ["R5", "P7", "J1-5"], [3], width=60)[1] == \
        "  1 pair                   R5 P7 J1-5  x R5 and P7 differ"


def test_a_joker_some_value_fits_shows_that_value() -> None:
    run = panel("level8", 3, ["O6", "G8", "J", "R1"], [3])
    assert run[1] == "  1 run of 3               O6 J=7 G8  ok"
    short = panel("level8", 3, ["O6", "J", "R1"], [2])
    assert short[1] == \
        "  1 run of 3               J=5 O6  x a run here needs at least 3 cards, got 2"


@pytest.mark.usefixtures("german")
def test_a_joker_no_value_can_fit_in_german() -> None:
    run = panel("level8", 3, ["O6", "G12", "J", "R1", "R2", "R3", "R4"], [3, 4])
    assert run[1] == "  1 3er-Folge              J O6 G12  x 6 und 12 zu weit auseinander"
    assert panel("level8", 3, ["O6", "G12", "J", "R1", "R2", "R3", "R4"], [3, 4], 120)[1] == \
        "  1 3er-Folge              J O6 G12  x 6 und 12 liegen für einen Joker zu weit auseinander"
    assert run[3] == "  ungültig: Teil 1 (3er-Folge): 6 und 12 zu weit auseinander"
    assert max(text_width(line) for line in run) <= 80
    twins = panel("level8-master", 5, ["O6", "R6", "J1-5"], [0, 3])
    assert twins[2] == "  2 6er-Folge              J1-5 O6 R6  x O6 und R6 haben dieselbe Zahl"
    pair = panel("level8-master", 1, ["R5", "P7", "J1-5"], [3])
    assert pair[1] == "  1 Paar                   R5 P7 J1-5  x R5 und P7 haben nicht dieselbe Zahl"


@pytest.mark.parametrize(("language", "row", "short", "verdict"), [
    ("en", "  2 run of 6               J11-15 O1 G2  x joker J11-15 stands only for 11 to 15, so "
     "it cannot join O1 G2 in a run",
     "  2 run of 6               J11-15 O1 G2  x J11-15 is 11 to 15 only",
     "  not valid: component 2 is not a run of 6: J11-15 is 11 to 15 only"),
    ("de", "  2 6er-Folge              J11-15 O1 G2  x Joker J11-15 steht nur für 11 bis 15 und "
     "passt so nicht zu O1 G2 in einer Folge",
     "  2 6er-Folge              J11-15 O1 G2  x J11-15 nur 11 bis 15",
     "  ungültig: Teil 2 (6er-Folge): J11-15 nur 11 bis 15"),
])
def test_a_joker_whose_range_fits_no_place_in_a_run_is_named(language: str, row: str,
                                                             short: str, verdict: str) -> None:
    """``O1 G2 J11-15`` as a run read ``J11-15=11 ... needs at least 6 cards, got 3``: the
    joker stands only for 11 to 15, and this run needs a 3 from it."""
    i18n.set_language(language)
    try:
        wide = panel("level8-master", 5, ["R4", "Y4", "P4", "O1", "G2", "J11-15"], [3, 3], 130)
        lines = panel("level8-master", 5, ["R4", "Y4", "P4", "O1", "G2", "J11-15"], [3, 3])
    finally:
        i18n.set_language("en")
    assert wide[2] == row
    assert lines[2:] == [short, verdict]


def test_a_joker_fits_a_run_once_the_gap_is_its_own() -> None:
    """``O8 O9 J11-15`` is told (a 10 is missing); with the 10 the joker is 11."""
    assert panel("level8-master", 5, ["O8", "O9", "J11-15", "B10"], [0, 3], 120)[2] == (
        "  2 run of 6               J11-15 O8 O9  x joker J11-15 stands only for 11 to 15, so "
        "it cannot join O8 O9 in a run")
    assert panel("level8-master", 5, ["O8", "O9", "J11-15", "B10"], [0, 4], 120)[2] == (
        "  2 run of 6               O8 O9 B10 J11-15=11  x a run here needs at least 6 cards, "
        "got 4")
    # two jokers: each could fill a place, not both at once (5 and 7 need a 6 from one)
    assert panel("level8-master", 5, ["R5", "G7", "J1-5", "J1-5"], [0, 4], 120)[2] == (
        "  2 run of 6               J1-5 J1-5 R5 G7  x jokers J1-5 J1-5 cannot join R5 G7 in "
        "a run")
    assert panel("level8-master", 5, ["R5", "G7", "J1-5", "J1-5"], [0, 4])[2] == \
        "  2 run of 6               J1-5 J1-5 R5 G7  x the jokers do not fit"


@pytest.mark.parametrize(("language", "group", "pair"), [
    ("en", "  2 4 of one colour        R1 R2 B5 J  x R1 and B5 are not the same colour",
     "  1 pair                   R5 P7  x R5 and P7 are not the same number"),
    ("de", "  2 4 Karten einer Farbe   R1 R2 B5 J  x R1 und B5 haben nicht dieselbe Farbe",
     "  1 Paar                   R5 P7  x R5 und P7 haben nicht dieselbe Zahl"),
])
def test_two_colours_and_two_numbers_are_named_before_the_count(language: str, group: str,
                                                                pair: str) -> None:
    """Level 8 (wild jokers): a colour group of R1 R2 B5 and a joker read ``cards of one
    colour here needs at least 4 cards``; a pair of R5 P7 ``numbers 5 7 are not all the
    same``, with no joker at all."""
    i18n.set_language(language)
    try:
        lines = panel("level8", 3, ["R9", "R1", "R2", "B5", "J"], [1, 4])
        pairs = panel("level8", 2, ["R5", "P7"], [2])
    finally:
        i18n.set_language("en")
    assert lines[2] == group
    assert pairs[1] == pair


def test_a_colour_run_names_its_two_colours_and_its_jokers_range() -> None:
    from lancards.cli.tui.builder import stuck
    from lancards.engine.level8.cards import parse_card
    from lancards.engine.level8.levels import ComponentKind
    from lancards.engine.level8.melds import Placed, natural

    def group(*faces: str) -> list[Placed]:
        cards = [parse_card(f) for f in faces]
        return [natural(i, c) if c.is_number else Placed(i, c) for i, c in enumerate(cards)]

    assert stuck(ComponentKind.COLOUR_RUN, group("R1", "B2", "J1-5")) == \
        "R1 and B2 are not the same colour"
    assert stuck(ComponentKind.COLOUR_RUN, group("R1", "R2", "J11-15")) == \
        "joker J11-15 stands only for 11 to 15, so it cannot join R1 R2 in a run"
    assert stuck(ComponentKind.COLOUR_RUN, group("R1", "R2", "J1-5")) is None
    assert stuck(ComponentKind.COLOUR_RUN, group("R1", "R2", "J")) is None  # Level 8: wild
