"""The ``lancards`` command: one import package, help order, version, one-line errors."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import lancards
import lancards.cli
from lancards.cli.i18n import set_language
from lancards.cli.main import COMMANDS, OneLineParser, build_parser, command_of, main


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
        (["bench", "deck", "--repeats", "0"], "lancards bench: error: --repeats must be 1 or more"),
        (["bench", "net", "--runs", "0"], "lancards bench: error: --runs must be 1 or more"),
        (["--bogus", "play"], "lancards: error: unrecognized arguments: --bogus "
                              "(see 'lancards --help')"),
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


@pytest.mark.parametrize(("argv", "first", "second"), [
    ([], "usage: lancards [-h] [--lang LANG] [--version] COMMAND ...",
     "Card games with friends on a home network: no server, mental poker, every move"),
    (["--lang", "de"], "Aufruf: lancards [-h] [--lang LANG] [--version] COMMAND ...",
     "Kartenspiele mit Freunden im Heimnetz: kein Server, Mental Poker, jeder Zug"),
])
def test_no_command_prints_the_help_with_status_2(argv: list[str], first: str, second: str,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The new-user trial of 2026-12-06: a bare ``lancards`` said only "the following arguments
    are required: COMMAND". It prints ``--help``'s text on stdout, still with argparse's
    status 2 for a command line that runs nothing."""
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps the description at the width
    try:
        status = main(argv)
    finally:
        from lancards.cli.i18n import set_language

        set_language("en")
    out, err = capsys.readouterr()
    assert status == 2
    assert err == ""
    lines = out.splitlines()
    assert lines[:3] == [first, "", second]
    assert "\n    play " in out and "\n    host " in out


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


def _registered(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """(name, help) of every sub-command ``parser`` lists, in order."""
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return [(choice.dest, choice.help) for choice in sub._choices_actions]


def test_the_command_table_says_exactly_what_each_module_registers() -> None:
    # The static table lets ``lancards --help`` list commands without importing their modules;
    # it must not drift from what the modules register (names, help, order, module).
    for module_name in dict.fromkeys(c.module for c in COMMANDS):
        module = importlib.import_module(f"lancards.cli.{module_name}")
        parser = OneLineParser(prog="lancards")
        module.add_parser(parser.add_subparsers(dest="command"))
        assert _registered(parser) == [(c.name, c.help) for c in COMMANDS
                                       if c.module == module_name], module_name
    table = [(c.name, c.help) for c in COMMANDS]
    assert _registered(build_parser()) == table  # every module imported
    assert _registered(build_parser(())) == table  # none imported: names and help only
    for command in COMMANDS:  # one module imported, the others listed
        assert _registered(build_parser((command.name,))) == table
    # Every module of lancards.cli that adds a sub-command is in the table.
    folder = Path(lancards.cli.__file__).parent
    adders = {".".join(p.relative_to(folder).with_suffix("").parts)
              for p in folder.rglob("*.py") if "\ndef add_parser(" in p.read_text("utf-8")}
    assert adders == {c.module for c in COMMANDS}


@pytest.mark.parametrize(
    ("argv", "command"),
    [([], None), (["--version"], None), (["-h", "play"], "play"), (["node", "--help"], "node"),
     (["--", "audit", "x"], "audit"), (["--"], None), (["bogus", "play"], "bogus")],
)
def test_the_command_word_is_the_first_word_that_is_not_an_option(
        argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


def test_a_command_imports_only_its_own_module() -> None:
    # Six peers share two cores (issue 16): `lancards node` must not pay for the terminal client
    # or the benchmarks, and `--help` lists every command without importing one.
    script = """
import sys
from lancards.cli.main import main

for argv in (["--help"], ["node", "--help"]):
    try:
        main(argv)
    except SystemExit:
        pass
    names = [m for m in sys.modules if m.startswith("lancards.cli.") or m == "prompt_toolkit"]
    print(" ".join(sorted(names)), file=sys.stderr)
"""
    done = subprocess.run([sys.executable, "-c", script], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    after_help, after_node = done.stderr.splitlines()
    # lancards.cli.i18n: the words of --help in the player's language (stdlib gettext only)
    assert after_help.split() == ["lancards.cli.errors", "lancards.cli.i18n", "lancards.cli.main"]
    assert after_node.split() == ["lancards.cli.errors", "lancards.cli.i18n", "lancards.cli.main",
                                  "lancards.cli.node_cmd"]


def test_the_game_option_names_every_game_as_people_say_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A new user looking for "8s Rule!" did not know it is called `eights` (issue 25's trial).
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("--game GAME rule set: eights = 8s Rule!, level8 = Level 8, level8-en = Level 8 "
            "(English), level8-master = Level 8 Master (default level8-master)") in text


@pytest.mark.parametrize(("argv", "line"), [
    (["resume", "--interface", "x"],
     "lancards resume: error: unrecognized arguments: --interface "
     "(see 'lancards resume --help')\n"),
    (["--lang", "de", "resume", "--interface", "x"],
     "lancards resume: Fehler: unbekannte Argumente: --interface "
     "(siehe „lancards resume --help“)\n"),
    (["bench", "net", "--bogus"],
     "lancards bench net: error: unrecognized arguments: --bogus "
     "(see 'lancards bench net --help')\n"),
])
def test_an_unknown_argument_of_a_command_is_that_commands_usage_error(
        argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The trial: ``lancards resume --interface x`` said ``lancards: error: ... (see 'lancards
    --help')``, whose help does not list resume's options; the sub-command reports it and
    points at its own help."""
    try:
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert capsys.readouterr().err == line
    finally:
        set_language("en")
