"""``lancards play --bot-level``: one level for every bot, or one per bot in seat order (the
new-user trial of 2026-12-07), and refused when given twice."""

from __future__ import annotations

import asyncio
import json

import pytest

from lancards.cli import net_session
from lancards.cli.bot_choice import seat_levels
from lancards.cli.local_session import LocalSession
from lancards.cli.main import main
from lancards.cli.net_session import NetworkSession
from lancards.p2p.protocol.identity import Identity


def test_a_list_of_another_length_says_how_many_are_needed(capsys):
    assert main(["play", "--local", "--autoplay", "--bot-level", "easy,hard"]) == 2
    assert capsys.readouterr().err == (
        "lancards play: error: --bot-level 'easy,hard': 2 levels for 3 bots; give one level, "
        "or 3 separated by commas\n")


def test_an_unknown_level_in_the_list_is_named(capsys):
    assert main(["play", "--local", "--autoplay", "--bot-level", "easy,hardd,normal"]) == 2
    assert capsys.readouterr().err == (
        "lancards play: error: --bot-level: 'hardd' is not a level of Level 8 Master; it "
        "offers easy, normal, hard, greedy\n")


def test_an_empty_level_is_said_and_the_case_does_not_matter(capsys):
    """The final trial of 2026-12-07: ``easy,hard,normal,`` was "4 levels for 3 bots",
    ``,,`` "'' is not a level", and ``EASY,Hard,normal`` refused."""
    for text in ("easy,hard,normal,", ",,", ""):
        assert main(["play", "--local", "--autoplay", "--bot-level", text]) == 2
        assert capsys.readouterr().err == (
            f"lancards play: error: --bot-level {text!r}: a level is missing (an empty name "
            "before, between or after the commas)\n")
    from lancards.cli.bot_choice import chosen_levels
    from lancards.engine.rulesets import rule_set

    assert chosen_levels(rule_set("level8-master"), "EASY, Hard ,normal", 3) == \
        ("normal", ["easy", "hard", "normal"])


def test_a_repeated_bot_level_is_refused(capsys, german):  # English again after it
    with pytest.raises(SystemExit) as stop:
        main(["play", "--bot-level", "easy", "--bot-level", "hard"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "lancards play: error: --bot-level given twice: give it once (a comma list gives each "
        "bot its own level) (see 'lancards play --help')\n")
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "de", "play", "--bot-level", "easy", "--bot-level", "hard"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "lancards play: Fehler: --bot-level zweimal angegeben: gib es einmal an (eine Liste mit "
        "Kommas gibt jedem Bot seine eigene Stufe) (siehe „lancards play --help“)\n")


@pytest.mark.parametrize(("command", "words", "wörter"), [
    ("host", " (a comma list gives each bot its own level)",  # host takes play's list
     " (eine Liste mit Kommas gibt jedem Bot seine eigene Stufe)"),
    ("join", "", "")])
def test_host_and_join_refuse_a_repeated_bot_level_too(capsys, german, command, words, wörter):
    """The new-user trial: ``host``/``join --bot-level easy --bot-level hard`` silently kept
    hard; refused as ``play`` refuses it, ``join`` without ``play``'s words on a comma list
    (its ``--bot-level`` is one level)."""
    with pytest.raises(SystemExit) as stop:
        main([command, "--bot-level", "easy", "--bot-level", "hard"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"lancards {command}: error: --bot-level given twice: give it once{words} "
        f"(see 'lancards {command} --help')\n")
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "de", command, "--autoplay", "--bot-level", "hard", "--bot-level",
              "hard"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"lancards {command}: Fehler: --bot-level zweimal angegeben: gib es einmal an{wörter} "
        f"(siehe „lancards {command} --help“)\n")


def test_german_words(capsys, german):
    assert main(["--lang", "de", "play", "--local", "--autoplay", "--bot-level", "easy,hard"]) == 2
    assert capsys.readouterr().err == (
        "lancards play: Fehler: --bot-level 'easy,hard': 2 Stufen für 3 Bots; gib eine Stufe "
        "an oder 3, durch Kommas getrennt\n")
    assert main(["--lang", "de", "play", "--local", "--autoplay", "--bot-level",
                 "easy,hardd,normal"]) == 2
    assert capsys.readouterr().err == (
        "lancards play: Fehler: --bot-level: 'hardd' ist keine Stufe von Level 8 Master; es "
        "gibt easy, normal, hard, greedy\n")


def test_the_levels_go_to_the_seats_after_the_player():
    assert seat_levels(4, 0, ["easy", "hard", "normal"]) == {1: "easy", 2: "hard", 3: "normal"}
    assert seat_levels(4, 2, ["easy", "hard", "normal"]) == {3: "easy", 0: "hard", 1: "normal"}


def test_a_local_table_plays_each_bot_at_its_level():
    session = LocalSession("level8-master", bots=3, bot_delay=0.0, bot_level="normal",
                           bot_levels=["easy", "hard", "greedy"])
    assert session.snapshot().extra["bots"] == {1: "easy", 2: "hard", 3: "greedy"}
    one = LocalSession("level8-master", bots=3, bot_delay=0.0, bot_level="hard")
    assert type(session.bots[1]) is not type(session.bots[2])
    assert type(session.bots[2]) is type(one.bots[1])
    assert one.snapshot().extra["bots"] == {1: "hard", 2: "hard", 3: "hard"}


def test_a_networked_table_keeps_each_bots_level_through_a_resume(tmp_path, monkeypatch):
    asked: list[tuple[int, str]] = []
    monkeypatch.setattr(net_session, "game_bot", lambda core, level: asked.append(
        (core.seat, level)))

    async def no_drive(*args, **kwargs):
        return None

    monkeypatch.setattr(net_session, "drive_bot", no_drive)
    me = Identity.generate("You")

    async def go() -> tuple[dict[int, str], dict[int, str], int]:
        session = await NetworkSession.create("level8-master", {}, me, 3, home=tmp_path,
                                              seed=7, bot_level="normal",
                                              bot_levels=["easy", "hard", "greedy"])
        seats, seat = dict(session.bot_seats), session.seat
        for node in session.nodes:
            if node is not session.node:
                await session._bot_loop(node)
        await session.close()
        folder = next((tmp_path / "tables").iterdir())
        again = await NetworkSession.resume(folder, me)
        restored = dict(again.bot_seats)
        await again.close()
        return seats, restored, seat

    seats, restored, seat = asyncio.run(go())
    expected = {(seat + 1) % 4: "easy", (seat + 2) % 4: "hard", (seat + 3) % 4: "greedy"}
    assert seats == expected and restored == expected
    assert sorted(asked) == sorted(expected.items())
    saved = json.loads(next((tmp_path / "tables").glob("*/table.json")).read_text())
    assert sorted(saved["bot_levels"].values()) == ["easy", "greedy", "hard"]
