"""The peer layer's and the engine's news in the player's language (issue 28): the waiting
line from a :class:`Waiting`'s fields and kind code, a halted table's cheat from
``GameCore.halt_kind``, the objectives' source, and the engine's lay-down reasons."""

from __future__ import annotations

from types import SimpleNamespace

from lancards.cli import i18n
from lancards.cli.peer_words import (
    DEFAULT_SOURCE,
    halt_words,
    objectives_notice,
    thinking,
    waiting_banner_words,
    waiting_words,
)
from lancards.cli.tui.controller import short_error
from lancards.engine.eights.objectives import default_objectives
from lancards.p2p.net.waiting import DRAW_SHARES, Waiting

MOVE = Waiting(1, "bob", "their move", 12.4, False, kind="action")
PAUSED = Waiting(1, "bob", "their move", 12.4, False, True, "action")
DRAW = Waiting(2, "cyd", "shares for your draw", 3.0, True, kind=DRAW_SHARES)


SILENT = Waiting(1, "bob", "their move", 12.4, True, kind="action")


def test_the_waiting_line_in_english_is_the_peer_layers_text():
    assert waiting_words(SILENT, True, 120) == SILENT.text() == \
        "waiting for bob (their move), 12 s"
    # a peer whose link is down is not only slow (the trial of 2026-12-06: a crash looked
    # like a long think)
    assert waiting_words(MOVE, True, 120) == "waiting for bob, no connection (their move), 12 s"
    assert waiting_words(PAUSED, True, 120) == PAUSED.text()
    assert waiting_words(DRAW, True, 120) == "waiting for cyd (shares for your draw), 3 s"
    assert waiting_words(MOVE, False, 10) == "waiting for bob, 12 s; the table can only wait"
    assert waiting_words(None, True, 120) is None


def test_a_connected_player_thinking_over_their_move_gets_no_banner_for_a_minute():
    """The evening trial of 2026-12-06 read "WAITING: waiting for jo (their move), 21 s" on
    every slow turn of a friend, as loud as a crash. A connected player's own move has no
    banner for 60 s (the title says whose move it is); a lost link, a pause, shares owed, or a
    minute passed have it at once."""
    from dataclasses import replace

    assert thinking(SILENT) and thinking(replace(SILENT, seconds=59.9))
    assert not thinking(replace(SILENT, seconds=60.0))
    assert not thinking(MOVE) and not thinking(PAUSED) and not thinking(DRAW)
    assert not thinking(replace(SILENT, kind="shuffle", what="a shuffle"))


def test_a_silent_seat_that_has_no_link_to_another_is_said_and_not_thinking(german):
    """The LAN trial of 2026-12-06: the host's screen named only the joiner that could not
    reach its bot (``links``, :attr:`Waiting.unreached`)."""
    from dataclasses import replace

    stuck = replace(SILENT, nick="cyd", unreached=("bot1", "dan"))
    assert waiting_words(stuck, True, 120) == \
        "wartet auf cyd (Zug), 12 s: cyd hat keine Verbindung zu bot1, dan"
    assert not thinking(stuck)  # stuck, not thinking: the banner at once


def test_the_waiting_line_in_german(german):
    assert waiting_words(SILENT, True, 120) == "wartet auf bob (Zug), 12 s"
    assert waiting_words(MOVE, True, 120) == "wartet auf bob, keine Verbindung (Zug), 12 s"
    assert waiting_words(PAUSED, True, 120) == "wartet auf bob, pausiert (Zug), 12 s"
    assert waiting_words(DRAW, True, 120) == (
        "wartet auf cyd (Anteile für deine gezogene Karte), 3 s")
    assert waiting_words(MOVE, False, 10) == "wartet auf bob, 12 s; der Tisch kann nur warten"


def test_the_banner_leaves_out_waiting_for_under_its_mark(german):
    """The new-user trial read "WAITING: waiting for jo (their move), 21 s"."""
    from dataclasses import replace

    assert waiting_banner_words(MOVE, True, 120) == "bob, keine Verbindung (Zug), 12 s"
    assert waiting_banner_words(MOVE, False, 10) == "bob, 12 s; der Tisch kann nur warten"
    i18n.set_language("en")
    assert waiting_banner_words(SILENT, True, 120) == "bob (their move), 12 s"
    assert waiting_banner_words(PAUSED, True, 120) == "bob, who paused (their move), 12 s"
    assert waiting_banner_words(replace(SILENT, unreached=("bot1",)), True, 120) == \
        "bob (their move), 12 s: bob has no connection to bot1"
    assert waiting_banner_words(None, True, 120) is None


def _core(kind: str) -> SimpleNamespace:
    return SimpleNamespace(halted="seat 1: illegal '1: discard R7#4' (ruling L8-3)",
                           cheaters={1: "seat 1: illegal '1: discard R7#4' (ruling L8-3)"},
                           halt_kind=kind)


def test_a_cheat_is_said_from_its_kind_and_the_cheaters_name(german):
    names = ["ann", "bob"]
    assert halt_words(_core("illegal"), names) == \
        "bob hat einen Zug signiert, den die Regeln nicht erlauben"
    assert halt_words(_core("equivocation"), names) == \
        "bob hat zwei verschiedene Einträge für dieselbe Stelle signiert"
    i18n.set_language("en")
    assert halt_words(_core("out-of-turn"), names) == \
        "bob signed a move out of turn"
    assert halt_words(_core(""), names) == \
        "seat 1: illegal '1: discard R7#4' (ruling L8-3)"


def test_the_objectives_source(german):
    """The engine's source keeps its ruling (E-6, the records carry it); the table says it in
    words."""
    assert default_objectives().source == DEFAULT_SOURCE == "lancards defaults (ruling E-6)"
    assert objectives_notice(default_objectives()) == "Vorgaben von lancards, nicht vom Verlag"
    i18n.set_language("en")
    assert objectives_notice(default_objectives()) == "lancards defaults, not from the publisher"


def test_the_table_marks_an_objective_that_is_not_the_publishers_in_plain_words(german):
    """The table's mark beside the objective (a new user read "not from the publisher (o: in
    full)" as a riddle): whose objectives they are, and that ``o`` lists them."""
    from types import SimpleNamespace

    from lancards.cli.objectives_words import own_objectives_words

    house = SimpleNamespace(source="our house rules", from_publisher=False)
    assert own_objectives_words(default_objectives()) == "eigene Ziele von lancards · o zeigt sie"
    assert own_objectives_words(house) == "Rundenziele: our house rules · o zeigt sie"
    i18n.set_language("en")
    assert own_objectives_words(default_objectives()) == "lancards' own objectives · o lists them"
    assert own_objectives_words(house) == "objectives: our house rules · o lists them"


def test_the_engines_lay_down_reasons_in_german(german):
    assert short_error("seat 0: illegal '0: lay 3#4 5#6': group 2 is not a run of 4: numbers "
                       "3 5 6 7 are not consecutive (ruling L8-4) (ruling L8-5)") == \
        "Teil 2 (4er-Folge): die Zahlen 3 5 6 7 folgen nicht aufeinander"
    assert short_error("no cards for the triplet yet") == "Drilling: noch keine Karten"
    assert short_error("a run here needs at least 4 cards, got 3") == \
        "hier (Folge) sind mindestens 4 Karten nötig, nicht 3"
    assert short_error("something new (ruling L8-9)") == "something new"


def test_the_rescue_words_are_the_advert_modules():
    from lancards.cli.peer_words import RESCUE_WORDS
    from lancards.p2p.protocol.advert import RESCUE_TRADE_OFF

    assert RESCUE_WORDS == RESCUE_TRADE_OFF
