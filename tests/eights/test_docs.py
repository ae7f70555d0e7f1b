"""``docs/rules-eights.md`` stays true: its default objectives and the tests it links to."""

from __future__ import annotations

import re
from pathlib import Path

from lancards.engine.eights import default_objectives, parse_objectives

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-eights.md"


def test_documented_defaults_equal_the_built_in_ones() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = text.split("is a complete example:")[1]
    block = re.search(r"```toml\n(.*?)```", example, re.S)
    assert block is not None
    documented = parse_objectives(block.group(1))
    assert documented.rounds == default_objectives().rounds
    assert "not from the publisher" in text.lower()


def test_every_linked_test_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = set(re.findall(r"\b(test_[a-z0-9_]+)\b", text))
    sources = "".join(p.read_text(encoding="utf-8")  # the whole suite: a rematch test is in p2p
                      for p in Path(__file__).parents[1].rglob("*.py"))
    missing = sorted(n for n in names if f"def {n}(" not in sources and f"{n}.py" not in text)
    assert missing == []
    assert len(names) > 30
