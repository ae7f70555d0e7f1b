"""The persona suite's ``lancards play`` steps through the screens after ``h`` (issue 26's
new-user trial: the keys after a hint land on the hinted move), a discarded Skip and leaving
for good with the bots playing on; Tess's terminal is tmux at 80x24
(:class:`tests.e2e.test_persona_play.Terminal`), every screen read back with exact lines.

The seeds reach each screen at Tess's first turn (``--seed``: the bots' keys, the table id and
every peer's deck randomness; her key is fixed, ``--bot-delay 0``):

- **8s Rule!, seed 22**: Tess leads; ``h`` says ``lead B8 (no take)``, Enter opens the 8's
  chooser on ``no take``; Ctrl-C there pauses (the table closes cleanly), ``lancards resume``
  brings the table back, ``h`` Enter the chooser again, Esc closes it; ``q`` ``l`` ``y``
  leaves for good and the bots play on, saying each round (``round 3 of 8...``) to the result.
- **Level 8 Master, seed 6**: ``d``, ``h`` says ``play TAKE``, ``p`` plays it, the others
  show; ``h`` says ``take Bram's G12`` and Enter opens the take list on it; Esc, ``q`` ``y``.
- **Level 8, seed 12**: ``d``, ``h`` says ``lay down your level (l, then Enter)``, ``l`` opens
  the builder holding the hint's lay-down; Esc; the Skip discarded instead (End, ``x``) says
  ``SKIP discarded: nobody is skipped (p puts a Skip in front of a player)``.
- **Level 8 Master, seed 6** (long): ``d``, ``h``, Enter names the hint's key ``p``; ``l``
  opens the builder with no offer; O2 and J11-15 in a pair read ``J11-15 cannot be 2``.
- **Level 8, seed 12** (long): ``d``, ``h``, ``l``, Enter lays down; the title and the key
  line leave ``lay down`` out.
- **Level 8, seed 3** (long; the bots lay down first): ``d``, ``l``, Y4, O10 and a joker in a
  run of 3 read ``4 and 10 are too far apart for one joker``.
- **Level 8 Master, seed 6** again: ``d``, ``l``, B11 and J11-15 a pair, ``v`` lists
  ``11. J11-15=11`` to ``15. J11-15=15`` on 11, and ``1`` ``3`` declares 13.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lancards.p2p.protocol.identity import Identity
from tests.e2e.test_persona_play import PAUSED, Terminal

pytestmark = [pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
              pytest.mark.timeout(180)]

EIGHTS_KEYS = " Enter/x play · t/n an 8 with take/no take · m moves · ? keys · q quit · h hint"
CHOOSER_KEYS = " a choice's number, or up/down and Enter · Esc cancels · ? keys · q quit"
EIGHTS_HINT = " hint: lead B8 (no take): about 7 points better for you than Y1"
CHOOSER = [" play B8: the 8 of the led suit   (its number, or up/down and Enter; Esc",
           "   cancels)", "   1. take (this 8 wins the trick)",
           " > 2. no take (the highest other card of the suit wins)"]
"""The 8's chooser after ``h`` and Enter (it opened on take before: the trial took the trick)."""
HAND_22 = [" your hand (15 cards):", "  Red     R4+  R6+  R7+  R8+",
           "  Blue    B5+ [B8+] B9+", "  Yellow  Y1+  Y3+  Y6+  Y7+  Y14+",
           "  Green   G8+  G11+  G15+", "  + = playable now"]
"""Tess's hand at seed 22, the cursor on the hint's B8."""
LEAVE_KEYS = ("q", "l", "y")



def _paused(tess: Terminal, tmp_path: Path) -> None:
    """The table paused (Ctrl-C, or ``q`` then ``y``): exit status 1, only the paused line
    printed, nothing on stderr."""
    assert tess.exit_status() == 1
    assert tess.printed() == [PAUSED]
    assert (tmp_path / "err.txt").read_text() == ""

def _tess(tmp_path: Path) -> Terminal:
    (tmp_path / "identity.json").write_text(Identity(bytes([7]) * 32, "tess").to_json())
    (tmp_path / "identity.json").chmod(0o600)
    return Terminal(tmp_path)


def _lines(tess: Terminal, text: str, limit: float = 30) -> list[str]:
    return [line.rstrip() for line in tess.wait(text, limit)]


def _drawn(tess: Terminal, command: str, card: str) -> None:
    """``lancards COMMAND``, its first turn's keys awaited (the start's shuffles take seconds,
    more on a busy machine), then ``d``: Tess draws ``card`` from the draw pile."""
    tess.run(command)
    tess.wait(" d draw pile · 1-4 a discard pile · s sort · ? keys · q quit · h hint · o goal", 60)
    tess.keys("d")
    tess.wait(f" You drew {card} from the draw pile")


def _chooser(tess: Terminal) -> None:
    """``h``, then Enter: the hint's line, then the 8's chooser on ``no take``."""
    tess.keys("h")
    lines = _lines(tess, EIGHTS_HINT)
    assert lines[-8:-2] == HAND_22 and lines[-1] == EIGHTS_KEYS, lines
    tess.keys("Enter")
    lines = _lines(tess, CHOOSER[-1])
    at = lines.index(CHOOSER[0])
    assert lines[at:at + 4] == CHOOSER and lines[-2:] == [EIGHTS_HINT, CHOOSER_KEYS], lines


@pytest.mark.long  # some 40 s: the bots play a whole 8s Rule! game of four after the leave
def test_the_8_s_chooser_after_the_hint_ctrl_c_in_it_resume_and_leaving_for_good(
        tmp_path: Path) -> None:
    tess = _tess(tmp_path)
    try:
        tess.run("play --game eights --seed 22 --bot-delay 0 --name Tess")
        lines = _lines(tess, " trick 1: You lead", 60)
        assert lines[0] == " 8s Rule! · round 1 of 8 · dealer Bram   YOUR TURN: play a card"
        _chooser(tess)
        # Ctrl-C in the chooser: the table closes cleanly, the game waits for Tess
        tess.keys("C-c")
        assert tess.exit_status() == 1
        assert tess.printed() == [PAUSED]
        tess.run("resume")
        lines = _lines(tess, EIGHTS_KEYS)
        assert " trick 1: You lead" in lines and not any("1. take" in x for x in lines), lines
        _chooser(tess)  # the same hint, the same chooser
        tess.keys("Escape")
        lines = _lines(tess, EIGHTS_KEYS)
        assert CHOOSER[0] not in lines and lines[-8:-2] == HAND_22, lines
        # leaving for good: the bots play on and say each round from 3 s on
        for key, then in zip(LEAVE_KEYS, (" l: leave for good: the game goes on without you",
                                          " y: leave for good   n: stay", None), strict=True):
            tess.keys(key)
            if then is not None:
                tess.wait(then, 10)
        assert tess.exit_status(limit=150) == 1  # left before the end, as any seat that leaves
        said = tess.printed()
        table = next((tmp_path / "tables").iterdir()).name[:8]
        assert said[:3] == [f"resuming table {table} (8s Rule!, with Cleo, Bram, Ada)",
                            "checking the deal…",  # no move was played before the pause
                            "you left the table for good; the bots play the game to its end..."]
        rounds = [int(m[1]) for line in said[3:] if (m := re.fullmatch(r"round (\d) of 8\.\.\.",
                                                                          line))]
        assert rounds and rounds == sorted(set(rounds)) and rounds[-1] <= 8, said
        rest = said[3 + len(rounds):]
        # the deal of each round after the resume is the peers' own: the result's words only
        assert rest[0] == "the game went on without you:" and len(rest) == 6, said
        winner = re.fullmatch(r"8s Rule!: (Ada|Bram|Cleo)( and (Ada|Bram|Cleo))? wins? with the "
                              r"lowest total( \((shared win|tie broken by the round-7 "
                              r"totals)\))?", rest[1])
        assert winner and rest[2].startswith(f"{winner[1]}: "), said
        assert [re.fullmatch(r"(Ada|Bram|Cleo): -?\d+ points?", line) is not None
                for line in rest[2:5]] == [True] * 3, said
        assert rest[5] == "Tess: left the table", said
        assert (tmp_path / "err.txt").read_text() == ""
    finally:
        tess.close()


TAKE_HINT = " hint: play TAKE (p): pick a shown card your level needs"
CHOOSE_HINT = " hint: take Bram's G12: then 1 card to go instead of 2: a 2, 7, 9, 11 or 13"
TAKE_LIST = [" take which shown card (I'll take that!)", "    1. Bram's O14",
             " >  2. Bram's G12", "    3. Bram's G13", "    4. Cleo's R4",
             " 10 choices, 1-4 shown: up/down for the others"]
"""The take list after ``h`` and Enter: on the hint's card (it opened on the first)."""
CHOOSE_KEYS = " Enter choose a shown card · n none · m moves · ? keys · q quit · h hint"
LEAVE = " y or p: pause: the game waits for you (lancards resume brings you back)"


def test_the_take_list_after_the_hint_opens_on_the_hinted_card(tmp_path: Path) -> None:
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8-master --seed 6 --bot-delay 0 --name Tess", "Y9")
        tess.keys("h")
        lines = _lines(tess, TAKE_HINT)
        assert lines[-4:-2] == [" O2 P7 Y9 B11 B12 B13 G15 B15 J11-15 TAKE KEEP",
                                "                                     ^"], lines  # on TAKE
        tess.keys("p")  # plays the card under the cursor: TAKE; the others show
        lines = _lines(tess, " Cleo showed R4 R13 Y7")
        assert lines[0] == (" Level 8 Master · round 1 · dealer Cleo   YOUR TURN: take a shown "
                            "card or none"), lines
        assert lines[9:12] == ["  Bram: O14 G12 G13", "  Cleo: R4 R13 Y7", "  Ada: R15 O8 Y1"]
        tess.keys("h")
        assert _lines(tess, CHOOSE_HINT)[-1] == CHOOSE_KEYS
        tess.keys("Enter")
        lines = _lines(tess, TAKE_LIST[2])
        at = lines.index(TAKE_LIST[0])
        assert lines[at:at + 6] == TAKE_LIST and lines[-2:] == [CHOOSE_HINT, CHOOSER_KEYS]
        tess.keys("Escape")
        lines = _lines(tess, CHOOSE_KEYS)
        assert TAKE_LIST[0] not in lines, lines
        tess.keys("q")
        tess.wait(LEAVE)
        tess.keys("y")
        _paused(tess, tmp_path)
    finally:
        tess.close()


LAY_HINT = " hint: lay down your level (l, then Enter): you hold all of it"
LEVEL8_KEYS = (" l lay down · a add · x discard · p special · m moves · ? keys · q quit · "
               "h hint")
BUILDER = [" lay down level 1: 2 runs of 3   (2 offered; Tab cycles)",
           "  1 run of 3               G5 R6 G7  ok", "  2 run of 3               P11 R12 P13  ok",
           "  valid: Enter lays it down"]
HAND_12 = [" your hand (11 cards, by number; s sorts):",
           " O2 Y3 G5 R6 G7 B7 P11 R12 P13 P15 SKIP"]
SKIPPED = " SKIP discarded: nobody is skipped (p puts a Skip in front of a player)"


def test_l_after_the_lay_down_hint_opens_the_builder_and_a_discarded_skip_says_so(
        tmp_path: Path) -> None:
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8 --seed 12 --bot-delay 0 --name Tess", "R12")
        tess.keys("h")
        lines = _lines(tess, LAY_HINT)
        assert lines[-5:-3] == HAND_12 and lines[-1] == LEVEL8_KEYS, lines
        tess.keys("l")  # the builder holds the hint's lay-down
        lines = _lines(tess, " offered lay-down 1 of 2, the hint's: Enter lays it down, Tab "
                             "shows the others")
        at = lines.index(BUILDER[0])
        assert lines[at:at + 4] == BUILDER, lines
        assert lines[-6:-3] == [*HAND_12, "       1  1  1     2   2   2"], lines
        tess.keys("Escape")
        assert _lines(tess, " builder closed")[-1] == LEVEL8_KEYS
        # the Skip discarded instead (the bots wait 2 s now: b, b, b; the line stays to read)
        tess.keys("b", "b", "b")
        tess.wait(" each bot waits 2 s before its turn (b: change)")
        tess.keys("End", "x")
        lines = _lines(tess, SKIPPED)
        assert " You discarded SKIP" in lines, lines
        tess.keys("C-c")
        _paused(tess, tmp_path)
    finally:
        tess.close()


JOKER_ROWS = [" lay down level 1: 4 pairs   (no lay-down offered)",
              "  1 pair                   J11-15 O2  x J11-15 cannot be 2",
              "  2 pair                   B15 G15  ok",
              "  3 pair                   B13 B12  x B13 and B12 are not the same number",
              "  4 pair                   P7 Y9  x P7 and Y9 are not the same number",
              "  not valid: component 1 is not a pair: J11-15 cannot be 2"]
"""The builder at seed 6 (Level 8 Master) with O2 and J11-15 in pair 1: no lay-down offered
(the title named Tab: ``(0 offered; Tab cycles)``), the joker's range named at 80 columns."""
BUILDER_KEYS = " 1-9 assign · 0 unassign · j/v joker · Enter lay down · Esc · ? keys · q quit"


@pytest.mark.long  # some 20 s: a table's start, then the builder's keys
def test_enter_names_the_hint_s_key_and_the_builder_names_a_joker_out_of_its_range(
        tmp_path: Path) -> None:
    """Level 8 Master, seed 6: ``h`` says ``play TAKE (p)``, Enter names that key (the hint
    has left the line); ``l`` opens the builder with no offer; O2 and J11-15 in a pair read
    ``J11-15 cannot be 2``, Enter there the whole sentence (``joker J11-15 cannot stand for 2
    (its range is 11-15)``): the new-user trial read only ``needs at least 2 cards``."""
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8-master --seed 6 --bot-delay 0 --name Tess", "Y9")
        tess.keys("h")
        _lines(tess, TAKE_HINT)
        tess.keys("Enter")
        lines = _lines(tess, " Enter does nothing now; the hint: play TAKE (p)")
        assert lines[-1] == LEVEL8_KEYS, lines
        tess.keys("l")
        lines = _lines(tess, " no lay-down found in your hand; you may still try")
        assert JOKER_ROWS[0] in lines and lines[-1] == BUILDER_KEYS, lines
        # O2 and J11-15 to 1; G15 B15 to 2; B12 B13 to 3; P7 Y9 to 4 (Space marks, the
        # hand by number: O2 P7 Y9 B11 B12 B13 G15 B15 J11-15 TAKE KEEP)
        tess.keys("Home", "Space", *["Right"] * 8, "Space", "1")
        tess.keys("Home", *["Right"] * 6, "Space", "Right", "Space", "2")
        tess.keys("Home", *["Right"] * 4, "Space", "Right", "Space", "3")
        tess.keys("Home", "Right", "Space", "Right", "Space", "4")
        lines = _lines(tess, JOKER_ROWS[-1])
        at = lines.index(JOKER_ROWS[0])
        assert lines[at:at + 6] == JOKER_ROWS, lines
        assert lines[at + 6:at + 9] == [" your hand (11 cards, by number; s sorts):",
                                " O2 P7 Y9 B11 B12 B13 G15 B15 J11-15 TAKE KEEP",
                                " 1  4  4      3   3   2   2   1"], lines
        tess.keys("Enter")  # refused, in the table's whole words (all 80 columns of them)
        refused = (" component 1 is not a pair: joker J11-15 cannot stand for 2 (its range is "
                   "11-15)")
        lines = [line.rstrip() for line in tess.wait(refused, whole=[refused])]
        assert lines[at:at + 6] == JOKER_ROWS, lines
        tess.keys("Escape")  # awaited: an Escape followed at once by q reads as Alt-q
        assert _lines(tess, " builder closed")[-1] == LEVEL8_KEYS
        tess.keys("q")
        tess.wait(LEAVE)
        tess.keys("y")
        _paused(tess, tmp_path)
    finally:
        tess.close()


RUN_ROWS = [" lay down level 1: 2 runs of 3   (no lay-down offered)",
            "  1 run of 3               J Y4 O10  x 4 and 10 are too far apart for one joker",
            "  2 run of 3               R1 O2  x a run here needs at least 3 cards, got 2",
            "  not valid: component 1 is not a run of 3: 4 and 10 too far apart"]
"""The builder at seed 3 (Level 8) with Y4, O10 and a joker in run 1: the joker shows no value
(the trial read ``J=1 O6 G12  x numbers 1 6 12 are not consecutive``)."""


@pytest.mark.long  # some 20 s: a table's start, then the builder's keys
def test_the_builder_says_two_cards_are_too_far_apart_for_one_joker(tmp_path: Path) -> None:
    """Level 8, seed 3 (the bots lay down first): Y4, O10 and a wild joker in a run of 3."""
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8 --seed 3 --bot-delay 0 --name Tess", "P12")
        tess.keys("l")
        _lines(tess, " no lay-down found in your hand; you may still try")
        # the hand by number: R1 O2 Y4 B4 Y5 B8 O10 B10 G12 P12 J
        tess.keys("Home", "Right", "Right", "Space", "End", "Space", "Home", *["Right"] * 6,
                  "Space", "1")
        tess.keys("Home", "Space", "Right", "Space", "2")
        lines = _lines(tess, RUN_ROWS[-1])
        at = lines.index(RUN_ROWS[0])
        assert lines[at:at + 4] == RUN_ROWS and lines[-1] == BUILDER_KEYS, lines
        assert lines[at + 4:at + 7] == [" your hand (11 cards, by number; s sorts):",
                                        " R1 O2 Y4 B4 Y5 B8 O10 B10 G12 P12 J",
                                        " 2  2  1           1               1"], lines
        tess.keys("Escape")
        assert _lines(tess, " builder closed")[-1] == LEVEL8_KEYS
        tess.keys("C-c")
        _paused(tess, tmp_path)
    finally:
        tess.close()


DOWN_KEYS = " a add · x discard · p special · m moves · ? keys · q quit · h hint · o goal"
"""Level 8's key line once the level is down: no ``l lay down`` (once per round)."""


@pytest.mark.long  # some 15 s: a table's start, then a lay-down
def test_once_laid_down_the_key_line_and_the_title_leave_out_lay_down(tmp_path: Path) -> None:
    """Level 8, seed 12: ``d``, ``h``, ``l``, Enter lays the hint's lay-down down; the title
    says ``add, then discard`` and the key line has no ``l lay down`` (a new-user trial read
    it after laying down); ``l`` says why."""
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8 --seed 12 --bot-delay 0 --name Tess", "R12")
        tess.keys("h")
        _lines(tess, LAY_HINT)
        tess.keys("l")
        _lines(tess, BUILDER[-1])
        tess.keys("Enter")
        lines = _lines(tess, DOWN_KEYS)
        assert lines[0] == " Level 8 · round 1 · dealer Cleo   YOUR TURN: add, then discard"
        assert " You laid down level 1 (2 runs of 3): G5 R6 G7 | P11 R12 P13" in lines, lines
        tess.keys("l")
        lines = _lines(tess, " you have laid down this round: a adds cards to the combinations")
        assert lines[-1] == DOWN_KEYS, lines
        tess.keys("C-c")
        _paused(tess, tmp_path)
    finally:
        tess.close()


JOKER_LIST = [" value of J11-15   (its number, or up/down and Enter; Esc cancels)",
              " > 11. J11-15=11", "   12. J11-15=12", "   13. J11-15=13", "   14. J11-15=14",
              "   15. J11-15=15"]
"""The joker value list (``v``) of Tess's J11-15 in a pair with B11: each value typed as itself,
on the value declared now (the new-user trial of 2026-12-08 read ``1. J6-10=6``, typed 6 for a
6 and nothing happened)."""


def test_the_joker_value_list_in_the_builder_is_typed_by_the_value(tmp_path: Path) -> None:
    tess = _tess(tmp_path)
    try:
        _drawn(tess, "play --game level8-master --seed 6 --bot-delay 0 --name Tess", "Y9")
        # O2 P7 Y9 B11 B12 B13 G15 B15 J11-15 TAKE KEEP: B11 and the joker, a pair
        tess.keys("l", "Home", "Right", "Right", "Right", "Space", "End", "Left", "Left",
                  "Space", "1")
        _lines(tess, "  1 pair                   J11-15=11 B11  ok")
        tess.keys("v")
        lines = _lines(tess, JOKER_LIST[-1])
        at = lines.index(JOKER_LIST[0])
        assert lines[at:at + 6] == JOKER_LIST, lines
        tess.keys("1", "3")  # 13, not the first choice's 1
        lines = _lines(tess, "  1 pair                   J11-15=13 B11  x numbers 11 13 are not "
                             "all the same")
        assert JOKER_LIST[0] not in lines, lines
        tess.keys("Escape", "C-c")
        _paused(tess, tmp_path)
    finally:
        tess.close()
