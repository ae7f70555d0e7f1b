"""``lancards bench TARGET``: benchmarks that print one JSON object per line.

Targets live in their own modules (``cli.bench_engine``, ``cli.bench_deck``, ...), each with
``add_arguments(parser)`` and ``run(args) -> int``. Figures are medians over repeats; the
machine is printed with them. Speed is measured here, never inside a test.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
from typing import Any

TARGETS: dict[str, str] = {
    "engine": "lancards.cli.bench_engine",
    "deck": "lancards.cli.bench_deck",
    "net": "lancards.cli.bench_net",
    "resume": "lancards.cli.bench_resume",
}


def machine() -> dict[str, Any]:
    """Facts about this machine to print beside the figures."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "processor": model,
    }


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "bench",
        help="run a benchmark (engine, deck, net, resume) and print JSON lines",
        description="Run a benchmark and print one JSON object per line and configuration.",
    )
    targets = parser.add_subparsers(dest="target", metavar="TARGET")
    targets.required = True
    for name, module_name in TARGETS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        target = targets.add_parser(name, help=(module.__doc__ or name).strip().splitlines()[0])
        module.add_arguments(target)
        target.set_defaults(run=module.run)


def run(args: argparse.Namespace) -> int:  # pragma: no cover - replaced by the target's run
    return 2
