"""A golden transcript: one seeded 4-player bot game, compared byte for byte.

Any change to the deal, the rules, the bot or the notation shows up here. After a deliberate
change, regenerate with ``LANCARDS_REGEN_GOLDEN=1 python -m pytest tests/eights/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from lancards.cli.driver import play_local
from lancards.engine.eights import EIGHTS, EightsRules, parse_action

GOLDEN = Path(__file__).parent / "golden" / "eights_4p_seed7.txt"


def transcript() -> str:
    rules = EightsRules()
    played = play_local(EIGHTS, rules, 4, 7)
    assert played.violations == []
    lines = [
        "# lancards 8s Rule! golden transcript: 4 players, seed 7, default rules, standard bots",
        f"# objectives: {rules.objectives.notice}",
    ]
    state = EIGHTS.new_game(rules, 4)
    for action in played.log:
        before = len(state.results)
        state = EIGHTS.apply(state, action)
        lines.append(str(action))
        if len(state.results) > before:
            r = state.results[-1]
            lines.append(
                f"# round {r.round} (dealer {r.dealer}): points {list(r.points)}, "
                f"tricks {r.tricks}, early {r.ended_early}, went out {r.went_out}, "
                f"reneges {len(r.reneges)}, totals {list(state.totals())}"
            )
    assert state == played.final
    outcome = EIGHTS.outcome(state)
    assert outcome is not None
    lines.append(f"# winners {list(outcome.winners)} scores {list(outcome.scores)}")
    lines.append("# detail " + json.dumps(outcome.detail, sort_keys=True))
    return "\n".join(lines) + "\n"


def test_golden_transcript() -> None:
    text = transcript()
    if os.environ.get("LANCARDS_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_golden_file_replays() -> None:
    state = EIGHTS.new_game(EightsRules(), 4)
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            state = EIGHTS.apply(state, parse_action(line))
    outcome = EIGHTS.outcome(state)
    assert outcome is not None and outcome.detail["rounds"] == 8
