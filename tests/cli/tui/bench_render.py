"""Benchmark (not a test): how long one full redraw of the table takes late in a game, when the
log holds the whole game. Prints the median of 100 redraws per game and size (milliseconds).

    PYTHONPATH=. .venv/bin/python tests/cli/tui/bench_render.py
"""

from __future__ import annotations

import statistics
import time

from lancards.cli.local_session import LocalSession
from tests.cli.tui.harness import driven

NAMES = ("Tess", "Ada", "Bram", "Cleo")


def late_session(rule_set: str, seed: int = 5) -> LocalSession:
    """A seeded game played by the bots to 30 actions before its end; seat 0 is then the
    player's, so the screen shows a long log and a live table."""
    probe = LocalSession(rule_set, names=NAMES, seed=seed, bot_delay=60, autoplay=True)
    steps = 0
    while probe.step():
        steps += 1
    session = LocalSession(rule_set, names=NAMES, seed=seed, bot_delay=60, autoplay=True)
    for _ in range(steps - 30):
        session.step()
    del session.bots[0]
    session.advance()
    return session


def main() -> None:
    for rule_set in ("level8-master", "eights"):
        session = late_session(rule_set)
        for size in ((80, 24), (100, 30), (160, 40)):
            with driven(session, *size) as d:
                d.press("escape")
                app = d.screen.app
                times = []
                for _ in range(100):
                    start = time.perf_counter()
                    app.renderer.render(app, app.layout)
                    times.append(time.perf_counter() - start)
                print(f"{rule_set} {size[0]}x{size[1]}: {len(session.snapshot().log)} log "
                      f"lines, median redraw {1000 * statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
