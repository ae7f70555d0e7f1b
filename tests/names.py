"""The names the test harness gives what it shares with the rest of the machine.

Network namespaces and tmux servers are machine-wide (tmux's ``-L`` sockets live in
``/tmp/tmux-<uid>/``, one directory for every run of one user). Every name the suite gives them
starts with :data:`PREFIX`, from ``LANCARDS_TEST_PREFIX`` (default ``lc``), and holds the pid of
the process that made it, so two runs on one machine (two people, or two checkouts) stay apart
when each sets a prefix of its own, and no test ever reaches the default tmux server (a
developer's own sessions): every tmux command of the suite names a server with ``-L``.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Final

PREFIX_ENV: Final = "LANCARDS_TEST_PREFIX"


def _prefix() -> str:
    value = os.environ.get(PREFIX_ENV, "") or "lc"
    if not re.fullmatch(r"[a-z][a-z0-9]{0,3}", value):
        # network interface names inside the namespaces are built from it (15 bytes at most)
        raise ValueError(f"{PREFIX_ENV}={value!r}: 1 to 4 lowercase letters or digits, "
                         "starting with a letter")
    return value


PREFIX: Final = _prefix()
"""The first part of every namespace and tmux server name of this run (``lc`` by default)."""

TMUX_SERVER: Final = f"{PREFIX}-tmux-{os.getpid()}"
"""This process's shared tmux server (``-L``), held up for the whole run by the ``tmux_keeper``
fixture of ``tests/conftest.py`` and ended with it."""


def tmux_socket(tag: str) -> str:
    """A tmux server name of this run and process for ``tag`` (a test's own server)."""
    return f"{PREFIX}-{tag}-{os.getpid()}"


def tmux_argv(*args: str, server: str = TMUX_SERVER) -> list[str]:
    """The command line of ``tmux ARGS`` on ``server`` (this process's shared one by default)."""
    return ["tmux", "-L", server, *args]


def end_tmux_server(server: str = TMUX_SERVER) -> None:
    """End ``server`` and remove its socket file, which ``kill-server`` leaves (tmux 3.3a)."""
    shown = subprocess.run(tmux_argv("display-message", "-p", "#{socket_path}", server=server),
                           capture_output=True, text=True, timeout=10, check=False)
    subprocess.run(tmux_argv("kill-server", server=server), capture_output=True, timeout=10,
                   check=False)
    socket = shown.stdout.strip()
    if shown.returncode == 0 and socket.endswith(f"/{server}"):
        Path(socket).unlink(missing_ok=True)
