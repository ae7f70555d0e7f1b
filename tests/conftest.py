"""Fixtures of the whole suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

os.environ["LANGUAGE"] = "en"
"""The suite's screens and lines are English whatever the developer's LANG (issue 28): German
tests ask for German themselves (``lancards.cli.i18n.set_language("de")``, ``--lang de``)."""

LONG = os.environ.get("LANCARDS_LONG", "") not in ("", "0")
"""Whether the tests marked ``long`` run (``LANCARDS_LONG=1``): whole games that other tests
cover in part, left out of CI's 15-minute budget."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the ``long`` tests unless ``LANCARDS_LONG=1``."""
    if LONG:
        return
    skip = pytest.mark.skip(reason="a long whole game: runs with LANCARDS_LONG=1")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def tmux_keeper() -> Iterator[None]:
    """Keep the tmux server up for the whole run (each xdist worker holds one sleeping session).

    A tmux server exits when its last session ends, and a ``new-session`` racing that exit is
    lost: the test then waits for a screen that never comes. With two workers, one test's
    session ending could take the server down under another's feet. No-op without tmux.
    """
    tmux = shutil.which("tmux")
    if tmux is None:
        yield
        return
    name = f"lancards-keeper-{os.getpid()}"
    subprocess.run([tmux, "new-session", "-d", "-s", name, "sleep 3600"], capture_output=True,
                   timeout=10, check=False)
    try:
        yield
    finally:
        subprocess.run([tmux, "kill-session", "-t", f"={name}"], capture_output=True, timeout=10,
                       check=False)
