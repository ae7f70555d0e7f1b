"""Fixtures of the whole suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from tests.names import PREFIX, end_tmux_server, tmux_argv

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
    """Keep this process's tmux server (``tests.names.TMUX_SERVER``, a ``-L`` socket of its
    own, never the default server) up for the whole run, then end it.

    A tmux server exits when its last session ends, and a ``new-session`` racing that exit is
    lost: the test then waits for a screen that never comes. Each xdist worker has a server of
    its own (the pid is in its name) and holds one sleeping session on it. No-op without tmux.
    """
    tmux = shutil.which("tmux")
    if tmux is None:
        yield
        return
    name = f"{PREFIX}-keeper-{os.getpid()}"
    subprocess.run(tmux_argv("new-session", "-d", "-s", name, "sleep 3600"),
                   capture_output=True, timeout=10, check=False)
    try:
        yield
    finally:
        end_tmux_server()
