"""Entry point of the ``lancards`` command.

Each sub-command lives in its own module with ``add_parser(subparsers)`` and ``run(args)``;
errors a user can fix print one line and exit with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from lancards.engine.core import EngineError
from lancards.p2p.store import JournalDamaged

# (module, command) pairs; a module not written yet is skipped.
COMMANDS: tuple[str, ...] = (
    "lancards.cli.selfplay",
    "lancards.cli.bench",
    "lancards.cli.play",
    "lancards.cli.record_tools",
    "lancards.cli.node_cmd",
    "lancards.cli.host_join",
)


class UsageError(Exception):
    """A mistake the user can fix; printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every available sub-command."""
    parser = argparse.ArgumentParser(
        prog="lancards",
        description="Card games with friends on a home network: no server, mental poker, "
        "every move verified by every peer.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
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
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
