"""The layout's promises beyond the import-linter contracts of ``pyproject.toml`` (run by
``.ci/lint``): no import circle between any two modules of ``lancards`` (a circle through a
package's ``__init__`` included, which sibling contracts do not see), and no module over 600
lines (``docs/architecture.md``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOMS = {"engine": ROOT / "engine", "p2p": ROOT / "p2p", "cli": ROOT / "cli"}
MAX_LINES = 600

# Strongly connected components of the module graph (Tarjan), printed as JSON lists.
_SCRIPT = """
import json, sys
import grimp
graph = grimp.build_graph("lancards")
index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in graph.find_modules_directly_imported_by(v):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        part = []
        while True:
            w = stack.pop(); on.discard(w); part.append(w)
            if w == v:
                break
        if len(part) > 1:
            found.append(sorted(part))
for module in sorted(graph.modules):
    if module not in index:
        visit(module)
print(json.dumps({"modules": len(graph.modules), "circles": found}))
"""


def _installed_layout(tmp_path: Path) -> Path:
    """A tree of links laid out as ``pip install .`` lays the package out (as ``.ci/lint``)."""
    top = tmp_path / "lancards"
    top.mkdir()
    for item in (ROOT / "cli" / "_lancards").iterdir():
        (top / item.name).symlink_to(item)
    for name, folder in ROOMS.items():
        (top / name).symlink_to(folder)
    return tmp_path


def test_no_module_of_lancards_is_in_an_import_circle(tmp_path: Path) -> None:
    tree = _installed_layout(tmp_path)
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    sources = sum(1 for folder in ROOMS.values() for _ in folder.rglob("*.py"))
    assert result["modules"] == sources + 2  # every module seen (and lancards, lancards.__main__)
    assert result["circles"] == []


def test_no_module_is_over_600_lines() -> None:
    long = {str(path.relative_to(ROOT)): n for folder in ROOMS.values()
            for path in folder.rglob("*.py")
            if (n := len(path.read_text("utf-8").splitlines())) > MAX_LINES}
    assert long == {}
