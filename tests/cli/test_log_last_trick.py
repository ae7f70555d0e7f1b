"""8s Rule!: the last trick of a round is told in the log, before the round's score.

The last trick of a round that runs to its end scores the round at once and moves the game to
the next round, whose trick winners and history start empty; the log told a trick only while
the round stayed the same, so it went from the last card played straight to "round 1 scored:
..." (at ``lancards play --local``, at the networked table, ``tests/cli/test_net_log_rounds.py``,
and in ``lancards replay``). A round that ends early (ruling E-5) stays in its audit, so its
trick was told; its score follows when the audit has opened the last card in a hand. Round 8
is a layout without tricks (ruling E-7)."""

from __future__ import annotations

import re
from typing import Any

from lancards.cli.local_session import LocalSession
from lancards.cli.tui.narrate import narrate, narrate_game
from lancards.engine.core import CHANCE, Reveal
from lancards.engine.eights import EIGHTS, Phase
from tests.eights.helpers import deal, first_legal

NAMES = ("Ann", "Ben", "Cat")


def round_actions(state: Any) -> list[Any]:
    """The actions of the round dealt in ``state`` to its score (first legal moves, then the
    audit's openings, ruling E-8)."""
    actions: list[Any] = []
    number = len(state.results)
    while len(state.results) == number:
        if EIGHTS.to_act(state) == CHANCE:
            request = EIGHTS.chance_request(state)
            action: Any = Reveal(request.slot, EIGHTS.identity(state, request.slot))
        else:
            action = first_legal(state)
        actions.append(action)
        state = EIGHTS.apply(state, action)
    return actions


def test_the_last_trick_of_a_round_is_told_before_the_score() -> None:
    state = deal(3, {}, dealer=2)
    while len(state.trick) < 2 or any(len(hand) > 1 for hand in state.hands):
        state = EIGHTS.apply(state, first_legal(state))
    action = first_legal(state)  # Cat's last card, the last of trick 20
    after = EIGHTS.apply(state, action)
    assert after.round == 2 and after.trick_winners == ()  # scored at once
    lines = ["Cat played G15", "Ann takes trick 20: B5 Y10 G15",
             "round 1 scored: Ann +200, Ben +0, Cat +0", "── round 2 · dealer Ann ──"]

    def told(viewer: int) -> list[str]:
        seat = None if viewer < 0 else viewer
        return narrate("eights", EIGHTS.view(state, seat), action, EIGHTS.view(after, seat),
                       NAMES, viewer)

    assert told(1) == lines
    assert told(-1) == lines  # a spectator, as lancards replay tells it
    assert told(0)[1] == "You take trick 20: B5 Y10 G15"
    assert told(2)[:2] == ["You played G15", "Ann takes trick 20: B5 Y10 G15"]


def test_a_round_told_to_a_spectator_has_every_trick_once() -> None:
    """As ``lancards replay`` tells it (:func:`narrate_game`): round 1 runs to trick 20; round 3
    (no 8s, ruling E-5) ends when the last 8 is taken, its score after the audit's openings."""
    for number, last, scored in (
            (1, "Ann takes trick 20: B5 Y10 G15", "round 1 scored: Ann +200, Ben +0, Cat +0"),
            (3, None, None)):
        start = deal(3, {}, round_number=number, dealer=2)
        actions = round_actions(start)
        texts = [text for _, text in narrate_game(EIGHTS, start, actions, NAMES)]
        tricks = [int(m.group(1)) for t in texts if (m := re.search(r" trick (\d+): ", t))]
        state = start
        for action in actions:
            state = EIGHTS.apply(state, action)
        result = state.results[-1]
        assert tricks == list(range(1, result.tricks + 1))
        assert texts[-1] == f"── round {number + 1} · dealer Ann ──"
        assert texts[-2].startswith(f"round {number} scored: ")
        if number == 1:
            assert not result.ended_early and texts[-3:-1] == [last, scored]
        else:
            assert result.ended_early and result.tricks < 20
            assert " takes trick " in texts[-3] or "You take trick" in texts[-3]


def test_the_local_table_tells_every_trick_of_every_round() -> None:
    session = LocalSession("eights", names=("Ann", "Ada", "Bram"), bots=2, seed=5,
                           bot_delay=0, autoplay=True)
    session.advance()
    assert session.over
    log = [line.text for line in session.snapshot().log]
    end = log.index("round 1 scored: Ann +20, Ada +120, Bram +60")
    assert log[end - 2:end + 2] == ["You played Y5", "Ada takes trick 20: R14 G15 Y5",
                                    "round 1 scored: Ann +20, Ada +120, Bram +60",
                                    "── round 2 · dealer Ada ──"]
    told: dict[int, list[int]] = {}
    number = 1
    for text in log:
        if (marker := re.match(r"── round (\d+) ", text)):
            number = int(marker.group(1))
        elif (trick := re.search(r" trick (\d+): ", text)):
            told.setdefault(number, []).append(int(trick.group(1)))
    results = session.state.results
    assert [r.ended_early for r in results[:7]].count(True) >= 1  # an early end among them
    assert told == {r.round: list(range(1, r.tricks + 1)) for r in results[:7]}
    assert results[7].tricks == 0 and 8 not in told  # round 8: the layout (ruling E-7)
    assert session.state.phase is Phase.OVER
