"""Golden transcripts: one seeded 3-player game per rule set, every action, compared byte for byte.

Any change to the rules, the bot, the notation or the chance driver shows up here. After an
intended change, regenerate with ``LANCARDS_REGEN_GOLDEN=1 pytest tests/level8/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lancards.cli.driver import play_local
from lancards.engine.level8 import LEVEL8 as G
from lancards.engine.rulesets import rule_set

GOLDEN = Path(__file__).parent / "golden"


def transcript(edition: str) -> str:
    rules = rule_set(edition).make_rules()
    played = play_local(G, rules, 3, seed=2026)
    outcome = G.outcome(played.final)
    assert outcome is not None and not played.violations
    lines = [f"# {edition}, 3 players, seed 2026, greedy bots"]
    lines += [G.format_action(a) for a in played.log]
    lines.append(f"# winners {list(outcome.winners)} levels {list(outcome.scores)} "
                 f"rounds {outcome.detail['rounds']}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("edition", ["level8-master", "level8", "level8-en"])
def test_golden_transcript(edition):
    path = GOLDEN / f"{edition}.txt"
    text = transcript(edition)
    if os.environ.get("LANCARDS_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    # The transcript replays through the notation alone.
    state = G.new_game(rule_set(edition).make_rules(), 3)
    for line in text.splitlines():
        if not line.startswith("#"):
            state = G.apply(state, G.parse_action(line))
    assert G.outcome(state) is not None
