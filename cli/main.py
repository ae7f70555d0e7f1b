"""Entry point of the ``lancards`` command.

Each sub-command lives in its own module with ``add_parser(subparsers)`` and ``run(args)``;
errors a user can fix print one line and exit with status 2, never a traceback.

Start-up imports only the module of the command given: :data:`COMMANDS` names every command,
its one-line help and its module, so ``lancards --help`` lists them all without importing any,
and ``lancards node`` does not pay for the terminal client or the benchmarks (issue 16: peers
share the cores, and every process's start counts). ``tests/cli/test_main.py`` checks that the
table says exactly what the modules register.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, NoReturn

import lancards
from lancards.cli.errors import UsageError
from lancards.cli.i18n import LANGUAGES, N_, _, lang_from_argv, set_language


class Command(NamedTuple):
    """One sub-command: its name, its one-line help (as ``lancards --help`` shows it) and the
    module under ``lancards.cli`` whose ``add_parser`` registers it."""

    name: str
    help: str
    module: str


# In the order a person meets them in ``--help``: play (and resume), host and join, audit and
# replay, then the tools (selfplay, bench, node). A module's commands are next to each other.
COMMANDS: tuple[Command, ...] = (
    Command("play", N_("play at a table with bots in the full-screen terminal client"),
            "play"),
    Command("resume", N_("continue a table after a pause or a crash, from the journals on disk"),
            "play"),
    Command("host", N_("advertise a table on the network and play when it is full"),
            "lobby.host"),
    Command("join", N_("find tables on the network (mDNS) and join one"), "lobby.join"),
    Command("watch", N_("follow a started table as an observer, without a seat"), "watch"),
    Command("audit", N_("verify a game record end to end and print a verdict"),
            "record_tools"),
    Command("replay", N_("step through a finished game in public view"), "record_tools"),
    Command("history", N_("list your games, finished and unfinished, newest first"),
            "history"),
    Command("selfplay",
            N_("play whole games between bots in one process: each level's wins, a tournament"),
            "selfplay"),
    Command("bench",
            N_("run a benchmark (engine, deck, net, play, resume, leave) and print JSON lines"),
            "bench.command"),
    Command("node", N_("run one bot peer of a started table from a config file (scripts, tests)"),
            "node_cmd"),
)
"""Every sub-command of ``lancards``."""

__all__ = ["COMMANDS", "Command", "OneLineParser", "SubCommandParser", "UsageError",
           "build_parser", "command_of", "main"]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``lancards play: error: ...``) and
    exit status 2, without the usage block (``--help`` still shows it). Sub-command parsers
    inherit the class (``add_subparsers`` makes them of the parent's type)."""

    def error(self, message: str) -> NoReturn:
        text = _("{prog}: error: {message} (see '{prog} --help')")
        self.exit(2, text.format(prog=self.prog, message=message) + "\n")

    def add_subparsers(self, **kwargs: Any) -> Any:
        """Sub-commands whose parsers are :class:`SubCommandParser` (their own unrecognized
        arguments are their own usage errors)."""
        kwargs.setdefault("parser_class", SubCommandParser)
        return super().add_subparsers(**kwargs)


class SubCommandParser(OneLineParser):
    """A sub-command's parser: an argument after the sub-command that it does not know is its
    usage error, pointing at its own ``--help`` (the trial: ``lancards resume --interface x``
    said ``lancards: error: unrecognized arguments: --interface (see 'lancards --help')``).
    argparse hands a sub-command the rest of the line through ``parse_known_args`` and reports
    what is left over from the top-level parser; this parser reports it itself."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(_("unrecognized arguments: %s") % " ".join(extras))
        return parsed, extras


def command_of(argv: Sequence[str]) -> str | None:
    """The sub-command word of ``argv`` (without the program name): the first word that is not
    an option (of the top-level options, ``--help`` and ``--version`` take no value, ``--lang``
    one), or the word after ``--``; None when there is none."""
    skip = False
    for i, word in enumerate(argv):
        if skip:
            skip = False
        elif word == "--":
            return argv[i + 1] if i + 1 < len(argv) else None
        elif word == "--lang":
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every sub-command.

    ``commands``: the names whose modules are imported and whose full parsers are built; every
    other command is listed by name and help only (from :data:`COMMANDS`) and cannot run. None
    (the default) builds every command in full, importing every module."""
    names = {c.name for c in COMMANDS} if commands is None else set(commands)
    full = {c.module for c in COMMANDS if c.name in names}
    parser = OneLineParser(
        prog="lancards",
        description=_("Card games with friends on a home network: no server, mental poker, "
                      "every move verified by every peer."),
    )
    add_lang(parser)
    parser.add_argument("--version", action="version", version=f"lancards {lancards.__version__}",
                        help=_("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = False  # none: main prints this help (a bare "lancards", the trial)
    added: set[str] = set()
    for command in COMMANDS:
        if command.module not in full:
            sub.add_parser(command.name, help=_(command.help))
        elif command.module not in added:  # the module adds all of its commands at once
            added.add(command.module)
            importlib.import_module(f"lancards.cli.{command.module}").add_parser(sub)
    for name, command_parser in sub.choices.items():
        add_lang(command_parser)
        help_of = next((c.help for c in COMMANDS if c.name == name), None)
        for action in sub._choices_actions:  # the command list of --help, in the language
            if action.dest == name and help_of is not None:
                action.help = _(help_of)
    return parser


def add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on ``parser`` (read before parsing, :func:`lancards.cli.i18n.lang_from_argv`;
    here so that every command accepts it and ``--help`` names it)."""
    parser.add_argument("--lang", metavar="LANG", default=None,
                        help=_("the language of the words shown: {languages} (default: the "
                               "environment's, LANG / LC_ALL; else English)").format(
                                   languages=", ".join(LANGUAGES)))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    warning = set_language(lang_from_argv(words))
    if warning:
        print(warning, file=sys.stderr)
    command = command_of(words)
    known = command if any(c.name == command for c in COMMANDS) else None
    parser = build_parser(() if known is None else (known,))
    args = parser.parse_args(words)
    args.lang = lang_from_argv(words)  # the one asked for, wherever it stood (resume's default)
    if args.command is None:  # a bare "lancards": the help, not "arguments are required"
        parser.print_help()
        return 2  # argparse's status for a command line that runs nothing
    # After parsing: --help and --version have exited without importing the engine.
    from lancards.engine.core import EngineError
    from lancards.p2p.net.folder_lock import FolderBusy, release_all
    from lancards.p2p.net.store import JournalDamaged, StorageError
    from lancards.p2p.protocol.errors import IdentityError

    if getattr(args, "verbose", False):  # host, join: the exceptions behind the words, on stderr
        from lancards.p2p.net.failure_words import verbose_logging

        verbose_logging()
    try:
        status = args.run(args)
    # JournalDamaged: resume refused; FolderBusy: another process plays this seat; StorageError
    # and IdentityError: a file or folder that cannot be written or read (issue 24).
    except (UsageError, EngineError, JournalDamaged, FolderBusy, StorageError,
            IdentityError) as exc:
        from lancards.cli.peer_errors import error_words

        # the peer layer's faults have words in every language (issue 28)
        from lancards.cli.rules_errors import rules_error_words

        said = error_words(exc) if isinstance(
            exc, JournalDamaged | FolderBusy | StorageError | IdentityError) else \
            rules_error_words(exc) if isinstance(exc, EngineError) else str(exc)
        from lancards.cli.tui.fit import echo, plain

        said = plain(said)  # ruling ids are for docs/ (the trial of 2026-12-05: "(ruling E-10)")
        echo(_("lancards {command}: error: {error}").format(command=args.command, error=said),
             sys.stderr)  # on a terminal wrapped at a space (a trial read "gi" / "ven")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into a pager or head that stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        release_all()  # the table folders' locks of this command (the kernel would, at exit)
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
