"""Fixtures of the whole suite."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest


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
