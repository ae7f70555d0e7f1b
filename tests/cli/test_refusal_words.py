"""Every reason the rules refuse a signed move for, said in words on the halt line, in English
and German (the LAN trial of 2026-12-08: the halt line named the move in notation and only two
reasons in words; the others were English only, and left out in German).

Each reason is met for real: the engine refuses a move in a built state (or the peer layer's
check of a move's openings refuses its claim), and the refusal's ``code`` and ``params`` say it
(``cli/refusal_words.py``); no English sentence is parsed. The engine's refusal sites are read
from its source: one without a code, or a code without words or without a case here, fails.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lancards.cli.peer_words import cheat_notice_words
from lancards.cli.refusal_words import OWN_PHASE_WORDS, REFUSAL_WORDS
from lancards.engine.core import EngineError, Leave
from lancards.engine.eights import EIGHTS, Pass, Play
from lancards.engine.eights import Phase as EightsPhase
from lancards.engine.eights.cards import parse_card
from lancards.engine.level8.levels import ComponentKind
from lancards.engine.level8.state import Phase
from lancards.p2p.crypto.errors import ProofError
from lancards.p2p.crypto.slots import OPENING
from lancards.p2p.protocol.openings import OpeningError, accept_openings, check_openings
from tests.eights.helpers import deal
from tests.eights.helpers import play as eights_play
from tests.eights.helpers import slot_of as eights_slot
from tests.level8.scenario import G, build, slot_of

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Ben", "Cyd")
HANDS = [["R3", "O7", "B9"], ["Y1", "Y2", "Y3"], ["G2", "G3", "R5", "B7", "TAKE", "SWAP", "B8"]]
"""Level 8 Master: Cyd (seat 2) holds the cards most cases play."""


def refused(state: Any, text: str) -> EngineError:
    try:
        G.apply(state, G.parse_action(text))
    except EngineError as exc:
        return exc
    raise AssertionError(f"{text!r} was taken")


def master(phase: Phase = Phase.PLAY, turn: int = 2, **kw: Any) -> Any:
    return build("level8-master", kw.pop("hands", HANDS), turn=turn, phase=phase, **kw)


def at(state: Any, face: str, seat: int = 2) -> str:
    return f"{face}#{slot_of(state, face, seat)}"


def classic(**kw: Any) -> Any:
    return build("level8", [["R3"], ["Y1"], ["G2", "G3", "SKIP", "B8"]], turn=2, **kw)


def taking() -> Any:
    """Cyd played "I'll take that!": Ann and Ben are to show."""
    s = master()
    return G.apply(s, G.parse_action(f"2: play {at(s, 'TAKE')}"))


def keeping(**kw: Any) -> Any:
    return master(**kw).evolve(phase=Phase.KEEP, keep_queue=(2,), kept=((), (), ()))


def l8_draw_first() -> EngineError:
    s = master(Phase.DRAW)
    return refused(s, f"2: discard {at(s, 'R5')}")


def l8_drawn_already() -> EngineError:
    return refused(master(), "2: draw")


def l8_others_move() -> EngineError:
    return refused(master(Phase.DRAW, turn=0), "2: draw")


def l8_chance_first() -> EngineError:
    return refused(master(Phase.SHUFFLE), "2: draw")


def l8_own_show() -> EngineError:
    return refused(taking(), "0: draw")


def l8_not_in_hand() -> EngineError:
    s = master()
    return refused(s, f"2: discard {at(s, 'R3', 0)}")


def l8_wrong_card() -> EngineError:
    s = master()
    return refused(s, f"2: discard B9#{slot_of(s, 'R5', 2)}")


def l8_no_such_card() -> EngineError:
    """Seen by Ann, who does not know Cyd's cards: a card Level 8 Master has none of."""
    return refused(G.view(master(), 0), f"2: discard SKIP#{slot_of(master(), 'R5', 2)}")


def l8_elsewhere() -> EngineError:
    """Seen by Ann: Cyd claims Ann's R3."""
    return refused(G.view(master(), 0), f"2: discard R3#{slot_of(master(), 'B8', 2)}")


def l8_no_slot() -> EngineError:
    return refused(master(), "2: discard R5#9999")


def l8_notation() -> EngineError:
    return refused(master(), "2: frobnicate")


def l8_not_special() -> EngineError:
    s = master()
    return refused(s, f"2: play {at(s, 'G2')}")


def l8_empty_pile() -> EngineError:
    return refused(master(Phase.DRAW), "2: draw-discard 1")


def l8_no_seat() -> EngineError:
    return refused(master(Phase.DRAW), "2: draw-discard 7")


def l8_not_drawable() -> EngineError:
    s = build("level8-master", [["R3"], ["Y1"], ["G2"]], turn=2, phase=Phase.DRAW,
              discards=[[], ["TAKE"], []], options={"specials_drawable": "false"})
    return refused(s, "2: draw-discard 1")


def l8_level_parts() -> EngineError:
    s = master(levels=[1, 1, 6])
    return refused(s, f"2: laydown {at(s, 'G2')} | {at(s, 'G3')}")


def l8_not_component() -> EngineError:
    s = master(levels=[1, 1, 6])
    return refused(s, f"2: laydown {at(s, 'R5')} {at(s, 'B7')}")


def l8_card_twice() -> EngineError:
    s = master(levels=[1, 1, 6])
    return refused(s, f"2: laydown {at(s, 'G2')} {at(s, 'G2')}")


def l8_down_already() -> EngineError:
    s = master(levels=[1, 1, 6], down=[False, False, True])
    return refused(s, f"2: laydown {at(s, 'G2')}")


def l8_keep_one() -> EngineError:
    s = master(levels=[1, 1, 6], hands=[["R3"], ["Y1"], [f"G{i}" for i in range(1, 8)]])
    return refused(s, "2: laydown " + " ".join(at(s, f"G{i}") for i in range(1, 8)))


def l8_not_down() -> EngineError:
    s = master(melds=[(0, ComponentKind.SET, ["Y4", "B4", "P4"])])
    return refused(s, f"2: add 0 {at(s, 'G2')}")


def l8_no_meld() -> EngineError:
    s = master(down=[False, False, True])
    return refused(s, f"2: add 7 {at(s, 'G2')}")


def l8_does_not_fit() -> EngineError:
    s = master(down=[False, False, True], melds=[(0, ComponentKind.SET, ["Y4", "B4", "P4"])])
    return refused(s, f"2: add 0 {at(s, 'G2')}")


def l8_declared() -> EngineError:
    s = master(hands=[["R3"], ["Y1"], ["G2", "J1-5"]])
    return refused(s, f"2: discard J1-5#{slot_of(s, 'J1-5', 2)}=5")


def l8_end_with_cards() -> EngineError:
    return refused(master(), "2: end-turn")


def l8_game_over() -> EngineError:
    return refused(master(Phase.OVER), "2: draw")


def l8_left_already() -> EngineError:
    with pytest.raises(EngineError) as caught:
        G.apply(master().evolve(left=(2,)), Leave(2))
    return caught.value


def l8_skip_self() -> EngineError:
    s = classic()
    return refused(s, f"2: play {at(s, 'SKIP')} 2")


def l8_skip_target() -> EngineError:
    s = classic()
    return refused(s, f"2: play {at(s, 'SKIP')}")


def l8_has_left() -> EngineError:
    s = classic().evolve(left=(1,))
    return refused(s, f"2: play {at(s, 'SKIP')} 1")


def l8_has_skip() -> EngineError:
    s = classic(in_front=[[], ["SKIP"], []])
    return refused(s, f"2: play {at(s, 'SKIP')} 1")


def l8_show_count() -> EngineError:
    s = taking()
    return refused(s, f"0: show {at(s, 'R3', 0)}")


def l8_not_shown() -> EngineError:
    s = taking()
    s = G.apply(s, G.parse_action(f"0: show {at(s, 'R3', 0)} {at(s, 'O7', 0)} {at(s, 'B9', 0)}"))
    s = G.apply(s, G.parse_action(f"1: show {at(s, 'Y1', 1)} {at(s, 'Y2', 1)} {at(s, 'Y3', 1)}"))
    return refused(s, f"2: choose #{slot_of(s, 'G2', 2)}")


def l8_swap_limit() -> EngineError:
    s = master(hands=[["R3"], ["Y1"], ["G2", "G3", "G4", "G5", "G6", "SWAP"]])
    s = G.apply(s, G.parse_action(f"2: play {at(s, 'SWAP')}"))
    for face in ("G2", "G3", "G4"):
        s = G.apply(s, G.parse_action(f"2: swap-put {at(s, face)}"))
    return refused(s, f"2: swap-put {at(s, 'G5')}")


def l8_keep_not_in_hand() -> EngineError:
    s = keeping()
    return refused(s, f"2: keep #{slot_of(s, 'R3', 0)}")


def l8_kept_already() -> EngineError:
    s = keeping()
    slot = slot_of(s, "G2", 2)
    return refused(s.evolve(kept=((), (), (slot,))), f"2: keep #{slot}")


def l8_keep_limit() -> EngineError:
    s = keeping(in_front=[[], [], ["KEEP"]])
    kept = tuple(slot_of(s, face, 2) for face in ("G2", "G3", "R5"))
    return refused(s.evolve(kept=((), (), kept)), f"2: keep #{slot_of(s, 'B7', 2)}")


EIGHTS_HANDS = {0: "R1 R2 B3 Y8", 1: "R3 R8 B8 Y4", 2: "G5 G6"}
"""8s Rule!, 3 seats, Cyd (seat 2) deals: Ann (seat 0) is to play first."""


def eights(round_number: int = 1) -> Any:
    return deal(3, EIGHTS_HANDS, dealer=2, round_number=round_number)


def play(state: Any, seat: int, face: str, take: bool | None = None) -> EngineError:
    action = Play(seat, eights_slot(state, face), parse_card(face), take)
    with pytest.raises(EngineError) as caught:
        EIGHTS.apply(state, action)
    return caught.value


def e_others_move() -> EngineError:
    return play(eights(), 2, "G5")


def e_no_pass() -> EngineError:
    with pytest.raises(EngineError) as caught:
        EIGHTS.apply(eights(), Pass(0))
    return caught.value


def e_not_in_hand() -> EngineError:
    return play(eights(), 0, "R3")


def e_wrong_card() -> EngineError:
    s = eights()
    with pytest.raises(EngineError) as caught:
        EIGHTS.apply(s, Play(0, eights_slot(s, "R1"), parse_card("R3")))
    return caught.value


def e_elsewhere() -> EngineError:
    s = eights()
    with pytest.raises(EngineError) as caught:
        EIGHTS.apply(EIGHTS.view(s, 1), Play(0, eights_slot(s, "R1"), parse_card("R3")))
    return caught.value


def e_no_slot() -> EngineError:
    with pytest.raises(EngineError) as caught:
        EIGHTS.apply(eights(), Play(0, 99999, parse_card("R1")))
    return caught.value


def e_take_not_eight() -> EngineError:
    return play(eights(), 0, "R1", True)


def e_declare_take() -> EngineError:
    return play(eights_play(eights(), "R1"), 1, "R8")


def e_nobody_plays() -> EngineError:
    return play(replace(eights(), phase=EightsPhase.OVER), 0, "R1")


def e_take_in_layout() -> EngineError:
    return play(eights(8), 0, "Y8", True)


def e_off_layout() -> EngineError:
    return play(eights(8), 0, "R1")


def e_notation() -> EngineError:
    with pytest.raises(EngineError) as caught:
        EIGHTS.parse_action("2: frobnicate")
    return caught.value


class _Deck:
    """A deck whose slot 17 is public as card 0 (or unopened)."""

    def __init__(self, card: int | None) -> None:
        self._card = card

    def is_public(self, slot: int) -> bool:
        return self._card is not None

    def card(self, slot: int) -> int | None:
        return self._card


class _Game:
    def identity(self, state: Any, slot: int) -> Any:
        return parse_card("R3")


def opening(card: int | None) -> OpeningError:
    """Ann's "play R3" on slot 17, whose opening shows B7 (or is missing)."""
    with pytest.raises(OpeningError) as caught:
        check_openings(_Deck(card), _Game(), None, [parse_card("B7")], 0,
                       Play(0, 17, parse_card("R3")), [17])
    return caught.value


class _BadProofDeck:
    def accept(self, seat: int, message: Any) -> None:
        raise ProofError(OPENING, "decryption share proof by seat 0 in epoch 1 rejected",
                         seat=seat, epoch=1)


def p_opening_proof() -> OpeningError:
    """Ann's "play R3" whose opening carries a decryption share proof that does not hold."""
    with pytest.raises(OpeningError) as caught:
        accept_openings(_BadProofDeck(), 0, Play(0, 17, parse_card("R3")), [{"slot": 17}])
    assert isinstance(caught.value.__cause__, ProofError)
    return caught.value


def p_claim_differs() -> OpeningError:
    return opening(0)


def p_no_opening() -> OpeningError:
    return opening(None)


SIGNED = "signed a move the rules do not allow"
SIGNIERT = "hat einen Zug signiert, den die Regeln nicht erlauben"

CASES = {
    l8_draw_first: ("Cyd", "discard R5 (Cyd must draw first)",
                    "R5 ablegen (Cyd muss zuerst ziehen)"),
    l8_drawn_already: ("Cyd", "draw from the draw pile (Cyd has drawn already)",
                       "vom Nachziehstapel ziehen (Cyd hat schon gezogen)"),
    l8_others_move: ("Cyd", "draw from the draw pile (it is Ann's move)",
                     "vom Nachziehstapel ziehen (Ann ist am Zug)"),
    l8_chance_first: ("Cyd", "draw from the draw pile (a shuffle or a card turned up comes "
                      "first)",
                      "vom Nachziehstapel ziehen (zuerst wird gemischt oder eine Karte "
                      "aufgedeckt)"),
    l8_own_show: ("Ann", "draw from the draw pile (Ann is to show cards now)",
                  "vom Nachziehstapel ziehen (Ann zeigt jetzt Karten)"),
    l8_not_in_hand: ("Cyd", "discard R3 (R3 is not in Cyd's hand)",
                     "R3 ablegen (R3 ist nicht auf der Hand von Cyd)"),
    l8_wrong_card: ("Cyd", "discard B9 (that card is R5, not B9)",
                    "B9 ablegen (diese Karte ist R5, nicht B9)"),
    l8_no_such_card: ("Cyd", "discard SKIP (SKIP is not a card of this deck)",
                      "SKIP ablegen (SKIP ist keine Karte dieses Kartenspiels)"),
    l8_elsewhere: ("Cyd", "discard R3 (every R3 of the deck is known to be elsewhere)",
                   "R3 ablegen (jede R3 des Kartenspiels ist bekanntlich woanders)"),
    l8_no_slot: ("Cyd", "discard R5 (that card is not in Cyd's hand)",
                 "R5 ablegen (diese Karte ist nicht auf der Hand von Cyd)"),
    l8_notation: ("Cyd", "it is not a move of this game", "das ist kein Zug dieses Spiels"),
    l8_not_special: ("Cyd", "play G2 (G2 is not a special card)",
                     "G2 spielen (G2 ist keine Sonderkarte)"),
    l8_empty_pile: ("Cyd", "draw the top card from Ben's discard pile (Ben's discard pile is "
                    "empty)",
                    "die oberste Karte vom Ablagestapel von Ben ziehen (der Ablagestapel von "
                    "Ben ist leer)"),
    l8_no_seat: ("Cyd", "draw the top card from seat 8's discard pile (there is no such "
                 "player)",
                 "die oberste Karte vom Ablagestapel von Platz 8 ziehen (diesen Spieler gibt "
                 "es nicht)"),
    l8_not_drawable: ("Cyd", "draw the top card from Ben's discard pile (TAKE may not be "
                      "drawn from a discard pile)",
                      "die oberste Karte vom Ablagestapel von Ben ziehen (TAKE darf nicht von "
                      "einem Ablagestapel gezogen werden)"),
    l8_level_parts: ("Cyd", "lay down the level: G2 | G3 (level 6 has 1 part, not 2)",
                     "die Stufe auslegen: G2 | G3 (Stufe 6 hat 1 Teil, nicht 2)"),
    l8_not_component: ("Cyd", "lay down the level: R5 B7 (component 1 is not the 7 of one colour "
                       "the level asks for)",
                       "die Stufe auslegen: R5 B7 (Teil 1 ist nicht die verlangte "
                       "Kombination (7 Karten einer Farbe))"),
    l8_card_twice: ("Cyd", "lay down the level: G2 G2 (a card is used twice)",
                    "die Stufe auslegen: G2 G2 (eine Karte ist doppelt verwendet)"),
    l8_down_already: ("Cyd", "lay down the level: G2 (the level is already laid down this "
                      "round)",
                      "die Stufe auslegen: G2 (die Stufe ist in dieser Runde schon "
                      "ausgelegt)"),
    l8_keep_one: ("Cyd", "lay down the level: G1 G2 G3 G4 G5 G6 G7 (a card must stay in hand "
                  "for the discard)",
                  "die Stufe auslegen: G1 G2 G3 G4 G5 G6 G7 (eine Karte muss zum Ablegen auf "
                  "der Hand bleiben)"),
    l8_not_down: ("Cyd", "add G2 to combination 1 (only a player whose level is down adds "
                  "cards)",
                  "G2 an Kombination 1 anlegen (nur wer seine Stufe ausgelegt hat, legt "
                  "Karten an)"),
    l8_no_meld: ("Cyd", "add G2 to combination 8 (there is no combination 8)",
                 "G2 an Kombination 8 anlegen (es gibt keine Kombination 8)"),
    l8_does_not_fit: ("Cyd", "add G2 to combination 1 (G2 does not fit combination 1)",
                      "G2 an Kombination 1 anlegen (G2 passt nicht an Kombination 1)"),
    l8_declared: ("Cyd", "discard J1-5=5 (only a card laid in a combination declares a "
                  "number or a colour)",
                  "J1-5=5 ablegen (nur eine Karte in einer Kombination sagt eine Zahl oder "
                  "Farbe an)"),
    l8_end_with_cards: ("Cyd", "end the turn with an empty hand (a turn ends with a discard "
                        "or a special card)",
                        "Zug mit leerer Hand beenden (ein Zug endet mit einer Ablage oder "
                        "einer Sonderkarte)"),
    l8_game_over: ("Cyd", "draw from the draw pile (the game is over)",
                   "vom Nachziehstapel ziehen (das Spiel ist vorbei)"),
    l8_left_already: ("Cyd", "leave the table (Cyd has left the table already)",
                      "vom Tisch gehen (Cyd hat den Tisch schon verlassen)"),
    l8_skip_self: ("Cyd", "put SKIP in front of Cyd (Skip!) (a Skip card goes in front of "
                   "another player)",
                   "SKIP vor Cyd legen („Aussetzen!“) (eine „Aussetzen!“-Karte kommt vor "
                   "einen anderen Spieler)"),
    l8_skip_target: ("Cyd", "play SKIP (Skip!) (a Skip card goes in front of a player, and no "
                     "other special card does)",
                     "SKIP spielen („Aussetzen!“) (eine „Aussetzen!“-Karte kommt vor einen "
                     "Spieler, keine andere Sonderkarte)"),
    l8_has_left: ("Cyd", "put SKIP in front of Ben (Skip!) (Ben has left the table)",
                  "SKIP vor Ben legen („Aussetzen!“) (Ben hat den Tisch verlassen)"),
    l8_has_skip: ("Cyd", "put SKIP in front of Ben (Skip!) (Ben already has a Skip card in "
                  "front)",
                  "SKIP vor Ben legen („Aussetzen!“) (vor Ben liegt schon eine "
                  "„Aussetzen!“-Karte)"),
    l8_show_count: ("Ann", "show R3 (Ann must show 3 cards)", "R3 zeigen (Ann muss 3 Karten "
                    "zeigen)"),
    l8_not_shown: ("Cyd", "take a card (I'll take that!) (that card is not among the shown "
                   "cards)",
                   "eine Karte nehmen („Die nehm’ ich!“) (diese Karte ist nicht unter den "
                   "gezeigten)"),
    l8_swap_limit: ("Cyd", "put G5 on their discard pile (I'll swap that!) (at most 3 cards "
                    "are swapped)",
                    "G5 auf den eigenen Ablagestapel legen („Die tausch’ ich!“) (höchstens 3 "
                    "Karten werden getauscht)"),
    l8_keep_not_in_hand: ("Cyd", "keep a card for the next round (that card is not in Cyd's "
                          "hand)",
                          "eine Karte für die nächste Runde behalten (diese Karte ist nicht "
                          "auf der Hand von Cyd)"),
    l8_kept_already: ("Cyd", "keep a card for the next round (that card is already kept)",
                      "eine Karte für die nächste Runde behalten (diese Karte wird schon "
                      "behalten)"),
    l8_keep_limit: ("Cyd", "keep a card for the next round (Cyd may keep at most 3 cards)",
                    "eine Karte für die nächste Runde behalten (Cyd darf höchstens 3 Karten "
                    "behalten)"),
    e_others_move: ("Cyd", "play G5 (it is Ann's move)", "G5 spielen (Ann ist am Zug)"),
    e_no_pass: ("Ann", "pass (passing is only in round 8)",
                "passen (passen geht nur in Runde 8)"),
    e_not_in_hand: ("Ann", "play R3 (R3 is not in Ann's hand)",
                    "R3 spielen (R3 ist nicht auf der Hand von Ann)"),
    e_wrong_card: ("Ann", "play R3 (that card is R1, not R3)",
                   "R3 spielen (diese Karte ist R1, nicht R3)"),
    e_elsewhere: ("Ann", "play R3 (every R3 of the deck is known to be elsewhere)",
                  "R3 spielen (jede R3 des Kartenspiels ist bekanntlich woanders)"),
    e_no_slot: ("Ann", "play R1 (that card is not in Ann's hand)",
                "R1 spielen (diese Karte ist nicht auf der Hand von Ann)"),
    e_take_not_eight: ("Ann", "play R1 (take) (only the 8 of the led suit is played with "
                       "'take' or 'no-take')",
                       "R1 spielen (nehmen) (nur die 8 der ausgespielten Farbe wird mit "
                       "„nehmen“ oder „nicht nehmen“ gespielt)"),
    e_declare_take: ("Ben", "play R8 (the 8 of the led suit is played with 'take' or "
                     "'no-take')",
                     "R8 spielen (die 8 der ausgespielten Farbe wird mit „nehmen“ oder "
                     "„nicht nehmen“ gespielt)"),
    e_nobody_plays: ("Ann", "play R1 (nobody plays a card now)",
                     "R1 spielen (gerade spielt niemand eine Karte)"),
    e_take_in_layout: ("Ann", "play Y8 (take) ('take' and 'no-take' are for trick rounds "
                       "only)",
                       "Y8 spielen (nehmen) („nehmen“ und „nicht nehmen“ gibt es nur in "
                       "Stichrunden)"),
    e_off_layout: ("Ann", "play R1 (R1 does not fit the layout: play an 8, or the next card "
                   "up or down in an opened suit)",
                   "R1 spielen (R1 passt nicht an die Auslage: spiel eine 8 oder die nächste "
                   "Karte auf- oder abwärts in einer eröffneten Farbe)"),
    e_notation: ("Cyd", "it is not a move of this game", "das ist kein Zug dieses Spiels"),
    p_claim_differs: ("Ann", "play R3 (that card is B7, not R3)",
                      "R3 spielen (diese Karte ist B7, nicht R3)"),
    p_no_opening: ("Ann", "play R3 (R3 was made public without the shares that open it)",
                   "R3 spielen (R3 wurde ohne die Anteile aufgedeckt, die sie öffnen)"),
    p_opening_proof: ("Ann", "play R3 (the proof of a card's opening does not hold)",
                      "R3 spielen (der Beweis beim Öffnen einer Karte stimmt nicht)"),
}
"""Each case: who signed the move, and the halt line's detail in English and in German."""


def halt_line(case: Any) -> str:
    cause = case()
    seat = NAMES.index(CASES[case][0])
    return cheat_notice_words("illegal", seat, NAMES, str(cause), cause)


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: c.__name__)
def test_each_reason_in_english(case):
    name, english, _german = CASES[case]
    assert halt_line(case) == f"{name} {SIGNED}: {english}"


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: c.__name__)
def test_each_reason_in_german(case, german):
    name, _english, words = CASES[case]
    assert halt_line(case) == f"{name} {SIGNIERT}: {words}"


REFUSALS = {"IllegalActionError", "InvalidActionError", "OpeningError", "EngineError", "exc"}
"""The errors that refuse a move (``exc``: the parse error re-raised with its code)."""


def _codes_and_uncoded() -> tuple[set[str], list[str]]:
    """The codes the refusal sites give (``fail``'s fifth argument, ``malformed``'s third, the
    first of ``.with_code``), and the sites that give none."""
    level8 = ROOT / "engine" / "level8"
    files = [level8 / "steps.py", level8 / "leaving.py", level8 / "game.py", level8 / "refusals.py",
             ROOT / "engine" / "eights" / "game.py", ROOT / "p2p" / "protocol" / "openings.py",
             ROOT / "p2p" / "protocol" / "core.py"]
    codes: set[str] = set()
    uncoded: list[str] = []
    for path in files:
        tree = ast.parse(path.read_text("utf-8"))
        coded = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
            if name == "with_code" and isinstance(f, ast.Attribute):
                coded.add(id(f.value))
                raised = f.value.func if isinstance(f.value, ast.Call) else f.value
                if getattr(raised, "id", "") in REFUSALS and isinstance(node.args[0], ast.Constant):
                    codes.add(node.args[0].value)
            elif name in ("fail", "malformed") and isinstance(f, ast.Name):
                index = 4 if name == "fail" else 2
                if len(node.args) > index:  # a constant, or claim_refusal's (below)
                    if isinstance(node.args[index], ast.Constant):
                        codes.add(node.args[index].value)
                else:
                    uncoded.append(ast.unparse(node.args[-1] if name == "malformed"
                                               else node.args[2]))
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and len(node.elts) == 3 and \
                    isinstance(node.elts[1], ast.Constant):  # claim_refusal's (text, code, params)
                codes.add(node.elts[1].value)
            f = getattr(node, "func", None)
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
            if name in REFUSALS - {"EngineError", "exc"} and \
                    id(node) not in coded:
                uncoded.append(ast.unparse(node.args[0]) if node.args else name)  # type: ignore[attr-defined]
    return codes, uncoded


NOT_A_PLAYERS_MOVE = {
    # chance's actions: the peers' shared randomness, never a seat's signed move (a seat's
    # entry names its own seat: "other-seat" first)
    "f'no random seat out of {action.n} is due'", "'no shuffle is due'",
    "'only the top card of the draw pile is turned now'", "error",
    "\"the revealed card is not a Level 8 card\"", "'the revealed card is not a Level 8 card'",
    "'not a chance action'", "f'the order has {len(action.order)} places for {len(slots)} cards'",
    "f\"chance is not to act: {_whose(state)}\"", "f'chance is not to act: {_whose(state)}'",
    "f'{action}: chance actions have seat {CHANCE}'",
    "f'{action}: chance is not to act, seat {self.to_act(state)} is'",
    "f'shuffle order is not a permutation of 0..{DECK_SIZE - 1}'",
    "f'{action}: slot #{request.slot} is to be revealed, not #{action.slot}'",
    "f'{action}: chance must answer {request}'",
    # dispatch: the parsed notation only makes the game's own actions; a leave is the peer
    # layer's leave entry (its refusals are the peer layer's)
    "f'{action!r} is not an 8s Rule! action'", "f'not a Level 8 action: {action!r}'",
    "f'a leave is not a step of play: {action!r}'",
}


def test_every_refusal_of_a_players_move_has_a_code_with_words_and_a_case_here():
    codes, uncoded = _codes_and_uncoded()
    assert set(uncoded) - NOT_A_PLAYERS_MOVE == set(), "a refusal without a code"
    said = set(REFUSAL_WORDS) | {"not-your-move", "show-count", "keep-limit", "level-parts"}
    assert codes - said == set(), "a code without words"
    met = {case().code for case in CASES}
    assert codes - met == {"other-seat"}, "a code without a case here"  # the peer layer's:
    # tests/p2p/test_hostile_halt.py signs one
    assert set(OWN_PHASE_WORDS) == {"draw", "play", "skipped", "show", "choose", "swap", "keep"}
