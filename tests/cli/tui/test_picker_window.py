"""A chooser keeps its highlighted choice on screen whatever the list's length (issue 25, item
14): the "I'll take that!" chooser of a six-seat table at 80x24, and the picker's window itself
when its title and choices wrap.
"""

from __future__ import annotations

import re

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.controller import Picker
from lancards.cli.tui.fit import to_lines, wrap_all
from lancards.engine.level8.levels import ComponentKind as K
from lancards.engine.level8.state import Phase
from tests.cli.tui.harness import driven
from tests.level8.scenario import build

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def highlighted(screen: str) -> list[str]:
    """The chooser lines with the highlight mark: ``["> 16. take none"]``."""
    return [line.strip() for line in screen.splitlines() if re.match(r"^ > +\d+\. ", line)]


def test_the_take_that_chooser_shows_its_highlight_at_80x24_for_every_choice():
    # five others show 3 cards each: 15 shown cards and "take none", with three combinations
    # on the table and a 12-card hand taking the rows
    hands = [["TAKE", *(f"R{i}" for i in range(1, 12))],
             *([f"{c}{i}" for i in range(1, 5)] for c in "OYGBP")]
    melds = [(1, K.RUN, ["O5", "O6", "O7", "O8"]), (2, K.SET, ["Y9", "G9", "B9"]),
             (3, K.RUN, ["B5", "B6", "B7", "B8"])]
    state = build("level8-master", hands, turn=0, melds=melds,
                  down=[False, True, True, True, False, False])
    session = LocalSession("level8-master", names=NAMES, state=state, bot_delay=60)
    with driven(session, 80, 24) as d:
        d.press(*["right"] * 11, "p")  # by number: R1..R11 TAKE
        d.settle(lambda: session.state.phase is Phase.CHOOSE, limit=2.0)
        screen = d.press("enter", until=lambda: "take which shown card" in d.text())
        assert highlighted(screen) == [">  1. Ben's O1"]
        shown = [f"{name}'s {colour}{i}" for name, colour in zip(NAMES[1:], "OYGBP",
                                                                 strict=True)
                 for i in range(1, 4)]
        # up from the first choice goes round to the last one, "take none" (it was hidden
        # under the panel's edge: the title's hints wrapped and took its row)
        screen = d.press("up")
        assert highlighted(screen) == ["> 16. take none"]
        assert "16 choices, 13-16 shown: up/down for the others" in screen
        for number, label in enumerate(shown, start=1):
            screen = d.press("down")
            assert highlighted(screen) == [f"> {number:>2}. {label}"], screen
            assert all(len(line) <= 80 for line in screen.splitlines())
        assert session.state.phase is Phase.CHOOSE  # nothing chosen by moving


def test_the_picker_fits_its_rows_when_the_title_and_the_choices_wrap():
    labels = [f"choice {i}: " + "long words " * (4 if i % 3 == 0 else 1) for i in range(30)]
    picker = Picker("a title long enough to wrap with its hints at forty", labels,
                    lambda i: None)
    for index in range(30):
        picker.index = index
        rows = wrap_all(to_lines(picker.render(6, 40)), 40)
        text = ["".join(f[1] for f in row).rstrip() for row in rows]
        assert len(rows) <= 6, text
        assert text[0] == " a title long enough to wrap with its h…"
        marked = [row for row in text if row.startswith(" > ")]
        assert marked and marked[0].startswith(f" > {index + 1:>2}. choice {index}: ")
        assert text[-2].startswith(" 30 choices, ") and text[-1].endswith("others")
    for height in (2, 3, 4, 7):  # a panel squeezed to its last rows: the highlight stays
        for index in range(30):
            picker.index = index
            text = ["".join(f[1] for f in row) for row in
                    wrap_all(to_lines(picker.render(height, 40)), 40)]
            assert len(text) <= height, (height, index, text)
            assert any(row.startswith(f" > {index + 1:>2}. ") for row in text), text
    picker.index = 0
    assert ["".join(f[1] for f in row).rstrip() for row in
            wrap_all(to_lines(picker.render(6, 40)), 40)] == [
        " a title long enough to wrap with its h…",
        " >  1. choice 0: long words long words",  # a long choice takes two rows
        "   long words long words",
        "    2. choice 1: long words",
        " 30 choices, 1-2 shown: up/down for the",
        "   others",
    ]


def test_a_digit_that_starts_a_longer_number_waits_for_the_next_digit_or_enter():
    """The trial of 2026-12-06: among 12 choices, ``1`` typed on the way to ``12`` picked
    choice 1 at once (a discard, for good); it now highlights 1 and waits, ``2`` then picks
    12, Enter picks 1, and a digit no longer number starts with still picks at once."""
    picked: list[int] = []
    labels = [f"discard card {i}" for i in range(1, 13)]
    picker = Picker("discard which card?", labels, picked.append)
    assert picker.handle("1") is None and picker.index == 0 and picked == []
    # and says so (the final trial of 2026-12-07 pressed 1 among 10 and saw nothing happen)
    head = "".join(text for _style, text in picker.render(20)).splitlines()[0]
    assert head == " discard which card?   (1_: Enter picks 1, or type the next digit)"
    assert picker.handle("2") is True and picked == [11]  # choice 12
    head = "".join(text for _style, text in picker.render(20)).splitlines()[0]
    assert head.endswith("(its number, or up/down and Enter; Esc cancels)")
    assert picker.handle("1") is None and picker.handle("enter") is True and picked == [11, 0]
    assert picker.handle("5") is True and picked == [11, 0, 4]  # nothing longer starts with 5
    few = Picker("which?", labels[:9], picked.append)
    assert few.handle("1") is True and picked[-1] == 0  # one to nine: at once, as before


def test_the_scripted_persons_keys_pick_choice_one_among_ten_and_among_four():
    """The persona and crash-sweep seats press :func:`~tests.p2p.crash_sweep.first_move_keys`
    in the list of moves: CI after 6e766c6 failed where ann pressed ``1`` at "10 choices, 1-4
    shown" (it waited for a second digit) and again 3 s later (``11``: no such choice), until
    the test's 150 s ran out. Its keys now pick choice 1 exactly once, whatever the count."""
    from tests.p2p.crash_sweep import first_move_keys

    ci_screen = ("every legal move   (its number, or up/down and Enter; Esc cancels)\n"
                 " >  1. discard R4\n    2. discard R8\n    3. discard G2\n    4. discard B8\n"
                 " 10 choices, 1-4 shown: up/down for the others\n")
    assert first_move_keys(ci_screen) == ["1", "Enter"]
    assert first_move_keys(" >  1. discard R4\n    2. discard R8\n") == ["1"]
    for count in (4, 9, 10, 12):
        picked: list[int] = []
        picker = Picker("every legal move", [f"discard card {i}" for i in range(count)],
                        picked.append)
        screen = "\n".join(f"    {i}. discard" for i in range(1, min(count, 4) + 1))
        if count > 4:
            screen += f"\n {count} choices, 1-4 shown: up/down for the others"
        results = [picker.handle(key.lower()) for key in first_move_keys(screen)]
        assert results[-1] is True and picked == [0], count
