"""A networked log tells the moves that arrived together as the local game tells them one by
one. The log is told when the screen asks; moves told without the view just before them lost
"Bram takes trick 1: ..." (the trick line needs the trick before its last card), an 8s Rule!
round's score in its place, "led", and Level 8's "You went out: round 1 is over" and the winner
(``cli/tui/narrate_batch.py`` replays the batch from the last told view). Exact lines."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from lancards.cli.driver import play_local
from lancards.cli.net_session import NetworkSession
from lancards.cli.saved_log import SavedLog
from lancards.cli.tui.narrate import narrate, scored_lines
from lancards.cli.tui.narrate_batch import Replay
from lancards.engine.core import CHANCE
from lancards.engine.rulesets import rule_set
from tests.eights.helpers import GAME, deal, move, play

NAMES = ("Ann", "Ada", "Bram")


def told_together(game: Any, last: Any, actions: list[Any], now: Any) -> list[str]:
    """``actions`` told as one batch to seat 0, as ``NetworkSession._update_log`` tells them."""
    replay, out = Replay(game, last, now, len(actions)), []
    for action in actions:
        before, after = replay.views(action)
        out += narrate(game.name, before, action, after, NAMES, 0)
    return out + scored_lines(game.name, replay.told, now, NAMES, 0)


def trick_batch() -> tuple[Any, list[Any], Any]:
    """Ada led B5 (told); then, together: Bram's B9, Ann's B7 (the trick's last card, Bram
    takes it) and Bram's lead of the next trick."""
    state = play(deal(3, {0: "B7 R1", 1: "B5 R2", 2: "B9 R3"}, dealer=0), "B5")
    last, actions = GAME.view(state, 0), []
    for text in ("B9", "B7", "R3"):
        actions.append(move(state, text))
        state = GAME.apply(state, actions[-1])
    return last, actions, GAME.view(state, 0)


def test_a_trick_taken_inside_a_batch_is_told_once_in_its_place() -> None:
    last, actions, now = trick_batch()
    told = told_together(GAME, last, actions, now)
    assert told == ["Bram played B9", "You played B7", "Bram takes trick 1: B5 B9 B7",
                    "Bram led R3"]  # was: ..., "You played B7", "Bram played R3"
    assert told.count("Bram takes trick 1: B5 B9 B7") == 1


def a_batch(name: str, ends: Any, moves_before: int, moves_after: int) -> tuple[
        Any, Any, list[Any], Any, list[str]]:
    """A seeded 3-player game of bots; the seat moves around the first one after which
    ``ends(before, after)`` holds, as one batch: the game, the view before it, its moves, the
    view after it, and the same moves told one by one (the local game's log)."""
    spec = rule_set(name)
    game, steps = spec.game, []
    final = play_local(game, spec.make_rules(), 3, 5,
                       on_step=lambda state, action: steps.append((state, action))).final
    states = [state for state, _ in steps] + [final]
    moves = [i for i, (_, action) in enumerate(steps) if action.seat != CHANCE]
    at = next(k for k, i in enumerate(moves) if ends(states[i], states[i + 1]))
    batch = moves[at - moves_before:at + moves_after + 1]
    view = lambda i: game.view(states[i], 0)  # noqa: E731
    one_by_one = [line for i in batch
                  for line in narrate(game.name, view(i), steps[i][1], view(i + 1), NAMES, 0)]
    return game, view(batch[0]), [steps[i][1] for i in batch], view(batch[-1] + 1), one_by_one


def test_an_eights_round_end_inside_a_batch() -> None:
    """The last trick of round 1, its score and the next round's marker in place, then the
    next round's lead: the round's chance (the shuffle and deal) is replayed in between."""
    game, last, actions, now, one_by_one = a_batch(
        "eights", lambda before, after: len(after.results) > len(before.results), 2, 1)
    told = told_together(game, last, actions, now)
    assert told == one_by_one == [
        "Ada led R14", "Bram played G15", "You played Y5", "Ada takes trick 20: R14 G15 Y5",
        "round 1 scored: Ann +20, Ada +120, Bram +60", "── round 2 · dealer Ada ──",
        "Bram led Y1"]


def test_a_level8_round_end_and_the_winner_inside_a_batch() -> None:
    """Told without the view before, the going out, the next round's marker and the winner
    were lost (and the combinations' owners)."""
    game, last, actions, now, one_by_one = a_batch(
        "level8", lambda before, after: after.round != before.round and before.round >= 1, 2, 2)
    assert told_together(game, last, actions, now) == one_by_one == [
        "You added O10 to combination 1 (your run 11-15)",
        "You added P4 to combination 5 (Bram's run 5-7)", "You discarded P3",
        "You went out: round 1 is over", "── round 2 · you deal ──",
        "Ada drew from the draw pile", "Ada discarded R15"]
    game, last, actions, now, one_by_one = a_batch(
        "level8", lambda before, after: after.phase.value == "over", 2, 0)
    assert told_together(game, last, actions, now) == one_by_one == [
        "You drew R6 from Ada's discard pile",
        "You added R6 to combination 2 (your colour group R)", "You discarded G2",
        "You went out: round 6 is over", "You win the game"]


def network_log(game: Any, last: Any, actions: list[Any], now: Any) -> list[str]:
    """``NetworkSession._update_log`` over a record of ``actions`` that arrived together, told
    up to ``last`` before (a stand-in core: the record, this seat's view now)."""
    session = NetworkSession.__new__(NetworkSession)
    entries = [SimpleNamespace(payload={"t": "action", "a": game.format_action(a)},
                               author=a.seat) for a in actions]
    session.core = SimpleNamespace(record=SimpleNamespace(entries=entries), state=now,
                                   seat_of=lambda author: author)
    session.game, session.names, session.seat = game, NAMES, 0
    session._log, session._logged, session._log_view = [], 0, last
    session._log_round = last.round  # its marker is in the log already
    session.node = SimpleNamespace(notices=[])
    session._saved = SavedLog(None)  # nothing written
    session._update_log()
    return [line.text for line in session._log]


def test_the_network_log_tells_a_batch_in_place() -> None:
    assert network_log(GAME, *trick_batch()) == [
        "Bram played B9", "You played B7", "Bram takes trick 1: B5 B9 B7", "Bram led R3"]
    game, last, actions, now, _ = a_batch(
        "eights", lambda before, after: len(after.results) > len(before.results), 2, 1)
    assert network_log(game, last, actions, now) == [  # the score and the marker once
        "Ada led R14", "Bram played G15", "You played Y5", "Ada takes trick 20: R14 G15 Y5",
        "round 1 scored: Ann +20, Ada +120, Bram +60", "── round 2 · dealer Ada ──",
        "Bram led Y1"]
