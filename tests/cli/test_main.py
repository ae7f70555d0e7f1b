"""The ``lancards`` command: one import package, help order, version, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

import lancards
from lancards.cli.main import main


def test_python_m_lancards_runs_the_installed_package() -> None:
    done = subprocess.run([sys.executable, "-m", "lancards", "--version"], capture_output=True,
                          text=True, timeout=60, cwd="/")
    assert done.returncode == 0
    assert done.stdout.strip() == f"lancards {lancards.__version__}"
    assert lancards.__version__ != "0+unknown"


def test_help_lists_commands_in_the_order_people_use_them(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    names = ["play", "resume", "host", "join", "audit", "replay", "selfplay", "bench", "node"]
    positions = [text.index(f"\n    {name} ") for name in names]
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["play", "--seed", "abc"],
         "lancards play: error: argument --seed: invalid int value: 'abc' "
         "(see 'lancards play --help')"),
        (["bogus"], "lancards: error: argument COMMAND: invalid choice: 'bogus'"),
        ([], "lancards: error: the following arguments are required: COMMAND "
             "(see 'lancards --help')"),
        (["bench", "deck", "--repeats", "0"], "lancards bench: error: --repeats must be 1 or more"),
    ],
)
def test_usage_errors_are_one_line_with_status_2(argv: list[str], line: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(line)


def test_the_distribution_ships_one_top_level_package() -> None:
    from importlib.metadata import distributions

    # The installed one (with a RECORD), not the lancards.egg-info a build leaves in the tree.
    installed = [d for d in distributions(name="lancards") if d.read_text("RECORD")]
    assert len(installed) == 1
    dist = installed[0]
    assert (dist.read_text("top_level.txt") or "").split() == ["lancards"]
    modules = [str(f) for f in dist.files or () if str(f).endswith(".py")]
    if any("__editable__" in name for name in modules):  # pip install -e: a path finder
        return
    roots = {name.split("/")[0] for name in modules if not name.startswith("..")}
    assert roots == {"lancards"}, roots
