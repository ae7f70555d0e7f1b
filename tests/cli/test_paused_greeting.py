"""``lancards play`` tells a person that a paused table waits (a new user never learned that
``q`` had paused one, nor that ``lancards resume`` goes on with it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lancards.cli.local_session import LocalSession
from lancards.cli.play import find_table, paused_greeting, unfinished_tables
from lancards.engine.level8.state import Phase
from lancards.p2p.net.folder_lock import lock_folder, release_all
from tests.cli.tui.harness import driven
from tests.level8.scenario import build


def table(home: Path, name: str, *files: str) -> Path:
    folder = home / "tables" / name
    folder.mkdir(parents=True)
    for file in files:
        (folder / file).write_text("{}\n")
    return folder


def test_only_unfinished_tables_are_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    assert paused_greeting() == ""  # no tables folder at all
    table(tmp_path, "done", "journal.jsonl", "finished")
    table(tmp_path, "lobby", "table.json", "not-started")
    assert paused_greeting() == ""
    paused = table(tmp_path, "paused", "journal.jsonl", "table.json")
    assert unfinished_tables(tmp_path / "tables") == [paused]
    assert paused_greeting() == "a paused table waits for you: 'lancards resume' goes on with it"
    # a finished table whose "play again" this seat joined and did not see end: paused; not
    # when the seat had left for good (its bots answered at the end, the trial of 2026-12-05)
    table(tmp_path, "left", "journal.jsonl", "finished", "again", "left")
    assert paused_greeting() == "a paused table waits for you: 'lancards resume' goes on with it"
    table(tmp_path, "crashed", "table.json")  # signed the start, killed before its journal
    assert paused_greeting() == ("2 paused tables wait for you: 'lancards resume' goes on "
                                 "with the latest")


def test_the_greeting_is_on_the_message_line_until_the_first_move() -> None:
    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW,
                  pile_top=["P9"])
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    words = "a paused table waits for you: 'lancards resume' goes on with it"
    with driven(session, 80, 24, greeting=words) as d:
        assert f" {words}" in d.text().splitlines()
        screen = d.press("d")
        assert words not in screen and " You drew P9 from the draw pile" in screen.splitlines()


def test_the_greeting_said_before_the_deal_is_still_there_in_round_1() -> None:
    # A networked table greets the person while the deck is still shuffled (round 0): the
    # greeting must outlive that "round" (tried in tmux: it was gone once round 1 began).
    from dataclasses import replace

    state = build("level8-master", [["R3", "O7"], ["Y1"], ["Y2"]], turn=0, phase=Phase.DRAW)
    session = LocalSession("level8-master", names=("Ann", "Ben", "Cat"), state=state,
                           bot_delay=60)
    words = "a paused table waits for you: 'lancards resume' goes on with it"
    with driven(session, 80, 24, greeting=words) as d:
        controller = d.screen.controller
        snap = session.snapshot()
        later = replace(snap, view=snap.view.evolve(round=snap.view.round + 1))
        assert controller.shown_message(later) == words
        controller.say("you cannot discard now", error=True)  # any other words: one round
        assert controller.shown_message(snap) == "you cannot discard now"
        assert controller.shown_message(later) == ""


def test_a_table_open_in_another_window_is_not_paused(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-check trial of session 27: a new ``lancards play`` said "a paused table waits
    for you" of the only unfinished table, which another window was playing at that moment.
    A table a live process holds is not counted, and ``lancards resume`` without a table
    takes the paused one even when the other is more recent; with none paused, the one in
    play (whose refusal names its process)."""
    monkeypatch.setenv("LANCARDS_HOME", str(tmp_path))
    playing = table(tmp_path, "playing", "journal.jsonl", "table.json")
    lock_folder(playing, "lancards resume")  # this process plays it
    try:
        assert paused_greeting() == ""
        assert find_table(None) == playing
        paused = table(tmp_path, "paused", "journal.jsonl", "table.json")
        os.utime(paused / "journal.jsonl", (1, 1))
        os.utime(paused / "table.json", (1, 1))  # the older of the two
        assert paused_greeting() == \
            "a paused table waits for you: 'lancards resume' goes on with it"
        assert find_table(None) == paused
    finally:
        release_all()
    assert paused_greeting() == ("2 paused tables wait for you: 'lancards resume' goes on "
                                 "with the latest")
