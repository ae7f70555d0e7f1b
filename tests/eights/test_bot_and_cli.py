"""The standard bot's choices per objective, and ``lancards selfplay --game eights``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from lancards.cli.driver import SeededChance
from lancards.cli.main import main
from lancards.engine.core import CHANCE
from lancards.engine.eights import EightsAction, EightsBot, EightsRules, EightsState, Phase, Play

from .helpers import GAME, deal, first_legal, play_all


def bot_move(state: EightsState) -> str:
    seat = GAME.to_act(state)
    assert seat is not None and seat >= 0
    action = EightsBot().choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
    assert isinstance(action, Play)
    return str(action).split("play ")[1].split("#")[0] + (
        "" if action.take is None else " take" if action.take else " no-take"
    )


@pytest.mark.parametrize(
    ("round_number", "hand", "before", "expected"),
    [
        # Round 1, no tricks: duck with the highest card that loses (B7 under the B9).
        (1, "B2 B7 B12", ["B5", "B9"], "B7"),
        # Round 1: only the 8 can lose: declare "no take" (it never wins when following).
        (1, "B8 B12", ["B5", "B9"], "B8 no-take"),
        # Round 7, tricks wanted: the 8 of the led suit with "take" always wins.
        (7, "B8 B12", ["B5", "B13"], "B8 take"),
        # Round 7: no 8, last to play: win as cheaply as possible.
        (7, "B10 B12 B14", ["B5", "B9"], "B10"),
        # Round 2, no Red cards: void in Blue, throw away the Red 15.
        (2, "R15 R3 G9", ["B5", "B9"], "R15"),
        # Round 5, no Red 15: last to play and no points at stake: win with the high card.
        (5, "B14 B2", ["B5", "B9"], "B14"),
    ],
)
def test_bot_plays_the_objective(
    round_number: int, hand: str, before: list[str], expected: str
) -> None:
    # Three seats; seat 2 (the bot) plays last, after seats 0 and 1 played ``before``.
    void = {} if "B" in hand else {2: "B"}
    fixed = {0: before[0], 1: before[1], 2: hand}
    state = deal(3, fixed, round_number=round_number, dealer=2, void=void)
    state = play_all(state, before)
    assert bot_move(state) == expected


def test_bot_leads_low_when_ducking_and_an_8_with_take_when_winning() -> None:
    hand = {0: "B3 Y8 G12 R9 R2 R4 G5 Y6 B10 G15"}
    assert bot_move(deal(6, hand, round_number=1, dealer=5)) == "R2"
    assert bot_move(deal(6, hand, round_number=7, dealer=5)) == "Y8 take"


def test_bot_in_round_8_frees_its_own_cards() -> None:
    # Seat 0 leads round 8 with all four 8s: the Green 8 frees G9 G10 G11 of its own hand, each
    # other 8 only one card.
    state = deal(6, {0: "R8 B8 Y8 G8 G9 G10 G11 B1 Y1 R15"}, round_number=8, dealer=5)
    assert bot_move(state) == "G8"
    state = play_all(state, ["G8"])
    while GAME.to_act(state) != 0:
        state = GAME.apply(state, first_legal(state))
    assert bot_move(state) == "G9"  # frees G10 G11; the 8s free one card each


def game_with(bot_seat: int, seed: int) -> tuple[int, ...]:
    """One 4-player game: the bot at ``bot_seat``, random legal play elsewhere."""
    rng = random.Random(seed)
    chance = SeededChance(seed)
    bot = EightsBot()
    state = GAME.new_game(EightsRules(), 4)
    action: EightsAction
    while (seat := GAME.to_act(state)) is not None:
        if seat == CHANCE:
            action = chance.resolve(GAME, state)
        elif seat == bot_seat:
            action = bot.choose(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state = GAME.apply(state, action)
    assert state.phase is Phase.OVER
    return state.totals()


def test_bot_beats_random_play() -> None:
    bot_total = random_total = 0
    for seed in range(12):
        totals = game_with(seed % 4, seed)
        bot_total += totals[seed % 4]
        random_total += sum(totals) - totals[seed % 4]
    # Seeded, so exact (bot -1.25 a game, random players 156): the bot plays clearly better.
    assert bot_total / 12 < random_total / 36 - 100


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_selfplay_eights(capsys: pytest.CaptureFixture[str], players: int) -> None:
    status, out, _ = run(
        capsys, "selfplay", "--game", "eights", "--players", str(players), "--games", "2",
        "--json")
    assert status == 0
    summary = json.loads(out)
    assert summary["game"] == "eights" and summary["games"] == 2
    assert summary["rounds"] == 16 and summary["invariant_violations"] == 0
    assert sum(summary["wins_by_seat"]) >= 2 and len(summary["wins_by_seat"]) == players


def test_selfplay_with_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from lancards.engine.eights import DEFAULT_OBJECTIVES_TOML

    path = tmp_path / "objectives.toml"
    path.write_text(DEFAULT_OBJECTIVES_TOML.replace("points = 10 ", "points = 20 "), "utf-8")
    status, out, _ = run(
        capsys,
        *("selfplay", "--game", "eights", "--players", "4", "--seed", "3"),
        *("--option", "partners=true", "--option", f"objectives={path}", "--json"),
    )
    assert status == 0 and json.loads(out)["invariant_violations"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5", "--option", "partners=true"], "'partners' needs 4 or 6 players"),
        (["--players", "2"], "8s Rule! is for 3 to 6 players"),
        (["--option", "objectives=/nonexistent.toml"], "cannot read"),
    ],
)
def test_selfplay_eights_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "selfplay", "--game", "eights", *argv)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
