"""``lancards bench TARGET``: benchmarks that print one JSON object per line.

Targets live in their own modules (``cli.bench.engine``, ``cli.bench.deck``, ...), each with
``add_arguments(parser)`` and ``run(args) -> int``. Figures are medians over repeats; the
machine is printed with them. Speed is measured here, never inside a test.
"""

from __future__ import annotations

import argparse
from types import ModuleType
from typing import Any

from lancards.cli.bench import deck as bench_deck
from lancards.cli.bench import engine as bench_engine
from lancards.cli.bench import leave as bench_leave
from lancards.cli.bench import net as bench_net
from lancards.cli.bench import play as bench_play
from lancards.cli.bench import resume as bench_resume
from lancards.cli.bench.descriptions import DESCRIPTION
from lancards.cli.bench.machine import machine
from lancards.cli.i18n import N_, _

__all__ = ["TARGETS", "add_parser", "machine", "run"]

TARGETS: dict[str, ModuleType] = {
    "engine": bench_engine,
    "deck": bench_deck,
    "net": bench_net,
    "play": bench_play,
    "resume": bench_resume,
    "leave": bench_leave,
}
"""The benchmark targets in the order ``lancards bench --help`` lists them."""

HELP: dict[str, str] = {
    "engine": N_("self-play games per second and legal_actions timing (one core)"),
    "deck": N_("proven shuffles, deals and draws of the mental-poker deck, N peers in one "
               "process"),
    "net": N_("peers as processes on 127.0.0.1: deal time, verified-move latency, bytes sent"),
    "play": N_("what a person waits for at lancards play: Enter to the dealt hand, between "
               "rounds"),
    "resume": N_("from lancards resume to the resumed peer being current, and its parts"),
    "leave": N_("from a leave (or a removal) to play going on; the key escrow's cost"),
}
"""One line of help per target."""


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "bench",
        help=_("run a benchmark (engine, deck, net, play, resume, leave) and print JSON lines"),
        description=_("Run a benchmark and print one JSON object per line and configuration."),
    )
    targets = parser.add_subparsers(dest="target", metavar="TARGET")
    targets.required = True
    for name, module in TARGETS.items():
        target = targets.add_parser(name, help=_(HELP[name]), description=_(DESCRIPTION[name]))
        module.add_arguments(target)
        target.set_defaults(run=module.run)


def run(args: argparse.Namespace) -> int:  # pragma: no cover - replaced by the target's run
    return 2
