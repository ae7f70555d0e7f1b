"""Entry point of the ``lancards`` command.

Each sub-command lives in its own module with ``add_parser(subparsers)`` and ``run(args)``;
errors a user can fix print one line and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

import lancards
from lancards.cli import (
    bench,
    lobby_host,
    lobby_join,
    node_cmd,
    play,
    record_tools,
    selfplay,
)
from lancards.cli.errors import UsageError
from lancards.engine.core import EngineError
from lancards.p2p.store import JournalDamaged

# The modules that add sub-commands, in the order a person meets them in ``--help``: play
# (and resume), host and join, audit and replay, then the tools (selfplay, bench, node).
COMMANDS: tuple[ModuleType, ...] = (
    play, lobby_host, lobby_join, record_tools, selfplay, bench, node_cmd)

__all__ = ["COMMANDS", "OneLineParser", "UsageError", "build_parser", "main"]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``lancards play: error: ...``) and
    exit status 2, without the usage block (``--help`` still shows it). Sub-command parsers
    inherit the class (``add_subparsers`` makes them of the parent's type)."""

    def error(self, message: str) -> NoReturn:
        hint = f" (see '{self.prog} --help')"
        self.exit(2, f"{self.prog}: error: {message}{hint}\n")


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every available sub-command."""
    parser = OneLineParser(
        prog="lancards",
        description="Card games with friends on a home network: no server, mental poker, "
        "every move verified by every peer.",
    )
    parser.add_argument("--version", action="version", version=f"lancards {lancards.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
    except (UsageError, EngineError, JournalDamaged) as exc:  # JournalDamaged: resume refused
        print(f"lancards {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a pager or head that stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
